"""Measurements of the csp-sudoku package, one run each (figures for the package notes; not a test).

    python measure.py solve FILE [--repeat K] [--cli PATH]   # per-thread throughput vs `sudoku solve -j 1`
    python measure.py peers FILE [--count 1000] [--budget 40]  # vs py-sudoku and python-constraint (pip install them)
    python measure.py generate [--count 10000]                 # minimal 9x9 generation: time, share rated >= 12
    python measure.py optimize [--cities 9] [--seed 1]         # branch and bound vs re-solving, on a random tour

`solve` runs the CLI on the same input (the file repeated K times) and the package with threads=1, and prints wall
and CPU seconds of both: the CLI parses and prints, so the package is timed twice, solving a ready array (the numpy
path) and reading the file plus solving. CPU time is what "per thread" means on a shared machine.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

import csp_sudoku as cs


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def solve(args):
    with tempfile.TemporaryDirectory() as tmp:
        path = args.file
        if args.repeat > 1:
            path = os.path.join(tmp, "repeated.txt")
            with open(args.file, "rb") as src:
                data = src.read()
            with open(path, "wb") as dst:
                for _ in range(args.repeat):
                    dst.write(data)
        c0, t0 = _cpu_children(), time.perf_counter()
        with open(os.devnull, "wb") as null:
            subprocess.run([args.cli, "solve", "-j", "1", path], stdout=null, check=False)
        cli_wall, cli_cpu = time.perf_counter() - t0, _cpu_children() - c0

        c0, t0 = _cpu_self(), time.perf_counter()
        batches = list(cs.read(path, chunk=1 << 30))
        puzzles = batches[0].puzzles
        read_wall, read_cpu = time.perf_counter() - t0, _cpu_self() - c0
        c0, t0 = _cpu_self(), time.perf_counter()
        r = cs.solve(puzzles, threads=1)
        solve_wall, solve_cpu = time.perf_counter() - t0, _cpu_self() - c0
    n = len(puzzles)
    assert (r.status == "solved").all()
    print(f"{args.file} x{args.repeat}: {n} puzzles")
    print(f"  CLI sudoku solve -j 1      : wall {cli_wall:7.2f} s  cpu {cli_cpu:7.2f} s  {n / cli_cpu:10.0f} puzzles/cpu-s")
    print(f"  cs.solve(array, threads=1) : wall {solve_wall:7.2f} s  cpu {solve_cpu:7.2f} s  {n / solve_cpu:10.0f} puzzles/cpu-s"
          f"  ({cli_cpu / solve_cpu:.0%} of the CLI's per-thread throughput)")
    print(f"  cs.read + cs.solve         : wall {read_wall + solve_wall:7.2f} s  cpu {read_cpu + solve_cpu:7.2f} s"
          f"  {n / (read_cpu + solve_cpu):10.0f} puzzles/cpu-s  ({cli_cpu / (read_cpu + solve_cpu):.0%})")


def peers(args):
    lines = [l.split()[0] for l in open(args.file) if l.strip() and not l.startswith("#")][: args.count]
    puzzles, errors = cs.parse(lines)
    assert not errors
    t0 = time.perf_counter()
    ours = cs.solve(puzzles, threads=1)
    ours_s = time.perf_counter() - t0
    print(f"{len(lines)} puzzles of {args.file}")
    print(f"  csp_sudoku (threads=1): {ours_s:.4f} s, {len(lines) / ours_s:,.0f} puzzles/s")

    def run(name, solve_one):
        t0 = time.perf_counter()
        done = 0
        for i, line in enumerate(lines):
            grid = solve_one(puzzles[i])
            assert (grid == ours.solutions[i]).all(), (name, i)
            done += 1
            if time.perf_counter() - t0 > args.budget:
                break
        s = time.perf_counter() - t0
        rate = done / s
        print(f"  {name}: {done} puzzles in {s:.2f} s, {rate:,.1f} puzzles/s; csp_sudoku is "
              f"{(len(lines) / ours_s) / rate:,.0f}x faster")

    from sudoku import Sudoku  # py-sudoku

    def py_sudoku(row):
        board = [[int(v) or None for v in row[r * 9:(r + 1) * 9]] for r in range(9)]
        return np.array(Sudoku(3, 3, board=board).solve().board, dtype=np.uint8).ravel()

    import constraint  # python-constraint

    def python_constraint(row):
        p = constraint.Problem()
        for cell in range(81):
            p.addVariable(cell, [int(row[cell])] if row[cell] else list(range(1, 10)))
        for k in range(9):
            p.addConstraint(constraint.AllDifferentConstraint(), [k * 9 + c for c in range(9)])
            p.addConstraint(constraint.AllDifferentConstraint(), [r * 9 + k for r in range(9)])
            b = (k // 3) * 27 + (k % 3) * 3
            p.addConstraint(constraint.AllDifferentConstraint(), [b + r * 9 + c for r in range(3) for c in range(3)])
        s = p.getSolution()
        return np.array([s[c] for c in range(81)], dtype=np.uint8)

    run("py-sudoku", py_sudoku)
    run("python-constraint", python_constraint)


def generate(args):
    t0 = time.perf_counter()
    g = cs.generate(9, args.count, seed=1, threads=args.threads)
    s = time.perf_counter() - t0
    print(f"generate(9, {args.count}, seed=1, minimal=True, threads={args.threads}): {s:.1f} s, "
          f"{args.count / s:,.0f} puzzles/s; rated >= 12: {(g.rating >= 12).mean():.2%}; "
          f"mean clues {(g.puzzles > 0).sum(axis=1).mean():.1f}")


def optimize(args):
    """The shortest round trip through random cities (circuit + element), minimised twice: by the engine's branch
    and bound (`Model.minimize`), and by re-solving under `length <= best - 1` until unsatisfiable, which is what
    `minimize` did before csp-core had branch and bound."""
    from csp_sudoku.engine import Model

    rng = np.random.default_rng(args.seed)
    n = args.cities
    dist = rng.integers(1, 50, size=(n, n))

    def tour():
        m = Model()
        succ = [m.int_var(0, n - 1, f"next{i}") for i in range(n)]
        legs = [m.int_var(1, 49, f"leg{i}") for i in range(n)]
        m.circuit(succ)
        for i in range(n):
            m.element(succ[i], [int(d) for d in dist[i]], legs[i])
        return m, [(1, leg) for leg in legs]

    m, length = tour()
    t0 = time.perf_counter()
    native = m.minimize(length)
    native_s = time.perf_counter() - t0

    m, length = tour()
    t0 = time.perf_counter()
    nodes, solves, best = 0, 0, None
    while True:
        r = m.solve()
        nodes, solves = nodes + r.stats["nodes"], solves + 1
        if r.status != "solved":
            break
        best = sum(a * r[x] for a, x in length)
        m.linear(length, "<=", best - 1)
    loop_s = time.perf_counter() - t0
    assert native.status == "optimal" and native.objective == best, (native, best)
    print(f"{n} cities, seed {args.seed}: optimum {best}")
    print(f"  branch and bound : {native.stats['nodes']:9,} nodes  {native_s:6.2f} s  "
          f"{native.improvements} improvements, one search")
    print(f"  re-solving       : {nodes:9,} nodes  {loop_s:6.2f} s  {solves} searches")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("solve")
    a.add_argument("file")
    a.add_argument("--repeat", type=int, default=1)
    a.add_argument("--cli", default=os.path.join(os.path.dirname(__file__), "../../../target/release/sudoku"))
    a = sub.add_parser("peers")
    a.add_argument("file")
    a.add_argument("--count", type=int, default=1000)
    a.add_argument("--budget", type=float, default=40.0, help="seconds per peer, at most")
    a = sub.add_parser("generate")
    a.add_argument("--count", type=int, default=10000)
    a.add_argument("--threads", type=int, default=None)
    a = sub.add_parser("optimize")
    a.add_argument("--cities", type=int, default=9)
    a.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    {"solve": solve, "peers": peers, "generate": generate, "optimize": optimize}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
