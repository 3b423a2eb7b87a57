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
    use crate::constraints::soundness::{current, state_of};
    use crate::constraints::AllDifferentLevel;
    use crate::model::{Model, Problem};
    use crate::propagate::Propagator;
    use crate::rng::Rng;
    use crate::stats::Stats;

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

    /// Positions `j..` of `group` (each a variable and its offset) take values of `doms` whose shifted values are
    /// pairwise distinct and not in `used`; position `skip` is left out (plain backtracking on value lists).
    fn fill(
        group: &[(usize, i64)],
        doms: &[Vec<i64>],
        skip: usize,
        j: usize,
        used: &mut Vec<i64>,
    ) -> bool {
        if j == group.len() {
            return true;
        }
        if j == skip {
            return fill(group, doms, skip, j + 1, used);
        }
        let (v, off) = group[j];
        for &x in &doms[v] {
            if used.contains(&(x + off)) {
                continue;
            }
            used.push(x + off);
            let ok = fill(group, doms, skip, j + 1, used);
            used.pop();
            if ok {
                return true;
            }
        }
        false
    }

    /// The domains the rule of the module docs leaves, recomputed on value lists: each scope position is a
    /// member of its own (a repeated variable is a member per position), a value of a member stays when the other
    /// members can take pairwise distinct shifted values avoiding it, and the rule is applied group after group
    /// until nothing changes; `None` when a domain empties.
    fn rule_fixpoint(groups: &[Vec<(usize, i64)>], doms: &[Vec<i64>]) -> Option<Vec<Vec<i64>>> {
        let mut d = doms.to_vec();
        loop {
            let mut changed = false;
            for g in groups.iter().filter(|g| g.len() >= 2) {
                for (i, &(v, off)) in g.iter().enumerate() {
                    let keep: Vec<i64> = d[v]
                        .iter()
                        .copied()
                        .filter(|&x| fill(g, &d, i, 0, &mut vec![x + off]))
                        .collect();
                    if keep.is_empty() {
                        return None;
                    }
                    if keep.len() != d[v].len() {
                        d[v] = keep;
                        changed = true;
                    }
                }
            }
            if !changed {
                return Some(d);
            }
        }
    }

    /// A random domain: a range (sometimes wide, so the universe has values no member of a short range takes) or
    /// a list with holes.
    fn random_domain(rng: &mut Rng) -> Vec<i64> {
        match rng.below(4) {
            0 => {
                let lo = rng.below(7) as i64 - 3;
                (lo..=lo + rng.below(4) as i64).collect()
            }
            1 => {
                let lo = rng.below(3) as i64 * 4 - 4;
                (lo..=lo + 2 + rng.below(8) as i64).collect()
            }
            _ => {
                let d: Vec<i64> = (-3..=3).filter(|_| rng.below(2) == 0).collect();
                if d.is_empty() {
                    vec![rng.below(7) as i64 - 3]
                } else {
                    d
                }
            }
        }
    }

    #[test]
    fn every_fixpoint_of_overlapping_groups_equals_the_rule_recomputed_on_value_lists_down_walks_that_backtrack(
    ) {
        let mut rng = Rng::new(0xD1);
        let (mut steps, mut failures, mut backtracks, mut pruned, mut repeated) = (0, 0, 0, 0, 0);
        for case in 0..300 {
            let n = 3 + rng.below(4) as usize;
            let mut m = Model::new();
            let doms: Vec<Vec<i64>> = (0..n).map(|_| random_domain(&mut rng)).collect();
            let xs: Vec<_> = doms
                .iter()
                .map(|d| m.new_var_with_values(d).unwrap())
                .collect();
            // One or two groups (each posted to its own words in the store), a variable sometimes repeated.
            let mut groups: Vec<Vec<(usize, i64)>> = Vec::new();
            for _ in 0..1 + rng.below(2) {
                let size = 2 + rng.below(n as u64 - 1) as usize;
                let mut scope: Vec<usize> = (0..n).collect();
                for i in 0..n {
                    scope.swap(i, i + rng.below((n - i) as u64) as usize);
                }
                scope.truncate(size);
                if rng.below(4) == 0 {
                    scope.push(scope[0]);
                    repeated += 1;
                }
                let group: Vec<(usize, i64)> = scope
                    .iter()
                    .map(|&v| (v, rng.below(3) as i64 - 1))
                    .collect();
                let vars: Vec<_> = group.iter().map(|&(v, _)| xs[v]).collect();
                let offs: Vec<i64> = group.iter().map(|&(_, o)| o).collect();
                m.all_different_with(&vars, &offs, AllDifferentLevel::Domain)
                    .unwrap();
                groups.push(group);
            }
            let p = m.build().unwrap();
            let prop = if case % 2 == 0 {
                Propagation::ForwardChecking
            } else {
                Propagation::Singles
            };
            let mut st = state_of(&p);
            let mut pr = Propagator::new(&p.constraints, p.num_vars(), prop, false);
            let mut stats = Stats::default();
            let ok = pr
                .root(&p.constraints, &p.values, &mut st, &mut stats)
                .is_ok();
            let want = rule_fixpoint(&groups, &doms);
            assert_eq!(
                ok.then(|| current(&p, &st)),
                want,
                "case {case}: root of {doms:?} under {groups:?}"
            );
            if !ok {
                failures += 1;
                continue;
            }
            pruned += usize::from(want.as_ref() != Some(&doms));
            // saved[l] = the domains when level l + 1 opened.
            let mut saved: Vec<Vec<Vec<i64>>> = Vec::new();
            for _ in 0..12 {
                let open: Vec<u32> = (0..n as u32).filter(|&v| !st.is_fixed(v)).collect();
                if open.is_empty() || (!saved.is_empty() && rng.below(3) == 0) {
                    if saved.is_empty() {
                        break;
                    }
                    let to = rng.below(saved.len() as u64) as usize;
                    if to + 1 == saved.len() && rng.below(2) == 0 {
                        pr.pop_level(&mut st);
                    } else {
                        pr.backtrack_to(&mut st, to);
                    }
                    saved.truncate(to + 1);
                    assert_eq!(current(&p, &st), saved.pop().unwrap(), "case {case}: undo");
                    backtracks += 1;
                    continue;
                }
                saved.push(current(&p, &st));
                pr.push_level(&mut st);
                let v = open[rng.below(open.len() as u64) as usize];
                let pos = st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap();
                if rng.below(3) == 0 {
                    st.assign(v, pos).unwrap();
                } else {
                    st.remove(v, pos).unwrap();
                }
                let before = current(&p, &st);
                let ok = pr
                    .fixpoint(&p.constraints, &p.values, &mut st, &mut stats)
                    .is_ok();
                assert_eq!(
                    ok.then(|| current(&p, &st)),
                    rule_fixpoint(&groups, &before),
                    "case {case}: fixpoint from {before:?} under {groups:?}"
                );
                steps += 1;
                if !ok {
                    failures += 1;
                    pr.pop_level(&mut st);
                    assert_eq!(current(&p, &st), saved.pop().unwrap(), "case {case}: undo");
                }
            }
        }
        assert!(
            steps > 1000 && failures > 50 && backtracks > 300 && pruned > 40 && repeated > 40,
            "{steps} steps, {failures} failures, {backtracks} backtracks, {pruned} pruned roots, {repeated} repeats"
        );
    }

    /// The problem's variables over `doms` (ranges where contiguous), and a group on all of them, built directly
    /// and placed after `before` words of other constraints.
    fn direct(
        doms: &[Vec<i64>],
        offsets: &[i64],
        before: usize,
    ) -> (Problem, AllDifferentDomain, Layout) {
        let mut m = Model::new();
        for d in doms {
            m.new_var_with_values(d).unwrap();
        }
        let p = m.build().unwrap();
        let mut c = AllDifferentDomain::new(
            (0..doms.len() as u32).collect(),
            offsets.to_vec(),
            &p.values,
        );
        let mut layout = Layout {
            free: vec![7; before],
            ..Layout::default()
        };
        c.place(&mut layout);
        (p, c, layout)
    }

    #[test]
    fn universe_indexes_are_equal_exactly_when_shifted_values_are_and_ranges_map_by_a_shift() {
        let mut rng = Rng::new(0xD2);
        let (mut shifts, mut tables) = (0, 0);
        for _ in 0..400 {
            let n = 1 + rng.below(5) as usize;
            let doms: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    if rng.below(5) == 0 {
                        // Far apart: the span is much wider than the values.
                        let lo = rng.below(3) as i64 * 1000 - 1000;
                        (lo..=lo + rng.below(3) as i64).collect()
                    } else {
                        random_domain(&mut rng)
                    }
                })
                .collect();
            let offsets: Vec<i64> = (0..n).map(|_| rng.below(5) as i64 - 2).collect();
            let (p, c, _) = direct(&doms, &offsets, 0);
            let all: Vec<(usize, usize, i64)> = (0..n)
                .flat_map(|i| (0..doms[i].len()).map(move |q| (i, q)))
                .map(|(i, q)| (i, q, doms[i][q] + offsets[i]))
                .collect();
            let mut distinct: Vec<i64> = all.iter().map(|t| t.2).collect();
            distinct.sort_unstable();
            distinct.dedup();
            for &(i, q, s) in &all {
                let k = c.map.get(i, q);
                assert!(
                    k < c.universe,
                    "{doms:?} {offsets:?}: index {k} of x{i}[{q}]"
                );
                for &(j, r, t) in &all {
                    assert_eq!(
                        k == c.map.get(j, r),
                        s == t,
                        "{doms:?} {offsets:?}: x{i}[{q}], x{j}[{r}]"
                    );
                }
            }
            let ranges = p.values.iter().all(|v| v.range_min().is_some());
            let lo = all.iter().map(|t| t.2).min().unwrap();
            let hi = all.iter().map(|t| t.2).max().unwrap();
            match &c.map {
                ValueMap::Shift(_) => {
                    shifts += 1;
                    assert!(ranges, "{doms:?}: a list mapped by a shift");
                    assert_eq!(c.universe as i64, hi - lo + 1, "{doms:?} {offsets:?}");
                }
                ValueMap::Table { .. } => {
                    tables += 1;
                    assert_eq!(c.universe as usize, distinct.len(), "{doms:?} {offsets:?}");
                    // A table only when some member is a list or the span dwarfs the values.
                    assert!(
                        !ranges || hi - lo > 100,
                        "{doms:?} {offsets:?}: ranges in a table"
                    );
                }
            }
            assert!(c.idempotent);
            assert_eq!(
                c.width,
                doms.iter().map(|d| d.len() as u32).collect::<Vec<_>>()
            );
        }
        assert!(
            shifts > 50 && tables > 50,
            "{shifts} shifts, {tables} tables"
        );
    }

    #[test]
    fn the_search_stamp_wraps_without_taking_a_stale_visit_mark_for_a_fresh_one() {
        let mut rng = Rng::new(0xD3);
        let mut wrapped = 0;
        for case in 0..300 {
            // Members over about as many values as there are members: most matchings need augmenting paths.
            let n = 3 + rng.below(3) as usize;
            let doms: Vec<Vec<i64>> = (0..n)
                .map(|_| {
                    let d: Vec<i64> = (0..=n as i64).filter(|_| rng.below(3) != 0).collect();
                    if d.is_empty() {
                        vec![0]
                    } else {
                        d
                    }
                })
                .collect();
            let (p, c, layout) = direct(&doms, &vec![0; n], 1 + rng.below(4) as usize);
            let mut st = state_of(&p);
            st.cstate = crate::trailed::Trailed::new(Vec::new(), Vec::new(), layout.free, 0);
            let w = c.words();
            // The stamp word near the end of its range, every visit mark at most the stamp (the invariant; 0 for a
            // value no search reached yet).
            let start = NONE - 1 - rng.below(2) as u32;
            st.cstate.free[w.stamp] = start;
            for k in 0..w.m {
                st.cstate.free[w.seen + k] = match rng.below(3) {
                    0 => 0,
                    1 => start,
                    _ => start - rng.below(50) as u32,
                };
            }
            let group: Vec<(usize, i64)> = (0..n).map(|v| (v, 0)).collect();
            for call in 0..6 {
                // Forget the matching, so every member is matched again, by augmenting paths when it must.
                st.cstate.free[w.mate..w.owner + w.m].fill(NONE);
                let before = current(&p, &st);
                let ok = Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok();
                let want = rule_fixpoint(std::slice::from_ref(&group), &before);
                assert_eq!(
                    ok.then(|| current(&p, &st)),
                    want,
                    "case {case}, call {call}: {before:?}"
                );
                if !ok {
                    break;
                }
                let open: Vec<u32> = (0..n as u32).filter(|&v| !st.is_fixed(v)).collect();
                if open.is_empty() {
                    break;
                }
                let v = open[rng.below(open.len() as u64) as usize];
                let pos = st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap();
                st.remove(v, pos).unwrap();
            }
            // The words before this constraint's are untouched.
            assert!(st.cstate.free[..c.base as usize].iter().all(|&x| x == 7));
            if st.cstate.free[w.stamp] < start {
                wrapped += 1;
            }
        }
        assert!(wrapped > 30, "the stamp wrapped in {wrapped} cases only");
    }

    #[test]
    fn the_value_level_answers_for_the_group_and_the_group_reports_its_contract() {
        let mut rng = Rng::new(0xD4);
        for _ in 0..300 {
            let n = 2 + rng.below(4) as usize;
            let doms: Vec<Vec<i64>> = (0..n).map(|_| random_domain(&mut rng)).collect();
            let offsets: Vec<i64> = (0..n).map(|_| rng.below(3) as i64 - 1).collect();
            let (p, c, _) = direct(&doms, &offsets, 0);
            let mut st = state_of(&p);
            // Fix a random part of the members.
            for v in 0..n as u32 {
                if rng.below(2) == 0 {
                    let pos = st.dom(v).nth(rng.below(st.size(v) as u64) as u32).unwrap();
                    st.assign(v, pos).unwrap();
                }
            }
            let now = current(&p, &st);
            for i in 0..n {
                for (q, &x) in doms[i].iter().enumerate() {
                    // Unassigned peers that hold the value `x + offsets[i]` after their own offset.
                    let lose = (0..n)
                        .filter(|&j| {
                            j != i
                                && now[j].len() > 1
                                && now[j].contains(&(x + offsets[i] - offsets[j]))
                        })
                        .count() as u32;
                    assert_eq!(
                        Propagate::<u64>::removals_if_fixed(&c, i, q, &st, &p.values),
                        lose,
                        "{now:?} {offsets:?}: x{i} = {x}"
                    );
                }
                if now[i].len() == 1 {
                    let clash = (0..n).any(|j| {
                        j != i
                            && now[j].len() == 1
                            && now[j][0] + offsets[j] == now[i][0] + offsets[i]
                    });
                    assert_eq!(
                        Propagate::<u64>::check_partial(&c, i, &st, &p.values).is_err(),
                        clash,
                        "{now:?} {offsets:?}: x{i}"
                    );
                }
            }
            // On a full assignment, the checker against distinct shifted values.
            let full: Vec<i64> = doms
                .iter()
                .map(|d| d[rng.below(d.len() as u64) as usize])
                .collect();
            let mut shifted: Vec<i64> = (0..n).map(|i| full[i] + offsets[i]).collect();
            shifted.sort_unstable();
            shifted.dedup();
            assert_eq!(
                Constraint::is_satisfied(&c, &|v| full[v as usize]),
                shifted.len() == n,
                "{full:?} {offsets:?}"
            );
        }
        let (_, c, _) = direct(&[vec![0, 1], vec![0, 1]], &[0, 0], 0);
        assert_eq!(Constraint::name(&c), "all_different_domain");
        assert_eq!(Constraint::vars(&c), &[0, 1]);
        // Forward checking runs at once on each assignment, the matching pass on any removal above level `None`.
        assert!(Constraint::fixed_rule(&c));
        assert!(matches!(Constraint::cost(&c), Cost::Expensive));
        assert!(Constraint::trigger(&c, Propagation::None).is_none());
        for level in [Propagation::ForwardChecking, Propagation::Singles] {
            assert!(matches!(
                Constraint::trigger(&c, level),
                Some(Trigger::Domain)
            ));
        }
        // One call is a fixpoint unless a variable repeats.
        assert!(Constraint::idempotent(&c));
        let mut m = Model::new();
        m.new_var(0, 3).unwrap();
        m.new_var(0, 3).unwrap();
        let p = m.build().unwrap();
        assert!(!Constraint::idempotent(&AllDifferentDomain::new(
            vec![0, 1, 0],
            vec![0, 0, 1],
            &p.values
        )));
    }

    /// The group of `direct` on `doms` (no offsets), alone in a search state's store, ready for direct calls.
    fn alone(doms: &[Vec<i64>]) -> (Problem, AllDifferentDomain, State<u64>) {
        let (p, c, layout) = direct(doms, &vec![0; doms.len()], 0);
        let mut st = state_of(&p);
        st.cstate = crate::trailed::Trailed::new(Vec::new(), Vec::new(), layout.free, 0);
        (p, c, st)
    }

    #[test]
    fn a_group_of_two_members_is_propagated_by_the_pass_itself() {
        // Without forward checking: the matching pass alone must see that x0 = 1 leaves x1 only 2, and that two
        // members fixed to one value clash.
        let (p, c, mut st) = alone(&[vec![1], vec![1, 2]]);
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        assert_eq!(current(&p, &st), [vec![1], vec![2]]);
        let (p, c, mut st) = alone(&[vec![1, 3], vec![1]]);
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        assert_eq!(current(&p, &st), [vec![3], vec![1]]);
        let (p, c, mut st) = alone(&[vec![2], vec![2]]);
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_err());
        // One member alone has nothing to differ from.
        let (p, c, mut st) = alone(&[vec![2, 4]]);
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        assert_eq!(current(&p, &st), [vec![2, 4]]);
    }

    #[test]
    fn a_fixed_member_loses_its_value_from_the_others_on_the_fixing_event_itself() {
        // The event alone (no pass of the matching): x0 = 1 takes 1 from x1 and x2.
        let (p, c, mut st) = alone(&[vec![1], vec![1, 2], vec![1, 3, 4]]);
        assert!(Propagate::<u64>::on_fixed(&c, 0, &mut st, &p.values).is_ok());
        assert_eq!(current(&p, &st), [vec![1], vec![2], vec![3, 4]]);
        // Another member fixed to the same value is a conflict.
        let (p, c, mut st) = alone(&[vec![2, 5], vec![2]]);
        assert!(Propagate::<u64>::on_fixed(&c, 1, &mut st, &p.values).is_ok());
        assert_eq!(current(&p, &st), [vec![5], vec![2]]);
        let (p, c, mut st) = alone(&[vec![2], vec![2]]);
        assert!(Propagate::<u64>::on_fixed(&c, 0, &mut st, &p.values).is_err());
    }

    #[test]
    fn a_matching_left_in_the_words_is_kept_while_its_values_stay_and_repaired_when_one_goes() {
        // x0 in {1, 2}, x1 in {1, 2, 3} (a shift: universe index = value - 1). A first pass from scratch takes the
        // first free value of each member in turn: x0 = 1, x1 = 2.
        let (p, c, mut st) = alone(&[vec![1, 2], vec![1, 2, 3]]);
        let w = c.words();
        let words = |st: &State<u64>| st.cstate.free[w.mate..w.owner + w.m].to_vec();
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        // mate[0], mate[1] (positions), then owner[0..3] (members).
        assert_eq!(words(&st), [0, 1, 0, 1, NONE]);
        // Other covering matchings written over it, x0 = 1 and x1 = 3, then x0 = 2 and x1 = 1, are kept as they
        // are: nothing was removed. (Each member's pair is checked at its own position, not at another's.)
        for hint in [[0, 2, 0, NONE, 1], [1, 0, 1, 0, NONE]] {
            st.cstate.free[w.mate..w.owner + w.m].copy_from_slice(&hint);
            assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
            assert_eq!(words(&st), hint);
            assert_eq!(current(&p, &st), [vec![1, 2], vec![1, 2, 3]]);
        }
        // Value 3 leaves x1: no pair uses it, the matching stays.
        st.remove(1, 2).unwrap();
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        assert_eq!(words(&st), [1, 0, 1, 0, NONE]);
        // Value 1 leaves x1: its pair goes, x1 takes 2 back from x0 by an augmenting path, x0 moves to 1, and
        // then x0 = 1 and x1 = 2 are forced.
        st.remove(1, 0).unwrap();
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        assert_eq!(words(&st), [0, 1, 0, 1, NONE]);
        assert_eq!(current(&p, &st), [vec![1], vec![2]]);
    }

    #[test]
    fn placing_a_group_appends_exactly_the_words_of_the_table_with_no_pair_matched() {
        let mut rng = Rng::new(0xD5);
        for _ in 0..200 {
            let n = 1 + rng.below(5) as usize;
            let doms: Vec<Vec<i64>> = (0..n).map(|_| random_domain(&mut rng)).collect();
            let offsets: Vec<i64> = (0..n).map(|_| rng.below(3) as i64 - 1).collect();
            let before = rng.below(5) as usize;
            let (_, c, layout) = direct(&doms, &offsets, before);
            let (m, nodes) = (c.universe as usize, n + c.universe as usize + 1);
            let w = c.words();
            assert_eq!((c.base as usize, w.n, w.m), (before, n, m), "{doms:?}");
            // mate[n], owner[m], num, low, stack, frame and cursor [n + m + 1] each, seen[m], stamp[1], back to back.
            let ends = [
                (w.mate, w.owner, n),
                (w.owner, w.num, m),
                (w.num, w.low, nodes),
                (w.low, w.stack, nodes),
                (w.stack, w.frame, nodes),
                (w.frame, w.cursor, nodes),
                (w.cursor, w.seen, nodes),
                (w.seen, w.stamp, m),
                (w.stamp, w.end, 1),
            ];
            assert_eq!(w.mate, before);
            for (from, to, len) in ends {
                assert_eq!(to - from, len, "{doms:?}: {ends:?}");
            }
            assert_eq!(layout.free.len(), w.end, "{doms:?}");
            let f = &layout.free;
            assert!(f[..before].iter().all(|&x| x == 7), "{f:?}");
            assert!(f[w.mate..w.num].iter().all(|&x| x == NONE), "{f:?}");
            assert!(f[w.num..].iter().all(|&x| x == 0), "{f:?}");
        }
    }

    #[test]
    fn each_augmenting_search_takes_the_next_stamp_and_the_marks_are_cleared_only_when_it_wraps() {
        // x0, x1 in 1..=4, x2 in {1, 2}: from an empty matching x0 takes 1 and x1 takes 2, so x2 needs one
        // augmenting search, which reaches values 1, 2, 3 (x1 moves to 3, x0 to 2, x2 takes 1) and never 4.
        let (p, c, mut st) = alone(&[vec![1, 2, 3, 4], vec![1, 2, 3, 4], vec![1, 2]]);
        let w = c.words();
        let call = |st: &mut State<u64>| {
            st.cstate.free[w.mate..w.owner + w.m].fill(NONE);
            assert!(Propagate::<u64>::propagate(&c, st, &p.values).is_ok());
            assert_eq!(
                &st.cstate.free[w.mate..w.owner + w.m],
                &[1, 2, 0, 2, 0, 1, NONE]
            );
            assert_eq!(
                current(&p, st),
                [vec![1, 2, 3, 4], vec![1, 2, 3, 4], vec![1, 2]]
            );
            (
                st.cstate.free[w.stamp],
                st.cstate.free[w.seen..w.seen + w.m].to_vec(),
            )
        };
        assert_eq!(call(&mut st), (1, vec![1, 1, 1, 0]));
        assert_eq!(call(&mut st), (2, vec![2, 2, 2, 0]));
        assert_eq!(call(&mut st), (3, vec![3, 3, 3, 0]));
        // The next stamp would be `NONE`: the marks are cleared and the count restarts at 1.
        st.cstate.free[w.stamp] = NONE - 1;
        st.cstate.free[w.seen..w.seen + w.m].fill(NONE - 1);
        assert_eq!(call(&mut st), (1, vec![1, 1, 1, 0]));
        assert_eq!(call(&mut st), (2, vec![2, 2, 2, 0]));
    }

    #[test]
    fn a_group_of_sixteen_members_finds_the_hall_set_of_its_first_eight() {
        // x0..x7 in 0..=7 take up those eight values, so x8..x15 keep 8..=15; with x15 = 15 as well, x8..x14 lose
        // it too. More members than the small groups above: the graph's words fill the whole placed area.
        let doms: Vec<Vec<i64>> = (0..16)
            .map(|i| {
                if i < 8 {
                    (0..=7).collect()
                } else {
                    (0..=15).collect()
                }
            })
            .collect();
        let (p, c, mut st) = alone(&doms);
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        let want: Vec<Vec<i64>> = (0..16)
            .map(|i| {
                if i < 8 {
                    (0..=7).collect()
                } else {
                    (8..=15).collect()
                }
            })
            .collect();
        assert_eq!(current(&p, &st), want);
        st.assign(15, 15).unwrap();
        assert!(Propagate::<u64>::propagate(&c, &mut st, &p.values).is_ok());
        let want: Vec<Vec<i64>> = (0..16)
            .map(|i| match i {
                0..=7 => (0..=7).collect(),
                15 => vec![15],
                _ => (8..=14).collect(),
            })
            .collect();
        assert_eq!(current(&p, &st), want);
    }
}
