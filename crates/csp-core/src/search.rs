//! Depth-first search with 2-way branching (`x = v`, then `x != v`; or a domain cut `x <= v` / `x > v` in either
//! order for the split value orders, see [`Cut`]), generic over the domain representation.
//!
//! The search owns every buffer it needs (state, trail, queues, decision stack), sized when it is created, so a
//! solve allocates nothing per node and a new solve only resets O(vars) state. One decision = one trail level =
//! one [`Frame`]. On a conflict the newest frame is popped, its level undone, and the refutation `x != v` is
//! applied at the parent level and propagated; when that fails too, the next frame is popped.
//!
//! Interval variables (see [`crate::state`]) cannot lose a value from the middle of their interval, so a decision
//! on one whose chosen value is not a bound is a split instead: `x <= v`, refuted by `x > v`.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::config::SearchConfig;
use crate::domain::Domain;
use crate::heuristics::{Brancher, Cut, RestartPolicy, Restarts};
use crate::ids::VarId;
use crate::limits::{LimitKind, Limits, Outcome};
use crate::model::Problem;
use crate::propagate::Propagator;
use crate::state::{Conflict, State};
use crate::stats::Stats;

/// One decision on the stack, at level `index + 1`: `var` cut at position `pos` as `cut` says (`Assign`: set to
/// `pos`, refuted by `!= pos`; `Le`: limited to `..=pos`, refuted by `> pos`; `Gt`: limited to `pos + 1..`,
/// refuted by `<= pos`).
#[derive(Clone, Copy, Debug)]
struct Frame {
    var: u32,
    pos: usize,
    cut: Cut,
}

/// What the root of a subproblem looks like after propagation (used to split work for parallel search).
#[derive(Debug)]
pub(crate) enum Expansion {
    /// The assumptions fail.
    Failed,
    /// Every variable is assigned: these values are the only solution below.
    Solution(Vec<i64>),
    /// Branch on `var`: one child per value, in value-order.
    Branch(VarId, Vec<i64>),
    /// The branching variable is an interval: its values cannot be listed as children, solve this root whole.
    Whole,
}

/// The search engine of one solver on one representation `D`.
pub(crate) struct Search<'p, D: Domain> {
    problem: &'p Problem,
    cfg: SearchConfig,
    /// Domains, trail, queues.
    st: State<D>,
    /// Watch lists and schedule for `cfg.propagation`.
    prop: Propagator,
    /// Heuristic state.
    br: Brancher,
    /// Full initial domain of every variable (reset source).
    init: Vec<D>,
    /// Decision stack; `frames.len()` = decision level.
    frames: Vec<Frame>,
    /// Values of the current solution, by variable.
    values_buf: Vec<i64>,
    /// Branch and bound: `(variable, minimize)` whose value every new solution must improve on.
    objective: Option<(u32, bool)>,
    /// The objective's allowed positions `lo..hi`, tightened after each solution and enforced before every
    /// fixpoint (so it holds in every subtree the search visits next, and after restarts).
    bound: (usize, usize),
    /// With `cfg.complete_rest_once`: `listed[v]` = variable `v` is in some phase (the others are only completed
    /// once per assignment of these). Empty when the option is off.
    listed: Vec<bool>,
}

impl<'p, D: Domain> Search<'p, D> {
    pub(crate) fn new(problem: &'p Problem, cfg: SearchConfig) -> Self {
        let widths: Vec<usize> = problem.values.iter().map(|v| v.width()).collect();
        let intervals = problem.interval_flags();
        let mut st = State::with_intervals(&widths, &intervals);
        st.scratch = vec![D::full(problem.max_width); problem.max_table_arity];
        st.order.reserve(problem.max_work);
        st.cstate = problem.trailed::<D>();
        let prop = Propagator::for_domain::<D>(
            &problem.constraints,
            problem.num_vars(),
            cfg.propagation,
            cfg.intersections,
        );
        let mut br = Brancher::new(
            cfg.var_order,
            cfg.value_order,
            cfg.random_ties,
            problem.num_constraints(),
        );
        br.phases = cfg
            .phases
            .iter()
            .map(|ph| {
                let vars = ph
                    .vars
                    .iter()
                    .filter_map(|&x| problem.check_var("phase", x).ok())
                    .collect();
                (vars, ph.var_order, ph.value_order)
            })
            .collect();
        let mut listed = Vec::new();
        if cfg.complete_rest_once {
            listed = vec![false; problem.num_vars()];
            for (vars, _, _) in &br.phases {
                for &v in vars {
                    listed[v as usize] = true;
                }
            }
        }
        Self {
            problem,
            listed,
            init: widths
                .iter()
                .zip(&intervals)
                .map(|(&w, &iv)| D::full(if iv { 1 } else { w }))
                .collect(),
            frames: Vec::with_capacity(problem.num_vars()),
            values_buf: vec![0; problem.num_vars()],
            objective: None,
            bound: (0, usize::MAX),
            st,
            prop,
            br,
            cfg,
        }
    }

    pub(crate) fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    /// Replaces the limits used by the following solves (nothing else depends on them).
    pub(crate) fn set_limits(&mut self, limits: Limits) {
        self.cfg.limits = limits;
    }

    /// Resets to the initial domains, applies the assumptions and propagates at the root.
    fn start(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> Result<(), Conflict> {
        self.st.reset(&self.init);
        self.frames.clear();
        self.br.reset(self.cfg.seed);
        self.st.blame = Conflict::DECISION;
        let decision = Conflict {
            constraint: Conflict::DECISION,
        };
        for &(x, value) in assumptions {
            let v = self
                .problem
                .check_var("assumption", x)
                .map_err(|_| decision)?;
            let pos = self.problem.values[v as usize]
                .index_of(value)
                .ok_or(decision)?;
            self.st.assign(v, pos)?;
        }
        self.enforce_bound()?;
        self.prop.root(
            &self.problem.constraints,
            &self.problem.values,
            &mut self.st,
            stats,
        )
    }

    /// Makes the following solves optimise `objective` (`(variable, minimize)`) by branch and bound, or stop
    /// doing so (`None`); the bound restarts from the whole domain.
    pub(crate) fn set_objective(&mut self, objective: Option<(u32, bool)>) {
        self.objective = objective;
        self.bound = (0, usize::MAX);
    }

    /// Enforces the objective bound (a conflict once no better value is left). On a conflict the propagation
    /// queues are emptied, as a failed fixpoint would: stale entries must not survive the undo that follows.
    #[inline]
    fn enforce_bound(&mut self) -> Result<(), Conflict> {
        if let Some((v, _)) = self.objective {
            let (lo, hi) = self.bound;
            let hi = hi.min(self.problem.values[v as usize].width());
            if let Err(c) = self.st.restrict(v, lo, hi) {
                self.prop.clear(&mut self.st);
                return Err(c);
            }
        }
        Ok(())
    }

    fn propagate(&mut self, stats: &mut Stats) -> Result<(), Conflict> {
        self.enforce_bound()?;
        self.prop.fixpoint(
            &self.problem.constraints,
            &self.problem.values,
            &mut self.st,
            stats,
        )
    }

    fn fill_values(&mut self) {
        for v in 0..self.values_buf.len() {
            self.values_buf[v] = self.problem.values[v].value(self.st.min_pos(v as u32));
        }
        debug_assert!(
            self.problem.is_solution(&self.values_buf),
            "search produced a non-solution"
        );
    }

    /// Pops frames until a refutation `x != v` propagates without conflict. `false` = tree exhausted.
    fn backtrack(&mut self, stats: &mut Stats, continuing: &mut Option<u32>) -> bool {
        while let Some(f) = self.frames.pop() {
            self.prop.pop_level(&mut self.st);
            self.st.blame = Conflict::DECISION;
            let refuted = match f.cut {
                Cut::Assign => self.st.remove(f.var, f.pos),
                Cut::Le => self.st.restrict(f.var, f.pos + 1, usize::MAX),
                Cut::Gt => self.st.restrict(f.var, 0, f.pos + 1),
            };
            if refuted.is_err() {
                stats.fails += 1;
                continue;
            }
            match self.propagate(stats) {
                Ok(()) => {
                    *continuing = Some(f.var);
                    return true;
                }
                Err(c) => {
                    stats.fails += 1;
                    self.br.on_conflict(c.constraint);
                }
            }
        }
        false
    }

    /// Propagates `assumptions` and describes the root: failed, solved, or the branching variable and its values.
    pub(crate) fn expand(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> Expansion {
        if self.start(assumptions, stats).is_err() {
            return Expansion::Failed;
        }
        if self.st.unassigned() == 0 {
            self.fill_values();
            return Expansion::Solution(self.values_buf.clone());
        }
        let Some(v) = self.br.select_var(&self.st, self.problem) else {
            return Expansion::Failed;
        };
        if self.st.is_interval(v) {
            return Expansion::Whole;
        }
        let vals = &self.problem.values[v as usize];
        // A split order cuts rather than picks: its children go lower half first (or upper half first).
        let first = match self.br.cut() {
            Cut::Assign => self.br.select_value(&self.st, self.problem, v),
            Cut::Le => self.st.min_pos(v),
            Cut::Gt => self.st.max_pos(v),
        };
        let mut values = vec![vals.value(first)];
        values.extend(
            self.st
                .dom(v)
                .iter()
                .filter(|&p| p != first)
                .map(|p| vals.value(p)),
        );
        match self.problem.var(v as usize) {
            Some(x) => Expansion::Branch(x, values),
            None => Expansion::Failed,
        }
    }
}

impl<D: Domain> Driven for Search<'_, D> {
    /// One clock read per 16 nodes is about 1 ns per node, against microseconds per node of this engine on
    /// FlatZinc models (and milliseconds on models with heavy propagation).
    const CHECK_EVERY: u64 = 16;

    fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    fn start_root(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> bool {
        match self.start(assumptions, stats) {
            Ok(()) => true,
            Err(c) => {
                self.br.on_conflict(c.constraint);
                false
            }
        }
    }

    fn is_solution(&mut self) -> bool {
        self.st.unassigned() == 0
    }

    fn select_var(&mut self) -> Option<u32> {
        self.br.select_var(&self.st, self.problem)
    }

    fn solution(&mut self) -> &[i64] {
        self.fill_values();
        if let Some((v, minimize)) = self.objective {
            // The next solution must be strictly better: positions are in value order.
            let p = self.st.min_pos(v);
            if minimize {
                self.bound.1 = p;
            } else {
                self.bound.0 = p + 1;
            }
        }
        &self.values_buf
    }

    fn decide(&mut self, v: u32, stats: &mut Stats) -> bool {
        let pos = self.br.select_value(&self.st, self.problem, v);
        // An interval branches by bounds: `x = lo` / `x = hi` as usual (their refutation is a bound), any other
        // value as the split `x <= pos` / `x > pos`. The split orders cut every domain.
        let cut = match self.br.cut() {
            Cut::Assign
                if self.st.is_interval(v) && {
                    let b = self.st.bounds(v);
                    pos != b.lo && pos != b.hi
                } =>
            {
                Cut::Le
            }
            cut => cut,
        };
        self.frames.push(Frame { var: v, pos, cut });
        self.prop.push_level(&mut self.st);
        self.st.blame = Conflict::DECISION;
        let decided = match cut {
            Cut::Assign => self.st.assign(v, pos),
            Cut::Le => self.st.restrict(v, 0, pos + 1),
            Cut::Gt => self.st.restrict(v, pos + 1, usize::MAX),
        };
        match decided.and_then(|_| self.propagate(stats)) {
            Ok(()) => true,
            Err(c) => {
                self.br.on_conflict(c.constraint);
                false
            }
        }
    }

    fn backtrack(&mut self, stats: &mut Stats, continuing: &mut Option<u32>) -> bool {
        Search::backtrack(self, stats, continuing)
    }

    fn backtrack_after_solution(
        &mut self,
        stats: &mut Stats,
        continuing: &mut Option<u32>,
    ) -> bool {
        if !self.listed.is_empty() {
            // Listed variables are branched on first, so the decisions on unlisted ones sit on top of the stack:
            // drop them with their alternatives, then refute the newest listed decision as usual.
            while self
                .frames
                .last()
                .is_some_and(|f| !self.listed[f.var as usize])
            {
                self.frames.pop();
                self.prop.pop_level(&mut self.st);
            }
        }
        Search::backtrack(self, stats, continuing)
    }

    fn depth(&self) -> usize {
        self.frames.len()
    }

    fn restart(&mut self) {
        self.prop.backtrack_to(&mut self.st, 0);
        self.frames.clear();
    }
}

/// The steps of a depth-first search with 2-way branching (`x = v`, then `x != v`) that both engines implement
/// (the general [`Search`] and the group kernel); [`drive`] runs the one loop around them: solutions, limits,
/// cancellation, restarts and statistics.
pub(crate) trait Driven {
    /// Nodes between two reads of the clock and the cancel flag (a power of two): [`Limits::CHECK_EVERY`] for
    /// fast searches; the general engine reads them every 16 nodes, since a node there can cost milliseconds.
    const CHECK_EVERY: u64 = Limits::CHECK_EVERY;
    /// The configuration (limits and restart policy are read from it).
    fn config(&self) -> &SearchConfig;
    /// Resets to the root with `assumptions` fixed and propagates; `false` when the root fails.
    fn start_root(&mut self, assumptions: &[(VarId, i64)], stats: &mut Stats) -> bool;
    /// True when every variable is assigned (the current state is a solution). Asked before the limits, so it
    /// must not consume randomness.
    fn is_solution(&mut self) -> bool;
    /// The variable to branch on (called only after `is_solution` said no); `None` only on an engine bug.
    fn select_var(&mut self) -> Option<u32>;
    /// The values of the current solution (called only after `is_solution` said yes).
    fn solution(&mut self) -> &[i64];
    /// Opens a level with `v` set to its first value and propagates; `false` on a conflict.
    fn decide(&mut self, v: u32, stats: &mut Stats) -> bool;
    /// Pops levels until a refutation `x != v` propagates (then `continuing = Some(x)`); `false` = tree exhausted.
    fn backtrack(&mut self, stats: &mut Stats, continuing: &mut Option<u32>) -> bool;
    /// After a solution: like `backtrack`, but an engine may skip the alternatives that cannot give a new
    /// solution (the general engine's `complete_rest_once`).
    fn backtrack_after_solution(
        &mut self,
        stats: &mut Stats,
        continuing: &mut Option<u32>,
    ) -> bool {
        self.backtrack(stats, continuing)
    }
    /// Number of open decision levels.
    fn depth(&self) -> usize;
    /// Undoes every level (a restart keeps what was refuted at the root).
    fn restart(&mut self);
}

/// Runs a search to the end, calling `on_solution` with the values of each solution until it breaks.
///
/// `restarts_allowed` must be false when every solution is wanted (a restart would revisit solutions).
pub(crate) fn drive<E: Driven>(
    e: &mut E,
    assumptions: &[(VarId, i64)],
    restarts_allowed: bool,
    stop: Option<&dyn Fn() -> bool>,
    on_solution: &mut dyn FnMut(&[i64]) -> ControlFlow<()>,
) -> (Outcome, Stats) {
    let mut d = Driver::new(e, restarts_allowed);
    loop {
        match d.next(e, assumptions, stop) {
            Some(values) => {
                if on_solution(values).is_break() {
                    d.stats.time = d.start.elapsed();
                    return (Outcome::Solved, d.stats);
                }
            }
            None => return (d.outcome.unwrap_or(Outcome::Unsatisfiable), d.stats),
        }
    }
}

/// The search loop as a resumable state machine: [`Driver::next`] runs to the next solution and returns, and
/// the following call resumes from it (backtracking out of the solution first). [`drive`] is a loop around it;
/// [`crate::Solver::solutions_iter`] is an `Iterator` around it. Both give the same search tree.
pub(crate) struct Driver {
    /// The root has been propagated.
    started: bool,
    /// The last call returned a solution: the next one starts by backtracking out of it.
    at_solution: bool,
    /// How the search ended, once it has (`next` then returns `None` for good).
    pub(crate) outcome: Option<Outcome>,
    /// Restart schedule (`Restarts::None` when restarts are not allowed).
    policy: RestartPolicy,
    /// Failures allowed before the next restart, if any.
    budget: Option<u64>,
    /// `stats.fails` at the last restart.
    fails_at_restart: u64,
    /// The variable whose refutation the last backtrack applied (its next decision is not a new guess).
    continuing: Option<u32>,
    /// Statistics so far (`time` updated whenever `next` returns).
    pub(crate) stats: Stats,
    /// When the search began.
    start: Instant,
}

impl Driver {
    pub(crate) fn new<E: Driven>(e: &E, restarts_allowed: bool) -> Self {
        let mut policy = RestartPolicy::new(if restarts_allowed {
            e.config().restarts
        } else {
            Restarts::None
        });
        let budget = policy.next_budget();
        Self {
            started: false,
            at_solution: false,
            outcome: None,
            policy,
            budget,
            fails_at_restart: 0,
            continuing: None,
            stats: Stats::default(),
            start: Instant::now(),
        }
    }

    /// Runs to the next solution (its values, counted in `stats.solutions`) or to the end (`None`, with
    /// `outcome` set). `e` and `assumptions` must be the same on every call.
    pub(crate) fn next<'e, E: Driven>(
        &mut self,
        e: &'e mut E,
        assumptions: &[(VarId, i64)],
        stop: Option<&dyn Fn() -> bool>,
    ) -> Option<&'e [i64]> {
        if self.outcome.is_some() {
            return None;
        }
        let found = self.run(e, assumptions, stop);
        self.stats.time = self.start.elapsed();
        if found {
            Some(e.solution())
        } else {
            None
        }
    }

    /// [`Driver::next`] without the values: true at a solution, false at the end.
    fn run<E: Driven>(
        &mut self,
        e: &mut E,
        assumptions: &[(VarId, i64)],
        stop: Option<&dyn Fn() -> bool>,
    ) -> bool {
        let stats = &mut self.stats;
        let exhausted = |stats: &Stats| {
            if stats.solutions > 0 {
                Outcome::Solved
            } else {
                Outcome::Unsatisfiable
            }
        };
        if !self.started {
            self.started = true;
            if !e.start_root(assumptions, stats) {
                stats.fails += 1;
                self.outcome = Some(Outcome::Unsatisfiable);
                return false;
            }
        }
        let mut continuing = self.continuing;
        if std::mem::take(&mut self.at_solution)
            && !e.backtrack_after_solution(stats, &mut continuing)
        {
            self.outcome = Some(exhausted(stats));
            return false;
        }
        let (mut budget, mut fails_at_restart) = (self.budget, self.fails_at_restart);
        let outcome = loop {
            if e.is_solution() {
                stats.solutions += 1;
                self.at_solution = true;
                self.continuing = continuing;
                self.budget = budget;
                self.fails_at_restart = fails_at_restart;
                return true;
            }
            if let Some(kind) =
                e.config()
                    .limits
                    .exceeded_every(stats.nodes, self.start, E::CHECK_EVERY)
            {
                break Outcome::Limit(kind);
            }
            if let Some(should_stop) = stop {
                if stats.nodes & 255 == 0 && should_stop() {
                    break Outcome::Limit(LimitKind::Cancelled);
                }
            }
            if let Some(b) = budget {
                if stats.fails - fails_at_restart >= b && e.depth() > 0 {
                    e.restart();
                    stats.restarts += 1;
                    fails_at_restart = stats.fails;
                    budget = self.policy.next_budget();
                    continuing = None;
                    continue;
                }
            }
            let Some(v) = e.select_var() else {
                // Unreachable while variables are unassigned; treated as exhausted rather than a panic.
                break exhausted(stats);
            };
            stats.nodes += 1;
            if continuing != Some(v) {
                stats.guesses += 1;
            }
            continuing = None;
            let ok = e.decide(v, stats);
            stats.max_depth = stats.max_depth.max(e.depth() as u64);
            if !ok {
                stats.fails += 1;
                if !e.backtrack(stats, &mut continuing) {
                    break exhausted(stats);
                }
            }
        };
        self.outcome = Some(outcome);
        false
    }
}

#[cfg(test)]
mod tests {
    //! The search loop's bookkeeping on trees small enough to follow by hand (input order, ascending values,
    //! forward checking, the general engine): which solutions come in which order, and what `Stats` counts.
    //! The brute-force cross-checks (`tests/cross_check.rs`, the `engine` fuzz target) check answers on random
    //! models; these pin the counters and the branch and bound, restart and phase paths they do not look at.
    #![allow(clippy::unwrap_used)]

    use std::ops::ControlFlow;

    use super::Expansion;
    use crate::stats::Stats;
    use crate::{
        LimitKind, Limits, Model, Objective, OptOutcome, Outcome, Relation, Restarts, SearchConfig,
        Solver, ValueOrder, VarId, VarOrder,
    };

    fn in_input_order() -> SearchConfig {
        SearchConfig::default()
            .var_order(VarOrder::Input)
            .value_order(ValueOrder::Ascending)
            .generic_engine(true)
    }

    /// `x` in 0..=2 and `y` in 0..=1, nothing else.
    fn free_pair() -> (crate::Problem, VarId, VarId) {
        let mut m = Model::new();
        let x = m.new_var(0, 2).unwrap();
        let y = m.new_var(0, 1).unwrap();
        (m.build().unwrap(), x, y)
    }

    fn all_solutions(s: &mut Solver<'_>) -> (Vec<Vec<i64>>, Outcome, Stats) {
        let mut out = Vec::new();
        let (outcome, stats) = s.for_each_solution(&[], |sol| {
            out.push(sol.values().to_vec());
            ControlFlow::Continue(())
        });
        (out, outcome, stats)
    }

    #[test]
    fn a_search_over_two_free_variables_counts_five_nodes_four_guesses_and_six_solutions() {
        // x=0 (node 1, guess) -> y=0 (node 2, guess): (0,0); y!=0 fixes y: (0,1). x!=0 leaves {1,2}: x=1 again
        // (node 3, not a guess: the refuted variable goes on) -> y=0 (node 4, guess): (1,0), (1,1). x!=1 fixes
        // x=2 -> y=0 (node 5, guess): (2,0), (2,1). No failure, two levels at most.
        let (p, _, _) = free_pair();
        let mut s = Solver::new(&p, in_input_order());
        let (sols, outcome, stats) = all_solutions(&mut s);
        let expected: Vec<Vec<i64>> = vec![
            vec![0, 0],
            vec![0, 1],
            vec![1, 0],
            vec![1, 1],
            vec![2, 0],
            vec![2, 1],
        ];
        assert_eq!(sols, expected);
        assert_eq!(outcome, Outcome::Solved);
        assert_eq!(
            (
                stats.solutions,
                stats.nodes,
                stats.guesses,
                stats.fails,
                stats.max_depth
            ),
            (6, 5, 4, 0, 2)
        );
        assert_eq!(stats.restarts, 0);
        // The lazy iterator walks the same tree, one solution per call.
        let mut s = Solver::new(&p, in_input_order());
        let mut it = s.solutions_iter(&[]);
        let mut lazy = Vec::new();
        for sol in it.by_ref() {
            lazy.push(sol.values().to_vec());
        }
        assert_eq!(lazy, expected);
        assert_eq!(it.outcome(), Some(Outcome::Solved));
        assert_eq!((it.stats().nodes, it.stats().solutions), (5, 6));
    }

    #[test]
    fn three_pairwise_different_booleans_fail_twice_and_are_proved_unsatisfiable() {
        // x=0 (node 1) fixes y=z=1: conflict. x!=0 fixes x=1, so y=z=0: conflict, and no decision is left.
        let mut m = Model::new();
        let b: Vec<VarId> = (0..3).map(|_| m.new_var(0, 1).unwrap()).collect();
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            m.not_equal(b[i], b[j], 0).unwrap();
        }
        let p = m.build().unwrap();
        let mut s = Solver::new(&p, in_input_order());
        let r = s.count(&[], u64::MAX);
        assert_eq!((r.count, r.outcome), (0, Outcome::Unsatisfiable));
        assert_eq!(
            (
                r.stats.nodes,
                r.stats.guesses,
                r.stats.fails,
                r.stats.max_depth
            ),
            (1, 1, 2, 1)
        );
        // A root that fails counts one failure and no node.
        let r = s.count(&[(b[0], 0), (b[1], 0)], u64::MAX);
        assert_eq!((r.count, r.outcome), (0, Outcome::Unsatisfiable));
        assert_eq!((r.stats.nodes, r.stats.fails), (0, 1));
    }

    #[test]
    fn a_node_limit_stops_the_search_with_the_solutions_found_so_far_and_never_claims_unsatisfiable(
    ) {
        let (p, _, _) = free_pair();
        for (nodes, found) in [(0u64, 0usize), (1, 0), (2, 2), (4, 4), (5, 6)] {
            let cfg = in_input_order().limits(Limits::none().with_nodes(nodes));
            let mut s = Solver::new(&p, cfg);
            let (sols, outcome, stats) = all_solutions(&mut s);
            assert_eq!(sols.len(), found, "limit {nodes}");
            if nodes < 5 {
                assert_eq!(outcome, Outcome::Limit(LimitKind::Nodes), "limit {nodes}");
            } else {
                assert_eq!(outcome, Outcome::Solved);
            }
            assert!(stats.nodes <= nodes);
        }
        // The same through `solve`: a limit before the first solution is not a proof.
        let mut s = Solver::new(&p, in_input_order().limits(Limits::none().with_nodes(1)));
        let r = s.solve(&[]);
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::Nodes));
        assert!(r.solution.is_none());
    }

    /// `x`, `y` in 0..=5 with `x + y >= 7` and `x != y`: the smallest `x` is 2, the largest 5.
    fn bounded_pair() -> (crate::Problem, VarId, VarId) {
        let mut m = Model::new();
        let x = m.new_var(0, 5).unwrap();
        let y = m.new_var(0, 5).unwrap();
        m.linear(&[(1, x), (1, y)], Relation::Ge, 7).unwrap();
        m.not_equal(x, y, 0).unwrap();
        (m.build().unwrap(), x, y)
    }

    #[test]
    fn branch_and_bound_finds_each_optimum_through_strictly_improving_solutions() {
        let (p, x, y) = bounded_pair();
        for (order, minimize, optimum) in [
            (ValueOrder::Descending, true, 2),
            (ValueOrder::Ascending, false, 5),
            (ValueOrder::Ascending, true, 2),
        ] {
            let cfg = in_input_order()
                .var_order(VarOrder::Input)
                .value_order(order);
            let mut s = Solver::new(&p, cfg);
            let objective = if minimize {
                Objective::Minimize(x)
            } else {
                Objective::Maximize(x)
            };
            let mut seen = Vec::new();
            let r = s
                .optimize(&[], objective, |sol, v| {
                    assert!(p.is_solution(sol.values()));
                    assert_eq!(sol.value(x), v);
                    seen.push(v);
                    ControlFlow::Continue(())
                })
                .unwrap();
            assert_eq!(r.outcome, OptOutcome::Optimal);
            assert_eq!(r.objective, Some(optimum));
            assert_eq!(r.improvements as usize, seen.len());
            assert!(
                seen.windows(2)
                    .all(|w| if minimize { w[1] < w[0] } else { w[1] > w[0] }),
                "{seen:?}"
            );
            // Descending values for a minimum walk down from the top: more than one improvement.
            if order == ValueOrder::Descending {
                assert!(seen.len() > 1, "{seen:?}");
            }
            let best = r.best.unwrap();
            assert_eq!(best.value(x), optimum);
            assert!(best.value(x) + best.value(y) >= 7);
        }
    }

    #[test]
    fn restarts_keep_the_search_complete_and_are_counted() {
        // Four pigeons in three holes (pairwise !=, which forward checking only sees late): unsatisfiable after
        // failures enough for a Luby budget of one failure to restart several times.
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..4).map(|_| m.new_var(0, 2).unwrap()).collect();
        for i in 0..4 {
            for j in i + 1..4 {
                m.not_equal(xs[i], xs[j], 0).unwrap();
            }
        }
        let p = m.build().unwrap();
        let cfg = in_input_order().restarts(Restarts::Luby { scale: 1 });
        let mut s = Solver::new(&p, cfg.clone());
        let r = s.solve(&[]);
        assert_eq!(r.outcome, Outcome::Unsatisfiable);
        assert!(r.stats.restarts > 0, "{:?}", r.stats);
        // Without restarts the same tree is walked once.
        let mut s = Solver::new(&p, in_input_order());
        let plain = s.solve(&[]);
        assert_eq!(plain.outcome, Outcome::Unsatisfiable);
        assert_eq!(plain.stats.restarts, 0);
        assert!(r.stats.nodes > plain.stats.nodes);
        // A satisfiable model under restarts still gets a verified solution.
        let (q, _, _) = bounded_pair();
        let mut s = Solver::new(&q, cfg);
        let r = s.solve(&[]);
        assert_eq!(r.outcome, Outcome::Solved);
        assert!(q.is_solution(r.solution.unwrap().values()));
    }

    #[test]
    fn completing_the_unlisted_variables_once_gives_one_solution_per_listed_assignment() {
        let (p, x, y) = free_pair();
        let cfg = in_input_order()
            .phase(&[x], VarOrder::Input, ValueOrder::Descending)
            .complete_rest_once(true);
        let mut s = Solver::new(&p, cfg);
        let (sols, outcome, _) = all_solutions(&mut s);
        assert_eq!(sols, vec![vec![2, 0], vec![1, 0], vec![0, 0]]);
        assert_eq!(outcome, Outcome::Solved);
        // Listing `y` instead: one solution per value of `y`, `x` completed once.
        let cfg = in_input_order()
            .phase(&[y], VarOrder::Input, ValueOrder::Ascending)
            .complete_rest_once(true);
        let mut s = Solver::new(&p, cfg);
        assert_eq!(all_solutions(&mut s).0, vec![vec![0, 0], vec![0, 1]]);
    }

    #[test]
    fn expanding_a_root_reports_failure_a_forced_solution_or_the_branching_values_in_order() {
        let (p, x, y) = bounded_pair();
        let mut stats = Stats::default();
        let mut s = Solver::new(&p, in_input_order());
        assert!(matches!(s.expand(&[(x, 0)], &mut stats), Expansion::Failed));
        match s.expand(&[(x, 2)], &mut stats) {
            Expansion::Solution(v) => assert_eq!(v, vec![2, 5]),
            e => panic!("x = 2 forces y = 5, got {e:?}"),
        }
        match s.expand(&[], &mut stats) {
            Expansion::Branch(v, values) => {
                assert_eq!(v, x);
                assert_eq!(values, vec![2, 3, 4, 5]);
            }
            e => panic!("expected a branch on x, got {e:?}"),
        }
        let cfg = in_input_order().value_order(ValueOrder::Descending);
        let mut s = Solver::new(&p, cfg);
        match s.expand(&[(y, 3)], &mut stats) {
            Expansion::Branch(v, values) => {
                assert_eq!(v, x);
                assert_eq!(values, vec![5, 4]);
            }
            e => panic!("expected a branch on x, got {e:?}"),
        }
        // A split order lists the lower half's first value first, the reverse split the upper one's.
        for (order, first) in [(ValueOrder::Split, 2), (ValueOrder::ReverseSplit, 5)] {
            let mut s = Solver::new(&p, in_input_order().value_order(order));
            match s.expand(&[], &mut stats) {
                Expansion::Branch(_, values) => assert_eq!(values[0], first, "{order:?}"),
                e => panic!("expected a branch, got {e:?}"),
            }
        }
        // An interval variable cannot be listed value by value.
        let mut m = Model::new();
        let z = m.new_interval_var(0, 1000).unwrap();
        let w = m.new_var(0, 3).unwrap();
        m.linear(&[(1, z), (1, w)], Relation::Ge, 10).unwrap();
        let q = m.build().unwrap();
        let mut s = Solver::new(&q, in_input_order());
        assert!(matches!(s.expand(&[], &mut stats), Expansion::Whole));
    }

    #[test]
    fn an_interval_variable_is_split_at_a_value_inside_it_and_every_solution_is_still_found() {
        // z in 0..=40 as an interval, w in 0..=3, z + w == 20 and z != 18: the median order picks inner values of
        // z, which must become splits (an interval cannot lose an inner value), and the count stays exact.
        let mut m = Model::new();
        let z = m.new_interval_var(0, 40).unwrap();
        let w = m.new_var(0, 3).unwrap();
        m.linear(&[(1, z), (1, w)], Relation::Eq, 20).unwrap();
        m.linear(&[(1, z)], Relation::Ne, 18).unwrap();
        let q = m.build().unwrap();
        for order in [
            ValueOrder::Median,
            ValueOrder::Ascending,
            ValueOrder::Descending,
        ] {
            let mut s = Solver::new(&q, in_input_order().value_order(order));
            let (mut sols, outcome, _) = all_solutions(&mut s);
            sols.sort();
            assert_eq!(
                sols,
                vec![vec![17, 3], vec![19, 1], vec![20, 0]],
                "{order:?}"
            );
            assert_eq!(outcome, Outcome::Solved);
        }
    }

    #[test]
    fn a_solver_reports_the_configuration_it_was_given_and_set_limits_replaces_the_limits_only() {
        let (p, _, _) = free_pair();
        let cfg = in_input_order().value_order(ValueOrder::Descending).seed(7);
        let mut s = Solver::new(&p, cfg);
        assert_eq!(s.config().var_order, VarOrder::Input);
        assert_eq!(s.config().value_order, ValueOrder::Descending);
        assert_eq!(s.config().seed, 7);
        // A node limit set on the built solver stops the next search, and lifting it lets the search finish.
        s.set_limits(Limits::none().with_nodes(1));
        let (sols, outcome, _) = all_solutions(&mut s);
        assert_eq!((sols.len(), outcome), (0, Outcome::Limit(LimitKind::Nodes)));
        s.set_limits(Limits::none());
        let (sols, outcome, _) = all_solutions(&mut s);
        assert_eq!((sols.len(), outcome), (6, Outcome::Solved));
        // The values are still descending: only the limits changed.
        assert_eq!(sols[0], vec![2, 1]);
    }

    /// Every assignment of `p` over the given value lists that `p` accepts, in lexicographic order.
    fn brute_force(p: &crate::Problem, lists: &[Vec<i64>]) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        let mut cur = vec![0usize; lists.len()];
        loop {
            let vals: Vec<i64> = cur.iter().zip(lists).map(|(&i, l)| l[i]).collect();
            if p.is_solution(&vals) {
                out.push(vals);
            }
            let mut k = lists.len();
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                cur[k] += 1;
                if cur[k] < lists[k].len() {
                    break;
                }
                cur[k] = 0;
            }
        }
    }

    #[test]
    fn every_value_order_enumerates_each_solution_exactly_once_on_bitsets_with_holes_and_intervals()
    {
        // x: 0 2 3 5 6 9 (holes), y: the interval 0..=9, z in 0..=3; x + y + z == 9 and x != y + 1. The split
        // orders cut x and z below or above their middle value, any inner value of y is a split, and every cut
        // and its refutation must cover the domain exactly once.
        let mut m = Model::new();
        let xs = [0, 2, 3, 5, 6, 9];
        let x = m.new_var_with_values(&xs).unwrap();
        let y = m.new_interval_var(0, 9).unwrap();
        let z = m.new_var(0, 3).unwrap();
        m.linear(&[(1, x), (1, y), (1, z)], Relation::Eq, 9)
            .unwrap();
        m.linear(&[(1, x), (-1, y)], Relation::Ne, 1).unwrap();
        let p = m.build().unwrap();
        let expected = brute_force(&p, &[xs.to_vec(), (0..=9).collect(), (0..=3).collect()]);
        assert!(expected.len() > 10, "{expected:?}");
        for var_order in [VarOrder::Input, VarOrder::AntiFirstFail] {
            for order in ValueOrder::ALL {
                // A node limit far above the tree's size turns a search that loops into a clean failure.
                let cfg = in_input_order()
                    .var_order(var_order)
                    .value_order(order)
                    .limits(Limits::none().with_nodes(10_000));
                let mut s = Solver::new(&p, cfg);
                let (mut sols, outcome, _) = all_solutions(&mut s);
                sols.sort();
                assert_eq!(sols, expected, "{var_order:?} {order:?}");
                assert_eq!(outcome, Outcome::Solved);
            }
        }
    }

    #[test]
    fn the_group_kernel_walks_from_each_solution_to_the_next_and_finds_every_permutation() {
        // One all_different over four variables of 1..=4: the copy-on-branch group kernel's case.
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..4).map(|_| m.new_var(1, 4).unwrap()).collect();
        m.all_different(&xs).unwrap();
        let p = m.build().unwrap();
        let cfg = SearchConfig::default().limits(Limits::none().with_nodes(10_000));
        let mut s = Solver::new(&p, cfg);
        assert_eq!(s.engine(), crate::EngineKind::Groups);
        let (mut sols, outcome, stats) = all_solutions(&mut s);
        assert_eq!(
            (sols.len(), outcome, stats.solutions),
            (24, Outcome::Solved, 24)
        );
        sols.sort();
        sols.dedup();
        assert_eq!(sols.len(), 24);
        assert!(sols.iter().all(|v| p.is_solution(v)));
        let r = s.count(&[], 5);
        assert_eq!(r.count, 5);
    }

    #[test]
    fn the_stop_callback_is_asked_every_256_nodes_and_cancels_the_search() {
        // Ten free Booleans: 1,023 decisions to enumerate the 1,024 assignments.
        let mut m = Model::new();
        for _ in 0..10 {
            m.new_var(0, 1).unwrap();
        }
        let p = m.build().unwrap();
        let mut s = Solver::new(&p, in_input_order());
        // Never stopping: the whole tree, the callback asked at nodes 0, 256, 512 and 768.
        let calls = std::cell::Cell::new(0u32);
        let never = || {
            calls.set(calls.get() + 1);
            false
        };
        let r = s.count_with_stop(&[], u64::MAX, Some(&never));
        assert_eq!(
            (r.count, r.outcome, r.stats.nodes),
            (1024, Outcome::Solved, 1023)
        );
        assert!((4..=8).contains(&calls.get()), "{} calls", calls.get());
        // Stopping at the first question: nothing searched, and not a proof.
        let r = s.count_with_stop(&[], u64::MAX, Some(&|| true));
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::Cancelled));
        assert_eq!((r.count, r.stats.nodes), (0, 0));
        // Stopping at the second question: after exactly 256 decisions.
        calls.set(0);
        let second = || {
            calls.set(calls.get() + 1);
            calls.get() >= 2
        };
        let r = s.count_with_stop(&[], u64::MAX, Some(&second));
        assert_eq!(r.outcome, Outcome::Limit(LimitKind::Cancelled));
        assert_eq!((r.stats.nodes, calls.get()), (256, 2));
    }

    #[test]
    fn restarts_happen_when_the_failures_since_the_last_one_reach_the_luby_budget() {
        // Five pigeons, four holes. The counts are this tree's under budgets of 1, 1, 2, 1, 1, 2, 4, ... failures
        // times the scale (pinned: any change to when a restart fires, or to how restarts and failures are
        // counted, changes them).
        let mut m = Model::new();
        let xs: Vec<VarId> = (0..5).map(|_| m.new_var(0, 3).unwrap()).collect();
        for i in 0..5 {
            for j in i + 1..5 {
                m.not_equal(xs[i], xs[j], 0).unwrap();
            }
        }
        let p = m.build().unwrap();
        for (scale, want) in [(1u64, (30u64, 92u64, 121u64)), (2, (14, 60, 73))] {
            let cfg = in_input_order().restarts(Restarts::Luby { scale });
            let mut s = Solver::new(&p, cfg);
            let r = s.solve(&[]);
            assert_eq!(r.outcome, Outcome::Unsatisfiable);
            assert_eq!(
                (r.stats.restarts, r.stats.fails, r.stats.nodes),
                want,
                "scale {scale}"
            );
        }
    }
}
