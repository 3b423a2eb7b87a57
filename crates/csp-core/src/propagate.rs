//! Propagation to a fixpoint: assignment events first (cheap forward checking), then scheduled constraints.
//!
//! Two watch lists per variable, built once per solver for the chosen [`Propagation`] level:
//! - `fix_watch[v]`: `(constraint, position)` whose `on_fixed` runs when `v` becomes assigned
//!   (at level `None`: every constraint, whose ground check runs instead);
//! - `dom_watch[v]`: constraints scheduled (once, FIFO) when `dom(v)` changes in any way.
//!
//! The loop drains `State::fixed` (assignments not yet forward-checked), then turns `State::changed` into scheduled
//! constraints, then runs one scheduled constraint, and repeats until nothing is pending. A constraint is unscheduled
//! before it runs, so its own changes schedule it again; rules need not be idempotent.

use std::collections::VecDeque;

use crate::constraints::Constraint;
use crate::csr::Csr;
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::stats::Stats;
use crate::values::Values;

/// How much inference runs after each decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Propagation {
    /// Place then check: a constraint is only evaluated once all its variables are assigned.
    None,
    /// Forward checking: an assigned value is removed from its peers (`all_different`, `not_equal`); `equal`,
    /// `linear` and `table` filter their domains (support / bounds) on every change.
    #[default]
    ForwardChecking,
    /// Forward checking plus hidden singles (and the pigeonhole test) in `all_different` groups.
    Singles,
}

/// Watch lists and the schedule of one solver.
#[derive(Clone, Debug)]
pub struct Propagator {
    /// The level the watch lists were built for.
    level: Propagation,
    /// `fix_watch.row(v)` = `(constraint, position)` reacting to the assignment of `v`.
    fix_watch: Csr<(u32, u32)>,
    /// `dom_watch.row(v)` = constraints reacting to any change of `v`.
    dom_watch: Csr<u32>,
    /// Constraints with a domain rule: all of them are scheduled at the root.
    domain_rules: Vec<u32>,
    /// `scheduled[c]` = `c` is in `queue`.
    scheduled: Vec<bool>,
    /// Constraints waiting to run, oldest first.
    queue: VecDeque<u32>,
}

impl Propagator {
    /// Builds the watch lists of `constraints` over `num_vars` variables for `level`.
    pub fn new(constraints: &[Constraint], num_vars: usize, level: Propagation) -> Self {
        let mut fix = Vec::new();
        let mut dom = Vec::new();
        let mut domain_rules = Vec::new();
        let singles = level == Propagation::Singles;
        for (c, con) in constraints.iter().enumerate() {
            let c = c as u32;
            let (wants_fix, wants_dom) = match level {
                Propagation::None => (true, false),
                _ => (con.has_fixed_rule(), con.has_domain_rule(singles)),
            };
            for (pos, &v) in con.vars().iter().enumerate() {
                if wants_fix {
                    fix.push((v, (c, pos as u32)));
                }
                if wants_dom {
                    dom.push((v, c));
                }
            }
            if wants_dom {
                domain_rules.push(c);
            }
        }
        Self {
            level,
            fix_watch: Csr::from_pairs(num_vars, &fix),
            dom_watch: Csr::from_pairs(num_vars, &dom),
            domain_rules,
            scheduled: vec![false; constraints.len()],
            queue: VecDeque::with_capacity(constraints.len()),
        }
    }

    /// The level this propagator implements.
    pub fn level(&self) -> Propagation {
        self.level
    }

    /// Root propagation: every domain rule once, every ground constraint checked, then the fixpoint.
    pub fn root<D: Domain>(
        &mut self,
        constraints: &[Constraint],
        values: &[Values],
        st: &mut State<D>,
        stats: &mut Stats,
    ) -> Result<(), Conflict> {
        if self.level == Propagation::None {
            for (c, con) in constraints.iter().enumerate() {
                st.blame = c as u32;
                stats.propagations += 1;
                if let Err(e) = con.check_ground(st, values) {
                    self.clear(st);
                    return Err(e);
                }
            }
        }
        for &c in &self.domain_rules {
            if !self.scheduled[c as usize] {
                self.scheduled[c as usize] = true;
                self.queue.push_back(c);
            }
        }
        self.fixpoint(constraints, values, st, stats)
    }

    /// Runs propagation until nothing is pending or a conflict occurs. Queues are empty afterwards either way.
    pub fn fixpoint<D: Domain>(
        &mut self,
        constraints: &[Constraint],
        values: &[Values],
        st: &mut State<D>,
        stats: &mut Stats,
    ) -> Result<(), Conflict> {
        let result = self.run(constraints, values, st, stats);
        if result.is_err() {
            self.clear(st);
        } else {
            st.fixed.clear();
            st.fixed_head = 0;
        }
        #[cfg(debug_assertions)]
        if result.is_ok() {
            if let Err(msg) = st.check_invariants() {
                panic!("state invariant broken after propagation: {msg}");
            }
        }
        result
    }

    #[inline]
    fn run<D: Domain>(
        &mut self,
        constraints: &[Constraint],
        values: &[Values],
        st: &mut State<D>,
        stats: &mut Stats,
    ) -> Result<(), Conflict> {
        let check_only = self.level == Propagation::None;
        loop {
            while st.fixed_head < st.fixed.len() {
                let v = st.fixed[st.fixed_head];
                st.fixed_head += 1;
                for &(c, pos) in self.fix_watch.row(v) {
                    st.blame = c;
                    stats.propagations += 1;
                    let con = &constraints[c as usize];
                    if check_only {
                        con.check_ground(st, values)?;
                    } else {
                        con.on_fixed(pos as usize, st, values)?;
                    }
                }
            }
            for k in 0..st.changed.len() {
                let v = st.changed[k];
                st.in_changed[v as usize] = false;
                for &c in self.dom_watch.row(v) {
                    if !self.scheduled[c as usize] {
                        self.scheduled[c as usize] = true;
                        self.queue.push_back(c);
                    }
                }
            }
            st.changed.clear();
            let Some(c) = self.queue.pop_front() else {
                if st.fixed_head >= st.fixed.len() {
                    return Ok(());
                }
                continue;
            };
            self.scheduled[c as usize] = false;
            st.blame = c;
            stats.propagations += 1;
            constraints[c as usize].propagate(st, values)?;
        }
    }

    /// Empties every queue (after a conflict).
    pub fn clear<D: Domain>(&mut self, st: &mut State<D>) {
        for &c in &self.queue {
            self.scheduled[c as usize] = false;
        }
        self.queue.clear();
        st.fixed.clear();
        st.fixed_head = 0;
        st.clear_changed();
    }
}
