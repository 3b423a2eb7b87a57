//! `sudoku solve --count-limit N`, and runs split over processes: `--shard I/N` and the scheduler variables on
//! `sudoku solve` and `sudoku generate`.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};

use assert_cmd::Command;
use serde_json::Value;

use sudoku::shard::ENV_VARS as SCHEDULER_VARS;

fn sudoku() -> Command {
    let mut cmd = Command::cargo_bin("sudoku").unwrap();
    for var in SCHEDULER_VARS {
        cmd.env_remove(var);
    }
    cmd
}

fn shipped(name: &str) -> String {
    format!("{}/../../datasets/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// jsonl results keyed by (file, line).
fn results(stdout: &[u8]) -> BTreeMap<(String, u64), Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                (
                    v["file"].as_str().unwrap().to_string(),
                    v["line"].as_u64().unwrap(),
                ),
                v,
            )
        })
        .collect()
}

#[test]
fn count_limit_counts_solutions_exactly_up_to_n() {
    // The 4x4 grids number 288; with the first row fixed to 1234, 288 / 4! = 12 remain.
    let input = "................\n1234............\n1234341221434321\n";
    let out = sudoku()
        .args(["solve", "--count-limit", "1000", "--format", "jsonl"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let counts: Vec<u64> = results(&out.stdout)
        .values()
        .map(|v| v["solutions"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [288, 12, 1]);
    let out = sudoku()
        .args(["solve", "--count-limit", "100"])
        .write_stdin(input)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let counts: Vec<&str> = text.lines().filter_map(|l| l.split(' ').nth(1)).collect();
    assert_eq!(counts, ["100", "12", "1"], "stops at the limit: {text}");
    let out = sudoku()
        .args(["solve", "--count", "--count-limit", "3"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "--count and --count-limit conflict"
    );
}

#[test]
fn four_solve_shards_cover_every_record_once_with_the_unsharded_results() {
    let files = [shipped("generated/4x4.txt"), shipped("famous/top95.txt")];
    let solve = |extra: &[&str]| {
        let out = sudoku()
            .arg("solve")
            .args(&files)
            .args(["--count", "--format", "jsonl", "-j", "1"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            results(&out.stdout),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (whole, _) = solve(&[]);
    let mut union: BTreeMap<(String, u64), Value> = BTreeMap::new();
    for i in 0..4 {
        let (part, stderr) = solve(&["--shard", &format!("{i}/4")]);
        assert!(stderr.contains(&format!("shard {i}/4")), "{stderr}");
        for (key, value) in part {
            assert!(
                union.insert(key.clone(), value).is_none(),
                "{key:?} in two shards"
            );
        }
    }
    let strip = |m: &BTreeMap<(String, u64), Value>| -> Vec<((String, u64), String, Value, Value)> {
        m.iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v["status"].to_string(),
                    v["solution"].clone(),
                    v["solutions"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(strip(&union), strip(&whole));
    assert_eq!(whole.len(), 295);
}

#[test]
fn slurm_and_kubernetes_variables_choose_the_shard_when_the_flag_is_absent() {
    let file = shipped("generated/4x4.txt");
    let out = sudoku()
        .args(["solve", &file, "--format", "jsonl"])
        .env("SLURM_ARRAY_TASK_ID", "2")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shard 2/3"));
    let lines: Vec<u64> = results(&out.stdout).keys().map(|k| k.1).collect();
    assert_eq!(lines.len(), 66, "records 2, 5, 8, ... of 200");
    let out = sudoku()
        .args(["solve", &file, "--format", "jsonl", "--shard", "0/1"])
        .env("JOB_COMPLETION_INDEX", "1")
        .env("JOB_COMPLETIONS", "2")
        .output()
        .unwrap();
    assert_eq!(
        results(&out.stdout).len(),
        200,
        "the flag wins over the environment"
    );
    let out = sudoku()
        .args(["solve", &file])
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("JOB_COMPLETIONS"));
}

/// The puzzles of a `sudoku generate` output (header and rating comments dropped).
fn puzzles(stdout: &[u8]) -> Vec<String> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn generator_shards_split_the_candidate_stream_and_the_count() {
    let generate = |extra: &[&str]| {
        let out = sudoku()
            .args(["generate", "--size", "9", "--count", "7", "--seed", "11"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let whole: BTreeSet<String> = puzzles(&generate(&[])).into_iter().collect();
    let mut union = BTreeSet::new();
    let mut sizes = Vec::new();
    for i in 0..3 {
        let out = generate(&["--shard", &format!("{i}/3")]);
        let text = String::from_utf8_lossy(&out).to_string();
        assert!(
            text.starts_with('#')
                && text
                    .lines()
                    .next()
                    .unwrap()
                    .contains(&format!("--shard {i}/3"))
        );
        let part = puzzles(&out);
        sizes.push(part.len());
        union.extend(part);
    }
    assert_eq!(sizes, [3, 2, 2], "7 puzzles shared out");
    // Every minimal candidate is kept, so the shards' candidates 0..7 are the unsharded run's.
    assert_eq!(union, whole);
}
