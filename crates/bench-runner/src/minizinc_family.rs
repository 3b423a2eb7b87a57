//! MiniZinc models (`--kind minizinc`) through the `minizinc` driver: csp-core under the model's search
//! annotations and under free search, against Gecode when it is installed, compared on status, objective and
//! solution count.
//!
//! A dataset is a list file: one instance per line, `MODEL.mzn [DATA.dzn ...]`, paths relative to the current
//! folder or else to the workspace root (`share/minizinc/models/bench.txt` lists the shipped models); `#` starts a
//! comment. Each solve is one `minizinc` process, so the time includes MiniZinc's compilation to FlatZinc, as a
//! MiniZinc user sees it (run with `-j 1` for clean per-model times). `--limit N` (N >= 2) asks each solver for up
//! to N solutions (`-n N`) and the runner compares the counts; optimisation models report their proved optimum,
//! and two contenders' answers agree when their objective values are equal (their assignments may differ).
//!
//! Every solution a contender prints is checked by the other solver ([`check_solution`], called by `verify`,
//! outside the timed region; [`Checker`]: csp-core's answers by Gecode, Gecode's by csp-core): the model and its
//! data are compiled again by MiniZinc with one more file that fixes each printed variable (`constraint q = [1,
//! 5, 8, 6, 3, 7, 2, 4];` from the dzn line `q = ...;`), and the checker must find a solution, with the printed
//! objective. This re-evaluates the *original* model with another
//! compiler pass and another solver's propagators, so a wrong answer is caught whichever of our layers caused
//! it: the solver library `share/minizinc/csp-core`, the FlatZinc reader and translation, or the engine. (An
//! evaluator of the FlatZinc constraints inside the `flatzinc` crate was the alternative: it would read the full
//! assignment, not only the printed variables, but it would check csp-core against the FlatZinc our own library
//! produced, and it would need a second implementation of every builtin.) The limits: a variable the model does
//! not print is completed by Gecode's search (so a model should print its decision variables), and a check that
//! Gecode cannot finish within [`CHECK_TIME_LIMIT_MS`] is reported as a failure to check, never as a pass.
//!
//! csp-core runs through the repository's solver configuration (`share/minizinc/solvers`, release binary);
//! Gecode through a copy of its library without the three files that break MiniZinc 2.6.4's `globals.mzn` on
//! Debian (see `crates/flatzinc/README.md`), written once per run to a temporary folder. Without `minizinc` or
//! `fzn-gecode` the solvers that need them are skipped, with one message on stderr.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use csp_core::{Limits, Stats};

use crate::family::{Answer, Entry, Family, Record, SolverName, Verdict};
use crate::inputs::workspace_dir;

/// `minizinc` id of csp-core's shipped solver configuration.
const CSP_CORE_ID: &str = "org.csp-core.csp-core";
/// `minizinc` id of the Gecode configuration the runner writes.
const GECODE_ID: &str = "org.csp-core.bench-gecode";

/// Contenders: (name, `minizinc` solver id, extra flags, description).
const SOLVERS: &[(&str, &str, &[&str], &str)] = &[
    (
        "csp-core",
        CSP_CORE_ID,
        &[],
        "csp-core (fzn-csp-core, release build) with the model's search annotations",
    ),
    (
        "csp-core-free",
        CSP_CORE_ID,
        &["-f"],
        "csp-core with free search (-f: dom/wdeg, smallest value first)",
    ),
    (
        "gecode",
        GECODE_ID,
        &[],
        "Gecode 6.2 (fzn-gecode) with the model's search annotations",
    ),
];

/// Time limit given to `minizinc -t` when the run sets none (milliseconds).
const DEFAULT_TIME_LIMIT_MS: u128 = 20_000;

/// Time limit of one independent check (MiniZinc + Gecode on the model with the printed values fixed).
pub const CHECK_TIME_LIMIT_MS: u64 = 60_000;

/// One model with its data files.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The model and data paths, as resolved.
    pub files: Vec<PathBuf>,
}

/// What a solver concluded on one model, compared between contenders.
#[derive(Clone, Debug)]
pub struct MznAnswer {
    /// The objective of the last (best) solution of an optimisation model.
    pub objective: Option<i64>,
    /// The first solution as MiniZinc printed it (`--output-mode dzn`), for display.
    pub text: String,
    /// Every solution printed (dzn text, objective), in order: each is checked by `verify`.
    pub all: Vec<(String, Option<i64>)>,
    /// Who checks them in `verify`: the other solver than the one that printed them.
    pub checker: Checker,
}

/// The solver that checks a printed solution ([`check_solution`]): Gecode for csp-core's answers, csp-core for
/// Gecode's, so no solver vouches for its own answer (a solver that misreads a constraint would accept its own
/// misreading: Gecode's answer to MiniZinc Challenge `steiner-triples/09` violates MiniZinc's set order, and
/// Gecode accepts it, see docs/measurements.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checker {
    /// Gecode 6.2 (the repaired library).
    Gecode,
    /// csp-core (the repository's release build).
    CspCore,
}

impl Checker {
    /// The checker of answers printed by the `minizinc` solver `id`.
    pub fn of(id: &str) -> Self {
        if id == GECODE_ID {
            Checker::CspCore
        } else {
            Checker::Gecode
        }
    }

    fn id(self) -> &'static str {
        match self {
            Checker::Gecode => GECODE_ID,
            Checker::CspCore => CSP_CORE_ID,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Checker::Gecode => "Gecode",
            Checker::CspCore => "csp-core",
        }
    }

    /// The solver folder to run it from, or why it cannot run here.
    pub fn path(self) -> Result<String, String> {
        solver_path(self == Checker::Gecode)
    }
}

/// Two answers agree on the objective (optimisation); satisfaction answers agree through the runner's verdict and
/// count comparison (two solvers may print different solutions of the same model).
impl PartialEq for MznAnswer {
    fn eq(&self, other: &Self) -> bool {
        self.objective == other.objective
    }
}

/// A contender ready to run: its `minizinc` arguments, or why it cannot run here.
pub struct MznSolver {
    id: &'static str,
    flags: &'static [&'static str],
    /// `MZN_SOLVER_PATH` for this contender, `Err(reason)` when it cannot run here.
    solver_path: Result<String, String>,
}

/// Adapter from `minizinc` to the runner.
pub struct MinizincFamily;

fn have(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The folder holding the solver configurations of a run (the repository's csp-core, a Gecode copy), or why
/// there is none. Built once; the skip reasons are printed once.
fn solver_path(gecode: bool) -> Result<String, String> {
    static PATHS: OnceLock<(Result<String, String>, Result<String, String>)> = OnceLock::new();
    let (ours, theirs) = PATHS.get_or_init(|| {
        if !have("minizinc", "--version") {
            let why = "`minizinc` not found (apt-get install -y minizinc): MiniZinc solvers skipped".to_string();
            eprintln!("bench-runner: {why}");
            return (Err(why.clone()), Err(why));
        }
        let shipped = workspace_dir().join("share/minizinc/solvers");
        let ours = if workspace_dir().join("target/release/fzn-csp-core").is_file() {
            Ok(shipped.display().to_string())
        } else {
            let why = "target/release/fzn-csp-core not built (cargo build --release -p flatzinc): csp-core skipped"
                .to_string();
            eprintln!("bench-runner: {why}");
            Err(why)
        };
        let theirs = gecode_dir().map(|g| format!("{}:{}", g.display(), shipped.display()));
        if let Err(why) = &theirs {
            eprintln!("bench-runner: {why}");
        }
        (ours, theirs)
    });
    if gecode {
        theirs.clone()
    } else {
        ours.clone()
    }
}

/// Gecode's solver configuration with a repaired copy of its library, in a temporary folder shared by every run.
///
/// The folder's name carries the installed library's modification time, so runs reuse one copy (none is left
/// behind per process) until the `flatzinc` package changes. A run that finds no complete copy builds one in a
/// folder of its own and renames it into place; the configuration file is written last, so its presence means the
/// copy is complete, and a run that loses the race to another deletes its own folder and uses the winner's.
fn gecode_dir() -> Result<PathBuf, String> {
    if !have("fzn-gecode", "-help") && !have("fzn-gecode", "--help") {
        return Err("`fzn-gecode` not found (Debian package `flatzinc`): gecode skipped".into());
    }
    let src = Path::new("/usr/share/minizinc/gecode");
    let stamp = std::fs::metadata(src)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let dir = std::env::temp_dir().join(format!("bench-runner-gecode-{stamp}"));
    if dir.join("bench-gecode.msc").is_file() {
        return Ok(dir);
    }
    let own = std::env::temp_dir().join(format!(
        "bench-runner-gecode-{stamp}.{}",
        std::process::id()
    ));
    write_gecode_dir(src, &own, &dir)?;
    if std::fs::rename(&own, &dir).is_err() {
        // Another run put its copy in place first (or the folder cannot be renamed): use whichever is complete.
        let _ = std::fs::remove_dir_all(&own);
        if !dir.join("bench-gecode.msc").is_file() {
            return Err(format!(
                "gecode: cannot prepare its library in {}",
                dir.display()
            ));
        }
    }
    Ok(dir)
}

/// Copies Gecode's library from `src` into `own` (without the three files that break on MiniZinc 2.6's standard
/// library) and writes a configuration naming `final_dir`'s copy, the folder `own` is renamed to.
fn write_gecode_dir(src: &Path, own: &Path, final_dir: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| {
        format!(
            "gecode: cannot prepare its library in {}: {e}",
            own.display()
        )
    };
    let lib = own.join("lib");
    std::fs::create_dir_all(&lib).map_err(io)?;
    for e in std::fs::read_dir(src).map_err(io)?.flatten() {
        let name = e.file_name();
        if !["inverse.mzn", "inverse_set.mzn", "nvalue.mzn"].contains(&name.to_str().unwrap_or(""))
        {
            std::fs::copy(e.path(), lib.join(&name)).map_err(io)?;
        }
    }
    let msc = format!(
        r#"{{ "id": "org.csp-core.bench-gecode", "name": "bench-gecode", "version": "6.2.0",
  "mznlib": "{}", "executable": "fzn-gecode", "tags": ["cp", "int"],
  "stdFlags": ["-a", "-f", "-n", "-p", "-r", "-s", "-t"],
  "supportsMzn": false, "supportsFzn": true, "needsSolns2Out": true, "needsMznExecutable": false,
  "needsStdlibDir": false, "isGUIApplication": false }}"#,
        final_dir.join("lib").display()
    );
    std::fs::write(own.join("bench-gecode.msc"), msc).map_err(io)?;
    Ok(())
}

/// A path of a list line: as written when it exists, else relative to the workspace root.
fn resolve(p: &str) -> PathBuf {
    let here = PathBuf::from(p);
    if here.exists() {
        here
    } else {
        workspace_dir().join(p)
    }
}

/// Reads one list line into an instance.
fn parse_line(line: &str) -> Option<Result<Instance, String>> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return None;
    }
    let files: Vec<PathBuf> = line.split_whitespace().map(resolve).collect();
    if let Some(missing) = files.iter().find(|f| !f.is_file()) {
        return Some(Err(format!("{}: no such file", missing.display())));
    }
    if files[0].extension().is_none_or(|e| e != "mzn") {
        return Some(Err(format!(
            "{}: expected a .mzn model first",
            files[0].display()
        )));
    }
    Some(Ok(Instance { files }))
}

/// What one `minizinc` run printed: solutions (dzn text and objective), the final marker, statistics.
struct Parsed {
    solutions: Vec<(String, Option<i64>)>,
    end: String,
    nodes: u64,
    fails: u64,
}

fn parse_output(out: &str) -> Parsed {
    let mut p = Parsed {
        solutions: Vec::new(),
        end: String::new(),
        nodes: 0,
        fails: 0,
    };
    let mut current = String::new();
    let mut objective = None;
    for line in out.lines() {
        if let Some(stat) = line.strip_prefix("%%%mzn-stat: ") {
            let (k, v) = stat.split_once('=').unwrap_or((stat, ""));
            let v: u64 = v.trim().parse().unwrap_or(0);
            match k {
                "nodes" => p.nodes = p.nodes.max(v),
                "failures" => p.fails = p.fails.max(v),
                _ => {}
            }
        } else if line.starts_with("%%%") {
        } else if line == "----------" {
            p.solutions
                .push((std::mem::take(&mut current), objective.take()));
        } else if line.starts_with("=====") || line == "==========" {
            p.end = line.to_string();
        } else if let Some(o) = line.strip_prefix("_objective = ") {
            objective = o.trim_end_matches(';').trim().parse().ok();
        } else {
            current.push_str(line);
            current.push('\n');
        }
    }
    p
}

/// The dzn assignments `name = value;` of a printed solution as MiniZinc constraints `constraint name = value;`
/// (constraints rather than data, so a variable the model defines by an expression can be fixed too). Values may
/// span lines (`array2d(...)`); a `;` inside a string literal does not end one.
pub fn fixing_constraints(dzn: &str) -> String {
    let mut out = String::new();
    let mut item = String::new();
    let mut in_string = false;
    for c in dzn.chars() {
        match c {
            '"' => in_string = !in_string,
            ';' if !in_string => {
                let a = item.trim();
                if a.contains('=') {
                    out.push_str("constraint ");
                    out.push_str(a);
                    out.push_str(";\n");
                }
                item.clear();
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    out
}

/// Checks one printed solution with `checker` (not the solver that printed it): MiniZinc compiles `files` (model
/// and data) with the printed values fixed ([`fixing_constraints`]) for the checker (its solver configuration in
/// `path`), which must find a solution, with objective `objective` when one was printed. `Err` says what failed: the values violate the
/// model, the objective differs, or the check could not be made (MiniZinc's error, or no answer within
/// [`CHECK_TIME_LIMIT_MS`]).
pub fn check_solution(
    checker: Checker,
    path: &str,
    files: &[PathBuf],
    dzn: &str,
    objective: Option<i64>,
) -> Result<(), String> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let fixed = std::env::temp_dir().join(format!(
        "bench-runner-check-{}-{}.mzn",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&fixed, fixing_constraints(dzn))
        .map_err(|e| format!("cannot write {}: {e}", fixed.display()))?;
    let out = Command::new("minizinc")
        .env("MZN_SOLVER_PATH", path)
        .args([
            "--solver",
            checker.id(),
            "--output-mode",
            "dzn",
            "--output-objective",
            "-t",
            &CHECK_TIME_LIMIT_MS.to_string(),
        ])
        .args(files)
        .arg(&fixed)
        .output();
    let _ = std::fs::remove_file(&fixed);
    let out = out.map_err(|e| format!("cannot run minizinc for the check: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "not checked: MiniZinc refused the printed values as constraints: {}",
            err.lines().take(3).collect::<Vec<_>>().join(" ")
        ));
    }
    let p = parse_output(&String::from_utf8_lossy(&out.stdout));
    match p.solutions.last() {
        Some((_, found)) => match objective {
            Some(o) if *found != Some(o) => Err(format!(
                "objective printed as {o}, but the model gives {} for these values (MiniZinc + {})",
                found.map_or("none".to_string(), |f| f.to_string()),
                checker.label()
            )),
            _ => Ok(()),
        },
        None if p.end == "=====UNSATISFIABLE=====" => Err(format!(
            "the printed values violate the model (MiniZinc + {} find no solution with them)",
            checker.label()
        )),
        None => Err(format!(
            "not checked: {} found no answer within {} s",
            checker.label(),
            CHECK_TIME_LIMIT_MS / 1000
        )),
    }
}

impl Family for MinizincFamily {
    type Puzzle = Instance;
    type Solution = MznAnswer;
    type Solver = MznSolver;
    type Request = (u64, Limits);

    fn kind(&self) -> &'static str {
        "minizinc"
    }

    fn solvers(&self) -> Vec<SolverName> {
        SOLVERS
            .iter()
            .map(|&(name, _, _, description)| SolverName { name, description })
            .collect()
    }

    fn make(&self, name: &str) -> Option<Self::Solver> {
        let &(name, id, flags, _) = SOLVERS.iter().find(|s| s.0 == name)?;
        Some(MznSolver {
            id,
            flags,
            solver_path: solver_path(name == "gecode"),
        })
    }

    fn supports(&self, solver: &Self::Solver, _: &Self::Puzzle) -> bool {
        solver.solver_path.is_ok()
    }

    fn request(&self, solution_limit: u64, limits: Limits) -> Self::Request {
        (solution_limit, limits)
    }

    fn solve(
        &self,
        solver: &mut Self::Solver,
        puzzle: &Self::Puzzle,
        request: &Self::Request,
    ) -> Answer<Self::Solution> {
        let (limit, limits) = request;
        let failed = |verdict| Answer {
            verdict,
            solution: None,
            count: 0,
            stats: Stats::default(),
            cancelled: false,
        };
        let Ok(path) = &solver.solver_path else {
            return failed(Verdict::Skipped);
        };
        let ms = limits
            .time
            .map(|t| t.as_millis())
            .unwrap_or(DEFAULT_TIME_LIMIT_MS)
            .max(1);
        let mut cmd = Command::new("minizinc");
        cmd.env("MZN_SOLVER_PATH", path)
            .args([
                "--solver",
                solver.id,
                "--output-mode",
                "dzn",
                "--output-objective",
                "-s",
            ])
            .args(["-t", &ms.to_string()])
            .args(solver.flags);
        if *limit >= 2 {
            cmd.args(["-n", &limit.to_string()]);
        }
        cmd.args(&puzzle.files);
        let out = match cmd.output() {
            Ok(o) if o.status.success() => o,
            _ => return failed(Verdict::Invalid),
        };
        let p = parse_output(&String::from_utf8_lossy(&out.stdout));
        let optimisation = p.solutions.iter().any(|s| s.1.is_some());
        let count = p.solutions.len() as u64;
        let complete = p.end == "==========";
        let verdict = match p.end.as_str() {
            "=====UNSATISFIABLE=====" => Verdict::Unsatisfiable,
            _ if count == 0 => Verdict::Limit,
            // An optimum not proved within the time limit is an unfinished search.
            _ if optimisation && !complete => Verdict::Limit,
            _ if optimisation => Verdict::Solved,
            _ if *limit >= 2 && count >= 2 => Verdict::Multiple,
            // Fewer solutions than asked for: the search must have ended, not been cut.
            _ if *limit >= 2 && !complete => Verdict::Limit,
            _ => Verdict::Solved,
        };
        let stats = Stats {
            nodes: p.nodes,
            fails: p.fails,
            solutions: count,
            ..Stats::default()
        };
        let best = p.solutions.last().map(|s| s.1);
        Answer {
            verdict,
            solution: p.solutions.first().map(|(text, _)| MznAnswer {
                objective: best.flatten(),
                text: text.clone(),
                all: p.solutions.clone(),
                checker: Checker::of(solver.id),
            }),
            // Optimisation prints improving solutions; the count that compares is one optimum.
            count: if optimisation { 1 } else { count },
            stats,
            cancelled: false,
        }
    }

    fn verify(&self, puzzle: &Self::Puzzle, solution: &Self::Solution) -> Result<(), String> {
        if solution.text.trim().is_empty() && solution.objective.is_none() {
            return Err("empty solution".into());
        }
        let path = match solution.checker.path() {
            Ok(path) => path,
            Err(why) => {
                static ONCE: OnceLock<()> = OnceLock::new();
                ONCE.get_or_init(|| {
                    eprintln!("bench-runner: MiniZinc solutions NOT checked independently ({why})")
                });
                return Ok(());
            }
        };
        for (i, (text, objective)) in solution.all.iter().enumerate() {
            check_solution(solution.checker, &path, &puzzle.files, text, *objective)
                .map_err(|e| format!("solution {} of {}: {e}", i + 1, solution.all.len()))?;
        }
        Ok(())
    }

    fn answers_must_match(&self) -> bool {
        true
    }

    fn render(&self, solution: &Self::Solution) -> String {
        let text = solution
            .text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        match solution.objective {
            Some(o) => format!("objective {o}: {text}"),
            None => text,
        }
    }

    fn records<'a>(
        &self,
        input: Box<dyn BufRead + Send + 'a>,
    ) -> Box<dyn Iterator<Item = Record<Self::Puzzle, Self::Solution>> + Send + 'a> {
        Box::new(input.lines().enumerate().filter_map(|(i, line)| {
            let item = match line {
                Err(e) => Some(Err(format!("cannot read: {e}"))),
                Ok(l) => parse_line(&l),
            }?;
            Some(Record {
                line: i + 1,
                item: item.map(|puzzle| Entry {
                    puzzle,
                    expected: None,
                }),
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_split_into_solutions_objectives_marker_and_statistics() {
        let out = "x = 3;\n_objective = 7;\n----------\nx = 4;\n_objective = 9;\n----------\n\
                   ==========\n%%%mzn-stat: nodes=12\n%%%mzn-stat: failures=5\n%%%mzn-stat-end\n";
        let p = parse_output(out);
        assert_eq!(
            p.solutions,
            [
                ("x = 3;\n".to_string(), Some(7)),
                ("x = 4;\n".to_string(), Some(9))
            ]
        );
        assert_eq!((p.end.as_str(), p.nodes, p.fails), ("==========", 12, 5));
        assert_eq!(
            parse_output("=====UNSATISFIABLE=====\n").end,
            "=====UNSATISFIABLE====="
        );
    }

    #[test]
    fn list_lines_skip_comments_and_name_missing_files() {
        assert!(parse_line("   # only a comment").is_none());
        assert!(parse_line("").is_none());
        let ok = parse_line("share/minizinc/models/queens.mzn # 92 solutions");
        assert!(ok.is_some_and(|r| r.is_ok_and(|i| i.files.len() == 1)));
        let bad = parse_line("share/minizinc/models/no_such.mzn");
        assert!(bad.is_some_and(|r| r.is_err_and(|e| e.contains("no_such.mzn"))));
        let data_first = parse_line("share/minizinc/models/sudoku.dzn");
        assert!(data_first.is_some_and(|r| r.is_err_and(|e| e.contains(".mzn model first"))));
    }

    #[test]
    fn dzn_assignments_become_fixing_constraints_even_across_lines() {
        let dzn = "q = [1, 2];\ngrid = array2d(1..2, 1..2, [1, 2,\n  3, 4]);\nname = \"a;b\";\n";
        assert_eq!(
            fixing_constraints(dzn),
            "constraint q = [1, 2];\nconstraint grid = array2d(1..2, 1..2, [1, 2,\n  3, 4]);\n\
             constraint name = \"a;b\";\n"
        );
    }

    /// Gecode's solver folder for the checker, or `None` (loudly) without MiniZinc and Gecode, unless
    /// `CSP_REQUIRE_MINIZINC=1` (CI), where their absence fails.
    fn checker() -> Option<String> {
        match solver_path(true) {
            Ok(g) => Some(g),
            Err(why) => {
                assert!(
                    std::env::var("CSP_REQUIRE_MINIZINC").as_deref() != Ok("1"),
                    "CSP_REQUIRE_MINIZINC=1 but {why}"
                );
                eprintln!("\n!!!!! SKIPPED: {why}; the independent checker was not tested !!!!!\n");
                None
            }
        }
    }

    #[test]
    fn the_independent_checker_accepts_right_solutions_and_catches_wrong_ones() {
        let Some(g) = checker() else {
            return;
        };
        let queens = vec![workspace_dir().join("share/minizinc/models/queens.mzn")];
        let right = "q = [1, 5, 8, 6, 3, 7, 2, 4];\n";
        let wrong = "q = [1, 5, 8, 6, 3, 7, 4, 2];\n";
        assert_eq!(
            check_solution(Checker::Gecode, &g, &queens, right, None),
            Ok(())
        );
        let e = check_solution(Checker::Gecode, &g, &queens, wrong, None)
            .expect_err("two queens share a diagonal");
        assert!(e.contains("violate the model"), "{e}");
        // An objective printed wrongly is caught even when the values satisfy the model.
        let knapsack = vec![workspace_dir().join("share/minizinc/models/knapsack.mzn")];
        let empty = "take = [false, false, false, false, false, false, false, false];\n";
        assert_eq!(
            check_solution(Checker::Gecode, &g, &knapsack, empty, Some(0)),
            Ok(())
        );
        let e = check_solution(Checker::Gecode, &g, &knapsack, empty, Some(55))
            .expect_err("the objective is 0");
        assert!(
            e.contains("objective printed as 55") && e.contains("gives 0"),
            "{e}"
        );
        // `verify` checks every printed solution, not only the first.
        let puzzle = Instance { files: queens };
        let answer = |all: Vec<(String, Option<i64>)>| MznAnswer {
            objective: None,
            text: right.to_string(),
            all,
            checker: Checker::Gecode,
        };
        let family = MinizincFamily;
        let ok = answer(vec![(right.to_string(), None)]);
        assert_eq!(family.verify(&puzzle, &ok), Ok(()));
        let bad = answer(vec![(right.to_string(), None), (wrong.to_string(), None)]);
        let e = family
            .verify(&puzzle, &bad)
            .expect_err("the second solution is wrong");
        assert!(e.starts_with("solution 2 of 2"), "{e}");
    }

    #[test]
    fn gecodes_answers_are_checked_by_csp_core_and_csp_cores_by_gecode() {
        assert_eq!(Checker::of(GECODE_ID), Checker::CspCore);
        assert_eq!(Checker::of(CSP_CORE_ID), Checker::Gecode);
        if checker().is_none() {
            return;
        }
        let ours = match Checker::CspCore.path() {
            Ok(p) => p,
            Err(why) => {
                assert!(
                    std::env::var("CSP_REQUIRE_MINIZINC").as_deref() != Ok("1"),
                    "CSP_REQUIRE_MINIZINC=1 but {why}"
                );
                eprintln!("\n!!!!! SKIPPED: {why}; csp-core as checker was not tested !!!!!\n");
                return;
            }
        };
        let queens = vec![workspace_dir().join("share/minizinc/models/queens.mzn")];
        let right = "q = [1, 5, 8, 6, 3, 7, 2, 4];\n";
        let wrong = "q = [1, 5, 8, 6, 3, 7, 4, 2];\n";
        assert_eq!(
            check_solution(Checker::CspCore, &ours, &queens, right, None),
            Ok(())
        );
        let e = check_solution(Checker::CspCore, &ours, &queens, wrong, None)
            .expect_err("two queens share a diagonal");
        assert!(e.contains("MiniZinc + csp-core find no solution"), "{e}");
        // `verify` takes the answer's checker: a wrong answer of Gecode's is caught by csp-core.
        let answer = MznAnswer {
            objective: None,
            text: wrong.to_string(),
            all: vec![(wrong.to_string(), None)],
            checker: Checker::CspCore,
        };
        let e = MinizincFamily
            .verify(&Instance { files: queens }, &answer)
            .expect_err("wrong");
        assert!(e.contains("csp-core"), "{e}");
    }

    #[test]
    fn optimisation_answers_agree_on_the_objective_alone() {
        let a = MznAnswer {
            objective: Some(5),
            text: "x = 1;\n".into(),
            all: Vec::new(),
            checker: Checker::Gecode,
        };
        let b = MznAnswer {
            objective: Some(5),
            text: "x = 2;\n".into(),
            all: Vec::new(),
            checker: Checker::Gecode,
        };
        assert_eq!(a, b);
        assert_ne!(
            a,
            MznAnswer {
                objective: Some(6),
                ..b
            }
        );
    }
}
