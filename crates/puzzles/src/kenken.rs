//! KenKen: fill an n x n grid with 1..n, each once per row and column, so that every cage's cells combine to its
//! target under its operation.
//!
//! # Text format
//! ```text
//! # KenKen: a `size N` line, then one cage per line: `<target><op> <cell> <cell> ...`
//! size 4
//! 7+ r1c1 r1c2 r2c1     # sum
//! 2/ r1c3 r1c4          # quotient of the two cells, larger by smaller (exactly two cells)
//! 1- r2c2 r2c3          # difference, larger minus smaller (exactly two cells)
//! 12x r3c1 r3c2 r4c1    # product (`x` or `*`)
//! 4 r4c4                # a one-cell cage: the target alone (or `4=`)
//! ```
//! Cells are `r<row>c<col>`, 1-based; every cell belongs to exactly one cage; `#` starts a comment. Errors name the
//! line and the column of a bad token. n ranges over 1..=[`MAX_SIZE`].
//!
//! Model: one variable per cell, `all_different` per row and column; every cage with more than one cell becomes a
//! `table` of its allowed tuples (enumerated with pruning, and already filtered so two cage cells in one row or
//! column differ), which gives the cage full arc consistency; a `+` cage whose table would exceed
//! [`MAX_TABLE`] tuples falls back to `linear`. One-cell cages are givens.

use csp_core::{
    Model, Outcome, Propagation, Relation, SearchConfig, Solution, ValueOrder, VarId, VarOrder,
};

use crate::cages::{check_partition, grow_cages, parse_cells, Cage};
use crate::error::{verify_fail, ParseError, PuzzleError, VerifyError};
use crate::family::{Family, Generator, Opt, Options};
use crate::puzzle::{solve_encoded, Encoding, Mode, Puzzle};
use crate::rng::Rng;
use crate::text::{cell_name, content_lines, grid_one_line, grid_rows, tokens};

/// Largest grid accepted.
pub const MAX_SIZE: usize = 16;

/// Largest table built for one cage; a `+` cage beyond it is posted as a linear sum instead.
pub const MAX_TABLE: usize = 200_000;

/// Most search steps spent enumerating one cage's tuples before giving up on a table for it.
pub const MAX_ENUMERATION: u64 = 20_000_000;

/// A cage operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Sum of the cells.
    Add,
    /// Larger minus smaller of two cells.
    Sub,
    /// Product of the cells.
    Mul,
    /// Larger divided by smaller of two cells, exactly.
    Div,
    /// A one-cell cage holding its target.
    Given,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "x",
            Op::Div => "/",
            Op::Given => "",
        }
    }

    /// Whether `values` (one per cage cell) meet `target` under this operation.
    pub fn holds(self, target: u64, values: &[u64]) -> bool {
        match (self, values) {
            (Op::Add, _) => values.iter().sum::<u64>() == target,
            (Op::Mul, _) => values.iter().try_fold(1u64, |p, &v| p.checked_mul(v)) == Some(target),
            (Op::Sub, &[a, b]) => a.abs_diff(b) == target,
            (Op::Div, &[a, b]) => {
                let (hi, lo) = (a.max(b), a.min(b));
                lo != 0 && hi % lo == 0 && hi / lo == target
            }
            (Op::Given, &[a]) => a == target,
            _ => false,
        }
    }
}

/// A cage clue: target and operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clue {
    /// The number in the cage's corner.
    pub target: u64,
    /// How the cells combine.
    pub op: Op,
}

/// A KenKen instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KenKen {
    /// Grid size: n x n, values 1..=n.
    pub n: usize,
    /// Cages covering every cell exactly once.
    pub cages: Vec<Cage<Clue>>,
}

impl KenKen {
    /// The instance in the text format.
    pub fn to_text(&self) -> String {
        let mut s = format!("size {}\n", self.n);
        for cage in &self.cages {
            s.push_str(&format!("{}{}", cage.clue.target, cage.clue.op.symbol()));
            for &c in &cage.cells {
                s.push(' ');
                s.push_str(&cell_name(c / self.n, c % self.n));
            }
            s.push('\n');
        }
        s
    }

    /// Every tuple of values (one per cage cell, in cage order) that meets the clue, where cells sharing a row
    /// or column differ. Gives up with `None` past `cap` tuples or [`MAX_ENUMERATION`] search steps (a huge
    /// cage must not hang the parser's caller).
    pub fn cage_tuples(&self, cage: &Cage<Clue>, cap: usize) -> Option<Vec<Vec<i64>>> {
        let n = self.n;
        let k = cage.cells.len();
        let mut out = Vec::new();
        let mut cur = vec![0u64; k];
        let conflicts: Vec<Vec<usize>> = (0..k)
            .map(|i| {
                (0..i)
                    .filter(|&j| {
                        let (a, b) = (cage.cells[i], cage.cells[j]);
                        a / n == b / n || a % n == b % n
                    })
                    .collect()
            })
            .collect();
        let Clue { target, op } = cage.clue;
        // Depth-first enumeration; `acc` is the running sum or product, used to prune.
        fn rec(
            i: usize,
            acc: u64,
            ctx: (&[Vec<usize>], usize, u64, Op, usize),
            cur: &mut Vec<u64>,
            out: &mut Vec<Vec<i64>>,
            budget: &mut u64,
        ) -> bool {
            let (conflicts, n, target, op, cap) = ctx;
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let k = cur.len();
            if i == k {
                if op.holds(target, cur) {
                    out.push(cur.iter().map(|&v| v as i64).collect());
                    if out.len() > cap {
                        return false;
                    }
                }
                return true;
            }
            for v in 1..=n as u64 {
                if conflicts[i].iter().any(|&j| cur[j] == v) {
                    continue;
                }
                let next = match op {
                    Op::Add => acc.saturating_add(v),
                    Op::Mul => acc.saturating_mul(v),
                    _ => acc,
                };
                let remaining = (k - i - 1) as u64;
                let prune = match op {
                    Op::Add => {
                        next.saturating_add(remaining) > target
                            || next.saturating_add(remaining.saturating_mul(n as u64)) < target
                    }
                    Op::Mul => target % next != 0,
                    _ => false,
                };
                if prune {
                    continue;
                }
                cur[i] = v;
                if !rec(i + 1, next, ctx, cur, out, budget) {
                    return false;
                }
            }
            true
        }
        let start = if op == Op::Mul { 1 } else { 0 };
        let mut budget = MAX_ENUMERATION;
        rec(
            0,
            start,
            (&conflicts, n, target, op, cap),
            &mut cur,
            &mut out,
            &mut budget,
        )
        .then_some(out)
    }
}

/// Checks a filled grid directly: values 1..n, rows and columns permutations, every cage's clue met.
pub fn verify_grid(instance: &KenKen, grid: &[usize]) -> Result<(), VerifyError> {
    let n = instance.n;
    if grid.len() != n * n {
        verify_fail!("expected {} cells, got {}", n * n, grid.len());
    }
    if let Some(i) = grid.iter().position(|&v| v == 0 || v > n) {
        verify_fail!(
            "{} holds {}, outside 1..={n}",
            cell_name(i / n, i % n),
            grid[i]
        );
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
    for cage in &instance.cages {
        let vals: Vec<u64> = cage.cells.iter().map(|&c| grid[c] as u64).collect();
        if !cage.clue.op.holds(cage.clue.target, &vals) {
            let first = cage.cells[0];
            verify_fail!(
                "the cage at {} ({}{}) holds {:?}",
                cell_name(first / n, first % n),
                cage.clue.target,
                cage.clue.op.symbol(),
                vals
            );
        }
    }
    Ok(())
}

fn parse_clue(line: usize, col: usize, tok: &str) -> Result<Clue, ParseError> {
    let digits_end = tok.find(|c: char| !c.is_ascii_digit()).unwrap_or(tok.len());
    let (num, op) = tok.split_at(digits_end);
    let target: u64 = num.parse().map_err(|_| {
        ParseError::at(
            line,
            col,
            format!("expected a cage clue like 12+ or 3-, found `{tok}`"),
        )
    })?;
    let op = match op {
        "+" => Op::Add,
        "-" | "−" => Op::Sub,
        "x" | "X" | "*" | "×" => Op::Mul,
        "/" | "÷" => Op::Div,
        "" | "=" => Op::Given,
        other => {
            return Err(ParseError::at(
                line,
                col + num.chars().count(),
                format!("unknown operation `{other}` (expected + - x * / or =)"),
            ))
        }
    };
    if target == 0 {
        return Err(ParseError::at(line, col, "a cage target must be positive"));
    }
    Ok(Clue { target, op })
}

/// This family's line in [`crate::FAMILIES`].
pub const FAMILY: Family = Family {
    generators: &[Generator {
        name: "kenken",
        about: "A uniquely solvable KenKen.",
        options: &[
            Opt::value("size", "SIZE", "Grid size.").default("6"),
            Opt::value("seed", "SEED", "Seed.").default("1"),
            Opt::value("max-cage", "MAX_CAGE", "Largest cage.").default("4"),
        ],
        run: generate_text,
    }],
    datasets: &["kenken"],
    ..Family::of::<KenKen>("kenken", "KenKen.")
};

/// `puzzles generate kenken`: the instance with `#` lines saying how it was made and its solution.
fn generate_text(options: &Options) -> Result<String, String> {
    let size: usize = options.require("size")?;
    let seed: u64 = options.require("seed")?;
    let max_cage: usize = options.require("max-cage")?;
    if size == 0 || size > 9 {
        return Err("generated KenKen size must be 1..=9".into());
    }
    let (k, sol) = generate_unique(size, seed, max_cage).map_err(|e| e.to_string())?;
    Ok(format!(
        "# KenKen {size}x{size}, unique solution, seed {seed}, cages of at most {max_cage} cells\n# solution {}\n{}",
        grid_one_line(size, &sol),
        k.to_text()
    ))
}

impl Puzzle for KenKen {
    type Answer = Vec<usize>;

    fn parse(text: &str) -> Result<Self, ParseError> {
        let mut lines = content_lines(text);
        let (size_line, first) = lines
            .next()
            .ok_or_else(|| ParseError::whole_file("empty file: expected a `size N` line"))?;
        let toks: Vec<(usize, &str)> = tokens(first).collect();
        let n = match toks[..] {
            [(_, "size"), (col, v)] => match v.parse::<usize>() {
                Ok(n) if (1..=MAX_SIZE).contains(&n) => n,
                _ => {
                    return Err(ParseError::at(
                        size_line,
                        col,
                        format!("size must be 1..={MAX_SIZE}, found `{v}`"),
                    ))
                }
            },
            _ => {
                return Err(ParseError::at_line(
                    size_line,
                    "the first line must be `size N`",
                ))
            }
        };
        let mut cages = Vec::new();
        for (line_no, line) in lines {
            let toks: Vec<(usize, &str)> = tokens(line).collect();
            let Some(&(col0, head)) = toks.first() else {
                continue;
            };
            let clue = parse_clue(line_no, col0, head)?;
            let cells = parse_cells(line_no, &toks[1..], n)?;
            let k = cells.len();
            let arity_ok = match clue.op {
                Op::Sub | Op::Div => k == 2,
                Op::Given => k == 1,
                Op::Add | Op::Mul => true,
            };
            if !arity_ok {
                let want = if clue.op == Op::Given {
                    "exactly one cell (or give an operation)"
                } else {
                    "exactly two cells"
                };
                return Err(ParseError::at(
                    line_no,
                    col0,
                    format!("`{head}` needs {want}, found {k}"),
                ));
            }
            cages.push(Cage {
                cells,
                clue,
                line: line_no,
            });
        }
        check_partition(n, &cages)?;
        Ok(KenKen { n, cages })
    }

    fn encode(&self) -> Result<Encoding, PuzzleError> {
        let n = self.n;
        let mut m = Model::new();
        let vars: Vec<VarId> = (0..n * n)
            .map(|_| m.new_var(1, n as i64))
            .collect::<Result<_, _>>()?;
        for i in 0..n {
            let row: Vec<VarId> = (0..n).map(|j| vars[i * n + j]).collect();
            let col: Vec<VarId> = (0..n).map(|j| vars[j * n + i]).collect();
            m.all_different(&row)?;
            m.all_different(&col)?;
        }
        let mut assumptions = Vec::new();
        for cage in &self.cages {
            let cv: Vec<VarId> = cage.cells.iter().map(|&c| vars[c]).collect();
            let here = || {
                let c = cage.cells[0];
                format!(
                    "the cage on line {} at {}",
                    cage.line,
                    cell_name(c / n, c % n)
                )
            };
            if cage.clue.op == Op::Given {
                if cage.clue.target as usize > n {
                    return Err(PuzzleError::Invalid(format!(
                        "{}: {} exceeds {n}",
                        here(),
                        cage.clue.target
                    )));
                }
                assumptions.push((cv[0], cage.clue.target as i64));
                continue;
            }
            match self.cage_tuples(cage, MAX_TABLE) {
                Some(t) if t.is_empty() => {
                    return Err(PuzzleError::Invalid(format!(
                        "{}: no values 1..={n} make {}{}",
                        here(),
                        cage.clue.target,
                        cage.clue.op.symbol()
                    )))
                }
                Some(t) => {
                    m.table(&cv, &t)?;
                }
                None if cage.clue.op == Op::Add => {
                    let terms: Vec<(i64, VarId)> = cv.iter().map(|&v| (1, v)).collect();
                    let target = i64::try_from(cage.clue.target).map_err(|_| {
                        PuzzleError::Invalid(format!("{}: target too large", here()))
                    })?;
                    m.linear(&terms, Relation::Eq, target)?;
                }
                None => {
                    return Err(PuzzleError::Invalid(format!(
                        "{}: too many value tuples for a table (over {MAX_TABLE}, or over {MAX_ENUMERATION} \
                         steps to list them); split the cage",
                        here()
                    )))
                }
            }
        }
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
        verify_grid(self, answer)
    }

    /// MRV with hidden singles: the cage tables do the arithmetic, singles finish rows and columns.
    fn default_config(&self) -> SearchConfig {
        SearchConfig::default()
            .var_order(VarOrder::Mrv)
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

/// A seeded KenKen of size `n` with a unique solution: a random Latin square, cages grown from single cells by
/// merging neighbours (at most `max_cage` cells) with a random operation the values allow, kept while the
/// solution stays unique. Returns the instance and its solution.
pub fn generate_unique(
    n: usize,
    seed: u64,
    max_cage: usize,
) -> Result<(KenKen, Vec<usize>), PuzzleError> {
    let mut rng = Rng::new(seed);
    let grid = crate::latin::random_latin_square(n, &mut rng);
    let config = SearchConfig::default()
        .var_order(VarOrder::Mrv)
        .propagation(Propagation::Singles)
        .limits(csp_core::Limits::none().with_nodes(200_000));
    let cages = grow_cages(
        n,
        max_cage.max(1),
        2,
        &mut rng,
        |rng, cells| {
            let vals: Vec<u64> = cells.iter().map(|&c| grid[c] as u64).collect();
            let clue = match vals[..] {
                [v] => Clue {
                    target: v,
                    op: Op::Given,
                },
                [a, b] => {
                    let (hi, lo) = (a.max(b), a.min(b));
                    let mut options = vec![
                        Clue {
                            target: a + b,
                            op: Op::Add,
                        },
                        Clue {
                            target: a * b,
                            op: Op::Mul,
                        },
                        Clue {
                            target: hi - lo,
                            op: Op::Sub,
                        },
                    ];
                    if hi % lo == 0 {
                        options.push(Clue {
                            target: hi / lo,
                            op: Op::Div,
                        });
                    }
                    options[rng.below_hi32(options.len())]
                }
                _ => {
                    if rng.below_hi32(2) == 0 {
                        Clue {
                            target: vals.iter().sum(),
                            op: Op::Add,
                        }
                    } else {
                        Clue {
                            target: vals.iter().product(),
                            op: Op::Mul,
                        }
                    }
                }
            };
            Some(clue)
        },
        |cages| {
            let inst = KenKen {
                n,
                cages: cages.to_vec(),
            };
            let r = solve_encoded(&inst, &inst.encode()?, &config, Mode::Count(2))?;
            Ok(r.outcome == Outcome::Solved && r.count == Some(1))
        },
    )?;
    Ok((KenKen { n, cages }, grid))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const PUZZLE: &str = "# a 4x4 KenKen\nsize 4\n7+ r1c1 r1c2 r2c1\n2/ r1c3 r1c4\n1- r2c2 r2c3\n\
                          12x r3c1 r3c2 r4c1\n4 r2c4\n3- r3c3 r3c4\n5+ r4c2 r4c3 r4c4\n";

    #[test]
    fn ops_hold_in_either_order() {
        assert!(Op::Sub.holds(2, &[1, 3]) && Op::Sub.holds(2, &[3, 1]));
        assert!(Op::Div.holds(2, &[2, 4]) && !Op::Div.holds(2, &[3, 4]));
        assert!(Op::Mul.holds(24, &[2, 3, 4]) && Op::Add.holds(9, &[2, 3, 4]));
    }

    #[test]
    fn parse_round_trips() {
        let k = KenKen::parse(PUZZLE).unwrap();
        assert_eq!(k.n, 4);
        assert_eq!(k.cages.len(), 7);
        assert_eq!(KenKen::parse(&k.to_text()).unwrap(), k);
    }

    #[test]
    fn cage_tuples_respect_the_clue_and_row_column_distinctness() {
        let k = KenKen::parse(PUZZLE).unwrap();
        for cage in &k.cages {
            let t = k.cage_tuples(cage, MAX_TABLE).unwrap();
            // Brute force over all value tuples.
            let len = cage.cells.len() as u32;
            let mut expected = 0;
            for code in 0..4u64.pow(len) {
                let vals: Vec<u64> = (0..len).map(|i| code / 4u64.pow(i) % 4 + 1).collect();
                let distinct = (0..vals.len()).all(|i| {
                    (0..i).all(|j| {
                        let (a, b) = (cage.cells[i], cage.cells[j]);
                        (a / 4 != b / 4 && a % 4 != b % 4) || vals[i] != vals[j]
                    })
                });
                if distinct && cage.clue.op.holds(cage.clue.target, &vals) {
                    expected += 1;
                    let as_i64: Vec<i64> = vals.iter().map(|&v| v as i64).collect();
                    assert!(t.contains(&as_i64));
                }
            }
            assert_eq!(t.len(), expected);
        }
    }

    #[test]
    fn malformed_files_give_line_numbered_errors() {
        let cases = [
            ("size 4\n7? r1c1\n", 2, Some(2)),
            ("size x\n", 1, Some(6)),
            ("4\n", 1, None),
            ("size 4\n3- r1c1 r1c2 r1c3\n", 2, Some(1)),
            ("size 4\n3 r1c1 r1c2\n", 2, Some(1)),
            ("size 4\n3+ r1c1 r5c2\n", 2, Some(9)),
            ("size 2\n3+ r1c1 r1c2\n3+ r2c1 r1c2\n", 3, None),
        ];
        for (text, line, col) in cases {
            let e = KenKen::parse(text).unwrap_err();
            assert_eq!((e.line, e.column), (line, col), "{text:?}: {e}");
        }
        let e = KenKen::parse("size 2\n3+ r1c1 r1c2\n").unwrap_err();
        assert!(e.message.contains("r2c1"), "{e}");
    }
}
