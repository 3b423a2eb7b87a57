//! Constraints: one file per kind, each with its propagation rules and a brute-force `is_satisfied`.
//!
//! Variables are plain `u32` indexes here (the model has already checked them) and domains are read through
//! [`State`]; values are mapped to domain positions with the problem's [`Values`] tables.
//!
//! Each constraint offers up to three hooks, called by [`crate::propagate`]:
//! - `on_fixed(pos)`: the variable at position `pos` of the scope just became assigned (forward checking);
//! - `propagate()`: some variable of the scope changed (bounds, supports, hidden singles);
//! - `is_satisfied(value_of)`: brute-force truth on a full assignment; used for ground checks at
//!   [`crate::Propagation::None`], for debug checks of every solution, and by the test oracle;
//! - `check_partial(pos)`: at level `None`, a check of the assigned part of the scope only, without pruning
//!   (`all_different`: no repeated value among fixed members; other kinds: the ground check).
//!
//! # How to add a constraint
//! 1. Write `constraints/my_rule.rs` with a struct holding its scope (`vars: Vec<u32>`) and data, an
//!    `is_satisfied`, and `on_fixed` and/or `propagate` taking `&mut State<D>`; return `Err(st.conflict())`
//!    (or let `?` carry one from a domain operation) when the rule fails. Every domain change must go through
//!    `State` methods so it is trailed. A rule that keeps state between calls (counters, bitsets) cannot store it
//!    in the constraint, which is shared by every search: it reserves words in the trailed store
//!    ([`crate::trailed`]) when the model is built, as `Table::place` does, and reads and writes them through
//!    `State::cstate`, so undo restores them with the domains.
//! 2. Add a variant to [`Constraint`] and one arm in each `match` below (`vars`, `is_satisfied`, the hooks, and
//!    `has_fixed_rule` / `has_domain_rule` to say which hooks it wants).
//! 3. Add a posting method on [`crate::Model`] that validates user input and returns `ModelError`s.
//! 4. Add the kind to the random generator of `tests/cross_check.rs`: the brute-force oracle then checks it against
//!    every heuristic and propagation level.
//!
//! A rule must be sound (never remove a value that belongs to a solution) and complete on ground scopes (when every
//! variable is fixed it must fail exactly when `is_satisfied` is false).

mod all_different;
mod equal;
mod intersection;
mod linear;
mod not_equal;
mod table;

pub use all_different::AllDifferent;
pub use equal::Equal;
pub use intersection::Intersection;
pub use linear::{Linear, Relation};
pub use not_equal::NotEqual;
pub use table::Table;

use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::values::Values;

/// A posted constraint.
#[derive(Clone, Debug)]
pub enum Constraint {
    /// Pairwise distinct `x_i + offset_i`.
    AllDifferent(AllDifferent),
    /// `x != y + c`.
    NotEqual(NotEqual),
    /// `x == y + c`.
    Equal(Equal),
    /// `sum a_i x_i (<= | = | >=) rhs`.
    Linear(Linear),
    /// Allowed tuples.
    Table(Table),
}

impl Constraint {
    /// The scope (may repeat a variable if the user did).
    pub fn vars(&self) -> &[u32] {
        match self {
            Constraint::AllDifferent(c) => &c.vars,
            Constraint::NotEqual(c) => &c.vars,
            Constraint::Equal(c) => &c.vars,
            Constraint::Linear(c) => &c.vars,
            Constraint::Table(c) => &c.vars,
        }
    }

    /// Brute-force truth under the full assignment `value_of`.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        match self {
            Constraint::AllDifferent(c) => c.is_satisfied(value_of),
            Constraint::NotEqual(c) => c.is_satisfied(value_of),
            Constraint::Equal(c) => c.is_satisfied(value_of),
            Constraint::Linear(c) => c.is_satisfied(value_of),
            Constraint::Table(c) => c.is_satisfied(value_of),
        }
    }

    /// True when the constraint reacts to single assignments (forward checking).
    pub fn has_fixed_rule(&self) -> bool {
        matches!(self, Constraint::AllDifferent(_) | Constraint::NotEqual(_))
    }

    /// True when the constraint reacts to any domain change; `singles` = hidden singles are wanted.
    pub fn has_domain_rule(&self, singles: bool) -> bool {
        match self {
            Constraint::AllDifferent(c) => singles && c.supports_singles(),
            Constraint::NotEqual(_) => false,
            Constraint::Equal(_) | Constraint::Linear(_) | Constraint::Table(_) => true,
        }
    }

    /// Forward checking after the variable at scope position `pos` became assigned.
    #[inline]
    pub fn on_fixed<D: Domain>(
        &self,
        pos: usize,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        match self {
            Constraint::AllDifferent(c) => c.on_fixed(pos, st, values),
            Constraint::NotEqual(c) => c.on_fixed(pos, st, values),
            _ => Ok(()),
        }
    }

    /// Values unassigned peers would lose if scope position `pos` took domain position `p` (value-order hint;
    /// 0 for constraints without forward checking).
    pub fn removals_if_fixed<D: Domain>(
        &self,
        pos: usize,
        p: usize,
        st: &State<D>,
        values: &[Values],
    ) -> u32 {
        match self {
            Constraint::AllDifferent(c) => c.removals_if_fixed(pos, p, st, values),
            Constraint::NotEqual(c) => c.removals_if_fixed(pos, p, st, values),
            _ => 0,
        }
    }

    /// Domain-level filtering after some scope variable changed.
    #[inline]
    pub fn propagate<D: Domain>(
        &self,
        st: &mut State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        match self {
            Constraint::AllDifferent(c) => c.hidden_singles(st),
            Constraint::NotEqual(_) => Ok(()),
            Constraint::Equal(c) => c.propagate(st, values),
            Constraint::Linear(c) => c.propagate(st, values),
            Constraint::Table(c) => c.propagate(st),
        }
    }

    /// Place-then-check after the variable at scope position `pos` became assigned: `all_different` compares it
    /// with the members already assigned (a repeated value fails at once); every other kind fails only when its
    /// whole scope is fixed and violated (for the binary `not_equal` / `equal` that is the same thing). Removes
    /// no value.
    #[inline]
    pub fn check_partial<D: Domain>(
        &self,
        pos: usize,
        st: &State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        match self {
            Constraint::AllDifferent(c) => c.check_fixed_at(pos, st, values),
            _ => self.check_ground(st, values),
        }
    }

    /// Place-then-check: if every scope variable is fixed, fail unless `is_satisfied` holds.
    pub fn check_ground<D: Domain>(
        &self,
        st: &State<D>,
        values: &[Values],
    ) -> Result<(), Conflict> {
        if self.vars().iter().any(|&v| !st.is_fixed(v)) {
            return Ok(());
        }
        let value_of = |v: u32| values[v as usize].value(st.min_pos(v));
        if self.is_satisfied(&value_of) {
            Ok(())
        } else {
            Err(st.conflict())
        }
    }
}
