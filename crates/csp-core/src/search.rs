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
