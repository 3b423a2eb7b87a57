//! The one output writer: solutions as `name = value;` lines and the FlatZinc spec's markers.

use std::io::{self, Write};

use csp_core::{Solution, VarId};

use crate::translate::Val;

/// How a value prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printed {
    /// `3`.
    Int,
    /// `true` / `false`.
    Bool,
}

/// One output item.
#[derive(Clone, Debug)]
pub enum OutputItem {
    /// `output_var`.
    Scalar {
        /// Name.
        name: String,
        /// Value.
        val: Val,
        /// Type.
        printed: Printed,
    },
    /// `output_array([lo..hi, ..])`.
    Array {
        /// Name.
        name: String,
        /// Index ranges.
        dims: Vec<(i64, i64)>,
        /// Values (a `Val::Array`).
        val: Val,
        /// Element type.
        printed: Printed,
    },
}

/// Everything the model prints per solution, in declaration order.
#[derive(Clone, Debug, Default)]
pub struct OutputSpec {
    /// Items.
    pub items: Vec<OutputItem>,
}

impl OutputSpec {
    /// The variables the output shows, in item order (constants left out).
    pub fn vars(&self) -> Vec<VarId> {
        fn walk(v: &Val, out: &mut Vec<VarId>) {
            match v {
                Val::Var(x) => out.push(*x),
                Val::Array(items) => items.iter().for_each(|i| walk(i, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                OutputItem::Scalar { val, .. } | OutputItem::Array { val, .. } => {
                    walk(val, &mut out)
                }
            }
        }
        out
    }
}

/// The spec's markers.
pub mod markers {
    /// After each solution.
    pub const SOLUTION: &str = "----------";
    /// The search finished: all solutions printed, or the last one optimal.
    pub const COMPLETE: &str = "==========";
    /// No solution exists.
    pub const UNSAT: &str = "=====UNSATISFIABLE=====";
    /// A limit stopped the search before any solution.
    pub const UNKNOWN: &str = "=====UNKNOWN=====";
}

fn scalar(v: &Val, s: &Solution, p: Printed) -> String {
    let n = match v {
        Val::Int(n) => *n,
        Val::Bool(b) => *b as i64,
        Val::Var(x) => s.value(*x),
        _ => 0,
    };
    match p {
        Printed::Int => n.to_string(),
        Printed::Bool => (n != 0).to_string(),
    }
}

/// Writes solutions and markers to `out`.
pub struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    /// A writer on `out`.
    pub fn new(out: W) -> Self {
        Self { out }
    }

    /// One solution followed by `----------`.
    pub fn solution(&mut self, spec: &OutputSpec, s: &Solution) -> io::Result<()> {
        let mut text = String::new();
        for item in &spec.items {
            match item {
                OutputItem::Scalar { name, val, printed } => {
                    text += &format!("{name} = {};\n", scalar(val, s, *printed));
                }
                OutputItem::Array {
                    name,
                    dims,
                    val,
                    printed,
                } => {
                    let items: Vec<String> = match val {
                        Val::Array(v) => v.iter().map(|x| scalar(x, s, *printed)).collect(),
                        _ => Vec::new(),
                    };
                    let ranges: Vec<String> =
                        dims.iter().map(|(a, b)| format!("{a}..{b}")).collect();
                    text += &format!(
                        "{name} = array{}d({}, [{}]);\n",
                        dims.len(),
                        ranges.join(", "),
                        items.join(", ")
                    );
                }
            }
        }
        text += markers::SOLUTION;
        text.push('\n');
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }

    /// A marker line.
    pub fn marker(&mut self, m: &str) -> io::Result<()> {
        writeln!(self.out, "{m}")?;
        self.out.flush()
    }

    /// Statistics as `%%%mzn-stat: name=value` lines and `%%%mzn-stat-end`.
    pub fn stats(&mut self, stats: &[(&str, String)]) -> io::Result<()> {
        for (k, v) in stats {
            writeln!(self.out, "%%%mzn-stat: {k}={v}")?;
        }
        writeln!(self.out, "%%%mzn-stat-end")?;
        self.out.flush()
    }
}
