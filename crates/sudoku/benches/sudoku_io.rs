//! Cost of reading and printing, outside any solver: the streaming reader on one-line, `puzzle,solution` CSV and
//! pasted-grid input, and the line / jsonl output formats. Input is built in memory from the shipped test set
//! (`datasets/sudoku-tests/9x9.txt` and `classic.txt` repeated to 10,000 puzzles), so the bench needs no download.
//!
//! `cargo bench -p sudoku --bench sudoku_io`; throughput is reported per puzzle (criterion `Elements`).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sudoku::format::{Entry, EntryStatus, OutputFormat};
use sudoku::parse::Reader;
use sudoku::Board;

const PUZZLES: usize = 10_000;

/// `PUZZLES` (puzzle, solution) pairs of the shipped 9x9 test lines, repeated.
fn pairs() -> Vec<(Board, Board)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../datasets/sudoku-tests/");
    let mut base = Vec::new();
    for name in ["9x9.txt", "classic.txt"] {
        let text = std::fs::read_to_string(format!("{dir}{name}")).unwrap_or_default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut fields = line.split(':');
            let (Some(p), Some("1"), Some(s)) = (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            if let (Ok(p), Ok(s)) = (p.parse::<Board>(), s.parse::<Board>()) {
                base.push((p, s));
            }
        }
    }
    assert!(!base.is_empty(), "test set not found under {dir}");
    base.iter().cycle().take(PUZZLES).cloned().collect()
}

fn bench(c: &mut Criterion) {
    let pairs = pairs();
    let lines: String = pairs.iter().map(|(p, _)| format!("{p}\n")).collect();
    let csv: String = std::iter::once("quizzes,solutions\n".to_string())
        .chain(
            pairs
                .iter()
                .map(|(p, s)| format!("{},{s}\n", p.to_line().replace('.', "0"))),
        )
        .collect();
    let grids: String = pairs
        .iter()
        .map(|(p, _)| sudoku::format::to_grid_string(p) + "\n")
        .collect();

    let mut g = c.benchmark_group("read");
    g.throughput(Throughput::Elements(PUZZLES as u64));
    for (name, text) in [("line", &lines), ("csv", &csv), ("grid", &grids)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let n = Reader::new(black_box(text.as_bytes()))
                    .filter(|r| r.item.is_ok())
                    .count();
                assert_eq!(n, PUZZLES);
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("write");
    g.throughput(Throughput::Elements(PUZZLES as u64));
    let mut out = Vec::with_capacity(PUZZLES * 200);
    for (name, format) in [("line", OutputFormat::Line), ("jsonl", OutputFormat::Jsonl)] {
        let mut writer = format.writer();
        g.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                for (i, (_, s)) in pairs.iter().enumerate() {
                    let entry = Entry {
                        file: None,
                        line: i + 1,
                        status: EntryStatus::Solved,
                        solution: Some(s),
                        count: None,
                        error: None,
                        expected_mismatch: false,
                        nodes: 42,
                        micros: 7,
                    };
                    writer.write_entry(&mut out, &entry).unwrap_or_default();
                }
                black_box(out.len())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
