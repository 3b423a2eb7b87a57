//! Fuzz target bodies, and the independent oracles the reliability tests share with them.
//!
//! Each `fuzz_*` function is the whole body of one libFuzzer target in the repository's `fuzz/` folder: it takes
//! arbitrary bytes and panics only when the property it states is broken. Keeping the bodies here, as plain
//! functions of the library, lets a stable `cargo test` replay the saved corpus and every regression input
//! (`tests/fuzz_replay_sudoku.rs`) on machines without nightly Rust or libFuzzer.
//!
//! The oracles share no code with any solver: [`all_4x4_grids`] enumerates every 4x4 grid by brute force over
//! row permutations, and [`reference_count`] is a separate most-constrained-cell DFS. [`CrossCheck`] runs every
//! registered solver and the `fast` module on one board and reports any disagreement with each other or with an
//! oracle, or any answer the checker in [`crate::verify`] rejects.
//!
//! ```
//! use sudoku::fuzz_targets::{all_4x4_grids, CrossCheck};
//! assert_eq!(all_4x4_grids().len(), 288);
//! let board: sudoku::Board = "1...............".parse().expect("a 4x4 line");
//! let count = CrossCheck::new(10_000).check(&board).expect("every solver agrees");
//! assert_eq!(count, Some(2), "counts are capped at 2");
//! ```

use std::fmt::Write as _;
use std::sync::OnceLock;

use csp_core::rng::Rng;
use csp_core::Limits;

use crate::board::{Board, MAX_BOX, MIN_BOX};
use crate::format::{Entry, EntryStatus, OutputFormat};
use crate::parse::{parse_puzzle, ParseErrorKind, Reader, ReaderOptions, Record};
use crate::registry::registry;
use crate::solver::{Report, Request, Solve, SolverInfo};
use crate::verify;
use csp_core::Outcome;

/// Nodes each solver may spend on one fuzzed board of `box_size` before it must answer `limit`: the cap of the
/// propagating solvers, then that of the propagation-free [`BASELINES`]; `None` above 16x16, where `solve_verify`
/// skips the board.
///
/// Sized for throughput, not for concluding: `solve_verify` must run at 1,000 inputs per second or more, and one
/// input runs every registered solver, `fast` and an oracle, each instrumented for coverage. A 4x4 board never
/// needs more than a few dozen nodes, so every solver concludes there; at 9x9 and 16x16 the propagating solvers
/// conclude on most boards cut from a solved grid, while the baselines, whose nodes cost the most, stop at `limit`
/// unless the board is nearly complete.
pub fn fuzz_node_caps(box_size: usize) -> Option<(u64, u64)> {
    match box_size {
        2 => Some((1_000, 1_000)),
        3 => Some((100, 30)),
        4 => Some((60, 20)),
        _ => None,
    }
}

/// The most blanks a raw `solve_verify` input may cut in its base grid of `box_size` (further blank requests are
/// ignored): the cost of an input grows with its blanks, so the cap keeps most inputs cheap.
pub fn max_raw_blanks(box_size: usize) -> usize {
    match box_size {
        2 => 16,
        3 => 64,
        _ => 48,
    }
}

/// Target `parse_sudoku`: the reader on arbitrary bytes, with the size inferred and with each fixed size.
///
/// Properties: no panic; records come in strictly increasing line order, every line number within the input;
/// errors display as `line L...` with L within the input, never an I/O error on in-memory input; every puzzle
/// read has no clashing givens, the asked size, and reads back to the same board from its line and grid forms.
pub fn fuzz_parse(data: &[u8]) {
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let fixed = data
        .first()
        .map(|&b| MIN_BOX + usize::from(b) % (MAX_BOX - MIN_BOX + 1));
    for box_size in [None, fixed] {
        let options = ReaderOptions { box_size };
        let mut last = 0;
        for record in Reader::with_options(data, options) {
            check_record(&record, box_size, lines);
            assert!(
                record.line > last,
                "records out of order: line {} after line {last}",
                record.line
            );
            last = record.line;
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(puzzle) = parse_puzzle(text) {
            assert_eq!(text.parse::<Board>().ok(), Some(puzzle.board));
        }
    }
}

fn check_record(record: &Record, box_size: Option<usize>, lines: usize) {
    assert!(
        (1..=lines).contains(&record.line),
        "record line {} outside 1..={lines}",
        record.line
    );
    match &record.item {
        Ok(puzzle) => {
            let board = &puzzle.board;
            if let Some(b) = box_size {
                assert_eq!(board.box_size(), b, "a fixed size was not kept");
            }
            assert_eq!(board.find_clash(), None, "a clashing board was accepted");
            if let Some(solution) = &puzzle.solution {
                assert_eq!(solution.box_size(), board.box_size());
            }
            assert_reads_back(board);
        }
        Err(e) => {
            assert!(!e.is_io(), "in-memory input cannot fail to read: {e}");
            assert!(
                e.line >= record.line && e.line <= lines,
                "error line {} outside {}..={lines}",
                e.line,
                record.line
            );
            let shown = e.to_string();
            assert!(
                shown.starts_with(&format!("line {}", e.line)),
                "message does not start with its line: {shown}"
            );
        }
    }
}

/// Asserts that a clash-free board reads back from its one-line and grid forms, size inferred and fixed.
fn assert_reads_back(board: &Board) {
    let fixed = ReaderOptions {
        box_size: Some(board.box_size()),
    };
    let grid = crate::format::to_grid_string(board);
    for text in [board.to_line(), grid] {
        for options in [ReaderOptions::default(), fixed] {
            let records: Vec<Record> = Reader::with_options(text.as_bytes(), options).collect();
            assert_eq!(records.len(), 1, "{text:?} read as {records:?}");
            match &records[0].item {
                Ok(p) => assert_eq!(&p.board, board, "{text:?} read back differently"),
                Err(e) => panic!("{text:?} does not read back: {e}"),
            }
        }
    }
}

/// Target `format_round_trip`: any board (clashes allowed) of any size, printed in the line and grid formats,
/// reads back as the same board, or as the clash [`Board::find_clash`] names; the JSON-lines entry of a solved
/// board carries its line form.
///
/// Bytes: the first picks the box size (2..=6), each later byte one cell's value modulo `N + 1`.
pub fn fuzz_format(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let box_size = MIN_BOX + usize::from(first) % (MAX_BOX - MIN_BOX + 1);
    let n = box_size * box_size;
    let mut cells = vec![0u8; n * n];
    for (cell, &byte) in cells.iter_mut().zip(rest) {
        *cell = (usize::from(byte) % (n + 1)) as u8;
    }
    let Ok(board) = Board::from_cells(box_size, cells) else {
        panic!("values modulo N + 1 always make a board");
    };
    match board.find_clash() {
        None => assert_reads_back(&board),
        Some(clash) => {
            for text in [board.to_line(), crate::format::to_grid_string(&board)] {
                let records: Vec<Record> = Reader::new(text.as_bytes()).collect();
                assert_eq!(records.len(), 1, "{text:?} read as {records:?}");
                match &records[0].item {
                    Err(e) => assert_eq!(e.kind, ParseErrorKind::Clash(clash.clone())),
                    Ok(p) => panic!("clashing board read as a puzzle: {:?}", p.board),
                }
            }
        }
    }
    let entry = Entry {
        file: None,
        line: 7,
        status: EntryStatus::Solved,
        solution: Some(&board),
        count: Some(1),
        error: None,
        expected_mismatch: false,
        nodes: 0,
        micros: 0,
    };
    let mut out = Vec::new();
    if OutputFormat::Jsonl
        .writer()
        .write_entry(&mut out, &entry)
        .is_err()
    {
        panic!("writing to a Vec cannot fail");
    }
    let value: serde_json::Value = match serde_json::from_slice(&out) {
        Ok(v) => v,
        Err(e) => panic!("invalid JSON line {:?}: {e}", String::from_utf8_lossy(&out)),
    };
    assert_eq!(value["line"], 7);
    assert_eq!(value["solution"].as_str(), Some(board.to_line().as_str()));
}

/// Target `solve_verify`: a fuzzed grid is rejected with an error or solved by every solver with a verified
/// answer; all solvers that conclude within their node budgets ([`fuzz_node_caps`]) agree on the count up to 2
/// (with the 4x4 enumeration or [`reference_count`] as a further voice); and a board built from a solved grid
/// without changing any of its digits is never called unsatisfiable, even when every other voice stopped at its
/// limit (a limit must never be reported as a proof).
///
/// Bytes: UTF-8 text that [`parse_puzzle`] accepts is that puzzle (boards above 16x16 are skipped); anything else
/// is a raw board (see [`raw_board`]).
pub fn fuzz_solve(data: &[u8]) {
    let parsed = std::str::from_utf8(data)
        .ok()
        .and_then(|text| parse_puzzle(text).ok());
    let (board, known) = match parsed {
        Some(puzzle) => (puzzle.board, None),
        None => match raw_board(data) {
            Some((board, base)) => {
                let keeps_base = board
                    .cells()
                    .iter()
                    .zip(base.cells())
                    .all(|(&given, &digit)| given == 0 || given == digit);
                (board, keeps_base.then_some(base))
            }
            None => return,
        },
    };
    let Some((node_cap, baseline_cap)) = fuzz_node_caps(board.box_size()) else {
        return;
    };
    let outcome = FUZZ_CHECK.with(|cell| {
        let mut slot = cell.borrow_mut();
        let check = slot.get_or_insert_with(|| CrossCheck::new(node_cap));
        check.node_cap = node_cap;
        check.baseline_cap = baseline_cap;
        check.check_with_solution(&board, known.as_ref())
    });
    if let Err(disagreement) = outcome {
        panic!("{board:?}: {disagreement}");
    }
}

thread_local! {
    /// The solvers of `solve_verify`, made once per thread and reused for every input as the CLI reuses one set per
    /// thread: building the thirteen of them cost more than solving a typical fuzzed board.
    static FUZZ_CHECK: std::cell::RefCell<Option<CrossCheck>> = const { std::cell::RefCell::new(None) };
}

/// Decodes a raw `solve_verify` input into a board and the solved grid it was cut from.
///
/// Bytes: the first picks the size (low three bits: 0-3 4x4, 4-6 9x9, 7 16x16) and the second seeds the base grid
/// ([`random_solved_grid`]); each later byte edits the cell at its position: 0 blanks it (at most
/// [`max_raw_blanks`] blanks in all), `1..=N` puts that digit there (a digit other than the base's makes a clash or,
/// often, an unsatisfiable board), any other byte keeps the base digit. Short inputs are thus nearly complete
/// grids, cheap for every solver, and the blank count is the fuzzer's to grow.
pub fn raw_board(data: &[u8]) -> Option<(Board, Board)> {
    let (&first, rest) = data.split_first()?;
    let box_size = match first % 8 {
        0..=3 => 2,
        4..=6 => 3,
        _ => 4,
    };
    let (&seed, edits) = rest.split_first().unwrap_or((&0, &[]));
    let base = random_solved_grid(box_size, u64::from(seed));
    let n = box_size * box_size;
    let mut cells = base.cells().to_vec();
    let mut blanks_left = max_raw_blanks(box_size);
    for (cell, &byte) in cells.iter_mut().zip(edits) {
        if byte == 0 {
            if blanks_left > 0 {
                *cell = 0;
                blanks_left -= 1;
            }
        } else if usize::from(byte) <= n {
            *cell = byte;
        }
    }
    Some((Board::from_cells(box_size, cells).ok()?, base))
}

/// The registry's propagation-free baselines, whose nodes cost the most (`csp-check` checks every constraint of
/// the placed cell at each node) and which conclude only on nearly complete boards.
pub const BASELINES: [&str; 3] = ["naive", "table", "csp-check"];

/// Runs every registered solver (reused across boards, as the CLI reuses one per thread), the `fast` module
/// and an oracle on boards, and reports the first disagreement.
pub struct CrossCheck {
    solvers: Vec<(&'static SolverInfo, Box<dyn Solve>)>,
    node_cap: u64,
    /// Node cap of the propagation-free baselines ([`BASELINES`]); `node_cap` unless set apart.
    baseline_cap: u64,
    /// How many (solver, board) runs stopped at the node cap, over all boards checked.
    pub limited: u64,
}

impl CrossCheck {
    /// A checker giving each solver at most `node_cap` nodes per board.
    pub fn new(node_cap: u64) -> CrossCheck {
        CrossCheck {
            solvers: registry()
                .iter()
                .map(|info| (info, (info.make)()))
                .collect(),
            node_cap,
            baseline_cap: node_cap,
            limited: 0,
        }
    }

    /// Sets the node caps: `node_cap` for every solver but the propagation-free [`BASELINES`], which get
    /// `baseline_cap` (their nodes are the dearest and they conclude only on nearly complete boards).
    pub fn with_caps(mut self, node_cap: u64, baseline_cap: u64) -> CrossCheck {
        self.node_cap = node_cap;
        self.baseline_cap = baseline_cap;
        self
    }

    /// Names of the contenders, oracle last.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self.solvers.iter().map(|(i, _)| i.name).collect();
        names.extend(["fast", "oracle"]);
        names
    }

    /// Checks `board`: `Ok(Some(count))` with the agreed count capped at 2, `Ok(None)` when nobody concluded
    /// within the node cap, `Err` with a description of the first wrong or disagreeing answer.
    pub fn check(&mut self, board: &Board) -> Result<Option<u64>, String> {
        self.check_with_solution(board, None)
    }

    /// [`CrossCheck::check`] for a board known to have the solution `known` (when given): any solver calling it
    /// unsatisfiable is wrong, whatever the others concluded, so a limit passed off as a proof is caught even
    /// when no other voice finished. `known` itself is not checked against the board.
    pub fn check_with_solution(
        &mut self,
        board: &Board,
        known: Option<&Board>,
    ) -> Result<Option<u64>, String> {
        let limits = Limits::none().with_nodes(self.node_cap);
        let req = Request::count_up_to(2).with_limits(limits.clone());
        let baseline_req =
            Request::count_up_to(2).with_limits(Limits::none().with_nodes(self.baseline_cap));
        let mut verdicts: Vec<(&'static str, u64, Option<Board>)> = Vec::new();
        for (info, solver) in &mut self.solvers {
            if !(info.supports)(board.box_size()) {
                continue;
            }
            let req = if BASELINES.contains(&info.name) {
                &baseline_req
            } else {
                &req
            };
            let report = solver.solve(board, req);
            match check_report(info.name, board, report)? {
                Some((count, solution)) => verdicts.push((info.name, count, solution)),
                None => self.limited += 1,
            }
        }
        let fast = crate::generate::solve_cells(board.box_size(), board.cells(), 2, &limits)
            .map_err(|e| format!("fast rejected a valid board: {e}"))?;
        let fast_report = Report {
            status: fast.outcome,
            solution: match fast.solution {
                Some(cells) => Some(
                    Board::from_cells(board.box_size(), cells)
                        .map_err(|e| format!("fast returned a malformed solution: {e}"))?,
                ),
                None => None,
            },
            count: fast.count,
            stats: fast.stats,
        };
        match check_report("fast", board, fast_report)? {
            Some((count, solution)) => verdicts.push(("fast", count, solution)),
            None => self.limited += 1,
        }
        let oracle = if board.box_size() == 2 {
            Some(count_4x4(board, 2))
        } else {
            reference_count(board, 2, self.node_cap.saturating_mul(4))
        };
        if let Some(count) = oracle {
            verdicts.push(("oracle", count, None));
        }

        if known.is_some() {
            if let Some((name, _, _)) = verdicts.iter().find(|(_, count, _)| *count == 0) {
                return Err(format!(
                    "{name} calls unsatisfiable a board cut from a solved grid"
                ));
            }
        }
        let Some(&(first_name, first_count, _)) = verdicts.first() else {
            return Ok(None);
        };
        let mut disagreement = String::new();
        for (name, count, _) in &verdicts {
            if *count != first_count {
                let _ = write!(
                    disagreement,
                    "{first_name} counts {first_count} but {name} counts {count}; "
                );
            }
        }
        if !disagreement.is_empty() {
            return Err(disagreement);
        }
        if first_count == 1 {
            let mut solutions = verdicts
                .iter()
                .filter_map(|(n, _, s)| Some((n, s.as_ref()?)));
            if let Some((a_name, a)) = solutions.next() {
                for (b_name, b) in solutions {
                    if a != b {
                        return Err(format!(
                            "unique solution differs: {a_name} {a:?}, {b_name} {b:?}"
                        ));
                    }
                }
            }
        }
        Ok(Some(first_count))
    }
}

/// Checks one report on its own: a claimed solution verifies, the count fits the status. `Ok(None)` for a
/// limit (nothing proved); otherwise the count and solution.
fn check_report(
    name: &str,
    board: &Board,
    report: Report,
) -> Result<Option<(u64, Option<Board>)>, String> {
    if let Some(solution) = &report.solution {
        verify::verify(board, solution)
            .map_err(|e| format!("{name} returned a wrong solution {solution:?}: {e}"))?;
    }
    match report.status {
        Outcome::Solved if report.solution.is_none() => {
            Err(format!("{name} says solved without a solution"))
        }
        Outcome::Solved if !(1..=2).contains(&report.count) => Err(format!(
            "{name} says solved with count {} (limit 2)",
            report.count
        )),
        Outcome::Solved => Ok(Some((report.count, report.solution))),
        Outcome::Unsatisfiable if report.count != 0 || report.solution.is_some() => Err(format!(
            "{name} says unsatisfiable after finding {} solutions",
            report.count
        )),
        Outcome::Unsatisfiable => Ok(Some((0, None))),
        Outcome::Limit(_) if report.count > 2 => Err(format!(
            "{name} stopped with count {} above the limit 2",
            report.count
        )),
        Outcome::Limit(_) => Ok(None),
    }
}

/// Every valid 4x4 grid (288 of them), row-major, found by brute force: all 24^4 ways to fill the four rows
/// with permutations of 1..=4, kept when every column and box holds four different digits.
pub fn all_4x4_grids() -> &'static [[u8; 16]] {
    static GRIDS: OnceLock<Vec<[u8; 16]>> = OnceLock::new();
    GRIDS.get_or_init(|| {
        let mut perms = Vec::with_capacity(24);
        for a in 1..=4u8 {
            for b in 1..=4u8 {
                for c in 1..=4u8 {
                    let Some(d) = 10u8.checked_sub(a + b + c) else {
                        continue;
                    };
                    let row = [a, b, c, d];
                    if (1..=4).all(|v| row.contains(&v)) {
                        perms.push(row);
                    }
                }
            }
        }
        let distinct = |cells: [u8; 4]| (1..=4).all(|v| cells.contains(&v));
        let mut grids = Vec::with_capacity(288);
        for r0 in &perms {
            for r1 in &perms {
                for r2 in &perms {
                    for r3 in &perms {
                        let rows = [r0, r1, r2, r3];
                        let columns_ok = (0..4).all(|c| distinct([r0[c], r1[c], r2[c], r3[c]]));
                        let boxes_ok = (0..4).all(|bx| {
                            let (top, left) = ((bx / 2) * 2, (bx % 2) * 2);
                            distinct([
                                rows[top][left],
                                rows[top][left + 1],
                                rows[top + 1][left],
                                rows[top + 1][left + 1],
                            ])
                        });
                        if columns_ok && boxes_ok {
                            let mut g = [0u8; 16];
                            for (r, row) in rows.iter().enumerate() {
                                g[r * 4..r * 4 + 4].copy_from_slice(&row[..]);
                            }
                            grids.push(g);
                        }
                    }
                }
            }
        }
        grids
    })
}

/// Solutions of a 4x4 `board` by matching it against [`all_4x4_grids`], capped at `limit`; 0 for another size.
pub fn count_4x4(board: &Board, limit: u64) -> u64 {
    if board.box_size() != 2 {
        return 0;
    }
    let matches = all_4x4_grids()
        .iter()
        .filter(|g| {
            board
                .cells()
                .iter()
                .zip(g.iter())
                .all(|(&given, &v)| given == 0 || given == v)
        })
        .count();
    (matches as u64).min(limit)
}

/// Solutions of `board` up to `limit`, by a DFS written apart from every solver: bitmask candidates, always the
/// empty cell with the fewest candidates (lowest index on ties), digits ascending. `None` when `node_cap`
/// assignments were not enough to conclude. Clashing givens count 0.
pub fn reference_count(board: &Board, limit: u64, node_cap: u64) -> Option<u64> {
    let n = board.side();
    let b = board.box_size();
    let mut r = Reference {
        n,
        grid: board.cells().to_vec(),
        used: vec![0u64; 3 * n],
        box_of: (0..n * n)
            .map(|cell| (cell / n / b) * b + (cell % n) / b)
            .collect(),
        count: 0,
        limit: limit.max(1),
        nodes: 0,
        node_cap,
    };
    for cell in 0..n * n {
        let v = r.grid[cell];
        if v == 0 {
            continue;
        }
        let bit = 1u64 << (v - 1);
        let slots = r.slots(cell);
        if slots.iter().any(|&s| r.used[s] & bit != 0) {
            return Some(0);
        }
        for s in slots {
            r.used[s] |= bit;
        }
    }
    match r.search() {
        Ok(()) => Some(r.count),
        Err(Stopped::Enough) => Some(r.count),
        Err(Stopped::Cap) => None,
    }
}

enum Stopped {
    Enough,
    Cap,
}

struct Reference {
    n: usize,
    grid: Vec<u8>,
    /// `used[r]`, `used[n + c]`, `used[2n + b]`: digits placed in row r, column c, box b (bit d-1 for digit d).
    used: Vec<u64>,
    box_of: Vec<usize>,
    count: u64,
    limit: u64,
    nodes: u64,
    node_cap: u64,
}

impl Reference {
    fn slots(&self, cell: usize) -> [usize; 3] {
        [
            cell / self.n,
            self.n + cell % self.n,
            2 * self.n + self.box_of[cell],
        ]
    }

    fn candidates(&self, cell: usize) -> u64 {
        let full = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        let [a, b, c] = self.slots(cell);
        full & !(self.used[a] | self.used[b] | self.used[c])
    }

    fn search(&mut self) -> Result<(), Stopped> {
        let mut best: Option<(usize, u64)> = None;
        for cell in 0..self.grid.len() {
            if self.grid[cell] != 0 {
                continue;
            }
            let cand = self.candidates(cell);
            if best.is_none_or(|(_, m)| cand.count_ones() < m.count_ones()) {
                best = Some((cell, cand));
                if cand.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, mut cand)) = best else {
            self.count += 1;
            return if self.count >= self.limit {
                Err(Stopped::Enough)
            } else {
                Ok(())
            };
        };
        let slots = self.slots(cell);
        while cand != 0 {
            let bit = cand & cand.wrapping_neg();
            cand &= cand - 1;
            self.nodes += 1;
            if self.nodes > self.node_cap {
                return Err(Stopped::Cap);
            }
            self.grid[cell] = bit.trailing_zeros() as u8 + 1;
            for s in slots {
                self.used[s] |= bit;
            }
            let result = self.search();
            for s in slots {
                self.used[s] &= !bit;
            }
            self.grid[cell] = 0;
            result?;
        }
        Ok(())
    }
}

/// A draw in `0..bound` by the remainder ([`Rng::below_mod`]): the mapping the test and fuzz boards were drawn
/// with, so the pinned boards stay the same.
fn below(rng: &mut Rng, bound: usize) -> usize {
    rng.below_mod(bound as u64) as usize
}

/// A random complete grid of `box_size`, from `seed`: the standard pattern grid
/// `(b * (r % b) + r / b + c) % N + 1` with its digits relabelled, rows shuffled within bands, bands shuffled,
/// columns within stacks, stacks, and a transpose half the time. Every result is a valid grid.
pub fn random_solved_grid(box_size: usize, seed: u64) -> Board {
    let b = box_size.clamp(MIN_BOX, MAX_BOX);
    let n = b * b;
    let mut rng = Rng::new(seed);
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle_by(&mut digits, below);
    let order = |rng: &mut Rng| {
        let mut bands: Vec<usize> = (0..b).collect();
        rng.shuffle_by(&mut bands, below);
        let mut lines = Vec::with_capacity(n);
        for band in bands {
            let mut inner: Vec<usize> = (0..b).collect();
            rng.shuffle_by(&mut inner, below);
            lines.extend(inner.into_iter().map(|i| band * b + i));
        }
        lines
    };
    let rows = order(&mut rng);
    let cols = order(&mut rng);
    let transpose = rng.next_u64() & 1 == 1;
    let mut cells = vec![0u8; n * n];
    for (r, &pr) in rows.iter().enumerate() {
        for (c, &pc) in cols.iter().enumerate() {
            let pattern = (b * (pr % b) + pr / b + pc) % n;
            let at = if transpose { c * n + r } else { r * n + c };
            cells[at] = digits[pattern];
        }
    }
    match Board::from_cells(b, cells) {
        Ok(board) => board,
        Err(e) => unreachable!("pattern grids have N*N cells in 1..=N: {e}"),
    }
}

/// `grid` with each cell emptied with probability `holes_per_mille / 1000`, from `seed`.
pub fn with_holes(grid: &Board, holes_per_mille: u32, seed: u64) -> Board {
    let mut rng = Rng::new(seed ^ 0xA5A5_5A5A_0F0F_F0F0);
    let cells = grid
        .cells()
        .iter()
        .map(|&v| {
            if below(&mut rng, 1000) < holes_per_mille as usize {
                0
            } else {
                v
            }
        })
        .collect();
    match Board::from_cells(grid.box_size(), cells) {
        Ok(board) => board,
        Err(e) => unreachable!("emptying cells keeps a board valid: {e}"),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_random_boards_are_pinned() {
        // Fuzz corpora and property tests name boards by seed: the generator's stream must not move.
        let grid = random_solved_grid(3, 2024);
        assert_eq!(
            grid.to_line(),
            "469285713317496285582371496258713964946852137731964852173649528825137649694528371"
        );
        assert_eq!(
            with_holes(&grid, 500, 7).to_line(),
            "..9....133.7...2855..3......587..964..685.137..1..4..2.7.649..8.2513.649.9452837."
        );
    }

    #[test]
    fn there_are_exactly_288_four_by_four_grids_and_all_verify() {
        let grids = all_4x4_grids();
        assert_eq!(grids.len(), 288);
        for g in grids {
            verify::verify_complete(&Board::from_cells(2, g.to_vec()).unwrap()).unwrap();
        }
    }

    #[test]
    fn random_solved_grids_verify_for_every_size() {
        for b in MIN_BOX..=MAX_BOX {
            for seed in 0..20 {
                let g = random_solved_grid(b, seed);
                verify::verify_complete(&g).unwrap();
            }
        }
    }

    #[test]
    fn reference_count_matches_the_enumeration_on_sparse_four_by_fours() {
        for seed in 0..300 {
            let board = with_holes(
                &random_solved_grid(2, seed),
                700 + (seed % 300) as u32,
                seed,
            );
            assert_eq!(
                reference_count(&board, 1000, u64::MAX),
                Some(count_4x4(&board, 1000)),
                "{board:?}"
            );
        }
    }

    #[test]
    fn reference_count_gives_up_at_its_node_cap() {
        assert_eq!(reference_count(&Board::empty(3).unwrap(), 1000, 50), None);
        assert_eq!(reference_count(&Board::empty(3).unwrap(), 2, 1000), Some(2));
    }

    #[test]
    fn raw_inputs_are_boards_cut_from_a_seeded_solved_grid_with_capped_blanks() {
        let (board, base) = raw_board(&[4, 7]).unwrap();
        assert_eq!(board.box_size(), 3);
        assert_eq!(board, base, "no edit bytes: the complete base grid");
        verify::verify_complete(&base).unwrap();
        let (board, base) = raw_board(&[4, 7, 0, 200, 0]).unwrap();
        assert_eq!(
            board.cells()[1],
            base.cells()[1],
            "a byte above N keeps the digit"
        );
        assert_eq!(board.cells().iter().filter(|&&c| c == 0).count(), 2);
        let all_blank = [&[4u8, 7][..], &[0; 81]].concat();
        let (board, _) = raw_board(&all_blank).unwrap();
        assert_eq!(
            board.cells().iter().filter(|&&c| c == 0).count(),
            max_raw_blanks(3)
        );
        assert_eq!(raw_board(&[7]).unwrap().0.box_size(), 4);
        assert_eq!(fuzz_node_caps(5), None, "25x25 boards are skipped");
    }

    #[test]
    fn fuzz_bodies_accept_empty_and_tiny_inputs() {
        for data in [&b""[..], b"\n", b"\xff", b"\x07", b"1234341221434321"] {
            fuzz_parse(data);
            fuzz_format(data);
            fuzz_solve(data);
        }
    }
}
