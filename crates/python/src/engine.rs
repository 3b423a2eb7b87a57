//! csp-core from Python: a [`Model`] of integer and Boolean variables and every constraint csp-core's model
//! builder offers, solved with a chosen strategy and limits; one solution, a lazy solution iterator, counting,
//! and branch-and-bound optimisation.
//!
//! A `csp_core::Model` is consumed by `build`, but a Python model must stay open to more constraints after a solve.
//! So the Python `Model` keeps the list of calls it received ([`post::Post`]) and a live engine model that checks
//! each call as it comes (errors surface where they are made, naming the Python variables); every search builds a
//! fresh engine model from the list. Python variables are numbered in creation order, which is the same in every
//! rebuild; the engine's hidden variables (the Booleans of the decompositions `count_eq` and `inverse` fall back to
//! on interval variables) have no Python index and never
//! appear in a [`Solution`].
//!
//! Every search runs on a helper thread while the caller waits without the GIL and checks for Ctrl-C
//! ([`crate::pool::interruptible`]): an interrupt stops the search at its next limit check and raises
//! `KeyboardInterrupt`.
//!
//! Optimisation is csp-core's branch and bound ([`Solver::optimize`]) on one objective variable: a variable given
//! by the caller, or a new variable equal to the linear objective. An objective whose range is wider than a
//! csp-core domain may be ([`MAX_DOMAIN_WIDTH`] values) has no such variable; it is optimised by solving again
//! under `objective <= best - 1` until that is unsatisfiable, with the limits applying to the whole run.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use csp_core::constraints::{AllDifferentLevel, ArithOp, Reification};
use csp_core::{
    LimitKind, ModelError, Objective, OptOutcome, Outcome, Problem, Relation, SearchConfig, Solver,
    Stats, VarId, MAX_DOMAIN_WIDTH,
};

use crate::pool;

mod options;
mod post;
mod results;

use options::Options;
use post::{apply, Post, Terms};
pub(crate) use results::{SearchResult, Solution, Solutions};

/// Registers this module's classes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Model>()?;
    m.add_class::<IntVar>()?;
    m.add_class::<Solution>()?;
    m.add_class::<SearchResult>()?;
    m.add_class::<Solutions>()?;
    Ok(())
}

/// Source of model ids, so a variable of one model is recognised as foreign by another.
static NEXT_MODEL: AtomicU64 = AtomicU64::new(1);

/// An integer variable of a [`Model`] (a Boolean one is an integer variable on `0..=1`).
#[pyclass(module = "csp_sudoku._native", frozen)]
#[derive(Clone)]
pub(crate) struct IntVar {
    /// Position in the model's creation order.
    #[pyo3(get)]
    index: usize,
    /// The name given at creation (`x<index>` when none was).
    #[pyo3(get)]
    name: String,
    /// The owning model's id.
    model: u64,
}

#[pymethods]
impl IntVar {
    fn __repr__(&self) -> String {
        format!("IntVar({})", self.name)
    }
}

/// `==`, `!=`, `<=`, `>=`, `<` or `>` as an engine relation and a right-hand side (`<` and `>` move it by one).
fn relation(op: &str, rhs: i64) -> PyResult<(Relation, i64)> {
    let shifted = |r: Option<i64>| {
        r.ok_or_else(|| PyValueError::new_err(format!("{op} {rhs}: the bound overflows i64")))
    };
    Ok(match op {
        "==" => (Relation::Eq, rhs),
        "!=" => (Relation::Ne, rhs),
        "<=" => (Relation::Le, rhs),
        ">=" => (Relation::Ge, rhs),
        "<" => (Relation::Le, shifted(rhs.checked_sub(1))?),
        ">" => (Relation::Ge, shifted(rhs.checked_add(1))?),
        other => {
            return Err(PyValueError::new_err(format!(
                "relation `{other}` is not one of ==, !=, <=, >=, <, >"
            )))
        }
    })
}

/// A finished optimisation, before it becomes a [`SearchResult`].
struct Optimum {
    outcome: OptOutcome,
    best: Option<(Vec<i64>, i64)>,
    improvements: u64,
    stats: Stats,
}

/// A model under construction: variables with finite integer domains and constraints on them.
///
/// It stays open: constraints may be added after a solve, and the next solve sees them.
#[pyclass(module = "csp_sudoku._native")]
pub(crate) struct Model {
    id: u64,
    posts: Vec<Post>,
    /// The model as the engine sees it now: each call is checked on it before it is recorded.
    live: csp_core::Model,
    /// `live_vars[i]` = the live engine variable of Python variable `i`.
    live_vars: Vec<VarId>,
    /// `names[i]` = the name of Python variable `i`.
    names: Vec<String>,
    /// `bounds[i]` = the least and greatest value of Python variable `i`'s initial domain.
    bounds: Vec<(i64, i64)>,
}

impl Model {
    /// The index of `x` in this model, or a `ValueError` for a variable of another model.
    fn own(&self, x: &IntVar) -> PyResult<usize> {
        if x.model != self.id {
            return Err(PyValueError::new_err(format!(
                "variable {} belongs to another model",
                x.name
            )));
        }
        Ok(x.index)
    }

    fn own_all(&self, xs: &[PyRef<'_, IntVar>]) -> PyResult<Vec<usize>> {
        xs.iter().map(|x| self.own(x)).collect()
    }

    /// `(coefficient, variable index)` terms with the coefficients of a repeated variable added up (first
    /// occurrence order), so `SEND + MOST` may name `S` twice.
    fn terms(&self, terms: &[(i64, PyRef<'_, IntVar>)]) -> PyResult<Terms> {
        let mut out: Terms = Vec::with_capacity(terms.len());
        for (a, x) in terms {
            let x = self.own(x)?;
            match out.iter_mut().find(|(_, y)| *y == x) {
                Some((b, _)) => {
                    *b = b
                        .checked_add(*a)
                        .ok_or_else(|| PyValueError::new_err("linear: coefficient overflows i64"))?
                }
                None => out.push((*a, x)),
            }
        }
        Ok(out)
    }

    /// A model error as a `ValueError`, with the engine's variable numbers (`x12`) replaced by the names of the
    /// Python variables they are.
    fn error(&self, e: &ModelError) -> PyErr {
        let text = e.to_string();
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find('x') {
            let (before, from) = rest.split_at(at);
            out.push_str(before);
            let digits = from[1..].bytes().take_while(u8::is_ascii_digit).count();
            let word_start = before.chars().last().is_none_or(|c| !c.is_alphanumeric());
            let python = from[1..1 + digits]
                .parse::<usize>()
                .ok()
                .filter(|_| word_start)
                .and_then(|k| self.live_vars.iter().position(|v| v.index() == k));
            match python {
                Some(i) => out.push_str(&self.names[i]),
                None => out.push_str(&from[..1 + digits]),
            }
            rest = &from[1 + digits..];
        }
        out.push_str(rest);
        PyValueError::new_err(out)
    }

    /// Checks `post` on the live model and records it.
    fn record(&mut self, post: Post) -> PyResult<()> {
        if let Err(e) = apply(&mut self.live, &mut self.live_vars, &post) {
            let err = self.error(&e);
            // Some calls post piece by piece (count_eq, inverse, global_cardinality) and may fail half-way: the
            // live model is rebuilt from the recorded calls so it stays exactly what they make.
            let mut live = csp_core::Model::new();
            let mut vars = Vec::with_capacity(self.names.len());
            for p in &self.posts {
                apply(&mut live, &mut vars, p).map_err(|e| self.error(&e))?;
            }
            self.live = live;
            self.live_vars = vars;
            return Err(err);
        }
        self.posts.push(post);
        Ok(())
    }

    fn new_var(
        &mut self,
        post: Post,
        bounds: (i64, i64),
        name: Option<String>,
    ) -> PyResult<IntVar> {
        self.record(post)?;
        let index = self.names.len();
        let name = name.unwrap_or_else(|| format!("x{index}"));
        self.names.push(name.clone());
        self.bounds.push(bounds);
        Ok(IntVar {
            index,
            name,
            model: self.id,
        })
    }

    /// A frozen problem of every call so far plus `extra`, and the engine variable of each Python variable
    /// (those `extra` creates last).
    fn problem(&self, extra: &[Post]) -> PyResult<(Problem, Vec<VarId>)> {
        let mut model = csp_core::Model::new();
        let mut vars = Vec::with_capacity(self.names.len());
        for post in self.posts.iter().chain(extra) {
            apply(&mut model, &mut vars, post).map_err(|e| self.error(&e))?;
        }
        let problem = model.build().map_err(|e| self.error(&e))?;
        Ok((problem, vars))
    }

    /// The names, shared by every solution of one search.
    fn shared_names(&self) -> Arc<[String]> {
        self.names.iter().cloned().collect()
    }

    /// Builds the model (plus `extra`), then runs `job` on it (see [`Model::run_built`]).
    fn run<T: Send>(
        &self,
        py: Python<'_>,
        opts: &Options,
        extra: &[Post],
        job: impl FnOnce(&Problem, SearchConfig, &[VarId]) -> T + Send,
    ) -> PyResult<T> {
        let (problem, vars) = self.problem(extra)?;
        run_built(py, opts, &problem, &vars, job)
    }

    /// The objective as terms over Python variables, from a variable or a list of `(coefficient, variable)`.
    fn objective_terms(&self, objective: &Bound<'_, PyAny>) -> PyResult<Terms> {
        let terms = if let Ok(x) = objective.extract::<PyRef<'_, IntVar>>() {
            vec![(1, self.own(&x)?)]
        } else if let Ok(terms) = objective.extract::<Vec<(i64, PyRef<'_, IntVar>)>>() {
            self.terms(&terms)?
        } else {
            return Err(PyTypeError::new_err(
                "the objective must be a variable or a list of (coefficient, variable) terms",
            ));
        };
        let terms: Terms = terms.into_iter().filter(|&(a, _)| a != 0).collect();
        if terms.is_empty() {
            return Err(PyValueError::new_err(
                "the objective has no variable with a non-zero coefficient",
            ));
        }
        Ok(terms)
    }

    /// Optimises `terms` (`minimize`: least value), calling `on_improve(solution, value)` on every improving
    /// solution.
    fn optimize(
        &self,
        py: Python<'_>,
        objective: &Bound<'_, PyAny>,
        on_improve: Option<Py<PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
        minimize: bool,
    ) -> PyResult<SearchResult> {
        let opts = Options::parse(options, |x| self.own(x))?;
        let terms = self.objective_terms(objective)?;
        let n = self.names.len();
        let (lo, hi) = terms.iter().fold((0i128, 0i128), |(lo, hi), &(a, x)| {
            let (min, max) = self.bounds[x];
            let (p, q) = (
                i128::from(a) * i128::from(min),
                i128::from(a) * i128::from(max),
            );
            (lo + p.min(q), hi + p.max(q))
        });
        let names = self.shared_names();
        let notify = Notifier {
            callback: on_improve,
            model: self.id,
            names: names.clone(),
            error: Mutex::new(None),
        };
        let optimum = match terms.as_slice() {
            &[(1, x)] => self.branch_and_bound(py, &opts, &[], x, minimize, &notify)?,
            _ if hi - lo < MAX_DOMAIN_WIDTH as i128 => {
                // A new variable equal to the objective: lo and hi fit in i64 as the width is small and every
                // term's value fits (a sum that would not is refused by `linear` below).
                let (Ok(lo), Ok(hi)) = (i64::try_from(lo), i64::try_from(hi)) else {
                    return Err(PyValueError::new_err("the objective's range overflows i64"));
                };
                let mut equation = terms.clone();
                equation.push((-1, n));
                let extra = [
                    Post::Var { min: lo, max: hi },
                    Post::Linear(equation, Relation::Eq, 0),
                ];
                self.branch_and_bound(py, &opts, &extra, n, minimize, &notify)?
            }
            _ => self.resolve_loop(py, &opts, &terms, (lo, hi), minimize, &notify)?,
        };
        if let Some(err) = notify.take_error() {
            return Err(err);
        }
        let (solution, objective) = match optimum.best {
            Some((values, v)) => (
                Some(Solution {
                    values,
                    model: self.id,
                    names,
                }),
                Some(v),
            ),
            None => (None, None),
        };
        Ok(SearchResult {
            status: optimum.outcome.as_str(),
            count: u64::from(solution.is_some()),
            solution,
            objective,
            improvements: optimum.improvements,
            stats: optimum.stats,
        })
    }

    /// csp-core's branch and bound on the Python (or `extra`) variable `x`.
    fn branch_and_bound(
        &self,
        py: Python<'_>,
        opts: &Options,
        extra: &[Post],
        x: usize,
        minimize: bool,
        notify: &Notifier,
    ) -> PyResult<Optimum> {
        let n = self.names.len();
        let (r, best) = self
            .run(py, opts, extra, |problem, cfg, vars| {
                let objective = if minimize {
                    Objective::Minimize(vars[x])
                } else {
                    Objective::Maximize(vars[x])
                };
                Solver::new(problem, cfg)
                    .optimize(&[], objective, |s, v| {
                        notify.improved(pick(s.values(), &vars[..n]), v)
                    })
                    .map(|r| {
                        let best = r.best.as_ref().map(|s| pick(s.values(), &vars[..n]));
                        (r, best)
                    })
            })?
            .map_err(|e| self.error(&e))?;
        Ok(Optimum {
            outcome: r.outcome,
            best: best.zip(r.objective),
            improvements: r.improvements,
            stats: r.stats,
        })
    }

    /// For an objective too wide to be a variable: solve again under `objective <= best - 1` (or `>= best + 1`)
    /// until that is unsatisfiable; the node and time limits apply to the whole run.
    fn resolve_loop(
        &self,
        py: Python<'_>,
        opts: &Options,
        terms: &Terms,
        (lo, hi): (i128, i128),
        minimize: bool,
        notify: &Notifier,
    ) -> PyResult<Optimum> {
        let n = self.names.len();
        let value = |values: &[i64]| -> i64 {
            let total: i128 = terms
                .iter()
                .map(|&(a, x)| i128::from(a) * i128::from(values[x]))
                .sum();
            // Every term fits i64 and `linear` accepted the objective as a bound, so the sum does too.
            i64::try_from(total).unwrap_or(if total < 0 { i64::MIN } else { i64::MAX })
        };
        let start = Instant::now();
        let limits = opts.limits();
        let mut best: Option<(Vec<i64>, i64)> = None;
        let mut stats = Stats::default();
        let mut improvements = 0;
        loop {
            // A best at the least (greatest) value the terms can reach is proved without another search.
            if best.as_ref().is_some_and(|(_, v)| {
                let v = i128::from(*v);
                if minimize {
                    v <= lo
                } else {
                    v >= hi
                }
            }) {
                break;
            }
            let bound = match &best {
                None => None,
                Some((_, v)) if minimize => v.checked_sub(1).map(|b| (Relation::Le, b)),
                Some((_, v)) => v.checked_add(1).map(|b| (Relation::Ge, b)),
            };
            let extra: Vec<Post> = match (&best, bound) {
                (None, _) => Vec::new(),
                (Some(_), Some((rel, b))) => vec![Post::Linear(terms.clone(), rel, b)],
                // Nothing lies beyond i64: the best is proved.
                (Some(_), None) => break,
            };
            let mut step = opts.clone();
            let nodes = limits.nodes.map(|max| max.saturating_sub(stats.nodes));
            let time = limits.time.map(|max| max.saturating_sub(start.elapsed()));
            if nodes == Some(0) || time == Some(Duration::ZERO) {
                return Ok(Optimum {
                    outcome: feasible_or_unknown(&best),
                    best,
                    improvements,
                    stats,
                });
            }
            step.set_limits(nodes, time);
            let (problem, vars) = match self.problem(&extra) {
                Ok(built) => built,
                // The engine refuses the bound (its sum of magnitudes passes i64): the best stands unproved.
                Err(_) if best.is_some() => {
                    return Ok(Optimum {
                        outcome: OptOutcome::Feasible,
                        best,
                        improvements,
                        stats,
                    })
                }
                Err(e) => return Err(e),
            };
            let r = run_built(py, &step, &problem, &vars, |problem, cfg, vars| {
                let r = Solver::new(problem, cfg).solve(&[]);
                (
                    r.outcome,
                    r.solution.map(|s| pick(s.values(), &vars[..n])),
                    r.stats,
                )
            })?;
            stats += r.2;
            match r {
                (Outcome::Solved, Some(values), _) => {
                    let v = value(&values);
                    improvements += 1;
                    let flow = notify.improved(values.clone(), v);
                    best = Some((values, v));
                    if flow.is_break() {
                        return Ok(Optimum {
                            outcome: OptOutcome::Feasible,
                            best,
                            improvements,
                            stats,
                        });
                    }
                }
                (Outcome::Unsatisfiable, _, _) => break,
                (Outcome::Limit(_), _, _) | (Outcome::Solved, None, _) => {
                    return Ok(Optimum {
                        outcome: feasible_or_unknown(&best),
                        best,
                        improvements,
                        stats,
                    })
                }
            }
        }
        Ok(Optimum {
            outcome: if best.is_some() {
                OptOutcome::Optimal
            } else {
                OptOutcome::Unsatisfiable
            },
            best,
            improvements,
            stats,
        })
    }
}

/// Runs `job` on a built problem with the options' configuration and a cancel flag in its limits, on a helper
/// thread while the caller waits without the GIL; Ctrl-C raises the flag and `KeyboardInterrupt`.
fn run_built<T: Send>(
    py: Python<'_>,
    opts: &Options,
    problem: &Problem,
    vars: &[VarId],
    job: impl FnOnce(&Problem, SearchConfig, &[VarId]) -> T + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let mut cfg = opts.config(vars);
    cfg.limits = cfg.limits.with_cancel(cancel.clone());
    pool::interruptible(py, &cancel, || job(problem, cfg, vars))
}

fn feasible_or_unknown(best: &Option<(Vec<i64>, i64)>) -> OptOutcome {
    if best.is_some() {
        OptOutcome::Feasible
    } else {
        OptOutcome::Unknown
    }
}

/// The values of the Python variables `vars` (engine variables, in Python order) in an engine solution.
fn pick(values: &[i64], vars: &[VarId]) -> Vec<i64> {
    vars.iter().map(|v| values[v.index()]).collect()
}

/// Hands improving solutions to the Python callback of `minimize`/`maximize` from the search thread.
struct Notifier {
    callback: Option<Py<PyAny>>,
    model: u64,
    names: Arc<[String]>,
    /// What the callback raised, if it did (the search then stops and the error is re-raised).
    error: Mutex<Option<PyErr>>,
}

impl Notifier {
    /// Calls the callback with `(solution, value)`; it stops the search by returning `False` or raising.
    fn improved(&self, values: Vec<i64>, value: i64) -> ControlFlow<()> {
        let Some(callback) = &self.callback else {
            return ControlFlow::Continue(());
        };
        Python::attach(|py| {
            let solution = Solution {
                values,
                model: self.model,
                names: self.names.clone(),
            };
            match callback.call1(py, (solution, value)) {
                Ok(ret) if matches!(ret.extract::<bool>(py), Ok(false)) => ControlFlow::Break(()),
                Ok(_) => ControlFlow::Continue(()),
                Err(e) => {
                    if let Ok(mut slot) = self.error.lock() {
                        *slot = Some(e);
                    }
                    ControlFlow::Break(())
                }
            }
        })
    }

    fn take_error(&self) -> Option<PyErr> {
        self.error.lock().ok().and_then(|mut e| e.take())
    }
}

/// An argument that is either a constant or a variable of the model (`element`'s array, `count_eq`'s value).
enum ConstOrVar {
    Const(i64),
    Var(usize),
}

#[pymethods]
impl Model {
    /// An empty model.
    #[new]
    fn new() -> Self {
        Model {
            id: NEXT_MODEL.fetch_add(1, Ordering::Relaxed),
            posts: Vec::new(),
            live: csp_core::Model::new(),
            live_vars: Vec::new(),
            names: Vec::new(),
            bounds: Vec::new(),
        }
    }

    /// A new integer variable with domain `min..=max`.
    #[pyo3(signature = (min, max, name=None))]
    fn int_var(&mut self, min: i64, max: i64, name: Option<String>) -> PyResult<IntVar> {
        self.new_var(Post::Var { min, max }, (min, max), name)
    }

    /// A new integer variable whose domain is exactly `values`.
    #[pyo3(signature = (values, name=None))]
    fn int_var_from(&mut self, values: Vec<i64>, name: Option<String>) -> PyResult<IntVar> {
        let bounds = (
            values.iter().copied().min().unwrap_or(0),
            values.iter().copied().max().unwrap_or(0),
        );
        self.new_var(Post::VarValues(values), bounds, name)
    }

    /// A new Boolean variable: an integer variable on `0..=1` (1 = true).
    #[pyo3(signature = (name=None))]
    fn bool_var(&mut self, name: Option<String>) -> PyResult<IntVar> {
        self.new_var(Post::Bool, (0, 1), name)
    }

    /// The variables take pairwise different values. `level` chooses the propagation: `"value"` (forward
    /// checking, hidden singles; the default), `"bounds"` (Hall intervals) or `"domain"` (matching: every value
    /// left belongs to some assignment of the group; bounds on interval variables).
    #[pyo3(signature = (xs, level=None))]
    fn all_different(&mut self, xs: Vec<PyRef<'_, IntVar>>, level: Option<&str>) -> PyResult<()> {
        let level = match level {
            None => None,
            Some("value") => Some(AllDifferentLevel::Value),
            Some("bounds") => Some(AllDifferentLevel::Bounds),
            Some("domain") => Some(AllDifferentLevel::Domain),
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "all_different: level {other:?} is not one of \"value\", \"bounds\", \"domain\""
                )))
            }
        };
        let xs = self.own_all(&xs)?;
        match level {
            None => self.record(Post::AllDifferent(xs)),
            Some(level) => self.record(Post::AllDifferentLevel(xs, level)),
        }
    }

    /// The values `xs[i] + offsets[i]` are pairwise different (N-Queens diagonals: offsets `i` and `-i`).
    fn all_different_offset(
        &mut self,
        xs: Vec<PyRef<'_, IntVar>>,
        offsets: Vec<i64>,
    ) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::AllDifferentOffset(xs, offsets))
    }

    /// `x != y + offset`.
    #[pyo3(signature = (x, y, offset=0))]
    fn not_equal(
        &mut self,
        x: PyRef<'_, IntVar>,
        y: PyRef<'_, IntVar>,
        offset: i64,
    ) -> PyResult<()> {
        let (x, y) = (self.own(&x)?, self.own(&y)?);
        self.record(Post::NotEqual(x, y, offset))
    }

    /// `x == y + offset`.
    #[pyo3(signature = (x, y, offset=0))]
    fn equal(&mut self, x: PyRef<'_, IntVar>, y: PyRef<'_, IntVar>, offset: i64) -> PyResult<()> {
        let (x, y) = (self.own(&x)?, self.own(&y)?);
        self.record(Post::Equal(x, y, offset))
    }

    /// `sum(a * x for a, x in terms) <relation> rhs`, `relation` one of `==`, `!=`, `<=`, `>=`, `<`, `>`.
    fn linear(
        &mut self,
        terms: Vec<(i64, PyRef<'_, IntVar>)>,
        relation: &str,
        rhs: i64,
    ) -> PyResult<()> {
        let (rel, rhs) = self::relation(relation, rhs)?;
        let terms = self.terms(&terms)?;
        self.record(Post::Linear(terms, rel, rhs))
    }

    /// The variables take one of the `tuples` (each as long as `xs`).
    fn table(&mut self, xs: Vec<PyRef<'_, IntVar>>, tuples: Vec<Vec<i64>>) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::Table(xs, tuples))
    }

    /// The clause `pos[0] or pos[1] or ... or not neg[0] or not neg[1] ...` over Boolean variables.
    #[pyo3(signature = (pos, neg=Vec::new()))]
    fn clause(&mut self, pos: Vec<PyRef<'_, IntVar>>, neg: Vec<PyRef<'_, IntVar>>) -> PyResult<()> {
        let (pos, neg) = (self.own_all(&pos)?, self.own_all(&neg)?);
        self.record(Post::Clause { pos, neg })
    }

    /// `b == (xs[0] and xs[1] and ...)` over Booleans.
    fn bool_and(&mut self, xs: Vec<PyRef<'_, IntVar>>, b: PyRef<'_, IntVar>) -> PyResult<()> {
        let (xs, b) = (self.own_all(&xs)?, self.own(&b)?);
        self.record(Post::BoolAnd(xs, b))
    }

    /// `b == (xs[0] or xs[1] or ...)` over Booleans.
    fn bool_or(&mut self, xs: Vec<PyRef<'_, IntVar>>, b: PyRef<'_, IntVar>) -> PyResult<()> {
        let (xs, b) = (self.own_all(&xs)?, self.own(&b)?);
        self.record(Post::BoolOr(xs, b))
    }

    /// An odd number of the Booleans `xs` are true (`odd=False`: an even number).
    #[pyo3(signature = (xs, odd=true))]
    fn bool_xor(&mut self, xs: Vec<PyRef<'_, IntVar>>, odd: bool) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::BoolXor(xs, odd))
    }

    /// `y == not x` over Booleans.
    fn bool_not(&mut self, x: PyRef<'_, IntVar>, y: PyRef<'_, IntVar>) -> PyResult<()> {
        let (x, y) = (self.own(&x)?, self.own(&y)?);
        self.record(Post::BoolNot(x, y))
    }

    /// `x == y` over Booleans.
    fn bool_equiv(&mut self, x: PyRef<'_, IntVar>, y: PyRef<'_, IntVar>) -> PyResult<()> {
        let (x, y) = (self.own(&x)?, self.own(&y)?);
        self.record(Post::BoolEquiv(x, y))
    }

    /// Reification: the Boolean `b` is true exactly when `sum(a * x) <relation> rhs` holds; with `half=True`,
    /// only `b -> (...)` (the relation must hold when `b` is true; nothing is said when it is false).
    #[pyo3(signature = (terms, relation, rhs, b, half=false))]
    fn reify_linear(
        &mut self,
        terms: Vec<(i64, PyRef<'_, IntVar>)>,
        relation: &str,
        rhs: i64,
        b: PyRef<'_, IntVar>,
        half: bool,
    ) -> PyResult<()> {
        let (rel, rhs) = self::relation(relation, rhs)?;
        let terms = self.terms(&terms)?;
        let b = self.own(&b)?;
        let mode = if half {
            Reification::Implies
        } else {
            Reification::Equivalent
        };
        self.record(Post::Reify {
            terms,
            rel,
            rhs,
            b,
            mode,
        })
    }

    /// `z == x * y`.
    fn times(
        &mut self,
        x: PyRef<'_, IntVar>,
        y: PyRef<'_, IntVar>,
        z: PyRef<'_, IntVar>,
    ) -> PyResult<()> {
        self.arith(ArithOp::Times, &x, &y, &z)
    }

    /// `z == x div y`, rounding toward zero (as C and Rust do; Python's `//` rounds down); `y` is never 0.
    fn div(
        &mut self,
        x: PyRef<'_, IntVar>,
        y: PyRef<'_, IntVar>,
        z: PyRef<'_, IntVar>,
    ) -> PyResult<()> {
        self.arith(ArithOp::Div, &x, &y, &z)
    }

    /// `z == x mod y == x - y * (x div y)`, with the sign of `x` (Python's `%` takes the sign of `y`); `y` is
    /// never 0.
    fn r#mod(
        &mut self,
        x: PyRef<'_, IntVar>,
        y: PyRef<'_, IntVar>,
        z: PyRef<'_, IntVar>,
    ) -> PyResult<()> {
        self.arith(ArithOp::Mod, &x, &y, &z)
    }

    /// `z == x ** y` with `y >= 0` (`0 ** 0 == 1`).
    fn pow(
        &mut self,
        x: PyRef<'_, IntVar>,
        y: PyRef<'_, IntVar>,
        z: PyRef<'_, IntVar>,
    ) -> PyResult<()> {
        self.arith(ArithOp::Pow, &x, &y, &z)
    }

    /// `z == abs(x)`.
    fn abs(&mut self, x: PyRef<'_, IntVar>, z: PyRef<'_, IntVar>) -> PyResult<()> {
        let (x, z) = (self.own(&x)?, self.own(&z)?);
        self.record(Post::Abs(x, z))
    }

    /// `z == min(xs)` (`xs` not empty).
    fn min_of(&mut self, xs: Vec<PyRef<'_, IntVar>>, z: PyRef<'_, IntVar>) -> PyResult<()> {
        let (xs, z) = (self.own_all(&xs)?, self.own(&z)?);
        self.record(Post::Extremum { xs, z, min: true })
    }

    /// `z == max(xs)` (`xs` not empty).
    fn max_of(&mut self, xs: Vec<PyRef<'_, IntVar>>, z: PyRef<'_, IntVar>) -> PyResult<()> {
        let (xs, z) = (self.own_all(&xs)?, self.own(&z)?);
        self.record(Post::Extremum { xs, z, min: false })
    }

    /// `result == array[index - first]`, for an array of integers or of variables (not a mix).
    #[pyo3(signature = (index, array, result, first=0))]
    fn element(
        &mut self,
        index: PyRef<'_, IntVar>,
        array: &Bound<'_, PyAny>,
        result: PyRef<'_, IntVar>,
        first: i64,
    ) -> PyResult<()> {
        let (index, z) = (self.own(&index)?, self.own(&result)?);
        let items: Vec<Bound<'_, PyAny>> = array.extract().map_err(|_| {
            PyTypeError::new_err(
                "element: the array must be a sequence of integers or of variables",
            )
        })?;
        let items = items
            .iter()
            .map(|item| self.const_or_var(item, "element: the array"))
            .collect::<PyResult<Vec<_>>>()?;
        if items.iter().all(|i| matches!(i, ConstOrVar::Const(_))) {
            let array = items
                .iter()
                .filter_map(|i| match i {
                    ConstOrVar::Const(c) => Some(*c),
                    ConstOrVar::Var(_) => None,
                })
                .collect();
            self.record(Post::Element {
                index,
                first,
                array,
                z,
            })
        } else if items.iter().all(|i| matches!(i, ConstOrVar::Var(_))) {
            let array = items
                .iter()
                .filter_map(|i| match i {
                    ConstOrVar::Var(v) => Some(*v),
                    ConstOrVar::Const(_) => None,
                })
                .collect();
            self.record(Post::ElementVar {
                index,
                first,
                array,
                z,
            })
        } else {
            Err(PyTypeError::new_err(
                "element: the array mixes integers and variables (make the constants variables)",
            ))
        }
    }

    /// `n` == the number of `xs` equal to `value` (an integer or a variable).
    fn count_eq(
        &mut self,
        xs: Vec<PyRef<'_, IntVar>>,
        value: &Bound<'_, PyAny>,
        n: PyRef<'_, IntVar>,
    ) -> PyResult<()> {
        let (xs, n) = (self.own_all(&xs)?, self.own(&n)?);
        match self.const_or_var(value, "count_eq: the value")? {
            ConstOrVar::Const(value) => self.record(Post::Count { xs, value, n }),
            ConstOrVar::Var(y) => self.record(Post::CountVar { xs, y, n }),
        }
    }

    /// `counts[k]` == the number of `xs` equal to `values[k]`, for every `k`.
    fn global_cardinality(
        &mut self,
        xs: Vec<PyRef<'_, IntVar>>,
        values: Vec<i64>,
        counts: Vec<PyRef<'_, IntVar>>,
    ) -> PyResult<()> {
        let (xs, counts) = (self.own_all(&xs)?, self.own_all(&counts)?);
        self.record(Post::GlobalCardinality { xs, values, counts })
    }

    /// `f[i] == j + first` exactly when `g[j] == i + first` (two permutations, inverse to each other).
    #[pyo3(signature = (f, g, first=0))]
    fn inverse(
        &mut self,
        f: Vec<PyRef<'_, IntVar>>,
        g: Vec<PyRef<'_, IntVar>>,
        first: i64,
    ) -> PyResult<()> {
        let (f, g) = (self.own_all(&f)?, self.own_all(&g)?);
        self.record(Post::Inverse { f, g, first })
    }

    /// `xs` is lexicographically at most `ys` (`strict=True`: strictly less).
    #[pyo3(signature = (xs, ys, strict=false))]
    fn lex(
        &mut self,
        xs: Vec<PyRef<'_, IntVar>>,
        ys: Vec<PyRef<'_, IntVar>>,
        strict: bool,
    ) -> PyResult<()> {
        let (xs, ys) = (self.own_all(&xs)?, self.own_all(&ys)?);
        self.record(Post::Lex { xs, ys, strict })
    }

    /// The values of `xs`, in order, form a word of a deterministic automaton: states `0..states`, `start`,
    /// `transitions` as `(from, value, to)` triples (a missing one rejects), and the `accepting` states.
    fn regular(
        &mut self,
        xs: Vec<PyRef<'_, IntVar>>,
        states: usize,
        start: usize,
        transitions: Vec<(usize, i64, usize)>,
        accepting: Vec<usize>,
    ) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::Regular {
            xs,
            states,
            start,
            transitions,
            accepting,
        })
    }

    /// `xs` is one Hamiltonian circuit in successor form: `xs[i] == j + first` means node `j` follows node `i`.
    #[pyo3(signature = (xs, first=0))]
    fn circuit(&mut self, xs: Vec<PyRef<'_, IntVar>>, first: i64) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::Circuit {
            xs,
            first,
            sub: false,
        })
    }

    /// The nodes `i` with `xs[i] != i + first` form one circuit in successor form, the others point to
    /// themselves (no circuit at all is allowed).
    #[pyo3(signature = (xs, first=0))]
    fn subcircuit(&mut self, xs: Vec<PyRef<'_, IntVar>>, first: i64) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::Circuit {
            xs,
            first,
            sub: true,
        })
    }

    /// Number of variables made from Python (the engine's hidden ones left out).
    #[getter]
    fn num_vars(&self) -> usize {
        self.names.len()
    }

    /// Number of constraints, as the engine counts them (a decomposed call may count several).
    #[getter]
    fn num_constraints(&self) -> usize {
        self.live.num_constraints()
    }

    /// Finds one solution (see the module docs for the search options).
    #[pyo3(signature = (**options))]
    fn solve(&self, py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<SearchResult> {
        let opts = Options::parse(options, |x| self.own(x))?;
        let n = self.names.len();
        let (outcome, values, stats) = self.run(py, &opts, &[], |problem, cfg, vars| {
            let r = Solver::new(problem, cfg).solve(&[]);
            (
                r.outcome,
                r.solution.map(|s| pick(s.values(), &vars[..n])),
                r.stats,
            )
        })?;
        Ok(self.result(outcome.as_str(), u64::from(values.is_some()), values, stats))
    }

    /// Counts solutions, up to `limit` when given.
    #[pyo3(signature = (limit=None, **options))]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<SearchResult> {
        let opts = Options::parse(options, |x| self.own(x))?;
        let n = self.names.len();
        let (outcome, count, first, stats) = self.run(py, &opts, &[], |problem, cfg, vars| {
            let r = Solver::new(problem, cfg).count(&[], limit.unwrap_or(u64::MAX));
            let first = r.first.map(|s| pick(s.values(), &vars[..n]));
            (r.outcome, r.count, first, r.stats)
        })?;
        Ok(self.result(outcome.as_str(), count, first, stats))
    }

    /// A lazy iterator over every solution: the search runs on its own thread, one solution ahead of the
    /// consumer, and stops when the iterator is closed or dropped.
    #[pyo3(signature = (**options))]
    fn solutions(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Solutions> {
        let opts = Options::parse(options, |x| self.own(x))?;
        let (problem, vars) = self.problem(&[])?;
        let n = self.names.len();
        let mut cfg = opts.config(&vars);
        let cancel = Arc::new(AtomicBool::new(false));
        cfg.limits = cfg.limits.with_cancel(cancel.clone());
        let (tx, rx) = sync_channel::<Vec<i64>>(1);
        let handle = std::thread::spawn(move || {
            let mut solver = Solver::new(&problem, cfg);
            let mut abandoned = false;
            let (outcome, stats) = solver.for_each_solution(&[], |s| {
                if tx.send(pick(s.values(), &vars[..n])).is_ok() {
                    ControlFlow::Continue(())
                } else {
                    abandoned = true;
                    ControlFlow::Break(())
                }
            });
            // A search the consumer abandoned proved nothing about the solutions it did not reach.
            let outcome = if abandoned {
                Outcome::Limit(LimitKind::Cancelled)
            } else {
                outcome
            };
            (outcome, stats)
        });
        Ok(Solutions {
            rx: Mutex::new(Some(rx)),
            handle: Mutex::new(Some(handle)),
            cancel,
            end: Mutex::new(None),
            model: self.id,
            names: self.shared_names(),
        })
    }

    /// Finds a solution with the least value of `objective` (a variable, or a list of `(coefficient, variable)`
    /// terms) by branch and bound, and proves it least. `on_improve(solution, value)` is called with every
    /// improving solution as the search finds it; returning `False` (or raising) stops the search.
    #[pyo3(signature = (objective, on_improve=None, **options))]
    fn minimize(
        &self,
        py: Python<'_>,
        objective: &Bound<'_, PyAny>,
        on_improve: Option<Py<PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<SearchResult> {
        self.optimize(py, objective, on_improve, options, true)
    }

    /// Finds a solution with the greatest value of `objective` (see `minimize`).
    #[pyo3(signature = (objective, on_improve=None, **options))]
    fn maximize(
        &self,
        py: Python<'_>,
        objective: &Bound<'_, PyAny>,
        on_improve: Option<Py<PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<SearchResult> {
        self.optimize(py, objective, on_improve, options, false)
    }

    fn __repr__(&self) -> String {
        format!(
            "Model({} variables, {} constraints)",
            self.names.len(),
            self.live.num_constraints()
        )
    }
}

impl Model {
    /// `z = op(x, y)`.
    fn arith(&mut self, op: ArithOp, x: &IntVar, y: &IntVar, z: &IntVar) -> PyResult<()> {
        let (x, y, z) = (self.own(x)?, self.own(y)?, self.own(z)?);
        self.record(Post::Arith(op, x, y, z))
    }

    /// An integer, or a variable of this model.
    fn const_or_var(&self, item: &Bound<'_, PyAny>, what: &str) -> PyResult<ConstOrVar> {
        if let Ok(x) = item.extract::<PyRef<'_, IntVar>>() {
            return Ok(ConstOrVar::Var(self.own(&x)?));
        }
        item.extract::<i64>().map(ConstOrVar::Const).map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must hold integers (within i64) or variables, not {}",
                item.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })
    }

    /// A satisfaction search's result.
    fn result(
        &self,
        status: &'static str,
        count: u64,
        values: Option<Vec<i64>>,
        stats: Stats,
    ) -> SearchResult {
        SearchResult {
            status,
            count,
            solution: values.map(|values| Solution {
                values,
                model: self.id,
                names: self.shared_names(),
            }),
            objective: None,
            improvements: 0,
            stats,
        }
    }
}
