//! `--plot DIR`: SVG plots with plotters.
//!
//! - `cactus-<dataset>.svg`: puzzles concluded (solved or proved unsatisfiable) within a time per puzzle, one line
//!   per solver, log time axis. The further right and higher a line, the better.
//! - `histogram-<solver>.svg`: how that solver's solve times spread over all datasets, in log2 bins.
//!
//! Both are built from the runner's log-linear histograms, so the steps have 1.6% time resolution.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use super::{Output, OutputError};
use crate::histogram::Histogram;
use crate::summary::RunSummary;

/// Writes the SVG files into a directory (created if missing).
pub struct Plot {
    /// Destination directory.
    pub dir: PathBuf,
}

/// Keeps file names portable: anything but ASCII letters, digits, `-`, `_` and `.` becomes `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn err(path: &Path, e: impl std::fmt::Display) -> OutputError {
    OutputError {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// A drawing error of plotters, as text.
fn drawing(e: impl std::fmt::Display) -> String {
    format!("cannot draw the plot: {e}")
}

/// Time axis bounds (microseconds) covering every series, padded to whole decades.
fn time_range<'a>(hists: impl Iterator<Item = &'a Histogram>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::MAX, 0.0f64);
    for h in hists {
        for (t, _) in h.steps_micros() {
            lo = lo.min(t);
            hi = hi.max(t);
        }
    }
    if hi <= 0.0 {
        return (0.1, 10.0);
    }
    let lo = 10f64.powf(lo.max(1e-3).log10().floor());
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 10.0);
    (lo, hi)
}

/// Tick labels on the log time axis: `0.1`, `10`, `1000`, `1e6`.
fn axis_micros(x: f64) -> String {
    if x >= 1e5 {
        format!("{x:.0e}")
    } else if x >= 1.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// The cactus plot of one dataset as an SVG document: puzzles concluded within a time per puzzle, per solver.
pub fn cactus_svg(dataset: &str, series: &[(&str, &Histogram)]) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (lo, hi) = time_range(series.iter().map(|(_, h)| *h));
        let ymax = series
            .iter()
            .map(|(_, h)| h.count())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{dataset}: puzzles concluded within a time per puzzle"),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d((lo..hi).log_scale(), 0u64..ymax + ymax / 20 + 1)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("time per puzzle (µs, log scale)")
            .x_label_formatter(&|x| axis_micros(*x))
            .y_desc("puzzles concluded")
            .draw()
            .map_err(drawing)?;
        for (i, (name, h)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let mut points = vec![(lo, 0u64)];
            let mut total = 0;
            for (t, c) in h.steps_micros() {
                points.push((t, total));
                total += c;
                points.push((t, total));
            }
            points.push((hi, total));
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))
                .map_err(drawing)?
                .label(*name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 4), (x + 16, y + 4)], color.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .border_style(BLACK)
            .background_style(WHITE.mix(0.85))
            .draw()
            .map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// One solver's solve-time histogram (log2 bins of microseconds) as an SVG document.
pub fn histogram_svg(solver: &str, h: &Histogram) -> Result<String, String> {
    // Regroup the fine buckets into log2 bins of microseconds.
    let mut bins: Vec<(f64, f64, u64)> = Vec::new();
    for (t, c) in h.steps_micros() {
        let lo = 2f64.powf(t.max(1e-3).log2().floor());
        match bins.last_mut() {
            Some(last) if last.0 == lo => last.2 += c,
            _ => bins.push((lo, lo * 2.0, c)),
        }
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let (lo, hi) = time_range(std::iter::once(h));
        let ymax = bins.iter().map(|b| b.2).max().unwrap_or(0).max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("{solver}: solve time per puzzle ({} puzzles)", h.count()),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d((lo..hi).log_scale(), 0u64..ymax + ymax / 20 + 1)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("time per puzzle (µs, log scale, log2 bins)")
            .x_label_formatter(&|x| axis_micros(*x))
            .y_desc("puzzles")
            .draw()
            .map_err(drawing)?;
        let color = Palette99::pick(0).to_rgba();
        chart
            .draw_series(
                bins.iter()
                    .map(|&(a, b, c)| Rectangle::new([(a, 0), (b, c)], color.filled())),
            )
            .map_err(drawing)?
            .label(solver)
            .legend(move |(x, y)| Rectangle::new([(x, y - 4), (x + 16, y + 4)], color.filled()));
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .background_style(WHITE.mix(0.85))
            .draw()
            .map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// The solve times of the `k`-th solver over every dataset.
pub fn solver_times(run: &RunSummary, k: usize) -> Histogram {
    let mut all = Histogram::default();
    for d in &run.datasets {
        if let Some(s) = d.solvers.get(k) {
            all.merge(&s.times);
        }
    }
    all
}

/// The files a run's plots go to, in the order they are written (tests use it to find them).
pub fn plot_files(run: &RunSummary, dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = run
        .datasets
        .iter()
        .map(|d| dir.join(format!("cactus-{}.svg", file_safe(&d.name))))
        .collect();
    files.extend(
        run.config
            .solvers
            .iter()
            .map(|s| dir.join(format!("histogram-{}.svg", file_safe(s)))),
    );
    files
}

impl Output for Plot {
    fn emit(&self, run: &RunSummary) -> Result<(), OutputError> {
        std::fs::create_dir_all(&self.dir).map_err(|e| OutputError::io(&self.dir, e))?;
        let files = plot_files(run, &self.dir);
        for (d, path) in run.datasets.iter().zip(&files) {
            let series: Vec<(&str, &Histogram)> = d
                .solvers
                .iter()
                .map(|s| (s.solver.as_str(), &s.concluded_times))
                .collect();
            let svg = cactus_svg(&d.name, &series).map_err(|e| err(path, e))?;
            std::fs::write(path, svg).map_err(|e| OutputError::io(path, e))?;
        }
        for (k, (solver, path)) in run
            .config
            .solvers
            .iter()
            .zip(&files[run.datasets.len()..])
            .enumerate()
        {
            let svg = histogram_svg(solver, &solver_times(run, k)).map_err(|e| err(path, e))?;
            std::fs::write(path, svg).map_err(|e| OutputError::io(path, e))?;
        }
        Ok(())
    }
}
