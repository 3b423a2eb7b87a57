//! `fzn-csp-core [-a] [-n N] [-i] [-s] [-t MS] [-f] [-p N] [-r SEED] model.fzn`: the FlatZinc executable that
//! MiniZinc's `--solver csp-core` runs (see `share/minizinc/solvers/csp-core.msc`).

use std::process::ExitCode;
use std::time::Duration;

use flatzinc::{run, Options};

const USAGE: &str =
    "usage: fzn-csp-core [-a] [-n N] [-i] [-s] [-t MS] [-f] [-p N] [-r SEED] model.fzn";

fn parse_args(args: &[String]) -> Result<(Options, String), String> {
    let mut o = Options {
        threads: 1,
        ..Options::default()
    };
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut num = |flag: &str| -> Result<u64, String> {
            it.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("{flag} expects a non-negative integer\n{USAGE}"))
        };
        match a.as_str() {
            "-a" | "--all-solutions" => o.all = true,
            "-i" | "--intermediate" => o.intermediate = true,
            "-s" | "--statistics" => o.statistics = true,
            "-f" | "--free-search" => o.free = true,
            "-n" | "--num-solutions" => o.num_solutions = Some(num(a)?),
            "-t" | "--time-limit" => o.time_limit = Some(Duration::from_millis(num(a)?)),
            "-p" | "--parallel" => o.threads = num(a)? as usize,
            "-r" | "--random-seed" => o.seed = num(a)?,
            "-h" | "--help" => return Err(USAGE.into()),
            s if s.starts_with('-') => return Err(format!("unknown flag `{s}`\n{USAGE}")),
            s => {
                if file.replace(s.to_string()).is_some() {
                    return Err(format!("more than one model file\n{USAGE}"));
                }
            }
        }
    }
    let file = file.ok_or_else(|| format!("no model file\n{USAGE}"))?;
    Ok((o, file))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (opts, file) = match parse_args(&args) {
        Ok(x) => x,
        Err(msg) => {
            eprintln!("fzn-csp-core: {msg}");
            return ExitCode::from(2);
        }
    };
    let src = match std::fs::read_to_string(&file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("fzn-csp-core: cannot read {file}: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout().lock();
    match run(&src, &opts, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fzn-csp-core: {file}: {e}");
            ExitCode::FAILURE
        }
    }
}
