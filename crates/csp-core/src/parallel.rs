//! Parallel search on one instance: split the top of the tree into independent subproblems and solve them with
//! rayon (work stealing).
//!
//! Splitting is d-way: a subproblem (a list of assumptions) is propagated, its branching variable is chosen by the
//! configured heuristic, and one child is made per remaining value. Children are disjoint and together cover the
//! parent, so per-subproblem counts add up exactly to the sequential count. Splitting stops once there are about
//! `SPLIT_FACTOR` subproblems per thread, enough for work stealing to even out unbalanced subtrees.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::config::SearchConfig;
use crate::ids::VarId;
use crate::limits::Outcome;
use crate::model::Problem;
use crate::search::Expansion;
use crate::solver::{CountResult, Solution, SolveResult, Solver};
use crate::stats::Stats;

/// Subproblems per rayon thread.
const SPLIT_FACTOR: usize = 16;

/// Subproblems (assumption lists) whose subtrees partition the search space, plus solutions met while splitting.
struct Split {
    cubes: Vec<Vec<(VarId, i64)>>,
    solutions: Vec<Vec<i64>>,
    stats: Stats,
}

fn split(problem: &Problem, cfg: &SearchConfig) -> Split {
    let target = rayon::current_num_threads().max(1) * SPLIT_FACTOR;
    let mut solver = Solver::new(problem, cfg.clone());
    let mut stats = Stats::default();
    let mut queue: VecDeque<Vec<(VarId, i64)>> = VecDeque::from([Vec::new()]);
    let mut solutions = Vec::new();
    let mut done = Vec::new();
    while let Some(cube) = queue.pop_front() {
        if queue.len() + done.len() >= target {
            done.push(cube);
            continue;
        }
        match solver.expand(&cube, &mut stats) {
            Expansion::Failed => {}
            Expansion::Solution(vals) => solutions.push(vals),
            Expansion::Branch(x, values) => {
                for v in values {
                    let mut child = cube.clone();
                    child.push((x, v));
                    queue.push_back(child);
                }
            }
        }
    }
    Split {
        cubes: done,
        solutions,
        stats,
    }
}

/// Counts solutions of `problem` (up to `limit`) in parallel. The count equals the sequential one.
pub fn count(problem: &Problem, cfg: &SearchConfig, limit: u64) -> CountResult {
    let limit = limit.max(1);
    let s = split(problem, cfg);
    let found = AtomicU64::new(s.solutions.len() as u64);
    let stop = AtomicBool::new(found.load(Ordering::Relaxed) >= limit);
    let results: Vec<CountResult> = s
        .cubes
        .par_iter()
        .map_init(
            || Solver::new(problem, cfg.clone()),
            |solver, cube| {
                if stop.load(Ordering::Relaxed) {
                    return CountResult {
                        count: 0,
                        outcome: Outcome::Unsatisfiable,
                        stats: Stats::default(),
                        first: None,
                    };
                }
                let should_stop = || stop.load(Ordering::Relaxed);
                let r = solver.count_with_stop(cube, limit, Some(&should_stop));
                if found.fetch_add(r.count, Ordering::Relaxed) + r.count >= limit {
                    stop.store(true, Ordering::Relaxed);
                }
                r
            },
        )
        .collect();
    let mut stats = s.stats;
    let mut count = s.solutions.len() as u64;
    let mut first = s.solutions.into_iter().next().map(Solution::from_values);
    let mut limit_hit = None;
    for r in results {
        stats += r.stats;
        count += r.count;
        if first.is_none() {
            first = r.first;
        }
        if let Outcome::Limit(k) = r.outcome {
            limit_hit = Some(k);
        }
    }
    let outcome = if count >= limit {
        count = limit;
        Outcome::Solved
    } else if let Some(k) = limit_hit {
        Outcome::Limit(k)
    } else if count > 0 {
        Outcome::Solved
    } else {
        Outcome::Unsatisfiable
    };
    stats.solutions = count;
    CountResult {
        count,
        outcome,
        stats,
        first,
    }
}

/// Finds one solution in parallel. Subproblems are ordered as the sequential d-way split would visit them; the
/// solution returned is the one of the earliest subproblem that has any (a subproblem is stopped only once an
/// earlier one has succeeded), so the result does not depend on thread timing. The outcome equals the sequential
/// one; the solution itself may differ from the sequential first solution, which branches 2-way.
pub fn solve(problem: &Problem, cfg: &SearchConfig) -> SolveResult {
    let s = split(problem, cfg);
    if let Some(vals) = s.solutions.into_iter().next() {
        return SolveResult {
            outcome: Outcome::Solved,
            solution: Some(Solution::from_values(vals)),
            stats: s.stats,
        };
    }
    // Index of the earliest subproblem known to have a solution.
    let best = AtomicUsize::new(usize::MAX);
    let results: Vec<SolveResult> = s
        .cubes
        .par_iter()
        .enumerate()
        .map_init(
            || Solver::new(problem, cfg.clone()),
            |solver, (i, cube)| {
                let skipped = SolveResult {
                    outcome: Outcome::Unsatisfiable,
                    solution: None,
                    stats: Stats::default(),
                };
                if best.load(Ordering::Relaxed) < i {
                    return skipped;
                }
                let should_stop = || best.load(Ordering::Relaxed) < i;
                let r = solver.solve_with_stop(cube, Some(&should_stop));
                if r.outcome == Outcome::Solved {
                    best.fetch_min(i, Ordering::Relaxed);
                }
                r
            },
        )
        .collect();
    let mut stats = s.stats;
    let mut solution = None;
    let mut limit_hit = None;
    let first_solved = best.load(Ordering::Relaxed);
    for (i, r) in results.into_iter().enumerate() {
        stats += r.stats;
        if i == first_solved {
            solution = r.solution;
        } else if i < first_solved {
            if let Outcome::Limit(k) = r.outcome {
                limit_hit = Some(k);
            }
        }
    }
    let outcome = match (&solution, limit_hit) {
        (Some(_), _) => Outcome::Solved,
        (None, Some(k)) => Outcome::Limit(k),
        (None, None) => Outcome::Unsatisfiable,
    };
    SolveResult {
        outcome,
        solution,
        stats,
    }
}
