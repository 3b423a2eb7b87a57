//! `all_different` at domain consistency: the values `x_i + offset_i` are pairwise distinct, and after a call every
//! value left in a member's domain belongs to some assignment of the whole group (Régin 1994: a maximum matching
//! of the value graph, then its strongly connected components).
//!
//! # The value graph
//! Members on one side, the distinct shifted values of the group (its *universe*, `m` values) on the other, an edge
//! `(i, k)` when member `i` may take universe value `k`. A solution of the constraint is a matching that covers
//! every member; an edge belongs to some such matching exactly when it is in the current matching `M`, on an
//! alternating cycle, or on an even alternating path that starts at a value no member takes (Berge). With the
//! edges oriented as below, the last two cases become "both ends lie in one strongly connected component", with one
//! extra node (the *sink*) standing for the free values:
//!
//! ```text
//!   member i --(k in D(i), k != M(i))--> value k          value k --(M(k) = i)--> member i
//!   value k (free) ----------------------> sink            sink ---------------> value M(i), every member i
//! ```
//!
//! (the reverse of the usual orientation, so that a member's out-edges are its domain bits; reversing every edge
//! keeps the components). An edge `(i, k)` outside `M` whose ends lie in different components is removed. No
//! covering matching at all is a conflict. One call is a fixpoint of this rule (what it keeps extends to a solution),
//! so when no variable repeats in the scope the constraint says so ([`Constraint::idempotent`]) and its own
//! removals do not schedule it again.
//!
//! # Work per call, and what is kept between calls
//! The matching is kept between calls in the untrailed area of the constraints' store ([`crate::trailed`]): each
//! member's matched position and each value's member, sized when the model is built. It is a hint: a call first
//! drops the pairs whose value left the domain (after backtracking every pair is still valid, because domains only
//! grow back), then repairs the matching with augmenting paths (Kuhn's search, one per unmatched member), so a
//! call after a few removals costs a few path searches instead of a new matching. The components (Tarjan, iterative
//! with an explicit stack) and the removals visit every edge once: `O(n + m + sum |D(i)|)`. The numbering, the stacks
//! and the visit marks live in the same untrailed area, so a call allocates nothing.
//!
//! Forward checking of an assigned member ([`super::AllDifferent::on_fixed`], the value level's one
//! implementation) still runs at once on each assignment, before the matching: it is cheaper than a matching
//! pass and often leaves nothing for the pass to do.
//!
//! # Interval members
//! [`crate::Model::all_different_with`] posts the bounds level ([`super::AllDifferentBounds`]) instead when a
//! member is an interval variable: an interval has no holes to remove (the state ignores a removal strictly
//! inside it), its universe may hold up to `2^62` values, and the only pruning domain consistency adds over
//! bounds consistency is exactly such holes. Refusing would make every front end that passes a `domain`
//! annotation through (MiniZinc's annotations are hints) fail on models whose variables happen to be wide. The
//! same fallback applies past [`AllDifferentDomain::MAX_EDGES`] domain positions in the group.

use super::{AllDifferent, Constraint, Cost, Propagate, Propagation, Trigger};
use crate::domain::Domain;
use crate::state::{Conflict, State};
use crate::trailed::Layout;
use crate::values::Values;

/// Marks an unmatched member or value, an unvisited node, a finished node.
const NONE: u32 = u32::MAX;

/// Pairwise distinct `vars[i] + offsets[i]`, propagated at domain consistency (bitset members only).
#[derive(Clone, Debug)]
pub struct AllDifferentDomain {
    /// Scope.
    pub vars: Vec<u32>,
    /// Offset added to each variable's value.
    pub offsets: Vec<i64>,
    /// The value level on the same scope: forward checking on assignment, the partial check at level `None`, the
    /// value-order hint.
    value: AllDifferent,
    /// `width[i]` = number of domain positions of member `i`.
    width: Vec<u32>,
    /// Number of universe values `m`.
    universe: u32,
    /// How a member's domain position maps to a universe index.
    map: ValueMap,
    /// No variable repeats in the scope, so one call reaches this rule's fixpoint.
    idempotent: bool,
    /// Start of this constraint's words in the untrailed area (see [`Words`]).
    base: u32,
}

/// Universe index of position `p` of member `i`.
#[derive(Clone, Debug)]
enum ValueMap {
    /// Every member is a range: index = `p + shift[i]` (the universe is the whole span of shifted values).
    Shift(Vec<u32>),
    /// Some member is a value list (or the span is much wider than the values): `index[start[i] + p]`.
    Table {
        /// `start[i]` = offset of member `i`'s positions in `index`.
        start: Vec<u32>,
        /// Universe index of every position, member after member (increasing within a member).
        index: Vec<u32>,
    },
}

impl ValueMap {
    #[inline(always)]
    fn get(&self, i: usize, p: usize) -> u32 {
        match self {
            ValueMap::Shift(shift) => shift[i] + p as u32,
            ValueMap::Table { start, index } => index[start[i] as usize + p],
        }
    }
}

/// Where the words of one constraint live in the untrailed area (`N = n + m + 1` nodes: members `0..n`, values
/// `n..n + m`, the sink `n + m`), in this order from `base`:
///
/// | words        | meaning                                                                          |
/// |--------------|----------------------------------------------------------------------------------|
/// | `mate[n]`    | matched domain position of member `i`, or `NONE` (a hint, checked before use)    |
/// | `owner[m]`   | member matched to universe value `k`, or `NONE`                                   |
/// | `num[N]`     | Tarjan: 0 unvisited, DFS number while open, `NONE` once its component is known   |
/// | `low[N]`     | Tarjan: low link while open, then the component number                           |
/// | `stack[N]`   | Tarjan's stack of open nodes                                                      |
/// | `frame[N]`   | DFS frames: the node                                                              |
/// | `cursor[N]`  | DFS frames: where its edge scan resumes                                           |
/// | `seen[m]`    | augmenting search: the stamp of the search that last reached value `k`           |
/// | `stamp[1]`   | the last stamp used                                                               |
#[derive(Clone, Copy)]
struct Words {
    n: usize,
    m: usize,
    mate: usize,
    owner: usize,
    num: usize,
    low: usize,
    stack: usize,
    frame: usize,
    cursor: usize,
    seen: usize,
    stamp: usize,
    end: usize,
}

impl Words {
    fn new(base: usize, n: usize, m: usize) -> Self {
        let nodes = n + m + 1;
        let mate = base;
        let owner = mate + n;
        let num = owner + m;
        let low = num + nodes;
        let stack = low + nodes;
        let frame = stack + nodes;
        let cursor = frame + nodes;
        let seen = cursor + nodes;
        let stamp = seen + m;
        Self {
            n,
            m,
            mate,
            owner,
            num,
            low,
            stack,
            frame,
            cursor,
            seen,
            stamp,
            end: stamp + 1,
        }
    }
}

impl AllDifferentDomain {
    /// Most edges (the members' domain widths summed) of a value graph this propagator builds; the model posts
    /// the bounds level beyond it, so node numbers and the universe always fit a `u32` (and the untrailed words
    /// stay below a few hundred megabytes).
    pub const MAX_EDGES: usize = 1 << 24;

    /// Builds the constraint on bitset members; `offsets` has one entry per variable. The caller has checked that
    /// `value + offset` cannot overflow for any member and that no member is an interval.
    pub fn new(vars: Vec<u32>, offsets: Vec<i64>, values: &[Values]) -> Self {
        let value = AllDifferent::new(vars.clone(), offsets.clone(), values);
        let shifted =
            |i: usize, p: usize| values[vars[i] as usize].value(p) as i128 + offsets[i] as i128;
        let total: usize = vars.iter().map(|&v| values[v as usize].width()).sum();
        let ranges = vars
            .iter()
            .all(|&v| values[v as usize].range_min().is_some());
        let lo = (0..vars.len()).map(|i| shifted(i, 0)).min().unwrap_or(0);
        let hi = (0..vars.len())
            .map(|i| shifted(i, values[vars[i] as usize].width() - 1))
            .max()
            .unwrap_or(0);
        let span = hi - lo + 1;
        let (map, universe) = if ranges && span <= 2 * total as i128 + 64 {
            let shift = (0..vars.len())
                .map(|i| (shifted(i, 0) - lo) as u32)
                .collect();
            (ValueMap::Shift(shift), span.max(0) as u32)
        } else {
            let mut all: Vec<i128> = (0..vars.len())
                .flat_map(|i| (0..values[vars[i] as usize].width()).map(move |p| (i, p)))
                .map(|(i, p)| shifted(i, p))
                .collect();
            all.sort_unstable();
            all.dedup();
            let mut start = Vec::with_capacity(vars.len());
            let mut index = Vec::with_capacity(total);
            for (i, &v) in vars.iter().enumerate() {
                start.push(index.len() as u32);
                for p in 0..values[v as usize].width() {
                    let k = all.partition_point(|&x| x < shifted(i, p));
                    index.push(k as u32);
                }
            }
            (ValueMap::Table { start, index }, all.len() as u32)
        };
        let mut sorted = vars.clone();
        sorted.sort_unstable();
        let idempotent = sorted.windows(2).all(|w| w[0] != w[1]);
        let width = vars
            .iter()
            .map(|&v| values[v as usize].width() as u32)
            .collect();
        Self {
            vars,
            offsets,
            value,
            width,
            universe,
            map,
            idempotent,
            base: 0,
        }
    }

    fn words(&self) -> Words {
        Words::new(self.base as usize, self.vars.len(), self.universe as usize)
    }

    /// Brute force: no two shifted values coincide.
    pub fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        self.value.is_satisfied(value_of)
    }

    /// Matching, components, removals; see the module docs.
    pub fn propagate<D: Domain>(&self, st: &mut State<D>) -> Result<(), Conflict> {
        if self.vars.len() < 2 {
            return Ok(());
        }
        let mut free = std::mem::take(&mut st.cstate.free);
        let w = self.words();
        let result = match free.get_mut(self.base as usize..w.end) {
            Some(f) => self.run(st, f, Words::new(0, w.n, w.m)),
            None => Ok(()),
        };
        st.cstate.free = free;
        result
    }

    fn run<D: Domain>(&self, st: &mut State<D>, f: &mut [u32], w: Words) -> Result<(), Conflict> {
        if !self.repair(st, f, w) {
            return Err(st.conflict());
        }
        self.components(st, f, w);
        // Remove every edge outside the matching whose ends lie in different components.
        for (i, &x) in self.vars.iter().enumerate() {
            let (mate, comp) = (f[w.mate + i] as usize, f[w.low + i]);
            let mut next = st.dom(x).next_from(0);
            while let Some(p) = next {
                let k = self.map.get(i, p) as usize;
                if p != mate && f[w.low + w.n + k] != comp {
                    st.remove(x, p)?;
                }
                next = st.dom(x).next_from(p + 1);
            }
        }
        Ok(())
    }

    /// Drops the matched pairs whose value left the domain and completes the matching; false when no matching
    /// covers every member.
    fn repair<D: Domain>(&self, st: &State<D>, f: &mut [u32], w: Words) -> bool {
        // A pair survives when its position is still in the member's domain and its value still points back.
        for (i, &x) in self.vars.iter().enumerate() {
            let p = f[w.mate + i] as usize;
            let d = st.dom(x);
            let kept = p < self.width[i] as usize
                && d.contains(p)
                && f[w.owner + self.map.get(i, p) as usize] == i as u32;
            if !kept {
                f[w.mate + i] = NONE;
            }
        }
        for k in 0..w.m {
            let i = f[w.owner + k] as usize;
            let kept = i < w.n
                && f[w.mate + i] != NONE
                && self.map.get(i, f[w.mate + i] as usize) as usize == k;
            if !kept {
                f[w.owner + k] = NONE;
            }
        }
        for i in 0..w.n {
            if f[w.mate + i] == NONE && !self.augment(st, f, w, i) {
                return false;
            }
        }
        true
    }

    /// Kuhn's search for an augmenting path from unmatched member `root`; on success the matching grows by one.
    fn augment<D: Domain>(&self, st: &State<D>, f: &mut [u32], w: Words, root: usize) -> bool {
        // A free value straight in the domain first (the common case after a few removals).
        let d = st.dom(self.vars[root]);
        let mut next = d.next_from(0);
        while let Some(p) = next {
            let k = self.map.get(root, p) as usize;
            if f[w.owner + k] == NONE {
                f[w.owner + k] = root as u32;
                f[w.mate + root] = p as u32;
                return true;
            }
            next = d.next_from(p + 1);
        }
        let mut stamp = f[w.stamp].wrapping_add(1);
        if stamp == 0 || stamp == NONE {
            f[w.seen..w.seen + w.m].fill(0);
            stamp = 1;
        }
        f[w.stamp] = stamp;
        // frame[t] = member explored at depth t, cursor[t] = the position it tries next.
        let mut top = 0;
        f[w.frame] = root as u32;
        f[w.cursor] = 0;
        loop {
            let i = f[w.frame + top] as usize;
            let d = st.dom(self.vars[i]);
            let mut found = None;
            let mut next = d.next_from(f[w.cursor + top] as usize);
            while let Some(p) = next {
                let k = self.map.get(i, p) as usize;
                if f[w.seen + k] != stamp {
                    f[w.seen + k] = stamp;
                    found = Some((p, k));
                    break;
                }
                next = d.next_from(p + 1);
            }
            let Some((p, k)) = found else {
                if top == 0 {
                    return false;
                }
                top -= 1;
                continue;
            };
            f[w.cursor + top] = p as u32 + 1;
            let owner = f[w.owner + k];
            if owner == NONE {
                // Flip the path: every member on the stack takes the value it was exploring.
                for t in (0..=top).rev() {
                    let i = f[w.frame + t] as usize;
                    let p = f[w.cursor + t] as usize - 1;
                    let k = self.map.get(i, p) as usize;
                    f[w.mate + i] = p as u32;
                    f[w.owner + k] = i as u32;
                }
                return true;
            }
            top += 1;
            f[w.frame + top] = owner;
            f[w.cursor + top] = 0;
        }
    }

    /// Out-edge number `e` of `node` in the oriented graph (see the module docs), scanning from `e`; returns the
    /// target and the cursor after it.
    #[inline]
    fn edge<D: Domain>(
        &self,
        st: &State<D>,
        f: &[u32],
        w: Words,
        node: usize,
        e: usize,
    ) -> Option<(usize, usize)> {
        let sink = w.n + w.m;
        if node < w.n {
            // Member: its domain positions except the matched one.
            let d = st.dom(self.vars[node]);
            let mate = f[w.mate + node] as usize;
            let mut next = d.next_from(e);
            while let Some(p) = next {
                if p != mate {
                    return Some((w.n + self.map.get(node, p) as usize, p + 1));
                }
                next = d.next_from(p + 1);
            }
            None
        } else if node < sink {
            // Value: its member if matched, the sink if free (one edge).
            if e > 0 {
                return None;
            }
            let owner = f[w.owner + node - w.n];
            Some((if owner == NONE { sink } else { owner as usize }, 1))
        } else {
            // Sink: every matched value.
            let i = e;
            (i < w.n).then(|| {
                let k = self.map.get(i, f[w.mate + i] as usize) as usize;
                (w.n + k, i + 1)
            })
        }
    }

    /// Tarjan's strongly connected components, iterative: afterwards `low[node]` is the component of every node
    /// reached from the members (values no member can take are never read).
    fn components<D: Domain>(&self, st: &State<D>, f: &mut [u32], w: Words) {
        let nodes = w.n + w.m + 1;
        f[w.num..w.num + nodes].fill(0);
        let mut counter = 0u32;
        let mut comps = 0u32;
        let mut sp = 0; // Tarjan stack height
        for start in (0..w.n).chain(std::iter::once(w.n + w.m)) {
            if f[w.num + start] != 0 {
                continue;
            }
            let mut top = 0;
            counter += 1;
            f[w.num + start] = counter;
            f[w.low + start] = counter;
            f[w.stack + sp] = start as u32;
            sp += 1;
            f[w.frame] = start as u32;
            f[w.cursor] = 0;
            loop {
                let node = f[w.frame + top] as usize;
                match self.edge(st, f, w, node, f[w.cursor + top] as usize) {
                    Some((to, after)) => {
                        f[w.cursor + top] = after as u32;
                        let num = f[w.num + to];
                        if num == 0 {
                            counter += 1;
                            f[w.num + to] = counter;
                            f[w.low + to] = counter;
                            f[w.stack + sp] = to as u32;
                            sp += 1;
                            top += 1;
                            f[w.frame + top] = to as u32;
                            f[w.cursor + top] = 0;
                        } else if num != NONE && num < f[w.low + node] {
                            f[w.low + node] = num;
                        }
                    }
                    None => {
                        let low = f[w.low + node];
                        if low == f[w.num + node] {
                            // `node` roots a component: pop it off the stack.
                            loop {
                                sp -= 1;
                                let u = f[w.stack + sp] as usize;
                                f[w.num + u] = NONE;
                                f[w.low + u] = comps;
                                if u == node {
                                    break;
                                }
                            }
                            comps += 1;
                        }
                        if top == 0 {
                            break;
                        }
                        top -= 1;
                        let parent = f[w.frame + top] as usize;
                        // A finished child in a component already popped holds a component number, not a link.
                        if f[w.num + node] != NONE && low < f[w.low + parent] {
                            f[w.low + parent] = low;
                        }
                    }
                }
            }
        }
    }
}

impl Constraint for AllDifferentDomain {
    fn name(&self) -> &'static str {
        "all_different_domain"
    }
    fn vars(&self) -> &[u32] {
        &self.vars
    }
    fn is_satisfied(&self, value_of: &dyn Fn(u32) -> i64) -> bool {
        AllDifferentDomain::is_satisfied(self, value_of)
    }
    /// Any removal at every level above place-then-check.
    fn trigger(&self, level: Propagation) -> Option<Trigger> {
        (level != Propagation::None).then_some(Trigger::Domain)
    }
    fn fixed_rule(&self) -> bool {
        true
    }
    fn cost(&self) -> Cost {
        Cost::Expensive
    }
    fn idempotent(&self) -> bool {
        self.idempotent
    }
    fn place(&mut self, layout: &mut Layout) {
        self.base = layout.free.len() as u32;
        let w = self.words();
        layout.free.resize(w.end, 0);
        layout.free[w.mate..w.owner + w.m].fill(NONE);
    }
}

impl<D: Domain> Propagate<D> for AllDifferentDomain {
    #[inline]
    fn propagate(&self, st: &mut State<D>, _values: &[Values]) -> Result<(), Conflict> {
        AllDifferentDomain::propagate(self, st)
    }
    #[inline]
    fn on_fixed(&self, pos: usize, st: &mut State<D>, values: &[Values]) -> Result<(), Conflict> {
        self.value.on_fixed(pos, st, values)
    }
    fn removals_if_fixed(&self, pos: usize, p: usize, st: &State<D>, values: &[Values]) -> u32 {
        self.value.removals_if_fixed(pos, p, st, values)
    }
    fn check_partial(&self, pos: usize, st: &State<D>, values: &[Values]) -> Result<(), Conflict> {
        self.value.check_fixed_at(pos, st, values)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::constraints::AllDifferentLevel;
    use crate::model::{Model, Problem};
    use crate::propagate::Propagator;
    use crate::rng::Rng;
    use crate::stats::Stats;

    fn state_of(p: &Problem) -> State<u64> {
        let widths: Vec<usize> = p.values.iter().map(|v| v.width()).collect();
        let mut st: State<u64> = State::new(&widths);
        st.cstate = p.trailed::<u64>();
        st
    }

    fn current(p: &Problem, st: &State<u64>) -> Vec<Vec<i64>> {
        (0..p.num_vars() as u32)
            .map(|v| {
                st.dom(v)
                    .iter()
                    .map(|i| p.values[v as usize].value(i))
                    .collect()
            })
            .collect()
    }

    /// Root propagation of `doms` under one `all_different` at `level`; `None` on a conflict.
    fn root(doms: &[&[i64]], level: AllDifferentLevel, prop: Propagation) -> Option<Vec<Vec<i64>>> {
        let mut m = Model::new();
        let xs: Vec<_> = doms
            .iter()
            .map(|d| m.new_var_with_values(d).unwrap())
            .collect();
        m.all_different_with(&xs, &vec![0; xs.len()], level)
            .unwrap();
        let p = m.build().unwrap();
        let mut st = state_of(&p);
        let mut pr = Propagator::new(&p.constraints, p.num_vars(), prop, false);
        pr.root(&p.constraints, &p.values, &mut st, &mut Stats::default())
            .ok()
            .map(|()| current(&p, &st))
    }

    #[test]
    fn a_hall_set_with_a_hole_prunes_at_the_domain_level_only() {
        // x0, x1 in {1, 3} use up 1 and 3: x2 = 2, and x3 loses 1, 2, 3.
        let doms: [&[i64]; 4] = [&[1, 3], &[1, 3], &[1, 2, 3], &[1, 2, 3, 4, 5]];
        for prop in [Propagation::ForwardChecking, Propagation::Singles] {
            let dom = root(&doms, AllDifferentLevel::Domain, prop).unwrap();
            assert_eq!(dom, [vec![1, 3], vec![1, 3], vec![2], vec![4, 5]]);
            // Bounds: [1, 3] is a Hall interval of x0, x1, x2 and pushes x3 only; x2 keeps its bounds 1 and 3.
            let bnd = root(&doms, AllDifferentLevel::Bounds, prop).unwrap();
            assert_eq!(bnd, [vec![1, 3], vec![1, 3], vec![1, 2, 3], vec![4, 5]]);
            // Value: nothing is assigned and five values are left for four members.
            let val = root(&doms, AllDifferentLevel::Value, prop).unwrap();
            assert_eq!(val, doms.map(|d| d.to_vec()));
        }
    }

    #[test]
    fn a_pigeonhole_fails_at_the_root_at_the_domain_level_only() {
        // Four members, three values among them all; the value level needs an assignment to see it.
        let doms: [&[i64]; 4] = [&[1, 2], &[2, 3], &[1, 3], &[1, 2, 3]];
        assert!(root(
            &doms,
            AllDifferentLevel::Domain,
            Propagation::ForwardChecking
        )
        .is_none());
        assert!(root(
            &doms,
            AllDifferentLevel::Value,
            Propagation::ForwardChecking
        )
        .is_some());
        // Three members with holes inside {1, 5}: bounds see room, a matching does not.
        let doms: [&[i64]; 3] = [&[1, 5], &[1, 5], &[1, 5]];
        assert!(root(
            &doms,
            AllDifferentLevel::Domain,
            Propagation::ForwardChecking
        )
        .is_none());
        assert!(root(
            &doms,
            AllDifferentLevel::Bounds,
            Propagation::ForwardChecking
        )
        .is_some());
    }

    /// The values of `doms` that belong to some solution of `p`, or `None` when there is none.
    fn supported(p: &Problem, doms: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
        let sols = crate::fuzz_targets::brute_force(p, doms);
        if sols.is_empty() {
            return None;
        }
        Some(
            (0..doms.len())
                .map(|v| {
                    let mut vals: Vec<i64> = sols.iter().map(|s| s[v]).collect();
                    vals.sort_unstable();
                    vals.dedup();
                    vals
                })
                .collect(),
        )
    }

    #[test]
    fn every_value_left_belongs_to_a_solution_after_root_and_incremental_propagation() {
        let mut rng = Rng::new(0xD0);
        let mut pruned_beyond_value = 0;
        for case in 0..400 {
            let n = 2 + rng.below(4) as usize;
            let mut m = Model::new();
            let mut doms = Vec::new();
            let mut xs = Vec::new();
            for _ in 0..n {
                let mut d: Vec<i64> = (-3..=3).filter(|_| rng.below(2) == 0).collect();
                if d.is_empty() {
                    d.push(rng.below(7) as i64 - 3);
                }
                xs.push(m.new_var_with_values(&d).unwrap());
                doms.push(d);
            }
            let offsets: Vec<i64> = (0..n).map(|_| rng.below(3) as i64 - 1).collect();
            m.all_different_with(&xs, &offsets, AllDifferentLevel::Domain)
                .unwrap();
            let p = m.build().unwrap();
            let mut st = state_of(&p);
            let mut pr = Propagator::new(
                &p.constraints,
                p.num_vars(),
                Propagation::ForwardChecking,
                false,
            );
            let mut stats = Stats::default();
            let ok = pr
                .root(&p.constraints, &p.values, &mut st, &mut stats)
                .is_ok();
            let want = supported(&p, &doms);
            assert_eq!(
                ok.then(|| current(&p, &st)),
                want,
                "case {case}: root of {doms:?}"
            );
            if !ok {
                continue;
            }
            if want.as_ref() != Some(&doms) {
                pruned_beyond_value += 1;
            }
            for _ in 0..4 {
                let open: Vec<u32> = (0..n as u32).filter(|&v| !st.is_fixed(v)).collect();
                if open.is_empty() {
                    break;
                }
                let v = open[rng.below(open.len() as u64) as usize];
                let pos = st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap();
                st.push_level();
                st.remove(v, pos).unwrap();
                let before = current(&p, &st);
                let ok = pr
                    .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                    .is_ok();
                let want = supported(&p, &before);
                assert_eq!(
                    ok.then(|| current(&p, &st)),
                    want,
                    "case {case}: after removals from {before:?}"
                );
                if !ok {
                    break;
                }
            }
        }
        assert!(
            pruned_beyond_value > 40,
            "only {pruned_beyond_value} cases pruned at the root"
        );
    }
}
