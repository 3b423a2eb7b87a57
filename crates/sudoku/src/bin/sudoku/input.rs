//! Opening inputs: files by name, stdin for `-`, and the board-size option shared by subcommands.

use std::fs::File;
use std::io::{self, BufRead, BufReader};

use crate::board::box_size_for_side;

/// An input source ready to read, with the name messages use.
pub(crate) struct Input {
    /// `<stdin>` or the path as given.
    pub name: String,
    /// The buffered stream.
    pub reader: Box<dyn BufRead + Send>,
}

/// Opens `path` (`-` = stdin).
pub(crate) fn open(path: &str) -> io::Result<Input> {
    if path == "-" {
        return Ok(Input {
            name: "<stdin>".to_string(),
            reader: Box::new(BufReader::new(io::stdin())),
        });
    }
    let file = File::open(path)?;
    // Opening a directory succeeds on Unix and fails only at the first read, with a vaguer message.
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory, not a file of puzzles",
        ));
    }
    Ok(Input {
        name: path.to_string(),
        reader: Box::new(BufReader::with_capacity(1 << 16, file)),
    })
}

/// Parses `--size`: the board side (4, 9, 16, 25, 36) into a box size.
pub(crate) fn parse_size(s: &str) -> Result<usize, String> {
    let side: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number"))?;
    box_size_for_side(side)
        .ok_or_else(|| format!("board side {side} is not one of 4, 9, 16, 25, 36"))
}

/// Most worker threads `-j` accepts: far more than any machine's cores, few enough that a typo such as
/// `-j 100000` is an error rather than a process that dies starting threads.
pub(crate) const MAX_THREADS: usize = 1024;

/// Parses `-j`: 0 (all cores) up to [`MAX_THREADS`].
pub(crate) fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of threads"))?;
    if n > MAX_THREADS {
        return Err(format!("at most {MAX_THREADS} threads (0 = all cores)"));
    }
    Ok(n)
}

/// True when `e` is a closed pipe on stdout (`sudoku solve big.txt | head`): the reader has all it wants, so the
/// run stops quietly, and the exit code covers the results written (as ripgrep does, no error for this).
pub(crate) fn is_broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}
