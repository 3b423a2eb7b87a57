#!/usr/bin/env python3
"""csp-core against Gecode on MiniZinc instances, each solved by `minizinc --solver S -s -t MS`.

Usage: scripts/mzn_vs_gecode.py LIST ROOT [--time-ms 20000] [--out results.tsv]

LIST has one instance per line, `MODEL.mzn [DATA.dzn ...]`, paths relative to ROOT (for example a checkout of the
public MiniZinc benchmarks: the instances are read from there, never copied into this repository); `#` starts a
comment. csp-core runs through `share/minizinc/solvers` (build `cargo build --release -p flatzinc` first); Gecode
6.2 through a copy of its Debian library without the three files that break MiniZinc 2.6.4's `globals.mzn`
(crates/flatzinc/README.md). Each run is `nice`d and sequential. Prints one row per (instance, solver) and a
summary: instances solved (a solution, or unsatisfiability, for satisfaction; the proved optimum for
optimisation), optima proved, best objectives, disagreements with Gecode (status, or different proved optima, or
a claimed optimum the other solver beats), and the geometric mean of the times on the instances both solve (wall
time of the whole `minizinc` run, and the solveTime each solver reports).

Every answer is checked, Gecode's as csp-core's (`check`): the last solution a solver prints (values of the output
variables in dzn form) is fed back to MiniZinc as constraints fixing those variables (`constraint x = [...];`),
and the model and data are compiled and solved again by the *other* solver, so no solver vouches for itself; the
printed objective must be the one the model gives. An answer the check refutes counts as `wrong`, not solved, and
is listed; a check that cannot be made (an error, no answer within the check's limit) is listed as unchecked.
"""
import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def gecode_dir(tmp):
    lib = os.path.join(tmp, "lib")
    os.makedirs(lib)
    src = "/usr/share/minizinc/gecode"
    for name in os.listdir(src):
        if name not in ("inverse.mzn", "inverse_set.mzn", "nvalue.mzn"):
            shutil.copy(os.path.join(src, name), lib)
    with open(os.path.join(tmp, "mvg-gecode.msc"), "w") as f:
        f.write(
            '{ "id": "org.csp-core.mvg-gecode", "name": "mvg-gecode", "version": "6.2.0", "mznlib": "%s",'
            ' "executable": "fzn-gecode", "tags": ["cp", "int"],'
            ' "stdFlags": ["-a", "-f", "-n", "-p", "-r", "-s", "-t"], "supportsMzn": false, "supportsFzn": true,'
            ' "needsSolns2Out": true, "needsMznExecutable": false, "needsStdlibDir": false,'
            ' "isGUIApplication": false }' % lib
        )
    return tmp


def run(solver, path, files, ms):
    env = dict(os.environ, MZN_SOLVER_PATH=path)
    cmd = ["nice", "minizinc", "--solver", solver, "-s", "-t", str(ms), "--output-mode", "dzn",
           "--output-objective"] + files
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=ms / 1000 + 60)
        out, rc = p.stdout, p.returncode
        err = p.stderr.strip().splitlines()[:2]
    except subprocess.TimeoutExpired:
        out, rc, err = "", -1, ["killed 60 s after the limit"]
    wall = time.monotonic() - start
    sols, objective, end, solve_time = 0, None, "", None
    block, last = [], ""
    for line in out.splitlines():
        if line == "----------":
            sols += 1
            last, block = "\n".join(block), []
            continue
        if not line.startswith("%") and not line.startswith("====="):
            block.append(line)
        if line.startswith("_objective = "):
            objective = int(line[len("_objective = "):].rstrip(";"))
        elif line.startswith("====="):
            end = line
        elif line.startswith("%%%mzn-stat: solveTime="):
            solve_time = float(line.split("=", 1)[1])
    optimisation = objective is not None
    if rc != 0:
        status = "error"
    elif end == "=====UNSATISFIABLE=====":
        status = "unsat"
    elif sols == 0:
        status = "unknown"
    elif optimisation:
        status = "opt" if end == "==========" else "best"
    else:
        status = "sat"
    return {"status": status, "objective": objective, "wall": wall, "solve": solve_time, "solution": last,
            "err": " ".join(err) if rc != 0 else ""}


CHECK_MS = 30000


def fixing_constraints(dzn):
    """`constraint NAME = VALUE;` for each `NAME = VALUE;` item of a dzn solution, `_objective` left out."""
    out, item, in_string = [], [], False
    for c in dzn:
        if c == '"':
            in_string = not in_string
        if c == ";" and not in_string:
            a = "".join(item).strip()
            item = []
            if "=" in a and not a.startswith("_objective"):
                out.append("constraint %s;\n" % a)
            continue
        item.append(c)
    return "".join(out)


def check(answer, files, solver, path, tmp):
    """Checks `answer` (a `run` result) with `solver`: None if there is nothing to check, else (verdict, detail),
    verdict one of `ok`, `wrong` (the values violate the model, or the objective differs) and `unchecked`."""
    if answer["status"] not in ("sat", "opt", "best") or not answer["solution"]:
        return None
    fixed = os.path.join(tmp, "fixed.mzn")
    with open(fixed, "w") as f:
        f.write(fixing_constraints(answer["solution"]))
    r = run(solver, path, files + [fixed], CHECK_MS)
    if r["status"] == "unsat":
        return ("wrong", "the printed values violate the model")
    if r["status"] in ("error", "unknown"):
        return ("unchecked", r["err"] or "no answer within %d s" % (CHECK_MS // 1000))
    if answer["objective"] is not None and r["objective"] != answer["objective"]:
        return ("wrong", "objective printed as %s, the model gives %s" % (answer["objective"], r["objective"]))
    return ("ok", "")


def solved(r):
    return r["status"] in ("sat", "unsat", "opt")


def gmean(xs):
    xs = [max(x, 1e-3) for x in xs]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("list")
    ap.add_argument("root")
    ap.add_argument("--time-ms", type=int, default=20000)
    ap.add_argument("--out", default=None, help="also write the rows as TSV here")
    a = ap.parse_args()
    instances = []
    with open(a.list) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                instances.append([os.path.join(a.root, p) for p in line.split()])
    tmp = tempfile.mkdtemp(prefix="mzn-vs-gecode-")
    solvers = [("csp-core", "org.csp-core.csp-core", os.path.join(REPO, "share/minizinc/solvers")),
               ("gecode", "org.csp-core.mvg-gecode", gecode_dir(tmp))]
    rows, results = [], {}
    header = "instance\tsolver\tstatus\tobjective\twall_s\tsolveTime_s\tcheck"
    print(header, flush=True)
    for files in instances:
        name = " ".join(os.path.relpath(p, a.root) for p in files)
        for label, solver, path in solvers:
            results[(name, label)] = run(solver, path, files, a.time_ms)
        # Each answer checked by the other solver (module doc).
        for (label, _, _), (other, solver, path) in zip(solvers, reversed(solvers)):
            r = results[(name, label)]
            verdict = check(r, files, solver, path, tmp)
            r["check"] = "-" if verdict is None else "%s by %s" % (verdict[0], other)
            r["check_detail"] = "" if verdict is None else verdict[1]
            if verdict is not None and verdict[0] == "wrong":
                r["claimed"], r["status"] = r["status"], "wrong"
            row = [name, label, r["status"], "" if r["objective"] is None else str(r["objective"]),
                   "%.2f" % r["wall"], "" if r["solve"] is None else "%.3f" % r["solve"], r["check"]]
            rows.append(row)
            notes = " ".join(x for x in (r["check_detail"], r["err"]) if x)
            print("\t".join(row) + ("\t" + notes if notes else ""), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    if a.out:
        with open(a.out, "w") as f:
            f.write(header + "\n")
            for row in rows:
                f.write("\t".join(row) + "\n")
    names = [" ".join(os.path.relpath(p, a.root) for p in files) for files in instances]
    print("\nsummary (%d instances, %d ms limit)" % (len(names), a.time_ms))
    for label, _, _ in solvers:
        rs = [results[(n, label)] for n in names]
        print("%-9s solved %d, optima proved %d, satisfiable/unsat found %d, best-at-limit %d, unknown %d, errors %d,"
              " wrong answers %d, answers checked %d, unchecked %d"
              % (label, sum(solved(r) for r in rs), sum(r["status"] == "opt" for r in rs),
                 sum(r["status"] in ("sat", "unsat") for r in rs), sum(r["status"] == "best" for r in rs),
                 sum(r["status"] == "unknown" for r in rs), sum(r["status"] == "error" for r in rs),
                 sum(r["status"] == "wrong" for r in rs), sum(r["check"].startswith("ok") for r in rs),
                 sum(r["check"].startswith("unchecked") for r in rs)))
        for n in names:
            r = results[(n, label)]
            if r["status"] == "wrong" or r["check"].startswith("unchecked"):
                print("  %s %s: %s (claimed %s %s)" % (r["check"].split()[0].upper(), n, r["check_detail"],
                                                       r.get("claimed", r["status"]), r["objective"]))
    both = [n for n in names if solved(results[(n, "csp-core")]) and solved(results[(n, "gecode")])]
    for label, _, _ in solvers:
        walls = [results[(n, label)]["wall"] for n in both]
        solves = [results[(n, label)]["solve"] for n in both if results[(n, label)]["solve"] is not None]
        print("%-9s geometric mean on the %d instances both solve: wall %.3f s, solveTime %.3f s (%d reported)"
              % (label, len(both), gmean(walls), gmean(solves), len(solves)))
    sense = {" ".join(os.path.relpath(p, a.root) for p in files): sense_of(files[0]) for files in instances}
    bad = 0
    for n in names:
        c, g = results[(n, "csp-core")], results[(n, "gecode")]
        s = {c["status"], g["status"]}
        why = None
        if "unsat" in s and s & {"sat", "opt", "best"}:
            why = "satisfiable for one, unsatisfiable for the other"
        elif c["status"] == "opt" and g["status"] == "opt" and c["objective"] != g["objective"]:
            why = "different proved optima"
        else:
            for proved, other in ((c, g), (g, c)):
                if proved["status"] == "opt" and other["objective"] is not None and sense[n] and \
                        (other["objective"] - proved["objective"]) * sense[n] < 0:
                    why = "a proved optimum beaten by the other solver"
        if why:
            bad += 1
            print("DISAGREEMENT %s: %s (csp-core %s %s, gecode %s %s)" % (
                n, why, c["status"], c["objective"], g["status"], g["objective"]))
    print("disagreements: %d" % bad)
    return 1 if bad else 0


def sense_of(model):
    """+1 for `solve minimize`, -1 for `solve maximize`, 0 otherwise (read from the model text)."""
    text = re.sub(r"%[^\n]*", "", open(model).read())
    m = re.search(r"\bsolve\b[^;]*?\b(minimize|maximize)\b", text, re.S)
    return 0 if not m else (1 if m.group(1) == "minimize" else -1)


if __name__ == "__main__":
    sys.exit(main())
