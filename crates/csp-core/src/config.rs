//! The search configuration: strategy, propagation level, randomness, restarts and limits.

use crate::heuristics::{Restarts, ValueOrder, VarOrder};
use crate::ids::VarId;
use crate::limits::Limits;
use crate::propagate::Propagation;

/// How a [`crate::Solver`] searches. Defaults: MRV, ascending values, forward checking, no random ties, seed 0,
/// no restarts, no limits.
#[derive(Clone, Debug, Default)]
pub struct SearchConfig {
    /// Variable order.
    pub var_order: VarOrder,
    /// Value order.
    pub value_order: ValueOrder,
    /// Propagation level.
    pub propagation: Propagation,
    /// Break variable-order ties at random (seeded) instead of by lowest id.
    pub random_ties: bool,
    /// Seed of the random generator (random values, random ties); reseeded at every solve.
    pub seed: u64,
    /// At the `Singles` level, also run locked-candidate reasoning between overlapping permutation groups
    /// (see [`crate::constraints::Intersection`]). Off by default.
    pub intersections: bool,
    /// Restart policy (used when looking for one solution; counting and enumeration never restart).
    pub restarts: Restarts,
    /// Node / time / cancel limits of each solve.
    pub limits: Limits,
    /// Run the model on the general trail-based engine even when the copy-on-branch group kernel could take it
    /// (models made only of aligned `all_different` groups on domains of at most 64 values; see
    /// [`crate::Solver::engine`]). Both give the same search tree; this switch exists for comparisons and tests.
    pub generic_engine: bool,
    /// Search phases (MiniZinc's `seq_search` of `int_search`es): the search branches on the first phase's
    /// variables with its orders until they are all assigned, then on the next phase's, and finally on the
    /// variables no phase lists, with `var_order` / `value_order`. Empty (the default): one phase of every variable.
    pub phases: Vec<Phase>,
    /// Only *complete* the variables no phase lists: after each solution the search skips the rest of their
    /// subtree (it backtracks past their decisions to the newest decision on a listed variable), so every
    /// assignment of the listed variables yields at most one solution, and `count` / `for_each_solution` count
    /// and enumerate assignments of the listed variables (MiniZinc's `-a` over the output variables, with the
    /// solver's helper variables completed once, as Gecode's FlatZinc brancher on introduced variables does).
    /// Without phases the first solution is the only one. With an objective, list it in a phase (otherwise a
    /// better completion of the same listed assignment is never looked at). Sequential: `parallel::count` runs
    /// such a configuration on one thread. Off by default.
    pub complete_rest_once: bool,
}

/// One phase of a phased search: a group of variables and the orders used on them.
#[derive(Clone, Debug)]
pub struct Phase {
    /// The variables (a variable of another model is ignored).
    pub vars: Vec<VarId>,
    /// Variable order within the group.
    pub var_order: VarOrder,
    /// Value order for the group's variables.
    pub value_order: ValueOrder,
}

impl SearchConfig {
    /// Sets the variable order.
    pub fn var_order(mut self, v: VarOrder) -> Self {
        self.var_order = v;
        self
    }

    /// Sets the value order.
    pub fn value_order(mut self, v: ValueOrder) -> Self {
        self.value_order = v;
        self
    }

    /// Sets the propagation level.
    pub fn propagation(mut self, p: Propagation) -> Self {
        self.propagation = p;
        self
    }

    /// Turns random tie-breaking on or off.
    pub fn random_ties(mut self, on: bool) -> Self {
        self.random_ties = on;
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Turns locked-candidate reasoning between overlapping permutation groups on or off (`Singles` level only).
    pub fn intersections(mut self, on: bool) -> Self {
        self.intersections = on;
        self
    }

    /// Sets the restart policy.
    pub fn restarts(mut self, r: Restarts) -> Self {
        self.restarts = r;
        self
    }

    /// Sets the limits.
    pub fn limits(mut self, l: Limits) -> Self {
        self.limits = l;
        self
    }

    /// Appends a search phase: branch on `vars` with these orders once the earlier phases are assigned. Phased
    /// searches run on the general engine.
    pub fn phase(mut self, vars: &[VarId], var_order: VarOrder, value_order: ValueOrder) -> Self {
        self.phases.push(Phase {
            vars: vars.to_vec(),
            var_order,
            value_order,
        });
        self
    }

    /// Completes the variables no phase lists only once per assignment of the listed ones (see
    /// [`SearchConfig::complete_rest_once`]).
    pub fn complete_rest_once(mut self, on: bool) -> Self {
        self.complete_rest_once = on;
        self
    }

    /// Forces the general engine (`true`) or lets the solver pick the group kernel where it applies (`false`, the
    /// default).
    pub fn generic_engine(mut self, on: bool) -> Self {
        self.generic_engine = on;
        self
    }
}
