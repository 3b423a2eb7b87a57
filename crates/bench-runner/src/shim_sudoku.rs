//! TEMPORARY stand-in for the `sudoku` crate's registry contract, used only until the real crate lands on main.
//! Delete this file (and its `mod` line) once `sudoku::registry()` exists.
#![allow(missing_docs)]

use std::io::BufRead;
use std::time::Instant;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    box_size: usize,
    cells: Vec<u8>,
}

impl Board {
    pub fn box_size(&self) -> usize {
        self.box_size
    }
    pub fn side(&self) -> usize {
        self.box_size * self.box_size
    }
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&c| match c {
                0 => '.',
                1..=9 => (b'0' + c) as char,
                _ => (b'A' + c - 10) as char,
            })
            .collect()
    }
    fn parse(s: &str) -> Result<Board, String> {
        let box_size = match s.chars().count() {
            16 => 2,
            81 => 3,
            256 => 4,
            n => return Err(format!("a grid line has {n} cells, expected 16, 81 or 256")),
        };
        let n = box_size * box_size;
        let mut cells = Vec::with_capacity(n * n);
        for (i, ch) in s.chars().enumerate() {
            let v = match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u8 - b'0',
                'A'..='Z' => ch as u8 - b'A' + 10,
                _ => return Err(format!("cell {}: unexpected character {ch:?}", i + 1)),
            };
            if v as usize > n {
                return Err(format!("cell {}: value {ch:?} too large", i + 1));
            }
            cells.push(v);
        }
        Ok(Board { box_size, cells })
    }
}

pub struct Puzzle {
    pub board: Board,
    pub solution: Option<Board>,
}

#[derive(Debug)]
pub struct ParseError(String);
impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub struct Record {
    pub line: usize,
    pub item: Result<Puzzle, ParseError>,
}

pub struct Reader<R> {
    inner: R,
    line: usize,
    buf: String,
}

impl<R: BufRead> Reader<R> {
    pub fn new(inner: R) -> Self {
        Reader {
            inner,
            line: 0,
            buf: String::new(),
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = Record;
    fn next(&mut self) -> Option<Record> {
        loop {
            self.buf.clear();
            match self.inner.read_line(&mut self.buf) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => {
                    self.line += 1;
                    return Some(Record {
                        line: self.line,
                        item: Err(ParseError(e.to_string())),
                    });
                }
            }
            self.line += 1;
            let t = self.buf.trim();
            if t.is_empty()
                || t.starts_with('#')
                || t.starts_with("quizzes")
                || t.starts_with("puzzle")
            {
                continue;
            }
            let mut parts = t.split_whitespace().next().unwrap_or("").split(',');
            let grid = parts.next().unwrap_or("");
            let item = Board::parse(grid).and_then(|board| {
                let solution = parts.next().map(Board::parse).transpose()?;
                if let Some(house) = clash(&board) {
                    return Err(format!("givens clash in {house}"));
                }
                Ok(Puzzle { board, solution })
            });
            return Some(Record {
                line: self.line,
                item: item.map_err(ParseError),
            });
        }
    }
}

fn clash(b: &Board) -> Option<String> {
    let n = b.side();
    for house in 0..3 * n {
        let mut seen = 0u64;
        for k in 0..n {
            let c = cell_of(b.box_size, house, k);
            let v = b.cells[c];
            if v != 0 {
                if seen & (1 << v) != 0 {
                    return Some(format!("house {house}"));
                }
                seen |= 1 << v;
            }
        }
    }
    None
}

fn cell_of(bs: usize, house: usize, k: usize) -> usize {
    let n = bs * bs;
    match house / n {
        0 => (house % n) * n + k,
        1 => k * n + house % n,
        _ => {
            let b = house % n;
            ((b / bs) * bs + k / bs) * n + (b % bs) * bs + k % bs
        }
    }
}

pub struct Request {
    pub solution_limit: u64,
    pub limits: csp_core::Limits,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Solved,
    Unsatisfiable,
    Limit,
}

pub struct Report {
    pub status: Status,
    pub solution: Option<Board>,
    pub count: u64,
    pub stats: csp_core::Stats,
}

pub trait Solve: Send {
    fn solve(&mut self, board: &Board, req: &Request) -> Report;
}

pub struct SolverInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub supports: fn(box_size: usize) -> bool,
    pub make: fn() -> Box<dyn Solve>,
}

static REGISTRY: [SolverInfo; 2] = [
    SolverInfo {
        name: "naive",
        description: "shim: row-major DFS scanning houses",
        supports: |b| b <= 4,
        make: || Box::new(Dfs { tables: false }),
    },
    SolverInfo {
        name: "table",
        description: "shim: row-major DFS with used-tables",
        supports: |b| b <= 4,
        make: || Box::new(Dfs { tables: true }),
    },
];

pub fn registry() -> &'static [SolverInfo] {
    &REGISTRY
}

pub fn find(name: &str) -> Option<&'static SolverInfo> {
    REGISTRY.iter().find(|s| s.name == name)
}

pub fn verify(puzzle: &Board, solution: &Board) -> Result<(), String> {
    if puzzle.box_size != solution.box_size {
        return Err("size differs".into());
    }
    for (i, (&g, &s)) in puzzle.cells.iter().zip(&solution.cells).enumerate() {
        if g != 0 && g != s {
            return Err(format!("cell {} changes a given", i + 1));
        }
        if s == 0 {
            return Err(format!("cell {} is empty", i + 1));
        }
    }
    match clash(solution) {
        Some(h) => Err(format!("{h} repeats a digit")),
        None => Ok(()),
    }
}

struct Dfs {
    tables: bool,
}

struct Search<'a> {
    cells: Vec<u8>,
    bs: usize,
    used: Vec<u64>,
    tables: bool,
    req: &'a Request,
    start: Instant,
    stats: csp_core::Stats,
    first: Option<Vec<u8>>,
    stopped: bool,
}

impl Search<'_> {
    fn houses(&self, c: usize) -> [usize; 3] {
        let n = self.bs * self.bs;
        let (r, col) = (c / n, c % n);
        [r, n + col, 2 * n + (r / self.bs) * self.bs + col / self.bs]
    }
    fn ok(&self, c: usize, v: u8) -> bool {
        if self.tables {
            return self.houses(c).iter().all(|&h| self.used[h] & (1 << v) == 0);
        }
        self.houses(c)
            .iter()
            .all(|&h| (0..self.bs * self.bs).all(|k| self.cells[cell_of(self.bs, h, k)] != v))
    }
    fn dfs(&mut self, from: usize) {
        let Some(c) = (from..self.cells.len()).find(|&c| self.cells[c] == 0) else {
            self.stats.solutions += 1;
            if self.first.is_none() {
                self.first = Some(self.cells.clone());
            }
            return;
        };
        let n = (self.bs * self.bs) as u8;
        let cands: Vec<u8> = (1..=n).filter(|&v| self.ok(c, v)).collect();
        if cands.len() > 1 {
            self.stats.guesses += 1;
        }
        for v in cands {
            if self.stopped || self.stats.solutions >= self.req.solution_limit {
                return;
            }
            if self
                .req
                .limits
                .exceeded(self.stats.nodes, self.start)
                .is_some()
            {
                self.stopped = true;
                return;
            }
            self.stats.nodes += 1;
            self.cells[c] = v;
            let hs = self.houses(c);
            hs.iter().for_each(|&h| self.used[h] |= 1 << v);
            self.dfs(c + 1);
            hs.iter().for_each(|&h| self.used[h] &= !(1 << v));
            self.cells[c] = 0;
        }
        self.stats.fails += 1;
    }
}

impl Solve for Dfs {
    fn solve(&mut self, board: &Board, req: &Request) -> Report {
        let bs = board.box_size;
        let mut used = vec![0u64; 3 * bs * bs];
        for (c, &v) in board.cells.iter().enumerate() {
            if v != 0 {
                let n = bs * bs;
                let (r, col) = (c / n, c % n);
                for h in [r, n + col, 2 * n + (r / bs) * bs + col / bs] {
                    used[h] |= 1 << v;
                }
            }
        }
        let mut s = Search {
            cells: board.cells.clone(),
            bs,
            used,
            tables: self.tables,
            req,
            start: Instant::now(),
            stats: csp_core::Stats::default(),
            first: None,
            stopped: false,
        };
        s.dfs(0);
        s.stats.time = s.start.elapsed();
        let status = if s.stats.solutions > 0 {
            Status::Solved
        } else if s.stopped {
            Status::Limit
        } else {
            Status::Unsatisfiable
        };
        Report {
            status,
            count: s.stats.solutions,
            solution: s.first.map(|cells| Board {
                box_size: bs,
                cells,
            }),
            stats: s.stats,
        }
    }
}
