//! csp-core: a finite-domain constraint-satisfaction engine.
//!
//! Build a [`Model`] (integer variables with finite domains, constraints), freeze it into a [`Problem`], and solve
//! it with a [`Solver`] configured by a [`SearchConfig`]: variable order, value order, propagation level, random
//! tie-breaking, restarts and limits. A `Problem` is `Send + Sync`; a `Solver` owns its buffers and is reused for
//! many solves (e.g. one per puzzle, with the givens passed as assumptions).
//!
//! ```
//! use csp_core::{Model, Outcome, Relation, SearchConfig, Solver};
//!
//! // Three digits, pairwise different, summing to 6, with x < y written as x != y and linear.
//! let mut m = Model::new();
//! let x = m.new_var(1, 3)?;
//! let y = m.new_var(1, 3)?;
//! let z = m.new_var(1, 3)?;
//! m.all_different(&[x, y, z])?;
//! m.linear(&[(1, x), (-1, y)], Relation::Le, -1)?; // x - y <= -1
//! m.equal(z, x, 1)?; // z == x + 1
//! let problem = m.build()?;
//!
//! let mut solver = Solver::new(&problem, SearchConfig::default());
//! let r = solver.solve(&[]);
//! assert_eq!(r.outcome, Outcome::Solved);
//! let s = r.solution.expect("solved");
//! assert_eq!((s.value(x), s.value(y), s.value(z)), (1, 3, 2));
//! assert!(problem.is_solution(s.values()));
//! assert_eq!(solver.count(&[], 10).count, 1);
//! # Ok::<(), csp_core::ModelError>(())
//! ```
//!
//! Beyond `all_different`, `equal` / `not_equal`, `linear` (`=`, `<=`, `>=`, `!=`) and `table`, a model can use
//! Booleans (`new_bool`, `clause`, `bool_and` / `bool_or` / `bool_xor` / `bool_not` / `bool_equiv`), reified and
//! half-reified linear relations (`reify_linear`), arithmetic (`times`, `arith` with `div` / `mod` / `pow`, `abs`,
//! `max_of` / `min_of`), `element` over constants or variables, `count` / `global_cardinality`, `inverse`, `lex`,
//! `regular`, `circuit` / `subcircuit`; and a constraint written outside this crate through [`Model::post`]
//! (see [`constraints`]). `all_different` comes at three consistency levels ([`constraints::AllDifferentLevel`]:
//! value, bounds, domain by matching) through [`Model::all_different_with`]. Solutions come through a callback
//! ([`Solver::for_each_solution`]) or a lazy iterator ([`Solver::solutions_iter`]). [`Solver::optimize`]
//! minimises or maximises a variable by branch and bound:
//!
//! ```
//! use csp_core::{Model, OptOutcome, Relation, SearchConfig, Solver};
//!
//! // Smallest x * y + 10 b with x + y = 7, x, y in 1..=6, and b <-> (x <= 2).
//! let mut m = Model::new();
//! let x = m.new_var(1, 6)?;
//! let y = m.new_var(1, 6)?;
//! let xy = m.new_var(1, 36)?;
//! let b = m.new_bool()?;
//! let cost = m.new_var(0, 100)?;
//! m.linear(&[(1, x), (1, y)], Relation::Eq, 7)?;
//! m.times(x, y, xy)?;
//! m.reify_linear(&[(1, x)], Relation::Le, 2, b, csp_core::constraints::Reification::Equivalent)?;
//! m.linear(&[(1, cost), (-1, xy), (-10, b)], Relation::Eq, 0)?;
//! let problem = m.build()?;
//! let r = Solver::new(&problem, SearchConfig::default()).minimize(&[], cost)?;
//! assert_eq!(r.outcome, OptOutcome::Optimal);
//! assert_eq!(r.objective, Some(6)); // x = 6, y = 1; x = 1, y = 6 would cost 6 + 10
//! assert_eq!(r.best.expect("optimal").value(x), 6);
//! # Ok::<(), csp_core::ModelError>(())
//! ```
//!
//! # Inside
//! Modules depend only downward:
//! `ids`, `values` -> [`domain`] -> [`trail`], [`trailed`] -> [`state`] -> [`constraints`] -> [`model`] -> [`propagate`] ->
//! [`heuristics`] -> `search` -> [`Solver`], [`parallel`].
//!
//! - Domains are bitsets over value positions: one `u64` (up to 64 values), one `u128` (up to 128) or `bitvec`
//!   words (up to [`MAX_DOMAIN_WIDTH`]), chosen once per problem from its widest bitset; the whole search is
//!   monomorphised on it. Wider ranges (up to 2^62 values, e.g. `-10^9..=10^9`, costs, objectives), and any range
//!   made with [`Model::new_interval_var`], are *interval* domains: only the lowest and highest position are
//!   stored and trailed (see [`state`] for the invariants); `linear`, `equal`, `not_equal`, arithmetic, `min` /
//!   `max`, `lex`, reified linear relations and `all_different` (at bounds consistency, Hall intervals) reason on
//!   their bounds, other constraints refuse them ([`ModelError::NeedsEnumerable`]), and search branches on them by
//!   bounds (`x = min` with ascending values, else the split `x <= v` / `x > v`).
//! - Every domain change goes through `State::set_word`, which trails the old word; backtracking pops a level and
//!   writes old words back newest-first.
//! - Propagation drains assignment events (forward checking) and then scheduled constraints to a fixpoint,
//!   returning `Result<(), Conflict>`. Constraints implement an open trait pair ([`constraints::Constraint`],
//!   [`constraints::Propagate`]), subscribe to assigned / bounds / domain events and declare a cost class; the
//!   scheduler runs cheaper classes first.
//! - Search is depth-first with 2-way branching (`x = v` / `x != v`, or for the split value orders the bisection
//!   `x <= mid` / `x > mid` in either order), an explicit decision stack, limits, restarts and statistics.
//! - Models made only of aligned `all_different` groups (Sudoku, Latin squares, their variants) run on a second,
//!   specialised search, the *group kernel* (`kernel.rs`): copy-on-branch state of domains and per-value holder
//!   sets instead of a trail, forward checking that visits only the peers still holding a value, hidden singles as
//!   (group, value) checks. It gives the same search tree as the general engine (same nodes, same solutions in the
//!   same order; tested node for node) at 2-3x fewer instructions per node. [`Solver::engine`] says which search
//!   runs; [`SearchConfig::generic_engine`] forces the general one.
//!
//! Recipes: "how to add a constraint" in [`constraints`], "how to add a heuristic" in [`heuristics`].

pub mod config;
pub mod constraints;
pub mod csr;
pub mod domain;
#[cfg(feature = "fuzz")]
pub mod fuzz_targets;
pub mod heuristics;
pub mod ids;
mod kernel;
pub mod limits;
pub mod model;
pub mod parallel;
pub mod propagate;
pub mod rng;
mod search;
pub mod solver;
pub mod state;
pub mod stats;
pub mod trail;
pub mod trailed;
pub mod values;

pub use config::{Phase, SearchConfig};
pub use constraints::Relation;
pub use heuristics::{Restarts, ValueOrder, VarOrder};
pub use ids::{ConstraintId, VarId};
pub use limits::{LimitKind, Limits, Outcome};
pub use model::{Model, ModelError, Problem, Representation, MAX_DOMAIN_WIDTH};
pub use propagate::Propagation;
pub use solver::{
    CountResult, EngineKind, Objective, OptOutcome, OptimizeResult, Solution, Solutions,
    SolveResult, Solver,
};
pub use stats::Stats;
