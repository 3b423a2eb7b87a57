//! Random and mutated inputs for every parser: each gives an instance or a located error, never a panic, and an
//! instance that parses also builds (or is reported invalid) and searches under a node limit without panicking.
#![allow(clippy::unwrap_used)]

use csp_core::Limits;
use proptest::prelude::*;
use puzzles::{run_text, Mode, Puzzle, FAMILIES};

/// Text built from the tokens the formats use, so that the fuzzer reaches deep into each parser.
fn format_like() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("p".to_string()),
        Just("edge".to_string()),
        Just("e".to_string()),
        Just("c".to_string()),
        Just("size".to_string()),
        Just("givens".to_string()),
        Just("rows".to_string()),
        Just("columns".to_string()),
        Just("X".to_string()),
        Just("_".to_string()),
        (0u64..50, 0u64..50).prop_map(|(d, r)| format!("{d}\\{r}")),
        (1u64..50).prop_map(|r| format!("\\{r}")),
        Just(".".to_string()),
        Just("#".to_string()),
        Just("\n".to_string()),
        Just("-1".to_string()),
        Just("é".to_string()),
        (0u64..20).prop_map(|v| v.to_string()),
        (0u64..u64::MAX).prop_map(|v| v.to_string()),
        (0usize..12, 0usize..12).prop_map(|(r, c)| format!("r{r}c{c}")),
        (
            1u64..400,
            prop::sample::select(vec!["+", "-", "x", "/", "=", "?", ""])
        )
            .prop_map(|(t, op)| format!("{t}{op}")),
    ];
    prop::collection::vec(
        (token, prop::sample::select(vec![" ", " ", "\n", "\t"])),
        0..60,
    )
    .prop_map(|parts| parts.into_iter().map(|(t, sep)| t + sep).collect())
}

fn check(kind: &str, text: &str) {
    let cfg = csp_core::SearchConfig::default().limits(Limits::none().with_nodes(2_000));
    match run_text(
        puzzles::family(kind).unwrap(),
        text,
        Some(&cfg),
        Mode::First,
    ) {
        Ok(r) => {
            if let Some(v) = r.verified {
                v.unwrap();
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_format_like_text_never_panics(text in format_like()) {
        for family in FAMILIES {
            check(family.name, &text);
        }
    }

    #[test]
    fn arbitrary_unicode_never_panics(text in "\\PC{0,200}") {
        for family in FAMILIES {
            check(family.name, &text);
        }
    }

    #[test]
    fn one_byte_edits_of_shipped_files_never_panic(file in 0usize..7, at in 0usize..10_000, byte in 0u8..128) {
        let (kind, path) = [
            ("kenken", "kenken/kenken-6x6-01.txt"),
            ("killer", "killer/killer-01.txt"),
            ("latin", "latin-unique/latin-9-unique.txt"),
            ("color", "color/myciel4.col"),
            ("kakuro", "kakuro/wikipedia.txt"),
            ("nonogram", "nonogram/rosetta-1.txt"),
            ("hidato", "hidato/rosetta.txt"),
        ][file];
        let full = format!("{}/../../datasets/puzzles/{path}", env!("CARGO_MANIFEST_DIR"));
        let mut bytes = std::fs::read(full).unwrap();
        let i = at % bytes.len();
        bytes[i] = byte;
        let text = String::from_utf8_lossy(&bytes);
        check(kind, &text);
    }
}

#[test]
fn the_queens_parser_rejects_sizes_beyond_the_cap() {
    let e = puzzles::queens::Queens::parse("1000000").err().unwrap();
    assert_eq!(e.line, 1);
}
