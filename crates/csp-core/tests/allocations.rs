//! No allocation per propagation: a search that propagates `element` over variables, `regular`, `circuit` and
//! `subcircuit` thousands of times allocates as much with a node limit of 4,000 as with 1,000 (the buffers are
//! borrowed from the search state, grown once). Counted by a global allocator that counts per thread, so the
//! other tests of this binary, running beside, do not disturb the figure.
#![allow(clippy::unwrap_used)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use csp_core::{Limits, Model, Problem, Relation, SearchConfig, Solver, VarOrder};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// A global allocator cannot be written without `unsafe`; this one only counts and forwards (test code only).
#[allow(unsafe_code)]
// SAFETY: every call is forwarded to the system allocator unchanged; the counter is a const-initialised
// thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations of one count run of `p` stopped after `nodes` nodes, and the nodes it visited.
fn allocations_of_a_run(p: &Problem, nodes: u64) -> (u64, u64) {
    let cfg = SearchConfig::default()
        .var_order(VarOrder::Input)
        .limits(Limits::none().with_nodes(nodes));
    let before = allocations();
    let r = Solver::new(p, cfg).count(&[], u64::MAX);
    (allocations() - before, r.stats.nodes)
}

/// Panics unless a run four times as long allocates no more than the short one.
fn assert_no_allocation_per_node(name: &str, p: &Problem) {
    let (short, short_nodes) = allocations_of_a_run(p, 1_000);
    let (long, long_nodes) = allocations_of_a_run(p, 4_000);
    assert!(
        long_nodes > short_nodes,
        "{name}: the model must be large enough to reach the limits ({short_nodes} / {long_nodes} nodes)"
    );
    eprintln!("{name}: {short} allocations in {short_nodes} nodes, {long} in {long_nodes}");
    assert_eq!(
        long, short,
        "{name}: {short} allocations in {short_nodes} nodes, {long} in {long_nodes}"
    );
}

#[test]
fn circuit_search_allocates_nothing_per_node() {
    let mut m = Model::new();
    let xs: Vec<_> = (0..9).map(|_| m.new_var(0, 8).unwrap()).collect();
    m.circuit(&xs, 0).unwrap();
    assert_no_allocation_per_node("circuit", &m.build().unwrap());
}

#[test]
fn subcircuit_search_allocates_nothing_per_node() {
    let mut m = Model::new();
    let xs: Vec<_> = (0..9).map(|_| m.new_var(0, 8).unwrap()).collect();
    m.subcircuit(&xs, 0).unwrap();
    assert_no_allocation_per_node("subcircuit", &m.build().unwrap());
}

#[test]
fn regular_search_allocates_nothing_per_node() {
    // Words over {0, 1, 2} without two equal neighbours (states: 0 = start, 1 + s = last symbol s).
    let mut m = Model::new();
    let xs: Vec<_> = (0..16).map(|_| m.new_var(0, 2).unwrap()).collect();
    let mut transitions = Vec::new();
    for s in 0..3i64 {
        transitions.push((0, s, 1 + s as usize));
        for last in 0..3usize {
            if last as i64 != s {
                transitions.push((1 + last, s, 1 + s as usize));
            }
        }
    }
    m.regular(&xs, 4, 0, &transitions, &[1, 2, 3]).unwrap();
    assert_no_allocation_per_node("regular", &m.build().unwrap());
}

#[test]
fn element_over_variables_search_allocates_nothing_per_node() {
    // z_k = a[x_k] over an array of variables, for several indexes, the results different and the array
    // increasing (so fixing one side prunes the others).
    let mut m = Model::new();
    let a: Vec<_> = (0..8).map(|_| m.new_var(0, 7).unwrap()).collect();
    for w in a.windows(2) {
        m.linear(&[(1, w[0]), (-1, w[1])], Relation::Le, 0).unwrap();
    }
    let mut zs = Vec::new();
    for _ in 0..6 {
        let x = m.new_var(0, 7).unwrap();
        let z = m.new_var(0, 7).unwrap();
        m.element_var(x, 0, &a, z).unwrap();
        zs.push(z);
    }
    m.all_different(&zs).unwrap();
    assert_no_allocation_per_node("element_var", &m.build().unwrap());
}
