//! `--strategy` names: a comma-separated list of a variable order, a value order and a propagation level, in any
//! order and each optional, applied over a family's default. E.g. `dom-wdeg`, `mrv,median`, `input,ascending,none`.
//!
//! | kind        | names                                             |
//! |-------------|---------------------------------------------------|
//! | variables   | `input`, `mrv`, `mrv-degree`, `dom-wdeg`          |
//! | values      | `ascending`, `median`, `lcv`, `random`            |
//! | propagation | `none`, `fc` (forward checking), `singles`        |
//! | extras      | `random-ties`, `luby` (restarts, scale 100), `geometric` (restarts, 100 x 1.5) |

use csp_core::{Propagation, Restarts, SearchConfig, ValueOrder, VarOrder};

/// Every accepted name, for help texts.
pub const NAMES: &str =
    "input mrv mrv-degree dom-wdeg | ascending median lcv random | none fc singles | \
                         random-ties luby geometric";

/// Applies a `--strategy` spec over `base`. Unknown names are an error listing what is accepted.
pub fn apply(base: SearchConfig, spec: &str) -> Result<SearchConfig, String> {
    let mut cfg = base;
    for name in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        cfg = match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "input" => cfg.var_order(VarOrder::Input),
            "mrv" => cfg.var_order(VarOrder::Mrv),
            "mrv-degree" | "mrvdegree" | "mrv+degree" => cfg.var_order(VarOrder::MrvDegree),
            "dom-wdeg" | "domwdeg" | "dom/wdeg" | "wdeg" => cfg.var_order(VarOrder::DomWdeg),
            "ascending" | "asc" => cfg.value_order(ValueOrder::Ascending),
            "median" | "middle" => cfg.value_order(ValueOrder::Median),
            "lcv" => cfg.value_order(ValueOrder::Lcv),
            "random" => cfg.value_order(ValueOrder::Random),
            "none" => cfg.propagation(Propagation::None),
            "fc" | "forward-checking" => cfg.propagation(Propagation::ForwardChecking),
            "singles" => cfg.propagation(Propagation::Singles),
            "random-ties" => cfg.random_ties(true),
            "luby" => cfg.restarts(Restarts::Luby { scale: 100 }),
            "geometric" => cfg.restarts(Restarts::Geometric {
                base: 100,
                factor: 1.5,
            }),
            _ => {
                return Err(format!(
                    "unknown strategy name `{name}` (accepted: {NAMES})"
                ))
            }
        };
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_are_rejected_with_the_list() {
        let e = apply(SearchConfig::default(), "mrv,bogus")
            .err()
            .unwrap_or_default();
        assert!(e.contains("bogus") && e.contains("dom-wdeg"));
    }

    #[test]
    fn known_names_are_accepted_in_any_order() {
        assert!(apply(SearchConfig::default(), "singles, median ,dom-wdeg").is_ok());
        assert!(apply(SearchConfig::default(), "").is_ok());
    }
}
