//! Constraints: one file per kind, each implementing the open propagator interface below.
//!
//! Variables are plain `u32` indexes here (the model has already checked them) and domains are read through
//! [`State`]; values are mapped to domain positions with the problem's [`Values`] tables.
//!
//! # The propagator interface
//! A constraint is two traits, written in its own file:
//! - [`Constraint`] (representation-independent): its `name`, its scope (`vars`), a brute-force `is_satisfied`
//!   (the checker used for ground checks at [`Propagation::None`], for debug checks of every solution, and by the
//!   test oracle), the event that wakes it ([`Trigger`]: assigned / bounds changed / any domain change), its cost
//!   class ([`Cost`]) for the scheduler, whether it wants the per-assignment hook, and how many trailed words it
//!   keeps ([`Constraint::place`]).
//! - [`Propagate<D>`] for every domain representation `D` (written once, generic in `D`): the hooks the engine
//!   calls: `propagate` (scheduled when a subscribed event happens; also once at the root, which is the initial
//!   propagation after posting), `on_fixed(pos)` (Gecode's advisor / MiniSat's watch: the variable at scope
//!   position `pos` was just assigned; runs at once, before any scheduled propagator), `removals_if_fixed`
//!   (value-order hint) and `check_partial` (place-then-check at level `None`).
//!
//! A posted constraint is stored as a `Box<dyn Posted>` (one vtable holding the three representations' hooks);
//! the monomorphised search reaches the `D` hooks through [`Domain::view`], so a propagator call costs one indirect
//! call, as the `match` of the closed enum it replaces did.
//!
//! Design notes (2026-11-25). The closed enum with one `match` per hook (five kinds, eight methods) was replaced
//! by this trait pair so a constraint is one file plus one posting method; Gecode's `Propagator` (propagate,
//! subscriptions with propagation conditions PC_INT_VAL / BND / DOM, cost classes), Pumpkin's `Propagator`
//! (initialise at root, notify, propagate, a debug from-scratch propagation) and MiniSat's watch lists were the
//! models. The group kernel (`kernel.rs`) and the merged peer lists of [`crate::propagate`] keep their dense
//! `all_different` paths; they recognise the groups they take over by downcasting ([`as_all_different`]).
//!
//! Measured cost of the switch (callgrind total instructions, same inputs, before -> after, 2026-11-25):
//!
//! | command                                                                    | before  | after   |        |
//! |----------------------------------------------------------------------------|--------:|--------:|-------:|
//! | `sudoku_rate 17_clue(first 1000) 1000 count singles` (group kernel)        | 72.44 M | 72.45 M |  +0.0% |
//! | the same with `generic` (general engine)                                   | 178.2 M | 183.5 M |  +3.0% |
//! | `puzzles queens 1000` (general engine, bitvec domains, MRV)                | 156.2 M | 161.2 M |  +3.2% |
//! | `puzzles color datasets/puzzles/color/queen8_8.col` (dom/wdeg)              | 348.7 M | 341.0 M |  -2.2% |
//! | `sudoku_rate forum_hardest_1905_11plus(first 300) 300 count singles` (kernel)| 260.19 M| 260.19 M|  +0.0% |
//!
//! "Before" is `e06b822` (main when this work started), "after" the branch with Booleans, reification,
//! arithmetic, optimisation, the globals and phased search (`e2e8f4f`; forum_hardest measured at `62a6044`); node
//! counts and outputs are identical on every run.
//!
//! The +3% on queens is `all_different::on_fixed` no longer inlined into the fixpoint loop (one indirect call per
//! assignment event); within the 5% the issue allows, and the price of an open set of constraints.
//!
//! # How to add a constraint
//! 1. Write `constraints/my_rule.rs` with a struct holding its scope (`vars: Vec<u32>`) and data, `impl Constraint`
//!    (name, vars, is_satisfied, trigger, cost) and `impl<D: Domain> Propagate<D>` with `propagate` and/or
//!    `on_fixed` taking `&mut State<D>`; return `Err(st.conflict())` (or let `?` carry one from a domain
//!    operation) when the rule fails. Every domain change must go through `State` methods so it is trailed. A rule
//!    that keeps state between calls (counters, bitsets) cannot store it in the constraint, which is shared by every
//!    search: it reserves words in the trailed store ([`crate::trailed`]) in [`Constraint::place`], as `Table`
//!    does, and reads and writes them through `State::cstate`, so undo restores them with the domains.
//!    Buffers a call needs (a list of positions to drop, flags per node) are borrowed from the search state with
//!    `util::take_order` and handed back with `util::give_order`; answer their largest size in
//!    [`Constraint::work_len`], so the search reserves it once and propagation never allocates
//!    (`tests/allocations.rs` counts allocations per node).
//! 2. Add a posting method on [`crate::Model`] that validates user input and returns `ModelError`s, and calls
//!    `Model::post` (the one registration point; a user outside this crate calls `Model::post` directly).
//! 3. Add the kind to the per-propagator soundness test (`constraints/soundness.rs`, one `Case` line: random
//!    small domains, root and incremental propagation against enumeration, assigned tuples against the checker)
//!    and to the random generator of `tests/cross_check.rs` (solution sets against enumeration under every
//!    heuristic and level, and branch and bound against the enumerated optimum).
//!
//! A rule must be sound (never remove a value that belongs to a solution of the constraint) and complete on ground
//! scopes (when every variable is fixed it must fail exactly when `is_satisfied` is false).

mod all_different;
mod all_different_bounds;
mod all_different_domain;
mod arith;
mod boolean;
mod count;
mod cumulative;
mod difference;
mod element;
mod equal;
mod globals;
mod intersection;
mod inverse;
mod linear;
mod not_equal;
mod reified;
#[cfg(test)]
pub(crate) mod soundness;
mod table;
mod util;

pub(crate) use all_different::hidden_singles_one_word;
pub(crate) use util::set_value;

pub use all_different::{AllDifferent, AllDifferentLevel};
pub use all_different_bounds::AllDifferentBounds;
pub use all_different_domain::AllDifferentDomain;
pub use arith::{Arith, ArithOp, Extremum};
pub use boolean::{Clause, Parity};
pub use count::{Count, CountVar};
pub use cumulative::Cumulative;
pub use difference::ReifiedDifference;
pub use element::{Element, ElementVar};
pub use equal::Equal;
pub use globals::{Circuit, Lex, Regular};
pub use intersection::Intersection;
pub use inverse::Inverse;
pub use linear::{Linear, Relation};
pub use not_equal::NotEqual;
pub use reified::{Reification, ReifiedLinear};
pub use table::Table;

use std::any::Any;
use std::fmt::Debug;

use crate::domain::{Domain, PerRepresentation, WideDomain};
use crate::state::{Conflict, State};
use crate::trailed::Layout;
use crate::values::Values;

/// How much inference runs after each decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Propagation {
    /// Place then check: after each assignment, every constraint on the variable checks its assigned part
    /// (`all_different`: no value repeated among its assigned members; other constraints: once all their variables
    /// are assigned). No value is ever removed, so this is the naive baseline.
    None,
    /// Forward checking: an assigned value is removed from its peers (`all_different`, `not_equal`); the other
    /// constraints run their propagators on every subscribed event.
    #[default]
    ForwardChecking,
    /// Forward checking plus hidden singles (and the pigeonhole test) in `all_different` groups.
    Singles,
}

/// The event on a scope variable that schedules a constraint's [`Propagate::propagate`] (Gecode's propagation
/// conditions). Each implies the ones before it: an assignment changes the bounds, a bounds change the domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Trigger {
    /// The variable became assigned.
    Fixed,
    /// The smallest or the largest value of the variable changed.
    Bounds,
    /// Any value of the variable was removed.
    Domain,
}

/// Cost class of one `propagate` call: the scheduler runs every pending cheaper class first (Gecode's
/// PC_UNARY .. PC_CRAZY, reduced to three).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cost {
    /// Constant or binary work (`equal`, reified comparisons, Boolean clauses).
    Cheap = 0,
    /// Linear in the scope (sums, element, `all_different` singles).
    Linear = 1,
    /// More than linear (tables, global constraints with graph algorithms).
    Expensive = 2,
}

/// The representation-independent side of a constraint: what it is and when it wants to run.
pub trait Constraint: Debug + Send + Sync + Any {
    /// Short name for messages and statistics (`"linear"`, `"table"`, ...).
    fn name(&self) -> &'static str;
    /// The scope (may repeat a variable if the user did).
    fn vars(&self) -> &[u32];
    /// Brute-force truth under the full assignment `value_of`: the checker.
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool;
    /// The event on any scope variable that schedules `propagate` at this level; `None` = never scheduled.
    fn trigger(&self, level: Propagation) -> Option<Trigger> {
        let _ = level;
        Some(Trigger::Domain)
    }
    /// True when `on_fixed` should run at each assignment of a scope variable (at levels above `None`).
    fn fixed_rule(&self) -> bool {
        false
    }
    /// Cost class of `propagate`.
    fn cost(&self) -> Cost {
        Cost::Linear
    }
    /// True when one `propagate` call always reaches this constraint's own fixpoint, so the removals it makes
    /// need not schedule it again (Gecode's `ES_FIX`). Default `false`: the scheduler wakes a constraint on its
    /// own changes, which is always sound.
    fn idempotent(&self) -> bool {
        false
    }
    /// Reserves the words this constraint keeps in the trailed store (called once, when the model is built).
    fn place(&mut self, layout: &mut Layout) {
        let _ = layout;
    }
    /// Scratch domains `propagate` needs in `State::scratch` (one per scope position for tables).
    fn scratch(&self) -> usize {
        0
    }
    /// Scratch indexes `propagate` borrows from `State::order` (through `util::take_order`), at most: the search
    /// reserves the largest answer of the model when it starts, so propagation never allocates.
    fn work_len(&self, values: &[Values]) -> usize {
        let _ = values;
        0
    }
    /// True when the hooks reach scope domains only through `State::min_pos` / `max_pos` / `contains` and the
    /// mutators (never `dom()` or words), so scope variables may be intervals ([`crate::Model::new_interval_var`]).
    /// [`crate::Model::post`] refuses a constraint that answers `false` on an interval with
    /// [`crate::ModelError::NeedsEnumerable`].
    fn accepts_intervals(&self) -> bool {
        false
    }
}

/// The hooks of a constraint on domain representation `D` (implement once, generic in `D`).
pub trait Propagate<D: Domain>: Constraint {
    /// Filtering after a subscribed event on some scope variable (and once at the root).
    #[inline]
    fn propagate(&self, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let _ = (st, values);
        Ok(())
    }

    /// Forward checking after the variable at scope position `pos` became assigned (if [`Constraint::fixed_rule`]).
    #[inline]
    fn on_fixed(&self, pos: usize, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        let _ = (pos, st, values);
        Ok(())
    }

    /// Values unassigned peers would lose if scope position `pos` took domain position `p` (value-order hint;
    /// constraints without forward checking answer 0). From forward checking up, a fixpoint leaves no fixed
    /// member with a positive answer (checked in debug builds).
    fn removals_if_fixed(&self, pos: usize, p: usize, st: &State<D>, values: &[Values]) -> u32 {
        let _ = (pos, p, st, values);
        0
    }

    /// Place-then-check (level `None`) after the variable at scope position `pos` became assigned; removes no
    /// value. Default: fail only when the whole scope is fixed and violated.
    fn check_partial(&self, pos: usize, st: &State<D>, values: &[Values]) -> Result<(), Conflict> {
        let _ = pos;
        check_ground(self, st, values)
    }

    /// Writes the initial contents of this constraint's trailed domain words (see [`Constraint::place`]).
    fn init_trailed(&self, doms: &mut [D::W]) {
        let _ = doms;
    }
}

/// A constraint as the problem stores it: its hooks for every representation behind one vtable. Implemented for
/// every type that implements [`Propagate<D>`] for the three representations (write `impl<D: Domain>`).
pub trait Posted: Constraint + Propagate<u64> + Propagate<u128> + Propagate<WideDomain> {}

impl<T> Posted for T where T: Constraint + Propagate<u64> + Propagate<u128> + Propagate<WideDomain> {}

impl PerRepresentation for dyn Posted {
    type View<D: Domain> = dyn Propagate<D>;
    #[inline(always)]
    fn w64(&self) -> &dyn Propagate<u64> {
        self
    }
    #[inline(always)]
    fn w128(&self) -> &dyn Propagate<u128> {
        self
    }
    #[inline(always)]
    fn wide(&self) -> &dyn Propagate<WideDomain> {
        self
    }
}

/// The `all_different` behind a posted constraint, if it is one (the dense group paths take those over).
pub fn as_all_different(c: &dyn Posted) -> Option<&AllDifferent> {
    let any: &dyn Any = c;
    any.downcast_ref::<AllDifferent>()
}

/// The clause behind a posted constraint, if it is one (the engine watches its literals).
pub fn as_clause(c: &dyn Posted) -> Option<&Clause> {
    let any: &dyn Any = c;
    any.downcast_ref::<Clause>()
}

/// The table behind a posted constraint, if it is one.
pub fn as_table(c: &dyn Posted) -> Option<&Table> {
    let any: &dyn Any = c;
    any.downcast_ref::<Table>()
}

/// Place-then-check: if every scope variable of `c` is fixed, fail unless `is_satisfied` holds.
pub fn check_ground<D: Domain, C: Constraint + ?Sized>(
    c: &C,
    st: &State<D>,
    values: &[Values],
) -> Result<(), Conflict> {
    if c.vars().iter().any(|&v| !st.is_fixed(v)) {
        return Ok(());
    }
    let value_of = |v: u32| values[v as usize].value(st.min_pos(v));
    if c.is_satisfied(&value_of) {
        Ok(())
    } else {
        Err(st.conflict())
    }
}

#[cfg(test)]
mod tests {
    //! The interface's own contracts, seen from a constraint written outside the built-in set.
    #![allow(clippy::unwrap_used)]

    use std::ops::ControlFlow;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use super::*;
    use crate::{Model, SearchConfig, Solver, ValueOrder, VarOrder};

    /// A constraint that accepts everything and counts the engine's calls to its two hooks.
    #[derive(Debug)]
    struct Spy {
        vars: Vec<u32>,
        per_assignment: bool,
        propagate_calls: Arc<AtomicUsize>,
        on_fixed_calls: Arc<AtomicUsize>,
    }

    impl Constraint for Spy {
        fn name(&self) -> &'static str {
            "spy"
        }
        fn vars(&self) -> &[u32] {
            &self.vars
        }
        fn is_satisfied(&self, _: &dyn Fn(u32) -> i64) -> bool {
            true
        }
        fn fixed_rule(&self) -> bool {
            if self.per_assignment {
                true
            } else {
                // The provided answer, which is what this test is about.
                Constraint::fixed_rule(&Plain)
            }
        }
    }

    impl<D: Domain> Propagate<D> for Spy {
        fn propagate(&self, _: &mut State<D>, _: &[Values]) -> Result<(), Conflict> {
            self.propagate_calls.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
        fn on_fixed(&self, _: usize, _: &mut State<D>, _: &[Values]) -> Result<(), Conflict> {
            self.on_fixed_calls.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
    }

    /// A constraint that overrides nothing optional.
    #[derive(Debug)]
    struct Plain;

    impl Constraint for Plain {
        fn name(&self) -> &'static str {
            "plain"
        }
        fn vars(&self) -> &[u32] {
            &[]
        }
        fn is_satisfied(&self, _: &dyn Fn(u32) -> i64) -> bool {
            true
        }
    }

    impl<D: Domain> Propagate<D> for Plain {}

    /// Solves `x, y in 0..=2` under one `Spy` and returns (solutions, `propagations`, propagate calls, on_fixed
    /// calls).
    fn run_spy(per_assignment: bool) -> (u64, u64, usize, usize) {
        let mut m = Model::new();
        let x = m.new_var(0, 2).unwrap();
        let y = m.new_var(0, 2).unwrap();
        let propagate_calls = Arc::new(AtomicUsize::new(0));
        let on_fixed_calls = Arc::new(AtomicUsize::new(0));
        m.post(Spy {
            vars: vec![x.index() as u32, y.index() as u32],
            per_assignment,
            propagate_calls: Arc::clone(&propagate_calls),
            on_fixed_calls: Arc::clone(&on_fixed_calls),
        });
        let p = m.build().unwrap();
        let config = SearchConfig::default()
            .var_order(VarOrder::Input)
            .value_order(ValueOrder::Ascending)
            .generic_engine(true);
        let mut s = Solver::new(&p, config);
        let (_, stats) = s.for_each_solution(&[], |_| ControlFlow::Continue(()));
        (
            stats.solutions,
            stats.propagations,
            propagate_calls.load(Ordering::Relaxed),
            on_fixed_calls.load(Ordering::Relaxed),
        )
    }

    #[test]
    fn a_constraint_keeping_the_provided_fixed_rule_is_never_called_per_assignment() {
        let (solutions, propagations, propagate, on_fixed) = run_spy(false);
        assert_eq!(solutions, 9);
        assert!(propagate > 0);
        assert_eq!(on_fixed, 0);
        assert_eq!(
            propagations, propagate as u64,
            "every counted call is a propagate call"
        );
        // The same constraint asking for the per-assignment rule gets it, once per assignment of x or y.
        let (solutions, propagations, propagate, on_fixed) = run_spy(true);
        assert_eq!(solutions, 9);
        // x is fixed three times (0; 1 after refuting 0; 2 after refuting 1), y three times under each x.
        assert_eq!(on_fixed, 3 + 3 * 3);
        assert_eq!(propagations, (propagate + on_fixed) as u64);
    }

    #[test]
    fn the_provided_hooks_remove_nothing_and_hint_no_removals() {
        let values = vec![Values::Range { min: 0, width: 3 }; 2];
        let mut st: State<u64> = State::new(&[3; 2]);
        let plain = Plain;
        assert_eq!(
            Propagate::<u64>::propagate(&plain, &mut st, &values),
            Ok(())
        );
        assert_eq!(
            Propagate::<u64>::on_fixed(&plain, 0, &mut st, &values),
            Ok(())
        );
        assert_eq!(
            Propagate::<u64>::removals_if_fixed(&plain, 0, 1, &st, &values),
            0
        );
        assert_eq!((st.size(0), st.size(1)), (3, 3));
        assert!(!plain.fixed_rule() && !plain.idempotent() && !plain.accepts_intervals());
        assert_eq!((plain.scratch(), plain.work_len(&values)), (0, 0));
    }

    /// The engine's fast paths (watched clauses, dense groups, table support) find their constraints by these
    /// downcasts; each must recognise its own kind and nothing else.
    #[test]
    fn each_downcast_recognises_its_own_kind_only() {
        let clause: Box<dyn Posted> = Box::new(Clause::new(vec![0, 1], vec![2]));
        let plain: Box<dyn Posted> = Box::new(Plain);
        assert!(as_clause(&*clause).is_some());
        assert!(as_clause(&*plain).is_none());
        assert!(as_all_different(&*clause).is_none());
        assert!(as_table(&*clause).is_none());
        assert!(as_all_different(&*plain).is_none() && as_table(&*plain).is_none());
    }
}
