//! bench-runner: solves puzzle datasets with every solver of a registry and compares them against naive DFS.
//!
//! The binary is thin glue: arguments ([`cli`]) -> contenders (a [`family::Family`]'s registry) -> [`run`] (a
//! sequential path for latency, a rayon path for throughput, verification outside the timed region) ->
//! [`summary`] -> reports ([`report`]: summary pivots and markdown table, JSON, CSV, SVG plots, HTML page, one file
//! each behind one trait). Runs split over many processes (`--shard I/N`) come back together through [`merge`].
//!
//! Per-puzzle times go into log-linear [`histogram`]s, so memory stays bounded however large the dataset.
//!
//! ```
//! use bench_runner::histogram::Histogram;
//! use std::time::Duration;
//!
//! let mut h = Histogram::default();
//! for us in [10, 20, 30, 40, 1000] {
//!     h.record(Duration::from_micros(us));
//! }
//! assert_eq!(h.count(), 5);
//! assert_eq!(h.max_micros(), 1000.0);
//! assert!((h.quantile_micros(0.5) - 30.0).abs() < 0.5);
//! ```

pub mod cli;
pub mod family;
pub mod histogram;
pub mod inputs;
pub mod merge;
pub mod minizinc_family;
pub mod puzzles_family;
pub mod report;
pub mod run;
pub mod sudoku_family;
pub mod summary;
