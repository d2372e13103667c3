#!/usr/bin/env python3
"""The heuristic pool against exact mode's complete list (issue 27): for each uci/ data set and
score setting, `bnsl exact` lists every DAG within epsilon (its classes, sizes and edge
probabilities); where that list is complete, `bnsl learn --exact-max-vars 0` (the ordering
search's chains and the neighbour walk, no exact solver) runs for --learn-time seconds, and
its pool is compared class by class: the classes both hold (by CPDAG), whether the sizes and
scores of the shared ones agree, and the largest difference of an arc probability (p) and of
a skeleton-edge probability (p_edge) over every pair either lists.

usage: bench/classes_vs_exact.py [--sets "wine zoo"] [--settings "bic:3 bic:20"]
                                 [--exact-time 600] [--learn-time 60] [--threads 2]
                                 [--bnsl BINARY] [--data ROOT] [--out DIR] [--resume]

Writes DIR/classes_vs_exact.csv and .md (default out/classes-vs-exact) and prints the markdown.
Settings are SCORE:BF (BIC, or BDeu with ESS 1; Bayes factor BF).
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite  # noqa: E402  (measure(): wall, CPU, peak RSS of one process)

DEFAULT_SETS = "iris shuttle tic-tac-toe wine adult nltcs voting zoo hepatitis"

# Compares two pools in a child process (loading pools here would inflate the peak RSS that
# suite.measure reports for later runs). Prints one JSON object.
COMPARE = suite.LOAD_POOL + r"""
import json, sys
def classes_and_edges(path):
    d = load(path)
    classes = {}
    for c in d["classes"]:
        key = (tuple(sorted(map(tuple, c["arcs"]))), tuple(sorted(map(tuple, c["edges"]))))
        classes[key] = (c["size"], c["score"])
    edges = {(e["from"], e["to"]): (e["p"], e["p_edge"]) for e in d["edges"]}
    return d, classes, edges
de, ce, ee = classes_and_edges(sys.argv[1])
dl, cl, el = classes_and_edges(sys.argv[2])
shared = ce.keys() & cl.keys()
dp = dpe = 0.0
for k in ee.keys() | el.keys():
    a, b = ee.get(k, (0.0, 0.0)), el.get(k, (0.0, 0.0))
    dp, dpe = max(dp, abs(a[0] - b[0])), max(dpe, abs(a[1] - b[1]))
print(json.dumps({
    "exact_classes": len(ce), "exact_dags": int(de["dag_count"]),
    "learn_classes": len(cl), "shared": len(shared),
    "outside": len(cl.keys() - ce.keys()),
    "sizes_equal": all(ce[k][0] == cl[k][0] for k in shared),
    "scores_equal": all(abs(ce[k][1] - cl[k][1]) <= 1e-9 * max(1, abs(ce[k][1])) for k in shared),
    "max_dp": dp, "max_dp_edge": dpe}))
"""


def run(argv, prefix, budget, resume):
    if resume and os.path.exists(prefix + ".measure.json"):
        with open(prefix + ".measure.json") as f:
            return json.load(f)
    print("classes_vs_exact: " + " ".join(argv), file=sys.stderr, flush=True)
    code, wall, cpu, rss = suite.measure(argv, prefix + ".stderr", budget)
    m = {"exit": code, "wall_s": round(wall, 3), "peak_rss_mib": round(rss, 1)}
    with open(prefix + ".measure.json", "w") as f:
        json.dump(m, f)
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--settings", default="bic:3 bic:20 bic:150 bdeu:20")
    ap.add_argument("--exact-time", type=float, default=600)
    ap.add_argument("--learn-time", type=float, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bnsl", default=os.path.join(suite.REPO, "build", "bnsl"))
    ap.add_argument("--data", default=os.path.join(suite.REPO, "..", "shared", "datasets"))
    ap.add_argument("--out", default=os.path.join(suite.REPO, "out", "classes-vs-exact"))
    ap.add_argument("--resume", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for name in args.sets.split():
        csv_path = os.path.join(args.data, "uci", name + ".csv")
        for setting in args.settings.split():
            kind, bf = setting.split(":")
            common = ["--no-header", "--score", kind, "--bayes-factor", bf,
                      "--threads", str(args.threads), "-q"]  # BDeu: ESS 1, the default
            tag = f"{name}-{kind}-{bf}"
            ep = os.path.join(args.out, tag + "-exact")
            lp = os.path.join(args.out, tag + "-learn")
            row = {"set": name, "score": kind, "bf": bf}
            m = run([args.bnsl, "exact", csv_path, "-o", ep, "--time", str(args.exact_time)]
                    + common, ep, args.exact_time, args.resume)
            row["exact_s"] = m["wall_s"]
            head = suite.pool_header(ep + ".pool.json") if m["exit"] == 0 else {}
            if not head.get("complete"):
                row["note"] = "exact list not complete" if head else f"exact exit {m['exit']}"
                rows.append(row)
                continue
            m = run([args.bnsl, "learn", csv_path, "-o", lp, "--time", str(args.learn_time),
                     "--exact-max-vars", "0"] + common, lp, args.learn_time, args.resume)
            row["learn_s"] = m["wall_s"]
            if m["exit"] != 0:
                row["note"] = f"learn exit {m['exit']}"
                rows.append(row)
                continue
            out = subprocess.run([sys.executable, "-c", COMPARE, ep + ".pool.json",
                                  lp + ".pool.json"], stdout=subprocess.PIPE, text=True,
                                 check=True)
            row.update(json.loads(out.stdout))
            rows.append(row)
    write(rows, args.out)


def write(rows, out):
    keys = ["set", "score", "bf", "exact_s", "exact_classes", "exact_dags", "learn_s",
            "learn_classes", "shared", "outside", "sizes_equal", "scores_equal", "max_dp",
            "max_dp_edge", "note"]
    with open(os.path.join(out, "classes_vs_exact.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    lines = ["| data | score | BF | exact: classes | DAGs | learn: classes | same classes | "
             "sizes, scores | max Δp | max Δp_edge |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "note" in r:
            lines.append(f"| {r['set']} | {r['score']} | {r['bf']} | {r['note']} | | | | | | |")
            continue
        same = r["shared"] == r["exact_classes"] and r["outside"] == 0
        lines.append(
            f"| {r['set']} | {r['score']} | {r['bf']} | {r['exact_classes']:,} | "
            f"{r['exact_dags']:,} | {r['learn_classes']:,} | "
            f"{'yes' if same else str(r['shared']) + ' shared'} | "
            f"{'equal' if r['sizes_equal'] and r['scores_equal'] else 'differ'} | "
            f"{r['max_dp']:.1e} | {r['max_dp_edge']:.1e} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "classes_vs_exact.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
