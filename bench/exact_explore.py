#!/usr/bin/env python3
"""Exact mode's exhaustive exploration (issue 21): for each uci/ data set and setting, `bnsl exact`
with a deadline, and what its exploration did: wall seconds of the exploration, sets scored and
generated, microseconds per set scored (exploration seconds times threads over sets scored),
variables cut (at their share, then again in the second pass) and whether the cache is
exhaustive; then whether OPT was proven and the list completed, and the total wall seconds and
peak RSS; with the ILP, its root LP's seconds and rounds. Run it with two binaries (--bnsl) for
a before and after.

usage: bench/exact_explore.py [--sets "wdbc alarm bands"] [--settings "bic:20"] [--count]
                              [--deadline 120] [--threads 2] [--method ilp] [--bnsl BINARY]
                              [--max-solutions N] [--max-parents K] [--data ROOT]
                              [--out DIR] [--resume]

With --max-solutions (passed to bnsl exact), also how good a list cut there is: the gap from
the best score to the worst and to the mean score listed, and OPT minus `listed_above` (the
score above which every DAG is listed, when the search finished; binaries before a3fbe3d
list the first DAGs met and report none).

With --max-parents K (bnsl exact's in-degree limit), the exploration stops at K parents and
`exhaustive`, OPT and the list are those of the networks with at most K parents per variable.

With --count (bnsl exact's, 8d6d842 on), a DP list cut at --max-solutions also says how many
DAGs lie within epsilon (`best N of M within ε`; `≥ M`: the deadline cut the count).

    bench/exact_explore.py --sets "sensors steel wdbc alarm bands" --settings "bic:20 bdeu:20"
    bench/exact_explore.py --sets "insurance1000 autos" --settings bdeu:20 --max-parents 2
    bench/exact_explore.py --bnsl out/bin/bnsl-before --out out/exact-explore-before

Writes DIR/exact_explore.csv and .md (default out/exact-explore) and prints the markdown.
A timing benchmark: run nothing else beside it.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402  (measure(): wall, CPU, peak RSS of one process)

REPO = suite.REPO


def listed_gaps(pool):
    """(best - worst, best - mean) of the scores a pool lists, computed in a child process so
    that this one stays small (see suite.measure)."""
    code = (suite.LOAD_POOL +
            "s=[d['score'] for d in load(sys.argv[1])['dags']]\n"
            "print(max(s)-min(s), max(s)-sum(s)/len(s))")
    out = subprocess.run([sys.executable, "-c", code, pool], stdout=subprocess.PIPE, text=True,
                         check=True)
    worst, mean = out.stdout.split()
    return float(worst), float(mean)


def listed_text(r):
    """The list column: complete, cut at --max-solutions, or partial, with its DAG count."""
    if not r.get("dags"):
        return "no"
    n = "{:,}".format(r["dags"])
    if r["complete"]:
        return "yes (%s)" % n
    if not r.get("truncated"):
        return "no: %s listed" % n
    if r.get("within"):  # --count's
        return "no: best %s of %s%s within ε" % (n, "" if r.get("within_exact") else "≥ ",
                                                  "{:,}".format(r["within"]))
    return "no: best %s (max solutions)" % n


def run(argv, prefix, budget, resume):
    if resume and os.path.exists(prefix + ".measure.json"):
        with open(prefix + ".measure.json") as f:
            return json.load(f)
    print("exact_explore: " + " ".join(argv), file=sys.stderr, flush=True)
    code, wall, cpu, rss = suite.measure(argv + ["--stats", prefix + ".stats.json"],
                                         prefix + ".stderr", budget)
    m = {"exit": code, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
         "peak_rss_mib": round(rss, 1)}
    if code == 0:
        with open(prefix + ".stats.json") as f:
            st = json.load(f)
        ex, ez = st["explore"], st["exact"]
        m.update(explore_s=round(ex["seconds"], 2), scored=ex["sets_scored"],
                 generated=ex["sets_generated"], cut=ex["vars_out_of_time"],
                 out_of_memory=ex["vars_out_of_memory"], retried=ex["vars_retried"],
                 entries=ex["cache_entries"], optimal=ez["optimal"], complete=ez["complete"],
                 dags=ez["solutions"], opt_s=round(ez["seconds_opt"], 2),
                 truncated=ez.get("truncated"), exact_s=round(ez["seconds"], 2),
                 root_s=round(ez.get("seconds_root", 0), 2), root_rounds=ez.get("root_rounds"),
                 collect_iterations=ez.get("collect_iterations"), collect_fixed=ez.get("collect_fixed"),
                 collect_splits=ez.get("collect_splits"), nodes=ez.get("ilp_nodes"),
                 within=ez.get("dags_within"), within_exact=ez.get("dags_within_exact"))
        if ez.get("listed_above") is not None and ez.get("best_score") is not None:
            m["above_gap"] = ez["best_score"] - ez["listed_above"]
        if "--max-solutions" in argv:
            m["worst_gap"], m["mean_gap"] = listed_gaps(prefix + ".pool.json")
    with open(prefix + ".measure.json", "w") as f:
        json.dump(m, f)
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="wdbc alarm bands")
    ap.add_argument("--settings", default="bic:20")
    ap.add_argument("--deadline", type=float, default=120)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--method", default="ilp", choices=["dp", "ilp", "auto"])
    ap.add_argument("--bnsl", default=os.path.join(REPO, "build", "bnsl"))
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "datasets"))
    ap.add_argument("--out", default=os.path.join(REPO, "out", "exact-explore"))
    ap.add_argument("--max-solutions", type=int, help="bnsl exact's --max-solutions")
    ap.add_argument("--max-parents", type=int, help="bnsl exact's --max-parents")
    ap.add_argument("--count", action="store_true",
                    help="bnsl exact's --count: past --max-solutions, the DP counts every DAG "
                    "within epsilon")
    ap.add_argument("--resume", action="store_true", help="reuse runs already measured")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name in args.sets.split():
        csv_path = os.path.join(args.data, "uci", name + ".csv")
        for setting in args.settings.split():
            score, bf = setting.split(":")
            prefix = os.path.join(args.out, "%s-%s-%s" % (name, score, bf))
            argv = [args.bnsl, "exact", csv_path, "--no-header", "-o", prefix, "-q",
                    "--method", args.method, "--score", score, "--bayes-factor", bf,
                    "--time", str(args.deadline), "--threads", str(args.threads)]
            if score == "bdeu":
                argv += ["--ess", "1"]
            if args.max_solutions:
                argv += ["--max-solutions", str(args.max_solutions)]
            if args.max_parents is not None:
                argv += ["--max-parents", str(args.max_parents)]
            if args.count:
                argv += ["--count"]
            m = run(argv, prefix, args.deadline, args.resume)
            rows.append(dict(data=name, score=score, bf=bf, **m))
    fields = ["data", "score", "bf", "exit", "explore_s", "scored", "generated", "cut",
              "out_of_memory", "retried", "entries", "optimal", "complete", "dags", "opt_s",
              "wall_s", "peak_rss_mib", "truncated", "exact_s", "above_gap", "worst_gap",
              "mean_gap", "root_s", "root_rounds", "within", "within_exact",
              "collect_iterations", "collect_fixed", "collect_splits", "nodes", "cpu_s"]
    with open(os.path.join(args.out, "exact_explore.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    lines = ["| data | score | BF | explore s | sets scored | µs per set | vars cut | exhaustive "
             "| cache entries | OPT proven | complete (DAGs) | wall s | peak RSS MiB |",
             "|---|---|---:|---:|---:|---:|---:|---|---:|---|---|---:|---:|"]
    for r in rows:
        if r["exit"] != 0:
            lines.append("| %s | %s | %s | exit %s |  |  |  |  |  |  |  | %.1f | %.0f |" % (
                r["data"], r["score"], r["bf"], r["exit"], r["wall_s"], r["peak_rss_mib"]))
            continue
        per_set = r["explore_s"] * args.threads * 1e6 / max(1, r["scored"])
        cut = r["cut"] + r["out_of_memory"]
        lines.append("| %s | %s | %s | %.1f | {:,} | %.2f | %d | %s | {:,} | %s | %s | %.1f | %.0f |"
                     .format(r["scored"], r["entries"])
                     % (r["data"], r["score"], r["bf"], r["explore_s"], per_set, cut,
                        "yes" if cut == 0 else "no", "yes" if r["optimal"] else "no",
                        listed_text(r),
                        r["wall_s"], r["peak_rss_mib"]))
    if args.max_solutions:
        lines += ["", "Lists cut at --max-solutions %s: gaps from the best score (exact s: the "
                  "solver's seconds after the exploration)." % "{:,}".format(args.max_solutions),
                  "", "| data | score | BF | DAGs | truncated | exact s | best − worst listed "
                  "| best − mean listed | every DAG above best − |", "|---|---|---:|---:|---|---:"
                  "|---:|---:|---:|"]
        for r in rows:
            if r["exit"] != 0:
                continue
            gap = r.get("above_gap")
            lines.append("| %s | %s | %s | {:,} | %s | %.1f | %.3f | %.3f | %s |".format(r["dags"])
                         % (r["data"], r["score"], r["bf"], "yes" if r.get("truncated") else "no",
                            r.get("exact_s", 0), r["worst_gap"], r["mean_gap"],
                            "%.3f" % gap if gap is not None else ""))
    rooted = [r for r in rows if r["exit"] == 0 and r.get("root_s")]
    if rooted:
        lines += ["", "The ILP's root LP (column generation and cluster cuts, before CBC): its "
                  "seconds and rounds (LP solves), and the seconds to OPT.", "",
                  "| data | score | BF | root LP s | rounds | OPT s |",
                  "|---|---|---:|---:|---:|---:|"]
        for r in rooted:
            lines.append("| %s | %s | %s | %.1f | %s | %.1f |" % (
                r["data"], r["score"], r["bf"], r["root_s"], r.get("root_rounds"), r["opt_s"]))
    collected = [r for r in rows if r["exit"] == 0 and r.get("optimal") and r.get("root_rounds")
                 and r.get("collect_iterations") is not None]
    if collected:
        lines += ["", "The ILP's collection after OPT: its seconds (exact's clock, OPT to the end), "
                  "the DAGs listed, the simplex iterations of its LP re-solves and its nodes with "
                  "CBC's (work that the load does not change), the family columns it fixed by "
                  "reduced cost and the enumerations it split (blank before the commits that "
                  "added them), and the process's CPU seconds (user and system, exploration "
                  "included: less sensitive to other jobs than the wall).", "",
                  "| data | score | BF | collection s | DAGs | complete | simplex iterations "
                  "| nodes | columns fixed | splits | CPU s |",
                  "|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
        def num(r, key):
            return "{:,}".format(r[key]) if r.get(key) is not None else ""
        for r in collected:
            lines.append("| %s | %s | %s | %.1f | {:,} | %s | {:,} | %s | %s | %s | %s |".format(
                r["dags"], r["collect_iterations"]) % (
                r["data"], r["score"], r["bf"], r["exact_s"] - r["opt_s"],
                "yes" if r["complete"] else "no", num(r, "nodes"), num(r, "collect_fixed"),
                num(r, "collect_splits"),
                "%.1f" % r["cpu_s"] if r.get("cpu_s") is not None else ""))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "exact_explore.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
