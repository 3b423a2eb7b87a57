//! `puzzles`: solve every family of `puzzles::FAMILIES` from the command line (one subcommand each), and generate
//! instances (`puzzles generate <generator>`, the families' generators). The subcommands, their extra options and
//! the generators are all read from the family list, so this file names no family.
//!
//! Exit codes: 0 every instance solved, 1 some instance unsatisfiable / stopped by a limit / invalid (or a
//! colouring whose optimality was not proved), 2 usage or I/O error.

mod output;

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, ValueEnum};
use csp_core::{Limits, SearchConfig};
use puzzles::{
    apply_strategy, DynReport, Family, Input, Mode, Opt, Options, PuzzleError, FAMILIES,
};

use output::{JsonLines, Printer, Record, Text};

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Jsonl,
}

#[derive(Args)]
struct Common {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Count solutions (queens: all of them; other puzzles: up to --count-limit, 2 = uniqueness).
    #[arg(long)]
    count: bool,
    /// Stop counting at this many solutions (default: all for queens, 2 otherwise).
    #[arg(long)]
    count_limit: Option<u64>,
    /// Search strategy over the puzzle's default, comma-separated: a variable order (input, mrv, mrv-degree,
    /// dom-wdeg, anti-first-fail, smallest, largest, max-regret), a value order (ascending, median, lcv, random,
    /// descending, split, reverse-split), a propagation level (none, fc, singles), optionally random-ties, luby,
    /// geometric.
    #[arg(long)]
    strategy: Option<String>,
    /// Seed for random value order / tie-breaking / restarts.
    #[arg(long)]
    seed: Option<u64>,
    /// Node limit per search.
    #[arg(long)]
    node_limit: Option<u64>,
    /// Time limit per search, in seconds.
    #[arg(long)]
    time_limit: Option<f64>,
}

impl Common {
    fn config(&self, base: SearchConfig) -> Result<SearchConfig, String> {
        let mut cfg = match &self.strategy {
            Some(s) => apply_strategy(base, s)?,
            None => base,
        };
        if let Some(seed) = self.seed {
            cfg = cfg.seed(seed);
        }
        let mut limits = Limits::none();
        if let Some(n) = self.node_limit {
            limits = limits.with_nodes(n);
        }
        if let Some(t) = self.time_limit {
            let d = Duration::try_from_secs_f64(t)
                .map_err(|_| format!("--time-limit {t}: not a duration"))?;
            limits = limits.with_time(d);
        }
        Ok(cfg.limits(limits))
    }

    fn mode(&self, default_limit: u64) -> Mode {
        if self.count || self.count_limit.is_some() {
            Mode::Count(self.count_limit.unwrap_or(default_limit))
        } else {
            Mode::First
        }
    }

    fn printer(&self) -> Box<dyn Printer> {
        match self.format {
            Format::Text => Box::new(Text),
            Format::Jsonl => Box::new(JsonLines),
        }
    }
}

/// How the run went overall, folded into the exit code.
#[derive(Default)]
struct Tally {
    failed: bool,
    io_error: bool,
}

impl Tally {
    fn code(&self) -> ExitCode {
        ExitCode::from(if self.io_error {
            2
        } else if self.failed {
            1
        } else {
            0
        })
    }
}

fn record_from(
    source: String,
    ids: serde_json::Map<String, serde_json::Value>,
    r: DynReport,
) -> Record {
    let (status, error) = match &r.verified {
        Some(Err(e)) => (
            "error",
            Some(format!("BUG: the answer failed its check: {e}")),
        ),
        _ => (r.outcome.as_str(), None),
    };
    Record {
        source,
        status,
        answer_text: r.answer_display,
        answer_json: r.answer_json,
        answer_key: r.answer_key,
        count: r.count,
        error,
        nodes: r.stats.nodes,
        guesses: r.stats.guesses,
        micros: r.stats.time.as_micros(),
        ids,
        extra: r.extra,
    }
}

fn invalid_record(
    source: String,
    ids: serde_json::Map<String, serde_json::Value>,
    message: String,
) -> Record {
    Record {
        source,
        status: "invalid",
        answer_text: None,
        answer_json: None,
        answer_key: "solution",
        count: None,
        error: Some(message),
        nodes: 0,
        guesses: 0,
        micros: 0,
        ids,
        extra: serde_json::Map::new(),
    }
}

fn read_input(path: &PathBuf) -> io::Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        io::stdin().read_to_string(&mut s)?;
        Ok(s)
    } else {
        std::fs::read_to_string(path)
    }
}

/// The clap argument of one family or generator option.
fn clap_arg(o: &Opt) -> Arg {
    let mut a = Arg::new(o.name).help(o.help);
    if o.positional {
        a = a.required(true);
    } else {
        a = a.long(o.name);
    }
    if let Some(c) = o.short {
        a = a.short(c);
    }
    a = match o.value {
        Some(v) => a.value_name(v).action(ArgAction::Set),
        None => a.action(ArgAction::SetTrue),
    };
    if let Some(d) = o.default {
        a = a.default_value(d);
    }
    if let Some(other) = o.conflicts_with {
        a = a.conflicts_with(other);
    }
    a
}

/// The values of `opts` as given in `m`.
fn options_from(opts: &[Opt], m: &ArgMatches) -> Options {
    let mut out = Options::new();
    for o in opts {
        if o.value.is_some() {
            if let Some(v) = m.get_one::<String>(o.name) {
                out.set(o.name, v.clone());
            }
        } else if m.get_flag(o.name) {
            out.set(o.name, "");
        }
    }
    out
}

/// The whole command line, built from [`FAMILIES`].
fn command() -> clap::Command {
    let names: Vec<&str> = FAMILIES.iter().map(|f| f.name).collect();
    let mut cmd = clap::Command::new("puzzles")
        .version(env!("CARGO_PKG_VERSION"))
        .about(format!(
            "Puzzles on the csp-core engine: {}",
            names.join(", ")
        ))
        .subcommand_required(true)
        .arg_required_else_help(true);
    for f in FAMILIES {
        let operand = match f.input {
            Input::Files => Arg::new("files")
                .value_name("FILE")
                .help("Instance files (`-` for standard input).")
                .required(true)
                .num_args(1..)
                .value_parser(clap::value_parser!(PathBuf)),
            Input::Inline { value_name, .. } => Arg::new("instance")
                .value_name(value_name)
                .help("The instance, written on the command line.")
                .required(true),
        };
        let mut sub = clap::Command::new(f.name).about(f.about).arg(operand);
        for o in f.options {
            sub = sub.arg(clap_arg(o));
        }
        cmd = cmd.subcommand(Common::augment_args(sub));
    }
    let mut generate = clap::Command::new("generate")
        .about("Write a generated instance to standard output (deterministic for a seed).")
        .subcommand_required(true);
    for g in FAMILIES.iter().flat_map(|f| f.generators) {
        let mut sub = clap::Command::new(g.name).about(g.about);
        for o in g.options {
            sub = sub.arg(clap_arg(o));
        }
        generate = generate.subcommand(sub);
    }
    cmd.subcommand(generate)
}

/// One instance to run: where it came from (the record's `source` and identifying fields) and its text.
struct Source {
    name: String,
    ids: serde_json::Map<String, serde_json::Value>,
    text: io::Result<String>,
}

/// The instances a family's subcommand names: its files, or its one inline operand.
fn sources(family: &Family, m: &ArgMatches) -> Vec<Source> {
    match family.input {
        Input::Files => m
            .get_many::<PathBuf>("files")
            .into_iter()
            .flatten()
            .map(|path| {
                let name = path.display().to_string();
                let mut ids = serde_json::Map::new();
                ids.insert("file".into(), name.clone().into());
                Source {
                    text: read_input(path),
                    name,
                    ids,
                }
            })
            .collect(),
        Input::Inline { id, .. } => {
            let arg = m.get_one::<String>("instance").cloned().unwrap_or_default();
            let mut ids = serde_json::Map::new();
            let value = arg
                .parse::<u64>()
                .map_or_else(|_| serde_json::Value::from(arg.clone()), Into::into);
            ids.insert(id.into(), value);
            vec![Source {
                name: format!("{} {arg}", family.name),
                ids,
                text: Ok(arg),
            }]
        }
    }
}

/// Solves every instance of one family's subcommand, printing one record each.
fn run_family(family: &Family, m: &ArgMatches, tally: &mut Tally) -> io::Result<()> {
    let common = Common::from_arg_matches(m).map_err(|e| usage(e.to_string()))?;
    let options = options_from(family.options, m);
    let mode = common.mode(family.default_count_limit);
    (family.check)(&options, mode).map_err(usage)?;
    // An instance on the command line is part of the usage: an error there is a usage error (exit 2).
    let inline = matches!(family.input, Input::Inline { .. });
    let mut printer = common.printer();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for Source { name, ids, text } in sources(family, m) {
        let text = match text {
            Ok(t) => t,
            Err(e) => {
                eprintln!("puzzles: {name}: {e}");
                tally.io_error = true;
                continue;
            }
        };
        let record = match family.parse(&text) {
            Err(e) if inline => return Err(usage(e.message)),
            Err(e) => {
                let msg = format!("{name}:{}", located(&e));
                eprintln!("puzzles: {msg}");
                invalid_record(name, ids, msg)
            }
            Ok(mut p) => {
                p.configure(&options).map_err(usage)?;
                let cfg = common.config(p.strategy()).map_err(usage)?;
                match p.run(Some(&cfg), mode) {
                    Ok(r) => record_from(name, ids, r),
                    Err(e) if inline => return Err(usage(e.to_string())),
                    Err(e) => {
                        let msg = match &e {
                            PuzzleError::Parse(pe) => format!("{name}:{}", located(pe)),
                            other => format!("{name}: {other}"),
                        };
                        eprintln!("puzzles: {msg}");
                        invalid_record(name, ids, msg)
                    }
                }
            }
        };
        if record.status != "solved"
            || record.extra.get("optimal") == Some(&serde_json::Value::Bool(false))
        {
            tally.failed = true;
        }
        printer.print(&mut out, &record)?;
    }
    Ok(())
}

/// `LINE:COL: message` (or `LINE: message`, or just the message for whole-file errors).
fn located(e: &puzzles::ParseError) -> String {
    match (e.line, e.column) {
        (0, _) => format!(" {}", e.message),
        (l, None) => format!("{l}: {}", e.message),
        (l, Some(c)) => format!("{l}:{c}: {}", e.message),
    }
}

fn usage(m: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, m)
}

fn run_generate(m: &ArgMatches) -> io::Result<()> {
    let Some((name, sub)) = m.subcommand() else {
        return Err(usage("generate needs a generator".into()));
    };
    let Some(g) = FAMILIES
        .iter()
        .flat_map(|f| f.generators)
        .find(|g| g.name == name)
    else {
        return Err(usage(format!("no generator `{name}`")));
    };
    let text = (g.run)(&options_from(g.options, sub)).map_err(usage)?;
    io::stdout().lock().write_all(text.as_bytes())
}

fn main() -> ExitCode {
    let matches = command().get_matches();
    let mut tally = Tally::default();
    let result = match matches.subcommand() {
        Some(("generate", m)) => run_generate(m),
        Some((name, m)) => match FAMILIES.iter().find(|f| f.name == name) {
            Some(family) => run_family(family, m, &mut tally),
            None => Err(usage(format!("unknown subcommand `{name}`"))),
        },
        None => Err(usage("a subcommand is needed (see --help)".into())),
    };
    match result {
        Ok(()) => tally.code(),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => tally.code(),
        Err(e) => {
            eprintln!("puzzles: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_built_from_the_family_list_is_consistent() {
        super::command().debug_assert();
    }
}
