//! Kakuro (cross sums): fill the white cells with digits 1-9 so that each run of white cells (a maximal row or
//! column segment) sums to its clue, with no digit repeated in a run.
//!
//! # Text format
//! ```text
//! # Kakuro: rows of whitespace-separated cells.
//! #   .      a white cell to fill (also `_`)
//! #   1-9    a white cell with its digit given
//! #   X      a black cell without clues
//! #   D\R    a black clue cell: D = sum of the white run below it, R = sum of the white run right of it;
//! #          either may be left out (`\16`, `23\`, and `\` alone is a black cell)
//! X    23\  30\  X    X    27\  12\  16\
//! \16  .    .    X    17\24 .   .    .
//! ```
//! All rows have the same number of cells; `#` starts a comment. Every run of two or more white cells needs a
//! clue in the black cell before it (above it for a column run); a run of one white cell may go without. A clue
//! needs a run (a white cell right after it) and a sum that distinct digits can make in that many cells (2 cells:
//! 3..=17); a run has at most 9 cells. Errors name the line, and the column of the token at fault.
//!
//! Model: one variable 1..=9 per white cell (row-major order of the white cells); per run `all_different` and
//! `linear(sum = clue)`; givens are root assumptions. The answer prints in the input format with every white cell
//! filled in.

use csp_core::{
    Model, Outcome, Propagation, Relation, SearchConfig, Solution, Solver, ValueOrder, VarOrder,
};

use crate::error::{verify_fail, ParseError, PuzzleError, VerifyError};
use crate::family::{Family, Generator, Opt, Options};
use crate::puzzle::{Encoding, Puzzle};
use crate::rng::Rng;
use crate::text::{content_lines, tokens};

/// Largest grid side accepted.
pub const MAX_SIDE: usize = 100;

/// One cell of a Kakuro grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A black cell, with the clues of the runs below it and right of it.
    Black {
        /// Sum of the white run below.
        down: Option<u32>,
        /// Sum of the white run to the right.
        across: Option<u32>,
    },
    /// A white cell, with its digit when given.
    White(Option<u8>),
}

/// A run of white cells with its sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The clue.
    pub sum: u32,
    /// Grid positions (`r * width + c`) of its cells, in order.
    pub cells: Vec<usize>,
}

/// A Kakuro instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kakuro {
    /// Grid width.
    pub width: usize,
    /// Grid height.
    pub height: usize,
    /// The cells, row-major.
    pub cells: Vec<Cell>,
    /// Every clued run (across runs first, then down runs, each in row-major order of their clue cells).
    pub runs: Vec<Run>,
}

/// Smallest and largest sum of `k` distinct digits 1..9 (`k <= 9`).
fn sum_range(k: usize) -> (u32, u32) {
    let k = k as u32;
    (k * (k + 1) / 2, k * (19 - k) / 2)
}

/// The white cells of the run starting after `pos` in direction `(dr, dc)`.
fn run_after(width: usize, height: usize, cells: &[Cell], pos: usize, down: bool) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut r, mut c) = (pos / width, pos % width);
    loop {
        if down {
            r += 1;
        } else {
            c += 1;
        }
        if r >= height || c >= width || !matches!(cells[r * width + c], Cell::White(_)) {
            return out;
        }
        out.push(r * width + c);
    }
}

fn cell_token(cell: &Cell) -> String {
    match *cell {
        Cell::White(None) => ".".into(),
        Cell::White(Some(d)) => d.to_string(),
        Cell::Black {
            down: None,
            across: None,
        } => "X".into(),
        Cell::Black { down, across } => format!(
            "{}\\{}",
            down.map_or(String::new(), |d| d.to_string()),
            across.map_or(String::new(), |a| a.to_string())
        ),
    }
}

impl Kakuro {
    /// Grid positions of the white cells, row-major: white cell `i` (variable `i`) is position `whites()[i]`.
    pub fn whites(&self) -> Vec<usize> {
        (0..self.cells.len())
            .filter(|&p| matches!(self.cells[p], Cell::White(_)))
            .collect()
    }

    /// The instance in the text format.
    pub fn to_text(&self) -> String {
        grid_text(self.width, &self.cells)
    }

    /// Reads a grid of cells (already tokenised) into an instance, finding and checking its runs. `at(pos)` is
    /// the (line, column) of a cell's token, for errors.
    fn from_cells(
        width: usize,
        height: usize,
        cells: Vec<Cell>,
        at: impl Fn(usize) -> (usize, usize),
    ) -> Result<Kakuro, ParseError> {
        let mut runs = Vec::new();
        for down in [false, true] {
            for pos in 0..cells.len() {
                let clue = match cells[pos] {
                    Cell::Black { down: d, across: a } => {
                        if down {
                            d
                        } else {
                            a
                        }
                    }
                    Cell::White(_) => {
                        // A white cell starting a run (edge or black before it) must have a clue there if the run
                        // is two cells or longer; a clued start is handled from its black cell.
                        let (r, c) = (pos / width, pos % width);
                        let starts = if down { r == 0 } else { c == 0 };
                        if starts {
                            let len = 1 + run_after(width, height, &cells, pos, down).len();
                            if len >= 2 {
                                let (line, col) = at(pos);
                                return Err(ParseError::at(
                                    line,
                                    col,
                                    format!(
                                        "the {} run starting here has {len} cells but no clue before it",
                                        if down { "down" } else { "across" }
                                    ),
                                ));
                            }
                        }
                        continue;
                    }
                };
                let run = run_after(width, height, &cells, pos, down);
                let (line, col) = at(pos);
                let what = if down { "down" } else { "across" };
                match clue {
                    None if run.len() >= 2 => {
                        return Err(ParseError::at(
                            line,
                            col,
                            format!("the {what} run after this cell has {} cells but no {what} clue", run.len()),
                        ))
                    }
                    None => {}
                    Some(_) if run.is_empty() => {
                        return Err(ParseError::at(
                            line,
                            col,
                            format!("{what} clue with no white cell {}", if down { "below it" } else { "right of it" }),
                        ))
                    }
                    Some(_) if run.len() > 9 => {
                        return Err(ParseError::at(
                            line,
                            col,
                            format!("the {what} run of this clue has {} cells, at most 9", run.len()),
                        ))
                    }
                    Some(sum) => {
                        let (lo, hi) = sum_range(run.len());
                        if !(lo..=hi).contains(&sum) {
                            return Err(ParseError::at(
                                line,
                                col,
                                format!(
                                    "{what} sum {sum} cannot be made by {} distinct digits ({lo}..={hi})",
                                    run.len()
                                ),
                            ));
                        }
                        runs.push(Run { sum, cells: run });
                    }
                }
            }
        }
        Ok(Kakuro {
            width,
            height,
            cells,
            runs,
        })
    }
}

fn grid_text(width: usize, cells: &[Cell]) -> String {
    let toks: Vec<String> = cells.iter().map(cell_token).collect();
    let w = toks.iter().map(String::len).max().unwrap_or(1);
    let mut s = String::new();
    for row in toks.chunks(width.max(1)) {
        let padded: Vec<String> = row.iter().map(|t| format!("{t:<w$}")).collect();
        s.push_str(padded.join(" ").trim_end());
        s.push('\n');
    }
    s
}

/// Checks a filled grid directly: one digit per position (0 on black cells), digits 1..9 on white cells, givens
/// kept, and every clued run without a repeat and summing to its clue.
pub fn verify_digits(instance: &Kakuro, digits: &[u8]) -> Result<(), VerifyError> {
    if digits.len() != instance.cells.len() {
        verify_fail!(
            "expected {} positions, got {}",
            instance.cells.len(),
            digits.len()
        );
    }
    for (p, (cell, &d)) in instance.cells.iter().zip(digits).enumerate() {
        let (r, c) = (p / instance.width + 1, p % instance.width + 1);
        match *cell {
            Cell::Black { .. } if d != 0 => verify_fail!("r{r}c{c} is black but holds {d}"),
            Cell::White(_) if !(1..=9).contains(&d) => verify_fail!("r{r}c{c} holds {d}, not a digit 1..9"),
            Cell::White(Some(g)) if g != d => verify_fail!("r{r}c{c} was given as {g} but holds {d}"),
            _ => {}
        }
    }
    for run in &instance.runs {
        let first = run.cells[0];
        let (r, c) = (first / instance.width + 1, first % instance.width + 1);
        let mut seen = 0u16;
        let mut sum = 0u32;
        for &p in &run.cells {
            let bit = 1u16 << digits[p];
            if seen & bit != 0 {
                verify_fail!("the run from r{r}c{c} repeats {}", digits[p]);
            }
            seen |= bit;
            sum += u32::from(digits[p]);
        }
        if sum != run.sum {
            verify_fail!("the run from r{r}c{c} sums to {sum}, its clue is {}", run.sum);
        }
    }
    Ok(())
}

/// This family's line in [`crate::FAMILIES`].
pub const FAMILY: Family = Family {
    generators: &[Generator {
        name: "kakuro",
        about: "A uniquely solvable Kakuro: a random pattern of runs (2..9 cells), a random fill, its sums, then \
                digits given until the solution is unique.",
        options: &[
            Opt::value("width", "WIDTH", "Width, clue column included.").default("8"),
            Opt::value("height", "HEIGHT", "Height, clue row included.").default("8"),
            Opt::value("black", "SHARE", "Share of inner cells drawn black before runs are fixed.")
                .default("0.25"),
            Opt::value("seed", "SEED", "Seed.").default("1"),
            Opt::flag(
                "minimal",
                "Then drop the given digits in seeded random order while the solution stays unique.",
            ),
        ],
        run: generate_text,
    }],
    datasets: &["kakuro"],
    ..Family::of::<Kakuro>("kakuro", "Kakuro (cross sums).")
};

impl Puzzle for Kakuro {
    /// The digit at each grid position, row-major (0 on black cells).
    type Answer = Vec<u8>;

    fn parse(text: &str) -> Result<Self, ParseError> {
        let mut cells = Vec::new();
        let mut places = Vec::new();
        let mut width = None;
        let mut height = 0;
        for (line_no, line) in content_lines(text) {
            let toks: Vec<(usize, &str)> = tokens(line).collect();
            match width {
                None if toks.len() > MAX_SIDE => {
                    return Err(ParseError::at_line(
                        line_no,
                        format!("{} cells on a row, at most {MAX_SIDE}", toks.len()),
                    ))
                }
                None => width = Some(toks.len()),
                Some(w) if w != toks.len() => {
                    return Err(ParseError::at_line(
                        line_no,
                        format!("{} cells on this row, the first row has {w}", toks.len()),
                    ))
                }
                Some(_) => {}
            }
            if height == MAX_SIDE {
                return Err(ParseError::at_line(line_no, format!("more than {MAX_SIDE} rows")));
            }
            for &(col, tok) in &toks {
                let bad = |what: &str| ParseError::at(line_no, col, format!("{what}, found `{tok}`"));
                let cell = match tok {
                    "." | "_" => Cell::White(None),
                    "X" | "x" => Cell::Black {
                        down: None,
                        across: None,
                    },
                    _ if tok.len() == 1 && tok.as_bytes()[0].is_ascii_digit() && tok != "0" => {
                        Cell::White(Some(tok.as_bytes()[0] - b'0'))
                    }
                    _ => {
                        let (d, a) = tok.split_once('\\').ok_or_else(|| {
                            bad("expected `.`, a digit 1-9, `X` or a clue `DOWN\\ACROSS`")
                        })?;
                        let num = |s: &str| -> Result<Option<u32>, ParseError> {
                            if s.is_empty() {
                                return Ok(None);
                            }
                            s.parse::<u32>()
                                .ok()
                                .filter(|&v| v > 0 && v <= 45)
                                .map(Some)
                                .ok_or_else(|| bad("a clue's sums are numbers 1..=45"))
                        };
                        Cell::Black {
                            down: num(d)?,
                            across: num(a)?,
                        }
                    }
                };
                cells.push(cell);
                places.push((line_no, col));
            }
            height += 1;
        }
        let width = width.unwrap_or(0);
        if cells.is_empty() {
            return Err(ParseError::whole_file("no grid (expected rows of cells)"));
        }
        let k = Kakuro::from_cells(width, height, cells, |p| places[p])?;
        if k.whites().is_empty() {
            return Err(ParseError::whole_file("no white cells to fill"));
        }
        Ok(k)
    }

    fn encode(&self) -> Result<Encoding, PuzzleError> {
        let whites = self.whites();
        let mut var_of = vec![usize::MAX; self.cells.len()];
        for (i, &p) in whites.iter().enumerate() {
            var_of[p] = i;
        }
        let mut m = Model::new();
        let vars = (0..whites.len())
            .map(|_| m.new_var(1, 9))
            .collect::<Result<Vec<_>, _>>()?;
        for run in &self.runs {
            let xs: Vec<_> = run.cells.iter().map(|&p| vars[var_of[p]]).collect();
            if xs.len() > 1 {
                m.all_different(&xs)?;
            }
            let terms: Vec<(i64, _)> = xs.iter().map(|&x| (1, x)).collect();
            m.linear(&terms, Relation::Eq, i64::from(run.sum))?;
        }
        let assumptions = whites
            .iter()
            .enumerate()
            .filter_map(|(i, &p)| match self.cells[p] {
                Cell::White(Some(d)) => Some((vars[i], i64::from(d))),
                _ => None,
            })
            .collect();
        Ok(Encoding {
            problem: m.build()?,
            assumptions,
            vars,
        })
    }

    fn decode(&self, solution: &Solution) -> Vec<u8> {
        let mut digits = vec![0u8; self.cells.len()];
        for (&p, &v) in self.whites().iter().zip(solution.values()) {
            digits[p] = u8::try_from(v).unwrap_or(0);
        }
        digits
    }

    fn verify(&self, answer: &Vec<u8>) -> Result<(), VerifyError> {
        verify_digits(self, answer)
    }

    /// dom/wdeg with singles; see the crate README for the measured comparison.
    fn default_config(&self) -> SearchConfig {
        SearchConfig::default()
            .var_order(VarOrder::DomWdeg)
            .value_order(ValueOrder::Ascending)
            .propagation(Propagation::Singles)
    }

    fn answer_text(&self, answer: &Vec<u8>) -> String {
        let cells: Vec<Cell> = self
            .cells
            .iter()
            .zip(answer)
            .map(|(c, &d)| match c {
                Cell::White(_) => Cell::White(Some(d)),
                black => *black,
            })
            .collect();
        grid_text(self.width, &cells)
    }

    /// The rows as arrays of digits, 0 on black cells.
    fn answer_json(&self, answer: &Vec<u8>) -> serde_json::Value {
        let rows: Vec<Vec<u8>> = answer.chunks(self.width.max(1)).map(<[u8]>::to_vec).collect();
        serde_json::Value::from(rows)
    }
}

/// A random pattern: border row and column black, inner cells black with probability `black`, then runs of one
/// cell blackened and runs longer than 9 cut, until every run has 2..=9 cells.
fn random_pattern(width: usize, height: usize, black: f64, rng: &mut Rng) -> Vec<bool> {
    let threshold = (black.clamp(0.0, 1.0) * 1024.0).round() as u64;
    let mut white: Vec<bool> = (0..width * height)
        .map(|p| p / width > 0 && p % width > 0 && rng.below(1024) >= threshold)
        .collect();
    let run_len = |white: &[bool], p: usize, down: bool| {
        let step = |q: usize, fwd: bool| -> Option<usize> {
            let (r, c) = (q / width, q % width);
            match (down, fwd) {
                (true, true) if r + 1 < height => Some(q + width),
                (true, false) if r > 0 => Some(q - width),
                (false, true) if c + 1 < width => Some(q + 1),
                (false, false) if c > 0 => Some(q - 1),
                _ => None,
            }
        };
        let mut len = 1;
        for fwd in [true, false] {
            let mut q = p;
            while let Some(n) = step(q, fwd).filter(|&n| white[n]) {
                len += 1;
                q = n;
            }
        }
        len
    };
    loop {
        let mut changed = false;
        for p in 0..white.len() {
            if white[p] && (run_len(&white, p, false) == 1 || run_len(&white, p, true) == 1) {
                white[p] = false;
                changed = true;
            }
        }
        for p in 0..white.len() {
            if white[p] && (run_len(&white, p, false) > 9 || run_len(&white, p, true) > 9) {
                white[p] = false;
                changed = true;
            }
        }
        if !changed {
            return white;
        }
    }
}

/// A seeded Kakuro with a unique solution: a random pattern (every run 2..9 cells), a random fill with distinct
/// digits per run (the engine with random value order), the runs' sums, then while the engine finds a second
/// solution, the fill's digit of a cell where that solution differs is given. Returns the instance and its
/// solution (digits per position, 0 on black).
pub fn generate_unique(
    width: usize,
    height: usize,
    black: f64,
    seed: u64,
) -> Result<(Kakuro, Vec<u8>), PuzzleError> {
    let mut rng = Rng::new(seed);
    let white = random_pattern(width, height, black, &mut rng);
    let mut cells: Vec<Cell> = white
        .iter()
        .map(|&w| {
            if w {
                Cell::White(None)
            } else {
                Cell::Black {
                    down: None,
                    across: None,
                }
            }
        })
        .collect();
    // The fill: sums are not known yet, so the fill model has `all_different` per run alone.
    let whites: Vec<usize> = (0..cells.len()).filter(|&p| white[p]).collect();
    if whites.is_empty() {
        return Err(PuzzleError::Invalid("the pattern has no white cells; try a smaller black share".into()));
    }
    let mut var_of = vec![usize::MAX; cells.len()];
    for (i, &p) in whites.iter().enumerate() {
        var_of[p] = i;
    }
    let mut m = Model::new();
    let vars = (0..whites.len())
        .map(|_| m.new_var(1, 9))
        .collect::<Result<Vec<_>, _>>()?;
    let mut run_cells = Vec::new();
    for down in [false, true] {
        for (p, _) in white.iter().enumerate().filter(|(_, &w)| !w) {
            let run = run_after(width, height, &cells, p, down);
            if !run.is_empty() {
                let xs: Vec<_> = run.iter().map(|&q| vars[var_of[q]]).collect();
                m.all_different(&xs)?;
                run_cells.push((p, down, run));
            }
        }
    }
    let fill_config = SearchConfig::default()
        .var_order(VarOrder::Mrv)
        .value_order(ValueOrder::Random)
        .propagation(Propagation::ForwardChecking)
        .seed(rng.next_u64());
    let r = Solver::new(&m.build()?, fill_config).solve(&[]);
    let Some(fill) = r.solution else {
        return Err(PuzzleError::Invalid("no fill of the pattern".into()));
    };
    let mut digits = vec![0u8; cells.len()];
    for (i, &p) in whites.iter().enumerate() {
        digits[p] = u8::try_from(fill.value(vars[i])).unwrap_or(0);
    }
    for (p, down, run) in &run_cells {
        let sum: u32 = run.iter().map(|&q| u32::from(digits[q])).sum();
        if let Cell::Black { down: d, across: a } = &mut cells[*p] {
            if *down {
                *d = Some(sum);
            } else {
                *a = Some(sum);
            }
        }
    }
    let mut inst = Kakuro::from_cells(width, height, cells, |_| (0, 0))
        .map_err(|e| PuzzleError::Invalid(format!("generated pattern: {e}")))?;
    let config = inst.default_config();
    loop {
        let enc = inst.encode()?;
        let (found, outcome, _) = Solver::new(&enc.problem, config.clone()).solutions(&enc.assumptions, 2);
        if matches!(outcome, Outcome::Limit(_)) {
            return Err(PuzzleError::Invalid("the uniqueness check hit a limit".into()));
        }
        let other = found.iter().map(|s| inst.decode(s)).find(|s| *s != digits);
        let Some(p) = other.and_then(|o| (0..o.len()).find(|&p| o[p] != digits[p])) else {
            return Ok((inst, digits));
        };
        inst.cells[p] = Cell::White(Some(digits[p]));
    }
}

/// Drops the given digits of a uniquely solvable instance one at a time in seeded random order, each drop kept
/// only while the engine still counts exactly one solution (a count that hits a limit keeps the digit).
pub fn minimize_givens(instance: &Kakuro, seed: u64) -> Result<Kakuro, PuzzleError> {
    let mut inst = instance.clone();
    let mut order: Vec<usize> = (0..inst.cells.len())
        .filter(|&p| matches!(inst.cells[p], Cell::White(Some(_))))
        .collect();
    Rng::new(seed).shuffle(&mut order);
    let config = inst.default_config();
    for p in order {
        let keep = inst.cells[p];
        inst.cells[p] = Cell::White(None);
        let enc = inst.encode()?;
        let c = Solver::new(&enc.problem, config.clone()).count(&enc.assumptions, 2);
        if !(c.outcome == Outcome::Solved && c.count == 1) {
            inst.cells[p] = keep;
        }
    }
    Ok(inst)
}

/// `puzzles generate kakuro`: the instance with `#` lines saying how it was made and its solution.
fn generate_text(options: &Options) -> Result<String, String> {
    let width: usize = options.require("width")?;
    let height: usize = options.require("height")?;
    let black: f64 = options.require("black")?;
    let seed: u64 = options.require("seed")?;
    if !(2..=30).contains(&width) || !(2..=30).contains(&height) {
        return Err("generated Kakuro width and height must be 2..=30".into());
    }
    let (mut inst, digits) =
        generate_unique(width, height, black, seed).map_err(|e| e.to_string())?;
    let minimal = options.flag("minimal");
    if minimal {
        inst = minimize_givens(&inst, seed).map_err(|e| e.to_string())?;
    }
    let given = inst
        .cells
        .iter()
        .filter(|c| matches!(c, Cell::White(Some(_))))
        .count();
    let sol: String = digits.iter().map(|d| (b'0' + d) as char).collect();
    Ok(format!(
        "# Kakuro {width}x{height}, unique solution, {} white cells, {given} given \
         (puzzles generate kakuro --width {width} --height {height} --black {black} --seed {seed}{})\n\
         # solution {sol}\n{}",
        inst.whites().len(),
        if minimal { " --minimal" } else { "" },
        inst.to_text()
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::puzzle::Mode;

    /// Across 3 = 1 + 2 and 8 = 3 + 5, down 4 = 1 + 3 and 7 = 2 + 5: the only fill (2 + 1 would need 2 + 2 down).
    const SMALL: &str = "X  4\\ 7\\\n\\3 .  .\n\\8 .  .\n";

    #[test]
    fn parse_finds_the_runs_and_reads_back_its_own_text() {
        let k = Kakuro::parse(SMALL).unwrap();
        assert_eq!((k.width, k.height, k.whites().len()), (3, 3, 4));
        assert_eq!(k.runs.len(), 4);
        assert_eq!(Kakuro::parse(&k.to_text()).unwrap(), k);
        let mut sol = vec![0u8; 9];
        (sol[4], sol[5], sol[7], sol[8]) = (1, 2, 3, 5);
        assert!(verify_digits(&k, &sol).is_ok());
        (sol[4], sol[5], sol[7], sol[8]) = (2, 1, 2, 6);
        assert!(verify_digits(&k, &sol).is_err());
        (sol[4], sol[5], sol[7], sol[8]) = (1, 2, 3, 14);
        assert!(verify_digits(&k, &sol).is_err());
        let r = k.solve(&k.default_config(), Mode::Count(2)).unwrap();
        assert_eq!(r.count, Some(1));
        assert_eq!(r.answer, Some(sol_of(&[(4, 1), (5, 2), (7, 3), (8, 5)])));
    }

    fn sol_of(cells: &[(usize, u8)]) -> Vec<u8> {
        let mut s = vec![0u8; 9];
        for &(p, d) in cells {
            s[p] = d;
        }
        s
    }

    #[test]
    fn parse_errors_name_the_clue_or_cell_at_fault() {
        let e = Kakuro::parse("X 4\\\n\\10 .\n").unwrap_err();
        assert!(e.message.contains("cannot be made"), "{e}");
        assert_eq!((e.line, e.column), (2, Some(1)));
        let e = Kakuro::parse("X X\n. .\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(1)));
        let e = Kakuro::parse("X 3\\\n\\45 .\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(1)));
        let e = Kakuro::parse("X ?\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, Some(3)));
        let e = Kakuro::parse("X X\nX\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(Kakuro::parse("# nothing\n").unwrap_err().line, 0);
        let e = Kakuro::parse("\\5 X\n").unwrap_err();
        assert!(e.message.contains("no white cell"), "{e}");
    }
}
