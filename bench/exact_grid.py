#!/usr/bin/env python3
"""Exact-mode grid (issue 5): for each uci/ data set up to --max-vars variables and each score
setting, `bnsl exact` with a deadline (time to prove OPT, DAGs and classes within epsilon,
total time, peak memory), the DP cross-check of OPT for small data sets, the published optimum
where the eBNSL reference table has one, and how much of the exact set of DAGs within epsilon
the heuristic `bnsl learn --time L` pool recovers.

usage: bench/exact_grid.py [--sets "iris wine"] [--max-vars 40] [--settings "bic:3 bic:20"]
                           [--deadline 600] [--learn-time 10] [--dp-max-vars 20]
                           [--bnsl BINARY] [--data ROOT] [--out DIR] [--resume]

    bench/exact_grid.py                                   # the whole grid (hours)
    bench/exact_grid.py --sets "iris wine zoo" --deadline 60

Settings are SCORE:BF (BIC or BDeu with ESS 1, Bayes factor BF; epsilon = ln BF). Per row:
OPT and whether it is proven; `t OPT` seconds until proven (exact's own clock, cache building
excluded); DAGs and classes within epsilon and whether the list is complete; total wall
seconds and peak RSS of the exact process (cache building included); `DP` the OPT of
`bnsl exact --method dp --epsilon 0` (an independent solver on an independently pruned cache)
when n <= --dp-max-vars; `ref` the optimum in uci/scores/reference_optimal_scores_costs.csv
(GOBNILP column; computed by its authors from their own score files, so a sanity reference);
`learn` the best score of `bnsl learn --time L` and `recovered` the fraction of the exact DAGs
its pool holds (when the exact list is complete). Writes DIR/exact_grid.csv and .md (default
out/exact-grid) and prints the markdown.
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


def n_vars(path):
    with open(path) as f:
        return len(f.readline().split(","))


def published(data_root):
    """{(name, 'bic'|'bdeu'): optimum} from the eBNSL reference table (GOBNILP column)."""
    refs = {}
    path = os.path.join(data_root, "uci", "scores", "reference_optimal_scores_costs.csv")
    if not os.path.exists(path):
        return refs
    with open(path) as f:
        next(f)
        for line in f:
            cells = [c.strip() for c in line.split(",")]
            name, kind = cells[0].rsplit("_", 1)
            try:
                refs[(name, "bic" if kind == "BIC" else "bdeu")] = float(cells[2])
            except ValueError:
                pass
    return refs


def recovered(exact_pool, learn_pool):
    """Share of exact_pool's DAGs that learn_pool holds, computed in a child process: loading
    pools here would inflate the peak RSS measured for later runs (see suite.measure)."""
    code = ("import json,sys\n"
            "d=lambda f:{tuple(map(tuple,g['parents'])) for g in json.load(open(f))['dags']}\n"
            "e,l=d(sys.argv[1]),d(sys.argv[2]);print(len(e&l)/len(e))")
    out = subprocess.run([sys.executable, "-c", code, exact_pool, learn_pool],
                         stdout=subprocess.PIPE, text=True, check=True)
    return float(out.stdout)


def run(argv, prefix, budget, args):
    if args.resume and os.path.exists(prefix + ".measure.json"):
        with open(prefix + ".measure.json") as f:
            return json.load(f)
    print("exact_grid: " + " ".join(argv), file=sys.stderr, flush=True)
    code, wall, cpu, rss = suite.measure(argv, prefix + ".stderr", budget)
    m = {"exit": code, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
         "peak_rss_mib": round(rss, 1)}
    with open(prefix + ".measure.json", "w") as f:
        json.dump(m, f)
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", help="data set names (default: every uci/*.csv within --max-vars)")
    ap.add_argument("--max-vars", type=int, default=40)
    ap.add_argument("--settings", default="bic:3 bic:20 bic:150 bdeu:20")
    ap.add_argument("--deadline", type=float, default=600)
    ap.add_argument("--learn-time", type=float, default=10)
    ap.add_argument("--dp-max-vars", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bnsl", default=os.path.join(REPO, "build", "bnsl"))
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "datasets"))
    ap.add_argument("--out", default=os.path.join(REPO, "out", "exact-grid"))
    ap.add_argument("--resume", action="store_true", help="reuse runs already measured")
    args = ap.parse_args()
    uci = os.path.join(args.data, "uci")
    names = args.sets.split() if args.sets else sorted(
        f[:-4] for f in os.listdir(uci) if f.endswith(".csv"))
    sets = sorted(((n_vars(os.path.join(uci, n + ".csv")), n) for n in names))
    sets = [(v, n) for v, n in sets if v <= args.max_vars]
    refs = published(args.data)
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for vars_, name in sets:
        csv_path = os.path.join(uci, name + ".csv")
        for setting in args.settings.split():
            score, bf = setting.split(":")
            tag = f"{name}-{score}-bf{bf}"
            base = os.path.join(args.out, tag)
            common = ["--no-header", "--score", score, "--bayes-factor", bf,
                      "--threads", str(args.threads), "-q"]
            ex = run([args.bnsl, "exact", csv_path, "-o", base, "--time", str(args.deadline),
                      "--stats", base + ".stats.json"] + common, base, args.deadline, args)
            row = {"data": name, "vars": vars_, "score": score, "bf": float(bf), **ex}
            if os.path.exists(base + ".stats.json"):
                with open(base + ".stats.json") as f:
                    st = json.load(f)["exact"]
                row.update(opt=st["best_score"], optimal=st["optimal"],
                           t_opt=round(st["seconds_opt"], 3), complete=st["complete"],
                           dags=st["solutions"], method=st["method"])
                row["classes"] = suite.pool_header(base + ".pool.json")["mec_count"]
            if (name, score) in refs:
                row["ref"] = refs[(name, score)]
            if vars_ <= args.dp_max_vars:
                dp = base + "-dp"
                m = run([args.bnsl, "exact", csv_path, "-o", dp, "--method", "dp",
                         "--epsilon", "0", "--time", str(args.deadline), "--stats",
                         dp + ".stats.json", "--no-header", "--score", score,
                         "--threads", str(args.threads), "-q"], dp, args.deadline, args)
                if m["exit"] == 0 and os.path.exists(dp + ".stats.json"):
                    with open(dp + ".stats.json") as f:
                        st = json.load(f)["exact"]
                    if st["optimal"]:
                        row["dp_opt"] = st["best_score"]
            if row.get("complete"):
                lp = base + "-learn"
                m = run([args.bnsl, "learn", csv_path, "-o", lp, "--time", str(args.learn_time)]
                        + common, lp, args.learn_time, args)
                if os.path.exists(lp + ".pool.json"):
                    row["learn_best"] = suite.pool_header(lp + ".pool.json")["best_score"]
                    row["recovered"] = recovered(base + ".pool.json", lp + ".pool.json")
            rows.append(row)
            write(rows, args.out)
    with open(os.path.join(args.out, "exact_grid.md")) as f:
        sys.stdout.write(f.read())
    return 0


COLUMNS = ["data", "vars", "score", "bf", "method", "opt", "optimal", "t_opt", "dags",
           "classes", "complete", "wall_s", "peak_rss_mib", "exit", "dp_opt", "ref",
           "learn_best", "recovered"]


def write(rows, out):
    with open(os.path.join(out, "exact_grid.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)

    def num(x, d=2):
        return "" if x is None else f"{x:,.{d}f}"

    def agree(a, b):
        if a is None or b is None:
            return ""
        return "=" if abs(a - b) <= 1e-6 * max(1.0, abs(a)) else f"{b:,.2f}"

    lines = ["| data | n | score | BF | OPT | proven | t OPT s | DAGs | classes | complete "
             "| total s | peak MiB | DP | ref | learn − OPT | recovered |",
             "|---|---:|---|---:|---:|---|---:|---:|---:|---|---:|---:|---|---|---:|---:|"]
    for r in rows:
        learn = r.get("learn_best")
        lines.append("| " + " | ".join([
            r["data"], str(r["vars"]), r["score"], f"{r['bf']:g}", num(r.get("opt")),
            "yes" if r.get("optimal") else "no", num(r.get("t_opt")),
            f"{r['dags']:,}" if "dags" in r else "", f"{r['classes']:,}" if "classes" in r else "",
            "yes" if r.get("complete") else "no", num(r["wall_s"], 1), num(r["peak_rss_mib"], 0),
            agree(r.get("opt"), r.get("dp_opt")), agree(r.get("opt"), r.get("ref")),
            num(learn - r["opt"]) if learn is not None and "opt" in r else "",
            f"{100 * r['recovered']:.1f}%" if "recovered" in r else ""]) + " |")
    lines += ["", "DP and ref: `=` when equal to OPT within 1e-6 relative, else the other value."]
    with open(os.path.join(out, "exact_grid.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
