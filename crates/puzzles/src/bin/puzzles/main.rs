//! `puzzles`: solve N-Queens, graph colouring, Latin squares, Killer Sudoku and KenKen from the command line,
//! and generate instances of each.
//!
//! Exit codes: 0 every instance solved, 1 some instance unsatisfiable / stopped by a limit / invalid (or a
//! colouring whose optimality was not proved), 2 usage or I/O error.

mod output;

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use csp_core::{Limits, Outcome, SearchConfig};
use puzzles::color::Coloring;
use puzzles::graph::{mycielski_graph, queen_graph};
use puzzles::kenken::KenKen;
use puzzles::killer::Killer;
use puzzles::latin::Latin;
use puzzles::queens::{board_picture, Queens};
use puzzles::{strategy, DynReport, Mode, Puzzle, PuzzleError};

use output::{JsonLines, Printer, Record, Text};

#[derive(Parser)]
#[command(
    name = "puzzles",
    version,
    about = "Puzzles on the csp-core engine: queens, color, latin, killer, kenken"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// N-Queens: first solution, or with --count all solutions (--parallel to count with rayon).
    Queens {
        /// Board size.
        n: usize,
        /// Count with the engine's parallel search (rayon, all cores).
        #[arg(long)]
        parallel: bool,
        /// Count using the left-right mirror symmetry (search half the first row, double; sequential).
        #[arg(long, conflicts_with = "parallel")]
        symmetry: bool,
        #[command(flatten)]
        common: Common,
    },
    /// Graph colouring of DIMACS .col files: a k-colouring with -k, else the chromatic number.
    Color {
        /// DIMACS .col files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Number of colours; without it, find the chromatic number by descending k.
        #[arg(short = 'k', long)]
        colors: Option<usize>,
        #[command(flatten)]
        common: Common,
    },
    /// Latin square completion (grids with holes).
    Latin {
        /// Grid files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Killer Sudoku.
    Killer {
        /// Instance files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// KenKen.
    Kenken {
        /// Instance files (`-` for standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        common: Common,
    },
    /// Write a generated instance to standard output (deterministic for a seed).
    Generate {
        #[command(subcommand)]
        what: Generate,
    },
}

#[derive(Subcommand)]
enum Generate {
    /// The queen graph queenN_N in DIMACS format.
    QueenGraph {
        /// Board side.
        n: usize,
    },
    /// The Mycielski graph myciel<K> in DIMACS format (chromatic number K + 1).
    Myciel {
        /// K, 1..=12.
        k: usize,
    },
    /// A quasigroup-with-holes instance (random Latin square by Jacobson-Matthews, random holes).
    Latin {
        /// Order.
        #[arg(long, default_value_t = 30)]
        order: usize,
        /// Share of cells left empty.
        #[arg(long, default_value_t = 0.42)]
        holes: f64,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep the completion unique: empty cells in random order, skipping any hole that would allow a second
        /// solution, up to the --holes share (slow for large orders; records the solution in a comment).
        #[arg(long)]
        unique: bool,
    },
    /// A uniquely solvable Killer Sudoku.
    Killer {
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Largest cage.
        #[arg(long, default_value_t = 5)]
        max_cage: usize,
    },
    /// A uniquely solvable KenKen.
    Kenken {
        /// Grid size.
        #[arg(long, default_value_t = 6)]
        size: usize,
        /// Seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Largest cage.
        #[arg(long, default_value_t = 4)]
        max_cage: usize,
    },
}

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
    /// dom-wdeg), a value order (ascending, median, lcv, random), a propagation level (none, fc, singles),
    /// optionally random-ties, luby, geometric.
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
            Some(s) => strategy::apply(base, s)?,
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

fn status(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Solved => "solved",
        Outcome::Unsatisfiable => "unsatisfiable",
        Outcome::Limit(_) => "limit",
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
        _ => (status(r.outcome), None),
    };
    Record {
        source,
        status,
        answer_text: r.answer_text,
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

/// Solves every file as a `P`, printing one record per file. `prepare` adjusts a parsed instance (colouring's -k).
fn run_files<P: Puzzle>(
    files: &[PathBuf],
    common: &Common,
    default_count_limit: u64,
    prepare: impl Fn(P) -> P,
    tally: &mut Tally,
) -> io::Result<()> {
    let mut printer = common.printer();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for path in files {
        let name = path.display().to_string();
        let mut ids = serde_json::Map::new();
        ids.insert("file".into(), name.clone().into());
        let text = match read_input(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("puzzles: {name}: {e}");
                tally.io_error = true;
                continue;
            }
        };
        let record = match P::parse(&text) {
            Err(e) => {
                let msg = format!("{name}:{}", located(&e));
                eprintln!("puzzles: {msg}");
                invalid_record(name, ids, msg)
            }
            Ok(p) => {
                let p = prepare(p);
                let cfg = common.config(p.default_config()).map_err(usage)?;
                match puzzles::puzzle::run_puzzle(&p, Some(&cfg), common.mode(default_count_limit))
                {
                    Ok(r) => record_from(name, ids, r),
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

fn run_queens(
    n: usize,
    parallel: bool,
    symmetry: bool,
    common: &Common,
    tally: &mut Tally,
) -> io::Result<()> {
    let q = Queens::new(n).map_err(usage)?;
    let cfg = common.config(q.default_config()).map_err(usage)?;
    let mode = common.mode(u64::MAX);
    let mut ids = serde_json::Map::new();
    ids.insert("n".into(), n.into());
    let source = format!("queens {n}");
    if symmetry && mode != Mode::Count(u64::MAX) {
        return Err(usage(
            "--symmetry needs --count without --count-limit (it counts every solution)".into(),
        ));
    }
    let report = match (parallel, mode) {
        (false, Mode::Count(_)) if symmetry => {
            let (count, outcome, stats) =
                q.count_mirrored(&cfg).map_err(|e| usage(e.to_string()))?;
            DynReport {
                outcome,
                count: Some(count),
                stats,
                verified: None,
                answer_text: None,
                answer_json: None,
                answer_key: q.answer_key(),
                extra: serde_json::Map::new(),
            }
        }
        (true, Mode::Count(limit)) => {
            let enc = q.encode().map_err(|e| usage(e.to_string()))?;
            let start = std::time::Instant::now();
            let c = csp_core::parallel::count(&enc.problem, &cfg, limit);
            let answer = c.first.as_ref().map(|s| q.decode(s));
            let mut stats = c.stats;
            stats.time = start.elapsed(); // wall time, not the sum over threads
            DynReport {
                outcome: c.outcome,
                count: Some(c.count),
                stats,
                verified: answer.as_ref().map(|a| q.verify(a)),
                answer_text: answer.as_ref().map(|a| q.answer_text(a)),
                answer_json: answer.as_ref().map(|a| q.answer_json(a)),
                answer_key: q.answer_key(),
                extra: serde_json::Map::new(),
            }
        }
        _ => puzzles::puzzle::run_puzzle(&q, Some(&cfg), mode).map_err(|e| usage(e.to_string()))?,
    };
    let mut record = record_from(source, ids, report);
    if let (Format::Text, Some(json)) = (common.format, &record.answer_json) {
        if n <= 40 {
            let cols: Vec<usize> = json
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_u64())
                        .map(|v| v as usize)
                        .collect()
                })
                .unwrap_or_default();
            record.answer_text = Some(format!(
                "{}\n{}",
                record.answer_text.unwrap_or_default(),
                board_picture(&cols)
            ));
        }
    }
    if record.status != "solved" {
        tally.failed = true;
    }
    common.printer().print(&mut io::stdout().lock(), &record)
}

fn run_generate(what: &Generate) -> io::Result<()> {
    let text = match *what {
        Generate::QueenGraph { n } => {
            if n == 0 || n > 64 {
                return Err(usage(format!("queen graph side must be 1..=64, got {n}")));
            }
            queen_graph(n, n).to_dimacs(&format!("queen{n}_{n}: queen graph of a {n}x{n} board"))
        }
        Generate::Myciel { k } => {
            if !(1..=12).contains(&k) {
                return Err(usage(format!("Mycielski index must be 1..=12, got {k}")));
            }
            mycielski_graph(k).to_dimacs(&format!(
                "myciel{k}: Mycielski graph, chromatic number {}",
                k + 1
            ))
        }
        Generate::Latin {
            order,
            holes,
            seed,
            unique,
        } => {
            if order == 0 || order > puzzles::latin::MAX_ORDER {
                return Err(usage(format!(
                    "order must be 1..={}",
                    puzzles::latin::MAX_ORDER
                )));
            }
            if unique {
                let max_holes = (holes.clamp(0.0, 1.0) * (order * order) as f64).round() as usize;
                let (inst, solution) = puzzles::latin::generate_unique(
                    order,
                    max_holes,
                    seed,
                    &SearchConfig::default(),
                )
                .map_err(|e| usage(e.to_string()))?;
                format!(
                    "# Latin square with a unique completion: order {order}, {:.0}% holes, seed {seed} \
                     (puzzles generate latin --unique)\n# solution {}\n{}",
                    inst.hole_fraction() * 100.0,
                    puzzles::text::grid_one_line(order, &solution),
                    inst.to_text()
                )
            } else {
                let inst = puzzles::latin::generate(order, holes, seed);
                format!(
                    "# quasigroup with holes: order {order}, {:.0}% holes, seed {seed} (puzzles generate latin)\n{}",
                    inst.hole_fraction() * 100.0,
                    inst.to_text()
                )
            }
        }
        Generate::Killer { seed, max_cage } => {
            let (k, sol) = puzzles::killer::generate_unique(seed, max_cage)
                .map_err(|e| usage(e.to_string()))?;
            let sol: String = sol.iter().map(|d| (b'0' + d) as char).collect();
            format!(
                "# Killer Sudoku, unique solution, seed {seed}, cages of at most {max_cage} cells\n# solution {sol}\n{}",
                k.to_text()
            )
        }
        Generate::Kenken {
            size,
            seed,
            max_cage,
        } => {
            if size == 0 || size > 9 {
                return Err(usage("generated KenKen size must be 1..=9".into()));
            }
            let (k, sol) = puzzles::kenken::generate_unique(size, seed, max_cage)
                .map_err(|e| usage(e.to_string()))?;
            format!(
                "# KenKen {size}x{size}, unique solution, seed {seed}, cages of at most {max_cage} cells\n# solution {}\n{}",
                puzzles::text::grid_one_line(size, &sol),
                k.to_text()
            )
        }
    };
    io::stdout().lock().write_all(text.as_bytes())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut tally = Tally::default();
    let result = match &cli.command {
        Command::Queens {
            n,
            parallel,
            symmetry,
            common,
        } => run_queens(*n, *parallel, *symmetry, common, &mut tally),
        Command::Color { common, colors: None, .. } if common.count || common.count_limit.is_some() => Err(usage(
            "--count counts k-colourings and needs -k K (without -k the chromatic number is searched)".into(),
        )),
        Command::Color {
            files,
            colors,
            common,
        } => run_files::<Coloring>(
            files,
            common,
            2,
            |mut c| {
                c.k = *colors;
                c
            },
            &mut tally,
        ),
        Command::Latin { files, common } => run_files::<Latin>(files, common, 2, |p| p, &mut tally),
        Command::Killer { files, common } => {
            run_files::<Killer>(files, common, 2, |p| p, &mut tally)
        }
        Command::Kenken { files, common } => {
            run_files::<KenKen>(files, common, 2, |p| p, &mut tally)
        }
        Command::Generate { what } => run_generate(what),
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
