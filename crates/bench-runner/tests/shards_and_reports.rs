//! The first five minutes and runs past one machine: exit codes, the summary, exact counts, sharded runs and
//! their merge, and the HTML report opened in headless Chromium.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets")
        .join(name)
}

use sudoku::shard::ENV_VARS as SCHEDULER_VARS;

/// The runner with a short warm-up, a generous time limit and no scheduler variables from the caller's shell.
fn runner() -> Command {
    let mut cmd = Command::cargo_bin("bench-runner").unwrap();
    cmd.args(["--warmup-ms", "1", "--time-limit", "60"]);
    for var in SCHEDULER_VARS {
        cmd.env_remove(var);
    }
    cmd
}

/// `bench-runner merge` (no run options before the subcommand).
fn merger() -> Command {
    Command::cargo_bin("bench-runner").unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn puzzles_stopped_at_a_node_limit_are_results_and_only_strict_makes_them_fail() {
    let set = shipped("famous/top95.txt");
    let args = [
        "--solvers",
        "naive,fast",
        "--baseline-node-limit",
        "2000",
        "--no-html",
    ];
    let out = runner().arg(&set).args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout.contains("naive DFS hit its node limit"),
        "the limits are reported: {stdout}"
    );
    let out = runner()
        .arg(&set)
        .args(args)
        .arg("--strict")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("--strict"));
}

#[test]
fn the_summary_ranks_solvers_on_each_dataset_with_their_speedups_before_the_details() {
    let out = runner()
        .args([
            shipped("generated/9x9-easy.txt"),
            shipped("generated/4x4.txt"),
        ])
        .args([
            "--solvers",
            "naive,csp-mrv,fast",
            "--sample",
            "30",
            "--no-html",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let summary = stdout.find("Summary:").expect("a summary");
    let speedups = stdout.find("Speedup over naive DFS").expect("speedups");
    let details = stdout.find("| dataset ").expect("the detailed table");
    assert!(summary < speedups && speedups < details, "{stdout}");
    let header = stdout[summary..]
        .lines()
        .find(|l| l.starts_with("| solver"))
        .unwrap();
    assert!(header.contains("9x9-easy") && header.contains("4x4") && header.contains("mean rank"));
    // Every solver has one row in the pivot, each cell a throughput and a rank.
    let rows: Vec<&str> = stdout[summary..speedups]
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| solver"))
        .collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        rows.iter().all(|r| r.matches(" #").count() == 2),
        "{rows:?}"
    );
    assert!(
        stdout[speedups..details].contains("1.00x / 1.00x"),
        "naive against itself"
    );
}

#[test]
fn count_limit_counts_every_solution_up_to_n_and_the_solvers_agree() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("open.txt");
    // The empty 4x4 board has 288 solutions (the number of 4x4 Sudoku grids); fixing the first row to 1234
    // leaves 288 / 4! = 12, since each grid has exactly one digit relabelling with that first row.
    std::fs::write(
        &set,
        "................\n1234............\n1234341221434321\n",
    )
    .unwrap();
    let json = dir.path().join("r.json");
    let out = runner()
        .arg(&set)
        .args([
            "--solvers",
            "naive,table,csp-mrv,fast",
            "--count-limit",
            "1000",
            "--per-puzzle",
            "--no-html",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = read_json(&json);
    assert_eq!(report["errors"], 0);
    for row in report["per_puzzle"].as_array().unwrap() {
        let want = match row["line"].as_u64().unwrap() {
            1 => 288,
            2 => 12,
            _ => 1,
        };
        assert_eq!(row["solutions"], want, "{row}");
    }
    let out = runner()
        .arg(&set)
        .args(["--count-limit", "3", "--limit", "2", "--no-html"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "--limit and --count-limit conflict"
    );
}

/// (dataset, line, solver) -> (status, solution count, solution, nodes).
type Outcomes = BTreeMap<(String, u64, String), (String, u64, String, u64)>;

/// Per-puzzle outcomes of a report's `per_puzzle` rows.
fn outcomes(report: &Value) -> Outcomes {
    report["per_puzzle"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["dataset"].as_str().unwrap().to_string(),
                    r["line"].as_u64().unwrap(),
                    r["solver"].as_str().unwrap().to_string(),
                ),
                (
                    r["status"].as_str().unwrap().to_string(),
                    r["solutions"].as_u64().unwrap(),
                    r["solution"].to_string(),
                    r["nodes"].as_u64().unwrap(),
                ),
            )
        })
        .collect()
}

/// The figures of `results` that do not depend on timing, per (dataset, solver).
fn untimed(report: &Value) -> BTreeMap<(String, String), Vec<(String, Value)>> {
    const KEYS: [&str; 12] = [
        "puzzles",
        "solved",
        "multiple",
        "unsatisfiable",
        "invalid",
        "limit",
        "skipped",
        "errors",
        "nodes_mean",
        "nodes_max",
        "guesses_mean",
        "node_speedup_vs_naive",
    ];
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    r["dataset"].as_str().unwrap().to_string(),
                    r["solver"].as_str().unwrap().to_string(),
                ),
                KEYS.iter()
                    .map(|k| (k.to_string(), r[*k].clone()))
                    .collect(),
            )
        })
        .collect()
}

const SHARD_SOLVERS: &str = "naive,csp-mrv,csp-mrv-singles,fast";

/// The run the shard tests split: three datasets, several solvers, uniqueness checks, per-puzzle rows.
fn shard_args() -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = [
        data("small.txt"),
        data("mixed.txt"),
        shipped("generated/4x4.txt"),
    ]
    .into_iter()
    .map(Into::into)
    .collect();
    args.extend(
        [
            "--solvers",
            SHARD_SOLVERS,
            "--limit",
            "2",
            "--per-puzzle",
            "-j",
            "1",
            "--chunk",
            "7",
            "--no-html",
        ]
        .map(Into::into),
    );
    args
}

fn sharded_run_args(cmd: &mut Command) -> &mut Command {
    cmd.args(shard_args())
}

#[test]
fn four_shards_run_as_separate_processes_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.json");
    let out = sharded_run_args(&mut runner())
        .arg("--json")
        .arg(&whole)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let parts: Vec<PathBuf> = (0..4)
        .map(|i| dir.path().join(format!("part{i}.json")))
        .collect();
    let children: Vec<std::process::Child> = parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("bench-runner"));
            for var in SCHEDULER_VARS {
                cmd.env_remove(var);
            }
            cmd.args(["--warmup-ms", "1", "--time-limit", "60"])
                .args(shard_args())
                .args(["--shard", &format!("{i}/4"), "--json"])
                .arg(part)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("shard "),
            "the shard says which it is"
        );
    }
    // Every shard solved a different part: together they hold each entry once.
    let sizes: Vec<u64> = parts
        .iter()
        .map(|p| read_json(p)["datasets"][2]["puzzles"].as_u64().unwrap())
        .collect();
    assert_eq!(
        sizes.iter().sum::<u64>(),
        200,
        "4x4.txt holds 200 puzzles: {sizes:?}"
    );

    let merged = dir.path().join("merged.json");
    let html = dir.path().join("merged.html");
    let out = merger()
        .arg("merge")
        .args(parts.iter().rev())
        .arg("--json")
        .arg(&merged)
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("| dataset "),
        "the merge prints the table: {stdout}"
    );
    let (whole, merged) = (read_json(&whole), read_json(&merged));
    assert_eq!(outcomes(&merged), outcomes(&whole));
    assert_eq!(untimed(&merged), untimed(&whole));
    assert_eq!(merged["datasets"], whole["datasets"]);
    assert_eq!(merged["state"]["merged"].as_array().unwrap().len(), 4);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("merged from") && page.contains("slowest shard"));
}

#[test]
fn slurm_array_variables_choose_the_shard_when_the_flag_is_absent() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("slurm.json");
    let out = sharded_run_args(&mut runner())
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_ARRAY_TASK_MIN", "1")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .arg("--json")
        .arg(&json)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("shard 2/3"), "{}", stderr(&out));
    let report = read_json(&json);
    assert_eq!(report["shard"]["index"], 2);
    assert_eq!(report["shard"]["count"], 3);
    // Entries 2, 5, 8, ... of each dataset: 4x4.txt's 200 give 66.
    assert_eq!(report["datasets"][2]["puzzles"], 66);

    let out = sharded_run_args(&mut runner())
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("JOB_COMPLETIONS"), "{}", stderr(&out));
}

#[test]
fn a_missing_or_repeated_shard_is_an_error_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let parts: Vec<PathBuf> = (0..3)
        .map(|i| {
            let part = dir.path().join(format!("p{i}.json"));
            let out = runner()
                .arg(data("small.txt"))
                .args([
                    "--solvers",
                    "fast",
                    "--shard",
                    &format!("{i}/3"),
                    "--no-html",
                    "--json",
                ])
                .arg(&part)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", stderr(&out));
            part
        })
        .collect();
    let merge = |files: &[&PathBuf]| merger().arg("merge").args(files).output().unwrap();

    let out = merge(&[&parts[0], &parts[2]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("shard 1/3 missing"),
        "{}",
        stderr(&out)
    );

    let out = merge(&[&parts[0], &parts[1], &parts[1], &parts[2]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("shard 1/3 is given twice"),
        "{}",
        stderr(&out)
    );

    let other = dir.path().join("other.json");
    let out = runner()
        .arg(data("small.txt"))
        .args([
            "--solvers",
            "naive",
            "--shard",
            "1/3",
            "--no-html",
            "--json",
        ])
        .arg(&other)
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = merge(&[&parts[0], &other, &parts[2]]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("solvers"), "{}", stderr(&out));

    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{\"results\": []}").unwrap();
    let out = merge(&[&junk]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("junk.json"), "{}", stderr(&out));

    let out = merge(&[&parts[2], &parts[0], &parts[1]]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn the_default_run_writes_the_html_report_under_the_target_folder_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = runner()
        .env("CARGO_TARGET_DIR", dir.path())
        .arg(data("small.txt"))
        .args(["--solvers", "naive,fast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let page = dir.path().join("bench-report/index.html");
    assert!(
        stderr(&out).contains(&page.display().to_string()),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(text.starts_with("<!DOCTYPE html>"));
    assert!(
        !text.contains("src=\"http") && !text.contains("href=\"http") && !text.contains("url(http"),
        "self-contained: nothing loaded from the network"
    );
}

/// Chromium as the Debian package installs it, or `None` (then the test says it was skipped, and fails when
/// `CSP_REQUIRE_CHROMIUM` is set, as `.ci/run` does).
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .map(|name| Path::new("/usr/bin").join(name))
        .find(|p| p.is_file());
    if found.is_none() {
        assert!(
            std::env::var_os("CSP_REQUIRE_CHROMIUM").is_none(),
            "CSP_REQUIRE_CHROMIUM is set but no Chromium is installed (apt-get install chromium)"
        );
        eprintln!("SKIPPED: no Chromium in /usr/bin; the HTML report was not opened in a browser");
    }
    found
}

fn headless(browser: &Path, profile: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(browser);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--virtual-time-budget=5000",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    cmd
}

#[test]
fn the_html_report_renders_every_dataset_and_every_plot_in_headless_chromium() {
    let Some(browser) = chromium() else { return };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report/index.html");
    let solvers = ["naive", "csp-mrv-singles", "fast"];
    let out = runner()
        .args([
            data("small.txt"),
            data("mixed.txt"),
            shipped("generated/4x4.txt"),
        ])
        .args(["--solvers", &solvers.join(","), "--html"])
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let url = format!("file://{}", page.display());

    let dom = headless(&browser, &dir.path().join("profile-dom"))
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .unwrap();
    assert!(dom.status.success(), "{}", stderr(&dom));
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert_eq!(dom.matches("<section class=\"dataset\"").count(), 3);
    for name in ["small", "mixed", "4x4"] {
        assert!(
            dom.contains(&format!("data-dataset=\"{name}\"")),
            "section of {name} missing"
        );
    }
    let plots = 3 + solvers.len();
    assert!(
        dom.contains(&format!("data-plots-rendered=\"{plots}/{plots}\"")),
        "every plot drew in the browser: {}",
        dom.lines().find(|l| l.contains("<body")).unwrap_or("")
    );
    assert_eq!(dom.matches("data-rendered=\"yes\"").count(), plots);
    assert!(dom.contains("id=\"summary\"") && dom.contains("git revision"));

    let shot = dir.path().join("shot.png");
    let out = headless(&browser, &dir.path().join("profile-shot"))
        .arg("--window-size=1280,2000")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG screenshot");
    assert!(
        png.len() > 20_000,
        "the screenshot shows a drawn page ({} bytes)",
        png.len()
    );
}
