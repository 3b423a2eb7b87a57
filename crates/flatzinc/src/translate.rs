//! FlatZinc AST -> csp-core model: declarations become variables (after inferring bounds for unbounded `var int`s
//! from the constraints that define them), constraints go through the builtin table ([`crate::builtins`]), the
//! solve item becomes an objective and a search configuration, and the output annotations become an
//! [`crate::output::OutputSpec`].

use std::collections::HashMap;

use csp_core::{Model, ModelError, Objective, Relation, ValueOrder, VarId, VarOrder};

use crate::ast::{BaseType, Decl, Expr, FznModel, Goal, IntSet, Pos};
use crate::builtins;
use crate::output::{OutputItem, OutputSpec, Printed};

/// A translation error (unsupported feature, type error, engine refusal) with the item's position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {msg}")]
pub struct TranslateError {
    /// Position of the item.
    pub pos: Pos,
    /// What went wrong.
    pub msg: String,
}

/// Why a posting function failed: a message of the front end, or the engine's refusal, kept structured until it
/// is rendered with the FlatZinc names of its variables ([`Names::describe`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fail {
    /// A message that already names what it is about.
    Msg(String),
    /// The engine refused a call; its variables are engine indexes.
    Model(ModelError),
}

impl From<String> for Fail {
    fn from(s: String) -> Self {
        Fail::Msg(s)
    }
}

impl From<&str> for Fail {
    fn from(s: &str) -> Self {
        Fail::Msg(s.to_string())
    }
}

impl From<ModelError> for Fail {
    fn from(e: ModelError) -> Self {
        Fail::Model(e)
    }
}

/// The FlatZinc name of every engine variable the translation created, so errors name what the user (or
/// MiniZinc) wrote: `` `x` (line 3) ``, `` `a[2]` (line 4) `` for an element of an array declared without a value,
/// `the constant 5` for a shared constant. Indexed by engine variable index; variables csp-core creates itself
/// (auxiliaries of its decompositions) have none.
#[derive(Clone, Debug, Default)]
pub struct Names(Vec<Option<String>>);

impl Names {
    fn set(&mut self, x: VarId, name: String) {
        let i = x.index();
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(name);
    }

    /// The name of engine variable `v`.
    pub fn name(&self, v: usize) -> String {
        match self.0.get(v) {
            Some(Some(n)) => n.clone(),
            _ => format!("x{v} (an auxiliary variable of csp-core)"),
        }
    }

    /// `e`'s message with FlatZinc names.
    pub fn describe(&self, e: &ModelError) -> String {
        e.describe(&|v| self.name(v))
    }

    /// `f`'s message with FlatZinc names.
    pub fn render(&self, f: Fail) -> String {
        match f {
            Fail::Msg(m) => m,
            Fail::Model(e) => self.describe(&e),
        }
    }
}

/// A resolved value: a constant, a variable, or an array of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// An integer constant.
    Int(i64),
    /// A Boolean constant.
    Bool(bool),
    /// A constant set.
    Set(IntSet),
    /// A variable (Booleans are 0/1 variables).
    Var(VarId),
    /// An array.
    Array(Vec<Val>),
}

/// One `int_search` / `bool_search`: its variables and orders (a csp-core search phase).
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseSpec {
    /// The annotated variables, in the annotation's order.
    pub vars: Vec<VarId>,
    /// Variable order within the group.
    pub var_order: VarOrder,
    /// Value order for the group.
    pub value_order: ValueOrder,
}

/// The search the annotations ask for (or `None` where they say nothing usable).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchSpec {
    /// Variable order of the variables no annotation lists (the first annotation's).
    pub var_order: Option<VarOrder>,
    /// Value order of the variables no annotation lists (the first annotation's).
    pub value_order: Option<ValueOrder>,
    /// One phase per `int_search` / `bool_search`, in the order of the annotations (`seq_search` flattened).
    pub phases: Vec<PhaseSpec>,
    /// Parts of the annotation that could not be honoured exactly.
    pub warnings: Vec<String>,
}

/// The result of translation.
#[derive(Debug)]
pub struct Translated {
    /// The csp-core model, ready to build.
    pub model: Model,
    /// What to print per solution.
    pub output: OutputSpec,
    /// The objective, `None` for satisfaction.
    pub objective: Option<Objective>,
    /// The annotated search.
    pub search: SearchSpec,
    /// The FlatZinc names of the model's variables (for errors the engine reports later, at build).
    pub names: Names,
}

/// One counted array and its constant-value counts `(value, n)`, in posting order.
type CountGroup = (Vec<VarId>, Vec<(i64, VarId)>);

/// Translation state shared with the builtin posting functions.
pub struct Ctx {
    /// The model being built.
    pub model: Model,
    /// The consistency annotation of the constraint being posted, if any: MiniZinc passes
    /// `all_different(x) :: domain` through to the FlatZinc item.
    pub consistency: Option<Consistency>,
    env: HashMap<String, Val>,
    consts: HashMap<i64, VarId>,
    /// Counts of a constant value posted so far, grouped by the counted array (in posting order):
    /// `count_groups[k] = (xs, [(value, n), ..])`, `count_index[xs] = k`. Read once after every constraint is
    /// posted, by [`post_implied_count_sums`].
    count_groups: Vec<CountGroup>,
    count_index: HashMap<Vec<VarId>, usize>,
    /// FlatZinc names of the variables created so far.
    pub names: Names,
}

type R<T> = Result<T, String>;

/// A propagation-strength annotation on a constraint item (MiniZinc's `domain` / `domain_propagation`, `bounds` /
/// `bounds_propagation`, `value_propagation`); constraints that have no such choice ignore it, as annotations are
/// hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Consistency {
    /// `:: domain`.
    Domain,
    /// `:: bounds` (also `boundsZ`, `boundsR`, `boundsD`).
    Bounds,
    /// `:: value_propagation`.
    Value,
}

impl Consistency {
    fn of(ann: &Expr) -> Option<Self> {
        match ann {
            Expr::Ident(name) => match name.as_str() {
                "domain" | "domain_propagation" => Some(Self::Domain),
                "bounds" | "bounds_propagation" | "boundsZ" | "boundsR" | "boundsD" => {
                    Some(Self::Bounds)
                }
                "value_propagation" => Some(Self::Value),
                _ => None,
            },
            _ => None,
        }
    }
}

impl Ctx {
    /// Records that `n` counts the `xs` equal to the constant `value` (posted by the caller), for the implied sum
    /// of [`post_implied_count_sums`].
    pub fn note_count(&mut self, xs: &[VarId], value: i64, n: VarId) {
        let k = match self.count_index.get(xs) {
            Some(&k) => k,
            None => {
                self.count_groups.push((xs.to_vec(), Vec::new()));
                self.count_index
                    .insert(xs.to_vec(), self.count_groups.len() - 1);
                self.count_groups.len() - 1
            }
        };
        self.count_groups[k].1.push((value, n));
    }

    /// The variable an expression denotes (constants become fixed variables, one per value).
    pub fn var(&mut self, e: &Expr) -> R<VarId> {
        let v = self.val(e)?;
        self.var_of(&v)
    }

    fn var_of(&mut self, v: &Val) -> R<VarId> {
        match v {
            Val::Var(x) => Ok(*x),
            Val::Int(n) => self.constant(*n),
            Val::Bool(b) => self.constant(*b as i64),
            other => Err(format!("expected a scalar, found {other:?}")),
        }
    }

    /// A variable fixed to `n` (shared by every use of `n`).
    pub fn constant(&mut self, n: i64) -> R<VarId> {
        if let Some(&x) = self.consts.get(&n) {
            return Ok(x);
        }
        let x = self.model.new_var(n, n).map_err(|e| e.to_string())?;
        self.names.set(x, format!("the constant {n}"));
        self.consts.insert(n, x);
        Ok(x)
    }

    /// The variables of an array expression.
    pub fn vars(&mut self, e: &Expr) -> R<Vec<VarId>> {
        match self.val(e)? {
            Val::Array(items) => items.iter().map(|v| self.var_of(v)).collect(),
            other => Err(format!("expected an array, found {other:?}")),
        }
    }

    /// An integer (or Boolean) constant.
    pub fn int(&self, e: &Expr) -> R<i64> {
        match self.val(e)? {
            Val::Int(n) => Ok(n),
            Val::Bool(b) => Ok(b as i64),
            other => Err(format!("expected a constant integer, found {other:?}")),
        }
    }

    /// The constant value of a scalar expression, if it has one.
    pub fn const_of(&self, e: &Expr) -> Option<i64> {
        self.int(e).ok()
    }

    /// An array of integer (or Boolean) constants.
    pub fn ints(&self, e: &Expr) -> R<Vec<i64>> {
        match self.val(e)? {
            Val::Array(items) => items
                .iter()
                .map(|v| match v {
                    Val::Int(n) => Ok(*n),
                    Val::Bool(b) => Ok(*b as i64),
                    other => Err(format!("expected a constant, found {other:?}")),
                })
                .collect(),
            other => Err(format!("expected an array of constants, found {other:?}")),
        }
    }

    /// A constant set.
    pub fn set(&self, e: &Expr) -> R<IntSet> {
        match self.val(e)? {
            Val::Set(s) => Ok(s),
            other => Err(format!("expected a constant set, found {other:?}")),
        }
    }

    /// The values `x` can take (its domain in the model).
    pub fn domain(&self, x: VarId) -> R<Vec<i64>> {
        let raw = self
            .model
            .scope("domain", &[x])
            .map_err(|e| e.to_string())?;
        let vals = self
            .model
            .values_of(raw[0])
            .ok_or_else(|| "unknown variable".to_string())?;
        Ok((0..vals.width()).map(|p| vals.value(p)).collect())
    }

    /// Resolves an expression against the environment.
    pub fn val(&self, e: &Expr) -> R<Val> {
        Ok(match e {
            Expr::Bool(b) => Val::Bool(*b),
            Expr::Int(n) => Val::Int(*n),
            Expr::Set(s) => Val::Set(s.clone()),
            Expr::Float(_) => return Err(FLOAT_REFUSED.into()),
            Expr::Ident(name) => self
                .env
                .get(name)
                .cloned()
                .ok_or_else(|| format!("unknown name `{name}`"))?,
            Expr::Access(name, i) => match self.env.get(name) {
                Some(Val::Array(items)) => usize::try_from(*i - 1)
                    .ok()
                    .and_then(|k| items.get(k))
                    .cloned()
                    .ok_or_else(|| format!("index {i} out of range for `{name}`"))?,
                Some(_) => return Err(format!("`{name}` is not an array")),
                None => return Err(format!("unknown name `{name}`")),
            },
            Expr::Array(items) => {
                Val::Array(items.iter().map(|x| self.val(x)).collect::<R<Vec<_>>>()?)
            }
            Expr::Str(_) | Expr::Call(..) => {
                return Err("annotation or string in a constraint argument".into())
            }
        })
    }
}

/// The one message for float models.
pub const FLOAT_REFUSED: &str =
    "float variables and constraints are not supported by csp-core (integer and Boolean models only)";
/// The one message for set-variable models.
pub const SET_REFUSED: &str =
    "set variables are not supported by csp-core (the solver library includes nosets.mzn; pass --solver csp-core so MiniZinc compiles sets to Booleans)";

/// Whether an annotation list carries `name` (as an atom or a call).
fn has_ann(anns: &[Expr], name: &str) -> bool {
    anns.iter().any(|a| match a {
        Expr::Ident(n) | Expr::Call(n, _) => n == name,
        _ => false,
    })
}

/// Translates a parsed model.
pub fn translate(fzn: &FznModel) -> Result<Translated, TranslateError> {
    let bounds = crate::bounds::infer(fzn);
    let mut cx = Ctx {
        model: Model::new(),
        consistency: None,
        env: HashMap::new(),
        consts: HashMap::new(),
        count_groups: Vec::new(),
        count_index: HashMap::new(),
        names: Names::default(),
    };
    let mut output = OutputSpec::default();
    for d in &fzn.decls {
        let err = |msg: String| TranslateError { pos: d.pos, msg };
        match d.ty {
            BaseType::Float => return Err(err(FLOAT_REFUSED.into())),
            BaseType::SetOfInt if d.is_var => return Err(err(SET_REFUSED.into())),
            _ => {}
        }
        let val = declare(&mut cx, d, &bounds).map_err(err)?;
        let printed = if d.ty == BaseType::Bool {
            Printed::Bool
        } else {
            Printed::Int
        };
        if has_ann(&d.anns, "output_var") {
            output.items.push(OutputItem::Scalar {
                name: d.name.clone(),
                val: val.clone(),
                printed,
            });
        }
        if let Some(Expr::Call(_, args)) = d
            .anns
            .iter()
            .find(|a| matches!(a, Expr::Call(n, _) if n == "output_array"))
        {
            let dims = match args.first() {
                Some(Expr::Array(ds)) => ds
                    .iter()
                    .map(|x| match x {
                        Expr::Set(s) => s.bounds().ok_or_else(|| "empty index set".to_string()),
                        _ => Err("output_array expects index ranges".to_string()),
                    })
                    .collect::<R<Vec<_>>>()
                    .map_err(err)?,
                _ => return Err(err("output_array expects a list of index ranges".into())),
            };
            output.items.push(OutputItem::Array {
                name: d.name.clone(),
                dims,
                val: val.clone(),
                printed,
            });
        }
        cx.env.insert(d.name.clone(), val);
    }
    for c in &fzn.constraints {
        let err = |msg: String| TranslateError {
            pos: c.pos,
            msg: format!("{}: {msg}", c.name),
        };
        let Some(b) = builtins::lookup(&c.name) else {
            let msg = if c.name.starts_with("float_") || c.name.contains("_float_") {
                FLOAT_REFUSED.to_string()
            } else if c.name.starts_with("set_") || c.name.contains("_set_") {
                SET_REFUSED.to_string()
            } else if c.name.starts_with("csp_") {
                // Only the solver library in share/minizinc/csp-core posts `csp_*` builtins: a library newer than
                // this binary (a pull without a rebuild) is the likely cause.
                format!(
                    "unsupported constraint `{}`: the solver library (share/minizinc/csp-core) posts a builtin this \
                     fzn-csp-core does not know; rebuild it (`cargo build --release -p flatzinc`)",
                    c.name
                )
            } else {
                format!("unsupported constraint `{}`", c.name)
            };
            return Err(TranslateError { pos: c.pos, msg });
        };
        if !b.arity.contains(&c.args.len()) {
            return Err(err(format!(
                "expected {:?} arguments, got {}",
                b.arity,
                c.args.len()
            )));
        }
        cx.consistency = c.anns.iter().find_map(Consistency::of);
        if let Err(f) = (b.post)(&mut cx, &c.args) {
            return Err(err(cx.names.render(f)));
        }
    }
    post_implied_count_sums(&mut cx);
    let serr = |msg: String| TranslateError {
        pos: fzn.solve.pos,
        msg,
    };
    let objective = match &fzn.solve.goal {
        Goal::Satisfy => None,
        Goal::Minimize(e) => Some(Objective::Minimize(cx.var(e).map_err(serr)?)),
        Goal::Maximize(e) => Some(Objective::Maximize(cx.var(e).map_err(serr)?)),
    };
    let mut search = SearchSpec::default();
    for a in &fzn.solve.anns {
        search_ann(&mut cx, a, &mut search);
    }
    Ok(Translated {
        model: cx.model,
        output,
        objective,
        search,
        names: cx.names,
    })
}

/// Posts, for each array counted by several constant-value `count_eq`s (MiniZinc's `count(x, v, n)` over one
/// `x`, as in a magic sequence), the sum their counts obey: each member of `xs` equals at most one of the distinct
/// values, so `sum n_v <= |xs|`, and `= |xs|` when every member's domain lies within those values. This is the
/// implied constraint MiniZinc's own `global_cardinality` decomposition adds; separate counts do not see it, and
/// each count alone cannot deduce it. Measured on magicseq n = 100 (unannotated, default search): no answer in
/// 20 s before, 196 nodes after (docs/measurements.md). Redundant, so an engine refusal (an overflowing sum) only
/// leaves it out.
fn post_implied_count_sums(cx: &mut Ctx) {
    for (xs, counts) in std::mem::take(&mut cx.count_groups) {
        let mut by_value: Vec<(i64, VarId)> = counts;
        by_value.sort_unstable_by_key(|&(v, _)| v);
        // A value counted twice has equal counts: one of them is enough.
        by_value.dedup_by_key(|&mut (v, _)| v);
        if by_value.len() < 2 {
            continue;
        }
        let mut terms: Vec<(i64, VarId)> = Vec::with_capacity(by_value.len());
        for &(_, n) in &by_value {
            match terms.iter_mut().find(|(_, m)| *m == n) {
                Some(t) => t.0 += 1,
                None => terms.push((1, n)),
            }
        }
        let covered = xs.iter().all(|&x| {
            let Ok(raw) = cx.model.scope("count", &[x]) else {
                return false;
            };
            cx.model.values_of(raw[0]).is_some_and(|vals| {
                vals.width() <= by_value.len()
                    && (0..vals.width()).all(|p| {
                        by_value
                            .binary_search_by_key(&vals.value(p), |&(v, _)| v)
                            .is_ok()
                    })
            })
        });
        let rel = if covered { Relation::Eq } else { Relation::Le };
        let _ = cx.model.linear(&terms, rel, xs.len() as i64);
    }
    cx.count_index.clear();
}

/// Creates the value of one declaration.
fn declare(cx: &mut Ctx, d: &Decl, bounds: &HashMap<String, (i64, i64)>) -> R<Val> {
    if !d.is_var {
        let v = cx.val(d.value.as_ref().ok_or("parameter without value")?)?;
        return Ok(v);
    }
    if d.array_len.is_some() {
        return match &d.value {
            Some(e) => cx.val(e),
            None => {
                let n = d.array_len.unwrap_or(0);
                let mut items = Vec::with_capacity(n);
                for i in 0..n {
                    let x = new_var(cx, d, bounds)?;
                    cx.names
                        .set(x, format!("`{}[{}]` (line {})", d.name, i + 1, d.pos.line));
                    items.push(Val::Var(x));
                }
                Ok(Val::Array(items))
            }
        };
    }
    match &d.value {
        None => {
            let x = new_var(cx, d, bounds)?;
            cx.names
                .set(x, format!("`{}` (line {})", d.name, d.pos.line));
            Ok(Val::Var(x))
        }
        Some(e) => {
            let v = cx.val(e)?;
            // `var 1..9: x = y;`: x is y, restricted to x's declared domain.
            if let BaseType::IntIn(s) = &d.ty {
                let x = cx.var_of(&v)?;
                if let Err(f) = builtins::restrict(cx, x, s) {
                    return Err(cx.names.render(f));
                }
            }
            Ok(v)
        }
    }
}

fn new_var(cx: &mut Ctx, d: &Decl, bounds: &HashMap<String, (i64, i64)>) -> R<VarId> {
    let r = match &d.ty {
        BaseType::Bool => cx.model.new_bool(),
        BaseType::IntIn(IntSet::Range(a, b)) => cx.model.new_var(*a, *b),
        BaseType::IntIn(IntSet::List(v)) => cx.model.new_var_with_values(v),
        BaseType::Int => match bounds.get(&d.name) {
            Some(&(a, b)) => cx.model.new_var(a, b),
            None => {
                return Err(format!(
                    "variable `{}` has no finite bounds; csp-core needs bounded domains (at most {} values): \
                     give it a domain in the model",
                    d.name,
                    csp_core::MAX_DOMAIN_WIDTH
                ))
            }
        },
        BaseType::Float | BaseType::SetOfInt => return Err(SET_REFUSED.into()),
    };
    r.map_err(|e| match e {
        // Ranges past MAX_DOMAIN_WIDTH values become interval (bounds) domains; this is only reached past the
        // widest interval csp-core takes.
        csp_core::ModelError::DomainTooWide { width, max, .. } => format!(
            "variable `{}`: its domain has {width} values, more than csp-core takes ({max}): narrow its domain in \
             the model",
            d.name
        ),
        e => e.describe(&|_| format!("`{}`", d.name)),
    })
}

/// Reads one search annotation: each `int_search` / `bool_search` (also inside `seq_search`) becomes a phase.
fn search_ann(cx: &mut Ctx, a: &Expr, s: &mut SearchSpec) {
    let Expr::Call(name, args) = a else {
        return;
    };
    match name.as_str() {
        "seq_search" => {
            if let Some(Expr::Array(items)) = args.first() {
                for i in items {
                    search_ann(cx, i, s);
                }
            }
        }
        "int_search" | "bool_search" => {
            let atom = |k: usize| match args.get(k) {
                Some(Expr::Ident(n)) => n.as_str(),
                _ => "",
            };
            let (vs, ws) = (atom(1), atom(2));
            let var_order = match vs {
                "input_order" => VarOrder::Input,
                "first_fail" => VarOrder::Mrv,
                "dom_w_deg" => VarOrder::DomWdeg,
                "occurrence" | "most_constrained" => VarOrder::MrvDegree,
                "anti_first_fail" => VarOrder::AntiFirstFail,
                "smallest" => VarOrder::Smallest,
                "largest" => VarOrder::Largest,
                "max_regret" => VarOrder::MaxRegret,
                other => {
                    s.warnings.push(format!(
                        "variable selection `{other}` is not offered by csp-core; using input_order"
                    ));
                    VarOrder::Input
                }
            };
            let value_order = match ws {
                "indomain_min" | "indomain" => ValueOrder::Ascending,
                "indomain_median" | "indomain_middle" => ValueOrder::Median,
                "indomain_split" => ValueOrder::Split,
                "indomain_random" => ValueOrder::Random,
                "indomain_max" => ValueOrder::Descending,
                "indomain_reverse_split" => ValueOrder::ReverseSplit,
                other => {
                    s.warnings.push(format!(
                        "value selection `{other}` is not offered by csp-core; using indomain_min"
                    ));
                    ValueOrder::Ascending
                }
            };
            // MiniZinc writes a slice of an array as `array1d(5..8, [...])` inside annotations.
            let vars = match args.first() {
                Some(Expr::Call(f, a))
                    if f.starts_with("array") && f.ends_with('d') && !a.is_empty() =>
                {
                    cx.vars(&a[a.len() - 1])
                }
                Some(e) => cx.vars(e),
                None => Ok(Vec::new()),
            };
            let vars = match vars {
                Ok(v) => v,
                Err(msg) => {
                    s.warnings.push(format!("{name} ignored: {msg}"));
                    return;
                }
            };
            s.var_order.get_or_insert(var_order);
            s.value_order.get_or_insert(value_order);
            s.phases.push(PhaseSpec {
                vars,
                var_order,
                value_order,
            });
        }
        _ => {}
    }
}
