//! Small text helpers shared by the parsers: comment stripping with line numbers, tokens with columns, cell names.

/// Lines with their 1-based numbers, comments (`#` or `c ` / `%` are per-format; here `#` to end of line) removed,
/// blank lines skipped, a UTF-8 BOM and CR line endings tolerated.
pub fn content_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = match raw.find('#') {
            Some(p) => &raw[..p],
            None => raw,
        };
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            None
        } else {
            Some((i + 1, line))
        }
    })
}

/// Whitespace-separated tokens of a line with their 1-based character columns.
pub fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, char column)
    let mut col = 0;
    for (byte, ch) in line.char_indices() {
        col += 1;
        if ch.is_whitespace() {
            if let Some((b, c)) = start.take() {
                out.push((c, &line[b..byte]));
            }
        } else if start.is_none() {
            start = Some((byte, col));
        }
    }
    if let Some((b, c)) = start {
        out.push((c, &line[b..]));
    }
    out.into_iter()
}

/// Parses a cell name `r<row>c<col>` (1-based, case-insensitive, e.g. `r3c10`) into 0-based `(row, col)` on an
/// `n x n` grid.
pub fn parse_cell(token: &str, n: usize) -> Result<(usize, usize), String> {
    let lower = token.to_ascii_lowercase();
    let bad = || format!("expected a cell like r1c2, found `{token}`");
    let rest = lower.strip_prefix('r').ok_or_else(bad)?;
    let cpos = rest.find('c').ok_or_else(bad)?;
    let (r, c) = (&rest[..cpos], &rest[cpos + 1..]);
    let r: usize = r.parse().map_err(|_| bad())?;
    let c: usize = c.parse().map_err(|_| bad())?;
    if r == 0 || c == 0 || r > n || c > n {
        return Err(format!(
            "cell `{token}` is outside the {n}x{n} grid (rows and columns are 1..={n})"
        ));
    }
    Ok((r - 1, c - 1))
}

/// The cell name of 0-based `(row, col)`, inverse of [`parse_cell`].
pub fn cell_name(row: usize, col: usize) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// Grid symbols of the one-line form shared with the sudoku crate: values 1-9 then A-Z (up to 35).
pub const SYMBOLS: &[u8] = b"123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// A filled n x n grid (values 1..=n) as one line: one symbol per cell for n <= 35, row-major like the sudoku
/// CLI; for larger n the numbers separated by single spaces.
pub fn grid_one_line(n: usize, values: &[usize]) -> String {
    if n <= SYMBOLS.len() {
        values
            .iter()
            .map(|&v| SYMBOLS.get(v.wrapping_sub(1)).map_or('?', |&b| b as char))
            .collect()
    } else {
        let parts: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        parts.join(" ")
    }
}

/// A filled n x n grid as n lines of space-separated numbers (the text output of the grid families).
pub fn grid_rows(n: usize, values: &[usize]) -> String {
    let width = n.to_string().len();
    let mut s = String::new();
    for row in values.chunks(n.max(1)) {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:>width$}")).collect();
        s.push_str(&cells.join(" "));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_character_columns() {
        let t: Vec<_> = tokens("  ab  é c").collect();
        assert_eq!(t, vec![(3, "ab"), (7, "é"), (9, "c")]);
    }

    #[test]
    fn content_lines_skip_comments_and_blank_lines_but_keep_numbers() {
        let l: Vec<_> = content_lines("\u{feff}# x\n\n 4 # four\r\n5").collect();
        assert_eq!(l, vec![(3, " 4 "), (4, "5")]);
    }

    #[test]
    fn cells_parse_one_based_and_reject_outside_cells() {
        assert_eq!(parse_cell("r1c1", 9), Ok((0, 0)));
        assert_eq!(parse_cell("R9C10", 10), Ok((8, 9)));
        assert!(parse_cell("r0c1", 9).is_err());
        assert!(parse_cell("r1c10", 9).is_err());
        assert!(parse_cell("x1c1", 9).is_err());
        assert!(parse_cell("r1", 9).is_err());
        assert_eq!(cell_name(2, 3), "r3c4");
    }
}
