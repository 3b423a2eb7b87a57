//! Errors of the puzzle families: where a file is wrong, why an instance is invalid, why an answer fails its check.
//!
//! Every error that comes from user data names its place: a [`ParseError`] carries the 1-based line (and column
//! when one token is at fault); the binary prefixes the file name, giving `FILE:LINE:COL: message`.

use std::fmt;

/// A malformed input file: where, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the fault; 0 when the fault is about the file as a whole (e.g. it is empty).
    pub line: usize,
    /// 1-based column (in characters) of the offending token, when one token is at fault.
    pub column: Option<usize>,
    /// What is wrong, in words a user can act on.
    pub message: String,
}

impl ParseError {
    /// An error on a whole line.
    pub fn at_line(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            column: None,
            message: message.into(),
        }
    }

    /// An error on one token of a line.
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            column: Some(column),
            message: message.into(),
        }
    }

    /// An error about the file as a whole (missing header, too few rows, ...).
    pub fn whole_file(message: impl Into<String>) -> Self {
        Self::at_line(0, message)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}", self.message),
            (line, None) => write!(f, "line {line}: {}", self.message),
            (line, Some(col)) => write!(f, "line {line}, column {col}: {}", self.message),
        }
    }
}

impl std::error::Error for ParseError {}

/// Why an instance cannot be solved as given, found before or instead of search.
#[derive(Debug)]
pub enum PuzzleError {
    /// The text could not be read as an instance of the family.
    Parse(ParseError),
    /// The text parsed but describes an impossible or contradictory instance (clashing givens, a cage sum no
    /// digits can reach, ...). The message names the rows/cells/cage at fault.
    Invalid(String),
    /// The engine refused the model (should not happen for a parsed instance; reported, never a panic).
    Model(csp_core::ModelError),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleError::Parse(e) => write!(f, "{e}"),
            PuzzleError::Invalid(m) => write!(f, "invalid instance: {m}"),
            PuzzleError::Model(e) => write!(f, "model error: {e}"),
        }
    }
}

impl std::error::Error for PuzzleError {}

impl From<ParseError> for PuzzleError {
    fn from(e: ParseError) -> Self {
        PuzzleError::Parse(e)
    }
}

impl From<csp_core::ModelError> for PuzzleError {
    fn from(e: csp_core::ModelError) -> Self {
        PuzzleError::Model(e)
    }
}

/// An answer that breaks a rule of its puzzle, found by a family's independent verifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError(pub String);

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "verification failed: {}", self.0)
    }
}

impl std::error::Error for VerifyError {}

/// Shorthand for a failed check with a formatted message.
macro_rules! verify_fail {
    ($($arg:tt)*) => {
        return Err($crate::error::VerifyError(format!($($arg)*)))
    };
}
pub(crate) use verify_fail;
