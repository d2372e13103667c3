#!/usr/bin/env python3
"""bnsl beside Tetrad's BOSS (issue 65): runs BOSS (../shared/anchors/boss.sh) on every data
set of a suite, scores its network with `bnsl eval --data` (BIC, as bnsl scores), compares it
with the true network (SHD), and puts it next to bnsl's runs of the same suite: bnsl's final
score and its best at BOSS's wall time (from the run's --trace).

usage: bench/boss.py SUITE --bnsl-results DIR [--out DIR] [--starts N] [--threads N]
                     [--timeout S] [--only REGEX] [--set KEY=VALUE ...] [--tools BINARY]
                     [--data ROOT] [--boss PATH] [--resume]

    bench/suite.py bench/suites/boss.suite                          # bnsl's runs first
    bench/boss.py bench/suites/boss.suite --bnsl-results out/suite-boss --starts 10
    bench/boss.py bench/suites/boss.suite --bnsl-results out/suite-boss --only gen2000 \\
        --threads 2 --timeout 3600

The suite file is bench/suite.py's (its data=, generate=, truth=, seeds= fields; time= and
args= are bnsl's and ignored here). BOSS has no time limit and one start is deterministic:
with --starts 1 it runs once per data set; with more starts (random orders after the first)
once per seed of the suite, with BOSS_SEED set to it. A BOSS run past --timeout is killed and
marked so. Wall and CPU seconds and peak memory are the JVM's, measured as bench/suite.py
measures bnsl (start-up and reading the CSV included). Tetrad must be built first:
`bash ../shared/anchors/tetrad_setup.sh` (see ../shared/anchors/README.md).

Output (DIR, default out/boss-SUITENAME): runs/RUN.struct (BOSS's DAG as `child: parent`
lines), RUN.stdout, RUN.stderr, RUN.result.json; results.csv and results.md, one row per BOSS
run and bnsl run of the same data set and seed.
"""
import argparse
import csv
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402  (bench/suite.py: the suite format, measure(), evaluate(), best_at())

REPO = suite.REPO
DEFAULT_BOSS = os.path.join(REPO, "..", "shared", "anchors", "boss.sh")


def boss_runs(runs, starts):
    """One BOSS run per data set, or per data set and seed when restarts make seeds matter."""
    out, seen = [], set()
    for run in runs:
        key = (suite.label_of(run), run["seed"] if starts > 1 else None)
        if key in seen:
            continue
        seen.add(key)
        out.append({**run, "boss_seed": run["seed"] if starts > 1 else None})
    return out


def boss_name(run, args):
    parts = [suite.label_of(run), "boss", f"x{args.starts}", f"t{args.threads}"]
    if run["boss_seed"]:
        parts.append("s" + run["boss_seed"])
    return "-".join(parts)


def run_boss(run, args, runs_dir):
    name = boss_name(run, args)
    prefix = os.path.join(runs_dir, name)
    result_path = prefix + ".result.json"
    if args.resume and os.path.exists(result_path):
        with open(result_path) as f:
            return json.load(f)
    if run.get("generate"):
        suite.generated(args.tools, run)
    # boss.sh's own cap (status 124): killing the shell alone would leave the JVM running.
    env = dict(os.environ, BOSS_STARTS=str(args.starts), BOSS_THREADS=str(args.threads),
               BOSS_TIMEOUT=str(int(args.timeout)))
    if run["boss_seed"]:
        env["BOSS_SEED"] = run["boss_seed"]
    struct = prefix + ".struct"
    argv = ["bash", args.boss, suite.resolve(args.data, run["data"]), struct, "bic"]
    print(f"boss: {name}: {' '.join(argv)}", file=sys.stderr, flush=True)
    if os.path.exists(struct):
        os.remove(struct)
    code, wall, cpu, rss = suite.measure(argv, prefix + ".stderr", args.timeout, env=env,
                                         stdout_path=prefix + ".stdout")
    r = {"name": name, "label": suite.label_of(run), "tool": "boss", "starts": args.starts,
         "threads": args.threads, "seed": int(run["boss_seed"]) if run["boss_seed"] else None,
         "exit": code, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
         "peak_rss_mib": round(rss, 1), "argv": " ".join(argv)}
    if code == 0 and os.path.exists(struct):
        e = suite.evaluate(args.tools, args.data, run, prefix, prefix + ".stderr", learned=struct)
        e["score"] = e.pop("learned_score", None)
        r.update(e)
    suite.write_result(result_path, r)
    return r


def bnsl_results(folder):
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "runs", "*.result.json"))):
        with open(path) as f:
            out.append(json.load(f))
    return out


COLUMNS = ["label", "tool", "time", "threads", "starts", "seed", "exit", "wall_s", "cpu_s",
           "peak_rss_mib", "score", "first_s", "at_boss_wall", "vs_boss", "at_boss_wall_vs_boss",
           "shd", "shd_cpdag", "truth_score", "name"]


def rows_for(boss, bnsl):
    """A BOSS run, then every bnsl run on its data set (and seed, when BOSS's has one)."""
    rows = [dict(boss)]
    for r in bnsl:
        if r.get("label") != boss["label"] or r.get("command") != "learn":
            continue
        if boss.get("seed") is not None and r.get("seed") != boss["seed"]:
            continue
        row = {"label": r["label"], "tool": "bnsl", "time": r.get("time"),
               "threads": r.get("threads"), "seed": r.get("seed"), "exit": r.get("exit"),
               "wall_s": r.get("wall_s"), "cpu_s": r.get("cpu_s"),
               "peak_rss_mib": r.get("peak_rss_mib"), "score": r.get("best_score"),
               "shd": r.get("shd"), "shd_cpdag": r.get("shd_cpdag"),
               "truth_score": r.get("truth_score"), "name": r.get("name"),
               "first_s": suite.derived(r)["first_at_s"]}
        if boss.get("score") is not None:
            if row["score"] is not None:
                row["vs_boss"] = round(row["score"] - boss["score"], 2)
            if boss.get("wall_s") is not None:
                row["at_boss_wall"] = suite.best_at(r.get("trace") or [], boss["wall_s"])
                if row["at_boss_wall"] is not None:
                    row["at_boss_wall_vs_boss"] = round(row["at_boss_wall"] - boss["score"], 2)
        rows.append(row)
    return rows


def write_outputs(out, rows):
    with open(os.path.join(out, "results.csv.tmp"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    os.replace(os.path.join(out, "results.csv.tmp"), os.path.join(out, "results.csv"))
    lines = ["| data | tool | time | threads | starts | seed | exit | wall s | CPU s | RSS MiB "
             "| BIC | first network s | at BOSS's wall | vs BOSS | at BOSS's wall vs BOSS | SHD |",
             "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        cells = [r.get("label"), r.get("tool"), suite.fmt(r.get("time"), 0),
                 r.get("threads"), r.get("starts"), r.get("seed"), r.get("exit"),
                 suite.fmt(r.get("wall_s"), 1), suite.fmt(r.get("cpu_s"), 1),
                 suite.fmt(r.get("peak_rss_mib"), 0), suite.fmt(r.get("score")),
                 suite.fmt(r.get("first_s"), 1),
                 # no network yet at BOSS's wall time: said, not left blank (where BOSS
                 # gave a network: vs_boss)
                 suite.fmt(r.get("at_boss_wall")) if r.get("at_boss_wall") is not None
                 else ("none yet" if r.get("first_s") is not None and
                       r.get("vs_boss") is not None else None),
                 suite.fmt(r.get("vs_boss")),
                 suite.fmt(r.get("at_boss_wall_vs_boss")), r.get("shd")]
        lines.append("| " + " | ".join("" if c is None else str(c) for c in cells) + " |")
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite")
    ap.add_argument("--bnsl-results", required=True, metavar="DIR",
                    help="bench/suite.py's output folder for the same suite (its runs/)")
    ap.add_argument("--out", help="output folder (default out/boss-SUITENAME)")
    ap.add_argument("--starts", type=int, default=1, help="BOSS_STARTS (default 1)")
    ap.add_argument("--threads", type=int, default=1, help="BOSS_THREADS (default 1)")
    ap.add_argument("--timeout", type=float, default=3600,
                    help="seconds after which a BOSS run is killed (default 3600)")
    ap.add_argument("--tools", default=os.path.join(REPO, "build", "bnsl"),
                    help="bnsl binary for generate, sample and eval (default build/bnsl)")
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "datasets"),
                    help="root of relative data paths (default ../shared/datasets)")
    ap.add_argument("--boss", default=DEFAULT_BOSS, help="boss.sh (default %(default)s)")
    ap.add_argument("--only", help="only data sets whose label matches this regular expression")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a suite field of every run (e.g. seeds=1)")
    ap.add_argument("--resume", action="store_true", help="reuse BOSS runs already measured")
    args = ap.parse_args()
    overrides = dict(s.partition("=")[::2] for s in args.set)
    try:
        runs = suite.parse_suite(args.suite, overrides)
    except (OSError, suite.SuiteError) as e:
        print(f"boss: error: {e}", file=sys.stderr)
        return 2
    if args.only:
        runs = [r for r in runs if re.search(args.only, suite.label_of(r))]
    for path, what in ((args.boss, "boss.sh"), (args.tools, "bnsl")):
        if not os.path.exists(path):
            print(f"boss: error: {what} not found at {path}", file=sys.stderr)
            return 2
    name = os.path.splitext(os.path.basename(args.suite))[0]
    out = args.out or os.path.join(REPO, "out", "boss-" + name)
    runs_dir = os.path.join(out, "runs")
    os.makedirs(runs_dir, exist_ok=True)
    bnsl = bnsl_results(args.bnsl_results)
    rows = []
    for run in boss_runs(runs, args.starts):
        b = run_boss(run, args, runs_dir)
        print(f"boss: {b['name']}: exit {b['exit']}, wall {b['wall_s']:.1f} s, BIC "
              f"{suite.fmt(b.get('score'))}", file=sys.stderr, flush=True)
        rows += rows_for(b, bnsl)
    sys.stdout.write(write_outputs(out, rows))
    print(f"boss: wrote {out}/results.csv, results.md", file=sys.stderr)
    return 0 if all(r.get("exit") == 0 for r in rows if r["tool"] == "boss") else 1


if __name__ == "__main__":
    sys.exit(main())
