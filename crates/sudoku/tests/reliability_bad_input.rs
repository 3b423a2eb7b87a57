//! The bad-input suite (`datasets/bad-input/sudoku-bad-input.suite`) through the `sudoku` binary: every line gets
//! the outcome written on it, every failure is named on stderr by file and line, every other line still gets its
//! result, and the output is the same with one thread, two threads and on a second run. Also: a puzzle built
//! against brute force stops at a node limit with status `limit`.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use sudoku::parse::{ParseErrorKind, Reader};

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/bad-input/sudoku-bad-input.suite")
}

/// What a suite line expects: `# expect STATUS [COUNT][: FRAGMENT]`.
#[derive(Debug)]
struct Expected {
    status: String,
    count: Option<u64>,
    fragment: Option<String>,
}

/// The expectations of the suite by 1-based line, read from the raw bytes (some lines are not UTF-8); comment
/// lines are skipped.
fn expectations(bytes: &[u8]) -> BTreeMap<usize, Expected> {
    const MARK: &[u8] = b"# expect ";
    let mut map = BTreeMap::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.trim_ascii_start().starts_with(b"#") {
            continue; // a comment line, not a puzzle
        }
        let Some(at) = line.windows(MARK.len()).position(|w| w == MARK) else {
            continue;
        };
        let text = String::from_utf8(line[at + MARK.len()..].to_vec()).unwrap();
        let text = text.trim_end_matches('\r');
        let (head, fragment) = match text.split_once(": ") {
            Some((h, f)) => (h, Some(f.to_string())),
            None => (text, None),
        };
        let mut words = head.split_whitespace();
        let status = words.next().unwrap().to_string();
        let count = words.next().map(|c| c.parse().unwrap());
        map.insert(
            i + 1,
            Expected {
                status,
                count,
                fragment,
            },
        );
    }
    map
}

fn solve(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("sudoku")
        .unwrap()
        .arg("solve")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_suite_covers_every_bad_input_class() {
    let bytes = std::fs::read(suite()).unwrap();
    let expected = expectations(&bytes);
    assert!(bytes.starts_with(b"\xEF\xBB\xBF"), "BOM on line 1");
    assert!(bytes.windows(2).any(|w| w == b"\r\n"), "a CRLF line");
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "a line that is not UTF-8"
    );
    assert!(
        bytes.split(|&b| b == b'\n').any(|l| l.len() > 65_536),
        "a huge line"
    );
    let fragments: Vec<&str> = expected
        .values()
        .filter_map(|e| e.fragment.as_deref())
        .collect();
    for class in [
        "wrong length",
        "unexpected character 'x'",
        "unexpected character 'é'",
        "givens clash",
        "the empty grid",
        "yet no solution",
        "one given short of unique",
        "a 16x16 board uses",
        "line longer than",
        "invalid UTF-8",
        "incomplete grid",
        "glued",
    ] {
        assert!(
            fragments.iter().any(|f| f.contains(class)),
            "no line for {class}"
        );
    }
}

#[test]
fn every_suite_line_gets_its_expected_status_and_failures_name_file_and_line() {
    let path = suite();
    let expected = expectations(&std::fs::read(&path).unwrap());
    let path_arg = path.to_str().unwrap();
    let (code, stdout, stderr) = solve(&["--count", "--format", "jsonl", "-j", "2", path_arg]);
    assert_eq!(
        code,
        Some(1),
        "some lines fail, none is a usage error: {stderr}"
    );
    let results: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lines: Vec<usize> = results
        .iter()
        .map(|r| r["line"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(
        lines,
        expected.keys().copied().collect::<Vec<_>>(),
        "exactly one result per expected line, in input order"
    );
    for (r, (line, want)) in results.iter().zip(&expected) {
        assert_eq!(r["status"], want.status.as_str(), "line {line}: {r}");
        if let Some(count) = want.count {
            assert_eq!(r["solutions"], count, "line {line}: {r}");
        }
        if want.status == "invalid" {
            let error = r["error"].as_str().unwrap();
            assert!(
                error.starts_with(&format!("line {line}")),
                "line {line}: {error}"
            );
            if let Some(fragment) = &want.fragment {
                assert!(
                    error.contains(fragment.as_str()),
                    "line {line}: {error:?} lacks {fragment:?}"
                );
            }
        }
        if want.status == "solved" {
            let solution = r["solution"].as_str().unwrap();
            assert!(!solution.contains('.'), "line {line}: {solution}");
        } else {
            let named = format!("{path_arg}: line {line}");
            assert!(
                stderr.contains(&named),
                "stderr does not name {named}: {stderr}"
            );
        }
    }
}

#[test]
fn line_output_is_identical_with_one_thread_two_threads_and_a_second_run() {
    let path = suite();
    let path_arg = path.to_str().unwrap();
    let (_, one, err_one) = solve(&["--count", "-j", "1", path_arg]);
    let (_, two, err_two) = solve(&["--count", "-j", "2", path_arg]);
    let (_, again, _) = solve(&["--count", "-j", "2", path_arg]);
    assert_eq!(one, two);
    assert_eq!(two, again);
    assert_eq!(err_one, err_two, "stderr is written in input order too");
    assert_eq!(
        one.lines().count(),
        expectations(&std::fs::read(&path).unwrap()).len()
    );
}

/// The puzzle from the "brute force" section of Wikipedia's Sudoku solving algorithms article, built so that a
/// row-major, ascending-digit DFS needs hundreds of millions of steps (its first row solves to 987654321).
const AGAINST_BRUTE_FORCE: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

#[test]
fn a_puzzle_built_against_brute_force_stops_at_the_node_limit_with_status_limit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hard.txt");
    std::fs::write(&file, format!("{AGAINST_BRUTE_FORCE}\n")).unwrap();
    let file = file.to_str().unwrap();
    for solver in ["naive", "table"] {
        let (code, stdout, stderr) = solve(&[
            "--solver",
            solver,
            "--node-limit",
            "200000",
            "--format",
            "jsonl",
            file,
        ]);
        assert_eq!(code, Some(1), "{solver}: {stderr}");
        let r: Value = serde_json::from_str(stdout.trim()).unwrap();
        assert_eq!(r["status"], "limit", "{solver}: {r}");
        assert_eq!(r["nodes"], 200_000, "{solver}: {r}");
        assert!(
            stderr.contains(&format!("{file}: line 1: limit")),
            "{solver}: {stderr}"
        );
    }
}

#[test]
fn lines_too_long_for_a_grid_row_end_the_grid_instead_of_vanishing_into_it() {
    // A word line with a comma (a CSV header in the middle of a file) has 16 cells once the comma is dropped, so
    // it starts a 16x16 grid; the one-line puzzles gone wrong after it must still get their own results.
    let leet = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let text = format!(
        "{leet}\nquizzes,solutions\n{short}\n{leet}1\n{leet}\n",
        short = &leet[..80]
    );
    let records: Vec<_> = Reader::new(text.as_bytes()).collect();
    let lines: Vec<usize> = records.iter().map(|r| r.line).collect();
    assert_eq!(lines, [1, 2, 3, 4, 5]);
    let kinds: Vec<Option<&ParseErrorKind>> = records
        .iter()
        .map(|r| r.item.as_ref().err().map(|e| &e.kind))
        .collect();
    assert!(kinds[0].is_none() && kinds[4].is_none());
    assert!(matches!(
        kinds[2],
        Some(ParseErrorKind::WrongLength { found: 80, .. })
    ));
    assert!(matches!(
        kinds[3],
        Some(ParseErrorKind::WrongLength { found: 82, .. })
    ));
}
