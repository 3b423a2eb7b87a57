//! The named `csp-*` strategies: each is one point in the engine's space of variable order x value order x
//! propagation level, and each registry entry's description says exactly which.
//!
//! The presets are chosen so that a pair of them differs in one dimension where a comparison is interesting:
//!
//! | name              | model  | variables  | values     | propagation        | other                       |
//! |-------------------|--------|------------|------------|--------------------|-----------------------------|
//! | `csp-check`       | pairs  | input      | ascending  | none (check)       |                             |
//! | `csp-fc`          | houses | input      | ascending  | forward checking   |                             |
//! | `csp-mrv`         | houses | MRV        | ascending  | forward checking   |                             |
//! | `csp-mrv-singles` | houses | MRV        | ascending  | FC + hidden singles|                             |
//! | `csp-mrv-locked`  | houses | MRV        | ascending  | FC + singles + locked candidates |               |
//! | `csp-mrv-degree`  | houses | MRV+degree | ascending  | FC + hidden singles|                             |
//! | `csp-dom-wdeg`    | houses | dom/wdeg   | ascending  | FC + hidden singles|                             |
//! | `csp-median`      | houses | MRV        | median     | FC + hidden singles|                             |
//! | `csp-lcv`         | houses | MRV        | LCV        | FC + hidden singles|                             |
//! | `csp-random`      | houses | MRV        | random     | FC + hidden singles| random ties, Luby restarts  |
//!
//! `csp-check` .. `csp-mrv-locked` add one technique at a time (the seed's place-then-check, then forward
//! checking, then MRV, then hidden singles, then locked candidates); the heuristic presets below them each change one choice of
//! `csp-mrv-singles`, the strongest baseline, so their figures compare directly with it.
//!
//! Measured trade-offs (forum_hardest_1905_11plus, first 500 puzzles, count up to 2; see the bench
//! `examples/solver_rate.rs`): value orders cannot change an exhaustive search's tree, so `csp-median` and `csp-lcv`
//! visit exactly `csp-mrv-singles`'s 173 nodes per puzzle and only add their own cost per node. `csp-mrv-degree`
//! breaks MRV ties on the number of distinct empty peers (the classic degree heuristic) and visits 112.6 nodes
//! (427 ms vs 514 ms for the 500 puzzles, `sudoku solve --count -j 1`, loaded machine). `csp-dom-wdeg` needs 120 (66 vs 90 for the first
//! solution) but costs more per node; `csp-random` 154.
//!
//! Each technique down the table measured on the hardest puzzles for backtracking: the dated table is in
//! `docs/measurements.md`. The presets marked (k) in it run on csp-core's group kernel (same search tree as the
//! general engine, 2-5x fewer instructions per node): `csp-fc`, `csp-mrv`, `csp-mrv-singles`, `csp-mrv-locked` and
//! `csp-median`; `csp-mrv-degree`, `csp-dom-wdeg`, `csp-lcv` and `csp-random` (random ties) take heuristics or
//! rules the kernel does not and run on the general engine.
//!
//! `csp-check` counts every digit it tries as a node (2-way branching), the seed DFS only the digits that pass,
//! so its node count is about twice theirs on the same tree; the engine's generic check costs ~2x per node more.
//!
//! "Houses" is the model of [`super::SudokuModel`]: one `all_different` per row, column and box. "Pairs" posts
//! the same rules as one `not_equal` per pair of cells sharing a house. Under propagation `None` the engine checks
//! a constraint once all its variables are assigned; with pairs that means each placed digit is checked against
//! the placed digits of its row, column and box, which is exactly the seed's place-then-check (with houses it
//! would only check a house once it is full, a far weaker and far slower search).

use csp_core::{Propagation, Restarts, SearchConfig, ValueOrder, VarOrder};

use super::CspSolver;
use crate::solver::SolverInfo;

/// How the board's rules are posted to the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// One `all_different` per row, column and box (`3 N` constraints).
    Houses,
    /// One `not_equal` per pair of cells sharing a house (810 constraints on 9x9).
    Pairs,
}

/// A named search strategy for the engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Preset {
    /// Registry name (`csp-...`).
    pub name: &'static str,
    /// One line saying exactly what the preset does.
    pub description: &'static str,
    /// How the rules are posted.
    pub rules: Rules,
    /// Variable order.
    pub var_order: VarOrder,
    /// Value order.
    pub value_order: ValueOrder,
    /// Propagation level.
    pub propagation: Propagation,
    /// Locked candidates between overlapping houses (box/line), on top of `Singles`.
    pub intersections: bool,
    /// Break variable-order ties at random.
    pub random_ties: bool,
    /// Restart policy (first-solution mode only; the engine never restarts when counting).
    pub restarts: Restarts,
    /// Seed of the random choices (reseeded at every solve, so runs are reproducible).
    pub seed: u64,
}

impl Preset {
    /// The engine configuration of this preset (no limits: the request brings them).
    pub fn config(&self) -> SearchConfig {
        SearchConfig::default()
            .var_order(self.var_order)
            .value_order(self.value_order)
            .propagation(self.propagation)
            .intersections(self.intersections)
            .random_ties(self.random_ties)
            .restarts(self.restarts)
            .seed(self.seed)
    }
}

/// The common shape: all_different houses, ascending values, no randomness.
const BASE: Preset = Preset {
    name: "",
    description: "",
    rules: Rules::Houses,
    var_order: VarOrder::Mrv,
    value_order: ValueOrder::Ascending,
    propagation: Propagation::Singles,
    intersections: false,
    random_ties: false,
    restarts: Restarts::None,
    seed: 42,
};

/// `csp-check`.
pub const CHECK: Preset = Preset {
    name: "csp-check",
    description: "engine, place-then-check (the naive DFS's analogue): not_equal per cell pair, cells row-major, \
                  digits ascending, no propagation",
    rules: Rules::Pairs,
    var_order: VarOrder::Input,
    propagation: Propagation::None,
    ..BASE
};

/// `csp-fc`.
pub const FC: Preset = Preset {
    name: "csp-fc",
    description:
        "engine, forward checking: all_different houses, cells row-major, digits ascending",
    var_order: VarOrder::Input,
    propagation: Propagation::ForwardChecking,
    ..BASE
};

/// `csp-mrv`.
pub const MRV: Preset = Preset {
    name: "csp-mrv",
    description: "engine, MRV + forward checking (the seed write-up's CSP): fewest candidates first, digits ascending",
    propagation: Propagation::ForwardChecking,
    ..BASE
};

/// `csp-mrv-singles`.
pub const MRV_SINGLES: Preset = Preset {
    name: "csp-mrv-singles",
    description: "engine, MRV + forward checking + hidden singles in every house, digits ascending",
    ..BASE
};

/// `csp-mrv-locked`.
pub const MRV_LOCKED: Preset = Preset {
    name: "csp-mrv-locked",
    description:
        "engine, MRV + FC + hidden singles + locked candidates (a digit confined to one box/line \
                  intersection leaves the rest of the other house), digits ascending",
    intersections: true,
    ..BASE
};

/// `csp-mrv-degree`.
pub const MRV_DEGREE: Preset = Preset {
    name: "csp-mrv-degree",
    description: "engine, MRV with ties broken towards the cell with the most empty peers (degree), FC + hidden \
                  singles, digits ascending",
    var_order: VarOrder::MrvDegree,
    ..BASE
};

/// `csp-dom-wdeg`.
pub const DOM_WDEG: Preset = Preset {
    name: "csp-dom-wdeg",
    description: "engine, dom/wdeg (candidates / failure-weighted degree), FC + hidden singles, digits ascending",
    var_order: VarOrder::DomWdeg,
    ..BASE
};

/// `csp-median`.
pub const MEDIAN: Preset = Preset {
    name: "csp-median",
    description: "engine, MRV + FC + hidden singles, median candidate first (middle-out)",
    value_order: ValueOrder::Median,
    ..BASE
};

/// `csp-lcv`.
pub const LCV: Preset = Preset {
    name: "csp-lcv",
    description:
        "engine, MRV + FC + hidden singles, least-constraining digit first (fewest peer removals)",
    value_order: ValueOrder::Lcv,
    ..BASE
};

/// `csp-random`.
pub const RANDOM: Preset = Preset {
    name: "csp-random",
    description: "engine, MRV with random ties, random digits, FC + hidden singles, Luby restarts (64 fails), seed 42",
    value_order: ValueOrder::Random,
    random_ties: true,
    restarts: Restarts::Luby { scale: 64 },
    ..BASE
};

/// Every preset, in the order of the table above.
pub static ALL: [&Preset; 10] = [
    &CHECK,
    &FC,
    &MRV,
    &MRV_SINGLES,
    &MRV_LOCKED,
    &MRV_DEGREE,
    &DOM_WDEG,
    &MEDIAN,
    &LCV,
    &RANDOM,
];

/// The registry entry of `preset`: the engine handles every box size 2..=6.
const fn info(preset: &'static Preset, make: fn() -> Box<dyn crate::solver::Solve>) -> SolverInfo {
    SolverInfo {
        name: preset.name,
        description: preset.description,
        supports: |b| (crate::board::MIN_BOX..=crate::board::MAX_BOX).contains(&b),
        make,
        solve9: None,
    }
}

/// Registry entry of `csp-check`.
pub const CHECK_INFO: SolverInfo = info(&CHECK, || Box::new(CspSolver::new(&CHECK)));
/// Registry entry of `csp-fc`.
pub const FC_INFO: SolverInfo = info(&FC, || Box::new(CspSolver::new(&FC)));
/// Registry entry of `csp-mrv`.
pub const MRV_INFO: SolverInfo = info(&MRV, || Box::new(CspSolver::new(&MRV)));
/// Registry entry of `csp-mrv-singles`.
pub const MRV_SINGLES_INFO: SolverInfo =
    info(&MRV_SINGLES, || Box::new(CspSolver::new(&MRV_SINGLES)));
/// Registry entry of `csp-mrv-locked`.
pub const MRV_LOCKED_INFO: SolverInfo = info(&MRV_LOCKED, || Box::new(CspSolver::new(&MRV_LOCKED)));
/// Registry entry of `csp-mrv-degree`.
pub const MRV_DEGREE_INFO: SolverInfo = info(&MRV_DEGREE, || Box::new(CspSolver::new(&MRV_DEGREE)));
/// Registry entry of `csp-dom-wdeg`.
pub const DOM_WDEG_INFO: SolverInfo = info(&DOM_WDEG, || Box::new(CspSolver::new(&DOM_WDEG)));
/// Registry entry of `csp-median`.
pub const MEDIAN_INFO: SolverInfo = info(&MEDIAN, || Box::new(CspSolver::new(&MEDIAN)));
/// Registry entry of `csp-lcv`.
pub const LCV_INFO: SolverInfo = info(&LCV, || Box::new(CspSolver::new(&LCV)));
/// Registry entry of `csp-random`.
pub const RANDOM_INFO: SolverInfo = info(&RANDOM, || Box::new(CspSolver::new(&RANDOM)));
