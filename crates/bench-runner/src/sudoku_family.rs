//! The Sudoku family: the `sudoku` crate's reader, registry and independent verifier behind [`Family`].

use std::io::BufRead;

use csp_core::Limits;

use crate::family::{Answer, Entry, Family, Record, SolverName, Verdict};

/// A registry solver's instance with its size check, resolved once so no name is looked up per puzzle.
pub struct SudokuSolver {
    solve: Box<dyn sudoku::Solve>,
    supports: fn(box_size: usize) -> bool,
}

/// Adapter from the `sudoku` crate's registry contract to the runner.
pub struct SudokuFamily;

impl Family for SudokuFamily {
    type Puzzle = sudoku::Board;
    type Solution = sudoku::Board;
    type Solver = SudokuSolver;
    type Request = sudoku::Request;

    fn kind(&self) -> &'static str {
        "sudoku"
    }

    fn solvers(&self) -> Vec<SolverName> {
        sudoku::registry()
            .iter()
            .map(|s| SolverName {
                name: s.name,
                description: s.description,
            })
            .collect()
    }

    fn make(&self, name: &str) -> Option<Self::Solver> {
        sudoku::find(name).map(|s| SudokuSolver {
            solve: (s.make)(),
            supports: s.supports,
        })
    }

    fn supports(&self, solver: &Self::Solver, puzzle: &Self::Puzzle) -> bool {
        (solver.supports)(puzzle.box_size())
    }

    fn request(&self, solution_limit: u64, limits: Limits) -> Self::Request {
        sudoku::Request {
            solution_limit,
            limits,
        }
    }

    fn solve(
        &self,
        solver: &mut Self::Solver,
        puzzle: &Self::Puzzle,
        request: &Self::Request,
    ) -> Answer<Self::Solution> {
        let report = solver.solve.solve(puzzle, request);
        let verdict = Verdict::of(report.status, request.solution_limit >= 2, report.count);
        let cancelled = verdict == Verdict::Limit && crate::run::cancel_raised(&request.limits);
        Answer {
            verdict,
            solution: report.solution,
            count: report.count,
            stats: report.stats,
            cancelled,
        }
    }

    fn verify(&self, puzzle: &Self::Puzzle, solution: &Self::Solution) -> Result<(), String> {
        sudoku::verify::verify(puzzle, solution).map_err(|e| e.to_string())
    }

    fn render(&self, solution: &Self::Solution) -> String {
        solution.to_line()
    }

    fn records<'a>(
        &self,
        input: Box<dyn BufRead + Send + 'a>,
    ) -> Box<dyn Iterator<Item = Record<Self::Puzzle, Self::Solution>> + Send + 'a> {
        Box::new(sudoku::parse::Reader::new(input).map(|r| {
            Record {
                line: r.line,
                item: r
                    .item
                    .map(|p| Entry {
                        puzzle: p.board,
                        expected: p.solution,
                    })
                    .map_err(|e| e.to_string()),
            }
        }))
    }
}
