//! The typed FlatZinc AST: what the parser produces and the translator consumes.

/// A position in the source, 1-based.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.col)
    }
}

/// A constant set of integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntSet {
    /// `lo..hi` (empty when `hi < lo`).
    Range(i64, i64),
    /// `{a, b, ..}`, sorted and distinct.
    List(Vec<i64>),
}

impl IntSet {
    /// Smallest and largest member, `None` when empty.
    pub fn bounds(&self) -> Option<(i64, i64)> {
        match self {
            IntSet::Range(a, b) => (a <= b).then_some((*a, *b)),
            IntSet::List(v) => Some((*v.first()?, *v.last()?)),
        }
    }

    /// Whether `x` is a member.
    pub fn contains(&self, x: i64) -> bool {
        match self {
            IntSet::Range(a, b) => *a <= x && x <= *b,
            IntSet::List(v) => v.binary_search(&x).is_ok(),
        }
    }
}

/// An expression: a literal, an identifier, an array access, an array, or an annotation call.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal (only ever refused).
    Float(f64),
    /// A set literal `a..b` or `{a, b, ..}`.
    Set(IntSet),
    /// A name.
    Ident(String),
    /// `name[i]`.
    Access(String, i64),
    /// `[e, ..]`.
    Array(Vec<Expr>),
    /// A string literal (annotations only).
    Str(String),
    /// `name(args)` (annotations only).
    Call(String, Vec<Expr>),
}

/// The base type of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum BaseType {
    /// `bool`.
    Bool,
    /// `int` without bounds.
    Int,
    /// `int` restricted to a set (`1..9`, `{1, 3}`).
    IntIn(IntSet),
    /// `float` (any form).
    Float,
    /// `set of int` (any form).
    SetOfInt,
}

/// A declaration item (parameter or variable, scalar or array).
#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    /// `var` or parameter.
    pub is_var: bool,
    /// `Some(n)` for `array [1..n] of ..`.
    pub array_len: Option<usize>,
    /// Element type.
    pub ty: BaseType,
    /// Name.
    pub name: String,
    /// Annotations.
    pub anns: Vec<Expr>,
    /// Right-hand side.
    pub value: Option<Expr>,
    /// Where the item starts.
    pub pos: Pos,
}

/// A `constraint` item.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstraintItem {
    /// Builtin name.
    pub name: String,
    /// Arguments.
    pub args: Vec<Expr>,
    /// Annotations.
    pub anns: Vec<Expr>,
    /// Where the item starts.
    pub pos: Pos,
}

/// The goal of the `solve` item.
#[derive(Clone, Debug, PartialEq)]
pub enum Goal {
    /// `satisfy`.
    Satisfy,
    /// `minimize e`.
    Minimize(Expr),
    /// `maximize e`.
    Maximize(Expr),
}

/// The `solve` item.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveItem {
    /// Search annotations.
    pub anns: Vec<Expr>,
    /// Goal.
    pub goal: Goal,
    /// Where the item starts.
    pub pos: Pos,
}

/// A whole FlatZinc model.
#[derive(Clone, Debug, PartialEq)]
pub struct FznModel {
    /// Declarations in order.
    pub decls: Vec<Decl>,
    /// Constraints in order.
    pub constraints: Vec<ConstraintItem>,
    /// The solve item.
    pub solve: SolveItem,
}
