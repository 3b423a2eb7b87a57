//! Bounds for `var int` declarations that MiniZinc leaves unbounded (usually introduced variables defined by one
//! constraint, e.g. a sum). csp-core needs finite domains, so an interval is inferred from the constraint that
//! `defines_var` it, by interval arithmetic over the other arguments' bounds, repeated until nothing changes.
//! A variable left without bounds is reported by the translator.

use std::collections::HashMap;

use crate::ast::{BaseType, Expr, FznModel};

type Iv = (i128, i128);

struct Env<'a> {
    iv: HashMap<&'a str, Iv>,
    arrays: HashMap<&'a str, &'a [Expr]>,
}

impl<'a> Env<'a> {
    fn ivl(&self, e: &'a Expr) -> Option<Iv> {
        match e {
            Expr::Int(n) => Some((*n as i128, *n as i128)),
            Expr::Bool(b) => Some((*b as i128, *b as i128)),
            Expr::Ident(n) => self.iv.get(n.as_str()).copied(),
            Expr::Access(n, i) => {
                let items = self.arrays.get(n.as_str())?;
                self.ivl(items.get(usize::try_from(*i - 1).ok()?)?)
            }
            _ => None,
        }
    }

    fn elems(&self, e: &'a Expr) -> Option<&'a [Expr]> {
        match e {
            Expr::Array(v) => Some(v),
            Expr::Ident(n) => self.arrays.get(n.as_str()).copied(),
            _ => None,
        }
    }

    fn ivls(&self, e: &'a Expr) -> Option<Vec<Iv>> {
        self.elems(e)?.iter().map(|x| self.ivl(x)).collect()
    }
}

fn hull(xs: impl IntoIterator<Item = i128>) -> Option<Iv> {
    let mut it = xs.into_iter();
    let first = it.next()?;
    Some(it.fold((first, first), |(a, b), x| (a.min(x), b.max(x))))
}

fn is(e: &Expr, name: &str) -> bool {
    matches!(e, Expr::Ident(n) if n == name)
}

/// The interval of `y` from the constraint `name(args)` that defines it.
fn define(env: &Env<'_>, name: &str, args: &[Expr], y: &str) -> Option<Iv> {
    let a = |k: usize| args.get(k);
    let iv = |k: usize| env.ivl(a(k)?);
    match name {
        "int_lin_eq" => {
            let coefs = env.elems(a(0)?)?;
            let xs = env.elems(a(1)?)?;
            let c = iv(2)?.0;
            let j = xs.iter().position(|x| is(x, y))?;
            let aj = env.ivl(coefs.get(j)?)?.0;
            if aj == 0 {
                return None;
            }
            let (mut lo, mut hi) = (0i128, 0i128);
            for (k, x) in xs.iter().enumerate() {
                if k == j {
                    continue;
                }
                let ak = env.ivl(coefs.get(k)?)?.0;
                let (xl, xh) = env.ivl(x)?;
                lo += (ak * xl).min(ak * xh);
                hi += (ak * xl).max(ak * xh);
            }
            let (p, q) = ((c - hi) as f64 / aj as f64, (c - lo) as f64 / aj as f64);
            Some((p.min(q).floor() as i128, p.max(q).ceil() as i128))
        }
        "int_plus" | "int_minus" => {
            let (x0, x1, x2) = (iv(0), iv(1), iv(2));
            let plus = name == "int_plus";
            // int_plus: a + b = c; int_minus: a - b = c.
            if is(a(2)?, y) {
                let (p, q) = (x0?, x1?);
                Some(if plus {
                    (p.0 + q.0, p.1 + q.1)
                } else {
                    (p.0 - q.1, p.1 - q.0)
                })
            } else if is(a(0)?, y) {
                let (q, r) = (x1?, x2?);
                Some(if plus {
                    (r.0 - q.1, r.1 - q.0)
                } else {
                    (r.0 + q.0, r.1 + q.1)
                })
            } else {
                let (p, r) = (x0?, x2?);
                Some(if plus {
                    (r.0 - p.1, r.1 - p.0)
                } else {
                    (p.0 - r.1, p.1 - r.0)
                })
            }
        }
        "int_times" if is(a(2)?, y) => {
            let (p, q) = (iv(0)?, iv(1)?);
            hull([p.0 * q.0, p.0 * q.1, p.1 * q.0, p.1 * q.1])
        }
        "int_abs" if is(a(1)?, y) => {
            let p = iv(0)?;
            Some((
                if p.0 <= 0 && p.1 >= 0 {
                    0
                } else {
                    p.0.abs().min(p.1.abs())
                },
                p.0.abs().max(p.1.abs()),
            ))
        }
        "int_div" if is(a(2)?, y) => {
            let m = iv(0).map(|p| p.0.abs().max(p.1.abs()))?;
            Some((-m, m))
        }
        "int_mod" if is(a(2)?, y) => {
            let m = iv(1).map(|p| p.0.abs().max(p.1.abs()))? - 1;
            let n = iv(0).map(|p| p.0.abs().max(p.1.abs()))?;
            Some((-m.min(n), m.min(n)))
        }
        "int_max" | "int_min" if is(a(2)?, y) => {
            let (p, q) = (iv(0)?, iv(1)?);
            Some(if name == "int_max" {
                (p.0.max(q.0), p.1.max(q.1))
            } else {
                (p.0.min(q.0), p.1.min(q.1))
            })
        }
        "array_int_maximum" | "array_int_minimum" if is(a(0)?, y) => {
            let xs = env.ivls(a(1)?)?;
            let lo = xs.iter().map(|p| p.0);
            let hi = xs.iter().map(|p| p.1);
            Some(if name == "array_int_maximum" {
                (lo.max()?, hi.max()?)
            } else {
                (lo.min()?, hi.min()?)
            })
        }
        "array_int_element" | "array_var_int_element" if is(a(2)?, y) => {
            let xs = env.ivls(a(1)?)?;
            Some((xs.iter().map(|p| p.0).min()?, xs.iter().map(|p| p.1).max()?))
        }
        "bool2int" if is(a(1)?, y) => Some((0, 1)),
        "int_eq" => {
            if is(a(0)?, y) {
                iv(1)
            } else {
                iv(0)
            }
        }
        _ => None,
    }
}

/// Inferred bounds of the unbounded `var int` declarations (those it could find).
pub fn infer(fzn: &FznModel) -> HashMap<String, (i64, i64)> {
    let mut env = Env {
        iv: HashMap::new(),
        arrays: HashMap::new(),
    };
    let mut open = Vec::new();
    for d in &fzn.decls {
        if let Some(Expr::Array(items)) = &d.value {
            env.arrays.insert(&d.name, items);
            continue;
        }
        let known = match (&d.ty, &d.value) {
            (_, Some(Expr::Int(n))) => Some((*n as i128, *n as i128)),
            (BaseType::Bool, _) => Some((0, 1)),
            (BaseType::IntIn(s), _) => s.bounds().map(|(a, b)| (a as i128, b as i128)),
            (BaseType::Int, Some(e)) => env.ivl(e),
            _ => None,
        };
        match known {
            Some(b) => {
                env.iv.insert(&d.name, b);
            }
            None if d.is_var && d.ty == BaseType::Int && d.array_len.is_none() => {
                open.push(d.name.as_str())
            }
            None => {}
        }
    }
    let mut defs: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, c) in fzn.constraints.iter().enumerate() {
        for a in &c.anns {
            if let Expr::Call(n, args) = a {
                if n == "defines_var" {
                    if let Some(Expr::Ident(y)) = args.first() {
                        defs.entry(y.as_str()).or_default().push(k);
                    }
                }
            }
        }
    }
    for _ in 0..16 {
        let mut changed = false;
        for &y in &open {
            if env.iv.contains_key(y) {
                continue;
            }
            let found = defs.get(y).into_iter().flatten().find_map(|&k| {
                let c = &fzn.constraints[k];
                define(&env, &c.name, &c.args, y)
            });
            if let Some(b) = found {
                env.iv.insert(y, b);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    open.iter()
        .filter_map(|&y| {
            let (a, b) = *env.iv.get(y)?;
            Some((
                y.to_string(),
                (i64::try_from(a).ok()?, i64::try_from(b).ok()?),
            ))
        })
        .collect()
}
