//! N-Queens: place n queens on an n x n board, none attacking another.
//!
//! Model: one variable per row, `q[r]` = the column of its queen (0-based), so rows differ by construction;
//! `all_different(q)` for columns, `all_different_offset(q, r)` and `all_different_offset(q, -r)` for the two
//! diagonal directions (`q[r] + r` and `q[r] - r` pairwise distinct).
//!
//! Text format (for `--kind queens` datasets): the board size `n` on the first non-comment line; `#` starts a
//! comment. The answer prints as the columns, space separated, one per row.

use csp_core::{Model, Outcome, SearchConfig, Solution, Solver, Stats, ValueOrder, VarOrder};

use crate::error::{verify_fail, ParseError, PuzzleError, VerifyError};
use crate::family::{Family, Input, Opt, Options};
use crate::puzzle::{solve_encoded, Encoding, Mode, Puzzle, Report};
use crate::text::content_lines;

/// Largest board the model accepts. Memory grows as n^2 (n domains of n bits, plus the trail): n = 5000 takes
/// 295 MB here, so 10,000 (about 1.2 GB) is where a typo should stop rather than exhaust the machine.
pub const MAX_N: usize = 10_000;

/// An N-Queens instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queens {
    /// Board size (and number of queens), at least 1.
    pub n: usize,
    /// How [`Mode::Count`] counts (the `--parallel` and `--symmetry` options).
    pub counting: Counting,
}

/// How a count of N-Queens solutions is run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Counting {
    /// One sequential search.
    #[default]
    Plain,
    /// The engine's parallel search (rayon, all cores); the reported time is wall time.
    Parallel,
    /// Sequential, with the left-right mirror symmetry ([`Queens::count_mirrored`]); gives no answer.
    Mirrored,
}

impl Queens {
    /// The n x n instance; `Err` for n = 0 or n > [`MAX_N`].
    pub fn new(n: usize) -> Result<Self, String> {
        if n == 0 || n > MAX_N {
            return Err(format!("board size must be 1..={MAX_N}, got {n}"));
        }
        Ok(Self {
            n,
            counting: Counting::Plain,
        })
    }
}

impl Queens {
    /// Counts all solutions using the board's left-right mirror symmetry: a solution with the first-row queen in
    /// column c mirrors to one with it in column n - 1 - c, so only the columns c < n / 2 are searched (each
    /// count doubled) plus the middle column for odd n. About half the nodes of a plain count, same total.
    ///
    /// Returns the count (exact unless the outcome is a limit) and the summed statistics; limits apply to each
    /// of the ceil(n / 2) searches.
    pub fn count_mirrored(
        &self,
        config: &SearchConfig,
    ) -> Result<(u64, csp_core::Outcome, Stats), PuzzleError> {
        let enc = self.encode()?;
        let Some(&first) = enc.vars.first() else {
            return Ok((0, Outcome::Unsatisfiable, Stats::default()));
        };
        let mut solver = Solver::new(&enc.problem, config.clone());
        let (mut total, mut stats) = (0u64, Stats::default());
        for c in 0..self.n.div_ceil(2) {
            let r = solver.count(&[(first, c as i64)], u64::MAX);
            stats += r.stats;
            if let Outcome::Limit(kind) = r.outcome {
                return Ok((total, Outcome::Limit(kind), stats));
            }
            let weight = if 2 * c + 1 == self.n { 1 } else { 2 };
            total += weight * r.count;
        }
        let outcome = if total > 0 {
            Outcome::Solved
        } else {
            Outcome::Unsatisfiable
        };
        Ok((total, outcome, stats))
    }
}

/// Checks a placement directly: one column per row, all in range, no two queens sharing a column or a diagonal.
pub fn verify_placement(n: usize, columns: &[usize]) -> Result<(), VerifyError> {
    if columns.len() != n {
        verify_fail!("expected {n} queens, got {}", columns.len());
    }
    let mut col = vec![false; n];
    let mut diag_sum = vec![false; 2 * n];
    let mut diag_diff = vec![false; 2 * n];
    for (row, &c) in columns.iter().enumerate() {
        if c >= n {
            verify_fail!("row {row}: column {c} is off the {n}x{n} board");
        }
        let (s, d) = (row + c, row + n - c);
        if col[c] || diag_sum[s] || diag_diff[d] {
            verify_fail!(
                "row {row}: the queen at column {c} is attacked by a queen in an earlier row"
            );
        }
        col[c] = true;
        diag_sum[s] = true;
        diag_diff[d] = true;
    }
    Ok(())
}

/// This family's line in [`crate::FAMILIES`].
pub const FAMILY: Family = Family {
    input: Input::Inline {
        value_name: "N",
        id: "n",
    },
    options: &[
        Opt::flag(
            "parallel",
            "Count with the engine's parallel search (rayon, all cores).",
        ),
        Opt::flag(
            "symmetry",
            "Count using the left-right mirror symmetry (search half the first row, double; sequential).",
        )
        .conflicts_with("parallel"),
    ],
    default_count_limit: u64::MAX,
    datasets: &["queens"],
    ..Family::of::<Queens>(
        "queens",
        "N-Queens: first solution, or with --count all solutions (--parallel to count with rayon).",
    )
};

impl Puzzle for Queens {
    type Answer = Vec<usize>;

    fn parse(text: &str) -> Result<Self, ParseError> {
        let mut lines = content_lines(text);
        let (line_no, line) = lines.next().ok_or_else(|| {
            ParseError::whole_file("no board size found (expected a line holding n)")
        })?;
        let n: usize = line.trim().parse().map_err(|_| {
            ParseError::at_line(
                line_no,
                format!("expected a board size, found `{}`", line.trim()),
            )
        })?;
        let q = Queens::new(n).map_err(|m| ParseError::at_line(line_no, m))?;
        if let Some((extra, _)) = lines.next() {
            return Err(ParseError::at_line(
                extra,
                "unexpected text after the board size",
            ));
        }
        Ok(q)
    }

    fn encode(&self) -> Result<Encoding, PuzzleError> {
        let n = self.n as i64;
        let mut m = Model::new();
        let q = (0..self.n)
            .map(|_| m.new_var(0, n - 1))
            .collect::<Result<Vec<_>, _>>()?;
        let up: Vec<i64> = (0..n).collect();
        let down: Vec<i64> = (0..n).map(|r| -r).collect();
        if self.n > 1 {
            m.all_different(&q)?;
            m.all_different_offset(&q, &up)?;
            m.all_different_offset(&q, &down)?;
        }
        Ok(Encoding {
            problem: m.build()?,
            assumptions: Vec::new(),
            vars: q,
        })
    }

    fn decode(&self, solution: &Solution) -> Vec<usize> {
        solution.values().iter().map(|&v| v as usize).collect()
    }

    fn verify(&self, answer: &Vec<usize>) -> Result<(), VerifyError> {
        verify_placement(self.n, answer)
    }

    /// MRV with middle-out values: ascending values crowd the queens into the left corner where the diagonals
    /// collide, and MRV + ascending is known to stall from n = 128 on.
    fn default_config(&self) -> SearchConfig {
        SearchConfig::default()
            .var_order(VarOrder::Mrv)
            .value_order(ValueOrder::Median)
    }

    fn answer_text(&self, answer: &Vec<usize>) -> String {
        let cols: Vec<String> = answer.iter().map(|c| c.to_string()).collect();
        cols.join(" ")
    }

    fn answer_json(&self, answer: &Vec<usize>) -> serde_json::Value {
        serde_json::Value::from(answer.clone())
    }

    /// The columns, then the board drawn for n <= 40.
    fn answer_display(&self, answer: &Vec<usize>) -> String {
        let text = self.answer_text(answer);
        if self.n <= 40 {
            format!("{text}\n{}", board_picture(answer))
        } else {
            text
        }
    }

    fn configure(&mut self, options: &Options) -> Result<(), String> {
        self.counting = if options.flag("parallel") {
            Counting::Parallel
        } else if options.flag("symmetry") {
            Counting::Mirrored
        } else {
            Counting::Plain
        };
        Ok(())
    }

    fn check_options(options: &Options, mode: Mode) -> Result<(), String> {
        if options.flag("symmetry") && mode != Mode::Count(u64::MAX) {
            return Err(
                "--symmetry needs --count without --count-limit (it counts every solution)".into(),
            );
        }
        Ok(())
    }

    fn solve(&self, config: &SearchConfig, mode: Mode) -> Result<Report<Vec<usize>>, PuzzleError> {
        match (self.counting, mode) {
            (Counting::Mirrored, Mode::Count(_)) => {
                let (count, outcome, stats) = self.count_mirrored(config)?;
                Ok(Report {
                    outcome,
                    answer: None,
                    count: Some(count),
                    stats,
                    verified: None,
                    extra: serde_json::Map::new(),
                })
            }
            (Counting::Parallel, Mode::Count(limit)) => {
                let enc = self.encode()?;
                let start = std::time::Instant::now();
                let c = csp_core::parallel::count(&enc.problem, config, limit);
                let answer = c.first.as_ref().map(|s| self.decode(s));
                let mut stats = c.stats;
                stats.time = start.elapsed(); // wall time, not the sum over threads
                Ok(Report {
                    outcome: c.outcome,
                    verified: answer.as_ref().map(|a| self.verify(a)),
                    answer,
                    count: Some(c.count),
                    stats,
                    extra: serde_json::Map::new(),
                })
            }
            _ => solve_encoded(self, &self.encode()?, config, mode),
        }
    }
}

/// Draws a placement as a board of `Q` and `.`, one row per line (for small n in the text output).
pub fn board_picture(columns: &[usize]) -> String {
    let n = columns.len();
    let mut s = String::with_capacity(n * (n + 1));
    for &c in columns {
        for j in 0..n {
            s.push(if j == c { 'Q' } else { '.' });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn verifier_accepts_a_known_eight_queens_solution() {
        assert!(verify_placement(8, &[0, 4, 7, 5, 2, 6, 1, 3]).is_ok());
    }

    #[test]
    fn verifier_rejects_diagonal_and_column_attacks() {
        assert!(verify_placement(4, &[0, 1, 3, 2]).is_err());
        assert!(verify_placement(4, &[1, 3, 0, 3]).is_err());
        assert!(verify_placement(4, &[1, 3, 0, 4]).is_err());
        assert!(verify_placement(4, &[1, 3, 0]).is_err());
    }

    #[test]
    fn mirrored_counts_equal_the_known_counts() {
        for (n, expected) in [
            (1, 1),
            (2, 0),
            (3, 0),
            (4, 2),
            (5, 10),
            (6, 4),
            (7, 40),
            (8, 92),
            (9, 352),
        ] {
            let q = Queens::new(n).unwrap();
            let (count, outcome, _) = q.count_mirrored(&q.default_config()).unwrap();
            assert_eq!(count, expected, "n = {n}");
            assert_eq!(outcome == Outcome::Solved, expected > 0);
        }
    }

    #[test]
    fn parse_reads_the_size_and_rejects_garbage_with_a_line_number() {
        assert_eq!(Queens::parse("# board\n\n12\n").map(|q| q.n), Ok(12));
        let e = Queens::parse("# c\nabc\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(Queens::parse("0").unwrap_err().line, 1);
        assert_eq!(Queens::parse("4\n5").unwrap_err().line, 2);
        assert_eq!(Queens::parse("").unwrap_err().line, 0);
    }
}
