//! The `puzzle,solution` CSV of the Kaggle sets (and any line that carries a solution after its puzzle).
//!
//! A header line (`quizzes,solutions`, `puzzle,solution`, ...) is recognised on the first non-blank line only:
//! it contains a comma and its first field is a word, not a grid. After a one-line puzzle, the first later field
//! (fields split at whitespace, `,` and `:`, up to a `#` comment) with exactly as many characters as the puzzle
//! has cells is its expected solution; other fields are comments or ratings and are ignored.

use super::line::{is_field_separator, parse_cells};
use super::ParseError;
use crate::board::Board;

/// True when `content` (a line without leading whitespace) is a CSV header.
pub(super) fn is_header(content: &str) -> bool {
    let Some((first, _)) = content.split_once(',') else {
        return false;
    };
    let first = first.trim();
    !first.is_empty()
        && first
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '_' || c == ' ')
}

/// Finds and parses the solution field in `rest` (the line after the puzzle token, starting at `column`).
pub(super) fn solution_field(
    rest: &str,
    column: usize,
    box_size: usize,
    line: usize,
) -> Result<Option<Board>, ParseError> {
    let cells = box_size.pow(4);
    let mut field_start: Option<(usize, usize)> = None; // (byte offset, column)
    let mut field_chars = 0;
    // A sentinel separator at the end closes the last field.
    let chars = rest
        .char_indices()
        .chain(std::iter::once((rest.len(), ' ')));
    for (col, (i, c)) in (column..).zip(chars) {
        if is_field_separator(c) {
            if let Some((start, start_col)) = field_start.take() {
                if field_chars == cells {
                    let text = &rest[start..i];
                    let chars = text.chars().enumerate().map(|(k, ch)| (start_col + k, ch));
                    return parse_cells(chars, box_size, line, true).map(Some);
                }
            }
            if c == '#' {
                break;
            }
        } else {
            if field_start.is_none() {
                field_start = Some((i, col));
                field_chars = 0;
            }
            field_chars += 1;
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn header_is_a_comma_separated_word_line() {
        assert!(is_header("quizzes,solutions"));
        assert!(is_header("puzzle,solution"));
        assert!(!is_header("1234,4321"));
        assert!(!is_header("quizzes"));
    }

    #[test]
    fn solution_is_the_first_field_of_the_puzzle_length() {
        let s = solution_field(",rating 2.5,1234341221434321 # c", 17, 2, 3)
            .unwrap()
            .unwrap();
        assert_eq!(s.to_line(), "1234341221434321");
        assert_eq!(
            solution_field(" 2.5 # 1234341221434321", 17, 2, 3).unwrap(),
            None
        );
    }

    #[test]
    fn bad_character_in_the_solution_is_located() {
        let err = solution_field(",123434122143432x", 17, 2, 3).unwrap_err();
        assert_eq!(err.column, Some(33));
    }
}
