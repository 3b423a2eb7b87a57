//! The `puzzles` binary, run as a user would: output formats, exit codes, line-numbered errors on bad files.
#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::Output;

use assert_cmd::Command;

fn puzzles(args: &[&str]) -> Output {
    Command::cargo_bin("puzzles")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn dataset(path: &str) -> String {
    format!(
        "{}/../../datasets/puzzles/{path}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn temp_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

#[test]
fn queens_jsonl_gives_the_columns_and_exit_0() {
    let out = puzzles(&["queens", "8", "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(0));
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "solved");
    let cols: Vec<usize> = v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    puzzles::queens::verify_placement(8, &cols).unwrap();
}

#[test]
fn queens_count_sequential_and_parallel_agree() {
    for extra in [&[][..], &["--parallel"][..]] {
        let mut args = vec!["queens", "9", "--count", "--format", "jsonl"];
        args.extend_from_slice(extra);
        let out = puzzles(&args);
        assert_eq!(json_lines(&out)[0]["solutions"], 352, "{extra:?}");
    }
}

#[test]
fn queens_without_solution_exits_1() {
    let out = puzzles(&["queens", "3", "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json_lines(&out)[0]["status"], "unsatisfiable");
}

#[test]
fn color_finds_the_chromatic_number_with_the_optimality_flag() {
    let out = puzzles(&["color", &dataset("color/myciel4.col"), "--format", "jsonl"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "solved");
    assert_eq!(v["colors"], 5);
    assert_eq!(v["optimal"], true);
    let coloring: Vec<usize> = v["coloring"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap() as usize)
        .collect();
    let g = puzzles::color::mycielski_graph(4);
    puzzles::color::verify_coloring(&g, &coloring, 5).unwrap();
}

#[test]
fn color_with_too_few_colours_is_unsatisfiable() {
    let out = puzzles(&[
        "color",
        &dataset("color/queen5_5.col"),
        "-k",
        "4",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json_lines(&out)[0]["status"], "unsatisfiable");
}

#[test]
fn grid_puzzles_print_the_sudoku_style_one_line_solution() {
    for (cmd, file) in [
        ("latin", "latin-unique/latin-9-unique.txt"),
        ("killer", "killer/killer-01.txt"),
        ("kenken", "kenken/kenken-6x6-01.txt"),
    ] {
        let out = puzzles(&[cmd, &dataset(file), "--count", "--format", "jsonl"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{cmd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = &json_lines(&out)[0];
        assert_eq!(v["status"], "solved");
        assert_eq!(v["solutions"], 1);
        assert!(v["solution"].as_str().unwrap().len() >= 36);
        assert!(v["nodes"].is_u64() && v["micros"].is_u64());
    }
}

#[test]
fn a_malformed_file_is_reported_with_file_and_line_and_the_next_file_still_solves() {
    let bad = temp_file("size 4\n7+ r1c1 r1c2 r2c1\n2/ r1c3 r1c9\n");
    let path = bad.path().to_str().unwrap();
    let out = puzzles(&[
        "kenken",
        path,
        &dataset("kenken/kenken-4x4-01.txt"),
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&format!("{path}:3:")), "{stderr}");
    let lines = json_lines(&out);
    assert_eq!(lines[0]["status"], "invalid");
    assert!(lines[0]["error"].as_str().unwrap().contains("r1c9"));
    assert_eq!(lines[1]["status"], "solved");
}

#[test]
fn malformed_files_of_every_format_never_panic() {
    let cases = [
        ("color", "p edge 2 1\ne 1 3\n"),
        ("color", "e 1 2\n"),
        ("latin", "1 2\n2 x\n"),
        ("latin", "1 1\n. .\n"),
        ("killer", "45 r1c1\n"),
        ("killer", "3 r1c1 r1c2 r1c2\n"),
        ("kenken", "size 3\n5/ r1c1 r1c2\n"),
        ("kenken", "size 2\n3+ r1c1 r1c2\n3+ r2c1 r2c2\n1 r1c1\n"),
        ("queens", "x"),
        ("latin", "\u{feff}é ü\n"),
        ("kakuro", "X 3\\\n\\12 .\n"),
        ("kakuro", "X X\n. .\n"),
        ("nonogram", "rows\n9\ncolumns\n1\n"),
        ("nonogram", "1 2\n"),
        ("hidato", "1 . .\n. 1 .\n"),
        ("hidato", "X X\n"),
    ];
    for (cmd, text) in cases {
        let f = temp_file(text);
        let args = if cmd == "queens" {
            vec!["queens", text]
        } else {
            vec![cmd, f.path().to_str().unwrap()]
        };
        let out = puzzles(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{cmd} {text:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{cmd} {text:?}: {stderr}");
        assert!(!stderr.is_empty(), "{cmd} {text:?}: no message");
    }
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(
        puzzles(&["latin", "/nonexistent/file.txt"]).status.code(),
        Some(2)
    );
    assert_eq!(
        puzzles(&["queens", "8", "--strategy", "bogus"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(puzzles(&["frobnicate"]).status.code(), Some(2));
    let myciel = dataset("color/myciel3.col");
    assert_eq!(
        puzzles(&["color", &myciel, "--count"]).status.code(),
        Some(2)
    );
    let counted = puzzles(&["color", &myciel, "-k", "4", "--count", "--format", "jsonl"]);
    assert_eq!(counted.status.code(), Some(0));
    assert!(json_lines(&counted)[0]["solutions"].as_u64().unwrap() >= 2);
}

#[test]
fn a_node_limit_is_reported_as_limit_not_unsatisfiable() {
    let out = puzzles(&[
        "latin",
        &dataset("latin/qwh-30-42-01.txt"),
        "--node-limit",
        "1",
        "--strategy",
        "input,fc",
        "--format",
        "jsonl",
    ]);
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "limit", "{v}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn generate_is_deterministic_for_a_seed() {
    let a = puzzles(&["generate", "latin", "--order", "10", "--seed", "4"]);
    let b = puzzles(&["generate", "latin", "--order", "10", "--seed", "4"]);
    assert_eq!(a.stdout, b.stdout);
    let shipped = std::fs::read(dataset("color/queen6_6.col")).unwrap();
    assert_eq!(puzzles(&["generate", "queen-graph", "6"]).stdout, shipped);
}

#[test]
fn every_family_of_the_list_has_its_subcommand_and_every_generator_runs() {
    let help = String::from_utf8_lossy(&puzzles(&["--help"]).stdout).into_owned();
    let generate_help =
        String::from_utf8_lossy(&puzzles(&["generate", "--help"]).stdout).into_owned();
    for family in puzzles::FAMILIES {
        assert!(
            help.contains(family.name),
            "{} missing from --help:\n{help}",
            family.name
        );
        for g in family.generators {
            assert!(generate_help.contains(g.name), "generator {}", g.name);
        }
    }
    for args in [
        &[
            "generate", "kakuro", "--width", "6", "--height", "6", "--seed", "3",
        ][..],
        &[
            "generate", "nonogram", "--width", "6", "--height", "5", "--unique",
        ][..],
        &["generate", "hidato", "--width", "5", "--height", "4"][..],
    ] {
        let out = puzzles(args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let f = temp_file(&String::from_utf8_lossy(&out.stdout));
        let solved = puzzles(&[
            args[1],
            f.path().to_str().unwrap(),
            "--count",
            "--format",
            "jsonl",
        ]);
        assert_eq!(solved.status.code(), Some(0), "{args:?}");
        assert_eq!(json_lines(&solved)[0]["solutions"], 1, "{args:?}");
    }
}

#[test]
fn kakuro_nonogram_and_hidato_print_their_grids() {
    for (cmd, file, first_row) in [
        (
            "kakuro",
            "kakuro/wikipedia.txt",
            serde_json::json!([0, 0, 0, 0, 0, 0, 0, 0]),
        ),
        (
            "nonogram",
            "nonogram/rosetta-1.txt",
            serde_json::json!(".###...."),
        ),
        (
            "hidato",
            "hidato/rosetta.txt",
            serde_json::json!([32, 33, 35, 36, 37, 0, 0, 0]),
        ),
    ] {
        let out = puzzles(&[cmd, &dataset(file), "--count", "--format", "jsonl"]);
        assert_eq!(out.status.code(), Some(0), "{cmd}");
        let v = &json_lines(&out)[0];
        assert_eq!(v["solutions"], 1, "{cmd}");
        assert_eq!(v["solution"][0], first_row, "{cmd}");
        let text = puzzles(&[cmd, &dataset(file)]);
        assert!(
            String::from_utf8_lossy(&text.stdout).lines().count() >= 9,
            "{cmd}"
        );
    }
}
