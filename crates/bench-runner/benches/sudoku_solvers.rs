//! criterion: every solver of the Sudoku registry on fixed slices of the shipped datasets.
//!
//! One generic harness: a slice is the first `COUNT` readable puzzles of a shipped file (easy, 17-clue-like
//! minimal, hard); every registry solver that supports the slice's size gets one benchmark per slice, named
//! `<slice>/<solver>`, so a solver added to the registry is benchmarked without touching this file. Each iteration
//! solves the whole slice (first solution); the baselines without propagation run under a node limit, so a hard slice
//! measures how far it gets rather than hanging. `cargo bench -- --test` runs each benchmark once (CI).

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::time::Duration;

use bench_runner::family::Family;
use bench_runner::run::BASELINES;
use bench_runner::sudoku_family::SudokuFamily;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use csp_core::Limits;

/// Puzzles per slice: enough to average out one puzzle's luck, few enough for `naive` to finish quickly.
const COUNT: usize = 20;

/// Node limit for the baselines without propagation (the runner's default, `--baseline-node-limit`, is 1M), so a
/// hard slice costs the slowest of them (`csp-check`, about 0.5M nodes/s) under a second per iteration.
const NAIVE_NODES: u64 = 20_000;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The first `.txt` file in `dir` whose name contains `hint` (any when `hint` is empty), in name order.
fn find(dir: &str, hint: &str) -> Option<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(workspace().join(dir))
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(hint))
        })
        .collect();
    files.sort();
    files.into_iter().next()
}

/// (slice name, file): shipped sets when present, else the runner's own test data so the harness always runs.
fn slices() -> Vec<(&'static str, PathBuf)> {
    let fallback = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/small.txt");
    [
        ("easy", find("datasets/generated", "easy")),
        ("minimal", find("datasets/generated", "minimal")),
        (
            "hard",
            find("datasets/generated", "hard").or_else(|| find("datasets/famous", "")),
        ),
    ]
    .into_iter()
    .map(|(name, file)| (name, file.unwrap_or_else(|| fallback.clone())))
    .collect()
}

fn load<F: Family>(family: &F, path: &Path) -> Vec<F::Puzzle> {
    let Ok(file) = File::open(path) else {
        return Vec::new();
    };
    family
        .records(Box::new(BufReader::new(file)))
        .filter_map(|r| r.item.ok())
        .map(|e| e.puzzle)
        .take(COUNT)
        .collect()
}

fn bench_family<F: Family>(c: &mut Criterion, family: &F) {
    for (slice, path) in slices() {
        let puzzles = load(family, &path);
        if puzzles.is_empty() {
            eprintln!(
                "skipping slice {slice}: no readable puzzle in {}",
                path.display()
            );
            continue;
        }
        let mut group = c.benchmark_group(format!("{}/{slice}", family.kind()));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        for solver in family.solvers() {
            let Some(mut instance) = family.make(solver.name) else {
                continue;
            };
            if !puzzles.iter().all(|p| family.supports(&instance, p)) {
                continue;
            }
            let limits = if BASELINES.contains(&solver.name) {
                Limits::none().with_nodes(NAIVE_NODES)
            } else {
                Limits::none()
            };
            let request = family.request(1, limits);
            group.bench_function(BenchmarkId::from_parameter(solver.name), |b| {
                b.iter(|| {
                    puzzles
                        .iter()
                        .map(|p| family.solve(&mut instance, p, &request).count)
                        .sum::<u64>()
                })
            });
        }
        group.finish();
    }
}

fn sudoku(c: &mut Criterion) {
    bench_family(c, &SudokuFamily);
}

criterion_group!(benches, sudoku);
criterion_main!(benches);
