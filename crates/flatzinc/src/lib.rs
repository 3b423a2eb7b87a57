//! flatzinc: csp-core as a FlatZinc solver, so that `minizinc --solver csp-core model.mzn` runs our engine.
//!
//! The data flows one way: FlatZinc text -> [`parser::parse`] (a typed AST, [`ast`], errors with line and column)
//! -> [`translate::translate`] (declarations to variables, bounds inferred where MiniZinc leaves them open, each
//! constraint through the one builtin table [`builtins::TABLE`]) -> a csp-core [`csp_core::Model`] -> search ->
//! [`output::Writer`], the one place that knows the spec's markers. Which globals reach the engine natively is
//! decided by the solver library `share/minizinc/csp-core/` (MiniZinc side), never guessed here.
//!
//! ```
//! use flatzinc::{run, Options};
//!
//! let fzn = "var 1..3: x :: output_var;\nvar 1..3: y :: output_var;\n\
//!            constraint int_lt(x, y);\nsolve maximize x;\n";
//! let mut out = Vec::new();
//! run(fzn, &Options::default(), &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "x = 2;\ny = 3;\n----------\n==========\n");
//! ```

pub mod ast;
pub mod bounds;
pub mod builtins;
pub mod fuzz_targets;
pub mod output;
pub mod parser;
pub mod translate;

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_core::{
    Limits, OptOutcome, Outcome, Propagation, SearchConfig, Solver, ValueOrder, VarOrder,
};

use output::{markers, Writer};

/// The FlatZinc standard flags.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-a`: all solutions (satisfaction) or every improving solution (optimisation).
    pub all: bool,
    /// `-n N`: stop after N solutions.
    pub num_solutions: Option<u64>,
    /// `-i`: print intermediate (improving) solutions when optimising.
    pub intermediate: bool,
    /// `-s`: statistics.
    pub statistics: bool,
    /// `-t MS`: time limit.
    pub time_limit: Option<Duration>,
    /// `-f`: free search (ignore the search annotations).
    pub free: bool,
    /// `-p N`: threads (csp-core's optimisation and enumeration are sequential; values above 1 are ignored).
    pub threads: usize,
    /// `-r SEED`: random seed.
    pub seed: u64,
}

/// Anything that stops a run: a syntax error, an unsupported or malformed model, an engine refusal, or I/O.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Syntax.
    #[error("syntax error at {0}")]
    Parse(#[from] parser::ParseError),
    /// Translation.
    #[error("error at {0}")]
    Translate(#[from] translate::TranslateError),
    /// The engine refused the model when it was built; the message names the FlatZinc variables.
    #[error("model error: {0}")]
    Model(String),
    /// Output failed.
    #[error("output: {0}")]
    Io(#[from] std::io::Error),
}

/// Parses, translates, solves and prints per the FlatZinc spec. Warnings go to stderr.
pub fn run(src: &str, opts: &Options, out: impl Write) -> Result<(), Error> {
    let start = Instant::now();
    let fzn = parser::parse(src)?;
    let t = translate::translate(&fzn)?;
    let mut cfg = SearchConfig::default()
        .propagation(Propagation::Singles)
        .seed(opts.seed)
        .var_order(VarOrder::DomWdeg)
        .value_order(ValueOrder::Ascending);
    if !opts.free {
        if let Some(v) = t.search.var_order {
            cfg = cfg.var_order(v);
        }
        if let Some(v) = t.search.value_order {
            cfg = cfg.value_order(v);
        }
        for p in &t.search.phases {
            cfg = cfg.phase(&p.vars, p.var_order, p.value_order);
        }
        for w in &t.search.warnings {
            eprintln!("fzn-csp-core: warning: {w}");
        }
    }
    // Several solutions of a satisfaction problem: enumerate the annotated and output variables, then complete
    // the rest (MiniZinc's introduced helpers) once, so no printed solution repeats (as Gecode's FlatZinc
    // brancher on introduced variables). One solution, or optimisation (each printed solution improves), needs
    // neither.
    let several = opts.all || opts.num_solutions.is_some_and(|n| n > 1);
    if t.objective.is_none() && several {
        let (vo, val) = (cfg.var_order, cfg.value_order);
        cfg = cfg
            .phase(&t.output.vars(), vo, val)
            .complete_rest_once(true);
    }
    if opts.threads > 1 {
        eprintln!(
            "fzn-csp-core: warning: -p {} ignored, csp-core searches on one thread here",
            opts.threads
        );
    }
    let mut limits = Limits::none();
    if let Some(tl) = opts.time_limit {
        limits = limits.with_time(tl.saturating_sub(start.elapsed()));
    }
    let cfg = cfg.limits(limits);
    let num_vars = t.model.num_vars();
    let num_cons = t.model.num_constraints();
    let problem = t
        .model
        .build()
        .map_err(|e| Error::Model(t.names.describe(&e)))?;
    let mut solver = Solver::new(&problem, cfg);
    let mut w = Writer::new(out);
    let spec = &t.output;
    let mut io_err = None;
    let mut stats = Vec::new();
    match t.objective {
        None => {
            let limit = match (opts.all, opts.num_solutions) {
                (_, Some(n)) => n,
                (true, None) => u64::MAX,
                (false, None) => 1,
            };
            let mut found = 0u64;
            let (outcome, st) = solver.for_each_solution(&[], |s| {
                found += 1;
                if let Err(e) = w.solution(spec, s) {
                    io_err = Some(e);
                    return ControlFlow::Break(());
                }
                if found >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            if let Some(e) = io_err {
                return Err(e.into());
            }
            match outcome {
                Outcome::Unsatisfiable => w.marker(markers::UNSAT)?,
                Outcome::Solved if found < limit && (opts.all || opts.num_solutions.is_some()) => {
                    w.marker(markers::COMPLETE)?
                }
                Outcome::Solved => {}
                Outcome::Limit(_) if found == 0 => w.marker(markers::UNKNOWN)?,
                Outcome::Limit(_) => {}
            }
            stats.push(("nodes", st.nodes.to_string()));
            stats.push(("failures", st.fails.to_string()));
            stats.push(("solutions", found.to_string()));
            stats.push(("peakDepth", st.max_depth.to_string()));
            stats.push(("propagations", st.propagations.to_string()));
            stats.push(("solveTime", format!("{:.6}", st.time.as_secs_f64())));
        }
        Some(obj) => {
            let print_each = opts.all || opts.intermediate;
            let limit = opts.num_solutions.unwrap_or(u64::MAX);
            let mut found = 0u64;
            let r = solver.optimize(&[], obj, |s, _| {
                found += 1;
                if print_each {
                    if let Err(e) = w.solution(spec, s) {
                        io_err = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                if found >= limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            let r = r.map_err(|e| Error::Model(t.names.describe(&e)))?;
            if let Some(e) = io_err {
                return Err(e.into());
            }
            if !print_each {
                if let Some(best) = &r.best {
                    w.solution(spec, best)?;
                }
            }
            match r.outcome {
                OptOutcome::Optimal => w.marker(markers::COMPLETE)?,
                OptOutcome::Feasible => {}
                OptOutcome::Unsatisfiable => w.marker(markers::UNSAT)?,
                OptOutcome::Unknown => w.marker(markers::UNKNOWN)?,
            }
            let st = r.stats;
            stats.push(("nodes", st.nodes.to_string()));
            stats.push(("failures", st.fails.to_string()));
            stats.push(("solutions", r.improvements.to_string()));
            stats.push(("peakDepth", st.max_depth.to_string()));
            stats.push(("propagations", st.propagations.to_string()));
            if let Some(o) = r.objective {
                stats.push(("objective", o.to_string()));
            }
            stats.push(("solveTime", format!("{:.6}", st.time.as_secs_f64())));
        }
    }
    if opts.statistics {
        stats.push(("variables", num_vars.to_string()));
        stats.push(("propagators", num_cons.to_string()));
        stats.push(("time", format!("{:.6}", start.elapsed().as_secs_f64())));
        w.stats(&stats)?;
    }
    Ok(())
}
