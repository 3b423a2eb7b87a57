//! `--html FILE`: one self-contained page (inline CSS and SVG, no network) with the summary pivots, every
//! dataset's detailed table and cactus plot, each solver's time histogram, and the run's configuration, machine
//! and source revision. The default run writes it to `target/bench-report/index.html`.
//!
//! The page carries a few lines of script that run after layout: each plot's `<figure>` gets
//! `data-rendered="yes"` when its SVG has a non-empty box and drawn marks, and `<body>` gets
//! `data-plots-rendered="R/T"`. A headless browser's `--dump-dom` then shows whether every plot rendered (the
//! crate's tests open the page in Chromium this way).

use std::fmt::Write as _;
use std::path::PathBuf;

use super::markdown::{num, times, COLUMNS};
use super::plot::{cactus_svg, histogram_svg, solver_times};
use super::{pivot, Output, OutputError};
use crate::histogram::Histogram;
use crate::summary::RunSummary;

/// Writes the HTML page to a file (its folder is created when missing; written whole, then renamed into place).
pub struct Html {
    /// Destination.
    pub path: PathBuf,
}

/// Escapes text for HTML content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document as an inline element (any XML declaration dropped).
fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1200px;padding:0 1em;color:#222}\
h1{font-size:1.6em}h2{font-size:1.3em;margin-top:2em;border-bottom:1px solid #ccc}\
table{border-collapse:collapse;margin:.6em 0;font-variant-numeric:tabular-nums}\
th,td{padding:.2em .6em;border-bottom:1px solid #eee;text-align:right;white-space:nowrap}\
th:first-child,td:first-child,td.text{text-align:left}th{background:#f4f4f4}\
table.config td{text-align:left}.rank1{font-weight:bold;color:#060}.bad{color:#b00;font-weight:bold}\
.note{color:#555}figure{margin:1em 0}figure svg{max-width:100%;height:auto;border:1px solid #ddd}\
.scroll{overflow-x:auto}";

const SCRIPT: &str = "window.addEventListener('load',function(){var f=document.querySelectorAll('figure.plot'),ok=0;\
f.forEach(function(e){var s=e.querySelector('svg');var b=s?s.getBoundingClientRect():null;\
var drawn=!!s&&b.width>0&&b.height>0&&s.querySelectorAll('polyline,path,rect,line').length>0;\
e.setAttribute('data-rendered',drawn?'yes':'no');if(drawn){ok++;}});\
document.body.setAttribute('data-plots-rendered',ok+'/'+f.length);});";

/// The page, or why a plot could not be drawn.
pub fn render(run: &RunSummary) -> Result<String, String> {
    let cfg = &run.config;
    let mut h = String::new();
    let title = format!("{} benchmark, git {}", cfg.kind, cfg.git_revision);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head>\n<body>\n<h1>{}</h1>\n",
        esc(&title),
        esc(&title)
    );
    if run.partial {
        h += "<p class=\"bad\">Partial run: interrupted by Ctrl-C; each solver counts only the puzzles it finished.</p>\n";
    }
    let errors = run.errors();
    if errors > 0 {
        let _ = writeln!(
            h,
            "<p class=\"bad\">{errors} wrong answers or disagreements between solvers (details on the run's stderr).</p>"
        );
    }
    config_table(&mut h, run);

    let rows = pivot::rows(run);
    h += "<section id=\"summary\">\n<h2>Summary</h2>\n<p class=\"note\">Puzzles per second and rank on each dataset \
          (#1 = fastest); solvers ordered by mean rank. <code>*</code>: stopped at a node or time limit on some \
          puzzles of that dataset.</p>\n<div class=\"scroll\"><table><tr><th>solver</th>";
    for d in &run.datasets {
        let _ = write!(h, "<th>{}</th>", esc(&d.name));
    }
    h += "<th>mean rank</th></tr>\n";
    for r in &rows {
        let _ = write!(h, "<tr><td>{}</td>", esc(&r.solver));
        for c in &r.cells {
            match c {
                Some(c) => {
                    let _ = write!(
                        h,
                        "<td{}>{}{} #{}</td>",
                        if c.rank == 1 { " class=\"rank1\"" } else { "" },
                        num(c.puzzles_per_sec),
                        if c.limited > 0 { "*" } else { "" },
                        c.rank
                    );
                }
                None => h += "<td>-</td>",
            }
        }
        let mean = if r.mean_rank.is_finite() {
            format!("{:.1}", r.mean_rank)
        } else {
            "-".into()
        };
        let _ = writeln!(h, "<td>{mean}</td></tr>");
    }
    h += "</table></div>\n";
    if pivot::has_speedups(&rows) {
        h += "<p class=\"note\">Speedup over naive DFS, in time / in nodes, on the puzzles both concluded.</p>\n\
              <div class=\"scroll\"><table><tr><th>solver</th>";
        for d in &run.datasets {
            let _ = write!(h, "<th>{}</th>", esc(&d.name));
        }
        h += "</tr>\n";
        for r in &rows {
            let _ = write!(h, "<tr><td>{}</td>", esc(&r.solver));
            for c in &r.cells {
                match c {
                    Some(c) if c.time_speedup.is_some() => {
                        let _ = write!(
                            h,
                            "<td>{} / {}</td>",
                            times(c.time_speedup),
                            times(c.node_speedup)
                        );
                    }
                    _ => h += "<td>-</td>",
                }
            }
            h += "</tr>\n";
        }
        h += "</table></div>\n";
    }
    h += "</section>\n";

    for (i, d) in run.datasets.iter().enumerate() {
        let _ = write!(
            h,
            "<section class=\"dataset\" id=\"dataset-{i}\" data-dataset=\"{}\">\n<h2>{}</h2>\n<p class=\"note\">{} \
             puzzles from <code>{}</code>",
            esc(&d.name),
            esc(&d.name),
            d.puzzles,
            esc(&d.path)
        );
        if d.naive_limited > 0 {
            let _ = write!(
                h,
                "; naive DFS hit its node limit on {} of them (left out of the speedups)",
                d.naive_limited
            );
        }
        h += ".</p>\n";
        if d.disagreements > 0 {
            let _ = writeln!(
                h,
                "<p class=\"bad\">{} disagreements between solvers.</p>",
                d.disagreements
            );
        }
        h += "<div class=\"scroll\"><table><tr><th>solver</th>";
        for c in COLUMNS {
            let _ = write!(h, "<th>{}</th>", esc(c.header));
        }
        h += "</tr>\n";
        for s in &d.solvers {
            let _ = write!(h, "<tr><td>{}</td>", esc(&s.solver));
            for c in COLUMNS {
                let _ = write!(h, "<td>{}</td>", esc(&(c.cell)(s)));
            }
            h += "</tr>\n";
        }
        h += "</table></div>\n";
        let series: Vec<(&str, &Histogram)> = d
            .solvers
            .iter()
            .map(|s| (s.solver.as_str(), &s.concluded_times))
            .collect();
        let svg = cactus_svg(&d.name, &series)?;
        let _ = write!(
            h,
            "<figure class=\"plot cactus\"><figcaption>Cactus plot: puzzles concluded within a time per puzzle \
             (further right and higher is better).</figcaption>\n{}\n</figure>\n</section>\n",
            inline_svg(&svg)
        );
    }

    h += "<section id=\"histograms\">\n<h2>Solve times per solver</h2>\n";
    for (k, solver) in cfg.solvers.iter().enumerate() {
        let svg = histogram_svg(solver, &solver_times(run, k))?;
        let _ = write!(
            h,
            "<figure class=\"plot histogram\" data-solver=\"{}\">\n{}\n</figure>\n",
            esc(solver),
            inline_svg(&svg)
        );
    }
    h += "</section>\n";

    if let Some((solver, points)) = &run.scaling {
        let _ = writeln!(
            h,
            "<section id=\"scaling\"><h2>Thread scaling of {}</h2><table><tr><th>threads</th><th>puzzles/s</th>\
             <th>speedup</th><th>efficiency</th></tr>",
            esc(solver)
        );
        for p in points {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{:.2}x</td><td>{:.0}%</td></tr>",
                p.threads,
                num(p.puzzles_per_sec),
                p.speedup,
                100.0 * p.efficiency
            );
        }
        h += "</table></section>\n";
    }
    let _ = write!(h, "<script>{SCRIPT}</script>\n</body></html>\n");
    Ok(h)
}

/// The run configuration, machine and revision as a two-column table.
fn config_table(h: &mut String, run: &RunSummary) {
    let cfg = &run.config;
    let mut rows: Vec<(&str, String)> = vec![
        ("puzzle family", cfg.kind.clone()),
        ("solvers", cfg.solvers.join(", ")),
        (
            "threads",
            format!("{} of {} logical cores", cfg.threads, cfg.cores),
        ),
        (
            "solutions per puzzle",
            match cfg.solution_limit {
                1 => "1 (first solution)".to_string(),
                2 => "2 (proves uniqueness)".to_string(),
                n => format!("{n} (exact counts up to {n})"),
            },
        ),
    ];
    let mut limits = Vec::new();
    if let (Some(n), false) = (cfg.baseline_node_limit, cfg.baselines.is_empty()) {
        limits.push(format!("{n} nodes for {}", cfg.baselines.join(", ")));
    }
    if let Some(n) = cfg.node_limit {
        limits.push(format!("{n} nodes for every solver"));
    }
    if let Some(ms) = cfg.time_limit_ms {
        limits.push(format!("{} s per puzzle", ms as f64 / 1e3));
    }
    rows.push((
        "limits",
        if limits.is_empty() {
            "none".into()
        } else {
            limits.join("; ")
        },
    ));
    if let Some(n) = cfg.sample {
        rows.push(("sample", format!("{n} per dataset, seed {}", cfg.seed)));
    }
    rows.push((
        "warm-up",
        format!("{} ms per solver and dataset", cfg.warmup_ms),
    ));
    rows.push(("chunk", format!("{} entries", cfg.chunk)));
    if let Some(s) = cfg.shard {
        rows.push((
            "shard",
            format!("{s} (entries with index k % {} == {})", s.count, s.index),
        ));
    }
    rows.push(("started", cfg.started.clone()));
    if run.merged.is_empty() {
        rows.push(("machine", cfg.machine.clone()));
        rows.push(("wall time", format!("{:.1} s", run.wall_secs)));
    } else {
        rows.push((
            "merged from",
            format!(
                "{} shards; puzzles/s divides by the sum of the shards' timed phases; the slowest shard took {:.1} s of wall time",
                run.merged.len(),
                run.wall_secs
            ),
        ));
        for m in &run.merged {
            rows.push((
                "shard",
                format!(
                    "{} from {}: {:.1} s on {} ({} threads, git {})",
                    m.shard, m.file, m.wall_secs, m.machine, m.threads, m.git_revision
                ),
            ));
        }
    }
    rows.push(("git revision", cfg.git_revision.clone()));
    *h += "<table class=\"config\">\n";
    for (k, v) in rows {
        let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", esc(k), esc(&v));
    }
    *h += "</table>\n";
}

impl Output for Html {
    fn emit(&self, run: &RunSummary) -> Result<(), OutputError> {
        let page = render(run).map_err(|message| OutputError {
            path: self.path.clone(),
            message,
        })?;
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| OutputError::io(dir, e))?;
        }
        // Written beside the destination and renamed, so a reader (or a concurrent run) never sees half a page.
        let tmp = self
            .path
            .with_extension(format!("html.{}.tmp", std::process::id()));
        std::fs::write(&tmp, page).map_err(|e| OutputError::io(&tmp, e))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| OutputError::io(&self.path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_time_reads_as_a_utc_date() {
        let now = crate::inputs::utc_now();
        assert_eq!(now.len(), "2026-11-25 10:44 UTC".len(), "{now}");
        assert!(now.starts_with("20") && now.ends_with(" UTC"), "{now}");
    }

    #[test]
    fn text_is_escaped_for_html() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn an_xml_declaration_is_dropped_from_inline_svg() {
        assert_eq!(
            inline_svg("<?xml version=\"1.0\"?>\n<svg a=\"1\"/>"),
            "<svg a=\"1\"/>"
        );
    }
}
