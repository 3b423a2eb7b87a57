//! The one-line format: a whole grid as one run of symbols, e.g. the standard 81-character line, optionally
//! followed by fields (a comment, a rating, a solution) after whitespace, `#`, `:` or `,`.
//!
//! Everything here walks `char_indices`, so a multibyte character is one column and no slice can split it.

use super::{ParseError, ParseErrorKind};
use crate::board::{value_of_symbol, values_of_ascii, Board, Cells};

/// True for the characters that end the grid token of a one-line puzzle.
pub(super) fn is_field_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '#' | ':' | ',')
}

/// The first run of non-separator characters of a line, with its position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// 1-based column of its first character.
    pub column: usize,
    /// Length in characters.
    pub chars: usize,
    /// The rest of the line after the token.
    pub rest: &'a str,
    /// 1-based column of the first character of `rest`.
    pub rest_column: usize,
}

/// Splits the grid token off a line (leading whitespace skipped).
pub(super) fn first_token(line: &str) -> Token<'_> {
    if line.is_ascii() {
        first_token_ascii(line)
    } else {
        first_token_chars(line)
    }
}

/// [`first_token`] for any line, character by character.
fn first_token_chars(line: &str) -> Token<'_> {
    let mut column = 1;
    let mut start = line.len();
    for (i, c) in line.char_indices() {
        if !c.is_whitespace() {
            start = i;
            break;
        }
        column += 1;
    }
    let body = &line[start..];
    let mut chars = 0;
    let mut end = body.len();
    for (i, c) in body.char_indices() {
        if is_field_separator(c) {
            end = i;
            break;
        }
        chars += 1;
    }
    Token {
        text: &body[..end],
        column,
        chars,
        rest: &body[end..],
        rest_column: column + chars,
    }
}

/// `char::is_whitespace` on ASCII: space and `\t \n \x0B \x0C \r` (`u8::is_ascii_whitespace` omits `\x0B`).
const fn is_space(b: u8) -> bool {
    b == b' ' || (b >= b'\t' && b <= b'\r')
}

/// `ENDS_TOKEN[b]`: byte `b` is a space (see [`is_space`]) or one of `# : ,`, i.e. [`is_field_separator`] on
/// ASCII. One lookup per byte of the token instead of a chain of compares (callgrind, `sudoku solve -j 1` on
/// 100,000 kaggle lines: `first_token` 902 -> 661 instructions per puzzle).
static ENDS_TOKEN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = is_space(b as u8) || matches!(b as u8, b'#' | b':' | b',');
        b += 1;
    }
    t
};

/// True for a byte that ends the grid token: [`is_field_separator`] on ASCII (and false for every byte above 127).
pub(super) fn ends_token(b: u8) -> bool {
    ENDS_TOKEN[usize::from(b)]
}

/// [`first_token`] for an ASCII line, where bytes are characters: the common case, scanned bytewise.
fn first_token_ascii(line: &str) -> Token<'_> {
    let bytes = line.as_bytes();
    let start = bytes
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(bytes.len());
    let len = bytes[start..]
        .iter()
        .position(|&b| ENDS_TOKEN[usize::from(b)])
        .unwrap_or(bytes.len() - start);
    // Every index is a character boundary of an ASCII string.
    Token {
        text: &line[start..start + len],
        column: start + 1,
        chars: len,
        rest: &line[start + len..],
        rest_column: start + len + 1,
    }
}

/// Parses `chars` (any iterator of `(column, char)`) as the cells of a board of `box_size`, row-major.
///
/// The caller has checked the count; a surplus or shortfall is still reported rather than trusted.
pub(super) fn parse_cells(
    cells: impl Iterator<Item = (usize, char)>,
    box_size: usize,
    line: usize,
    in_solution: bool,
) -> Result<Board, ParseError> {
    let side = box_size * box_size;
    let mut values = Vec::with_capacity(side * side);
    for (column, ch) in cells {
        let cell = values.len();
        match value_of_symbol(ch, side) {
            Some(v) => values.push(v),
            None => {
                return Err(ParseError {
                    line,
                    column: Some(column),
                    kind: ParseErrorKind::BadChar {
                        ch,
                        cell,
                        side,
                        in_solution,
                    },
                })
            }
        }
    }
    let found = values.len();
    Board::from_cells(box_size, values).map_err(|_| ParseError {
        line,
        column: None,
        kind: ParseErrorKind::WrongLength {
            found,
            expected: Some(side * side),
        },
    })
}

/// [`parse_cells`] for the common case, a token of ASCII symbols with the board's cell count: bytes in, no
/// allocation up to 9x9 (the board keeps its cells inline), no per-cell branch. `None` when the token is anything
/// else or holds a byte that is no symbol of the board; the caller then runs [`parse_cells`], which reports the
/// error with its column. Measured with callgrind on `sudoku solve -j 1` over kaggle lines: 2,650 instructions per
/// puzzle in `parse_cells` -> 2,150 by table (750 converting the bytes, the rest the allocation and
/// `Board::from_cells`) -> about 100 with the arithmetic conversion of [`values_of_ascii`] and no allocation.
pub(super) fn parse_ascii_cells(text: &str, box_size: usize) -> Option<Board> {
    let side = box_size * box_size;
    if text.len() != side * side || !text.is_ascii() {
        return None;
    }
    let mut values = Cells::from_elem(0, side * side);
    if !values_of_ascii(text.as_bytes(), side, &mut values) {
        return None;
    }
    Some(Board::from_checked(box_size, values))
}

/// The `(column, char)` pairs of a token.
pub(super) fn token_cells<'a>(token: &Token<'a>) -> impl Iterator<Item = (usize, char)> + 'a {
    let column = token.column;
    token
        .text
        .chars()
        .enumerate()
        .map(move |(i, c)| (column + i, c))
}

/// True when a 16-character token cannot be a 4x4 puzzle but can be a row of a 16x16 grid: a symbol above 4.
pub(super) fn looks_like_16_row(token: &Token<'_>) -> bool {
    let mut above_four = false;
    for c in token.text.chars() {
        match value_of_symbol(c, 16) {
            None => return false,
            Some(v) if v > 4 => above_four = true,
            Some(_) => {}
        }
    }
    above_four
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn token_stops_at_every_separator_and_counts_characters_not_bytes() {
        let t = first_token("  é1.2#x");
        assert_eq!(t.text, "é1.2");
        assert_eq!(t.column, 3);
        assert_eq!(t.chars, 4);
        assert_eq!(t.rest, "#x");
        assert_eq!(t.rest_column, 7);
        assert_eq!(first_token("12,34").text, "12");
        assert_eq!(first_token("12:34").text, "12");
        assert_eq!(first_token("").chars, 0);
    }

    #[test]
    fn ascii_and_general_token_scans_agree() {
        for line in [
            "  12\x0B34",
            "\t1.2#x",
            "",
            "   ",
            "12:34",
            "abc,def ghi",
            "\x0C9 8",
        ] {
            let (a, b) = (first_token_ascii(line), first_token_chars(line));
            assert_eq!(
                (a.text, a.column, a.chars, a.rest_column),
                (b.text, b.column, b.chars, b.rest_column),
                "{line:?}"
            );
        }
    }

    #[test]
    fn bad_character_reports_its_column_and_cell() {
        let line = "1234341221434x21";
        let t = first_token(line);
        let err = parse_cells(token_cells(&t), 2, 7, false).unwrap_err();
        assert_eq!(err.line, 7);
        assert_eq!(err.column, Some(14));
        assert!(matches!(
            err.kind,
            ParseErrorKind::BadChar {
                ch: 'x',
                cell: 13,
                side: 4,
                ..
            }
        ));
        assert_eq!(
            err.to_string(),
            "line 7, column 14: unexpected character 'x' in cell r4c2 (a 4x4 board uses 1-4, . or 0)"
        );
    }
}
