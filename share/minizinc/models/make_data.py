"""Generates the Kakuro, Nonogram and Hidato data of share/minizinc/models (seeded; each instance kept only when
`minizinc --solver csp-core -a` finds exactly one solution, Hidato givens added until it does)."""
import random, subprocess, sys, os, re, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

def solutions(model, dzn_text, limit=2):
    with tempfile.NamedTemporaryFile('w', suffix='.dzn', delete=False) as f:
        f.write(dzn_text)
    out = subprocess.run(['minizinc', '--solver', 'csp-core', '-n', str(limit), '--output-mode', 'dzn',
                          os.path.join(HERE, model), f.name], capture_output=True, text=True, check=True).stdout
    os.unlink(f.name)
    return [b.strip() for b in out.split('----------') if b.strip() and not b.strip().startswith('==')]

def grid_ints(sol, name):
    body = re.search(r'\b' + name + r' = ([^;]*);', sol).group(1)
    return [int(t) for t in re.findall(r'-?\d+', body.split('[', 1)[1])]

def fmt2d(g):
    return '[|' + '\n |'.join(','.join(str(v) for v in row) for row in g) + '|]'

def kakuro(rng, rows, cols, black):
    while True:
        white = [[0] * cols for _ in range(rows)]
        for i in range(1, rows):
            for j in range(1, cols):
                white[i][j] = int(rng.random() > black)
        def runs():
            out = []
            for d in (0, 1):
                for i in range(rows):
                    for j in range(cols):
                        pi, pj = (i, j - 1) if d == 0 else (i - 1, j)
                        if white[i][j] and not (pi >= 0 and pj >= 0 and white[pi][pj]):
                            l = 0
                            while i + d * l < rows and j + (1 - d) * l < cols and white[i + d * l][j + (1 - d) * l]:
                                l += 1
                            out.append((i, j, d, l))
            return out
        rs = runs()
        if any(l == 1 or l > 9 for *_, l in rs) or sum(map(sum, white)) < (rows - 1) * (cols - 1) // 2:
            continue
        cells = [(i, j) for i in range(rows) for j in range(cols) if white[i][j]]
        member = {c: [] for c in cells}
        for k, (i, j, d, l) in enumerate(rs):
            for t in range(l):
                member[(i + d * t, j + (1 - d) * t)].append(k)
        val = {}
        def fill(n):
            if n == len(cells):
                return True
            c = cells[n]
            used = {val[o] for k in member[c] for o in val if k in member[o]}
            # Extreme digits first (runs of small or large digits have few combinations, so uniqueness is likely).
            for v in (range(1, 10) if rng.random() < 0.5 else range(9, 0, -1)):
                if v not in used:
                    val[c] = v
                    if fill(n + 1):
                        return True
                    del val[c]
            return False
        if not fill(0):
            continue
        lines = [(i + 1, j + 1, d, l, sum(val[(i + d * t, j + (1 - d) * t)] for t in range(l))) for i, j, d, l in rs]
        dzn = (f'rows = {rows};\ncols = {cols};\nwhite = {fmt2d(white)};\nnruns = {len(lines)};\n'
               'runs = [|' + '\n|'.join(','.join(map(str, r)) for r in lines) + '|];\n')
        if len(solutions('kakuro.mzn', dzn)) == 1:
            return dzn

def nonogram(rng, rows, cols, density):
    while True:
        g = [[int(rng.random() < density) for _ in range(cols)] for _ in range(rows)]
        def clue(line):
            return [len(r) for r in ''.join(map(str, line)).split('0') if r]
        rc = [clue(r) for r in g]
        cc = [clue([g[i][j] for i in range(rows)]) for j in range(cols)]
        rl, cl = max(1, max(map(len, rc))), max(1, max(map(len, cc)))
        pad = lambda cs, l: [c + [0] * (l - len(c)) for c in cs]
        dzn = (f'rows = {rows};\ncols = {cols};\nrlen = {rl};\nclen = {cl};\n'
               f'row_clue = {fmt2d(pad(rc, rl))};\ncol_clue = {fmt2d(pad(cc, cl))};\n')
        if len(solutions('nonogram.mzn', dzn)) == 1:
            return dzn

def hidato(rng, rows, cols, share):
    n = rows * cols
    def nbrs(c):
        i, j = divmod(c, cols)
        return [a * cols + b for a in range(i - 1, i + 2) for b in range(j - 1, j + 2)
                if 0 <= a < rows and 0 <= b < cols and (a, b) != (i, j)]
    while True:
        path = [rng.randrange(n)]
        seen = set(path)
        while len(path) < n:
            opts = [c for c in nbrs(path[-1]) if c not in seen]
            if not opts:
                break
            rng.shuffle(opts)
            c = min(opts, key=lambda c: len([d for d in nbrs(c) if d not in seen]))
            path.append(c)
            seen.add(c)
        if len(path) == n:
            break
    number = {c: k + 1 for k, c in enumerate(path)}
    given = {path[0], path[-1]} | set(rng.sample(range(n), int(share * n)))
    while True:
        g = [[number[i * cols + j] if i * cols + j in given else 0 for j in range(cols)] for i in range(rows)]
        dzn = f'rows = {rows};\ncols = {cols};\ngiven = {fmt2d(g)};\n'
        sols = solutions('hidato.mzn', dzn)
        if len(sols) == 1:
            return dzn
        # Give a cell where the two solutions found differ.
        a, b = grid_ints(sols[0], 'x'), grid_ints(sols[1], 'x')
        given.add(rng.choice([c for c in range(n) if a[c] != b[c]]))

if __name__ == '__main__':
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    rng = random.Random(seed)
    jobs = [('kakuro-01', lambda: kakuro(rng, 5, 5, 0.3)), ('kakuro-02', lambda: kakuro(rng, 5, 6, 0.3)),
            ('nonogram-01', lambda: nonogram(rng, 8, 8, 0.6)), ('nonogram-02', lambda: nonogram(rng, 12, 12, 0.6)),
            ('hidato-01', lambda: hidato(rng, 4, 5, 0.3)), ('hidato-02', lambda: hidato(rng, 6, 6, 0.25))]
    only = sys.argv[2:]
    for name, f in jobs:
        dzn = f()
        if only and name not in only:
            continue
        with open(os.path.join(HERE, name + '.dzn'), 'w') as out:
            out.write(f'% Generated by `python3 make_data.py {seed}`: one solution.\n' + dzn)
        print(name, 'ok', flush=True)
