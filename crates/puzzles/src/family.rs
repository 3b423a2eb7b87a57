//! A family's descriptor: everything the `puzzles` binary and the bench runner need to know about one family,
//! so that [`FAMILIES`](crate::FAMILIES) is the only list either reads.
//!
//! A family module ends with one `pub const FAMILY: Family`, built from [`Family::of`] and the fields it needs
//! beyond the defaults: its `--kind` / subcommand name, a one-line description, extra command-line options (read
//! back by [`Puzzle::configure`]), generators (each a `puzzles generate <name>` subcommand), and the dataset
//! folders under `datasets/puzzles/` that the bench runner runs by default. Options are declared here as plain
//! data ([`Opt`]) so that the library does not depend on a command-line parser; the binary turns them into clap
//! arguments and hands the values back as [`Options`].

use std::collections::BTreeMap;
use std::str::FromStr;

use crate::error::ParseError;
use crate::puzzle::{AnyPuzzle, Mode, Puzzle};

/// How a family's subcommand takes its instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// One or more files (`-` for standard input), one instance per file; results name the file (`"file"`).
    Files,
    /// One instance written on the command line (`puzzles queens 8`): `value_name` in the help, and the JSON
    /// field `id` that records it (a number when it reads as one).
    Inline {
        /// The operand's name in the help (`N`).
        value_name: &'static str,
        /// The JSON key of the operand (`"n"`).
        id: &'static str,
    },
}

/// One command-line option of a family or a generator, as data.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// The long name (`--max-cage`), also the key in [`Options`]; for a positional, its key.
    pub name: &'static str,
    /// A one-letter alias (`-k`).
    pub short: Option<char>,
    /// `Some(VALUE_NAME)` for an option taking a value, `None` for a flag.
    pub value: Option<&'static str>,
    /// The value when the option is not given.
    pub default: Option<&'static str>,
    /// A required positional operand instead of an option.
    pub positional: bool,
    /// Another option of the same command this one cannot be combined with.
    pub conflicts_with: Option<&'static str>,
    /// The help line.
    pub help: &'static str,
}

impl Opt {
    /// A flag: `--name`.
    pub const fn flag(name: &'static str, help: &'static str) -> Opt {
        Opt {
            name,
            short: None,
            value: None,
            default: None,
            positional: false,
            conflicts_with: None,
            help,
        }
    }

    /// An option with a value: `--name VALUE`.
    pub const fn value(name: &'static str, value_name: &'static str, help: &'static str) -> Opt {
        Opt {
            value: Some(value_name),
            ..Opt::flag(name, help)
        }
    }

    /// A required positional operand.
    pub const fn positional(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
    ) -> Opt {
        Opt {
            positional: true,
            ..Opt::value(name, value_name, help)
        }
    }

    /// With a one-letter alias.
    pub const fn short(self, c: char) -> Opt {
        Opt {
            short: Some(c),
            ..self
        }
    }

    /// With a default value.
    pub const fn default(self, value: &'static str) -> Opt {
        Opt {
            default: Some(value),
            ..self
        }
    }

    /// Not together with `other`.
    pub const fn conflicts_with(self, other: &'static str) -> Opt {
        Opt {
            conflicts_with: Some(other),
            ..self
        }
    }
}

/// The values of the [`Opt`]s given on a command line: flags set, and option values as written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options(BTreeMap<String, String>);

impl Options {
    /// No option given.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a value (a set flag is recorded with an empty value).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.0.insert(name.to_owned(), value.into());
    }

    /// With a value (builder form of [`Options::set`]).
    pub fn with(mut self, name: &str, value: impl Into<String>) -> Self {
        self.set(name, value);
        self
    }

    /// Whether the flag (or option) was given.
    pub fn flag(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }

    /// The option's value parsed as `T`, `None` when not given; an error names the option and the value.
    pub fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.0.get(name) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| format!("--{name} {v}: not a valid value")),
        }
    }

    /// The option's value parsed as `T`; an error when it is missing.
    pub fn require<T: FromStr>(&self, name: &str) -> Result<T, String> {
        self.get(name)?
            .ok_or_else(|| format!("--{name} is required"))
    }
}

/// One `puzzles generate <name>` subcommand: it writes a generated instance (deterministic for its options).
#[derive(Clone, Copy, Debug)]
pub struct Generator {
    /// The subcommand name (`queen-graph`, `killer`).
    pub name: &'static str,
    /// One line of help.
    pub about: &'static str,
    /// Its options and operands.
    pub options: &'static [Opt],
    /// Builds the instance's text (with `#` comment lines saying how it was made); an error is a usage error.
    pub run: fn(&Options) -> Result<String, String>,
}

/// One family's line in [`FAMILIES`](crate::FAMILIES). Each family module defines its own:
///
/// ```ignore
/// pub const FAMILY: Family = Family {
///     datasets: &["killer"],
///     generators: &[Generator { name: "killer", .. }],
///     ..Family::of::<Killer>("killer", "Killer Sudoku.")
/// };
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Family {
    /// The `--kind` and subcommand name.
    pub name: &'static str,
    /// One line of help for the subcommand.
    pub about: &'static str,
    /// How the subcommand takes instances.
    pub input: Input,
    /// Extra options of the subcommand, handed to [`Puzzle::configure`] of each instance.
    pub options: &'static [Opt],
    /// Where `--count` stops without `--count-limit` (2 proves uniqueness).
    pub default_count_limit: u64,
    /// Generators, one `puzzles generate` subcommand each.
    pub generators: &'static [Generator],
    /// Folders under `datasets/puzzles/` holding this family's shipped instances, one file each: the bench
    /// runner's default datasets for `--kind NAME`.
    pub datasets: &'static [&'static str],
    /// Reads one instance from the family's text format.
    pub parse: fn(&str) -> Result<Box<dyn AnyPuzzle>, ParseError>,
    /// Checks the options against the mode before any file is read (a usage error otherwise).
    pub check: fn(&Options, Mode) -> Result<(), String>,
}

impl Family {
    /// The entry of the family implemented by `P`, with no options, generators or datasets.
    pub const fn of<P: Puzzle + Send + 'static>(name: &'static str, about: &'static str) -> Family {
        Family {
            name,
            about,
            input: Input::Files,
            options: &[],
            default_count_limit: 2,
            generators: &[],
            datasets: &[],
            parse: parse_any::<P>,
            check: P::check_options,
        }
    }

    /// Reads one instance of this family (see [`Family::parse`]).
    pub fn parse(&self, text: &str) -> Result<Box<dyn AnyPuzzle>, ParseError> {
        (self.parse)(text)
    }
}

fn parse_any<P: Puzzle + Send + 'static>(text: &str) -> Result<Box<dyn AnyPuzzle>, ParseError> {
    Ok(Box::new(P::parse(text)?))
}

/// The family named `name` in [`FAMILIES`](crate::FAMILIES); the error lists the names there are.
pub fn family(name: &str) -> Result<&'static Family, String> {
    crate::FAMILIES
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = crate::FAMILIES.iter().map(|f| f.name).collect();
            let (last, rest) = names.split_last().unwrap_or((&"", &[]));
            format!(
                "unknown puzzle kind `{name}` (expected {} or {last})",
                rest.join(", ")
            )
        })
}
