//! `read`: the CLI's input formats (lines, CSV with or without header, pasted grids), streamed in chunks.

use std::fs::File;
use std::io::BufReader;

use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use sudoku::board::box_size_for_side;
use sudoku::parse::{Reader, ReaderOptions};

use crate::batch::array2;

/// Registers this module's classes.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PuzzleReader>()?;
    Ok(())
}

/// One chunk: puzzles, expected solutions (zero rows where the input had none), whether each row had one, the
/// 1-based line of each puzzle, and `(line, message)` for every record that is not a valid puzzle.
type Chunk<'py> = (
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<u64>>,
    Vec<(usize, String)>,
);

/// The vectors of one chunk, filled record by record.
#[derive(Default)]
struct ChunkParts {
    puzzles: Vec<u8>,
    solutions: Vec<u8>,
    has_solution: Vec<bool>,
    lines: Vec<u64>,
    errors: Vec<(usize, String)>,
}

/// A file of puzzles read chunk by chunk with the `sudoku` crate's streaming reader.
///
/// All puzzles of one stream have one size: `size` when given, else the size of the first valid puzzle; a
/// puzzle of another size is reported as an error record.
#[pyclass(module = "csp_sudoku._native")]
pub(crate) struct PuzzleReader {
    reader: Reader<BufReader<File>>,
    /// The stream's box size, once known.
    box_size: Option<usize>,
}

#[pymethods]
impl PuzzleReader {
    /// Opens `path`; `size` (a side: 4, 9, 16, 25, 36) fixes the board size instead of inferring it.
    #[new]
    #[pyo3(signature = (path, size=None))]
    fn new(path: std::path::PathBuf, size: Option<usize>) -> PyResult<Self> {
        let box_size = match size {
            None => None,
            Some(side) => Some(box_size_for_side(side).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "size {side} is no Sudoku side (4, 9, 16, 25 or 36)"
                ))
            })?),
        };
        let file = File::open(&path)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))?;
        Ok(PuzzleReader {
            reader: Reader::with_options(BufReader::new(file), ReaderOptions { box_size }),
            box_size,
        })
    }

    /// The next chunk of at most `records` records (valid puzzles and errors together), or `None` at the end.
    fn next_chunk<'py>(&mut self, py: Python<'py>, records: usize) -> PyResult<Option<Chunk<'py>>> {
        let records = records.max(1);
        let PuzzleReader { reader, box_size } = self;
        // Each record goes straight into the chunk's vectors, without the GIL and without a list of records.
        let parts = py.detach(|| -> Result<Option<ChunkParts>, String> {
            let mut parts = ChunkParts::default();
            let mut seen = 0usize;
            for record in reader.by_ref().take(records) {
                seen += 1;
                match record.item {
                    Ok(p) => {
                        let b = *box_size.get_or_insert(p.board.box_size());
                        if p.board.box_size() != b {
                            parts.errors.push((
                                record.line,
                                format!(
                                    "line {}: a {n}x{n} board in a stream of {m}x{m} boards",
                                    record.line,
                                    n = p.board.side(),
                                    m = b * b
                                ),
                            ));
                            continue;
                        }
                        parts.puzzles.extend_from_slice(p.board.cells());
                        match p.solution.filter(|s| s.box_size() == b) {
                            Some(s) => {
                                parts.solutions.extend_from_slice(s.cells());
                                parts.has_solution.push(true);
                            }
                            None => {
                                parts.solutions.resize(parts.puzzles.len(), 0);
                                parts.has_solution.push(false);
                            }
                        }
                        parts.lines.push(record.line as u64);
                    }
                    Err(e) if e.is_io() => return Err(e.to_string()),
                    Err(e) => parts.errors.push((record.line, e.to_string())),
                }
            }
            Ok((seen > 0).then_some(parts))
        });
        let Some(parts) = parts.map_err(PyOSError::new_err)? else {
            return Ok(None);
        };
        let width = self.box_size.unwrap_or(3).pow(4);
        let n = parts.lines.len();
        Ok(Some((
            array2(py, parts.puzzles, n, width)?,
            array2(py, parts.solutions, n, width)?,
            parts.has_solution.into_pyarray(py),
            parts.lines.into_pyarray(py),
            parts.errors,
        )))
    }
}
