//! A small hand-written FlatZinc parser: a lexer over bytes and a recursive-descent reader of items.
//! Every error names the line and column of the offending token; nothing here panics on input.

use crate::ast::{BaseType, ConstraintItem, Decl, Expr, FznModel, Goal, IntSet, Pos, SolveItem};

/// A syntax error with its position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {msg}")]
pub struct ParseError {
    /// Where.
    pub pos: Pos,
    /// What.
    pub msg: String,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    /// Punctuation: `..` `::` `:` `;` `,` `(` `)` `[` `]` `{` `}` `=`.
    P(&'static str),
    Eof,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Int(i) => format!("`{i}`"),
        Tok::Float(f) => format!("`{f}`"),
        Tok::Str(s) => format!("\"{s}\""),
        Tok::P(p) => format!("`{p}`"),
        Tok::Eof => "end of input".into(),
    }
}

fn lex(src: &str) -> Result<Vec<(Tok, Pos)>, ParseError> {
    let b = src.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        let pos = Pos { line, col };
        let err = |msg: String| ParseError { pos, msg };
        if c == b'\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if c == b'%' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(src[start..i].to_string()), pos));
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let mut float = false;
            if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                float = true;
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                float = true;
                i += 1;
                if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                    i += 1;
                }
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let text = &src[start..i];
            if float {
                let f = text
                    .parse()
                    .map_err(|_| err(format!("malformed float `{text}`")))?;
                out.push((Tok::Float(f), pos));
            } else {
                let n = text
                    .parse()
                    .map_err(|_| err(format!("integer `{text}` does not fit in 64 bits")))?;
                out.push((Tok::Int(n), pos));
            }
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            if i >= b.len() || b[i] != b'"' {
                return Err(err("unterminated string".into()));
            }
            out.push((Tok::Str(src[start + 1..i].to_string()), pos));
            i += 1;
        } else {
            let two = b.get(i..i + 2);
            let p: &'static str = match (two, c) {
                (Some(b".."), _) => "..",
                (Some(b"::"), _) => "::",
                (_, b':') => ":",
                (_, b';') => ";",
                (_, b',') => ",",
                (_, b'(') => "(",
                (_, b')') => ")",
                (_, b'[') => "[",
                (_, b']') => "]",
                (_, b'{') => "{",
                (_, b'}') => "}",
                (_, b'=') => "=",
                _ => {
                    let ch = src[i..].chars().next().unwrap_or('?');
                    return Err(err(format!("unexpected character `{ch}`")));
                }
            };
            i += p.len();
            out.push((Tok::P(p), pos));
        }
        col += i - start;
    }
    out.push((Tok::Eof, Pos { line, col }));
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, Pos)>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at.min(self.toks.len() - 1)].0
    }

    fn pos(&self) -> Pos {
        self.toks[self.at.min(self.toks.len() - 1)].1
    }

    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.at < self.toks.len() - 1 {
            self.at += 1;
        }
        t
    }

    fn error<T>(&self, msg: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            pos: self.pos(),
            msg: msg.into(),
        })
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::P(q) if *q == p)
    }

    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == k)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.next();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, p: &str) -> Result<(), ParseError> {
        if self.eat(p) {
            Ok(())
        } else {
            self.error(format!("expected `{p}`, found {}", describe(self.peek())))
        }
    }

    fn expect_kw(&mut self, k: &str) -> Result<(), ParseError> {
        if self.is_kw(k) {
            self.next();
            Ok(())
        } else {
            self.error(format!("expected `{k}`, found {}", describe(self.peek())))
        }
    }

    fn ident(&mut self) -> Result<String, ParseError> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.next();
                Ok(s)
            }
            t => self.error(format!("expected a name, found {}", describe(&t))),
        }
    }

    fn int(&mut self) -> Result<i64, ParseError> {
        match self.peek().clone() {
            Tok::Int(n) => {
                self.next();
                Ok(n)
            }
            t => self.error(format!("expected an integer, found {}", describe(&t))),
        }
    }

    /// `a..b` or `{a, b}` after the first token was read as an integer `a` (for ranges) or at `{`.
    fn int_set(&mut self) -> Result<IntSet, ParseError> {
        if self.eat("{") {
            let mut v = Vec::new();
            if !self.eat("}") {
                loop {
                    v.push(self.int()?);
                    if self.eat("}") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            v.sort_unstable();
            v.dedup();
            return Ok(IntSet::List(v));
        }
        let a = self.int()?;
        self.expect("..")?;
        let b = self.int()?;
        Ok(IntSet::Range(a, b))
    }

    fn model(&mut self) -> Result<FznModel, ParseError> {
        let mut decls = Vec::new();
        let mut constraints = Vec::new();
        let mut solve = None;
        loop {
            let pos = self.pos();
            match self.peek().clone() {
                Tok::Eof => break,
                Tok::Ident(k) if k == "predicate" => {
                    while !self.is(";") {
                        if *self.peek() == Tok::Eof {
                            return self.error("unterminated predicate declaration");
                        }
                        self.next();
                    }
                    self.next();
                }
                Tok::Ident(k) if k == "constraint" => {
                    self.next();
                    let name = self.ident()?;
                    self.expect("(")?;
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        loop {
                            args.push(self.expr()?);
                            if self.eat(")") {
                                break;
                            }
                            self.expect(",")?;
                        }
                    }
                    let anns = self.anns()?;
                    self.expect(";")?;
                    constraints.push(ConstraintItem {
                        name,
                        args,
                        anns,
                        pos,
                    });
                }
                Tok::Ident(k) if k == "solve" => {
                    self.next();
                    if solve.is_some() {
                        return Err(ParseError {
                            pos,
                            msg: "a second solve item".into(),
                        });
                    }
                    let anns = self.anns()?;
                    let goal = match self.ident()?.as_str() {
                        "satisfy" => Goal::Satisfy,
                        "minimize" => Goal::Minimize(self.expr()?),
                        "maximize" => Goal::Maximize(self.expr()?),
                        other => {
                            return Err(ParseError {
                                pos,
                                msg: format!(
                                    "expected satisfy, minimize or maximize, found `{other}`"
                                ),
                            })
                        }
                    };
                    self.expect(";")?;
                    solve = Some(SolveItem { anns, goal, pos });
                }
                Tok::Ident(_) => decls.push(self.decl()?),
                t => return self.error(format!("expected an item, found {}", describe(&t))),
            }
        }
        let Some(solve) = solve else {
            return self.error("missing solve item");
        };
        Ok(FznModel {
            decls,
            constraints,
            solve,
        })
    }

    fn decl(&mut self) -> Result<Decl, ParseError> {
        let pos = self.pos();
        let mut array_len = None;
        if self.is_kw("array") {
            self.next();
            self.expect("[")?;
            let lo = self.int()?;
            self.expect("..")?;
            let hi = self.int()?;
            if lo != 1 || hi < 0 {
                return Err(ParseError {
                    pos,
                    msg: format!("array index set must be 1..n, found {lo}..{hi}"),
                });
            }
            self.expect("]")?;
            self.expect_kw("of")?;
            array_len = Some(hi as usize);
        }
        let is_var = if self.is_kw("var") {
            self.next();
            true
        } else {
            false
        };
        let ty = self.base_type()?;
        self.expect(":")?;
        let name = self.ident()?;
        let anns = self.anns()?;
        let value = if self.eat("=") {
            Some(self.expr()?)
        } else {
            None
        };
        self.expect(";")?;
        if !is_var && value.is_none() {
            return Err(ParseError {
                pos,
                msg: format!("parameter `{name}` has no value"),
            });
        }
        Ok(Decl {
            is_var,
            array_len,
            ty,
            name,
            anns,
            value,
            pos,
        })
    }

    fn base_type(&mut self) -> Result<BaseType, ParseError> {
        match self.peek().clone() {
            Tok::Ident(k) if k == "bool" => {
                self.next();
                Ok(BaseType::Bool)
            }
            Tok::Ident(k) if k == "int" => {
                self.next();
                Ok(BaseType::Int)
            }
            Tok::Ident(k) if k == "float" => {
                self.next();
                Ok(BaseType::Float)
            }
            Tok::Ident(k) if k == "set" => {
                self.next();
                self.expect_kw("of")?;
                match self.peek() {
                    Tok::Ident(k) if k == "int" => {
                        self.next();
                    }
                    _ => {
                        self.int_set()?;
                    }
                }
                Ok(BaseType::SetOfInt)
            }
            Tok::Float(_) => {
                self.next();
                self.expect("..")?;
                match self.next() {
                    Tok::Float(_) => Ok(BaseType::Float),
                    t => self.error(format!("expected a float bound, found {}", describe(&t))),
                }
            }
            Tok::Int(_) | Tok::P("{") => Ok(BaseType::IntIn(self.int_set()?)),
            t => self.error(format!("expected a type, found {}", describe(&t))),
        }
    }

    fn anns(&mut self) -> Result<Vec<Expr>, ParseError> {
        let mut v = Vec::new();
        while self.eat("::") {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let pos = self.pos();
        match self.next() {
            Tok::Int(a) => {
                if self.eat("..") {
                    let b = self.int()?;
                    Ok(Expr::Set(IntSet::Range(a, b)))
                } else {
                    Ok(Expr::Int(a))
                }
            }
            Tok::Float(f) => {
                if self.eat("..") {
                    match self.next() {
                        Tok::Float(_) => Ok(Expr::Float(f)),
                        t => self.error(format!("expected a float, found {}", describe(&t))),
                    }
                } else {
                    Ok(Expr::Float(f))
                }
            }
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::P("{") => {
                self.at -= 1;
                Ok(Expr::Set(self.int_set()?))
            }
            Tok::P("[") => {
                let mut v = Vec::new();
                if !self.eat("]") {
                    loop {
                        v.push(self.expr()?);
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                Ok(Expr::Array(v))
            }
            Tok::Ident(s) if s == "true" => Ok(Expr::Bool(true)),
            Tok::Ident(s) if s == "false" => Ok(Expr::Bool(false)),
            Tok::Ident(s) => {
                if self.eat("[") {
                    let i = self.int()?;
                    self.expect("]")?;
                    Ok(Expr::Access(s, i))
                } else if self.eat("(") {
                    let mut args = Vec::new();
                    if !self.eat(")") {
                        loop {
                            args.push(self.expr()?);
                            if self.eat(")") {
                                break;
                            }
                            self.expect(",")?;
                        }
                    }
                    Ok(Expr::Call(s, args))
                } else {
                    Ok(Expr::Ident(s))
                }
            }
            t => Err(ParseError {
                pos,
                msg: format!("expected an expression, found {}", describe(&t)),
            }),
        }
    }
}

/// Parses a whole FlatZinc text.
pub fn parse(src: &str) -> Result<FznModel, ParseError> {
    let toks = lex(src)?;
    Parser { toks, at: 0 }.model()
}
