//! The search options of `solve`, `count`, `solutions`, `minimize` and `maximize`, read from keyword arguments.

use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use csp_core::{Limits, Phase, Propagation, Restarts, SearchConfig, ValueOrder, VarId, VarOrder};

use super::IntVar;

/// The options every search call accepts, for the error message of an unknown one.
const KNOWN: &str =
    "var_order, value_order, propagation, phases, random_ties, seed, intersections, restarts, \
                     node_limit, time_limit";

/// A phase as given: Python variable indices and the orders on them.
#[derive(Clone)]
struct PhaseSpec {
    vars: Vec<usize>,
    var_order: VarOrder,
    value_order: ValueOrder,
}

/// Parsed options: the configuration, and the phases still in Python indices (the engine's variables exist only
/// once the model is rebuilt).
#[derive(Clone)]
pub(super) struct Options {
    cfg: SearchConfig,
    phases: Vec<PhaseSpec>,
}

impl Options {
    /// Reads `options`; `own` maps a variable to its index in the model (and refuses a foreign one).
    pub(super) fn parse(
        options: Option<&Bound<'_, PyDict>>,
        own: impl Fn(&IntVar) -> PyResult<usize>,
    ) -> PyResult<Options> {
        let mut cfg = SearchConfig::default();
        let mut phases = Vec::new();
        let Some(options) = options else {
            return Ok(Options { cfg, phases });
        };
        for (key, value) in options.iter() {
            let key: String = key.extract()?;
            match key.as_str() {
                "var_order" => cfg.var_order = var_order(&value.extract::<String>()?)?,
                "value_order" => cfg.value_order = value_order(&value.extract::<String>()?)?,
                "propagation" => {
                    cfg.propagation = match value.extract::<String>()?.as_str() {
                        "none" => Propagation::None,
                        "forward-checking" | "fc" => Propagation::ForwardChecking,
                        "singles" => Propagation::Singles,
                        other => {
                            return Err(choice_error("propagation", other, "none, fc, singles"))
                        }
                    }
                }
                "phases" => phases = phase_specs(&value, &own)?,
                "random_ties" => cfg.random_ties = value.extract()?,
                "seed" => cfg.seed = value.extract()?,
                "intersections" => cfg.intersections = value.extract()?,
                "restarts" => cfg.restarts = restarts(&value)?,
                "node_limit" => cfg.limits.nodes = value.extract()?,
                "time_limit" => {
                    let seconds: Option<f64> = value.extract()?;
                    cfg.limits.time = match seconds {
                        None | Some(0.0) => None,
                        Some(s) => Some(Duration::try_from_secs_f64(s).map_err(|_| {
                            PyValueError::new_err(format!(
                                "time_limit must be non-negative seconds, not {s}"
                            ))
                        })?),
                    };
                }
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "unknown search option `{other}` ({KNOWN})"
                    )))
                }
            }
        }
        Ok(Options { cfg, phases })
    }

    /// The node and time limits asked for.
    pub(super) fn limits(&self) -> &Limits {
        &self.cfg.limits
    }

    /// Replaces the node and time limits.
    pub(super) fn set_limits(&mut self, nodes: Option<u64>, time: Option<Duration>) {
        self.cfg.limits.nodes = nodes;
        self.cfg.limits.time = time;
    }

    /// The configuration for a rebuilt model whose Python variables are `vars`.
    pub(super) fn config(&self, vars: &[VarId]) -> SearchConfig {
        let mut cfg = self.cfg.clone();
        cfg.phases = self
            .phases
            .iter()
            .map(|p| Phase {
                vars: p.vars.iter().map(|&i| vars[i]).collect(),
                var_order: p.var_order,
                value_order: p.value_order,
            })
            .collect();
        cfg
    }
}

fn var_order(name: &str) -> PyResult<VarOrder> {
    VarOrder::from_name(name).ok_or_else(|| choice_error("var_order", name, &VarOrder::names()))
}

fn value_order(name: &str) -> PyResult<ValueOrder> {
    ValueOrder::from_name(name)
        .ok_or_else(|| choice_error("value_order", name, &ValueOrder::names()))
}

/// `phases=[(vars, var_order, value_order), ...]`.
fn phase_specs(
    value: &Bound<'_, PyAny>,
    own: &impl Fn(&IntVar) -> PyResult<usize>,
) -> PyResult<Vec<PhaseSpec>> {
    let shape_error = || {
        PyTypeError::new_err(
            "phases must be a list of (variables, var_order, value_order) tuples, e.g. \
             [([x, y], \"input\", \"ascending\")]",
        )
    };
    let items: Vec<Bound<'_, PyAny>> = value.extract().map_err(|_| shape_error())?;
    items
        .iter()
        .map(|item| {
            let (xs, vo, wo): (Vec<PyRef<'_, IntVar>>, String, String) =
                item.extract().map_err(|_| shape_error())?;
            Ok(PhaseSpec {
                vars: xs.iter().map(|x| own(x)).collect::<PyResult<_>>()?,
                var_order: var_order(&vo)?,
                value_order: value_order(&wo)?,
            })
        })
        .collect()
}

/// `None`, `("luby", scale)` or `("geometric", base, factor)`.
fn restarts(value: &Bound<'_, PyAny>) -> PyResult<Restarts> {
    if value.is_none() {
        return Ok(Restarts::None);
    }
    if let Ok((kind, scale)) = value.extract::<(String, u64)>() {
        if kind == "luby" && scale > 0 {
            return Ok(Restarts::Luby { scale });
        }
    }
    if let Ok((kind, base, factor)) = value.extract::<(String, u64, f64)>() {
        if kind == "geometric" && base > 0 && factor.is_finite() && factor > 1.0 {
            return Ok(Restarts::Geometric { base, factor });
        }
    }
    Err(PyValueError::new_err(
        "restarts must be None, (\"luby\", scale) with scale >= 1 or (\"geometric\", base, factor) with \
         base >= 1 and factor > 1.0",
    ))
}

fn choice_error(option: &str, got: &str, known: &str) -> PyErr {
    PyValueError::new_err(format!("{option} `{got}` is not one of: {known}"))
}
