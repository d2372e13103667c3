#!/usr/bin/env python3
"""Deadline under load (issue 24): how far past `--time T` bnsl ends when the machine is
oversubscribed. Runs each run of the given suites (and, with --commands, the same data set
through `score`, `search` on a cache made beforehand, or `exact`) once per level of background
load: BUSY processes that spin on a core each for the whole run. The overshoot is the process's
wall time (measured around it, reading the data included) minus T; the README promises T + 1 s.

usage: bench/deadline.py SUITE [SUITE ...] [--busy 0,2,4] [--commands learn,score,search]
                         [--set time=20 ...] [--only REGEX] [--bnsl BINARY] [--out DIR]
                         [--resume]

    bench/deadline.py bench/suites/samples.suite --set time=20 --set seeds=1
    bench/deadline.py bench/suites/samples.suite --commands score,search --set time=20 \\
        --set seeds=1
    bench/deadline.py bench/suites/exact.suite --set time=20
    bench/deadline.py bench/suites/scale.suite --set time=120 --set seeds=1

A suite line's own command runs unless --commands lists others (learn lines can run as score,
search or exact; exact only on data sets of at most --exact-max-vars columns). `search` reads a
cache that `bnsl score --time T` writes once per data set, without load, into
DIR/caches/LABEL.jkl. The busy processes run at the same priority as bnsl.

Output (DIR, default out/deadline-SUITES): runs/NAME.* (bnsl's stderr, stats and trace; its
pool, cache, BIF and DOT files only with --keep-outputs),
results.csv (one row per run) and results.md: per suite, command and busy level, the runs and
the largest overshoot, with the run it came from. Needs only Python 3 and bench/suite.py.
"""
import argparse
import csv
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402  (bench/suite.py: suite files, data paths, measuring a process)

COMMANDS = ("learn", "score", "search", "exact")


def busy(count):
    """count processes that each keep one core busy until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def stop_all(procs):
    for p in procs:
        p.kill()
    for p in procs:
        p.wait()


def columns(path):
    with open(path) as f:
        first = f.readline()
    return len(first.split(",")) if first else 0


def cache_for(bnsl, data_root, run, out):
    """The score cache `search` reads: made once per data set, without load."""
    path = os.path.join(out, "caches", suite.label_of(run) + ".jkl")
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        argv = [bnsl, "score", suite.resolve(data_root, run["data"]), "-o", path, "-q"]
        if run["time"]:
            argv += ["--time", run["time"]]
        if run["threads"]:
            argv += ["--threads", run["threads"]]
        if run.get("header") == "no":
            argv.append("--no-header")
        print(f"deadline: cache: {' '.join(argv)}", file=sys.stderr, flush=True)
        subprocess.run(argv, check=True)
    return path


KEPT = (".stderr", ".stats.json", ".trace")


def drop_outputs(prefix):
    """Deletes a run's output files (PREFIX.pool.json, .cache.jkl, ...) but not KEPT."""
    folder, stem = os.path.split(prefix)
    for name in os.listdir(folder):
        if name.startswith(stem + ".") and not name.endswith(KEPT):
            os.remove(os.path.join(folder, name))


def argv_for(args, run, command, prefix):
    r = dict(run, command=command)
    argv = suite.bnsl_argv(args.bnsl, args.data, r, prefix)
    if command == "search":  # a cache instead of the data
        argv[2] = cache_for(args.bnsl, args.data, run, args.out)
    return argv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+")
    ap.add_argument("--busy", default="0,2,4", help="busy processes per level (default 0,2,4)")
    ap.add_argument("--commands", help="commands to run each data set with (default: the "
                    "suite line's own); any of " + ", ".join(COMMANDS))
    ap.add_argument("--exact-max-vars", type=int, default=64,
                    help="exact runs only on data sets of at most this many columns")
    ap.add_argument("--bnsl", default=os.path.join(suite.REPO, "build", "bnsl"))
    ap.add_argument("--data", default=os.path.join(suite.REPO, "..", "shared", "datasets"))
    ap.add_argument("--only", help="only runs whose name matches this regular expression")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a suite field of every run (e.g. time=20, seeds=1)")
    ap.add_argument("--out", help="output folder (default out/deadline-SUITES)")
    ap.add_argument("--resume", action="store_true", help="keep runs already measured")
    ap.add_argument("--keep-outputs", action="store_true",
                    help="keep each run's pool, cache, BIF and DOT files (default: deleted once "
                    "measured, as a suite's pools fill gigabytes; stderr, stats and trace stay)")
    args = ap.parse_args()
    overrides = dict(s.partition("=")[::2] for s in args.set)
    commands = args.commands.split(",") if args.commands else None
    if commands and any(c not in COMMANDS for c in commands):
        ap.error(f"--commands: expected some of {', '.join(COMMANDS)}")
    levels = [int(b) for b in args.busy.split(",")]
    names = [os.path.splitext(os.path.basename(s))[0] for s in args.suites]
    args.out = args.out or os.path.join(suite.REPO, "out", "deadline-" + "-".join(names))
    runs_dir = os.path.join(args.out, "runs")
    os.makedirs(runs_dir, exist_ok=True)
    csv_path = os.path.join(args.out, "results.csv")
    fields = ["suite", "label", "command", "time", "busy", "name", "exit", "wall_s",
              "overshoot_s", "argv"]
    done = {}
    if args.resume and os.path.exists(csv_path):
        with open(csv_path) as f:
            done = {r["name"]: r for r in csv.DictReader(f)}
    rows = []
    for path, suite_name in zip(args.suites, names):
        for run in suite.parse_suite(path, overrides):
            if run.get("generate"):
                suite.generated(args.bnsl, run)
            for command in commands or [run["command"]]:
                data = suite.resolve(args.data, run["data"])
                if command == "exact" and columns(data) > args.exact_max_vars:
                    continue
                for level in levels:
                    name = f"{suite.run_name(dict(run, command=command))}-busy{level}"
                    if args.only and not re.search(args.only, name):
                        continue
                    if name in done:
                        rows.append(done[name])
                        continue
                    prefix = os.path.join(runs_dir, name)
                    argv = argv_for(args, run, command, prefix)
                    print(f"deadline: {name}: {' '.join(argv)}", file=sys.stderr, flush=True)
                    load = busy(level)
                    try:
                        code, wall, _, _ = suite.measure(argv, prefix + ".stderr", run["time"])
                    finally:
                        stop_all(load)
                    if not args.keep_outputs:
                        drop_outputs(prefix)
                    over = wall - float(run["time"]) if run["time"] else None
                    rows.append({"suite": suite_name, "label": suite.label_of(run),
                                 "command": command, "time": run["time"], "busy": level,
                                 "name": name, "exit": code, "wall_s": round(wall, 3),
                                 "overshoot_s": None if over is None else round(over, 3),
                                 "argv": " ".join(argv)})
                    print(f"deadline: {name}: exit {code}, wall {wall:.2f} s, over "
                          f"{over:+.2f} s", file=sys.stderr, flush=True)
                    with open(csv_path + ".tmp", "w", newline="") as f:
                        w = csv.DictWriter(f, fieldnames=fields)
                        w.writeheader()
                        w.writerows(rows)
                    os.replace(csv_path + ".tmp", csv_path)
    table = ["| suite | command | budget s | busy | runs | max overshoot s | at | exits |",
             "|---|---|---:|---:|---:|---:|---|---|"]
    groups = {}
    for r in rows:
        groups.setdefault((r["suite"], r["command"], r["time"], int(r["busy"])), []).append(r)
    for (s, c, t, b), rs in groups.items():
        worst = max(rs, key=lambda r: float(r["overshoot_s"]))
        exits = ",".join(sorted({str(r["exit"]) for r in rs}))
        table.append(f"| {s} | {c} | {t} | {b} | {len(rs)} | {float(worst['overshoot_s']):+.2f} "
                     f"| {worst['label']} | {exits} |")
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(table) + "\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
