//! `--strategy` names: a comma-separated list of a variable order, a value order and a propagation level, in any
//! order and each optional, applied over a family's default. E.g. `dom-wdeg`, `mrv,median`, `input,ascending,none`.
//!
//! | kind        | names                                             |
//! |-------------|---------------------------------------------------|
//! | variables   | csp-core's [`VarOrder`] names: `input`, `mrv`, `mrv-degree`, `dom-wdeg`, `anti-first-fail`, `smallest`, `largest`, `max-regret` |
//! | values      | csp-core's [`ValueOrder`] names: `ascending`, `median`, `lcv`, `random`, `descending`, `split`, `reverse-split` |
//! | propagation | `none`, `fc` (forward checking), `singles`        |
//! | extras      | `random-ties`, `luby` (restarts, scale 100), `geometric` (restarts, 100 x 1.5) |

use csp_core::{Propagation, Restarts, SearchConfig, ValueOrder, VarOrder};

/// Every accepted name, for help texts and errors.
pub fn names() -> String {
    format!(
        "{} | {} | none, fc, singles | random-ties, luby, geometric",
        VarOrder::names(),
        ValueOrder::names()
    )
}

/// Applies a `--strategy` spec over `base`. Unknown names are an error listing what is accepted.
pub fn apply(base: SearchConfig, spec: &str) -> Result<SearchConfig, String> {
    let mut cfg = base;
    for name in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let name = name.to_ascii_lowercase().replace('_', "-");
        if let Some(order) = VarOrder::from_name(&name) {
            cfg = cfg.var_order(order);
            continue;
        }
        if let Some(order) = ValueOrder::from_name(&name) {
            cfg = cfg.value_order(order);
            continue;
        }
        cfg = match name.as_str() {
            // Spellings accepted before the orders had one name each.
            "mrvdegree" | "mrv+degree" => cfg.var_order(VarOrder::MrvDegree),
            "domwdeg" | "dom/wdeg" | "wdeg" => cfg.var_order(VarOrder::DomWdeg),
            "asc" => cfg.value_order(ValueOrder::Ascending),
            "middle" => cfg.value_order(ValueOrder::Median),
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
                    "unknown strategy name `{name}` (accepted: {})",
                    names()
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

    #[test]
    fn every_engine_order_is_a_strategy_name() {
        for o in VarOrder::ALL {
            let cfg = apply(SearchConfig::default(), o.name()).unwrap_or_default();
            assert_eq!(cfg.var_order, o, "{}", o.name());
        }
        for o in ValueOrder::ALL {
            let cfg = apply(SearchConfig::default(), o.name()).unwrap_or_default();
            assert_eq!(cfg.value_order, o, "{}", o.name());
        }
    }
}
