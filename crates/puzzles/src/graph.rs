//! Undirected simple graphs: DIMACS `.col` reading and writing, the generated benchmark families (queen graphs,
//! Mycielski graphs), a greedy maximum clique and DSATUR colouring. No engine here: these are the parts of graph
//! colouring that are plain graph algorithms.
//!
//! # DIMACS `.col` format
//! ```text
//! c a comment line (any line starting with `c`)
//! p edge 5 4          <- problem line: `p edge V E` (`p col V E` is accepted too); exactly one, before any edge
//! e 1 2               <- an edge between vertices 1 and 2 (1-based)
//! e 2 3
//! ```
//! Blank lines are ignored. Duplicate edges (many published files list each edge in both directions) are merged,
//! so `E` is not required to match the number of `e` lines. Self-loops are rejected: such a graph has no colouring.

use crate::error::ParseError;
use crate::text::tokens;

/// Most vertices a graph may have: a `p edge` line with a huge count must not allocate gigabytes.
pub const MAX_VERTICES: usize = 1_000_000;

/// A simple undirected graph on vertices `0..n`.
///
/// Invariant: `adj[v]` is sorted, holds no duplicates and never `v` itself; `u` is in `adj[v]` iff `v` is in
/// `adj[u]`; `edges` lists each edge once as `(u, v)` with `u < v`, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    adj: Vec<Vec<u32>>,
    edges: Vec<(u32, u32)>,
}

impl Graph {
    /// A graph on `n` vertices with the given edges (0-based; duplicates merged, either direction).
    /// `Err` names the first edge with an endpoint out of range or a self-loop.
    pub fn new(n: usize, edges: impl IntoIterator<Item = (usize, usize)>) -> Result<Self, String> {
        if n > MAX_VERTICES {
            return Err(format!("too many vertices: {n} (at most {MAX_VERTICES})"));
        }
        let mut list = Vec::new();
        for (u, v) in edges {
            if u >= n || v >= n {
                return Err(format!("edge ({u}, {v}) names a vertex outside 0..{n}"));
            }
            if u == v {
                return Err(format!(
                    "self-loop on vertex {u}: such a graph has no colouring"
                ));
            }
            list.push((u.min(v) as u32, u.max(v) as u32));
        }
        list.sort_unstable();
        list.dedup();
        let mut adj = vec![Vec::new(); n];
        for &(u, v) in &list {
            adj[u as usize].push(v);
            adj[v as usize].push(u);
        }
        for a in &mut adj {
            a.sort_unstable();
        }
        Ok(Self { adj, edges: list })
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        self.adj.len()
    }

    /// Every edge once, `(u, v)` with `u < v`, sorted.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// Neighbours of `v`, sorted.
    pub fn neighbours(&self, v: usize) -> &[u32] {
        &self.adj[v]
    }

    /// Whether `u` and `v` are adjacent (binary search in the sorted list).
    pub fn adjacent(&self, u: usize, v: usize) -> bool {
        self.adj[u].binary_search(&(v as u32)).is_ok()
    }

    /// Reads a DIMACS `.col` file (see the module docs). Errors carry the line and column.
    pub fn parse_dimacs(text: &str) -> Result<Self, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut n: Option<usize> = None;
        let mut edges = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let toks: Vec<(usize, &str)> = tokens(raw).collect();
            let Some(&(col0, head)) = toks.first() else {
                continue;
            };
            match head {
                "c" => continue,
                "p" => {
                    if n.is_some() {
                        return Err(ParseError::at(
                            line_no,
                            col0,
                            "second problem line (`p ...`)",
                        ));
                    }
                    if toks.len() != 4 {
                        return Err(ParseError::at_line(
                            line_no,
                            format!(
                                "problem line must be `p edge V E`, found {} fields",
                                toks.len()
                            ),
                        ));
                    }
                    let (fc, format) = toks[1];
                    if format != "edge" && format != "col" {
                        return Err(ParseError::at(
                            line_no,
                            fc,
                            format!("unknown format `{format}` (expected `edge`)"),
                        ));
                    }
                    let v = parse_count(line_no, toks[2])?;
                    parse_count(line_no, toks[3])?;
                    if v > MAX_VERTICES {
                        return Err(ParseError::at(
                            line_no,
                            toks[2].0,
                            format!("too many vertices: {v} (at most {MAX_VERTICES})"),
                        ));
                    }
                    n = Some(v);
                }
                "e" => {
                    let Some(nv) = n else {
                        return Err(ParseError::at(
                            line_no,
                            col0,
                            "edge before the problem line `p edge V E`",
                        ));
                    };
                    if toks.len() != 3 {
                        return Err(ParseError::at_line(
                            line_no,
                            format!("edge line must be `e U V`, found {} fields", toks.len()),
                        ));
                    }
                    let u = parse_vertex(line_no, toks[1], nv)?;
                    let v = parse_vertex(line_no, toks[2], nv)?;
                    if u == v {
                        return Err(ParseError::at(
                            line_no,
                            toks[2].0,
                            format!(
                                "self-loop on vertex {}: such a graph has no colouring",
                                u + 1
                            ),
                        ));
                    }
                    edges.push((u, v));
                }
                other if other.starts_with('c') => continue,
                other => {
                    return Err(ParseError::at(
                        line_no,
                        col0,
                        format!("unknown line type `{other}` (expected `c`, `p` or `e`)"),
                    ))
                }
            }
        }
        let n = n.ok_or_else(|| ParseError::whole_file("no problem line `p edge V E` found"))?;
        Graph::new(n, edges).map_err(ParseError::whole_file)
    }

    /// Writes the graph in DIMACS `.col` format, each edge once, with a comment line naming it.
    pub fn to_dimacs(&self, name: &str) -> String {
        let mut s = format!(
            "c {name}\np edge {} {}\n",
            self.vertices(),
            self.edges.len()
        );
        for &(u, v) in &self.edges {
            s.push_str(&format!("e {} {}\n", u + 1, v + 1));
        }
        s
    }
}

fn parse_count(line: usize, (col, tok): (usize, &str)) -> Result<usize, ParseError> {
    tok.parse().map_err(|_| {
        ParseError::at(
            line,
            col,
            format!("expected a non-negative integer, found `{tok}`"),
        )
    })
}

fn parse_vertex(line: usize, (col, tok): (usize, &str), n: usize) -> Result<usize, ParseError> {
    let v = parse_count(line, (col, tok))?;
    if v == 0 || v > n {
        return Err(ParseError::at(
            line,
            col,
            format!("vertex {v} is outside 1..={n}"),
        ));
    }
    Ok(v - 1)
}

/// The queen graph `queenR_C`: one vertex per square of an R x C board (row-major, vertex `r * C + c`), an edge
/// between two squares a queen moves between (same row, column or diagonal). Its chromatic number is the fewest
/// colours in which R x C squares split into sets of mutually non-attacking queens.
pub fn queen_graph(rows: usize, cols: usize) -> Graph {
    let mut edges = Vec::new();
    for a in 0..rows * cols {
        let (r1, c1) = (a / cols, a % cols);
        for b in a + 1..rows * cols {
            let (r2, c2) = (b / cols, b % cols);
            if r1 == r2 || c1 == c2 || r1.abs_diff(r2) == c1.abs_diff(c2) {
                edges.push((a, b));
            }
        }
    }
    // Endpoints are in range and distinct by construction.
    Graph::new(rows * cols, edges).unwrap_or_else(|_| unreachable_graph())
}

/// The Mycielski graph `mycielK` of the DIMACS benchmarks: `myciel2` is the 5-cycle and `mycielK+1` is the
/// Mycielskian of `mycielK` (vertices v_i, copies u_i, apex w; u_i joins the neighbours of v_i, w joins every u_i).
/// It has chromatic number K + 1 and no triangle, so the clique bound (2) is as weak as it gets:
/// myciel3 = 11 vertices (the Grötzsch graph), myciel4 = 23, myciel5 = 47, myciel6 = 95. `k` is clamped to 1..=12;
/// `myciel1` is K2.
pub fn mycielski_graph(k: usize) -> Graph {
    let mut n = 2;
    let mut edges = vec![(0usize, 1usize)];
    for _ in 1..k.clamp(1, 12) {
        let mut next = edges.clone();
        for &(a, b) in &edges {
            next.push((a, n + b));
            next.push((n + a, b));
        }
        for i in 0..n {
            next.push((n + i, 2 * n));
        }
        edges = next;
        n = 2 * n + 1;
    }
    Graph::new(n, edges).unwrap_or_else(|_| unreachable_graph())
}

fn unreachable_graph() -> Graph {
    Graph {
        adj: Vec::new(),
        edges: Vec::new(),
    }
}

/// A large clique found greedily: from every start vertex, repeatedly add the candidate (adjacent to all chosen)
/// with the most neighbours among the remaining candidates; keep the largest. Not always maximum, always a clique.
/// Returned vertices are in the order they were added. O(n^2 * d) on the sizes colouring benchmarks have.
pub fn greedy_clique(g: &Graph) -> Vec<usize> {
    let n = g.vertices();
    let mut best: Vec<usize> = Vec::new();
    let mut cand: Vec<usize> = Vec::with_capacity(n);
    for start in 0..n {
        if g.neighbours(start).len() < best.len() {
            continue; // cannot beat the best: a clique through `start` has at most deg + 1 vertices
        }
        let mut clique = vec![start];
        cand.clear();
        cand.extend(g.neighbours(start).iter().map(|&v| v as usize));
        while !cand.is_empty() {
            let pick = cand
                .iter()
                .copied()
                .max_by_key(|&v| {
                    (
                        cand.iter().filter(|&&w| g.adjacent(v, w)).count(),
                        usize::MAX - v,
                    )
                })
                .unwrap_or(cand[0]);
            clique.push(pick);
            cand.retain(|&w| w != pick && g.adjacent(pick, w));
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best
}

/// Covers every edge by cliques, greedily: for each edge not yet covered (in sorted order), grow a maximal
/// clique from its two ends, preferring the common neighbour with the most uncovered edges into the clique's
/// candidates, then mark all its edges covered. Returns cliques of at least two vertices; every edge lies in
/// at least one. On queen graphs this recovers the rows, columns and diagonals.
pub fn clique_cover(g: &Graph) -> Vec<Vec<usize>> {
    let mut covered: std::collections::HashSet<(u32, u32)> = std::collections::HashSet::new();
    let mut cliques = Vec::new();
    let mut cand: Vec<usize> = Vec::new();
    for &(u, v) in g.edges() {
        if covered.contains(&(u, v)) {
            continue;
        }
        let mut clique = vec![u as usize, v as usize];
        cand.clear();
        cand.extend(
            g.neighbours(u as usize)
                .iter()
                .map(|&w| w as usize)
                .filter(|&w| g.adjacent(w, v as usize)),
        );
        while !cand.is_empty() {
            let key = |w: usize| {
                let fresh = clique
                    .iter()
                    .filter(|&&c| !covered.contains(&(c.min(w) as u32, c.max(w) as u32)))
                    .count();
                let inner = cand.iter().filter(|&&x| g.adjacent(w, x)).count();
                (fresh + inner, usize::MAX - w)
            };
            let pick = cand
                .iter()
                .copied()
                .max_by_key(|&w| key(w))
                .unwrap_or(cand[0]);
            clique.push(pick);
            cand.retain(|&w| w != pick && g.adjacent(pick, w));
        }
        for (i, &a) in clique.iter().enumerate() {
            for &b in &clique[i + 1..] {
                covered.insert((a.min(b) as u32, a.max(b) as u32));
            }
        }
        clique.sort_unstable();
        cliques.push(clique);
    }
    cliques
}

/// DSATUR (Brélaz 1979): colour next the vertex whose neighbours use the most distinct colours (ties: higher
/// degree, then lower id), with the smallest colour free for it. Returns colours `0..k` per vertex; an upper bound
/// on the chromatic number that is often tight on these benchmarks.
pub fn dsatur(g: &Graph) -> Vec<usize> {
    let n = g.vertices();
    const NONE: usize = usize::MAX;
    let mut color = vec![NONE; n];
    // neighbour_colors[v] = set of colours on coloured neighbours of v, as a growable bit vector.
    let mut neighbour_colors: Vec<Vec<u64>> = vec![Vec::new(); n];
    let mut saturation = vec![0usize; n];
    for _ in 0..n {
        let mut pick = NONE;
        for v in 0..n {
            if color[v] != NONE {
                continue;
            }
            if pick == NONE
                || (saturation[v], g.neighbours(v).len())
                    > (saturation[pick], g.neighbours(pick).len())
            {
                pick = v;
            }
        }
        let used = &neighbour_colors[pick];
        let mut c = 0;
        while used.get(c / 64).is_some_and(|w| w >> (c % 64) & 1 == 1) {
            c += 1;
        }
        color[pick] = c;
        for &w in g.neighbours(pick) {
            let w = w as usize;
            let set = &mut neighbour_colors[w];
            if set.len() <= c / 64 {
                set.resize(c / 64 + 1, 0);
            }
            if set[c / 64] >> (c % 64) & 1 == 0 {
                set[c / 64] |= 1 << (c % 64);
                saturation[w] += 1;
            }
        }
    }
    color
}

/// Checks a colouring directly: one colour per vertex, each below `k`, no edge with equal colours at both ends.
pub fn verify_coloring(
    g: &Graph,
    colors: &[usize],
    k: usize,
) -> Result<(), crate::error::VerifyError> {
    use crate::error::verify_fail;
    if colors.len() != g.vertices() {
        verify_fail!("expected {} colours, got {}", g.vertices(), colors.len());
    }
    if let Some((v, c)) = colors.iter().enumerate().find(|(_, &c)| c >= k) {
        verify_fail!("vertex {} has colour {c}, outside 0..{k}", v + 1);
    }
    if let Some(&(u, v)) = g
        .edges()
        .iter()
        .find(|&&(u, v)| colors[u as usize] == colors[v as usize])
    {
        verify_fail!(
            "edge {}-{} joins two vertices of colour {}",
            u + 1,
            v + 1,
            colors[u as usize]
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn queen_graphs_have_the_published_sizes() {
        // DIMACS queen5_5: 25 vertices, 160 edges; queen8_8: 64 vertices, 728 edges.
        assert_eq!(queen_graph(5, 5).edges().len(), 160);
        assert_eq!(queen_graph(8, 8).vertices(), 64);
        assert_eq!(queen_graph(8, 8).edges().len(), 728);
    }

    #[test]
    fn mycielski_graphs_have_the_published_sizes() {
        for (k, n, e) in [(3, 11, 20), (4, 23, 71), (5, 47, 236), (6, 95, 755)] {
            let g = mycielski_graph(k);
            assert_eq!((g.vertices(), g.edges().len()), (n, e), "myciel{k}");
        }
    }

    #[test]
    fn mycielski_graphs_are_triangle_free_so_the_clique_bound_is_two() {
        let g = mycielski_graph(5);
        assert_eq!(greedy_clique(&g).len(), 2);
    }

    #[test]
    fn greedy_clique_finds_a_full_row_of_the_queen_graph() {
        let g = queen_graph(6, 6);
        let c = greedy_clique(&g);
        assert_eq!(c.len(), 6);
        for (i, &a) in c.iter().enumerate() {
            for &b in &c[i + 1..] {
                assert!(g.adjacent(a, b));
            }
        }
    }

    #[test]
    fn clique_cover_covers_every_edge_with_cliques_and_finds_queen_lines() {
        for g in [queen_graph(6, 6), mycielski_graph(4)] {
            let cover = clique_cover(&g);
            for c in &cover {
                for (i, &a) in c.iter().enumerate() {
                    for &b in &c[i + 1..] {
                        assert!(g.adjacent(a, b));
                    }
                }
            }
            for &(u, v) in g.edges() {
                let (u, v) = (u as usize, v as usize);
                assert!(cover.iter().any(|c| c.contains(&u) && c.contains(&v)));
            }
        }
        // The rows and columns of the board are among the cliques (greedy may add a few mixed triangles to
        // the 6 + 6 + 18 lines).
        let cover = clique_cover(&queen_graph(6, 6));
        for i in 0..6 {
            let row: Vec<usize> = (0..6).map(|j| i * 6 + j).collect();
            let col: Vec<usize> = (0..6).map(|j| j * 6 + i).collect();
            assert!(cover.contains(&row) && cover.contains(&col), "line {i}");
        }
        assert!(cover.len() < 40, "{}", cover.len());
    }

    #[test]
    fn dsatur_colourings_are_proper() {
        for g in [queen_graph(7, 7), mycielski_graph(5)] {
            let c = dsatur(&g);
            let k = c.iter().max().unwrap() + 1;
            verify_coloring(&g, &c, k).unwrap();
        }
    }

    #[test]
    fn dimacs_round_trips() {
        let g = mycielski_graph(4);
        assert_eq!(Graph::parse_dimacs(&g.to_dimacs("myciel4")).unwrap(), g);
    }

    #[test]
    fn dimacs_accepts_duplicate_edges_comments_and_blank_lines() {
        let g = Graph::parse_dimacs("c hi\n\np edge 3 4\ne 1 2\ne 2 1\ne 2 3\n").unwrap();
        assert_eq!(g.edges(), &[(0, 1), (1, 2)]);
    }

    #[test]
    fn malformed_dimacs_gives_line_numbered_errors() {
        let cases = [
            ("p edge 3 1\ne 1 4\n", 2, Some(5)),
            ("e 1 2\np edge 3 1\n", 1, Some(1)),
            ("p edge 3 1\ne 1 x\n", 2, Some(5)),
            ("p edge 3 1\ne 2 2\n", 2, Some(5)),
            ("p edge 3\n", 1, None),
            ("p edge 3 1\np edge 3 1\n", 2, Some(1)),
            ("p edge 3 1\nq 1 2\n", 2, Some(1)),
            ("p edge 3 1\ne 1\n", 2, None),
            ("p graph 3 1\n", 1, Some(3)),
        ];
        for (text, line, col) in cases {
            let e = Graph::parse_dimacs(text).unwrap_err();
            assert_eq!((e.line, e.column), (line, col), "{text:?}: {e}");
        }
        assert_eq!(Graph::parse_dimacs("c only\n").unwrap_err().line, 0);
        let huge = Graph::parse_dimacs("p edge 2000000 1\n").unwrap_err();
        assert_eq!((huge.line, huge.column), (1, Some(8)), "{huge}");
    }

    #[test]
    fn verifier_rejects_a_monochromatic_edge() {
        let g = Graph::new(3, [(0, 1), (1, 2)]).unwrap();
        assert!(verify_coloring(&g, &[0, 1, 0], 2).is_ok());
        assert!(verify_coloring(&g, &[0, 0, 1], 2).is_err());
        assert!(verify_coloring(&g, &[0, 1, 2], 2).is_err());
        assert!(verify_coloring(&g, &[0, 1], 2).is_err());
    }
}
