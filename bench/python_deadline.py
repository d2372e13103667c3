#!/usr/bin/env python3
"""The Python API's deadline (issue 57): how long `bnsl.learn(path, time=T)` takes to return,
conversion to a Result included, on generated networks of 200 and 2,000 variables (the scale
suite's generator settings: in-degree 0..4, arities 2-4, 5,000 rows; out/generated/). The
promise is T + 1 s. Each case runs in a fresh interpreter (Debian's /usr/bin/python3), which
times the call alone, then how long the lazy pool takes to give its first and last DAG and
class as networkx graphs, and, with --iterate, to build them all.

usage: bench/python_deadline.py [--build build] [--cases gen200:10,gen2000:60] [--iterate]
                                [--threads 2] [--runs 1] [--pythonpath DIR]

    flock -x /work/locks/machine bench/python_deadline.py --cases gen200:10
    flock -x /work/locks/machine bench/python_deadline.py --cases gen2000:60

The package is imported from BUILD/python (scripts/build.sh BUILD -DBNSL_PYTHON=ON), from
--pythonpath DIR (e.g. an older build's package, for a before/after), or with --installed the
interpreter's own (e.g. a venv's python given with --python). Prints one
line per run: variables, T, the call's wall time and its excess over T, the pool's size, and
the lazy accesses' times.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402  (bench/suite.py: generated data sets in out/generated/)

GENERATE = {"gen200": "--vars 200 --max-parents 4 --arity 2:4 --seed 1",
            "gen2000": "--vars 2000 --max-parents 4 --arity 2:4 --seed 1"}

CHILD = r"""
import json, sys, time
import bnsl
path, budget, threads, iterate = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
start = time.monotonic()
r = bnsl.learn(path, time=budget, threads=threads, seed=1)
wall = time.monotonic() - start
out = {"vars": len(r.variables), "time": budget, "wall": wall, "classes": len(r.classes),
       "dags": len(r.dags), "edges": len(r.edges), "best": r.best_score}
t = time.monotonic(); r.dags[0]; r.dags[-1]; r.classes[0]; r.classes[-1]
out["first_last"] = time.monotonic() - t
if iterate:
    t = time.monotonic(); n = sum(g.number_of_edges() for g in r.dags)
    out["all_dags"] = time.monotonic() - t
print(json.dumps(out))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(suite.REPO, "build"))
    ap.add_argument("--bnsl", help="the binary that generates the data (default BUILD/bnsl)")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--installed", action="store_true")
    ap.add_argument("--pythonpath", help="import bnsl from DIR/bnsl")
    ap.add_argument("--cases", default="gen200:10,gen2000:60")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--iterate", action="store_true")
    args = ap.parse_args()
    bnsl = args.bnsl or os.path.join(args.build, "bnsl")
    env = dict(os.environ)
    if args.pythonpath:
        env["PYTHONPATH"] = os.path.abspath(args.pythonpath)
    elif not args.installed:
        env["PYTHONPATH"] = os.path.join(os.path.abspath(args.build), "python")
    for case in args.cases.split(","):
        label, budget = case.split(":")
        run = {"label": label, "generate": GENERATE[label], "rows": "5000"}
        suite.generated(bnsl, run)
        for _ in range(args.runs):
            p = subprocess.run([args.python, "-c", CHILD, run["data"], budget,
                                str(args.threads), "1" if args.iterate else "0"],
                               env=env, stdout=subprocess.PIPE, text=True, check=True)
            r = json.loads(p.stdout.strip().splitlines()[-1])
            line = (f"{label}: {r['vars']} variables, time={r['time']:g}: returned after "
                    f"{r['wall']:.2f} s (T {r['wall'] - r['time']:+.2f} s); "
                    f"{r['classes']:,} classes, {r['dags']:,} DAGs, {r['edges']:,} edge rows; "
                    f"first and last DAG and class {r['first_last'] * 1000:.0f} ms")
            if "all_dags" in r:
                line += f"; every DAG as a graph {r['all_dags']:.1f} s"
            print(line, flush=True)


if __name__ == "__main__":
    main()
