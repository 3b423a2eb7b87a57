//! Kakuro, Nonogram and Hidato: every shipped instance has exactly one solution, the one its file records (for
//! generated files) and one the family's own checker accepts; counts on tiny instances equal brute force, which
//! never calls the engine; generators reproduce the shipped files; bad input is named by line and column.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use csp_core::SearchConfig;
use puzzles::hidato::{verify_numbering, Hidato, HidatoModel};
use puzzles::kakuro::{verify_digits, Kakuro};
use puzzles::nonogram::{clue_of, verify_picture, Nonogram};
use puzzles::{Mode, Options, Puzzle, FAMILIES};

fn dataset(family: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets/puzzles")
        .join(family);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{family}: {} files", files.len());
    files
}

/// The `# solution ...` comment lines of a file, joined by spaces.
fn recorded_solution(text: &str) -> Option<String> {
    let parts: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# solution "))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Counts to 2, checks uniqueness and the checker's verdict, returns the answer.
fn unique_answer<P: Puzzle>(p: &P, path: &Path) -> P::Answer {
    let r = p.solve(&p.default_config(), Mode::Count(2)).unwrap();
    assert_eq!(r.count, Some(1), "{}", path.display());
    assert!(r.verified.unwrap().is_ok(), "{}", path.display());
    r.answer.unwrap()
}

#[test]
fn every_shipped_kakuro_has_one_solution_the_recorded_one() {
    for path in dataset("kakuro") {
        let text = std::fs::read_to_string(&path).unwrap();
        let k = Kakuro::parse(&text).unwrap();
        let answer = unique_answer(&k, &path);
        verify_digits(&k, &answer).unwrap();
        if let Some(sol) = recorded_solution(&text) {
            let digits: String = answer.iter().map(|d| (b'0' + d) as char).collect();
            assert_eq!(digits, sol, "{}", path.display());
        }
    }
}

#[test]
fn every_shipped_nonogram_has_one_solution_the_recorded_one() {
    for path in dataset("nonogram") {
        let text = std::fs::read_to_string(&path).unwrap();
        let n = Nonogram::parse(&text).unwrap();
        let answer = unique_answer(&n, &path);
        verify_picture(&n, &answer).unwrap();
        if let Some(sol) = recorded_solution(&text) {
            let rows: Vec<String> = answer
                .chunks(n.width())
                .map(|r| r.iter().map(|&b| if b { '#' } else { '.' }).collect())
                .collect();
            assert_eq!(rows.join(" "), sol, "{}", path.display());
        }
    }
}

#[test]
fn the_hard_shipped_nonograms_are_not_finished_by_line_solving() {
    let hard: Vec<PathBuf> = dataset("nonogram")
        .into_iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.lines().next().unwrap().contains(" --hard)")
        })
        .collect();
    assert!(hard.len() >= 3, "{hard:?}");
    for path in hard {
        let n = Nonogram::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        // Root propagation is `regular` per line to a fixpoint, i.e. line solving: a guess means it stopped short.
        let r = n.solve(&n.default_config(), Mode::First).unwrap();
        assert!(r.stats.guesses > 0, "{}", path.display());
        assert!(r.verified.unwrap().is_ok(), "{}", path.display());
    }
}

#[test]
fn every_shipped_hidato_has_one_solution_the_recorded_one_under_both_models() {
    for path in dataset("hidato") {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut h = Hidato::parse(&text).unwrap();
        h.model = HidatoModel::Circuit;
        let by_circuit = unique_answer(&h, &path);
        h.model = HidatoModel::Path;
        let answer = unique_answer(&h, &path);
        assert_eq!(by_circuit, answer, "{}", path.display());
        verify_numbering(&h, &answer).unwrap();
        if let Some(sol) = recorded_solution(&text) {
            let numbers: Vec<String> = answer.iter().map(usize::to_string).collect();
            assert_eq!(numbers.join(" "), sol, "{}", path.display());
        }
    }
}

#[test]
fn the_generators_reproduce_the_shipped_files() {
    for path in dataset("kakuro")
        .into_iter()
        .chain(dataset("nonogram"))
        .chain(dataset("hidato"))
    {
        let text = std::fs::read_to_string(&path).unwrap();
        // A generated file's first line ends with the command that made it: `(puzzles generate NAME --k v ...)`.
        let header = text.lines().next().unwrap();
        let Some((_, command)) = header.split_once("(puzzles generate ") else {
            continue;
        };
        let mut words = command.trim_end_matches(')').split_whitespace().peekable();
        let family = words.next().unwrap().to_owned();
        let mut options = Options::new();
        while let Some(word) = words.next() {
            let key = word.strip_prefix("--").unwrap();
            match words.peek() {
                Some(v) if !v.starts_with("--") => {
                    options.set(key, *v);
                    words.next();
                }
                _ => options.set(key, ""),
            }
        }
        let generator = FAMILIES
            .iter()
            .flat_map(|f| f.generators)
            .find(|g| g.name == family)
            .unwrap();
        assert_eq!(
            (generator.run)(&options).unwrap(),
            text,
            "{}",
            path.display()
        );
    }
}

/// Every picture of a `w x h` grid whose clues are `n`'s, by enumeration.
fn brute_force_nonogram(n: &Nonogram) -> u64 {
    let (w, h) = (n.width(), n.height());
    let mut count = 0;
    for bits in 0u32..1 << (w * h) {
        let picture: Vec<bool> = (0..w * h).map(|i| bits >> i & 1 == 1).collect();
        let rows_ok = (0..h).all(|r| clue_of(&picture[r * w..(r + 1) * w]) == n.rows[r]);
        let cols_ok = (0..w).all(|c| {
            let col: Vec<bool> = (0..h).map(|r| picture[r * w + c]).collect();
            clue_of(&col) == n.columns[c]
        });
        count += u64::from(rows_ok && cols_ok);
    }
    count
}

#[test]
fn nonogram_counts_equal_brute_force_on_random_4x4_pictures() {
    let mut rng = puzzles::Rng::new(12);
    for _ in 0..40 {
        let picture: Vec<bool> = (0..16).map(|_| rng.below(2) == 1).collect();
        let n = Nonogram::from_picture(4, &picture);
        let r = n.solve(&n.default_config(), Mode::Count(u64::MAX)).unwrap();
        assert_eq!(r.count, Some(brute_force_nonogram(&n)), "{}", n.to_text());
        assert!(r.verified.unwrap().is_ok());
    }
}

/// Numberings of every permutation of the playable cells that pass the checker (which never calls the engine).
fn brute_force_hidato(h: &Hidato) -> u64 {
    fn rec(
        h: &Hidato,
        cells: &[usize],
        used: &mut [bool],
        numbers: &mut Vec<usize>,
        next: usize,
    ) -> u64 {
        if next > cells.len() {
            return u64::from(verify_numbering(h, numbers).is_ok());
        }
        let mut total = 0;
        for i in 0..cells.len() {
            if !used[i] {
                used[i] = true;
                numbers[cells[i]] = next;
                total += rec(h, cells, used, numbers, next + 1);
                numbers[cells[i]] = 0;
                used[i] = false;
            }
        }
        total
    }
    let cells = h.cells();
    let mut numbers = vec![0; h.grid.len()];
    rec(h, &cells, &mut vec![false; cells.len()], &mut numbers, 1)
}

#[test]
fn hidato_counts_equal_brute_force_on_small_grids_under_both_models() {
    for text in [
        ". . .\n. . .\n",
        "1 . .\n. . 6\n",
        "1 . X\n. . .\n",
        ". 3 .\nX . .\n. . 1\n",
        ". . . .\n. 2 . .\n",
        "1 . X\nX X .\n",
    ] {
        let mut h = Hidato::parse(text).unwrap();
        let expected = brute_force_hidato(&h);
        for model in [HidatoModel::Path, HidatoModel::Circuit] {
            h.model = model;
            for config in [h.default_config(), SearchConfig::default()] {
                let r = h.solve(&config, Mode::Count(u64::MAX)).unwrap();
                assert_eq!(r.count, Some(expected), "{model:?} {text}");
                if let Some(v) = r.verified {
                    assert!(v.is_ok());
                }
            }
        }
    }
}

/// Digit fills of the white cells (1..9 each) that pass the checker.
fn brute_force_kakuro(k: &Kakuro) -> u64 {
    let whites = k.whites();
    let mut digits = vec![0u8; k.cells.len()];
    let mut count = 0;
    let total = 9u64.pow(whites.len() as u32);
    for code in 0..total {
        let mut c = code;
        for &p in &whites {
            digits[p] = (c % 9) as u8 + 1;
            c /= 9;
        }
        count += u64::from(verify_digits(k, &digits).is_ok());
    }
    count
}

#[test]
fn kakuro_counts_equal_brute_force_on_small_grids() {
    for text in [
        "X 4\\ 7\\\n\\3 . .\n\\8 . .\n",
        "X 10\\ 10\\\n\\10 . .\n\\10 . .\n",
        "X 6\\ 12\\ X\n\\9 . . X\n\\10 . . X\n",
        "X 17\\ 3\\\n\\10 . .\n\\10 . .\n",
        "X X 6\\\nX \\3 .\n\\13 . .\n",
        "X 15\\ 6\\\n\\12 . .\n\\9 . 4\n",
    ] {
        let k = Kakuro::parse(text).unwrap();
        let r = k.solve(&k.default_config(), Mode::Count(u64::MAX)).unwrap();
        assert_eq!(r.count, Some(brute_force_kakuro(&k)), "{text}");
        if let Some(v) = r.verified {
            assert!(v.is_ok());
        }
    }
}

#[test]
fn the_checkers_reject_a_changed_answer() {
    let path = &dataset("kakuro")[0];
    let k = Kakuro::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut a = unique_answer(&k, path);
    let p = k.whites()[0];
    a[p] = a[p] % 9 + 1;
    assert!(verify_digits(&k, &a).is_err());

    let path = &dataset("nonogram")[0];
    let n = Nonogram::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut a = unique_answer(&n, path);
    a[0] = !a[0];
    assert!(verify_picture(&n, &a).is_err());

    let path = &dataset("hidato")[0];
    let h = Hidato::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut a = unique_answer(&h, path);
    let cells = h.cells();
    a.swap(cells[0], cells[cells.len() - 1]);
    assert!(verify_numbering(&h, &a).is_err());
}

#[test]
fn bad_input_is_named_by_line_and_column() {
    let e = Kakuro::parse("X 4\\ 7\\\n\\3 . .\n\\8 . ?\n").unwrap_err();
    assert_eq!((e.line, e.column), (3, Some(6)));
    assert!(e.message.contains("`?`"), "{e}");
    let e = Kakuro::parse("X 4\\ 7\\\n\\3 . .\n\\99 . .\n").unwrap_err();
    assert_eq!((e.line, e.column), (3, Some(1)));
    let e = Nonogram::parse("rows\n2\n1\ncolumns\n1\nz\n").unwrap_err();
    assert_eq!((e.line, e.column), (6, Some(1)));
    let e = Hidato::parse("1 . .\n. 7 .\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, Some(3)));
    assert!(e.message.contains("past the number of cells"), "{e}");
}
