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
    use crate::{Model, VarId};

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

    /// A state over `p`'s domains (intervals where the model has them).
    fn state_of(p: &Problem) -> State<u64> {
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        State::with_intervals(&widths, &p.interval_flags())
    }

    /// Variables of the given sizes, each `0..size`.
    fn sized(sizes: &[i64]) -> Problem {
        let mut m = Model::new();
        for &s in sizes {
            m.new_var(0, s - 1).expect("var");
        }
        m.build().expect("model")
    }

    #[test]
    fn the_name_lists_join_every_name_in_order() {
        assert_eq!(
            VarOrder::names(),
            "input, mrv, mrv-degree, dom-wdeg, anti-first-fail, smallest, largest, max-regret"
        );
        assert_eq!(
            ValueOrder::names(),
            "ascending, median, lcv, random, descending, split, reverse-split"
        );
    }

    #[test]
    fn an_assigned_variable_is_never_picked_and_ties_go_to_the_lowest_id() {
        // Four equal variables, the first one assigned: every order ties on the other three.
        let p = sized(&[3, 3, 3, 3]);
        let mut st = state_of(&p);
        st.assign(0, 1).expect("assign");
        for order in VarOrder::ALL {
            let mut br = Brancher::new(order, ValueOrder::Ascending, false, p.num_constraints());
            assert_eq!(br.select_var(&st, &p), Some(1), "{order:?}");
        }
        // Every variable assigned: nothing to pick.
        for v in 1..4 {
            st.assign(v, 0).expect("assign");
        }
        for order in VarOrder::ALL {
            let mut br = Brancher::new(order, ValueOrder::Ascending, false, p.num_constraints());
            assert_eq!(br.select_var(&st, &p), None, "{order:?}");
        }
    }

    #[test]
    fn mrv_keeps_looking_after_an_improvement_until_a_domain_of_two() {
        // Sizes 4, 3, 2: the 3 improves on the 4 but only the 2 cannot be beaten.
        let p = sized(&[4, 3, 2, 2]);
        let st = state_of(&p);
        let mut br = Brancher::new(VarOrder::Mrv, ValueOrder::Ascending, false, 0);
        assert_eq!(br.select_var(&st, &p), Some(2));
        let mut br = Brancher::new(VarOrder::MrvDegree, ValueOrder::Ascending, false, 0);
        assert_eq!(br.select_var(&st, &p), Some(2));
    }

    #[test]
    fn random_ties_pick_each_tied_variable_about_equally_and_never_a_worse_one() {
        // Sizes 3, 2, 4, 2, 2, 5, 5: MRV ties on 1, 3, 4; anti-first-fail on 5, 6 (no floor: the whole scan).
        let p = sized(&[3, 2, 4, 2, 2, 5, 5]);
        let st = state_of(&p);
        for (order, tied) in [
            (VarOrder::Mrv, vec![1u32, 3, 4]),
            (VarOrder::MrvDegree, vec![1, 3, 4]),
            (VarOrder::AntiFirstFail, vec![5, 6]),
        ] {
            let mut br = Brancher::new(order, ValueOrder::Ascending, true, 0);
            let mut picks = [0u32; 7];
            let runs = 600;
            for seed in 0..runs {
                br.reset(seed);
                let v = br.select_var(&st, &p).expect("a pick");
                picks[v as usize] += 1;
                // The same seed gives the same pick.
                br.reset(seed);
                assert_eq!(br.select_var(&st, &p), Some(v), "{order:?}");
            }
            let share = runs as u32 / tied.len() as u32;
            for (v, &n) in picks.iter().enumerate() {
                if tied.contains(&(v as u32)) {
                    assert!(n > share / 2 && n < share * 3 / 2, "{order:?}: {picks:?}");
                } else {
                    assert_eq!(n, 0, "{order:?}: {picks:?}");
                }
            }
        }
    }

    #[test]
    fn a_phase_is_searched_first_under_its_own_orders_then_the_rest_under_the_main_ones() {
        let p = sized(&[4, 4, 4, 4]);
        let mut st = state_of(&p);
        let mut br = Brancher::new(VarOrder::AntiFirstFail, ValueOrder::Ascending, false, 0);
        br.phases = vec![
            (vec![3, 2], VarOrder::Input, ValueOrder::Descending),
            (vec![1], VarOrder::Mrv, ValueOrder::Split),
        ];
        // The first phase in its listed order, with its value order.
        assert_eq!(br.select_var(&st, &p), Some(3));
        assert_eq!(br.current_value_order(), ValueOrder::Descending);
        assert_eq!(br.select_value(&st, &p, 3), 3);
        assert_eq!(br.cut(), Cut::Assign);
        st.assign(3, 0).expect("assign");
        assert_eq!(br.select_var(&st, &p), Some(2));
        st.assign(2, 0).expect("assign");
        // The second phase, with a split.
        assert_eq!(br.select_var(&st, &p), Some(1));
        assert_eq!(br.current_value_order(), ValueOrder::Split);
        assert_eq!(br.cut(), Cut::Le);
        st.assign(1, 0).expect("assign");
        // The variables in no phase, under the main orders.
        assert_eq!(br.select_var(&st, &p), Some(0));
        assert_eq!(br.current_value_order(), ValueOrder::Ascending);
        assert_eq!(br.select_value(&st, &p, 0), 0);
        // A reset forgets which phase picked last.
        assert_eq!(br.select_var(&state_of(&p), &p), Some(3));
        br.reset(0);
        assert_eq!(br.current_value_order(), ValueOrder::Ascending);
    }

    #[test]
    fn the_split_orders_cut_below_or_above_and_every_other_order_assigns() {
        for order in ValueOrder::ALL {
            let br = Brancher::new(VarOrder::Input, order, false, 0);
            let want = match order {
                ValueOrder::Split => Cut::Le,
                ValueOrder::ReverseSplit => Cut::Gt,
                _ => Cut::Assign,
            };
            assert_eq!(br.cut(), want, "{order:?}");
        }
    }

    #[test]
    fn each_value_order_picks_its_documented_position_on_holes_negatives_and_intervals() {
        let mut m = Model::new();
        // x: -7 -2 0 3 4 9 (positions 0..6); i: the interval 10..=30.
        let x = m.new_var_with_values(&[-7, -2, 0, 3, 4, 9]).expect("var");
        let i = m.new_interval_var(10, 30).expect("var");
        let p = m.build().expect("model");
        let (x, i) = (x.index() as u32, i.index() as u32);
        let mut st = state_of(&p);
        let pick = |st: &State<u64>, order: ValueOrder, v: u32| {
            let mut br = Brancher::new(VarOrder::Input, order, false, 0);
            p.values[v as usize].value(br.select_value(st, &p, v))
        };
        // Six values: the lower median is the third; mid = floor((-7 + 9) / 2) = 1, the last value <= 1 is 0.
        assert_eq!(pick(&st, ValueOrder::Ascending, x), -7);
        assert_eq!(pick(&st, ValueOrder::Descending, x), 9);
        assert_eq!(pick(&st, ValueOrder::Median, x), 0);
        assert_eq!(pick(&st, ValueOrder::Split, x), 0);
        assert_eq!(pick(&st, ValueOrder::ReverseSplit, x), 0);
        // -7 and 4 gone: -2 0 3 9, median 0; mid = floor(7 / 2) = 3.
        st.remove(x, 0).expect("remove");
        st.remove(x, 4).expect("remove");
        assert_eq!(pick(&st, ValueOrder::Median, x), 0);
        assert_eq!(pick(&st, ValueOrder::Split, x), 3);
        // Only -2 0 3: the median is the middle one; mid = floor(1 / 2) = 0.
        st.remove(x, 5).expect("remove");
        assert_eq!(pick(&st, ValueOrder::Median, x), 0);
        assert_eq!(pick(&st, ValueOrder::Split, x), 0);
        assert_eq!(pick(&st, ValueOrder::Descending, x), 3);
        // The interval cut to 13..=27: median 20, split at 20, bounds for the others.
        st.restrict(i, 3, 18).expect("restrict");
        assert_eq!(pick(&st, ValueOrder::Ascending, i), 13);
        assert_eq!(pick(&st, ValueOrder::Descending, i), 27);
        assert_eq!(pick(&st, ValueOrder::Median, i), 20);
        assert_eq!(pick(&st, ValueOrder::Split, i), 20);
        assert_eq!(pick(&st, ValueOrder::Lcv, i), 13);
        // Random: always a value of the domain, each reached, the same for the same seed.
        for (v, values) in [(x, vec![-2, 0, 3]), (i, (13..=27).collect::<Vec<i64>>())] {
            let mut seen = vec![0u32; values.len()];
            let mut br = Brancher::new(VarOrder::Input, ValueOrder::Random, false, 0);
            for seed in 0..40 * values.len() as u64 {
                br.reset(seed);
                let a = br.select_value(&st, &p, v);
                br.reset(seed);
                assert_eq!(br.select_value(&st, &p, v), a);
                let k = values
                    .iter()
                    .position(|&w| w == p.values[v as usize].value(a));
                seen[k.expect("a value of the domain")] += 1;
            }
            assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
        }
    }

    #[test]
    fn least_constraining_value_picks_the_value_peers_lose_least_and_ties_to_the_lowest() {
        // x in 1..=3; x != a (a in 7..=8: no cost for any x), x != y (y in 1..=2): x = 3 costs nothing.
        // z in 3..=4 against y: both values free, the lower wins. u in 1..=2 against y, b (1 or 4), c (2 or 5)
        // and d (1 or 6): u = 1 removes three values (y's, b's and d's 1), u = 2 two (y's and c's 2).
        let mut m = Model::new();
        let x = m.new_var(1, 3).expect("var");
        let a = m.new_var(7, 8).expect("var");
        let y = m.new_var(1, 2).expect("var");
        let z = m.new_var(3, 4).expect("var");
        let u = m.new_var(1, 2).expect("var");
        let b = m.new_var_with_values(&[1, 4]).expect("var");
        let c = m.new_var_with_values(&[2, 5]).expect("var");
        let d = m.new_var_with_values(&[1, 6]).expect("var");
        m.not_equal(x, a, 0).expect("post");
        m.not_equal(x, y, 0).expect("post");
        m.not_equal(z, y, 0).expect("post");
        for peer in [y, b, c, d] {
            m.not_equal(u, peer, 0).expect("post");
        }
        let p = m.build().expect("model");
        let st = state_of(&p);
        let mut br = Brancher::new(VarOrder::Input, ValueOrder::Lcv, false, p.num_constraints());
        let value = |br: &mut Brancher, v: VarId| {
            let v = v.index() as u32;
            p.values[v as usize].value(br.select_value(&st, &p, v))
        };
        assert_eq!(value(&mut br, x), 3);
        assert_eq!(value(&mut br, z), 3);
        assert_eq!(value(&mut br, u), 2);
    }

    #[test]
    fn max_regret_reads_the_gap_after_the_smallest_value_of_a_bitset_or_an_interval() {
        // i: an interval (gap 1); b: 0 1 (gap 1); c: 0 5 9 (gap 5); d: 2 3 (gap 1).
        let mut m = Model::new();
        m.new_interval_var(3, 40).expect("var");
        m.new_var_with_values(&[0, 1]).expect("var");
        m.new_var_with_values(&[0, 5, 9]).expect("var");
        m.new_var_with_values(&[2, 3]).expect("var");
        let p = m.build().expect("model");
        let mut st = state_of(&p);
        let mut br = Brancher::new(VarOrder::MaxRegret, ValueOrder::Ascending, false, 0);
        assert_eq!(br.select_var(&st, &p), Some(2));
        // c without 0: 5 9, gap 4, still the largest.
        st.remove(2, 0).expect("remove");
        assert_eq!(br.select_var(&st, &p), Some(2));
        // c without 9 too: assigned. The interval (gap 1, lowest id) ties with b and d.
        st.remove(2, 2).expect("remove");
        assert_eq!(br.select_var(&st, &p), Some(0));
        // The interval moved up: its gap is still 1.
        st.restrict(0, 10, 20).expect("restrict");
        assert_eq!(br.select_var(&st, &p), Some(0));
    }

    #[test]
    fn a_conflict_adds_one_to_its_constraint_weight_and_a_reset_forgets_the_weights_of_dom_wdeg() {
        let mut br = Brancher::new(VarOrder::DomWdeg, ValueOrder::Random, false, 3);
        br.on_conflict(1);
        br.on_conflict(1);
        br.on_conflict(2);
        // A decision's conflict (no constraint) changes no weight.
        br.on_conflict(crate::state::Conflict::DECISION);
        assert_eq!(br.weights, vec![1, 3, 2]);
        br.reset(9);
        assert_eq!(br.weights, vec![1, 1, 1]);
        // The generator restarts from the seed.
        let mut fresh = Rng::new(9);
        assert_eq!(br.rng.next_u64(), fresh.next_u64());
        // Other orders keep their weights (nothing reads them).
        let mut br = Brancher::new(VarOrder::Mrv, ValueOrder::Ascending, false, 2);
        br.on_conflict(0);
        br.reset(0);
        assert_eq!(br.weights, vec![2, 1]);
    }

    #[test]
    fn dom_wdeg_divides_size_by_the_weights_of_constraints_that_still_have_another_open_variable() {
        // x0 in 0..=3, x1 in 0..=1, x2 in 0..=3; c0: x0 != x2, c1: x1 != x2.
        let mut m = Model::new();
        let xs: Vec<VarId> = [(0, 3), (0, 1), (0, 3)]
            .iter()
            .map(|&(lo, hi)| m.new_var(lo, hi).expect("var"))
            .collect();
        m.not_equal(xs[0], xs[2], 0).expect("post");
        m.not_equal(xs[1], xs[2], 0).expect("post");
        let p = m.build().expect("model");
        let mut st = state_of(&p);
        let mut br = Brancher::new(VarOrder::DomWdeg, ValueOrder::Ascending, false, 2);
        // 4/1, 2/1, 4/2: x1 and x2 tie, the lower id wins.
        assert_eq!(br.select_var(&st, &p), Some(1));
        // c0 weighs 4: 4/4, 2/1, 4/5.
        for _ in 0..3 {
            br.on_conflict(0);
        }
        assert_eq!(br.select_var(&st, &p), Some(2));
        // x2 assigned: no constraint has another open variable, so sizes decide (4/1, 2/1).
        st.assign(2, 3).expect("assign");
        assert_eq!(br.select_var(&st, &p), Some(1));
    }
}
