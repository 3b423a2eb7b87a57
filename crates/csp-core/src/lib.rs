//! csp-core: a finite-domain constraint-satisfaction engine (being built; see issue 2).

pub mod limits;
pub mod stats;

pub use limits::{LimitKind, Limits, Outcome};
pub use stats::Stats;
