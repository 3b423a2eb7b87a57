//! Latin square completion (the quasigroup-with-holes problem): fill an n x n grid with 1..n so that every row and
//! every column holds each value once, keeping the given cells.
//!
//! # Text format
//! ```text
//! # comments start with '#'; blank lines are ignored
//! 1 . 3
//! . . 1
//! 3 . .
//! ```
//! n lines of n whitespace-separated entries; the order n is the number of entries on the first row. An entry is
//! a value `1..=n`, or a hole: `.`, `_`, `0` or `-1`. Solutions print in the same format with no holes.
//!
//! Model: one variable per cell (`r * n + c`), `all_different` per row and per column, givens as root assumptions.
//!
//! Instances: [`random_latin_square`] draws a square by the Jacobson-Matthews Markov chain (close to uniform
//! over all Latin squares, unlike a shuffled cyclic square), and [`punch_holes`] empties a seeded random share of
//! its cells; every such instance is satisfiable by construction. Around 42% holes is where completion is hardest
//! (Achlioptas, Gomes, Kautz, Selman 2000).

use csp_core::{Model, Propagation, SearchConfig, Solution, ValueOrder, VarOrder};

use crate::error::{verify_fail, ParseError, PuzzleError, VerifyError};
use crate::family::{Family, Generator, Opt, Options};
use crate::puzzle::{Encoding, Mode, Puzzle};
use crate::rng::Rng;
use crate::text::{cell_name, content_lines, grid_one_line, grid_rows, tokens};

/// Largest order accepted (n^2 variables of n values each).
pub const MAX_ORDER: usize = 256;

/// A Latin square with holes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Latin {
    /// Order: the grid is n x n with values 1..=n.
    pub n: usize,
    /// Row-major cells, `None` for a hole, `Some(v)` with 1 <= v <= n for a given.
    pub cells: Vec<Option<usize>>,
}

impl Latin {
    /// Share of cells that are holes.
    pub fn hole_fraction(&self) -> f64 {
        self.cells.iter().filter(|c| c.is_none()).count() as f64 / self.cells.len().max(1) as f64
    }

    /// The instance in the text format.
    pub fn to_text(&self) -> String {
        let width = self.n.to_string().len();
        let mut s = String::new();
        for row in self.cells.chunks(self.n.max(1)) {
            let cells: Vec<String> = row
                .iter()
                .map(|c| match c {
                    Some(v) => format!("{v:>width$}"),
                    None => format!("{:>width$}", "."),
                })
                .collect();
            s.push_str(&cells.join(" "));
            s.push('\n');
        }
        s
    }

    /// Finds two givens with the same value in one row or column, named by cell.
    pub fn clash(&self) -> Option<String> {
        let n = self.n;
        for i in 0..n {
            for (what, by_column) in [("row", false), ("column", true)] {
                let mut seen = vec![None; n + 1];
                for j in 0..n {
                    let (r, c) = if by_column { (j, i) } else { (i, j) };
                    if let Some(v) = self.cells[r * n + c] {
                        if let Some((pr, pc)) = seen[v] {
                            return Some(format!(
                                "{what} {}: {} and {} both hold {v}",
                                i + 1,
                                cell_name(pr, pc),
                                cell_name(r, c)
                            ));
                        }
                        seen[v] = Some((r, c));
                    }
                }
            }
        }
        None
    }
}

/// Checks a filled grid directly: every row and column a permutation of 1..n, every given kept.
pub fn verify_square(instance: &Latin, grid: &[usize]) -> Result<(), VerifyError> {
    let n = instance.n;
    if grid.len() != n * n {
        verify_fail!("expected {} cells, got {}", n * n, grid.len());
    }
    for (i, (&g, &v)) in instance.cells.iter().zip(grid).enumerate() {
        if v == 0 || v > n {
            verify_fail!("{} holds {v}, outside 1..={n}", cell_name(i / n, i % n));
        }
        if let Some(g) = g {
            if g != v {
                verify_fail!("{} was given as {g} but holds {v}", cell_name(i / n, i % n));
            }
        }
    }
    for i in 0..n {
        let mut row = vec![false; n + 1];
        let mut col = vec![false; n + 1];
        for j in 0..n {
            let (a, b) = (grid[i * n + j], grid[j * n + i]);
            if row[a] {
                verify_fail!("row {} repeats {a}", i + 1);
            }
            if col[b] {
                verify_fail!("column {} repeats {b}", i + 1);
            }
            row[a] = true;
            col[b] = true;
        }
    }
    Ok(())
}

/// This family's line in [`crate::FAMILIES`].
pub const FAMILY: Family = Family {
    generators: &[Generator {
        name: "latin",
        about: "A quasigroup-with-holes instance (random Latin square by Jacobson-Matthews, random holes).",
        options: &[
            Opt::value("order", "ORDER", "Order.").default("30"),
            Opt::value("holes", "HOLES", "Share of cells left empty.").default("0.42"),
            Opt::value("seed", "SEED", "Seed.").default("1"),
            Opt::flag(
                "unique",
                "Keep the completion unique: empty cells in random order, skipping any hole that would allow a \
                 second solution, up to the --holes share (slow for large orders; records the solution in a comment).",
            ),
        ],
        run: generate_text,
    }],
    datasets: &["latin", "latin-unique"],
    ..Family::of::<Latin>("latin", "Latin square completion (grids with holes).")
};

/// `puzzles generate latin`: the instance with `#` lines saying how it was made.
fn generate_text(options: &Options) -> Result<String, String> {
    let order: usize = options.require("order")?;
    let holes: f64 = options.require("holes")?;
    let seed: u64 = options.require("seed")?;
    if order == 0 || order > MAX_ORDER {
        return Err(format!("order must be 1..={MAX_ORDER}"));
    }
    if options.flag("unique") {
        let max_holes = (holes.clamp(0.0, 1.0) * (order * order) as f64).round() as usize;
        let (inst, solution) = generate_unique(order, max_holes, seed, &SearchConfig::default())
            .map_err(|e| e.to_string())?;
        Ok(format!(
            "# Latin square with a unique completion: order {order}, {:.0}% holes, seed {seed} \
             (puzzles generate latin --unique)\n# solution {}\n{}",
            inst.hole_fraction() * 100.0,
            grid_one_line(order, &solution),
            inst.to_text()
        ))
    } else {
        let inst = generate(order, holes, seed);
        Ok(format!(
            "# quasigroup with holes: order {order}, {:.0}% holes, seed {seed} (puzzles generate latin)\n{}",
            inst.hole_fraction() * 100.0,
            inst.to_text()
        ))
    }
}

impl Puzzle for Latin {
    type Answer = Vec<usize>;

    fn parse(text: &str) -> Result<Self, ParseError> {
        let mut n = 0;
        let mut cells = Vec::new();
        let mut last_line = 0;
        for (line_no, line) in content_lines(text) {
            let toks: Vec<(usize, &str)> = tokens(line).collect();
            if n == 0 {
                n = toks.len();
                if n > MAX_ORDER {
                    return Err(ParseError::at_line(
                        line_no,
                        format!("order {n} exceeds the maximum {MAX_ORDER}"),
                    ));
                }
                cells.reserve(n * n);
            } else if cells.len() == n * n {
                return Err(ParseError::at_line(
                    line_no,
                    format!("extra row: the grid already has {n} rows"),
                ));
            }
            if toks.len() != n {
                return Err(ParseError::at_line(
                    line_no,
                    format!(
                        "row has {} entries, expected {n} (the first row's count)",
                        toks.len()
                    ),
                ));
            }
            for (col, tok) in toks {
                let cell = match tok {
                    "." | "_" | "0" | "-1" => None,
                    _ => match tok.parse::<usize>() {
                        Ok(v) if (1..=n).contains(&v) => Some(v),
                        Ok(v) => {
                            return Err(ParseError::at(
                                line_no,
                                col,
                                format!("value {v} is outside 1..={n}"),
                            ))
                        }
                        Err(_) => {
                            return Err(ParseError::at(
                                line_no,
                                col,
                                format!(
                                    "expected a value 1..={n} or a hole (. _ 0 -1), found `{tok}`"
                                ),
                            ))
                        }
                    },
                };
                cells.push(cell);
            }
            last_line = line_no;
        }
        if n == 0 {
            return Err(ParseError::whole_file("empty file: no grid rows found"));
        }
        if cells.len() != n * n {
            return Err(ParseError::at_line(
                last_line,
                format!("grid ends after {} rows, expected {n}", cells.len() / n),
            ));
        }
        Ok(Latin { n, cells })
    }

    fn encode(&self) -> Result<Encoding, PuzzleError> {
        if let Some(m) = self.clash() {
            return Err(PuzzleError::Invalid(m));
        }
        let n = self.n;
        let mut m = Model::new();
        let vars = (0..n * n)
            .map(|_| m.new_var(1, n as i64))
            .collect::<Result<Vec<_>, _>>()?;
        for i in 0..n {
            let row: Vec<_> = (0..n).map(|j| vars[i * n + j]).collect();
            let col: Vec<_> = (0..n).map(|j| vars[j * n + i]).collect();
            m.all_different(&row)?;
            m.all_different(&col)?;
        }
        let assumptions = self
            .cells
            .iter()
            .zip(&vars)
            .filter_map(|(c, &v)| c.map(|g| (v, g as i64)))
            .collect();
        Ok(Encoding {
            problem: m.build()?,
            assumptions,
            vars,
        })
    }

    fn decode(&self, solution: &Solution) -> Vec<usize> {
        solution.values().iter().map(|&v| v as usize).collect()
    }

    fn verify(&self, answer: &Vec<usize>) -> Result<(), VerifyError> {
        verify_square(self, answer)
    }

    /// dom/wdeg with hidden singles: a value with one place left in a row or column is placed at once, and the
    /// learned weights steer search to the crowded rows of the 42%-holes instances.
    fn default_config(&self) -> SearchConfig {
        SearchConfig::default()
            .var_order(VarOrder::DomWdeg)
            .value_order(ValueOrder::Ascending)
            .propagation(Propagation::Singles)
    }

    fn answer_text(&self, answer: &Vec<usize>) -> String {
        grid_rows(self.n, answer)
    }

    fn answer_json(&self, answer: &Vec<usize>) -> serde_json::Value {
        serde_json::Value::from(grid_one_line(self.n, answer))
    }
}

/// A random Latin square of order `n` (values 1..=n, row-major) from the Jacobson-Matthews chain started at the
/// cyclic square and run for n^3 proper steps.
///
/// The chain works on the incidence cube `M[r][c][s]` (1 iff cell (r, c) holds s): each move adds 1 on one
/// 2x2x2 sub-cube's alternate corners and subtracts 1 on the others, which can leave one "improper" -1 entry;
/// moves continue from it until the cube is proper (a Latin square) again.
pub fn random_latin_square(n: usize, rng: &mut Rng) -> Vec<usize> {
    if n < 2 {
        return vec![1; n * n];
    }
    let idx = |r: usize, c: usize, s: usize| (r * n + c) * n + s;
    let mut m = vec![0i8; n * n * n];
    for r in 0..n {
        for c in 0..n {
            m[idx(r, c, (r + c) % n)] = 1;
        }
    }
    // The (up to two) indices along a line of the cube where the entry is 1; `pick` chooses one at random.
    let ones = |m: &[i8], f: &dyn Fn(usize) -> usize, rng: &mut Rng| -> usize {
        let mut found = [usize::MAX; 2];
        let mut k = 0;
        for i in 0..n {
            if m[f(i)] == 1 && k < 2 {
                found[k] = i;
                k += 1;
            }
        }
        if k == 2 && rng.below_hi32(2) == 1 {
            found[1]
        } else {
            found[0]
        }
    };
    let mut improper: Option<(usize, usize, usize)> = None;
    let mut proper_steps = 0;
    while proper_steps < n * n * n || improper.is_some() {
        let (r, c, s) = match improper {
            Some(cell) => cell,
            None => {
                proper_steps += 1;
                let (r, c) = (rng.below_hi32(n), rng.below_hi32(n));
                let s0 = (0..n).find(|&s| m[idx(r, c, s)] == 1).unwrap_or(0);
                let s = (s0 + 1 + rng.below_hi32(n - 1)) % n;
                (r, c, s)
            }
        };
        let r2 = ones(&m, &|i| idx(i, c, s), rng);
        let c2 = ones(&m, &|i| idx(r, i, s), rng);
        let s2 = ones(&m, &|i| idx(r, c, i), rng);
        m[idx(r, c, s)] += 1;
        m[idx(r, c2, s2)] += 1;
        m[idx(r2, c, s2)] += 1;
        m[idx(r2, c2, s)] += 1;
        m[idx(r, c, s2)] -= 1;
        m[idx(r, c2, s)] -= 1;
        m[idx(r2, c, s)] -= 1;
        m[idx(r2, c2, s2)] -= 1;
        improper = (m[idx(r2, c2, s2)] < 0).then_some((r2, c2, s2));
    }
    (0..n * n)
        .map(|cell| (0..n).find(|&s| m[cell * n + s] == 1).map_or(0, |s| s + 1))
        .collect()
}

/// Empties `round(fraction * n^2)` cells of a full square, chosen uniformly by the seeded generator.
pub fn punch_holes(n: usize, square: &[usize], fraction: f64, rng: &mut Rng) -> Latin {
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle_by(&mut order, Rng::below_hi32);
    let holes = ((fraction.clamp(0.0, 1.0) * (n * n) as f64).round() as usize).min(n * n);
    let mut cells: Vec<Option<usize>> = square.iter().map(|&v| Some(v)).collect();
    for &i in &order[..holes] {
        cells[i] = None;
    }
    Latin { n, cells }
}

/// A seeded quasigroup-with-holes instance: order `n`, a share `fraction` of holes; satisfiable by construction.
pub fn generate(n: usize, fraction: f64, seed: u64) -> Latin {
    let mut rng = Rng::new(seed);
    let square = random_latin_square(n, &mut rng);
    punch_holes(n, &square, fraction, &mut rng)
}

/// A seeded instance with a unique completion: starting from a full random square, cells are emptied in random
/// order and each emptying is kept only if the solution stays unique (checked by counting to 2 with `config`).
/// Stops after `max_holes` holes. Uses the engine; every count is exact or the hole is not kept. Returns the
/// instance and its solution.
pub fn generate_unique(
    n: usize,
    max_holes: usize,
    seed: u64,
    config: &SearchConfig,
) -> Result<(Latin, Vec<usize>), PuzzleError> {
    let mut rng = Rng::new(seed);
    let square = random_latin_square(n, &mut rng);
    let mut inst = Latin {
        n,
        cells: square.iter().map(|&v| Some(v)).collect(),
    };
    let mut order: Vec<usize> = (0..n * n).collect();
    rng.shuffle_by(&mut order, Rng::below_hi32);
    let mut holes = 0;
    for i in order {
        if holes == max_holes {
            break;
        }
        let keep = inst.cells[i].take();
        let r = crate::puzzle::solve_encoded(&inst, &inst.encode()?, config, Mode::Count(2))?;
        if r.count == Some(1) && r.outcome == csp_core::Outcome::Solved {
            holes += 1;
        } else {
            inst.cells[i] = keep;
        }
    }
    Ok((inst, square))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn is_latin(n: usize, g: &[usize]) -> bool {
        let inst = Latin {
            n,
            cells: vec![None; n * n],
        };
        verify_square(&inst, g).is_ok()
    }

    #[test]
    fn jacobson_matthews_squares_are_latin_and_seeded() {
        for n in [1, 2, 3, 5, 8, 30] {
            let a = random_latin_square(n, &mut Rng::new(3));
            assert!(is_latin(n, &a), "order {n}");
            assert_eq!(a, random_latin_square(n, &mut Rng::new(3)));
        }
        assert_ne!(
            random_latin_square(8, &mut Rng::new(1)),
            random_latin_square(8, &mut Rng::new(2))
        );
    }

    #[test]
    fn jacobson_matthews_leaves_the_cyclic_square() {
        let a = random_latin_square(10, &mut Rng::new(9));
        let cyclic_rows =
            (0..10).all(|r| (0..10).all(|c| (a[r * 10 + c] + 10 - a[r * 10]) % 10 == c % 10));
        assert!(!cyclic_rows);
    }

    #[test]
    fn generated_instances_have_the_asked_share_of_holes_and_round_trip_through_text() {
        let inst = generate(30, 0.42, 5);
        assert_eq!(inst.cells.iter().filter(|c| c.is_none()).count(), 378);
        assert_eq!(Latin::parse(&inst.to_text()).unwrap(), inst);
    }

    #[test]
    fn malformed_grids_give_line_numbered_errors() {
        let cases = [
            ("1 2\n2\n", 2, None),
            ("1 2\n2 x\n", 2, Some(3)),
            ("1 2\n2 3\n", 2, Some(3)),
            ("1 2\n", 1, None),
            ("1 .\n. 1\n. .\n", 3, None),
        ];
        for (text, line, col) in cases {
            let e = Latin::parse(text).unwrap_err();
            assert_eq!((e.line, e.column), (line, col), "{text:?}: {e}");
        }
        assert_eq!(Latin::parse("# nothing\n").unwrap_err().line, 0);
    }

    #[test]
    fn clashing_givens_are_named_before_search() {
        let inst = Latin::parse("1 . 1\n. . .\n. . .\n").unwrap();
        let m = inst.clash().unwrap();
        assert!(
            m.contains("row 1") && m.contains("r1c1") && m.contains("r1c3"),
            "{m}"
        );
        let inst = Latin::parse("2 . .\n. . .\n2 . .\n").unwrap();
        assert!(inst.clash().unwrap().contains("column 1"));
    }
}
