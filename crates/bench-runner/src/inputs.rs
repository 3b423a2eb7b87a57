//! Finding the inputs: the shipped default datasets and the source revision recorded in reports.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace folder this crate was built from (`crates/bench-runner/../..`).
pub(crate) fn workspace_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `datasets/` folder: `./datasets` when the current directory has one, else the workspace's.
pub fn datasets_dir() -> PathBuf {
    let here = PathBuf::from("datasets");
    if here.is_dir() {
        here
    } else {
        workspace_dir().join("datasets")
    }
}

fn txt_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The default datasets of a puzzle family, in a stable order.
///
/// Sudoku: `datasets/generated/*.txt` then `datasets/famous/*.txt`; when neither folder has any, every `.txt`
/// directly in `datasets/` or one folder below it. Other families: each folder of `datasets/puzzles/` that the
/// family's descriptor lists (`puzzles::Family::datasets`) is one dataset of one instance per file. MiniZinc:
/// `share/minizinc/models/bench.txt`.
pub fn default_datasets(kind: &str) -> Vec<PathBuf> {
    if kind == "minizinc" {
        // The list of the shipped models with their data (see `minizinc_family`).
        return vec![workspace_dir().join("share/minizinc/models/bench.txt")];
    }
    let root = datasets_dir();
    if kind != "sudoku" {
        // The folders the family's descriptor names (`latin` and `latin-unique`, ...), those that exist.
        let dir = root.join("puzzles");
        return puzzles::family(kind)
            .map(|f| f.datasets)
            .unwrap_or_default()
            .iter()
            .map(|d| dir.join(d))
            .filter(|p| p.is_dir())
            .collect();
    }
    let mut files: Vec<PathBuf> = ["generated", "famous"]
        .iter()
        .flat_map(|d| txt_files(&root.join(d)))
        .collect();
    if files.is_empty() {
        files = txt_files(&root);
        if let Ok(rd) = std::fs::read_dir(&root) {
            let mut dirs: Vec<PathBuf> = rd
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect();
            dirs.sort();
            for d in dirs {
                files.extend(txt_files(&d));
            }
        }
    }
    files
}

/// Where the default HTML report goes: `bench-report/index.html` under `CARGO_TARGET_DIR` when set, else under
/// the workspace's `target/` (or `./target` when the workspace this binary was built from is gone).
pub fn default_html_path() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        // Canonical, so stderr names `/path/to/workspace/target/...` rather than `crates/bench-runner/../..`.
        _ if workspace_dir().join("Cargo.toml").is_file() => workspace_dir()
            .canonicalize()
            .unwrap_or_else(|_| workspace_dir())
            .join("target"),
        _ => PathBuf::from("target"),
    };
    target.join("bench-report").join("index.html")
}

/// The machine in one line: host name, CPU model, logical cores, OS and architecture, as far as they can be read.
pub fn machine_description() -> String {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let host = read("/etc/hostname")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown host".to_string());
    let cpu = read("/proc/cpuinfo")
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!(
        "{host}: {cpu}, {cores} logical cores, {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// The current time as `YYYY-MM-DD HH:MM UTC` (from the system clock; the civil date by Howard Hinnant's
/// days-to-date algorithm, so no time-zone database or dependency is needed).
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60
    )
}

/// `git rev-parse --short HEAD` of the workspace (with `-dirty` when the tree has changes), or "unknown".
pub fn git_revision() -> String {
    let dir = workspace_dir();
    let run = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(&dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match run(&["rev-parse", "--short", "HEAD"]) {
        Some(rev) if !rev.is_empty() => {
            let dirty = run(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{rev}-dirty")
            } else {
                rev
            }
        }
        _ => "unknown".to_string(),
    }
}
