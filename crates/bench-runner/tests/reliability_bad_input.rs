//! The bad-input suite (`datasets/bad-input/sudoku-bad-input.suite`, see its README) through the bench runner:
//! every record gets one row per solver with the suite's expected status, invalid lines are named on stderr by
//! file and line, the good lines after the bad ones are still solved, and one and two threads agree.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn suite() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/bad-input/sudoku-bad-input.suite")
}

/// The runner's status for each expecting line: `solved 2` is `multiple` with `--limit 2`.
fn expected_statuses(bytes: &[u8]) -> BTreeMap<u64, String> {
    const MARK: &[u8] = b"# expect ";
    let mut map = BTreeMap::new();
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        if line.trim_ascii_start().starts_with(b"#") {
            continue;
        }
        let Some(at) = line.windows(MARK.len()).position(|w| w == MARK) else {
            continue;
        };
        let text = String::from_utf8_lossy(&line[at + MARK.len()..]).to_string();
        let head = text.split(':').next().unwrap().trim().to_string();
        let status = match head.as_str() {
            "solved 2" => "multiple".to_string(),
            h => h.split_whitespace().next().unwrap().to_string(),
        };
        map.insert(i as u64 + 1, status);
    }
    map
}

/// (line, solver) -> (status, solution, nodes).
type Rows = BTreeMap<(u64, String), (String, String, u64)>;

/// The per-puzzle rows and stderr of one run with `threads` threads.
fn run(threads: &str) -> (Rows, String) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let out = Command::cargo_bin("bench-runner")
        .unwrap()
        .arg(suite())
        .args([
            "--warmup-ms",
            "1",
            "--time-limit",
            "60",
            "--limit",
            "2",
            "--no-html",
            "--per-puzzle",
        ])
        .args(["--chunk", "5", "-j", threads, "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        out.status.code(),
        Some(0),
        "bad lines are results of the run (reported as invalid), not a crash or a failure: {stderr}"
    );
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let rows = report["per_puzzle"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["line"].as_u64().unwrap(),
                    r["solver"].as_str().unwrap().to_string(),
                ),
                (
                    r["status"].as_str().unwrap().to_string(),
                    r["solution"].to_string(),
                    r["nodes"].as_u64().unwrap(),
                ),
            )
        })
        .collect();
    (rows, stderr)
}

#[test]
fn every_suite_line_gets_its_status_from_every_solver_and_invalid_lines_are_named() {
    let expected = expected_statuses(&std::fs::read(suite()).unwrap());
    let (rows, stderr) = run("2");
    let solvers: Vec<String> = {
        let mut s: Vec<String> = rows.keys().map(|(_, s)| s.clone()).collect();
        s.sort();
        s.dedup();
        s
    };
    assert!(!solvers.is_empty());
    assert_eq!(
        rows.len(),
        expected.len() * solvers.len(),
        "one row per record and solver"
    );
    for ((line, solver), (status, _, _)) in &rows {
        assert_eq!(
            Some(status),
            expected.get(line),
            "line {line}, solver {solver}"
        );
    }
    // The runner names the first 20 invalid entries on stderr.
    let name = suite().display().to_string();
    for line in expected
        .iter()
        .filter(|(_, s)| *s == "invalid")
        .map(|(l, _)| l)
        .take(20)
    {
        let named = format!("{name}: line {line}");
        assert!(stderr.contains(&named), "stderr lacks {named}: {stderr}");
    }
}

#[test]
fn the_suite_gives_identical_rows_with_one_and_two_threads() {
    let (one, _) = run("1");
    let (two, _) = run("2");
    assert_eq!(one, two);
}
