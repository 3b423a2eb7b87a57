//! The public solver: picks the domain representation once per problem and runs the monomorphised search.

use std::ops::ControlFlow;

use crate::config::SearchConfig;
use crate::domain::WideDomain;
use crate::ids::VarId;
use crate::kernel::{self, Kernel};
use crate::limits::{Limits, Outcome};
use crate::model::{ModelError, Problem, Representation};
use crate::search::{drive, Driver, Expansion, Search};
use crate::stats::Stats;

/// One value per variable, in creation order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    values: Vec<i64>,
}

impl Solution {
    /// Wraps values given in variable creation order.
    pub fn from_values(values: Vec<i64>) -> Self {
        Self { values }
    }

    /// Value of `x`.
    ///
    /// # Panics
    /// If `x` comes from a model with more variables than this solution's (a programming error; use
    /// [`Solution::get`] to check).
    pub fn value(&self, x: VarId) -> i64 {
        self.values[x.index()]
    }

    /// Value of `x`, `None` if `x` is out of range for this solution.
    pub fn get(&self, x: VarId) -> Option<i64> {
        self.values.get(x.index()).copied()
    }

    /// All values, indexed by [`VarId::index`].
    pub fn values(&self) -> &[i64] {
        &self.values
    }
}

/// Result of [`Solver::solve`].
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// Solved, unsatisfiable, or which limit stopped the search.
    pub outcome: Outcome,
    /// The solution when `outcome` is `Solved`.
    pub solution: Option<Solution>,
    /// What the solve cost.
    pub stats: Stats,
}

/// Result of [`Solver::count`].
#[derive(Clone, Debug)]
pub struct CountResult {
    /// Solutions found (stops at the requested limit).
    pub count: u64,
    /// `Solved` / `Unsatisfiable` when `count` is exact or reached the limit; `Limit` when a node/time/cancel limit
    /// cut the search (then `count` is a lower bound).
    pub outcome: Outcome,
    /// What the count cost.
    pub stats: Stats,
    /// The first solution found, if any.
    pub first: Option<Solution>,
}

/// What to optimise: the value of one integer variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Objective {
    /// Smallest value of the variable.
    Minimize(VarId),
    /// Largest value of the variable.
    Maximize(VarId),
}

/// How an optimisation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptOutcome {
    /// The best solution found is optimal: the search proved nothing better exists.
    Optimal,
    /// A solution was found, but a limit (or the callback) stopped the search before optimality was proved.
    Feasible,
    /// No solution exists.
    Unsatisfiable,
    /// A limit stopped the search before any solution was found.
    Unknown,
}

impl OptOutcome {
    /// The outcome's word: `optimal`, `feasible`, `unsatisfiable` or `unknown` (MiniZinc's vocabulary for the
    /// same four cases).
    pub fn as_str(self) -> &'static str {
        match self {
            OptOutcome::Optimal => "optimal",
            OptOutcome::Feasible => "feasible",
            OptOutcome::Unsatisfiable => "unsatisfiable",
            OptOutcome::Unknown => "unknown",
        }
    }
}

impl std::fmt::Display for OptOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Result of [`Solver::optimize`].
#[derive(Clone, Debug)]
pub struct OptimizeResult {
    /// Optimal, feasible at a limit, unsatisfiable or unknown.
    pub outcome: OptOutcome,
    /// The best solution found.
    pub best: Option<Solution>,
    /// The objective value of `best`.
    pub objective: Option<i64>,
    /// Improving solutions found (each better than the previous one).
    pub improvements: u64,
    /// What the search cost (one search: every improvement continues the same tree).
    pub stats: Stats,
}

/// The search monomorphised on the problem's representation, or the group kernel.
enum Engine<'p> {
    W64(Search<'p, u64>),
    W128(Search<'p, u128>),
    Wide(Search<'p, WideDomain>),
    Groups1(Kernel<'p, 1, u64>),
    Groups2(Kernel<'p, 2, u64>),
    Groups4(Kernel<'p, 4, u64>),
    Groups16(Kernel<'p, 16, u64>),
    Groups16W(Kernel<'p, 16, u128>),
    Groups32W(Kernel<'p, 32, u128>),
}

macro_rules! dispatch {
    ($self:expr, $s:ident => $body:expr) => {
        match &mut $self.engine {
            Engine::W64($s) => $body,
            Engine::W128($s) => $body,
            Engine::Wide($s) => $body,
            Engine::Groups1($s) => $body,
            Engine::Groups2($s) => $body,
            Engine::Groups4($s) => $body,
            Engine::Groups16($s) => $body,
            Engine::Groups16W($s) => $body,
            Engine::Groups32W($s) => $body,
        }
    };
}

/// Which search a [`Solver`] runs (chosen from the model and the configuration; see [`Solver::engine`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// The general engine: trail-based undo, every constraint and heuristic, domain words of 64 bits.
    General64,
    /// The general engine on 128-bit domain words.
    General128,
    /// The general engine on `bitvec` domains (widths above 128).
    GeneralWide,
    /// The copy-on-branch group kernel: models made only of aligned `all_different` groups on domains of at most
    /// 64 values, searched with MRV or input order, ascending / median / random values, forward checking or
    /// hidden singles (with or without locked candidates). Same search tree as the general engine, less work per node.
    Groups,
}

/// A reusable solver for one [`Problem`]: owns all search buffers, so many solves (e.g. one per puzzle with the
/// givens as assumptions) cost no allocation beyond their solutions.
pub struct Solver<'p> {
    engine: Engine<'p>,
    /// The problem (an optimisation on a group-kernel solver switches it to the general engine).
    problem: &'p Problem,
}

impl<'p> Solver<'p> {
    /// A solver for `problem` searching as `cfg` says.
    pub fn new(problem: &'p Problem, cfg: SearchConfig) -> Self {
        let engine = match problem.representation() {
            // Sets of variables in 1-32 words, sets of groups in one `u64` (up to 64 groups) or `u128`.
            _ if kernel::applies(problem, &cfg) => {
                match (problem.num_vars(), problem.num_constraints()) {
                    (0..=64, 0..=64) => Engine::Groups1(Kernel::new(problem, cfg)),
                    (65..=128, 0..=64) => Engine::Groups2(Kernel::new(problem, cfg)),
                    (129..=256, 0..=64) => Engine::Groups4(Kernel::new(problem, cfg)),
                    (_, 0..=64) => Engine::Groups16(Kernel::new(problem, cfg)),
                    (0..=1024, _) => Engine::Groups16W(Kernel::new(problem, cfg)),
                    _ => Engine::Groups32W(Kernel::new(problem, cfg)),
                }
            }
            Representation::Word64 => Engine::W64(Search::new(problem, cfg)),
            Representation::Word128 => Engine::W128(Search::new(problem, cfg)),
            Representation::Wide => Engine::Wide(Search::new(problem, cfg)),
        };
        Self { engine, problem }
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        match &self.engine {
            Engine::W64(s) => s.config(),
            Engine::W128(s) => s.config(),
            Engine::Wide(s) => s.config(),
            Engine::Groups1(s) => s.config(),
            Engine::Groups2(s) => s.config(),
            Engine::Groups4(s) => s.config(),
            Engine::Groups16(s) => s.config(),
            Engine::Groups16W(s) => s.config(),
            Engine::Groups32W(s) => s.config(),
        }
    }

    /// The search this solver runs: the group kernel for pure `all_different` group models whose strategy it
    /// supports, otherwise the general engine on the problem's representation.
    pub fn engine(&self) -> EngineKind {
        match &self.engine {
            Engine::W64(_) => EngineKind::General64,
            Engine::W128(_) => EngineKind::General128,
            Engine::Wide(_) => EngineKind::GeneralWide,
            Engine::Groups1(_)
            | Engine::Groups2(_)
            | Engine::Groups4(_)
            | Engine::Groups16(_)
            | Engine::Groups16W(_)
            | Engine::Groups32W(_) => EngineKind::Groups,
        }
    }

    /// Replaces the node / time / cancel limits of the following solves, keeping every buffer and the rest of the
    /// configuration: a solver reused across requests with different limits need not be rebuilt.
    pub fn set_limits(&mut self, limits: Limits) {
        dispatch!(self, s => s.set_limits(limits))
    }

    fn run(
        &mut self,
        assumptions: &[(VarId, i64)],
        restarts: bool,
        stop: Option<&dyn Fn() -> bool>,
        f: &mut dyn FnMut(&[i64]) -> ControlFlow<()>,
    ) -> (Outcome, Stats) {
        dispatch!(self, s => drive(s, assumptions, restarts, stop, f))
    }

    /// Finds one solution with `assumptions` (`(variable, value)` pairs) fixed at the root.
    ///
    /// A bad assumption (value outside the domain, variable of another model, or conflicting assumptions) gives
    /// `Outcome::Unsatisfiable`; [`Problem::check_assumptions`] says which one is wrong.
    pub fn solve(&mut self, assumptions: &[(VarId, i64)]) -> SolveResult {
        self.solve_with_stop(assumptions, None)
    }

    pub(crate) fn solve_with_stop(
        &mut self,
        assumptions: &[(VarId, i64)],
        stop: Option<&dyn Fn() -> bool>,
    ) -> SolveResult {
        let mut solution = None;
        let (outcome, stats) = self.run(assumptions, true, stop, &mut |vals| {
            solution = Some(Solution::from_values(vals.to_vec()));
            ControlFlow::Break(())
        });
        SolveResult {
            outcome,
            solution,
            stats,
        }
    }

    /// Counts solutions up to `limit` (a `limit` of 2 proves uniqueness; 0 is treated as 1).
    pub fn count(&mut self, assumptions: &[(VarId, i64)], limit: u64) -> CountResult {
        self.count_with_stop(assumptions, limit, None)
    }

    pub(crate) fn count_with_stop(
        &mut self,
        assumptions: &[(VarId, i64)],
        limit: u64,
        stop: Option<&dyn Fn() -> bool>,
    ) -> CountResult {
        let limit = limit.max(1);
        let mut count = 0u64;
        let mut first = None;
        let (outcome, stats) = self.run(assumptions, false, stop, &mut |vals| {
            if count == 0 {
                first = Some(Solution::from_values(vals.to_vec()));
            }
            count += 1;
            if count >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        CountResult {
            count,
            outcome,
            stats,
            first,
        }
    }

    /// Calls `f` on every solution until it returns `Break`; returns how the search ended and its statistics.
    pub fn for_each_solution(
        &mut self,
        assumptions: &[(VarId, i64)],
        mut f: impl FnMut(&Solution) -> ControlFlow<()>,
    ) -> (Outcome, Stats) {
        let mut scratch = Solution { values: Vec::new() };
        self.run(assumptions, false, None, &mut |vals| {
            scratch.values.clear();
            scratch.values.extend_from_slice(vals);
            f(&scratch)
        })
    }

    /// Optimises `objective` by branch and bound around the same search loop: each solution found must beat the
    /// previous one (the bound `objective < best`, or `>`, is enforced before every propagation from then on), and
    /// `on_improve(solution, value)` sees every improving solution; returning `Break` stops the search (outcome
    /// `Feasible`). The configured limits apply to the whole optimisation; restarts are allowed (they keep the
    /// bound). A solver on the group kernel switches to the general engine for good.
    ///
    /// Error: [`ModelError::ForeignVariable`] for an objective variable of another model.
    pub fn optimize(
        &mut self,
        assumptions: &[(VarId, i64)],
        objective: Objective,
        mut on_improve: impl FnMut(&Solution, i64) -> ControlFlow<()>,
    ) -> Result<OptimizeResult, ModelError> {
        let (x, minimize) = match objective {
            Objective::Minimize(x) => (x, true),
            Objective::Maximize(x) => (x, false),
        };
        let v = self.problem.check_var("optimize", x)?;
        if self.engine() == EngineKind::Groups {
            let cfg = self.config().clone().generic_engine(true);
            self.engine = Engine::W64(Search::new(self.problem, cfg));
        }
        let mut best: Option<Solution> = None;
        let mut improvements = 0u64;
        let mut stopped = false;
        let mut on_solution = |vals: &[i64]| {
            let s = Solution::from_values(vals.to_vec());
            improvements += 1;
            let flow = on_improve(&s, vals[v as usize]);
            best = Some(s);
            if flow.is_break() {
                stopped = true;
            }
            flow
        };
        let (outcome, stats) = match &mut self.engine {
            Engine::W64(s) => optimize_with(s, v, minimize, assumptions, &mut on_solution),
            Engine::W128(s) => optimize_with(s, v, minimize, assumptions, &mut on_solution),
            Engine::Wide(s) => optimize_with(s, v, minimize, assumptions, &mut on_solution),
            _ => unreachable!("group kernels were replaced above"),
        };
        let outcome = match (outcome, &best) {
            (Outcome::Solved, Some(_)) if !stopped => OptOutcome::Optimal,
            (Outcome::Solved, Some(_)) | (Outcome::Limit(_), Some(_)) => OptOutcome::Feasible,
            (Outcome::Limit(_), None) => OptOutcome::Unknown,
            _ => OptOutcome::Unsatisfiable,
        };
        let value = best.as_ref().map(|s| s.values()[v as usize]);
        Ok(OptimizeResult {
            outcome,
            best,
            objective: value,
            improvements,
            stats,
        })
    }

    /// [`Solver::optimize`] without a callback: the optimum (or the best found within the limits).
    pub fn minimize(
        &mut self,
        assumptions: &[(VarId, i64)],
        x: VarId,
    ) -> Result<OptimizeResult, ModelError> {
        self.optimize(assumptions, Objective::Minimize(x), |_, _| {
            ControlFlow::Continue(())
        })
    }

    /// [`Solver::minimize`] for the largest value.
    pub fn maximize(
        &mut self,
        assumptions: &[(VarId, i64)],
        x: VarId,
    ) -> Result<OptimizeResult, ModelError> {
        self.optimize(assumptions, Objective::Maximize(x), |_, _| {
            ControlFlow::Continue(())
        })
    }

    /// Collects up to `limit` solutions (all of them with `u64::MAX`), in search order.
    pub fn solutions(
        &mut self,
        assumptions: &[(VarId, i64)],
        limit: u64,
    ) -> (Vec<Solution>, Outcome, Stats) {
        let mut out = Vec::new();
        let (outcome, stats) = self.for_each_solution(assumptions, |s| {
            if (out.len() as u64) < limit {
                out.push(s.clone());
            }
            if (out.len() as u64) >= limit {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        (out, outcome, stats)
    }

    /// A lazy iterator over the solutions, in search order: each `next` resumes the search where the previous
    /// solution left it and runs to the following one, so taking `k` solutions costs the search up to the `k`-th
    /// (the same tree as [`Solver::for_each_solution`]). After `None`, [`Solutions::outcome`] says how it ended
    /// (`Solved`, `Unsatisfiable` or a limit); [`Solutions::stats`] is current at any time.
    ///
    /// ```
    /// use csp_core::{Model, SearchConfig, Solver};
    /// let mut m = Model::new();
    /// let xs: Vec<_> = (0..3).map(|_| m.new_var(1, 3)).collect::<Result<_, _>>()?;
    /// m.all_different(&xs)?;
    /// let p = m.build()?;
    /// let mut solver = Solver::new(&p, SearchConfig::default());
    /// let first_two: Vec<_> = solver.solutions_iter(&[]).take(2).collect();
    /// assert_eq!(first_two[0].values(), &[1, 2, 3]);
    /// assert_eq!(solver.solutions_iter(&[]).count(), 6);
    /// # Ok::<(), csp_core::ModelError>(())
    /// ```
    pub fn solutions_iter<'s>(&'s mut self, assumptions: &[(VarId, i64)]) -> Solutions<'s, 'p> {
        let driver = dispatch!(self, s => Driver::new(s, false));
        Solutions {
            solver: self,
            assumptions: assumptions.to_vec(),
            driver,
        }
    }

    pub(crate) fn expand(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> Expansion {
        dispatch!(self, s => s.expand(assumptions, stats))
    }
}

/// The lazy solution iterator of [`Solver::solutions_iter`]: it borrows the solver, which keeps the search state
/// between calls.
pub struct Solutions<'s, 'p> {
    solver: &'s mut Solver<'p>,
    assumptions: Vec<(VarId, i64)>,
    driver: Driver,
}

impl Solutions<'_, '_> {
    /// How the search ended (`None` while it can still yield solutions).
    pub fn outcome(&self) -> Option<Outcome> {
        self.driver.outcome
    }

    /// The search's statistics so far.
    pub fn stats(&self) -> &Stats {
        &self.driver.stats
    }
}

impl Iterator for Solutions<'_, '_> {
    type Item = Solution;

    fn next(&mut self) -> Option<Solution> {
        let (driver, assumptions) = (&mut self.driver, &self.assumptions[..]);
        dispatch!(self.solver, s => driver
            .next(s, assumptions, None)
            .map(|v| Solution::from_values(v.to_vec())))
    }
}

/// One branch-and-bound run of `search` on variable `v`.
fn optimize_with<D: crate::domain::Domain>(
    search: &mut Search<'_, D>,
    v: u32,
    minimize: bool,
    assumptions: &[(VarId, i64)],
    on_solution: &mut dyn FnMut(&[i64]) -> ControlFlow<()>,
) -> (Outcome, Stats) {
    search.set_objective(Some((v, minimize)));
    let r = drive(search, assumptions, true, None, on_solution);
    search.set_objective(None);
    r
}
