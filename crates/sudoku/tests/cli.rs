//! The `sudoku` binary: files and stdin, every output format, error classes with their messages and exit codes,
//! input order under parallelism, and `check`.

#![allow(clippy::unwrap_used)]

mod common;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use common::test_set;

const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const LEET_SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const UNSAT: &str =
    "12345678.........9...............................................................";

fn sudoku() -> Command {
    Command::cargo_bin("sudoku").unwrap()
}

fn jsonl(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Path of a CSV fixture in `tests/fixtures/csv/`.
fn csv_fixture(name: &str) -> String {
    format!("{}/tests/fixtures/csv/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The puzzle column of a `puzzle:count:solution` file, as a puzzle file.
fn puzzles_of(name: &str) -> String {
    common::expected(name)
        .iter()
        .map(|e| e.puzzle.to_line() + "\n")
        .collect()
}

#[test]
fn solves_a_file_in_line_format_and_exits_zero() {
    sudoku()
        .args(["solve", test_set("classic.txt").to_str().unwrap()])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!("{LEET_SOLVED}\n")));
}

#[test]
fn reads_stdin_when_no_file_or_a_dash_is_given() {
    for args in [vec!["solve"], vec!["solve", "-"]] {
        sudoku()
            .args(&args)
            .write_stdin(format!("{LEET}\n"))
            .assert()
            .success()
            .stdout(format!("{LEET_SOLVED}\n"));
    }
}

#[test]
fn jsonl_has_exactly_the_specified_keys_per_status() {
    let input = format!("{LEET}\n\n# comment\n{UNSAT}\nbad line\n");
    let out = sudoku()
        .args(["solve", "--format", "jsonl", "--count"])
        .write_stdin(input)
        .assert()
        .code(1);
    let raw = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let raw: Vec<&str> = raw.lines().collect();
    let rows = jsonl(&out.get_output().stdout);
    assert_eq!(rows.len(), 3, "blank and comment lines produce no object");
    // The keys in the order they appear on the line (serde_json's map sorts them).
    let keys = |v: &Value| {
        let line = raw[rows.iter().position(|r| r == v).unwrap()];
        let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort_by_key(|k| line.find(&format!("\"{k}\":")).unwrap());
        keys
    };
    assert_eq!(
        keys(&rows[0]),
        [
            "file",
            "line",
            "status",
            "solution",
            "solutions",
            "nodes",
            "micros"
        ]
    );
    assert_eq!(rows[0]["file"], "-", "stdin is named `-`");
    assert_eq!(rows[0]["line"], 1);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["solution"], LEET_SOLVED);
    assert_eq!(rows[0]["solutions"], 1);
    // The default solver (`fast`) solves this puzzle by propagation alone: zero search nodes is a valid count.
    assert!(rows[0]["nodes"].as_u64().is_some());
    assert_eq!(
        keys(&rows[1]),
        ["file", "line", "status", "solutions", "nodes", "micros"]
    );
    assert_eq!(
        (rows[1]["line"].as_u64(), rows[1]["status"].as_str()),
        (Some(4), Some("unsatisfiable"))
    );
    assert_eq!(rows[1]["solutions"], 0);
    assert_eq!(keys(&rows[2])[..4], ["file", "line", "status", "error"]);
    assert_eq!(
        (rows[2]["line"].as_u64(), rows[2]["status"].as_str()),
        (Some(5), Some("invalid"))
    );
    assert!(rows[2]["error"].as_str().unwrap().contains("wrong length"));
}

#[test]
fn without_count_jsonl_has_no_solutions_key() {
    let out = sudoku()
        .args(["solve", "--format", "jsonl"])
        .write_stdin(LEET)
        .assert()
        .success();
    let rows = jsonl(&out.get_output().stdout);
    assert!(rows[0].get("solutions").is_none());
}

#[test]
fn count_tells_unique_multiple_and_none_apart() {
    let input = format!("{LEET}\n{}\n{UNSAT}\n", ".".repeat(81));
    let out = sudoku()
        .args(["solve", "--count", "--format", "jsonl"])
        .write_stdin(input)
        .assert()
        .code(1);
    let counts: Vec<u64> = jsonl(&out.get_output().stdout)
        .iter()
        .map(|r| r["solutions"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [1, 2, 0]);
}

#[test]
fn every_malformed_line_gets_its_status_message_and_the_others_still_solve() {
    let path = test_set("malformed.txt");
    let expected = std::fs::read_to_string(test_set("malformed.expected")).unwrap();
    let out = sudoku()
        .args(["solve", "--format", "jsonl", path.to_str().unwrap()])
        .assert()
        .code(1);
    let rows = jsonl(&out.get_output().stdout);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let wanted: Vec<(u64, &str, &str)> = expected
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            (
                f.next().unwrap().parse().unwrap(),
                f.next().unwrap(),
                f.next().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(rows.len(), wanted.len(), "one result per puzzle line");
    for (row, (line, status, text)) in rows.iter().zip(&wanted) {
        assert_eq!(row["line"].as_u64(), Some(*line));
        assert_eq!(row["status"].as_str(), Some(*status), "line {line}");
        if *status == "invalid" {
            let error = row["error"].as_str().unwrap();
            assert!(
                error.contains(text),
                "line {line}: {error:?} lacks {text:?}"
            );
            assert!(
                stderr.contains(&format!("malformed.txt: line {line}")),
                "stderr names line {line}"
            );
        }
        if *status == "solved" {
            assert_eq!(row["solution"].as_str().unwrap().len(), 81);
        }
    }
    assert!(stderr.contains("malformed.txt: line 11: unsatisfiable"));
}

#[test]
fn grid_format_prints_headers_and_reads_back_through_check() {
    let out = sudoku()
        .args(["solve", "--format", "grid"])
        .write_stdin(format!("{LEET}\n"))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.starts_with("# line 1: solved\n5 3 4 | 6 7 8 | 9 1 2\n"),
        "{text}"
    );
    assert!(text.contains("------+-------+------"));
    sudoku()
        .args(["check", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout("checked 1: 1 ok, 0 failed\n");
}

#[test]
fn output_order_is_input_order_with_one_or_two_threads_across_chunks() {
    // More records than one parallel chunk (4096), mixing sizes and outcomes.
    let mut input = String::new();
    for name in ["4x4.txt", "9x9.txt", "classic.txt", "16x16.txt"] {
        input.push_str(&puzzles_of(name));
    }
    let small = puzzles_of("4x4.txt");
    while input.lines().count() < 5000 {
        input.push_str(&small);
    }
    let run = |threads: &str| {
        let out = sudoku()
            .args(["solve", "--count", "--format", "jsonl", "-j", threads])
            .write_stdin(input.clone())
            .assert()
            .code(1);
        let mut rows = jsonl(&out.get_output().stdout);
        for r in &mut rows {
            r.as_object_mut().unwrap().remove("micros");
        }
        rows
    };
    let one = run("1");
    let two = run("2");
    assert_eq!(one.len(), input.lines().count());
    assert!(one
        .iter()
        .enumerate()
        .all(|(i, r)| r["line"].as_u64() == Some(i as u64 + 1)));
    assert_eq!(
        one, two,
        "deterministic solver: same statuses, solutions and nodes"
    );
}

#[test]
fn node_limit_reports_limit_not_unsatisfiable() {
    let wiki = common::expected("famous.txt")
        .pop()
        .unwrap()
        .puzzle
        .to_line();
    sudoku()
        .args([
            "solve",
            "--solver",
            "table",
            "--node-limit",
            "1000",
            "--format",
            "jsonl",
        ])
        .write_stdin(wiki)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("\"status\":\"limit\"")
                .and(predicate::str::contains("\"nodes\":1000,")),
        )
        .stderr(predicate::str::contains("<stdin>: line 1: limit"));
}

#[test]
fn time_limit_accepts_units_and_rejects_nonsense() {
    sudoku()
        .args(["solve", "--time-limit", "2s"])
        .write_stdin(LEET)
        .assert()
        .success();
    sudoku()
        .args(["solve", "--time-limit", "250ms"])
        .write_stdin(LEET)
        .assert()
        .success();
    sudoku()
        .args(["solve", "--time-limit", "soon"])
        .write_stdin(LEET)
        .assert()
        .code(2);
    // 0 = no limit (as in bench-runner), not "stop at once": a puzzle that needs search is still solved.
    let hard = "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6";
    sudoku()
        .args([
            "solve",
            "--solver",
            "csp-mrv",
            "--time-limit",
            "0",
            "--format",
            "jsonl",
        ])
        .write_stdin(hard)
        .assert()
        .success()
        .stdout(predicate::str::contains("\"status\":\"solved\""));
}

#[test]
fn usage_and_io_errors_exit_two_with_a_message() {
    sudoku()
        .args(["solve", "--solver", "quantum"])
        .write_stdin(LEET)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown solver `quantum`")
                .and(predicate::str::contains("table")),
        );
    sudoku()
        .args(["solve", "--size", "10"])
        .write_stdin(LEET)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("10"));
    sudoku()
        .args(["solve", "--format", "xml"])
        .write_stdin(LEET)
        .assert()
        .code(2);
    // A missing file is reported, and the other inputs are still solved (named: two inputs were given).
    sudoku()
        .args(["solve", "/no/such/file.txt", "-"])
        .write_stdin(LEET)
        .assert()
        .code(2)
        .stdout(format!("<stdin>:1:{LEET_SOLVED}\n"))
        .stderr(predicate::str::contains("/no/such/file.txt"));
    sudoku()
        .args(["check", "/no/such/file.txt"])
        .assert()
        .code(2);
    sudoku().arg("frobnicate").assert().code(2);
}

#[test]
fn every_registered_solver_runs_from_the_command_line() {
    for info in sudoku::registry() {
        sudoku()
            .args(["solve", "--solver", info.name])
            .write_stdin(LEET)
            .assert()
            .success()
            .stdout(format!("{LEET_SOLVED}\n"));
    }
    let listed = sudoku().arg("list").assert().success();
    let text = String::from_utf8(listed.get_output().stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), sudoku::registry().len());
}

#[test]
fn explicit_size_reads_sixteen_character_rows_as_a_sixteen_by_sixteen_grid() {
    let e = &common::expected("16x16.txt")[0];
    let line = e.puzzle.to_line();
    let rows: String = line
        .as_bytes()
        .chunks(16)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    sudoku()
        .args(["solve", "--size", "16"])
        .write_stdin(rows)
        .assert()
        .success()
        .stdout(format!("{}\n", e.solution.as_ref().unwrap().to_line()));
}

#[test]
fn check_verifies_csv_pairs_and_names_the_wrong_line() {
    let zeros = LEET.replace('.', "0");
    let mut wrong = LEET_SOLVED.to_string();
    wrong.replace_range(80..81, "8");
    let good = format!("quizzes,solutions\n{zeros},{LEET_SOLVED}\n");
    sudoku()
        .args(["check", "-"])
        .write_stdin(good.clone())
        .assert()
        .success()
        .stdout("checked 1: 1 ok, 0 failed\n");
    let bad = format!("{good}{zeros},{wrong}\n");
    sudoku()
        .args(["check", "-"])
        .write_stdin(bad)
        .assert()
        .code(1)
        .stdout("checked 2: 1 ok, 1 failed\n")
        .stderr(predicate::str::contains("<stdin>: line 3: wrong:"));
}

#[test]
fn check_with_puzzles_pairs_solve_output_with_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("p.txt");
    std::fs::write(&puzzles, puzzles_of("9x9.txt")).unwrap();
    let out = sudoku()
        .args(["solve", puzzles.to_str().unwrap()])
        .assert()
        .code(1); // some are unsatisfiable
    let solved = out.get_output().stdout.clone();
    let n = common::expected("9x9.txt").len();
    let unsat = common::expected("9x9.txt")
        .iter()
        .filter(|e| e.count == 0)
        .count();
    sudoku()
        .args(["check", "--puzzles", puzzles.to_str().unwrap(), "-"])
        .write_stdin(solved)
        .assert()
        .code(1)
        .stdout(format!("checked {n}: {} ok, {unsat} failed\n", n - unsat))
        .stderr(predicate::str::contains("not a solution"));
}

#[test]
fn check_counts_solutions_missing_for_some_puzzles_apart_from_the_lines_it_checked() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = dir.path().join("p.txt");
    std::fs::write(&puzzles, format!("{LEET}\n{LEET}\n{LEET}\n")).unwrap();
    sudoku()
        .args(["check", "--puzzles", puzzles.to_str().unwrap(), "-"])
        .write_stdin(format!("{LEET_SOLVED}\n"))
        .assert()
        .code(1)
        .stdout("checked 1: 1 ok, 0 failed, 2 puzzles without a solution\n")
        .stderr(predicate::str::contains(
            "2 puzzles have no solution in <stdin>",
        ));
}

#[test]
fn jsonl_names_the_file_of_every_result_when_several_inputs_are_given() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::write(&a, format!("{LEET}\n{UNSAT}\n")).unwrap();
    std::fs::write(&b, format!("\n{LEET}\n")).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = sudoku()
        .args(["solve", "--format", "jsonl", a, "-", b])
        .write_stdin(format!("{LEET}\n"))
        .assert()
        .code(1);
    let rows: Vec<(String, u64, String)> = jsonl(&out.get_output().stdout)
        .iter()
        .map(|r| {
            (
                r["file"].as_str().unwrap().to_string(),
                r["line"].as_u64().unwrap(),
                r["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let row = |f: &str, l: u64, s: &str| (f.to_string(), l, s.to_string());
    assert_eq!(
        rows,
        [
            row(a, 1, "solved"),
            row(a, 2, "unsatisfiable"),
            row("-", 1, "solved"),
            row(b, 2, "solved"),
        ]
    );
}

#[test]
fn line_and_grid_results_name_their_file_when_several_inputs_are_given() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    std::fs::write(&a, format!("{LEET}\n{UNSAT}\n")).unwrap();
    std::fs::write(&b, format!("\n{LEET}\n")).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let run = |args: &[&str]| {
        let out = sudoku()
            .arg("solve")
            .args(args)
            .write_stdin(format!("{LEET}\n"))
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        run(&[a, "-", b]),
        format!("{a}:1:{LEET_SOLVED}\n{a}:2:unsatisfiable\n<stdin>:1:{LEET_SOLVED}\n{b}:2:{LEET_SOLVED}\n")
    );
    let grid = run(&["--format", "grid", a, b]);
    let headers: Vec<&str> = grid.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        headers,
        [
            format!("# {a}: line 1: solved"),
            format!("# {a}: line 2: unsatisfiable"),
            format!("# {b}: line 2: solved"),
        ]
    );
    // --no-filename: the results of each input exactly as when it is given alone, one after the other.
    for format in ["line", "grid"] {
        let alone: String = [a, "-", b]
            .iter()
            .map(|f| run(&["--format", format, f]))
            .collect();
        assert_eq!(
            run(&["--format", format, "--no-filename", a, "-", b]),
            alone,
            "{format}"
        );
        assert!(!alone.contains(a), "one input is never prefixed");
    }
    // -H names the file of a single input (stdin too); the last of -H / --no-filename wins.
    assert_eq!(
        run(&["-H", a]).lines().next().unwrap(),
        format!("{a}:1:{LEET_SOLVED}")
    );
    assert_eq!(
        run(&["--with-filename"]),
        format!("<stdin>:1:{LEET_SOLVED}\n")
    );
    assert_eq!(
        run(&["-H", "--no-filename", a, b]).lines().next().unwrap(),
        LEET_SOLVED
    );
    assert_eq!(
        run(&["--no-filename", "-H", b]),
        format!("{b}:2:{LEET_SOLVED}\n")
    );
    // JSON lines name the file either way.
    assert!(run(&["--format", "jsonl", "--no-filename", b]).contains(&format!("\"file\":\"{b}\"")));
}

#[test]
fn help_documents_the_file_name_flags_and_the_exit_status() {
    sudoku()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("-H, --with-filename")
                .and(predicate::str::contains("--no-filename"))
                .and(predicate::str::contains("FILE:LINE:"))
                .and(predicate::str::contains("130 interrupted by Ctrl-C")),
        );
}

#[test]
fn every_csv_layout_is_read_with_its_expected_solution() {
    for (name, puzzles) in [
        ("kaggle_3m.csv", 3),
        ("kaggle_1m.csv", 2),
        ("puzzle_solution_rating.csv", 2),
        ("id_first_no_header.csv", 2),
        ("solution_before_puzzle.csv", 1),
        ("repeated_header.csv", 2),
    ] {
        let path = csv_fixture(name);
        let out = sudoku()
            .args(["solve", "--format", "jsonl", &path])
            .assert()
            .success()
            .stderr("");
        let rows = jsonl(&out.get_output().stdout);
        assert_eq!(rows.len(), puzzles, "{name}");
        assert!(
            rows.iter()
                .all(|r| r["status"] == "solved" && r.get("expected_mismatch").is_none()),
            "{name}"
        );
        // `check` finds the expected solution of every line: the puzzle and solution columns were found.
        sudoku()
            .args(["check", &path])
            .assert()
            .success()
            .stdout(format!("checked {puzzles}: {puzzles} ok, 0 failed\n"));
    }
}

#[test]
fn a_broken_puzzle_field_is_that_lines_invalid_result_never_replaced_by_its_solution() {
    // (fixture, puzzles, line of the broken puzzle, column of the blamed field, fragment of the message)
    for (name, puzzles, line, column, why) in [
        (
            "broken_puzzle_no_header.csv",
            3,
            2,
            1,
            "9 cells in field 1, expected 16",
        ),
        (
            "broken_puzzle_after_id.csv",
            3,
            2,
            3,
            "8 cells in field 2, expected 16",
        ),
        (
            "broken_puzzle_with_header.csv",
            2,
            3,
            1,
            "wrong length: 11 cells",
        ),
    ] {
        let path = csv_fixture(name);
        let out = sudoku()
            .args(["solve", "--format", "jsonl", &path])
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "{path}: line {line}, column {column}: invalid: "
            )));
        let rows = jsonl(&out.get_output().stdout);
        for r in &rows {
            if r["line"] == line {
                assert_eq!(r["status"], "invalid", "{name}");
                assert!(r.get("solution").is_none(), "{name}");
                assert!(r["error"].as_str().unwrap().contains(why), "{name}: {r}");
            } else {
                assert_eq!(r["status"], "solved", "{name}: {r}");
            }
        }
        assert_eq!(rows.len(), puzzles, "{name}");
        // `check` does not pass the line either.
        sudoku().args(["check", &path]).assert().code(1);
    }
}

#[test]
fn a_solution_differing_from_the_expected_one_is_reported_with_file_and_line() {
    let path = csv_fixture("expected_mismatch.csv");
    for count in [false, true] {
        let mut args = vec!["solve", "--format", "jsonl", path.as_str()];
        if count {
            args.push("--count");
        }
        let out = sudoku()
            .args(&args)
            .assert()
            .code(1)
            .stderr(predicate::str::contains(format!(
                "{path}: line 3: solved, but the expected solution is wrong: cell r1c2 changes the given 4 to 6"
            )))
            .stderr(predicate::str::contains(format!(
                "{path}: line 4: solved, but the expected solution is wrong"
            )));
        let rows = jsonl(&out.get_output().stdout);
        let flags: Vec<bool> = rows
            .iter()
            .map(|r| r.get("expected_mismatch") == Some(&Value::Bool(true)))
            .collect();
        assert_eq!(flags, [false, true, true], "count: {count}");
        assert!(rows.iter().all(|r| r["status"] == "solved"));
    }
}

#[test]
fn with_count_a_different_first_solution_of_a_puzzle_with_several_is_no_mismatch() {
    let path = csv_fixture("several_solutions.csv");
    // Without counting, a different (valid) solution is reported: the file claims another one.
    let out = sudoku()
        .args(["solve", "--format", "jsonl", &path])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "line 2: solved, but the solution differs from the expected one (both are valid",
        ));
    assert_eq!(
        jsonl(&out.get_output().stdout)[0]["expected_mismatch"],
        true
    );
    // Counting shows two solutions, and the expected one is valid: consistent.
    let out = sudoku()
        .args(["solve", "--count", "--format", "jsonl", &path])
        .assert()
        .success()
        .stderr("");
    let row = &jsonl(&out.get_output().stdout)[0];
    assert_eq!(row["solutions"], 2);
    assert!(row.get("expected_mismatch").is_none());
}

#[test]
fn a_csv_header_in_the_middle_of_a_file_gets_a_clear_message_and_its_columns_apply() {
    let path = csv_fixture("header_in_middle.csv");
    let out = sudoku()
        .args(["solve", "--format", "jsonl", &path])
        .assert()
        .code(1)
        .stderr(format!(
            "{path}: line 3: invalid: a CSV header in the middle of the file (its columns are used from here on)\n"
        ));
    let statuses: Vec<(u64, String)> = jsonl(&out.get_output().stdout)
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        statuses,
        [
            (2, "solved".to_string()),
            (3, "invalid".to_string()),
            (4, "solved".to_string())
        ]
    );
}

#[test]
fn grid_output_marks_a_mismatch_in_its_header() {
    sudoku()
        .args([
            "solve",
            "--format",
            "grid",
            &csv_fixture("several_solutions.csv"),
        ])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "# line 2: solved, not the expected solution\n",
        ));
}

#[test]
fn help_documents_the_error_status_as_a_solver_bug() {
    sudoku()
        .args(["solve", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("always a bug"));
}

/// Runs `sudoku ARGS` with stdout to a pipe closed after `keep` lines; returns the exit code and stderr.
fn run_with_closed_pipe(
    args: &[&str],
    stdin: Option<&std::path::Path>,
    keep: usize,
) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku"));
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    match stdin {
        Some(path) => cmd.stdin(std::fs::File::open(path).unwrap()),
        None => cmd.stdin(Stdio::null()),
    };
    let mut child = cmd.spawn().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for _ in 0..keep {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
    }
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().unwrap().code(), stderr)
}

#[test]
fn a_closed_output_pipe_ends_the_run_quietly_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.txt");
    // 20 000 solved lines are 1.6 MB of output, far more than a pipe buffers.
    std::fs::write(&big, format!("{LEET}\n").repeat(20_000)).unwrap();
    let big = big.to_str().unwrap();
    for format in ["line", "grid", "jsonl"] {
        let (code, stderr) = run_with_closed_pipe(&["solve", "--format", format, big], None, 1);
        assert_eq!((code, stderr.as_str()), (Some(0), ""), "{format}");
    }
    let (code, stderr) = run_with_closed_pipe(&["solve", "-"], Some(std::path::Path::new(big)), 1);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    // The small outputs: the pipe is closed before the first write.
    for args in [
        &["list"][..],
        &["generate", "--size", "4", "--count", "50", "--no-header"],
    ] {
        let (code, stderr) = run_with_closed_pipe(args, None, 0);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_on_output_is_an_io_error_with_a_message_not_a_panic() {
    for args in [
        &["list"][..],
        &["solve", "-"],
        &["check", "-"],
        &["generate", "--size", "4", "--count", "2"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(full)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                let mut stdin = child.stdin.take().unwrap();
                // `list` and `generate` do not read stdin and may be gone already: a closed pipe here is fine.
                let _ = stdin.write_all(format!("{LEET_SOLVED}\n").as_bytes());
                drop(stdin);
                child.wait_with_output()
            })
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("writing output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn a_directory_as_input_is_named_and_the_other_inputs_still_solve() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    sudoku()
        .args(["solve", d, "-"])
        .write_stdin(format!("{LEET}\n"))
        .assert()
        .code(2)
        .stdout(format!("<stdin>:1:{LEET_SOLVED}\n"))
        .stderr(format!(
            "sudoku: {d}: is a directory, not a file of puzzles\n"
        ));
    sudoku()
        .args(["check", d])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_that_fails_while_read_is_named_and_the_other_inputs_still_solve() {
    // `/proc/self/mem` opens, then its first read fails (nothing is mapped at offset 0).
    sudoku()
        .args(["solve", "/proc/self/mem", "-"])
        .write_stdin(format!("{LEET}\n"))
        .assert()
        .code(2)
        .stdout(format!("<stdin>:1:{LEET_SOLVED}\n"))
        .stderr(predicate::str::starts_with(
            "sudoku: /proc/self/mem: read error: ",
        ));
}

#[test]
fn absurd_thread_counts_are_usage_errors_not_a_dying_process() {
    for cmd in ["solve", "generate"] {
        sudoku()
            .args([cmd, "-j", "100000"])
            .write_stdin(LEET)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("at most 1024 threads"));
    }
    // 0 = all cores, and the maximum itself is accepted.
    for j in ["0", "1024"] {
        sudoku()
            .args(["solve", "-j", j])
            .write_stdin(LEET)
            .assert()
            .success()
            .stdout(format!("{LEET_SOLVED}\n"));
    }
}

#[test]
fn empty_input_and_separator_only_lines_produce_nothing_and_exit_zero() {
    for input in [
        "",
        "\n\n",
        "|||\n---+---+---\n,,,,\n:::\n: : :\n   \n\t\n+++\n#\n====\n",
    ] {
        sudoku()
            .arg("solve")
            .write_stdin(input)
            .assert()
            .success()
            .stdout("")
            .stderr("");
    }
}

#[test]
fn nul_bytes_and_binary_garbage_get_one_invalid_result_per_line_naming_the_character() {
    let mut input = format!("{}\0{}\n", &LEET[..40], &LEET[41..]).into_bytes();
    input.extend_from_slice(b"\x00\x00\x00\n\xff\xfe\x00garbage\n");
    input.extend_from_slice(format!("{LEET}\n").as_bytes());
    let out = sudoku()
        .args(["solve", "--format", "jsonl"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains(
                "<stdin>: line 1, column 41: invalid: unexpected character '\\0' in cell r5c5",
            )
            .and(predicate::str::contains("<stdin>: line 2"))
            .and(predicate::str::contains(
                "<stdin>: line 3, column 1: invalid: invalid UTF-8",
            )),
        );
    let rows = jsonl(&out.get_output().stdout);
    let statuses: Vec<(u64, &str)> = rows
        .iter()
        .map(|r| (r["line"].as_u64().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        statuses,
        [
            (1, "invalid"),
            (2, "invalid"),
            (3, "invalid"),
            (4, "solved")
        ]
    );
}

/// A puzzle built against plain DFS: its first row is empty and its solution starts 987654321, so `naive` needs
/// hundreds of millions of nodes (it is still searching when the test presses Ctrl-C).
const DFS_KILLER: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_results_finished_before_the_first_unfinished_puzzle_and_exits_130() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{LEET}\n{LEET}\n{DFS_KILLER}\n{LEET}\n")).unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku"))
        .args(["solve", "--solver", "naive", "-j", "2"])
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the handler to be installed (and, in practice, for the easy puzzles to be solved).
    std::thread::sleep(std::time::Duration::from_secs(1));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    // Whatever was written is a prefix of the results in input order, and stderr names the line after it.
    let written: Vec<&str> = stdout.lines().collect();
    assert!(written.len() <= 2, "{stdout}");
    assert!(written.iter().all(|l| *l == LEET_SOLVED), "{stdout}");
    let stop = format!(
        "interrupted: the results above cover the input before {}: line {}\n",
        input.display(),
        written.len() + 1
    );
    assert!(stderr.ends_with(&stop), "{stderr}");
}
