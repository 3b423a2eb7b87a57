//! csp-core from Python: a [`Model`] of integer and Boolean variables and the engine's constraints, solved with a
//! chosen strategy and limits; one solution, a lazy solution iterator, counting, and minimisation.
//!
//! A `csp_core::Model` is consumed by `build`, but a Python model must stay open to more constraints after a solve
//! (a bound on the objective, a nogood). So the Python `Model` keeps the list of calls it received ([`Post`]) and
//! a live engine model that checks each call as it comes (errors surface where they are made); every solve builds
//! a fresh engine model from the list. Variables are numbered in creation order, which is the same in every
//! rebuild.
//!
//! Minimisation is repeated solving under a tightening bound (`objective <= best - 1`) until the engine proves no
//! better solution exists: the engine has no branch and bound of its own yet; when it gets one, `minimize` becomes
//! a call to it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use csp_core::{
    LimitKind, Outcome, Problem, Propagation, Relation, Restarts, SearchConfig, Solver, Stats,
    ValueOrder, VarId, VarOrder,
};

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

/// One call made on a Python model, replayed on each rebuild.
#[derive(Clone, Debug)]
enum Post {
    Var { min: i64, max: i64 },
    VarValues(Vec<i64>),
    AllDifferent(Vec<usize>),
    AllDifferentOffset(Vec<usize>, Vec<i64>),
    NotEqual(usize, usize, i64),
    Equal(usize, usize, i64),
    Linear(Vec<(i64, usize)>, Relation, i64),
    Table(Vec<usize>, Vec<Vec<i64>>),
}

/// Replays `post` on `model`, whose variables so far are `vars`.
fn apply(model: &mut csp_core::Model, vars: &mut Vec<VarId>, post: &Post) -> PyResult<()> {
    let ids = |xs: &[usize]| -> Vec<VarId> { xs.iter().map(|&i| vars[i]).collect() };
    let result = match post {
        Post::Var { min, max } => model.new_var(*min, *max).map(|v| vars.push(v)),
        Post::VarValues(values) => model.new_var_with_values(values).map(|v| vars.push(v)),
        Post::AllDifferent(xs) => model.all_different(&ids(xs)).map(drop),
        Post::AllDifferentOffset(xs, offsets) => {
            model.all_different_offset(&ids(xs), offsets).map(drop)
        }
        Post::NotEqual(x, y, c) => model.not_equal(vars[*x], vars[*y], *c).map(drop),
        Post::Equal(x, y, c) => model.equal(vars[*x], vars[*y], *c).map(drop),
        Post::Linear(terms, rel, rhs) => {
            let terms: Vec<(i64, VarId)> = terms.iter().map(|&(a, x)| (a, vars[x])).collect();
            model.linear(&terms, *rel, *rhs).map(drop)
        }
        Post::Table(xs, tuples) => model.table(&ids(xs), tuples).map(drop),
    };
    result.map_err(|e| PyValueError::new_err(e.to_string()))
}

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

/// The search options shared by `solve`, `count`, `solutions` and `minimize`, read from keyword arguments.
fn search_config(options: Option<&Bound<'_, PyDict>>) -> PyResult<SearchConfig> {
    let mut cfg = SearchConfig::default();
    let Some(options) = options else {
        return Ok(cfg);
    };
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        match key.as_str() {
            "var_order" => {
                cfg.var_order = match value.extract::<String>()?.as_str() {
                    "input" => VarOrder::Input,
                    "mrv" => VarOrder::Mrv,
                    "mrv-degree" => VarOrder::MrvDegree,
                    "dom-wdeg" => VarOrder::DomWdeg,
                    other => return Err(choice_error("var_order", other, "input, mrv, mrv-degree, dom-wdeg")),
                }
            }
            "value_order" => {
                cfg.value_order = match value.extract::<String>()?.as_str() {
                    "ascending" => ValueOrder::Ascending,
                    "median" => ValueOrder::Median,
                    "lcv" => ValueOrder::Lcv,
                    "random" => ValueOrder::Random,
                    other => return Err(choice_error("value_order", other, "ascending, median, lcv, random")),
                }
            }
            "propagation" => {
                cfg.propagation = match value.extract::<String>()?.as_str() {
                    "none" => Propagation::None,
                    "forward-checking" | "fc" => Propagation::ForwardChecking,
                    "singles" => Propagation::Singles,
                    other => return Err(choice_error("propagation", other, "none, fc, singles")),
                }
            }
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
                        PyValueError::new_err(format!("time_limit must be non-negative seconds, not {s}"))
                    })?),
                };
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "unknown search option `{other}` (var_order, value_order, propagation, random_ties, seed, \
                     intersections, restarts, node_limit, time_limit)"
                )))
            }
        }
    }
    Ok(cfg)
}

/// `None`, `("luby", scale)` or `("geometric", base, factor)`.
fn restarts(value: &Bound<'_, PyAny>) -> PyResult<Restarts> {
    if value.is_none() {
        return Ok(Restarts::None);
    }
    if let Ok((kind, scale)) = value.extract::<(String, u64)>() {
        if kind == "luby" {
            return Ok(Restarts::Luby { scale });
        }
    }
    if let Ok((kind, base, factor)) = value.extract::<(String, u64, f64)>() {
        if kind == "geometric" {
            return Ok(Restarts::Geometric { base, factor });
        }
    }
    Err(PyValueError::new_err(
        "restarts must be None, (\"luby\", scale) or (\"geometric\", base, factor)",
    ))
}

fn choice_error(option: &str, got: &str, known: &str) -> PyErr {
    PyValueError::new_err(format!("{option} `{got}` is not one of: {known}"))
}

/// The status word of an engine outcome (`solved`, `unsatisfiable`, `limit`).
fn status_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::Unsatisfiable => "unsatisfiable",
        Outcome::Limit(_) => "limit",
    }
}

/// Statistics as a dict: nodes, guesses, fails, propagations, max_depth, restarts, solutions, time (seconds).
fn stats_dict<'py>(py: Python<'py>, stats: &Stats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("nodes", stats.nodes)?;
    d.set_item("guesses", stats.guesses)?;
    d.set_item("fails", stats.fails)?;
    d.set_item("propagations", stats.propagations)?;
    d.set_item("max_depth", stats.max_depth)?;
    d.set_item("restarts", stats.restarts)?;
    d.set_item("solutions", stats.solutions)?;
    d.set_item("time", stats.time.as_secs_f64())?;
    Ok(d)
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
    live_vars: Vec<VarId>,
    names: Vec<String>,
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

    /// `(coefficient, variable index)` terms with the coefficients of a repeated variable added up (first
    /// occurrence order), so `SEND + MOST` may name `S` twice.
    fn terms(&self, terms: &[(i64, PyRef<'_, IntVar>)]) -> PyResult<Vec<(i64, usize)>> {
        let mut out: Vec<(i64, usize)> = Vec::with_capacity(terms.len());
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

    fn own_all(&self, xs: &[PyRef<'_, IntVar>]) -> PyResult<Vec<usize>> {
        xs.iter().map(|x| self.own(x)).collect()
    }

    /// Checks `post` on the live model and records it.
    fn record(&mut self, post: Post) -> PyResult<()> {
        apply(&mut self.live, &mut self.live_vars, &post)?;
        self.posts.push(post);
        Ok(())
    }

    fn new_var(&mut self, post: Post, name: Option<String>) -> PyResult<IntVar> {
        self.record(post)?;
        let index = self.names.len();
        let name = name.unwrap_or_else(|| format!("x{index}"));
        self.names.push(name.clone());
        Ok(IntVar {
            index,
            name,
            model: self.id,
        })
    }

    /// A frozen problem of every call so far, plus `extra`.
    fn problem(&self, extra: &[Post]) -> PyResult<Problem> {
        let mut model = csp_core::Model::new();
        let mut vars = Vec::with_capacity(self.names.len());
        for post in self.posts.iter().chain(extra) {
            apply(&mut model, &mut vars, post)?;
        }
        model
            .build()
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn solution(&self, values: Vec<i64>) -> Solution {
        Solution {
            values,
            model: self.id,
            names: self.names.clone(),
        }
    }
}

/// `==`, `<=` or `>=`.
fn relation(op: &str) -> PyResult<Relation> {
    match op {
        "==" => Ok(Relation::Eq),
        "<=" => Ok(Relation::Le),
        ">=" => Ok(Relation::Ge),
        other => Err(PyValueError::new_err(format!(
            "relation `{other}` is not one of ==, <=, >="
        ))),
    }
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
        }
    }

    /// A new integer variable with domain `min..=max`.
    #[pyo3(signature = (min, max, name=None))]
    fn int_var(&mut self, min: i64, max: i64, name: Option<String>) -> PyResult<IntVar> {
        self.new_var(Post::Var { min, max }, name)
    }

    /// A new integer variable whose domain is exactly `values`.
    #[pyo3(signature = (values, name=None))]
    fn int_var_from(&mut self, values: Vec<i64>, name: Option<String>) -> PyResult<IntVar> {
        self.new_var(Post::VarValues(values), name)
    }

    /// A new Boolean variable: an integer variable on `0..=1`.
    #[pyo3(signature = (name=None))]
    fn bool_var(&mut self, name: Option<String>) -> PyResult<IntVar> {
        self.new_var(Post::Var { min: 0, max: 1 }, name)
    }

    /// The variables take pairwise different values.
    fn all_different(&mut self, xs: Vec<PyRef<'_, IntVar>>) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::AllDifferent(xs))
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

    /// `sum(a * x for a, x in terms) <relation> rhs`, with `relation` one of `==`, `<=`, `>=`.
    fn linear(
        &mut self,
        terms: Vec<(i64, PyRef<'_, IntVar>)>,
        relation: &str,
        rhs: i64,
    ) -> PyResult<()> {
        let rel = self::relation(relation)?;
        let terms = self.terms(&terms)?;
        self.record(Post::Linear(terms, rel, rhs))
    }

    /// The variables take one of the `tuples` (each as long as `xs`).
    fn table(&mut self, xs: Vec<PyRef<'_, IntVar>>, tuples: Vec<Vec<i64>>) -> PyResult<()> {
        let xs = self.own_all(&xs)?;
        self.record(Post::Table(xs, tuples))
    }

    /// Number of variables.
    #[getter]
    fn num_vars(&self) -> usize {
        self.names.len()
    }

    /// Number of constraints.
    #[getter]
    fn num_constraints(&self) -> usize {
        self.live.num_constraints()
    }

    /// Finds one solution (see the package docs for the search options).
    #[pyo3(signature = (**options))]
    fn solve(&self, py: Python<'_>, options: Option<&Bound<'_, PyDict>>) -> PyResult<SearchResult> {
        let cfg = search_config(options)?;
        let problem = self.problem(&[])?;
        let r = py.detach(|| Solver::new(&problem, cfg).solve(&[]));
        Ok(SearchResult {
            status: status_word(r.outcome),
            count: u64::from(r.solution.is_some()),
            solution: r.solution.map(|s| self.solution(s.values().to_vec())),
            stats: r.stats,
            objective: None,
        })
    }

    /// Counts solutions, up to `limit` when given.
    #[pyo3(signature = (limit=None, **options))]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<SearchResult> {
        let cfg = search_config(options)?;
        let problem = self.problem(&[])?;
        let r = py.detach(|| Solver::new(&problem, cfg).count(&[], limit.unwrap_or(u64::MAX)));
        Ok(SearchResult {
            status: status_word(r.outcome),
            count: r.count,
            solution: r.first.map(|s| self.solution(s.values().to_vec())),
            stats: r.stats,
            objective: None,
        })
    }

    /// A lazy iterator over every solution: the search runs on its own thread, one solution ahead of the
    /// consumer, and stops when the iterator is dropped.
    #[pyo3(signature = (**options))]
    fn solutions(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Solutions> {
        let mut cfg = search_config(options)?;
        let problem = Arc::new(self.problem(&[])?);
        let cancel = Arc::new(AtomicBool::new(false));
        cfg.limits = cfg.limits.with_cancel(cancel.clone());
        let (tx, rx) = sync_channel::<Vec<i64>>(1);
        let handle = std::thread::spawn(move || {
            let mut solver = Solver::new(&problem, cfg);
            let mut abandoned = false;
            let (outcome, stats) = solver.for_each_solution(&[], |s| {
                if tx.send(s.values().to_vec()).is_ok() {
                    std::ops::ControlFlow::Continue(())
                } else {
                    abandoned = true;
                    std::ops::ControlFlow::Break(())
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
            names: self.names.clone(),
        })
    }

    /// Finds a solution with the least `sum(a * x for a, x in objective)` and proves it least, by solving again
    /// under `objective <= best - 1` until that is unsatisfiable. The result's `objective` holds the value;
    /// its status is `limit` when a limit (applied to each solve) stopped the search before the proof.
    #[pyo3(signature = (objective, **options))]
    fn minimize(
        &self,
        py: Python<'_>,
        objective: Vec<(i64, PyRef<'_, IntVar>)>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<SearchResult> {
        let cfg = search_config(options)?;
        let terms = self.terms(&objective)?;
        let value = |values: &[i64]| -> PyResult<i64> {
            let total: i128 = terms
                .iter()
                .map(|&(a, x)| i128::from(a) * i128::from(values[x]))
                .sum();
            i64::try_from(total)
                .map_err(|_| PyValueError::new_err("the objective's value overflows i64"))
        };
        let mut best: Option<(Vec<i64>, i64)> = None;
        let mut stats = Stats::default();
        loop {
            let extra: Vec<Post> = match &best {
                None => Vec::new(),
                Some((_, v)) => vec![Post::Linear(terms.clone(), Relation::Le, v - 1)],
            };
            let problem = match self.problem(&extra) {
                Ok(p) => p,
                // A bound below what the objective can reach (e.g. overflow) means the best is proved.
                Err(_) if best.is_some() => break,
                Err(e) => return Err(e),
            };
            let step = cfg.clone();
            let r = py.detach(|| Solver::new(&problem, step).solve(&[]));
            stats += r.stats;
            match (r.outcome, r.solution) {
                (Outcome::Solved, Some(s)) => {
                    let v = value(s.values())?;
                    best = Some((s.values().to_vec(), v));
                }
                (Outcome::Unsatisfiable, _) => break,
                (Outcome::Limit(_), _) | (Outcome::Solved, None) => {
                    return Ok(SearchResult {
                        status: "limit",
                        count: u64::from(best.is_some()),
                        objective: best.as_ref().map(|b| b.1),
                        solution: best.map(|(values, _)| self.solution(values)),
                        stats,
                    })
                }
            }
        }
        Ok(SearchResult {
            status: if best.is_some() {
                "solved"
            } else {
                "unsatisfiable"
            },
            count: u64::from(best.is_some()),
            objective: best.as_ref().map(|b| b.1),
            solution: best.map(|(values, _)| self.solution(values)),
            stats,
        })
    }

    /// Finds a solution with the greatest `sum(a * x for a, x in objective)` (see `minimize`).
    #[pyo3(signature = (objective, **options))]
    fn maximize(
        &self,
        py: Python<'_>,
        objective: Vec<(i64, PyRef<'_, IntVar>)>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<SearchResult> {
        let negated: Vec<(i64, PyRef<'_, IntVar>)> = objective
            .into_iter()
            .map(|(a, x)| {
                a.checked_neg()
                    .map(|n| (n, x))
                    .ok_or_else(|| PyValueError::new_err("objective coefficient overflows"))
            })
            .collect::<PyResult<_>>()?;
        let mut r = self.minimize(py, negated, options)?;
        r.objective = r.objective.map(|v| -v);
        Ok(r)
    }

    fn __repr__(&self) -> String {
        format!(
            "Model({} variables, {} constraints)",
            self.names.len(),
            self.live.num_constraints()
        )
    }
}

/// Values of every variable of a model, read with `solution[x]`.
#[pyclass(module = "csp_sudoku._native", frozen)]
#[derive(Clone)]
pub(crate) struct Solution {
    values: Vec<i64>,
    model: u64,
    names: Vec<String>,
}

#[pymethods]
impl Solution {
    /// The value of `x`.
    fn __getitem__(&self, x: PyRef<'_, IntVar>) -> PyResult<i64> {
        if x.model != self.model {
            return Err(PyValueError::new_err(format!(
                "variable {} belongs to another model",
                x.name
            )));
        }
        self.values.get(x.index).copied().ok_or_else(|| {
            PyValueError::new_err(format!("variable {} came after this solution", x.name))
        })
    }

    /// Every value, in variable creation order.
    #[getter]
    fn values(&self) -> Vec<i64> {
        self.values.clone()
    }

    /// `{name: value}` for every variable.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (name, v) in self.names.iter().zip(&self.values) {
            d.set_item(name, v)?;
        }
        Ok(d)
    }

    fn __len__(&self) -> usize {
        self.values.len()
    }

    fn __eq__(&self, other: PyRef<'_, Solution>) -> bool {
        self.model == other.model && self.values == other.values
    }

    fn __repr__(&self) -> String {
        let parts: Vec<String> = self
            .names
            .iter()
            .zip(&self.values)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        format!("Solution({})", parts.join(", "))
    }
}

/// What `solve`, `count`, `minimize` and `maximize` return.
#[pyclass(module = "csp_sudoku._native", frozen)]
pub(crate) struct SearchResult {
    /// `solved`, `unsatisfiable` or `limit`.
    #[pyo3(get)]
    status: &'static str,
    /// Solutions found (1 or 0 for `solve`).
    #[pyo3(get)]
    count: u64,
    /// The (first, or best) solution, if any.
    #[pyo3(get)]
    solution: Option<Solution>,
    /// The objective's value of `solution` (`minimize`/`maximize` only).
    #[pyo3(get)]
    objective: Option<i64>,
    stats: Stats,
}

#[pymethods]
impl SearchResult {
    /// Search statistics: nodes, guesses, fails, propagations, max_depth, restarts, solutions, time (s).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        stats_dict(py, &self.stats)
    }

    /// The value of `x` in the solution; `RuntimeError` when there is none.
    fn __getitem__(&self, x: PyRef<'_, IntVar>) -> PyResult<i64> {
        match &self.solution {
            Some(s) => s.__getitem__(x),
            None => Err(PyRuntimeError::new_err(format!(
                "no solution (status {})",
                self.status
            ))),
        }
    }

    /// True when a solution was found.
    fn __bool__(&self) -> bool {
        self.solution.is_some()
    }

    fn __repr__(&self) -> String {
        let objective = self.objective.map_or("None".to_string(), |v| v.to_string());
        format!(
            "SearchResult(status={}, count={}, objective={objective})",
            self.status, self.count
        )
    }
}

/// The lazy iterator of `Model.solutions()`.
#[pyclass(module = "csp_sudoku._native")]
pub(crate) struct Solutions {
    rx: Mutex<Option<Receiver<Vec<i64>>>>,
    handle: Mutex<Option<JoinHandle<(Outcome, Stats)>>>,
    cancel: Arc<AtomicBool>,
    /// How the search ended, once it has.
    end: Mutex<Option<(Outcome, Stats)>>,
    model: u64,
    names: Vec<String>,
}

impl Solutions {
    /// Waits for the search thread and keeps how it ended.
    fn finish(&self) -> PyResult<()> {
        let handle = self.handle.lock().map_err(|_| poisoned())?.take();
        if let Some(h) = handle {
            let end = h
                .join()
                .map_err(|_| PyRuntimeError::new_err("the search thread panicked"))?;
            *self.end.lock().map_err(|_| poisoned())? = Some(end);
        }
        Ok(())
    }
}

fn poisoned() -> PyErr {
    PyRuntimeError::new_err("the solution iterator's lock is poisoned")
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Solution>> {
        // The receiver is taken out while waiting, so no lock is held without the GIL (a second thread calling
        // `next` meanwhile sees an ended iterator: iterate from one thread).
        let Some(rx) = self.rx.lock().map_err(|_| poisoned())?.take() else {
            return Ok(None);
        };
        let (rx, received) = py.detach(move || {
            let received = rx.recv();
            (rx, received)
        });
        match received {
            Ok(values) => {
                *self.rx.lock().map_err(|_| poisoned())? = Some(rx);
                Ok(Some(Solution {
                    values,
                    model: self.model,
                    names: self.names.clone(),
                }))
            }
            Err(_) => {
                drop(rx);
                py.detach(|| self.finish())?;
                Ok(None)
            }
        }
    }

    /// Stops the search (the iterator then ends).
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        self.cancel.store(true, Ordering::Relaxed);
        *self.rx.lock().map_err(|_| poisoned())? = None;
        py.detach(|| self.finish())
    }

    /// `solved`/`unsatisfiable` once the search has ended by itself (every solution seen), `limit` when a limit
    /// or `close()` stopped it, `None` while it runs.
    #[getter]
    fn status(&self) -> PyResult<Option<&'static str>> {
        Ok(self
            .end
            .lock()
            .map_err(|_| poisoned())?
            .as_ref()
            .map(|(o, _)| match o {
                Outcome::Limit(LimitKind::Cancelled) => "limit",
                o => status_word(*o),
            }))
    }

    /// Statistics of the whole search, once it has ended (`None` before).
    #[getter]
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let end = self.end.lock().map_err(|_| poisoned())?;
        end.as_ref().map(|(_, s)| stats_dict(py, s)).transpose()
    }
}

impl Drop for Solutions {
    fn drop(&mut self) {
        // Dropping the receiver makes the thread's next send fail, and the cancel flag stops a search that is
        // between solutions; the thread then ends on its own (it is not joined here, to keep drop cheap).
        self.cancel.store(true, Ordering::Relaxed);
        if let Ok(mut rx) = self.rx.lock() {
            *rx = None;
        }
    }
}
