//! Branching heuristics: which variable to branch on, which value to try first, and when to restart.
//!
//! One file per strategy; [`VarOrder`] and [`ValueOrder`] each list them as enum variants and dispatch with one
//! `match`. A variable order is a [`Merit`] (Gecode's `int/branch/merit.hpp`): a score per unassigned variable,
//! smallest wins, optionally refined by a second merit on ties ([`select_lex`]); the selection loop, early exit
//! and tie-breaking live once here in [`select`]. Sizes are popcounts read from `State::sizes`; ties break on the
//! lowest variable id unless `random_ties` is set (then uniformly among the tied, by reservoir sampling), so runs
//! are deterministic for a given seed.
//!
//! # How to add a heuristic
//! 1. Write `heuristics/my_order.rs` with a struct implementing [`Merit`] (one `score` method, smaller is better;
//!    `floor` if some score cannot be beaten) for a variable order, or one function
//!    `pub fn select<D: Domain>(st: &State<D>, problem: &Problem, v: u32, br: &mut Brancher) -> usize` for a value
//!    order (return a position present in `dom(v)`).
//! 2. Add a variant to [`VarOrder`] or [`ValueOrder`] (with a doc line saying when it helps) and one arm in
//!    [`Brancher::select_var`] (`select(st, br, my_order::MyOrder { .. })`) / [`Brancher::select_value`].
//! 3. Add the variant to `ALL` so the cross-check test runs every propagation level and value order with it.
//!
//! Learned state (weights, the random generator) lives in [`Brancher`], reset at the start of every solve.
//!
//! Phased search (MiniZinc's `seq_search`): [`crate::SearchConfig::phase`] lists groups of variables with their
//! own variable and value orders; [`Brancher::select_var`] runs the group's merit over the group's unassigned
//! variables, the first group with one wins, and its value order is used for that decision. Variables in no group
//! come last, under the configuration's orders.

mod anti_first_fail;
mod ascending;
mod descending;
mod dom_wdeg;
mod input;
mod largest;
mod lcv;
mod max_regret;
mod median;
mod mrv;
mod mrv_degree;
mod random;
mod restarts;
mod smallest;
mod split;

pub use restarts::{RestartPolicy, Restarts};

use crate::domain::Domain;
use crate::model::Problem;
use crate::state::State;

/// Variable selection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VarOrder {
    /// First unassigned variable in creation order: the naive baseline.
    Input,
    /// Minimum remaining values (smallest domain first, "first fail").
    #[default]
    Mrv,
    /// MRV, ties broken by the classic degree heuristic: the most distinct unassigned neighbours (variables sharing
    /// a constraint), then the lowest id. Helps when overlapping constraints make plain MRV ties frequent.
    MrvDegree,
    /// Smallest domain size / weighted degree; a constraint's weight grows each time it fails.
    DomWdeg,
    /// Largest domain first (MiniZinc's `anti_first_fail`): rarely good alone, offered for models that ask for it.
    AntiFirstFail,
    /// Smallest possible value first (MiniZinc's `smallest`): schedules and makespans, where early starts matter.
    Smallest,
    /// Largest possible value first (MiniZinc's `largest`).
    Largest,
    /// Largest gap between the two smallest values first (MiniZinc's `max_regret`).
    MaxRegret,
}

impl VarOrder {
    /// Every variable order (for tests and benchmarks that loop over them).
    pub const ALL: [VarOrder; 8] = [
        VarOrder::Input,
        VarOrder::Mrv,
        VarOrder::MrvDegree,
        VarOrder::DomWdeg,
        VarOrder::AntiFirstFail,
        VarOrder::Smallest,
        VarOrder::Largest,
        VarOrder::MaxRegret,
    ];

    /// The order's one name, as every front end spells it (`--strategy` of the puzzles binary and the bench runner,
    /// Python's `var_order=`): lower case, words joined by `-`.
    pub fn name(self) -> &'static str {
        match self {
            VarOrder::Input => "input",
            VarOrder::Mrv => "mrv",
            VarOrder::MrvDegree => "mrv-degree",
            VarOrder::DomWdeg => "dom-wdeg",
            VarOrder::AntiFirstFail => "anti-first-fail",
            VarOrder::Smallest => "smallest",
            VarOrder::Largest => "largest",
            VarOrder::MaxRegret => "max-regret",
        }
    }

    /// The order called `name` ([`VarOrder::name`]; `_` is read as `-`, case is ignored), if there is one.
    pub fn from_name(name: &str) -> Option<VarOrder> {
        let name = name.trim().to_ascii_lowercase().replace('_', "-");
        VarOrder::ALL.into_iter().find(|o| o.name() == name)
    }

    /// Every name, comma-separated, for error messages and help texts.
    pub fn names() -> String {
        VarOrder::ALL.map(VarOrder::name).join(", ")
    }
}

/// Value selection: the position tried first (2-way branching: `x = v` then `x != v`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValueOrder {
    /// Smallest value first.
    #[default]
    Ascending,
    /// The median of the remaining values first, so repeated refutations work middle-out.
    Median,
    /// Least constraining value: the one that removes the fewest values from unassigned peers.
    Lcv,
    /// A uniformly random remaining value (seeded).
    Random,
    /// Largest value first (MiniZinc's `indomain_max`).
    Descending,
    /// Bisection, lower half first: `x <= mid` then `x > mid`, `mid = floor((min + max) / 2)` (MiniZinc's
    /// `indomain_split`). Not a value choice but a domain cut (see [`Cut`]); on wide domains it reaches a value in
    /// a logarithmic number of decisions.
    Split,
    /// Bisection, upper half first: `x > mid` then `x <= mid` (MiniZinc's `indomain_reverse_split`).
    ReverseSplit,
}

impl ValueOrder {
    /// Every value order.
    pub const ALL: [ValueOrder; 7] = [
        ValueOrder::Ascending,
        ValueOrder::Median,
        ValueOrder::Lcv,
        ValueOrder::Random,
        ValueOrder::Descending,
        ValueOrder::Split,
        ValueOrder::ReverseSplit,
    ];

    /// The order's one name, as every front end spells it (see [`VarOrder::name`]).
    pub fn name(self) -> &'static str {
        match self {
            ValueOrder::Ascending => "ascending",
            ValueOrder::Median => "median",
            ValueOrder::Lcv => "lcv",
            ValueOrder::Random => "random",
            ValueOrder::Descending => "descending",
            ValueOrder::Split => "split",
            ValueOrder::ReverseSplit => "reverse-split",
        }
    }

    /// The order called `name` ([`ValueOrder::name`]; `_` is read as `-`, case is ignored), if there is one.
    pub fn from_name(name: &str) -> Option<ValueOrder> {
        let name = name.trim().to_ascii_lowercase().replace('_', "-");
        ValueOrder::ALL.into_iter().find(|o| o.name() == name)
    }

    /// Every name, comma-separated, for error messages and help texts.
    pub fn names() -> String {
        ValueOrder::ALL.map(ValueOrder::name).join(", ")
    }
}

/// How a decision cuts the domain of its variable at the position `p` the value order chose. The first branch is
/// tried first; its refutation is the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// `x = p`, then `x != p` (every value order but the splits; an interval turns it into `Le` when `p` is not
    /// one of its bounds, since it cannot lose an inner value).
    Assign,
    /// `x <= p`, then `x > p` (positions are in value order).
    Le,
    /// `x > p`, then `x <= p`.
    Gt,
}

/// The seeded generator of random tie-breaking and value orders (the project's one SplitMix64).
pub use crate::rng::Rng;

/// Heuristic state of one solver: the orders, the generator, and the failure weights of dom/wdeg.
#[derive(Clone, Debug)]
pub struct Brancher {
    /// Variable order.
    pub var_order: VarOrder,
    /// Value order.
    pub value_order: ValueOrder,
    /// Break ties in the variable order at random instead of by lowest id.
    pub random_ties: bool,
    /// The generator (reseeded per solve).
    pub rng: Rng,
    /// `weights[c]` = 1 + number of conflicts blamed on constraint `c` in this solve.
    pub weights: Vec<u64>,
    /// Search phases as engine indexes with their orders (empty: one phase of every variable).
    pub phases: Vec<(Vec<u32>, VarOrder, ValueOrder)>,
    /// The value order of the phase the last `select_var` picked from.
    current_value_order: ValueOrder,
}

impl Brancher {
    /// A brancher for a problem with `num_constraints` constraints.
    pub fn new(
        var_order: VarOrder,
        value_order: ValueOrder,
        random_ties: bool,
        num_constraints: usize,
    ) -> Self {
        Self {
            var_order,
            value_order,
            random_ties,
            rng: Rng::new(0),
            weights: vec![1; num_constraints],
            phases: Vec::new(),
            current_value_order: value_order,
        }
    }

    /// Forgets learned state and reseeds.
    pub fn reset(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        self.current_value_order = self.value_order;
        if self.var_order == VarOrder::DomWdeg {
            self.weights.iter_mut().for_each(|w| *w = 1);
        }
    }

    /// Records a conflict blamed on constraint `c`.
    #[inline]
    pub fn on_conflict(&mut self, c: u32) {
        if let Some(w) = self.weights.get_mut(c as usize) {
            *w += 1;
        }
    }

    /// The variable to branch on, `None` when all are assigned.
    #[inline]
    pub fn select_var<D: Domain>(&mut self, st: &State<D>, problem: &Problem) -> Option<u32> {
        if self.phases.is_empty() {
            let all = st.sizes().enumerate().map(|(v, s)| (v as u32, s));
            return self.select_among(st, problem, self.var_order, all);
        }
        let phases = std::mem::take(&mut self.phases);
        let mut pick = None;
        for (vars, var_order, value_order) in &phases {
            let group = vars.iter().map(|&v| (v, st.size(v)));
            pick = self.select_among(st, problem, *var_order, group);
            if pick.is_some() {
                self.current_value_order = *value_order;
                break;
            }
        }
        self.phases = phases;
        if pick.is_none() {
            self.current_value_order = self.value_order;
            let all = st.sizes().enumerate().map(|(v, s)| (v as u32, s));
            pick = self.select_among(st, problem, self.var_order, all);
        }
        pick
    }

    /// `order` over the `(variable, size)` candidates.
    #[inline]
    fn select_among<D: Domain>(
        &mut self,
        st: &State<D>,
        problem: &Problem,
        order: VarOrder,
        candidates: impl Iterator<Item = (u32, u32)> + Clone,
    ) -> Option<u32> {
        match order {
            VarOrder::Input => select(st, self, input::Input, candidates),
            VarOrder::Mrv => select(st, self, mrv::Size, candidates),
            VarOrder::MrvDegree => select_lex(
                st,
                self,
                mrv::Size,
                mrv_degree::Degree::new(problem),
                candidates,
            ),
            VarOrder::DomWdeg => {
                let weights = std::mem::take(&mut self.weights);
                let pick = select(
                    st,
                    self,
                    dom_wdeg::DomWdeg::new(problem, &weights),
                    candidates,
                );
                self.weights = weights;
                pick
            }
            VarOrder::AntiFirstFail => select(st, self, anti_first_fail::LargestSize, candidates),
            VarOrder::Smallest => select(st, self, smallest::Smallest { problem }, candidates),
            VarOrder::Largest => select(st, self, largest::Largest { problem }, candidates),
            VarOrder::MaxRegret => select(st, self, max_regret::MaxRegret { problem }, candidates),
        }
    }

    /// The value order of the next decision: the one of the phase the last [`Brancher::select_var`] picked from.
    #[inline]
    pub fn current_value_order(&self) -> ValueOrder {
        if self.phases.is_empty() {
            self.value_order
        } else {
            self.current_value_order
        }
    }

    /// How the next decision cuts the domain: [`Cut::Le`] / [`Cut::Gt`] for the split orders, else
    /// [`Cut::Assign`].
    #[inline]
    pub fn cut(&self) -> Cut {
        match self.current_value_order() {
            ValueOrder::Split => Cut::Le,
            ValueOrder::ReverseSplit => Cut::Gt,
            _ => Cut::Assign,
        }
    }

    /// The position of `v` to try first (always in `dom(v)`), or for the split orders the last position of the
    /// lower half (see [`Brancher::cut`]; at least `min_pos(v)` and below `max_pos(v)`, not necessarily in
    /// `dom(v)`).
    #[inline]
    pub fn select_value<D: Domain>(&mut self, st: &State<D>, problem: &Problem, v: u32) -> usize {
        match self.current_value_order() {
            ValueOrder::Ascending => ascending::select(st, v),
            ValueOrder::Median => median::select(st, v),
            ValueOrder::Lcv => lcv::select(st, problem, v),
            ValueOrder::Random => random::select(st, v, self),
            ValueOrder::Descending => descending::select(st, v),
            ValueOrder::Split | ValueOrder::ReverseSplit => split::select(st, problem, v),
        }
    }
}

/// A variable-selection strategy: a score per unassigned variable, the smallest score wins.
pub trait Merit {
    /// The score (smaller is better; equal scores are ties).
    type Score: Copy + Ord;
    /// The score of unassigned variable `v` whose domain has `size > 1` values.
    fn score<D: Domain>(&mut self, st: &State<D>, v: u32, size: u32) -> Self::Score;
    /// A score that no variable can beat: without random ties, the first variable scoring at most this is taken
    /// without looking further (MRV's size 2, input order's anything).
    fn floor(&self) -> Option<Self::Score> {
        None
    }
}

/// The unassigned variable with the smallest score of `m`, ties by lowest id (or uniformly at random with
/// `random_ties`); `None` when every variable is assigned.
#[inline]
pub fn select<D: Domain, M: Merit>(
    st: &State<D>,
    br: &mut Brancher,
    mut m: M,
    candidates: impl Iterator<Item = (u32, u32)>,
) -> Option<u32> {
    let mut sizes = candidates.filter(|&(_, size)| size > 1);
    let (v0, size0) = sizes.next()?;
    let mut pick = v0;
    let mut best = m.score(st, pick, size0);
    if !br.random_ties {
        // The deterministic path, kept tight: it is MRV's whole cost on the general engine.
        let floor = m.floor();
        if floor.is_some_and(|f| best <= f) {
            return Some(pick);
        }
        for (v, size) in sizes {
            let s = m.score(st, v, size);
            if s < best {
                best = s;
                pick = v;
                if floor.is_some_and(|f| s <= f) {
                    break;
                }
            }
        }
        return Some(pick);
    }
    // Reservoir sampling over the tied: the k-th tie replaces the pick with probability 1/k.
    let mut ties = 1u64;
    let _ = br.rng.below(ties);
    for (v, size) in sizes {
        let s = m.score(st, v, size);
        if s > best {
            continue;
        }
        if s < best {
            best = s;
            ties = 0;
        }
        ties += 1;
        if br.rng.below(ties) == 0 {
            pick = v;
        }
    }
    Some(pick)
}

/// Lexicographic merit: smallest `a`, then among those smallest `b` (computed for the tied variables only, so an
/// expensive tie-break costs nothing where `a` decides), then lowest id or random.
pub fn select_lex<D: Domain, A: Merit, B: Merit>(
    st: &State<D>,
    br: &mut Brancher,
    mut a: A,
    b: B,
    candidates: impl Iterator<Item = (u32, u32)> + Clone,
) -> Option<u32> {
    let mut best: Option<A::Score> = None;
    for (v, size) in candidates.clone() {
        if size > 1 {
            let s = a.score(st, v, size);
            if best.is_none_or(|b| s < b) {
                best = Some(s);
            }
        }
    }
    let best = best?;
    /// Variables tied on `a` score `(false, b)`; the others `(true, None)`, after every tied one.
    struct Tied<A: Merit, B> {
        a: A,
        best: A::Score,
        b: B,
    }
    impl<A: Merit, B: Merit> Merit for Tied<A, B> {
        type Score = (bool, Option<B::Score>);
        fn score<D: Domain>(&mut self, st: &State<D>, v: u32, size: u32) -> Self::Score {
            if self.best < self.a.score(st, v, size) {
                (true, None)
            } else {
                (false, Some(self.b.score(st, v, size)))
            }
        }
    }
    select(st, br, Tied { a, best, b }, candidates)
}

/// True when constraint `c` has an unassigned variable other than `v` (it still constrains the search).
fn is_live<D: Domain>(st: &State<D>, problem: &Problem, c: u32, v: u32) -> bool {
    problem.constraints[c as usize]
        .vars()
        .iter()
        .any(|&u| u != v && !st.is_fixed(u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Model;

    #[test]
    fn every_order_is_found_by_its_own_name_and_names_are_distinct() {
        for o in VarOrder::ALL {
            assert_eq!(VarOrder::from_name(o.name()), Some(o));
            assert_eq!(
                VarOrder::from_name(&o.name().to_uppercase().replace('-', "_")),
                Some(o)
            );
        }
        for o in ValueOrder::ALL {
            assert_eq!(ValueOrder::from_name(o.name()), Some(o));
        }
        assert_eq!(VarOrder::from_name("bogus"), None);
        assert_eq!(ValueOrder::from_name("mrv"), None);
        let mut all: Vec<&str> = VarOrder::ALL.map(VarOrder::name).to_vec();
        all.extend(ValueOrder::ALL.map(ValueOrder::name));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a name must say which kind of order it is");
    }

    /// a in 0..3, b in 10..14, c in -5..-4, d in 0..9 without 1: each order's first pick is documented above.
    #[test]
    fn each_variable_order_picks_the_variable_its_merit_names() {
        let mut m = Model::new();
        for (lo, hi) in [(0, 3), (10, 14), (-5, -4), (0, 9)] {
            m.new_var(lo, hi).expect("var");
        }
        let p = m.build().expect("model");
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let mut st = State::<u64>::new(&widths);
        st.remove(3, 1).expect("removal");
        for (order, want) in [
            (VarOrder::Input, 0),
            (VarOrder::Mrv, 2),
            (VarOrder::AntiFirstFail, 3),
            (VarOrder::Smallest, 2),
            (VarOrder::Largest, 1),
            (VarOrder::MaxRegret, 3),
        ] {
            let mut br = Brancher::new(order, ValueOrder::Ascending, false, 0);
            assert_eq!(br.select_var(&st, &p), Some(want), "{order:?}");
        }
        let mut br = Brancher::new(VarOrder::Input, ValueOrder::Descending, false, 0);
        assert_eq!(p.values[1].value(br.select_value(&st, &p, 1)), 14);
        assert_eq!(p.values[3].value(br.select_value(&st, &p, 3)), 9);
    }
}
