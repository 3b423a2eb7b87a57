//! What Killer Sudoku and KenKen share: cages (groups of cells with a clue), their line-numbered parsing, the
//! partition check, and the generator that grows cages while the solution stays unique.

use crate::error::{ParseError, PuzzleError};
use crate::rng::Rng;
use crate::text::{cell_name, parse_cell};

/// A cage: its cells (row-major indices into an n x n grid), its clue, and where it came from in the file.
///
/// Two cages are equal when their cells and clues are: the source line is provenance, not content.
#[derive(Clone, Debug)]
pub struct Cage<L> {
    /// Cells, in the order the file listed them.
    pub cells: Vec<usize>,
    /// The clue (a sum for Killer, a target and operation for KenKen).
    pub clue: L,
    /// 1-based line in the source file (0 for generated cages), for error messages.
    pub line: usize,
}

impl<L: PartialEq> PartialEq for Cage<L> {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells && self.clue == other.clue
    }
}

impl<L: Eq> Eq for Cage<L> {}

/// Parses the cell tokens of one cage line. `tokens` are (column, text) pairs.
pub fn parse_cells(
    line: usize,
    tokens: &[(usize, &str)],
    n: usize,
) -> Result<Vec<usize>, ParseError> {
    if tokens.is_empty() {
        return Err(ParseError::at_line(line, "cage has no cells"));
    }
    let mut cells = Vec::with_capacity(tokens.len());
    for &(col, tok) in tokens {
        let (r, c) = parse_cell(tok, n).map_err(|m| ParseError::at(line, col, m))?;
        let cell = r * n + c;
        if cells.contains(&cell) {
            return Err(ParseError::at(
                line,
                col,
                format!("cell {tok} is listed twice in this cage"),
            ));
        }
        cells.push(cell);
    }
    Ok(cells)
}

/// Checks that the cages cover every cell of the n x n grid exactly once; the error names the cell and the
/// line(s).
pub fn check_partition<L>(n: usize, cages: &[Cage<L>]) -> Result<(), ParseError> {
    let mut owner: Vec<Option<usize>> = vec![None; n * n];
    for cage in cages {
        for &cell in &cage.cells {
            if let Some(prev) = owner[cell] {
                return Err(ParseError::at_line(
                    cage.line,
                    format!(
                        "cell {} is already in the cage on line {prev}",
                        cell_name(cell / n, cell % n)
                    ),
                ));
            }
            owner[cell] = Some(cage.line);
        }
    }
    if let Some(cell) = owner.iter().position(|o| o.is_none()) {
        return Err(ParseError::whole_file(format!(
            "cell {} is in no cage (every cell must belong to exactly one cage)",
            cell_name(cell / n, cell % n)
        )));
    }
    Ok(())
}

/// The cage generator shared by Killer and KenKen.
///
/// Starts from one cage per cell (a fully given grid, trivially unique), then visits the orthogonally adjacent
/// cell pairs in seeded random order (`passes` times); when the two cells are in different cages whose union has
/// at most `max_size` cells, `clue(rng, cells)` proposes a clue for the union (or `None` if the union may not be a
/// cage, e.g. a repeated digit in Killer), and the merge is kept iff `unique(cages)` says the instance still has
/// exactly one solution.
pub fn grow_cages<L: Clone>(
    n: usize,
    max_size: usize,
    passes: usize,
    rng: &mut Rng,
    mut clue: impl FnMut(&mut Rng, &[usize]) -> Option<L>,
    mut unique: impl FnMut(&[Cage<L>]) -> Result<bool, PuzzleError>,
) -> Result<Vec<Cage<L>>, PuzzleError> {
    let mut cages: Vec<Cage<L>> = Vec::with_capacity(n * n);
    for cell in 0..n * n {
        let Some(c) = clue(rng, &[cell]) else {
            return Err(PuzzleError::Invalid(format!(
                "no clue for single cell {cell}"
            )));
        };
        cages.push(Cage {
            cells: vec![cell],
            clue: c,
            line: 0,
        });
    }
    let mut pairs = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if c + 1 < n {
                pairs.push((r * n + c, r * n + c + 1));
            }
            if r + 1 < n {
                pairs.push((r * n + c, (r + 1) * n + c));
            }
        }
    }
    for _ in 0..passes {
        rng.shuffle_by(&mut pairs, Rng::below_hi32);
        for &(a, b) in &pairs {
            let find =
                |cell: usize, cages: &[Cage<L>]| cages.iter().position(|k| k.cells.contains(&cell));
            let (Some(ia), Some(ib)) = (find(a, &cages), find(b, &cages)) else {
                continue;
            };
            if ia == ib || cages[ia].cells.len() + cages[ib].cells.len() > max_size {
                continue;
            }
            let mut cells = cages[ia].cells.clone();
            cells.extend_from_slice(&cages[ib].cells);
            cells.sort_unstable();
            let Some(c) = clue(rng, &cells) else { continue };
            let mut trial: Vec<Cage<L>> = cages
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != ia && i != ib)
                .map(|(_, k)| k.clone())
                .collect();
            trial.push(Cage {
                cells,
                clue: c,
                line: 0,
            });
            if unique(&trial)? {
                cages = trial;
            }
        }
    }
    cages.sort_by_key(|k| k.cells[0]);
    Ok(cages)
}
