//! Hidato (Hidoku): number the cells of a grid 1, 2, ..., N so that each number's cell touches the next one's,
//! horizontally, vertically or diagonally (a king's move); some numbers are given.
//!
//! # Text format
//! ```text
//! # Hidato: rows of whitespace-separated cells. `.` or `_` (or `__`) is a cell to fill, `X` is not part of
//! # the grid (a hole or the outside of a non-rectangular grid), a number 1..=N is given there.
//! .  33 35 .  .  X X X
//! .  .  24 22 .  X X X
//! ```
//! N is the number of cells that are not `X`; all rows have the same number of cells; `#` starts a comment. The
//! givens must be distinct and in 1..=N. Errors name the line, and the column of a bad token.
//!
//! Two models ([`HidatoModel`], `--model path|circuit`); in both, `at[v]` = the cell holding number `v + 1`
//! (the first N variables, over the N playable cells in row-major order), with `all_different(at)` for hidden
//! singles and the givens as root assumptions `at[g - 1] = cell`:
//! - **path** (the default): for each v a `table` on `(at[v], at[v + 1])` whose tuples are the king-adjacent
//!   pairs of cells. Arc consistency on each step, so a given number's distance-k neighbourhood prunes
//!   `at[v +- k]` through the chain.
//! - **circuit**: successors `succ[i]` (the cell after cell i: a king neighbour, or a dummy node N when i holds
//!   N) under csp-core's `circuit`, with the dummy's successor being `at[0]` itself, so the path closes into a
//!   circuit of N + 1 nodes; `succ[at[v]] = at[v + 1]` and `succ[at[N - 1]] = N` by `element` over the
//!   successor array (domain consistent, so it carries the same adjacency reasoning as the tables, plus
//!   `circuit`'s no-sub-tour pruning on the successors).
//!
//! Measured 2026-11-25 (`docs/measurements.md`, "Hidato: circuit against path"): the circuit model needs fewer
//! nodes on the hard, `--minimal` instances (default strategy 16 / 820 / 100 against 210 / 742 / 986; MRV + forward
//! checking 3,569 / 10,106 / 66,086 against 34,304 / 94,621 / 2,162,215) and fewer instructions where many
//! numbers are given (it builds no N - 1 tables of up to 8 N rows: 10x10 9.2 M against 34.6 M), but each node
//! costs far more (every `element` scopes all N successors), so on the minimal instances it ran 1.2x / 23.8x /
//! 2.6x the path model's instructions (887 M against 37 M on 8x8); since `circuit`'s forward check walks domain
//! words (same section, "after the cheaper `circuit` forward check"), 0.9x / 16.9x / 2.2x. Path
//! stays the default and the generators' oracle (their output depends on the second solution found, so the shipped
//! files pin it); circuit is kept for the node counts and as the model a cheaper `element`/`circuit` would favour.
//! The answer prints as the grid with every number filled in (`X` for holes).
//!
//! Tried and dropped (2026-11-25, the shipped set counted to 2, `docs/measurements.md`): a dual view `num[cell]`
//! channelled by csp-core's `inverse`. It cuts MRV + forward checking from 248 to 3 nodes on `gen-10x10-2`, but
//! `inverse` is a decomposition (N^2 reified Booleans), so every instance got 100-500x slower (10x10: 0.25 ms ->
//! 135 ms) while the default dom/wdeg + singles search needs the same 0-3 nodes without it. Worth re-trying if
//! `inverse` becomes a dedicated propagator.

use csp_core::{Model, Outcome, Propagation, SearchConfig, Solution, Solver, ValueOrder, VarOrder};

use crate::error::{verify_fail, ParseError, PuzzleError, VerifyError};
use crate::family::{Family, Generator, Opt, Options};
use crate::puzzle::{Encoding, Puzzle};
use crate::rng::Rng;
use crate::text::{content_lines, tokens};

/// Largest number of playable cells: the model has N variables of N values and N - 1 tables of up to 8 N pairs
/// (25 x 25 is 3.1 M table rows).
pub const MAX_CELLS: usize = 625;

/// A Hidato instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hidato {
    /// Grid width.
    pub width: usize,
    /// Grid height.
    pub height: usize,
    /// Per grid position (`r * width + c`): `None` for a hole, `Some(0)` for a cell to fill, `Some(v)` for a given
    /// number v.
    pub grid: Vec<Option<usize>>,
    /// Which csp-core model [`Puzzle::encode`] builds (not part of the puzzle: ignored by the text format).
    pub model: HidatoModel,
}

/// The two csp-core models of a Hidato (see the module doc for what each posts and the measured choice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HidatoModel {
    /// `at[v]` only, with a king-adjacency `table` per step (the default: fewer instructions on the hard
    /// instances).
    #[default]
    Path,
    /// Successor variables under `circuit`, a dummy node closing the path, linked to `at[v]` by `element`.
    Circuit,
}

impl std::str::FromStr for HidatoModel {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "circuit" => Ok(HidatoModel::Circuit),
            "path" => Ok(HidatoModel::Path),
            _ => Err(format!("unknown Hidato model `{s}` (expected circuit or path)")),
        }
    }
}

impl Hidato {
    /// Grid positions of the playable cells, row-major: playable cell `i` is position `cells()[i]`.
    pub fn cells(&self) -> Vec<usize> {
        (0..self.grid.len())
            .filter(|&p| self.grid[p].is_some())
            .collect()
    }

    /// Whether grid positions `a` and `b` are a king's move apart.
    fn adjacent(&self, a: usize, b: usize) -> bool {
        let (ra, ca) = (a / self.width, a % self.width);
        let (rb, cb) = (b / self.width, b % self.width);
        a != b && ra.abs_diff(rb) <= 1 && ca.abs_diff(cb) <= 1
    }

    /// The king's-move neighbours of every playable cell, as playable-cell indexes (`cells()` order).
    fn neighbour_lists(&self, cells: &[usize]) -> Vec<Vec<usize>> {
        let mut index = vec![usize::MAX; self.grid.len()];
        for (i, &p) in cells.iter().enumerate() {
            index[p] = i;
        }
        cells
            .iter()
            .map(|&a| {
                let (r, c) = (a / self.width, a % self.width);
                let mut out = Vec::with_capacity(8);
                for rr in r.saturating_sub(1)..=(r + 1).min(self.height.saturating_sub(1)) {
                    for cc in c.saturating_sub(1)..=(c + 1).min(self.width.saturating_sub(1)) {
                        let b = rr * self.width + cc;
                        if b != a && index.get(b).is_some_and(|&j| j != usize::MAX) {
                            out.push(index[b]);
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// The model chosen by `model` (see the module doc); variables `0..N` are `at[v]` in either, so
    /// [`Puzzle::decode`] reads both.
    pub fn encode_with(&self, model: HidatoModel) -> Result<Encoding, PuzzleError> {
        let cells = self.cells();
        let n = cells.len();
        let mut m = Model::new();
        let at = (0..n)
            .map(|_| m.new_var(0, n as i64 - 1))
            .collect::<Result<Vec<_>, _>>()?;
        if n > 1 {
            let neighbours = self.neighbour_lists(&cells);
            if neighbours.iter().all(Vec::is_empty) {
                return Err(PuzzleError::Invalid(
                    "no two cells touch, so no path numbers them".into(),
                ));
            }
            m.all_different(&at)?;
            match model {
                HidatoModel::Path => {
                    let pairs: Vec<Vec<i64>> = neighbours
                        .iter()
                        .enumerate()
                        .flat_map(|(i, ns)| ns.iter().map(move |&j| vec![i as i64, j as i64]))
                        .collect();
                    for v in 0..n - 1 {
                        m.table(&[at[v], at[v + 1]], &pairs)?;
                    }
                }
                HidatoModel::Circuit => {
                    // succ[i]: the cell after cell i, a neighbour or the dummy node n (i holds N). The dummy's
                    // successor is the cell of 1, which is at[0] itself, so the circuit reads
                    // [succ[0], .., succ[n - 1], at[0]].
                    let mut succ = Vec::with_capacity(n + 1);
                    for ns in &neighbours {
                        let values: Vec<i64> =
                            ns.iter().map(|&j| j as i64).chain([n as i64]).collect();
                        succ.push(m.new_var_with_values(&values)?);
                    }
                    let dummy = m.new_var(n as i64, n as i64)?;
                    for v in 0..n - 1 {
                        m.element_var(at[v], 0, &succ, at[v + 1])?;
                    }
                    m.element_var(at[n - 1], 0, &succ, dummy)?;
                    succ.push(at[0]);
                    m.circuit(&succ, 0)?;
                }
            }
        }
        let assumptions = cells
            .iter()
            .enumerate()
            .filter_map(|(i, &p)| match self.grid[p] {
                Some(v) if v > 0 => Some((at[v - 1], i as i64)),
                _ => None,
            })
            .collect();
        Ok(Encoding {
            problem: m.build()?,
            assumptions,
            vars: at,
        })
    }

    /// The instance in the text format.
    pub fn to_text(&self) -> String {
        let width = self.cells().len().to_string().len().max(1);
        let mut s = String::new();
        for row in self.grid.chunks(self.width.max(1)) {
            let cells: Vec<String> = row
                .iter()
                .map(|c| match c {
                    None => format!("{:>width$}", "X"),
                    Some(0) => format!("{:>width$}", "."),
                    Some(v) => format!("{v:>width$}"),
                })
                .collect();
            s.push_str(&cells.join(" "));
            s.push('\n');
        }
        s
    }
}

/// Checks a numbering directly: one number per grid position (0 for holes), the playable cells holding each of
/// 1..=N once, givens kept, and every v's cell a king's move from v + 1's.
pub fn verify_numbering(instance: &Hidato, numbers: &[usize]) -> Result<(), VerifyError> {
    if numbers.len() != instance.grid.len() {
        verify_fail!(
            "expected {} positions, got {}",
            instance.grid.len(),
            numbers.len()
        );
    }
    let n = instance.cells().len();
    let mut at = vec![usize::MAX; n + 1];
    for (p, (&g, &v)) in instance.grid.iter().zip(numbers).enumerate() {
        let (r, c) = (p / instance.width + 1, p % instance.width + 1);
        match g {
            None if v != 0 => verify_fail!("r{r}c{c} is a hole but holds {v}"),
            None => continue,
            Some(_) if v == 0 || v > n => verify_fail!("r{r}c{c} holds {v}, not a number 1..={n}"),
            Some(given) if given != 0 && given != v => {
                verify_fail!("r{r}c{c} was given as {given} but holds {v}")
            }
            Some(_) => {}
        }
        if at[v] != usize::MAX {
            verify_fail!("{v} is written twice");
        }
        at[v] = p;
    }
    for v in 1..n {
        if !instance.adjacent(at[v], at[v + 1]) {
            verify_fail!("{v} and {} are not a king's move apart", v + 1);
        }
    }
    Ok(())
}

/// This family's line in [`crate::FAMILIES`].
pub const FAMILY: Family = Family {
    options: &[Opt::value(
        "model",
        "MODEL",
        "path (a king-adjacency table per step, the default) or circuit (successors under `circuit`).",
    )
    .default("path")],
    generators: &[Generator {
        name: "hidato",
        about: "A uniquely solvable Hidato on a full rectangle: a random king's path, 1 and N given, then \
                givens added from the path until the solution is unique.",
        options: &[
            Opt::value("width", "WIDTH", "Width.").default("8"),
            Opt::value("height", "HEIGHT", "Height.").default("8"),
            Opt::value("givens", "SHARE", "Share of cells given before uniqueness is enforced.")
                .default("0.2"),
            Opt::value("seed", "SEED", "Seed.").default("1"),
            Opt::flag(
                "minimal",
                "Then drop givens (other than 1 and N) in seeded random order while the solution stays unique.",
            ),
        ],
        run: generate_text,
    }],
    datasets: &["hidato"],
    ..Family::of::<Hidato>("hidato", "Hidato (Hidoku): a king's path numbered 1..N.")
};

impl Puzzle for Hidato {
    /// The number at each grid position, row-major (0 for holes).
    type Answer = Vec<usize>;

    fn parse(text: &str) -> Result<Self, ParseError> {
        let mut grid = Vec::new();
        let mut width = None;
        let mut height = 0;
        let mut given_at: Vec<(usize, usize, usize, usize)> = Vec::new(); // (value, line, column, position)
        for (line_no, line) in content_lines(text) {
            let toks: Vec<(usize, &str)> = tokens(line).collect();
            match width {
                None => width = Some(toks.len()),
                Some(w) if w != toks.len() => {
                    return Err(ParseError::at_line(
                        line_no,
                        format!("{} cells on this row, the first row has {w}", toks.len()),
                    ))
                }
                Some(_) => {}
            }
            for &(col, tok) in &toks {
                let cell = match tok {
                    "X" | "x" => None,
                    "." | "_" | "__" => Some(0),
                    _ => {
                        let v: usize = tok.parse().ok().filter(|&v| v > 0).ok_or_else(|| {
                            ParseError::at(
                                line_no,
                                col,
                                format!("expected `.`, `X` or a number from 1, found `{tok}`"),
                            )
                        })?;
                        given_at.push((v, line_no, col, grid.len()));
                        Some(v)
                    }
                };
                grid.push(cell);
                if grid.len() > 16 * MAX_CELLS {
                    return Err(ParseError::at(line_no, col, "grid too large"));
                }
            }
            height += 1;
        }
        let width = width.unwrap_or(0);
        let n = grid.iter().filter(|c| c.is_some()).count();
        if n == 0 {
            return Err(ParseError::whole_file("no cells to number"));
        }
        if n > MAX_CELLS {
            return Err(ParseError::whole_file(format!(
                "{n} cells to number, at most {MAX_CELLS} are accepted"
            )));
        }
        let mut seen = vec![false; n + 1];
        for &(v, line, col, _) in &given_at {
            if v > n {
                return Err(ParseError::at(
                    line,
                    col,
                    format!("{v} is past the number of cells, {n}"),
                ));
            }
            if seen[v] {
                return Err(ParseError::at(line, col, format!("{v} is given twice")));
            }
            seen[v] = true;
        }
        Ok(Hidato {
            width,
            height,
            grid,
            model: HidatoModel::default(),
        })
    }

    fn encode(&self) -> Result<Encoding, PuzzleError> {
        self.encode_with(self.model)
    }

    fn configure(&mut self, options: &Options) -> Result<(), String> {
        if let Some(model) = options.get("model")? {
            self.model = model;
        }
        Ok(())
    }

    fn decode(&self, solution: &Solution) -> Vec<usize> {
        let cells = self.cells();
        let mut numbers = vec![0; self.grid.len()];
        for (v, &i) in solution.values().iter().take(cells.len()).enumerate() {
            if let Some(&p) = cells.get(i as usize) {
                numbers[p] = v + 1;
            }
        }
        numbers
    }

    fn verify(&self, answer: &Vec<usize>) -> Result<(), VerifyError> {
        verify_numbering(self, answer)
    }

    /// dom/wdeg with singles (hidden singles on `all_different`: a cell only one number can still reach takes
    /// it). On a generated 7x7 counted to 2: 3 nodes, against 43 for MRV with forward checking.
    fn default_config(&self) -> SearchConfig {
        SearchConfig::default()
            .var_order(VarOrder::DomWdeg)
            .value_order(ValueOrder::Ascending)
            .propagation(Propagation::Singles)
    }

    fn answer_text(&self, answer: &Vec<usize>) -> String {
        let filled = Hidato {
            grid: self
                .grid
                .iter()
                .zip(answer)
                .map(|(g, &v)| g.map(|_| v))
                .collect(),
            ..self.clone()
        };
        filled.to_text()
    }

    /// The rows as arrays of numbers, 0 for holes.
    fn answer_json(&self, answer: &Vec<usize>) -> serde_json::Value {
        let rows: Vec<Vec<usize>> = answer
            .chunks(self.width.max(1))
            .map(<[usize]>::to_vec)
            .collect();
        serde_json::Value::from(rows)
    }
}

/// A random king's path through every cell of a `width x height` rectangle (Warnsdorff's rule: go to the
/// neighbour with the fewest free neighbours, random ties; restart from a new random cell when stuck).
fn random_path(width: usize, height: usize, rng: &mut Rng) -> Vec<usize> {
    let n = width * height;
    let neighbours = |p: usize| {
        let (r, c) = ((p / width) as i64, (p % width) as i64);
        let mut out = Vec::with_capacity(8);
        for dr in -1..=1 {
            for dc in -1..=1 {
                let (rr, cc) = (r + dr, c + dc);
                if (dr, dc) != (0, 0)
                    && (0..height as i64).contains(&rr)
                    && (0..width as i64).contains(&cc)
                {
                    out.push(rr as usize * width + cc as usize);
                }
            }
        }
        out
    };
    loop {
        let mut used = vec![false; n];
        let mut path = vec![rng.below_usize(n)];
        used[path[0]] = true;
        while path.len() < n {
            let here = path[path.len() - 1];
            let mut options: Vec<(usize, usize)> = neighbours(here)
                .into_iter()
                .filter(|&q| !used[q])
                .map(|q| (neighbours(q).iter().filter(|&&x| !used[x]).count(), q))
                .collect();
            if options.is_empty() {
                break;
            }
            rng.shuffle(&mut options);
            options.sort_by_key(|o| o.0);
            let next = options[0].1;
            used[next] = true;
            path.push(next);
        }
        if path.len() == n {
            return path;
        }
    }
}

/// A seeded Hidato on a full `width x height` rectangle with a unique solution: a random king's path, its ends
/// and a `givens` share of its cells given, then while the engine finds a second solution, the true number of a
/// cell where that solution differs is given too. Returns the instance and its solution (numbers row-major).
pub fn generate_unique(
    width: usize,
    height: usize,
    givens: f64,
    seed: u64,
) -> Result<(Hidato, Vec<usize>), PuzzleError> {
    let n = width * height;
    if n == 0 {
        return Err(PuzzleError::Invalid("a Hidato needs at least one cell".into()));
    }
    let mut rng = Rng::new(seed);
    let path = random_path(width, height, &mut rng);
    let mut numbers = vec![0; n];
    for (v, &p) in path.iter().enumerate() {
        numbers[p] = v + 1;
    }
    let mut inst = Hidato {
        width,
        height,
        grid: vec![Some(0); n],
        // The generator's uniqueness oracle is pinned: the second solution it finds decides which given comes
        // next, so another model would generate other files from the same seed.
        model: HidatoModel::Path,
    };
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let share = (givens.clamp(0.0, 1.0) * n as f64).round() as usize;
    for &p in order.iter().take(share).chain([&path[0], &path[n - 1]]) {
        inst.grid[p] = Some(numbers[p]);
    }
    let config = inst.default_config();
    loop {
        let enc = inst.encode()?;
        let (found, outcome, _) = Solver::new(&enc.problem, config.clone()).solutions(&enc.assumptions, 2);
        if matches!(outcome, Outcome::Limit(_)) {
            return Err(PuzzleError::Invalid("the uniqueness check hit a limit".into()));
        }
        let other = found
            .iter()
            .map(|s| inst.decode(s))
            .find(|s| *s != numbers);
        let Some(other) = other else {
            return Ok((inst, numbers));
        };
        let Some(p) = (0..n).find(|&p| other[p] != numbers[p]) else {
            return Ok((inst, numbers));
        };
        inst.grid[p] = Some(numbers[p]);
    }
}

/// Drops the givens of a uniquely solvable instance, except 1 and N, one at a time in seeded random order, each
/// drop kept only while the engine still counts exactly one solution (a count that hits a limit keeps the given).
pub fn minimize_givens(instance: &Hidato, seed: u64) -> Result<Hidato, PuzzleError> {
    let n = instance.cells().len();
    let mut inst = instance.clone();
    let mut order: Vec<usize> = (0..inst.grid.len())
        .filter(|&p| matches!(inst.grid[p], Some(v) if v > 1 && v < n))
        .collect();
    Rng::new(seed).shuffle(&mut order);
    let config = inst.default_config();
    for p in order {
        let keep = inst.grid[p];
        inst.grid[p] = Some(0);
        let enc = inst.encode()?;
        let c = Solver::new(&enc.problem, config.clone()).count(&enc.assumptions, 2);
        if !(c.outcome == Outcome::Solved && c.count == 1) {
            inst.grid[p] = keep;
        }
    }
    Ok(inst)
}

/// `puzzles generate hidato`: the instance with `#` lines saying how it was made and its solution.
fn generate_text(options: &Options) -> Result<String, String> {
    let width: usize = options.require("width")?;
    let height: usize = options.require("height")?;
    let givens: f64 = options.require("givens")?;
    let seed: u64 = options.require("seed")?;
    if width == 0 || height == 0 || width * height > 400 {
        return Err("generated Hidato needs 1..=400 cells".into());
    }
    let (mut inst, numbers) =
        generate_unique(width, height, givens, seed).map_err(|e| e.to_string())?;
    let minimal = options.flag("minimal");
    if minimal {
        inst = minimize_givens(&inst, seed).map_err(|e| e.to_string())?;
    }
    let given = inst.grid.iter().filter(|g| matches!(g, Some(v) if *v > 0)).count();
    let sol: Vec<String> = numbers.iter().map(usize::to_string).collect();
    Ok(format!(
        "# Hidato {width}x{height}, unique solution, {given} givens \
         (puzzles generate hidato --width {width} --height {height} --givens {givens} --seed {seed}{})\n\
         # solution {}\n{}",
        if minimal { " --minimal" } else { "" },
        sol.join(" "),
        inst.to_text()
    ))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parse_reads_holes_and_givens_and_names_bad_tokens() {
        let h = Hidato::parse("1 . X\n. 4 .\n").unwrap();
        assert_eq!((h.width, h.height, h.cells().len()), (3, 2, 5));
        assert_eq!(Hidato::parse(&h.to_text()).unwrap(), h);
        let e = Hidato::parse("1 . X\n. 9 .\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(3)));
        let e = Hidato::parse("1 . X\n. 1 .\n").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        let e = Hidato::parse("1 . X\n. ?\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = Hidato::parse("1 . X\n. ? .\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, Some(3)));
        assert_eq!(Hidato::parse("X X\n").unwrap_err().line, 0);
    }

    #[test]
    fn the_checker_rejects_a_broken_path() {
        let h = Hidato::parse("1 . .\n").unwrap();
        assert!(verify_numbering(&h, &[1, 2, 3]).is_ok());
        assert!(verify_numbering(&h, &[1, 3, 2]).is_err());
        assert!(verify_numbering(&h, &[2, 1, 3]).is_err());
        assert!(verify_numbering(&h, &[1, 2, 2]).is_err());
    }
}
