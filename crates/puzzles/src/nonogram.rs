//! Nonograms (paint by numbers): blacken cells of a grid so that each row and each column shows its clue, the
//! lengths of its runs of black cells in order, with at least one white cell between runs.
//!
//! # Text format
//! ```text
//! # Nonogram: `rows`, then one clue per line from the top row down; `columns`, then one clue per line from the
//! # left column rightwards. A clue is its block lengths separated by spaces; `0` is an empty line.
//! rows
//! 3
//! 2 1
//! 0
//! columns
//! 1 2
//! ...
//! ```
//! The grid's height is the number of row clues and its width the number of column clues (each 1 to
//! [`MAX_SIDE`]). `#` starts a comment. A clue must fit its line (blocks plus one gap between each), and the row
//! clues and column clues must blacken the same number of cells. Errors name the line, and the column of a bad
//! token.
//!
//! Model: one Boolean per cell (`r * width + c`, 1 = black) and per row and column one `regular` constraint
//! whose automaton accepts exactly the words `0* 1^b1 0+ 1^b2 0+ ... 1^bk 0*` of its clue ([`automaton`]).
//! `regular` propagates each line to domain consistency, which is the line-by-line reasoning human solvers use;
//! search does the rest. The answer prints as rows of `#` (black) and `.` (white).

use csp_core::{Model, Propagation, SearchConfig, Solution, Solver, ValueOrder, VarOrder};

use crate::error::{verify_fail, ParseError, PuzzleError, VerifyError};
use crate::family::{Family, Generator, Opt, Options};
use crate::puzzle::{Encoding, Puzzle};
use crate::rng::Rng;
use crate::text::{content_lines, tokens};

/// Largest height and width accepted.
pub const MAX_SIDE: usize = 200;

/// A Nonogram instance: the clue of every row and every column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nonogram {
    /// Row clues, top to bottom (an empty clue is an empty row).
    pub rows: Vec<Vec<usize>>,
    /// Column clues, left to right.
    pub columns: Vec<Vec<usize>>,
}

/// The block lengths of a line of cells (`true` = black): its clue.
pub fn clue_of(line: &[bool]) -> Vec<usize> {
    line.split(|&b| !b)
        .map(<[bool]>::len)
        .filter(|&l| l > 0)
        .collect()
}

/// The automaton of `clue` over {0, 1} as `(states, transitions (from, symbol, to), accepting)`, start state 0.
///
/// State `q` = how many symbols of the pattern `1^b1 0 1^b2 0 ... 1^bk` are matched; white cells may repeat
/// before the first block, after each mandatory gap and after the last block (a self-loop on 0 there).
pub fn automaton(clue: &[usize]) -> (usize, Vec<(usize, i64, usize)>, Vec<usize>) {
    let mut pattern = Vec::new(); // true = a black cell, false = a mandatory white gap
    for (k, &c) in clue.iter().enumerate() {
        if k > 0 {
            pattern.push(false);
        }
        pattern.extend(std::iter::repeat_n(true, c));
    }
    let states = pattern.len() + 1;
    let mut t = Vec::new();
    for q in 0..states {
        let free_white = q == 0 || q == pattern.len() || !pattern[q - 1];
        if free_white {
            t.push((q, 0, q));
        }
        if q < pattern.len() {
            let symbol = i64::from(pattern[q]);
            if !(symbol == 0 && free_white) {
                t.push((q, symbol, q + 1));
            }
        }
    }
    (states, t, vec![pattern.len()])
}

/// Cells a clue needs at least: its blocks plus one gap between each two.
fn span(clue: &[usize]) -> usize {
    clue.iter().sum::<usize>() + clue.len().saturating_sub(1)
}

impl Nonogram {
    /// The grid's height (number of rows).
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The grid's width (number of columns).
    pub fn width(&self) -> usize {
        self.columns.len()
    }

    /// The clues of a picture (`picture[r * width + c]`, `true` = black).
    pub fn from_picture(width: usize, picture: &[bool]) -> Nonogram {
        let height = picture.len() / width.max(1);
        let rows = picture.chunks(width.max(1)).map(clue_of).collect();
        let columns = (0..width)
            .map(|c| {
                let col: Vec<bool> = (0..height).map(|r| picture[r * width + c]).collect();
                clue_of(&col)
            })
            .collect();
        Nonogram { rows, columns }
    }

    /// The instance in the text format.
    pub fn to_text(&self) -> String {
        let line = |clue: &Vec<usize>| {
            if clue.is_empty() {
                "0".to_owned()
            } else {
                let parts: Vec<String> = clue.iter().map(usize::to_string).collect();
                parts.join(" ")
            }
        };
        let mut s = String::from("rows\n");
        for c in &self.rows {
            s.push_str(&line(c));
            s.push('\n');
        }
        s.push_str("columns\n");
        for c in &self.columns {
            s.push_str(&line(c));
            s.push('\n');
        }
        s
    }
}

/// Checks a picture directly against the clues: the right number of cells, and every row's and column's block
/// lengths equal to its clue.
pub fn verify_picture(instance: &Nonogram, picture: &[bool]) -> Result<(), VerifyError> {
    let (h, w) = (instance.height(), instance.width());
    if picture.len() != h * w {
        verify_fail!("expected {} cells, got {}", h * w, picture.len());
    }
    for (r, clue) in instance.rows.iter().enumerate() {
        let got = clue_of(&picture[r * w..(r + 1) * w]);
        if &got != clue {
            verify_fail!("row {} shows blocks {got:?}, its clue is {clue:?}", r + 1);
        }
    }
    for (c, clue) in instance.columns.iter().enumerate() {
        let col: Vec<bool> = (0..h).map(|r| picture[r * w + c]).collect();
        let got = clue_of(&col);
        if &got != clue {
            verify_fail!("column {} shows blocks {got:?}, its clue is {clue:?}", c + 1);
        }
    }
    Ok(())
}

/// This family's line in [`crate::FAMILIES`].
pub const FAMILY: Family = Family {
    generators: &[Generator {
        name: "nonogram",
        about: "A Nonogram from a random picture (with --unique: the first picture of the seed's stream whose clues \
                have one solution).",
        options: &[
            Opt::value("width", "WIDTH", "Width.").default("10"),
            Opt::value("height", "HEIGHT", "Height.").default("10"),
            Opt::value("density", "DENSITY", "Share of black cells in the picture.").default("0.55"),
            Opt::value("seed", "SEED", "Seed.").default("1"),
            Opt::flag("unique", "Keep drawing pictures until the clues have exactly one solution."),
            Opt::flag(
                "hard",
                "Keep drawing pictures until the clues have exactly one solution and line solving alone does \
                 not finish (the search has to guess).",
            ),
        ],
        run: generate_text,
    }],
    datasets: &["nonogram"],
    ..Family::of::<Nonogram>("nonogram", "Nonograms (paint by numbers).")
};

/// A random picture: each cell black with probability `density` (drawn as a 1/1024 threshold).
fn random_picture(width: usize, height: usize, density: f64, rng: &mut Rng) -> Vec<bool> {
    let threshold = (density.clamp(0.0, 1.0) * 1024.0).round() as u64;
    (0..width * height).map(|_| rng.below(1024) < threshold).collect()
}

/// Which random pictures [`generate`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The first picture drawn.
    Any,
    /// The first picture whose clues have exactly one solution.
    Unique,
    /// The first picture whose clues have exactly one solution that line solving alone does not reach: the
    /// model's root propagation (`regular` per line, domain consistent, so it is exactly line solving to a
    /// fixpoint) leaves cells open and the search has to guess at least once.
    Hard,
}

/// A seeded Nonogram: the clues of a random picture; with [`Keep::Unique`] or [`Keep::Hard`], the first of up
/// to `attempts` pictures of the seed's stream whose clues qualify (counted to 2 by the engine). Returns the
/// instance, its picture and the number of pictures drawn.
pub fn generate(
    width: usize,
    height: usize,
    density: f64,
    seed: u64,
    keep: Keep,
    attempts: usize,
) -> Result<(Nonogram, Vec<bool>, usize), PuzzleError> {
    let mut rng = Rng::new(seed);
    for drawn in 1..=attempts.max(1) {
        let picture = random_picture(width, height, density, &mut rng);
        let inst = Nonogram::from_picture(width, &picture);
        if keep == Keep::Any {
            return Ok((inst, picture, drawn));
        }
        let enc = inst.encode()?;
        let c = Solver::new(&enc.problem, inst.default_config()).count(&[], 2);
        let unique = c.count == 1 && c.outcome == csp_core::Outcome::Solved;
        if unique && (keep == Keep::Unique || c.stats.guesses > 0) {
            return Ok((inst, picture, drawn));
        }
    }
    Err(PuzzleError::Invalid(format!(
        "no qualifying picture in {attempts} draws (try another density or size)"
    )))
}

/// `puzzles generate nonogram`: the instance with `#` lines saying how it was made and its picture.
fn generate_text(options: &Options) -> Result<String, String> {
    let width: usize = options.require("width")?;
    let height: usize = options.require("height")?;
    let density: f64 = options.require("density")?;
    let seed: u64 = options.require("seed")?;
    let hard = options.flag("hard");
    let unique = hard || options.flag("unique");
    let keep = match (unique, hard) {
        (_, true) => Keep::Hard,
        (true, false) => Keep::Unique,
        (false, false) => Keep::Any,
    };
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(format!("width and height must be 1..={MAX_SIDE}"));
    }
    let (inst, picture, drawn) =
        generate(width, height, density, seed, keep, 10_000).map_err(|e| e.to_string())?;
    let mut s = format!(
        "# Nonogram {width}x{height}{} (puzzles generate nonogram --width {width} --height {height} \
         --density {density} --seed {seed}{})\n",
        match keep {
            Keep::Any => String::new(),
            Keep::Unique => format!(", unique solution (picture {drawn} of the seed's stream)"),
            Keep::Hard => format!(
                ", unique solution, line solving alone does not finish (picture {drawn} of the seed's stream)"
            ),
        },
        match keep {
            Keep::Any => "",
            Keep::Unique => " --unique",
            Keep::Hard => " --hard",
        }
    );
    for row in picture.chunks(width) {
        let line: String = row.iter().map(|&b| if b { '#' } else { '.' }).collect();
        s.push_str(&format!("# solution {line}\n"));
    }
    s.push_str(&inst.to_text());
    Ok(s)
}

/// Reads one clue line: block lengths, or `0` alone for an empty line.
fn parse_clue(line_no: usize, line: &str) -> Result<Vec<usize>, ParseError> {
    let toks: Vec<(usize, &str)> = tokens(line).collect();
    let mut clue = Vec::with_capacity(toks.len());
    for &(col, tok) in &toks {
        let v: usize = tok.parse().map_err(|_| {
            ParseError::at(
                line_no,
                col,
                format!("expected a block length, found `{tok}`"),
            )
        })?;
        if v > MAX_SIDE {
            return Err(ParseError::at(
                line_no,
                col,
                format!("block length {v} exceeds the largest side {MAX_SIDE}"),
            ));
        }
        if v == 0 && toks.len() > 1 {
            return Err(ParseError::at(
                line_no,
                col,
                "a block of length 0 (write `0` alone for an empty line)",
            ));
        }
        if v > 0 {
            clue.push(v);
        }
    }
    Ok(clue)
}

impl Puzzle for Nonogram {
    /// The picture, row-major, `true` = black.
    type Answer = Vec<bool>;

    fn parse(text: &str) -> Result<Self, ParseError> {
        #[derive(PartialEq)]
        enum Section {
            None,
            Rows,
            Columns,
        }
        let mut section = Section::None;
        let (mut rows, mut columns) = (Vec::new(), Vec::new());
        let (mut row_lines, mut col_lines) = (Vec::new(), Vec::new());
        let mut seen = (false, false);
        for (line_no, line) in content_lines(text) {
            let word = line.trim();
            if word.eq_ignore_ascii_case("rows") {
                if seen.0 {
                    return Err(ParseError::at_line(line_no, "a second `rows` section"));
                }
                seen.0 = true;
                section = Section::Rows;
                continue;
            }
            if word.eq_ignore_ascii_case("columns") {
                if seen.1 {
                    return Err(ParseError::at_line(line_no, "a second `columns` section"));
                }
                seen.1 = true;
                section = Section::Columns;
                continue;
            }
            let (clues, lines) = match section {
                Section::None => {
                    return Err(ParseError::at_line(
                        line_no,
                        format!(
                            "expected `rows` or `columns` before the clues, found `{word}`"
                        ),
                    ))
                }
                Section::Rows => (&mut rows, &mut row_lines),
                Section::Columns => (&mut columns, &mut col_lines),
            };
            if clues.len() == MAX_SIDE {
                return Err(ParseError::at_line(
                    line_no,
                    format!("more than {MAX_SIDE} clues in this section"),
                ));
            }
            clues.push(parse_clue(line_no, line)?);
            lines.push(line_no);
        }
        if rows.is_empty() {
            return Err(ParseError::whole_file(
                "no row clues (expected a `rows` line followed by one clue per row)",
            ));
        }
        if columns.is_empty() {
            return Err(ParseError::whole_file(
                "no column clues (expected a `columns` line followed by one clue per column)",
            ));
        }
        let (h, w) = (rows.len(), columns.len());
        for (clue, &line_no) in rows.iter().zip(&row_lines) {
            if span(clue) > w {
                return Err(ParseError::at_line(
                    line_no,
                    format!("this row clue needs {} cells, the grid is {w} wide", span(clue)),
                ));
            }
        }
        for (clue, &line_no) in columns.iter().zip(&col_lines) {
            if span(clue) > h {
                return Err(ParseError::at_line(
                    line_no,
                    format!("this column clue needs {} cells, the grid is {h} high", span(clue)),
                ));
            }
        }
        let (by_rows, by_cols) = (
            rows.iter().flatten().sum::<usize>(),
            columns.iter().flatten().sum::<usize>(),
        );
        if by_rows != by_cols {
            return Err(ParseError::whole_file(format!(
                "the row clues blacken {by_rows} cells and the column clues {by_cols}"
            )));
        }
        Ok(Nonogram { rows, columns })
    }

    fn encode(&self) -> Result<Encoding, PuzzleError> {
        let (h, w) = (self.height(), self.width());
        let mut m = Model::new();
        let vars = (0..h * w)
            .map(|_| m.new_bool())
            .collect::<Result<Vec<_>, _>>()?;
        for (r, clue) in self.rows.iter().enumerate() {
            let (states, t, acc) = automaton(clue);
            m.regular(&vars[r * w..(r + 1) * w], states, 0, &t, &acc)?;
        }
        for (c, clue) in self.columns.iter().enumerate() {
            let line: Vec<_> = (0..h).map(|r| vars[r * w + c]).collect();
            let (states, t, acc) = automaton(clue);
            m.regular(&line, states, 0, &t, &acc)?;
        }
        Ok(Encoding {
            problem: m.build()?,
            assumptions: Vec::new(),
            vars,
        })
    }

    fn decode(&self, solution: &Solution) -> Vec<bool> {
        let n = self.height() * self.width();
        solution.values().iter().take(n).map(|&v| v == 1).collect()
    }

    fn verify(&self, answer: &Vec<bool>) -> Result<(), VerifyError> {
        verify_picture(self, answer)
    }

    /// MRV with forward checking: `regular` already makes each line domain consistent, so singles add nothing;
    /// see the crate README for the measured comparison.
    fn default_config(&self) -> SearchConfig {
        SearchConfig::default()
            .var_order(VarOrder::Mrv)
            .value_order(ValueOrder::Ascending)
            .propagation(Propagation::ForwardChecking)
    }

    fn answer_text(&self, answer: &Vec<bool>) -> String {
        let mut s = String::with_capacity(answer.len() + self.height());
        for row in answer.chunks(self.width().max(1)) {
            s.extend(row.iter().map(|&b| if b { '#' } else { '.' }));
            s.push('\n');
        }
        s
    }

    /// The rows as strings of `#` and `.`.
    fn answer_json(&self, answer: &Vec<bool>) -> serde_json::Value {
        let rows: Vec<String> = answer
            .chunks(self.width().max(1))
            .map(|row| row.iter().map(|&b| if b { '#' } else { '.' }).collect())
            .collect();
        serde_json::Value::from(rows)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn clues_and_automata_agree_on_every_line_of_six_cells() {
        for bits in 0u32..64 {
            let line: Vec<bool> = (0..6).map(|i| bits >> i & 1 == 1).collect();
            let clue = clue_of(&line);
            let (states, t, acc) = automaton(&clue);
            // Run every line of six cells through the automaton: accepted exactly when its clue is `clue`.
            for other in 0u32..64 {
                let word: Vec<i64> = (0..6).map(|i| i64::from(other >> i & 1)).collect();
                let mut q = Some(0usize);
                for &s in &word {
                    q = q.and_then(|q| t.iter().find(|x| x.0 == q && x.1 == s).map(|x| x.2));
                }
                let accepted = q.is_some_and(|q| q < states && acc.contains(&q));
                let other_line: Vec<bool> = word.iter().map(|&v| v == 1).collect();
                assert_eq!(accepted, clue_of(&other_line) == clue, "{clue:?} vs {word:?}");
            }
        }
    }

    #[test]
    fn parse_reads_sections_and_names_bad_lines() {
        let n = Nonogram::parse("rows\n1\n1\ncolumns\n1\n1\n").unwrap();
        assert_eq!(n.rows, vec![vec![1], vec![1]]);
        assert_eq!(Nonogram::parse(&n.to_text()).unwrap(), n);
        let e = Nonogram::parse("rows\n1 x\ncolumns\n1\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(3)));
        let e = Nonogram::parse("rows\n3\ncolumns\n1\n1\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("needs 3 cells"), "{e}");
        let e = Nonogram::parse("rows\n1\ncolumns\n0\n").unwrap_err();
        assert!(e.message.contains("blacken"), "{e}");
        assert_eq!(Nonogram::parse("1\n").unwrap_err().line, 1);
        assert!(Nonogram::parse("").is_err());
        let e = Nonogram::parse("rows\n1 0\ncolumns\n1\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(3)));
    }
}
