//! The built binary on small datasets: report contents, statuses, exit codes, outputs, determinism.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn runner() -> Command {
    let mut cmd = bare_runner();
    // No default HTML page per test run (the tests of the HTML report ask for one).
    cmd.arg("--no-html");
    cmd
}

fn bare_runner() -> Command {
    let mut cmd = Command::cargo_bin("bench-runner").unwrap();
    // Short warm-up and a time limit that no test puzzle comes near: the tests check results, not speed.
    cmd.args(["--warmup-ms", "1", "--time-limit", "60"]);
    for var in sudoku::shard::ENV_VARS {
        cmd.env_remove(var);
    }
    cmd
}

#[test]
fn help_names_every_puzzle_family_for_kind() {
    let out = bare_runner().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for family in puzzles::FAMILIES {
        assert!(
            help.contains(&format!("{}, ", family.name))
                || help.contains(&format!("{};", family.name)),
            "{} missing from --help:\n{help}",
            family.name
        );
    }
}

/// Every solver in the registry, as `--list` prints it.
fn registry() -> Vec<String> {
    let out = runner().arg("--list").output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The detailed markdown table's rows (the one headed `| dataset | solver |`, after the summary) as header -> cell
/// maps.
fn table(stdout: &str) -> Vec<BTreeMap<String, String>> {
    let mut lines = stdout
        .lines()
        .skip_while(|l| !l.starts_with("| dataset "))
        .take_while(|l| l.starts_with('|'));
    let cells = |l: &str| -> Vec<String> {
        l.trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let headers = cells(lines.next().unwrap());
    lines.next(); // the alignment rule
    lines
        .map(|l| headers.iter().cloned().zip(cells(l)).collect())
        .collect()
}

/// An independent check of a Sudoku solution: same size, givens kept, every row, column and box a permutation.
fn check_sudoku(puzzle: &str, solution: &str) -> Result<(), String> {
    let value = |c: char| c.to_digit(36).filter(|&d| d > 0);
    let p: Vec<char> = puzzle.chars().collect();
    let s: Vec<Option<u32>> = solution.chars().map(value).collect();
    let n = (s.len() as f64).sqrt() as usize;
    let b = (n as f64).sqrt() as usize;
    if p.len() != s.len() || n * n != s.len() || b * b != n {
        return Err(format!("size mismatch: {} vs {}", p.len(), s.len()));
    }
    for (i, (&pc, &sv)) in p.iter().zip(&s).enumerate() {
        if let Some(g) = value(pc) {
            if Some(g) != sv {
                return Err(format!("cell {i} changes a given"));
            }
        }
    }
    for h in 0..3 * n {
        let mut seen = vec![false; n + 1];
        for k in 0..n {
            let cell = match h / n {
                0 => (h % n) * n + k,
                1 => k * n + h % n,
                _ => ((h % n / b) * b + k / b) * n + (h % n % b) * b + k % b,
            };
            let v = s[cell].ok_or(format!("cell {cell} empty"))? as usize;
            if v > n || seen[v] {
                return Err(format!("house {h} repeats {v}"));
            }
            seen[v] = true;
        }
    }
    Ok(())
}

/// The grid of each puzzle line of a dataset, by 1-based line number.
fn grids(path: &Path) -> BTreeMap<usize, String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.split_whitespace().next().unwrap().to_string()))
        .collect()
}

#[test]
fn report_on_a_dataset_has_every_column_and_verified_solutions_and_json_matching_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let set = data("small.txt");
    let out = runner()
        .arg(&set)
        .args(["--wide", "--per-puzzle", "-j", "2", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let rows = table(&stdout);
    let solvers = registry();
    assert_eq!(rows.len(), solvers.len());
    for column in [
        "dataset",
        "solver",
        "puzzles",
        "solved",
        "multiple",
        "unsat",
        "invalid",
        "limit",
        "skipped",
        "errors",
        "puzzles/s",
        "puzzles/s/thread",
        "µs mean",
        "µs p50",
        "µs p90",
        "µs p99",
        "µs max",
        "nodes mean",
        "nodes max",
        "guesses mean",
        "guesses max",
        "no guess",
        "vs naive (time)",
        "vs naive (nodes)",
    ] {
        assert!(rows[0].contains_key(column), "missing column {column}");
    }

    let report = read_json(&json);
    assert_eq!(report["partial"], false);
    assert_eq!(report["errors"], 0);
    for key in [
        "config",
        "seed",
        "threads",
        "cores",
        "git_revision",
        "datasets",
        "results",
    ] {
        assert!(report.get(key).is_some(), "missing top-level key {key}");
    }
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), rows.len());
    for (r, row) in results.iter().zip(&rows) {
        for key in [
            "dataset",
            "solver",
            "threads",
            "puzzles",
            "solved",
            "unsatisfiable",
            "invalid",
            "limit",
            "puzzles_per_sec",
            "micros_mean",
            "micros_p50",
            "micros_p99",
            "micros_max",
            "nodes_mean",
            "guesses_mean",
            "speedup_vs_naive",
        ] {
            assert!(r.get(key).is_some(), "missing result key {key}");
        }
        assert_eq!(r["dataset"], row["dataset"].as_str());
        assert_eq!(r["solver"], row["solver"].as_str());
        for (key, column) in [
            ("puzzles", "puzzles"),
            ("solved", "solved"),
            ("multiple", "multiple"),
            ("unsatisfiable", "unsat"),
            ("invalid", "invalid"),
            ("limit", "limit"),
            ("skipped", "skipped"),
            ("errors", "errors"),
            ("nodes_max", "nodes max"),
        ] {
            assert_eq!(
                r[key].as_u64().unwrap().to_string(),
                row[column],
                "{key} of {}",
                row["solver"]
            );
        }
        let counted: u64 = ["solved", "unsatisfiable", "invalid", "limit", "skipped"]
            .iter()
            .map(|k| r[k].as_u64().unwrap())
            .sum();
        assert_eq!(
            counted,
            r["puzzles"].as_u64().unwrap(),
            "status counts of {}",
            row["solver"]
        );
        assert_eq!(r["puzzles"], 11);
        assert_eq!(r["solved"], 11);
        assert!(r["speedup_vs_naive"].is_number());
    }

    let puzzles = grids(&set);
    let per_puzzle = report["per_puzzle"].as_array().unwrap();
    assert_eq!(per_puzzle.len(), 11 * solvers.len());
    for row in per_puzzle {
        assert_eq!(row["status"], "solved");
        let line = row["line"].as_u64().unwrap() as usize;
        let solution = row["solution"].as_str().unwrap();
        check_sudoku(&puzzles[&line], solution)
            .unwrap_or_else(|e| panic!("line {line}, {}: {e}", row["solver"]));
    }
}

#[test]
fn malformed_unsolvable_and_multi_solution_puzzles_each_get_their_status_and_a_failing_exit_code_with_strict(
) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let out = runner()
        .arg(data("mixed.txt"))
        .args(["--limit", "2", "--per-puzzle", "--strict", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = read_json(&json);
    let expected: BTreeMap<u64, &str> = [
        (2, "solved"),
        (3, "invalid"),
        (4, "invalid"),
        (5, "unsatisfiable"),
        (6, "multiple"),
        (7, "invalid"),
        (8, "solved"),
    ]
    .into_iter()
    .collect();
    let solvers = registry();
    let rows = report["per_puzzle"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        expected.len() * solvers.len(),
        "every puzzle gets a row per solver"
    );
    for row in rows {
        let line = row["line"].as_u64().unwrap();
        assert_eq!(
            row["status"], expected[&line],
            "line {line}, {}",
            row["solver"]
        );
        if row["status"] == "invalid" {
            assert!(
                row["error"].as_str().is_some_and(|e| !e.is_empty()),
                "line {line} says why it is invalid"
            );
        }
    }
    for r in report["results"].as_array().unwrap() {
        assert_eq!(r["puzzles"], 7);
        assert_eq!(r["solved"], 3);
        assert_eq!(r["multiple"], 1);
        assert_eq!(r["unsatisfiable"], 1);
        assert_eq!(r["invalid"], 3);
        assert_eq!(r["errors"], 0);
    }
}

/// Per-puzzle (line, solver) -> (status, solution, nodes) of one run.
fn outcomes(threads: &str) -> BTreeMap<(u64, String), (String, String, u64)> {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let out = runner()
        .args([data("small.txt"), data("mixed.txt")])
        .args([
            "--limit",
            "2",
            "--per-puzzle",
            "--chunk",
            "3",
            "-j",
            threads,
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    read_json(&json)["per_puzzle"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let line = r["line"].as_u64().unwrap() + 1000 * u64::from(r["dataset"] == "mixed");
            (
                (line, r["solver"].as_str().unwrap().to_string()),
                (
                    r["status"].to_string(),
                    r["solution"].to_string(),
                    r["nodes"].as_u64().unwrap(),
                ),
            )
        })
        .collect()
}

#[test]
fn one_and_two_threads_give_the_same_statuses_solutions_and_node_counts() {
    let one = outcomes("1");
    let two = outcomes("2");
    assert_eq!(one.len(), 18 * registry().len());
    assert_eq!(one, two);
}

#[test]
fn plots_are_valid_svg_with_one_series_per_solver() {
    let dir = tempfile::tempdir().unwrap();
    let plots = dir.path().join("plots");
    let out = runner()
        .arg(data("small.txt"))
        .arg("--plot")
        .arg(&plots)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let solvers = registry();
    let cactus = std::fs::read_to_string(plots.join("cactus-small.svg")).unwrap();
    let doc = roxmltree::Document::parse(&cactus).unwrap();
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // Series lines are the only polylines drawn 2 pixels wide (axes and ticks are 1 pixel).
    let series = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("2"))
        .count();
    assert_eq!(series, solvers.len());
    let texts: Vec<&str> = doc
        .descendants()
        .filter_map(|n| n.text())
        .map(str::trim)
        .collect();
    for s in &solvers {
        assert!(texts.contains(&s.as_str()), "legend names {s}");
        let hist = std::fs::read_to_string(plots.join(format!("histogram-{s}.svg"))).unwrap();
        let doc = roxmltree::Document::parse(&hist).unwrap();
        assert!(
            doc.descendants()
                .filter_map(|n| n.text())
                .any(|t| t.trim() == s),
            "histogram of {s} is labelled"
        );
    }
}

#[test]
fn csv_has_one_row_per_dataset_and_solver_with_the_json_keys() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("r.csv");
    let out = runner()
        .args([data("small.txt"), data("mixed.txt")])
        .args(["--per-puzzle", "--csv"])
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "invalid and unsatisfiable puzzles are results, not failures"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    for key in [
        "dataset",
        "solver",
        "threads",
        "puzzles",
        "solved",
        "unsatisfiable",
        "invalid",
        "limit",
        "micros_p99",
    ] {
        assert!(header.contains(&key), "missing {key}");
    }
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 2 * registry().len());
    assert!(rows.iter().all(|r| r.split(',').count() == header.len()));
    let puzzles = std::fs::read_to_string(dir.path().join("r.puzzles.csv")).unwrap();
    assert_eq!(puzzles.lines().count(), 1 + 18 * registry().len());
}

#[test]
fn list_prints_every_solver_with_a_description() {
    let out = runner().arg("--list").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l.starts_with("naive ")));
    assert!(
        text.lines().all(|l| l.split_whitespace().count() >= 2),
        "{text}"
    );
}

#[test]
fn an_unknown_solver_is_a_usage_error_naming_it() {
    let out = runner()
        .arg(data("small.txt"))
        .args(["--solvers", "naive,nosuch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nosuch"));
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let out = runner().arg("no/such/file.txt").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/file.txt"));
}

#[test]
fn the_same_seed_samples_the_same_puzzles_and_a_sample_bounds_the_count() {
    let lines = |seed: &str| {
        let dir = tempfile::tempdir().unwrap();
        let json = dir.path().join("r.json");
        runner()
            .arg(data("small.txt"))
            .args([
                "--solvers",
                "naive",
                "--sample",
                "4",
                "--seed",
                seed,
                "--per-puzzle",
                "--json",
            ])
            .arg(&json)
            .assert()
            .success();
        let v: Vec<u64> = read_json(&json)["per_puzzle"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["line"].as_u64().unwrap())
            .collect();
        v
    };
    let a = lines("7");
    assert_eq!(a.len(), 4);
    assert_eq!(a, lines("7"));
}

#[test]
fn scaling_reports_one_point_per_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    runner()
        .arg(data("small.txt"))
        .args(["--solvers", "naive", "--scaling", "--json"])
        .arg(&json)
        .assert()
        .success();
    let report = read_json(&json);
    let cores = report["cores"].as_u64().unwrap() as usize;
    let points = report["scaling"]["points"].as_array().unwrap();
    assert_eq!(points.len(), cores);
    assert_eq!(points[0]["threads"], 1);
    assert_eq!(report["scaling"]["solver"], "naive");
}

#[test]
fn other_kinds_run_a_directory_of_instances_one_per_file() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("queens");
    std::fs::create_dir(&set).unwrap();
    std::fs::write(set.join("a.txt"), "3\n").unwrap();
    std::fs::write(set.join("b.txt"), "6\n").unwrap();
    std::fs::write(set.join("c.txt"), "x\n").unwrap();
    let json = dir.path().join("r.json");
    let out = runner()
        .args(["--kind", "queens", "--per-puzzle", "--strict", "--json"])
        .arg(&json)
        .arg(&set)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("c.txt"),
        "the bad file is named"
    );
    let report = read_json(&json);
    assert_eq!(report["errors"], 0);
    for row in report["per_puzzle"].as_array().unwrap() {
        let expected =
            ["unsatisfiable", "solved", "invalid"][row["line"].as_u64().unwrap() as usize - 1];
        assert_eq!(row["status"], expected, "{row}");
    }
    for r in report["results"].as_array().unwrap() {
        assert_eq!(
            (r["puzzles"].as_u64(), r["solved"].as_u64()),
            (Some(3), Some(1))
        );
    }
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets")
        .join(name)
}

#[test]
fn every_solver_on_shipped_generated_sets_verifies_and_the_counts_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let sets = [
        shipped("generated/4x4.txt"),
        shipped("generated/9x9-easy.txt"),
    ];
    let out = runner()
        .args(&sets)
        .args([
            "--sample",
            "40",
            "--seed",
            "3",
            "--limit",
            "2",
            "--per-puzzle",
            "--wide",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = read_json(&json);
    assert_eq!(report["errors"], 0);
    let rows = table(&stdout);
    let results = report["results"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * registry().len());
    assert_eq!(results.len(), rows.len());
    for (r, row) in results.iter().zip(&rows) {
        assert_eq!(r["solver"], row["solver"].as_str());
        assert_eq!(r["puzzles"], 40);
        assert_eq!(
            r["solved"], 40,
            "every generated puzzle has a unique solution: {}",
            row["solver"]
        );
        assert_eq!(r["multiple"], 0);
        assert_eq!(r["solved"].as_u64().unwrap().to_string(), row["solved"]);
    }
    let grids: Vec<BTreeMap<usize, String>> = sets.iter().map(|s| grids(s)).collect();
    for row in report["per_puzzle"].as_array().unwrap() {
        let set = usize::from(row["dataset"] == "9x9-easy");
        let line = row["line"].as_u64().unwrap() as usize;
        let solution = row["solution"].as_str().unwrap();
        check_sudoku(&grids[set][&line], solution)
            .unwrap_or_else(|e| panic!("line {line}, {}: {e}", row["solver"]));
    }
}

#[test]
fn time_limits_that_fit_no_duration_are_usage_errors_not_a_panic() {
    for limit in ["inf", "1e30", "nan", "-1", "soon"] {
        let out = Command::cargo_bin("bench-runner")
            .unwrap()
            .args(["--solvers", "fast", "-j", "1", "--time-limit", limit])
            .arg(data("small.txt"))
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{limit}: {stderr}");
        assert!(!stderr.contains("panicked"), "{limit}: {stderr}");
    }
    // 0 still means no limit.
    Command::cargo_bin("bench-runner")
        .unwrap()
        .args([
            "--warmup-ms",
            "1",
            "--solvers",
            "fast",
            "-j",
            "1",
            "--time-limit",
            "0",
        ])
        .arg(data("small.txt"))
        .assert()
        .success();
}

#[test]
fn an_empty_file_or_directory_is_reported_as_holding_no_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let sub = dir.path().join("nothing");
    std::fs::create_dir(&sub).unwrap();
    for path in [&empty, &sub] {
        let out = runner()
            .args(["--solvers", "fast", "-j", "1"])
            .arg(path)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!("bench-runner: {}: no puzzles found\n", path.display())
        );
    }
}

#[test]
fn a_closed_output_pipe_is_no_error() {
    use std::process::Stdio;
    for args in [&["--list"][..], &["--solvers", "fast", "-j", "1"]] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-runner"))
            .args(args)
            .arg(data("small.txt"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_on_stdout_is_an_io_error_with_a_message_not_a_panic() {
    for args in [&["--list"][..], &["--solvers", "fast", "-j", "1"]] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("bench-runner"))
            .args(args)
            .arg(data("small.txt"))
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write stdout: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

/// `--kind minizinc`: csp-core and Gecode through `minizinc` on a satisfaction model (counts to 2), an
/// optimisation model (objectives compared) and an unsatisfiable one. Skipped without `minizinc` or without the
/// release `fzn-csp-core` (built by `cargo test --workspace --release`), unless `CSP_REQUIRE_MINIZINC=1`.
#[test]
fn minizinc_kind_runs_csp_core_and_gecode_and_they_agree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let have_mzn = std::process::Command::new("minizinc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let have_bin = root.join("target/release/fzn-csp-core").is_file();
    if !(have_mzn && have_bin) {
        assert_ne!(
            std::env::var("CSP_REQUIRE_MINIZINC").as_deref(),
            Ok("1"),
            "minizinc or target/release/fzn-csp-core missing"
        );
        eprintln!("\n!!!!! SKIPPED: minizinc or target/release/fzn-csp-core missing !!!!!\n");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("models.txt");
    std::fs::write(
        &list,
        "# a comment line\nshare/minizinc/models/langford.mzn\n\
         share/minizinc/models/knapsack.mzn   # optimum 55\nshare/minizinc/models/unsat.mzn\n",
    )
    .unwrap();
    let json = dir.path().join("r.json");
    let out = runner()
        .args(["--kind", "minizinc", "-j", "1", "--limit", "2", "--solvers"])
        .arg("csp-core,csp-core-free,gecode")
        .arg(&list)
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["datasets"][0]["disagreements"], 0, "{report}");
    assert_eq!(report["datasets"][0]["puzzles"], 3, "{report}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for solver in ["csp-core", "csp-core-free", "gecode"] {
        // 3 models: langford has 2 solutions (multiple), knapsack is solved, unsat is unsatisfiable.
        let row = stdout
            .lines()
            .find(|l| l.contains(&format!("| {solver} ")) && l.contains("models"))
            .unwrap_or_else(|| panic!("no row for {solver}:\n{stdout}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // puzzles, solved (multiple included), multiple, unsat, invalid, limit, errors
        assert_eq!(&cells[3..10], ["3", "2", "1", "1", "0", "0", "0"], "{row}");
    }
}
