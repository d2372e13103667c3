#!/usr/bin/env python3
"""Exact mode's class listing against its DAG listing (issue 22): for each uci/ data set and
setting, `bnsl exact` twice with the same deadline and method, once listing every DAG within
epsilon and once with --classes (each equivalence class once); then --k-best K and
--k-best-classes K (with --nogoods also --classes --class-nogoods, the ILP's class listing by
imset no-good rows). Per run: whether the list is complete, the classes and the DAGs in them
(dag_count, the sum of the class sizes), the DAGs listed, the DAGs the class listing reached
(the DP's enumeration or the ILP's collection), seconds to OPT, wall seconds and peak RSS (exploration included). `same`: on the
class listing's row, whether its classes (essential graph, score within 1e-9 relative, size)
are exactly those of the DAG listing when that is complete.

usage: bench/exact_classes.py [--sets "hepatitis parkinsons autos"] [--settings "bic:20 bic:150"]
                              [--method dp] [--deadline 600] [--k 100] [--max-solutions M]
                              [--nogoods] [--dags-method dp]
                              [--bnsl BINARY]
                              [--data ROOT] [--out DIR] [--resume]

    bench/exact_classes.py                                  # issue 22's rows (about an hour)
    bench/exact_classes.py --sets hepatitis --settings bic:150 --deadline 120

Writes DIR/exact_classes.csv and .md (default out/exact-classes) and prints the markdown.
A timing benchmark: run nothing else beside it.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402  (measure(), pool_header())

REPO = suite.REPO
MODES = [("dags", []), ("classes", ["--classes"])]


def same_classes(dag_pool, class_pool):
    """Whether two pools hold the same classes (essential graph, score, size), compared in a
    child process (loading pools here would inflate later runs' peak RSS: suite.measure)."""
    code = (suite.LOAD_POOL + "import json\n"
            "k=lambda f:{(json.dumps(c['arcs']),json.dumps(c['edges'])):(c['score'],c['size'])"
            " for c in load(f)['classes']}\n"
            "a,b=k(sys.argv[1]),k(sys.argv[2])\n"
            "print(int(a.keys()==b.keys() and all(a[x][1]==b[x][1] and abs(a[x][0]-b[x][0])"
            "<=1e-9*max(1,abs(a[x][0])) for x in a)))")
    out = subprocess.run([sys.executable, "-c", code, dag_pool, class_pool],
                         stdout=subprocess.PIPE, text=True, check=True)
    return out.stdout.strip() == "1"


def run(argv, prefix, budget, resume):
    if resume and os.path.exists(prefix + ".measure.json"):
        with open(prefix + ".measure.json") as f:
            return json.load(f)
    print("exact_classes: " + " ".join(argv), file=sys.stderr, flush=True)
    code, wall, _, rss = suite.measure(argv + ["--stats", prefix + ".stats.json"],
                                       prefix + ".stderr", budget)
    m = {"exit": code, "wall_s": round(wall, 2), "peak_rss_mib": round(rss, 1)}
    if code == 0:
        head = suite.pool_header(prefix + ".pool.json")
        with open(prefix + ".stats.json") as f:
            st = json.load(f)["exact"]
        m.update(complete=head["complete"], optimal=head["optimal"],
                 classes=head["class_count"], dags=head["dag_count"],
                 listed=head["dags_listed"],
                 reached=st.get("enum_leaves", 0) or st.get("collect_dags", 0),
                 opt_s=round(st["seconds_opt"], 2))
    with open(prefix + ".measure.json", "w") as f:
        json.dump(m, f)
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default="hepatitis parkinsons autos")
    ap.add_argument("--settings", default="bic:20 bic:150")
    ap.add_argument("--method", default="dp", choices=["dp", "ilp", "auto"])
    ap.add_argument("--deadline", type=float, default=600)
    ap.add_argument("--k", type=int, default=100, help="K of the --k-best rows (0: none)")
    ap.add_argument("--max-solutions", type=int, help="bnsl's --max-solutions (DAGs or classes)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dags-method", choices=["dp", "ilp", "auto"],
                    help="method of the DAG listing the classes are compared with (default: "
                         "--method; dp checks the ILP's classes on rows its DAG list cannot finish)")
    ap.add_argument("--nogoods", action="store_true",
                    help="also --classes --class-nogoods (with --method ilp)")
    ap.add_argument("--bnsl", default=os.path.join(REPO, "build", "bnsl"))
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "datasets"))
    ap.add_argument("--out", default=os.path.join(REPO, "out", "exact-classes"))
    ap.add_argument("--resume", action="store_true", help="reuse runs already measured")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    modes = list(MODES)
    if args.nogoods:
        modes.append(("classes, no-goods", ["--classes", "--class-nogoods"]))
    if args.k > 0:
        modes += [("k-best %d" % args.k, ["--k-best", str(args.k)]),
                  ("k-best-classes %d" % args.k, ["--k-best-classes", str(args.k)])]
    rows = []
    for name in args.sets.split():
        csv_path = os.path.join(args.data, "uci", name + ".csv")
        for setting in args.settings.split():
            score, bf = setting.split(":")
            for mode, flags in modes:
                prefix = os.path.join(args.out, "%s-%s-%s-%s" % (
                    name, score, bf, mode.replace(" ", "").replace(",", "")))
                method = args.dags_method if mode == "dags" and args.dags_method else args.method
                argv = [args.bnsl, "exact", csv_path, "--no-header", "-o", prefix, "-q",
                        "--method", method, "--score", score, "--bayes-factor", bf,
                        "--time", str(args.deadline), "--threads", str(args.threads)] + flags
                if score == "bdeu":
                    argv += ["--ess", "1"]
                if args.max_solutions:
                    argv += ["--max-solutions", str(args.max_solutions)]
                m = run(argv, prefix, args.deadline, args.resume)
                if mode.startswith("classes") and m.get("complete") and dags_complete:
                    m["same"] = same_classes(dag_prefix + ".pool.json", prefix + ".pool.json")
                if mode == "dags":
                    dag_prefix, dags_complete = prefix, m.get("complete")
                label = mode if method == args.method else "%s (%s)" % (mode, method)
                rows.append(dict(data=name, score=score, bf=bf, mode=label, **m))
    fields = ["data", "score", "bf", "mode", "exit", "complete", "classes", "dags", "listed",
              "reached", "same", "opt_s", "wall_s", "peak_rss_mib"]
    with open(os.path.join(args.out, "exact_classes.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    lines = ["| data | score | BF | listing | complete | classes | DAGs in them | DAGs listed "
             "| DAGs reached | same | OPT s | wall s | peak RSS MiB |",
             "|---|---|---:|---|---|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in rows:
        if r["exit"] != 0:
            lines.append("| %s | %s | %s | %s | exit %s |  |  |  |  |  |  | %.1f | %.0f |" % (
                r["data"], r["score"], r["bf"], r["mode"], r["exit"], r["wall_s"],
                r["peak_rss_mib"]))
            continue
        same = {True: "yes", False: "NO"}.get(r.get("same"), "")
        lines.append("| %s | %s | %s | %s | %s | {:,} | {} | {:,} | {} | {} | %.2f | %.1f | %.0f |"
                     .format(r["classes"], "{:,}".format(int(r["dags"])), r["listed"],
                             "{:,}".format(r["reached"]) if r["reached"] else "", same)
                     % (r["data"], r["score"], r["bf"], r["mode"],
                        "yes" if r["complete"] else "no", r["opt_s"], r["wall_s"],
                        r["peak_rss_mib"]))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "exact_classes.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
