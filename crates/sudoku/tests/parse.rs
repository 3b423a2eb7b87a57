//! The reader on every input format and every error class.

#![allow(clippy::unwrap_used)]

use sudoku::parse::{parse_puzzle, ParseErrorKind, Reader, ReaderOptions, Record};
use sudoku::{Board, House};

const LEET: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const LEET_SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn read(text: &str) -> Vec<Record> {
    Reader::new(text.as_bytes()).collect()
}

fn read_sized(text: &str, box_size: usize) -> Vec<Record> {
    Reader::with_options(
        text.as_bytes(),
        ReaderOptions {
            box_size: Some(box_size),
        },
    )
    .collect()
}

fn kind(r: &Record) -> &ParseErrorKind {
    &r.item.as_ref().unwrap_err().kind
}

#[test]
fn one_line_puzzles_with_comments_and_ratings_are_read() {
    let zeros = LEET.replace('.', "0");
    let text = format!("{LEET}\n{zeros} 2.5\n{LEET}#c\n{LEET}:rating\n  {LEET}\t# indented\n");
    let records = read(&text);
    assert_eq!(records.len(), 5);
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r.line, i + 1);
        let p = r.item.as_ref().unwrap();
        assert_eq!(p.board.to_line(), LEET);
        assert_eq!(p.solution, None);
    }
}

#[test]
fn blank_and_comment_lines_are_skipped_and_lines_still_counted() {
    let text = format!("# header comment\n\n   \n{LEET}\n");
    let records = read(&text);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].line, 4);
}

#[test]
fn crlf_endings_and_a_bom_are_accepted() {
    let text = format!("\u{feff}{LEET}\r\n{LEET}\r\n");
    let records = read(&text);
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| r.item.is_ok()));
}

#[test]
fn files_joined_with_cat_keep_their_byte_order_marks_and_still_read() {
    let file = format!("\u{feff}puzzle,solution\r\n{LEET},{LEET_SOLVED}\r\n");
    let records = read(&file.repeat(3));
    assert_eq!(records.len(), 3, "repeated headers are skipped, BOM or not");
    for r in &records {
        let p = r.item.as_ref().unwrap();
        assert_eq!(p.board.to_line(), LEET);
        assert_eq!(p.solution.as_ref().unwrap().to_line(), LEET_SOLVED);
    }
    let records = read(&format!("\u{feff}{LEET}\n").repeat(2));
    assert!(records.iter().all(|r| r.item.is_ok()));
    // Inside a line it is still an unexpected character.
    let inside = format!("{}\u{feff}{}\n", &LEET[..5], &LEET[6..]);
    assert!(read(&inside)[0]
        .item
        .as_ref()
        .unwrap_err()
        .to_string()
        .contains("'\\u{feff}'"));
}

#[test]
fn kaggle_csv_with_header_keeps_the_solution() {
    let zeros = LEET.replace('.', "0");
    let text = format!("quizzes,solutions\n{zeros},{LEET_SOLVED}\n");
    let records = read(&text);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].line, 2);
    let p = records[0].item.as_ref().unwrap();
    assert_eq!(p.solution.as_ref().unwrap().to_line(), LEET_SOLVED);
}

#[test]
fn kaggle_3m_layout_finds_puzzle_and_solution_columns_by_header_name() {
    let text = format!(
        "id,puzzle,solution,clues,difficulty\n0,{LEET},{LEET_SOLVED},30,1.5\n1,{},{LEET_SOLVED},0,9\n"
        , "1".repeat(80)
    );
    let records = read(&text);
    assert_eq!(records.len(), 2);
    let p = records[0].item.as_ref().unwrap();
    assert_eq!(p.board.to_line(), LEET);
    assert_eq!(p.solution.as_ref().unwrap().to_line(), LEET_SOLVED);
    let err = records[1].item.as_ref().unwrap_err();
    assert_eq!(err.line, 3);
    assert_eq!(err.column, Some(3), "the puzzle field starts at column 3");
    assert!(err.to_string().contains("wrong length: 80 cells"), "{err}");
}

#[test]
fn without_header_the_first_field_that_is_a_grid_is_the_puzzle() {
    let text = format!("17,{LEET},{LEET_SOLVED},30\n");
    let records = read(&text);
    assert_eq!(records.len(), 1);
    let p = records[0].item.as_ref().unwrap();
    assert_eq!(p.board.to_line(), LEET);
    assert_eq!(p.solution.as_ref().unwrap().to_line(), LEET_SOLVED);
}

#[test]
fn a_puzzle_one_cell_short_is_an_error_not_its_solution_read_as_the_puzzle() {
    let text = format!("{},{LEET_SOLVED}\n", &LEET[..80]);
    let records = read(&text);
    assert_eq!(records.len(), 1);
    let err = records[0].item.as_ref().unwrap_err();
    assert!(err.to_string().contains("wrong length: 80 cells"), "{err}");
}

#[test]
fn a_headerless_puzzle_cut_to_any_length_is_an_error_never_its_solution_read_in_its_place() {
    const PUZZLE: &str = "1.3434.221.343.1";
    const SOLVED: &str = "1234341221434321";
    for cut in 1..PUZZLE.len() {
        let puzzle = &PUZZLE[..cut];
        // Also all digits (a cut puzzle that looks like an id), alone and after an id, with trailing columns.
        let digits = &SOLVED[..cut];
        for line in [
            format!("{puzzle},{SOLVED}"),
            format!("{digits},{SOLVED}"),
            format!("{digits},{SOLVED},2.5"),
            format!("7,{puzzle},{SOLVED},12,0.0"),
            format!("7,{digits},{SOLVED},12,0.0"),
            format!("puzzle,solution\n{digits},{SOLVED}"),
            format!("{LEET},{LEET_SOLVED}\n{digits},{SOLVED}"),
        ] {
            let records = read(&line);
            let last = records.last().unwrap();
            assert!(last.item.is_err(), "{line:?} was read as {:?}", last.item);
            assert!(
                last.item
                    .as_ref()
                    .unwrap_err()
                    .to_string()
                    .contains("wrong length"),
                "{line:?}"
            );
        }
    }
    // The layouts that do carry an id before the puzzle still read, with their solution.
    for line in [
        format!("7,{PUZZLE},{SOLVED}"),
        format!("7,{PUZZLE},{SOLVED},12,0.0"),
        format!("id-7,\"{PUZZLE}\",{SOLVED}"),
    ] {
        let p = parse_puzzle(&line).unwrap();
        assert_eq!(p.board.to_line(), PUZZLE, "{line}");
        assert_eq!(p.solution.unwrap().to_line(), SOLVED, "{line}");
    }
}

#[test]
fn a_header_in_the_middle_is_named_not_read_as_a_sixteen_by_sixteen_row() {
    let text = format!("{LEET}\nquizzes,solutions\n{LEET}\n");
    let records = read(&text);
    assert_eq!(records.len(), 3);
    let err = records[1].item.as_ref().unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2: a CSV header in the middle of the file (its columns are used from here on)"
    );
    assert!(records[2].item.is_ok());
}

#[test]
fn pasted_grid_with_separators_is_one_puzzle() {
    let text = "\
+-------+-------+-------+
| 5 3 . | . 7 . | . . . |
| 6 . . | 1 9 5 | . . . |
| . 9 8 | . . . | . 6 . |
+-------+-------+-------+
| 8 . . | . 6 . | . . 3 |
| 4 . . | 8 . 3 | . . 1 |
| 7 . . | . 2 . | . . 6 |
+-------+-------+-------+
| . 6 . | . . . | 2 8 . |
| . . . | 4 1 9 | . . 5 |
| . . . | . 8 . | . 7 9 |
+-------+-------+-------+
53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
";
    let records = read(text);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].line, 2);
    assert_eq!(records[0].item.as_ref().unwrap().board.to_line(), LEET);
    assert_eq!(records[1].line, 14);
}

#[test]
fn plain_rows_without_separators_and_four_by_four_rows_are_grids() {
    let rows = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n";
    assert_eq!(read(rows)[0].item.as_ref().unwrap().board.to_line(), LEET);
    let four = "1 2 | . .\n. . | 1 2\n----+----\n2 . | . 1\n. 1 | 2 .\n";
    let r = read(four);
    assert_eq!(r.len(), 1);
    assert_eq!(
        r[0].item.as_ref().unwrap().board.to_line(),
        "12....122..1.12."
    );
}

#[test]
fn sixteen_characters_are_a_four_by_four_line_unless_a_symbol_needs_sixteen() {
    let r = read("1234341221434321\n");
    assert_eq!(r[0].item.as_ref().unwrap().board.side(), 4);
    let grid16 = "123456789ABCDEFG\n".repeat(16);
    let r = read(&grid16);
    assert_eq!(r.len(), 1);
    // Every row equal: the 16x16 grid is read and its clash reported, in a column.
    assert!(matches!(kind(&r[0]), ParseErrorKind::Clash(c) if c.house == House::Column(0)));
}

#[test]
fn explicit_size_turns_sixteen_character_lines_into_rows() {
    let r = read_sized(&"1...............\n".repeat(16), 4);
    assert_eq!(r.len(), 1);
    assert!(matches!(kind(&r[0]), ParseErrorKind::Clash(_)));
    let r = read_sized("1234341221434321\n", 3);
    assert_eq!(
        kind(&r[0]),
        &ParseErrorKind::WrongLength {
            found: 16,
            expected: Some(81)
        }
    );
}

#[test]
fn bad_character_names_line_column_and_cell() {
    let mut bad = LEET.to_string();
    bad.replace_range(20..21, "x");
    let r = read(&format!("{LEET}\n{bad}\n"));
    let e = r[1].item.as_ref().unwrap_err();
    assert_eq!((e.line, e.column), (2, Some(21)));
    assert_eq!(
        e.to_string(),
        "line 2, column 21: unexpected character 'x' in cell r3c3 (a 9x9 board uses 1-9, . or 0)"
    );
}

#[test]
fn multibyte_characters_are_one_column_and_never_split() {
    let mut bad: String = LEET.chars().take(80).collect();
    bad.insert(40, 'é');
    let r = read(&format!("{bad}\n"));
    let e = r[0].item.as_ref().unwrap_err();
    assert_eq!(e.column, Some(41));
    assert!(matches!(
        e.kind,
        ParseErrorKind::BadChar {
            ch: 'é',
            cell: 40,
            ..
        }
    ));
    // A multibyte character where a byte slice at 81 would cut it.
    let long = format!("{}€€", &LEET[..80]);
    let r = read(&long);
    assert_eq!(
        kind(&r[0]),
        &ParseErrorKind::WrongLength {
            found: 82,
            expected: None
        }
    );
}

#[test]
fn short_long_and_glued_lines_are_errors_not_cuts() {
    let text = format!("{}\n{LEET}1\n{LEET}{LEET}\n", &LEET[..80]);
    let r = read(&text);
    assert_eq!(r.len(), 3);
    assert_eq!(
        kind(&r[0]),
        &ParseErrorKind::WrongLength {
            found: 80,
            expected: None
        }
    );
    assert_eq!(
        kind(&r[1]),
        &ParseErrorKind::WrongLength {
            found: 82,
            expected: None
        }
    );
    assert_eq!(kind(&r[2]), &ParseErrorKind::Glued { found: 162 });
    assert!(r[2]
        .item
        .as_ref()
        .unwrap_err()
        .to_string()
        .contains("glued"));
}

#[test]
fn clashing_givens_name_the_house() {
    let mut row = LEET.to_string();
    row.replace_range(2..3, "5"); // second 5 in row 1
    let mut col = LEET.to_string();
    col.replace_range(72..73, "6"); // 6 already at r2c1
    let mut bx = LEET.to_string();
    bx.replace_range(20..21, "5"); // r3c3, box 1 has 5 at r1c1; row 3 and column 3 have none
    let r = read(&format!("{row}\n{col}\n{bx}\n"));
    let msg = |i: usize| r[i].item.as_ref().unwrap_err().to_string();
    assert!(msg(0).contains("two 5s in row 1"), "{}", msg(0));
    assert!(msg(1).contains("two 6s in column 1"), "{}", msg(1));
    assert!(msg(2).contains("two 5s in box 1"), "{}", msg(2));
}

#[test]
fn incomplete_grid_is_reported_and_the_next_puzzle_still_read() {
    let text = format!("53..7....\n6..195...\n.98....6.\n\n{LEET}\n");
    let r = read(&text);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0].line, 1);
    assert_eq!(
        kind(&r[0]),
        &ParseErrorKind::Incomplete {
            rows: 3,
            expected: 9
        }
    );
    assert!(r[1].item.is_ok());
    let r = read("53..7....\n6..195...\n");
    assert_eq!(
        kind(&r[0]),
        &ParseErrorKind::Incomplete {
            rows: 2,
            expected: 9
        }
    );
}

#[test]
fn a_bad_row_does_not_desynchronise_the_grid() {
    let text = "53..7....\n6..195..\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n1234341221434321\n";
    let r = read(text);
    assert_eq!(r.len(), 2);
    assert_eq!(
        kind(&r[0]),
        &ParseErrorKind::RowLength {
            row: 2,
            found: 8,
            expected: 9
        }
    );
    assert_eq!(r[0].item.as_ref().unwrap_err().line, 2);
    assert!(r[1].item.is_ok());
}

#[test]
fn invalid_utf8_and_huge_lines_are_errors_and_reading_goes_on() {
    let mut bytes = b"53..7\xff\xfe".to_vec();
    bytes.push(b'\n');
    bytes.extend(std::iter::repeat_n(
        b'1',
        sudoku::parse::MAX_LINE_BYTES + 10,
    ));
    bytes.push(b'\n');
    bytes.extend(LEET.as_bytes());
    let r: Vec<Record> = Reader::new(bytes.as_slice()).collect();
    assert_eq!(r.len(), 3);
    assert_eq!(kind(&r[0]), &ParseErrorKind::InvalidUtf8);
    assert_eq!(r[0].item.as_ref().unwrap_err().column, Some(6));
    assert_eq!(kind(&r[1]), &ParseErrorKind::LineTooLong);
    assert_eq!(r[2].line, 3);
    assert!(r[2].item.is_ok());
}

#[test]
fn sixteen_by_sixteen_and_larger_lines_are_read() {
    let line16: String = (0..256)
        .map(|i| {
            if i == 0 {
                'G'
            } else if i == 255 {
                'a'
            } else {
                '.'
            }
        })
        .collect();
    let r = read(&line16);
    assert_eq!(r[0].item.as_ref().unwrap().board.side(), 16);
    let mut bad16 = line16.clone();
    bad16.replace_range(1..2, "H");
    let e = read(&bad16)[0].item.clone().unwrap_err();
    assert!(
        e.to_string()
            .contains("'H' in cell r1c2 (a 16x16 board uses 1-9, A-G, or .)"),
        "{e}"
    );
    let empty36 = ".".repeat(1296);
    assert_eq!(read(&empty36)[0].item.as_ref().unwrap().board.side(), 36);
    let empty25 = ".".repeat(625);
    assert_eq!(read(&empty25)[0].item.as_ref().unwrap().board.side(), 25);
}

#[test]
fn parse_puzzle_wants_exactly_one() {
    assert!(parse_puzzle(LEET).is_ok());
    assert!(matches!(
        parse_puzzle("").unwrap_err().kind,
        ParseErrorKind::NotOnePuzzle { found: 0 }
    ));
    let two = format!("{LEET}\n{LEET}\n{LEET}\n");
    assert!(matches!(
        parse_puzzle(&two).unwrap_err().kind,
        ParseErrorKind::NotOnePuzzle { found: 3 }
    ));
    let b: Board = LEET.parse().unwrap();
    assert_eq!(b.givens(), 30);
}

#[test]
fn line_and_grid_formats_read_back_for_every_size() {
    for box_size in 2..=6 {
        let n = box_size * box_size;
        // A valid full grid from the test grid generator, with some holes.
        let full = sudoku::fuzz_targets::random_solved_grid(box_size, n as u64);
        let cells: Vec<u8> = (0..n * n)
            .map(|i| if (i * 7) % 5 == 0 { 0 } else { full.cells()[i] })
            .collect();
        let board = Board::from_cells(box_size, cells).unwrap();
        assert!(board.find_clash().is_none());
        let line = board.to_line();
        assert_eq!(line.parse::<Board>().unwrap(), board, "line, size {n}");
        let grid = sudoku::format::to_grid_string(&board);
        assert_eq!(grid.parse::<Board>().unwrap(), board, "grid, size {n}");
    }
}

mod properties {
    use proptest::prelude::*;
    use sudoku::parse::{ParseErrorKind, Reader};
    use sudoku::Board;

    /// Bytes that look like puzzle input: symbols, blanks, separators, line breaks, and some garbage.
    fn inputish() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![
            8 => prop::sample::select(b"123456789.0".to_vec()),
            2 => prop::sample::select(b"ABCDEFGxz".to_vec()),
            2 => prop::sample::select(b" |+-,:#\t".to_vec()),
            1 => Just(b'\n'),
            1 => Just(b'\r'),
            1 => any::<u8>(),
        ];
        prop::collection::vec(byte, 0..2000)
    }

    proptest! {
        #[test]
        fn any_bytes_give_records_in_line_order_and_never_a_clashing_puzzle(bytes in inputish()) {
            let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
            let mut last = 0;
            for record in Reader::new(bytes.as_slice()) {
                prop_assert!(record.line >= last && record.line <= lines);
                last = record.line;
                match record.item {
                    Ok(p) => prop_assert!(p.board.find_clash().is_none()),
                    Err(e) => {
                        prop_assert!(!matches!(e.kind, ParseErrorKind::Io(_)));
                        prop_assert!(!e.to_string().is_empty());
                    }
                }
            }
        }

        #[test]
        fn line_and_grid_output_read_back_for_random_clash_free_boards(
            box_size in 2usize..=6,
            seed in any::<u64>(),
        ) {
            // A valid grid by the shifted-rows pattern, digits relabelled by the seed, about half the cells kept.
            let n = box_size * box_size;
            let shift = (seed % n as u64) as usize;
            let cells: Vec<u8> = (0..n * n)
                .map(|i| {
                    let (r, c) = (i / n, i % n);
                    let keep = (seed >> (i % 64)) & 1 == 1;
                    if keep { ((r * box_size + r / box_size + c + shift) % n + 1) as u8 } else { 0 }
                })
                .collect();
            let board = Board::from_cells(box_size, cells).unwrap();
            prop_assert_eq!(board.to_line().parse::<Board>().unwrap(), board.clone());
            let grid = sudoku::format::to_grid_string(&board);
            prop_assert_eq!(grid.parse::<Board>().unwrap(), board);
        }
    }
}
