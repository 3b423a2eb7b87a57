//! The markdown table on stdout: a compact table by default, every column with `--wide`.

use std::fmt::Write as _;

use super::{pivot, Output, OutputError};
use crate::summary::{RunSummary, SolverSummary};

/// Prints the table to stdout.
pub struct Markdown {
    /// Every column (`--wide`) instead of the compact set.
    pub wide: bool,
}

/// One column: header and how to format it from a solver summary.
pub(crate) struct Column {
    pub(crate) header: &'static str,
    wide_only: bool,
    pub(crate) cell: fn(&SolverSummary) -> String,
}

pub(crate) fn num(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

pub(crate) fn times(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |v| format!("{}x", num(v)))
}

pub(crate) const COLUMNS: &[Column] = &[
    Column {
        header: "puzzles",
        wide_only: false,
        cell: |s| s.counts.total().to_string(),
    },
    Column {
        header: "solved",
        wide_only: false,
        cell: |s| s.counts.solved.to_string(),
    },
    Column {
        header: "multiple",
        wide_only: true,
        cell: |s| s.counts.multiple.to_string(),
    },
    Column {
        header: "unsat",
        wide_only: false,
        cell: |s| s.counts.unsatisfiable.to_string(),
    },
    Column {
        header: "invalid",
        wide_only: false,
        cell: |s| s.counts.invalid.to_string(),
    },
    Column {
        header: "limit",
        wide_only: false,
        cell: |s| s.counts.limit.to_string(),
    },
    Column {
        header: "skipped",
        wide_only: true,
        cell: |s| s.counts.skipped.to_string(),
    },
    Column {
        header: "errors",
        wide_only: false,
        cell: |s| s.errors.to_string(),
    },
    Column {
        header: "puzzles/s",
        wide_only: false,
        cell: |s| num(s.puzzles_per_sec()),
    },
    Column {
        header: "puzzles/s/thread",
        wide_only: true,
        cell: |s| num(s.puzzles_per_sec_per_thread()),
    },
    Column {
        header: "µs mean",
        wide_only: false,
        cell: |s| num(s.times.mean_micros()),
    },
    Column {
        header: "µs p50",
        wide_only: true,
        cell: |s| num(s.times.quantile_micros(0.5)),
    },
    Column {
        header: "µs p90",
        wide_only: true,
        cell: |s| num(s.times.quantile_micros(0.9)),
    },
    Column {
        header: "µs p99",
        wide_only: false,
        cell: |s| num(s.times.quantile_micros(0.99)),
    },
    Column {
        header: "µs max",
        wide_only: true,
        cell: |s| num(s.times.max_micros()),
    },
    Column {
        header: "nodes mean",
        wide_only: false,
        cell: |s| num(s.nodes_mean()),
    },
    Column {
        header: "nodes max",
        wide_only: true,
        cell: |s| s.nodes_max.to_string(),
    },
    Column {
        header: "guesses mean",
        wide_only: false,
        cell: |s| num(s.guesses_mean()),
    },
    Column {
        header: "guesses max",
        wide_only: true,
        cell: |s| s.guesses_max.to_string(),
    },
    Column {
        header: "no guess",
        wide_only: false,
        cell: |s| format!("{:.1}%", 100.0 * s.no_guess_share()),
    },
    Column {
        header: "vs naive (time)",
        wide_only: false,
        cell: |s| times(s.speedup_vs_naive()),
    },
    Column {
        header: "vs naive (nodes)",
        wide_only: true,
        cell: |s| times(s.node_speedup_vs_naive()),
    },
];

/// A markdown table with the first `text_cols` columns left-aligned and the others (figures) right-aligned.
fn table(headers: &[String], rows: &[Vec<String>], text_cols: usize) -> String {
    let widths: Vec<usize> = (0..headers.len())
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.get(i))
                .map(|c| c.chars().count())
                .chain([headers[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                let pad = " ".repeat(w.saturating_sub(c.chars().count()));
                if i < text_cols {
                    format!("{c}{pad}")
                } else {
                    format!("{pad}{c}")
                }
            })
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = line(headers);
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if i < text_cols {
                "-".repeat(w + 2)
            } else {
                format!("{}:", "-".repeat(w + 1))
            }
        })
        .collect();
    out += &format!("|{}|\n", rule.join("|"));
    for r in rows {
        out += &line(r);
    }
    out
}

/// The two summary pivots (datasets as columns): throughput with rank, then speedups over naive DFS.
fn summary_tables(run: &RunSummary, pivot: &[pivot::Row]) -> String {
    let mut out = String::new();
    let mut headers = vec!["solver".to_string()];
    headers.extend(run.datasets.iter().map(|d| d.name.clone()));
    headers.push("mean rank".to_string());
    let mark = |c: &pivot::Cell| if c.limited > 0 { "*" } else { "" };
    let rows: Vec<Vec<String>> = pivot
        .iter()
        .map(|r| {
            let mut row = vec![r.solver.clone()];
            row.extend(r.cells.iter().map(|c| {
                c.as_ref().map_or_else(
                    || "-".to_string(),
                    |c| format!("{}{} #{}", num(c.puzzles_per_sec), mark(c), c.rank),
                )
            }));
            row.push(if r.mean_rank.is_finite() {
                format!("{:.1}", r.mean_rank)
            } else {
                "-".to_string()
            });
            row
        })
        .collect();
    out += "Summary: puzzles per second and rank on each dataset (#1 = fastest), best mean rank first:\n\n";
    out += &table(&headers, &rows, 1);
    if pivot::has_speedups(pivot) {
        headers.pop();
        let rows: Vec<Vec<String>> = pivot
            .iter()
            .map(|r| {
                let mut row = vec![r.solver.clone()];
                row.extend(r.cells.iter().map(|c| match c {
                    Some(c) if c.time_speedup.is_some() => format!(
                        "{} / {}{}",
                        times(c.time_speedup),
                        times(c.node_speedup),
                        mark(c)
                    ),
                    _ => "-".to_string(),
                }));
                row
            })
            .collect();
        out += "\nSpeedup over naive DFS, in time / in nodes, on the puzzles both concluded:\n\n";
        out += &table(&headers, &rows, 1);
    }
    if pivot
        .iter()
        .flat_map(|r| r.cells.iter().flatten())
        .any(|c| c.limited > 0)
    {
        out += "\n`*`: the solver stopped at a node or time limit on some puzzles of that dataset (see `limit` below).\n";
    }
    out += "\n";
    out
}

/// The report text: a header line, the table, then notes (limits, disagreements, partial run, scaling).
pub fn render(run: &RunSummary, wide: bool) -> String {
    let cfg = &run.config;
    let mut out = String::new();
    if run.partial {
        let _ = writeln!(out, "**PARTIAL RUN: interrupted by Ctrl-C; each solver counts only the puzzles it finished.**\n");
    }
    let _ = writeln!(
        out,
        "{} benchmark: {} thread(s) of {} cores, solution limit {}, git {}{}\n",
        cfg.kind,
        cfg.threads,
        cfg.cores,
        cfg.solution_limit,
        cfg.git_revision,
        cfg.sample.map_or_else(String::new, |n| format!(
            ", sample {n} per dataset (seed {})",
            cfg.seed
        )),
    );
    // `multiple` joins the compact table when uniqueness is being checked.
    let mut limits = Vec::new();
    if let (Some(n), false) = (cfg.baseline_node_limit, cfg.baselines.is_empty()) {
        limits.push(format!("{} nodes for {}", n, cfg.baselines.join(", ")));
    }
    if let Some(n) = cfg.node_limit {
        limits.push(format!("{n} nodes for every solver"));
    }
    if let Some(ms) = cfg.time_limit_ms {
        limits.push(format!("{} s per puzzle", ms as f64 / 1e3));
    }
    if !limits.is_empty() {
        let _ = writeln!(out, "Limits: {}.\n", limits.join("; "));
    }
    let pivot = pivot::rows(run);
    out += &summary_tables(run, &pivot);
    let cols: Vec<&Column> = COLUMNS
        .iter()
        .filter(|c| wide || !c.wide_only || (c.header == "multiple" && cfg.solution_limit >= 2))
        .collect();
    let mut rows: Vec<Vec<String>> = Vec::new();
    for d in &run.datasets {
        for s in &d.solvers {
            let mut row = vec![d.name.clone(), s.solver.clone()];
            row.extend(cols.iter().map(|c| (c.cell)(s)));
            rows.push(row);
        }
    }
    let mut headers = vec!["dataset".to_string(), "solver".to_string()];
    headers.extend(cols.iter().map(|c| c.header.to_string()));
    out += "Details, per dataset and solver:\n\n";
    out += &table(&headers, &rows, 2);
    out += "\n";
    for d in &run.datasets {
        if d.naive_limited > 0 {
            let _ = writeln!(
                out,
                "- {}: naive DFS hit its node limit on {} of {} puzzles; speedups compare only the puzzles both finished.",
                d.name, d.naive_limited, d.puzzles
            );
        }
        if d.disagreements > 0 {
            let _ = writeln!(
                out,
                "- **{}: {} DISAGREEMENTS between solvers (details on stderr).**",
                d.name, d.disagreements
            );
        }
    }
    let wrong: u64 = run
        .datasets
        .iter()
        .flat_map(|d| &d.solvers)
        .map(|s| s.errors)
        .sum();
    if wrong > 0 {
        let _ = writeln!(out, "- **{wrong} WRONG ANSWERS (failed verification or differ from the dataset; details on stderr).**");
    }
    if let Some((solver, points)) = &run.scaling {
        let _ = writeln!(out, "\nThread scaling of `{solver}`:\n");
        let _ = writeln!(
            out,
            "| threads | puzzles/s | speedup | efficiency |\n|--:|--:|--:|--:|"
        );
        for p in points {
            let _ = writeln!(
                out,
                "| {} | {} | {:.2}x | {:.0}% |",
                p.threads,
                num(p.puzzles_per_sec),
                p.speedup,
                100.0 * p.efficiency
            );
        }
    }
    out
}

impl Output for Markdown {
    fn emit(&self, run: &RunSummary) -> Result<(), OutputError> {
        use std::io::Write;
        let text = render(run, self.wide);
        match std::io::stdout().lock().write_all(text.as_bytes()) {
            // A closed pipe (`bench-runner ... | head`): the reader has what it wanted.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            r => r.map_err(|e| OutputError::io("stdout", e)),
        }
    }
}
