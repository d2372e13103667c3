#!/usr/bin/env python3
"""Exact-mode grid (issue 5): for each uci/ data set up to --max-vars variables and each score
setting, `bnsl exact --method ilp` with a deadline (time to prove OPT, DAGs and classes within
epsilon, total time, peak memory), `bnsl exact --method dp` with the same epsilon for small
data sets (an independent proof of OPT and an independent list of the DAGs within epsilon),
the published optimum where the eBNSL reference table has one, and how much of the exact set
of DAGs within epsilon the heuristic `bnsl learn --time L` pool recovers.

usage: bench/exact_grid.py [--sets "iris wine"] [--max-vars 60] [--settings "bic:3 bic:20"]
                           [--deadline 600] [--learn-time 10] [--dp-max-vars 20]
                           [--methods "ilp dp"] [--bnsl BINARY] [--data ROOT] [--out DIR] [--resume]
                           [--redo "wdbc:bic:20 soybean:bic:3"]
       bench/exact_grid.py --merge "DIR1 DIR2 ..." --out DIR   # one table from several runs
       bench/exact_grid.py --before "FILE#HEADING" --out DIR     # before/after table of DIR

    bench/exact_grid.py                                   # the whole grid (hours)
    bench/exact_grid.py --sets "iris wine zoo" --deadline 60
    bench/exact_grid.py --methods dp --dp-max-vars 26 --sets "parkinsons autos"  # DP rows only
    bench/exact_grid.py --resume --redo "wdbc:bic:20" --out DIR   # that row again, newer build

Settings are SCORE:BF (BIC or BDeu with ESS 1, Bayes factor BF; epsilon = ln BF). Per row:
OPT (proven by the ILP or the DP); the ILP's seconds until OPT is proven (exact's own clock,
cache building excluded) or its gap at the deadline; its DAGs within epsilon and whether the
list is complete; total wall seconds and peak RSS of the ILP process (cache building
included); the DP's OPT, DAGs and total seconds when n <= --dp-max-vars (each run prunes its
own cache), and whether the two complete lists are the same DAGs; `ref` the optimum in
uci/scores/reference_optimal_scores_costs.csv (GOBNILP column; computed by its authors from
their own score files, so a sanity reference); `explore s` the exhaustive exploration's seconds
and `list s` the seconds from its end to the complete list (exact's clock, as the proof's);
`check` whether `bnsl check` passes on every pool the row wrote (it re-scores every DAG from the
data and re-checks epsilon, order, classes and edge probabilities); `learn` the best score of `bnsl learn --time L`
and `recovered` the fraction of the complete list (the ILP's, else the DP's) that its pool
holds; `search only` the same for `learn --exact-max-vars 0` (learn is exact up to 22
variables; this measures its ordering search alone). Writes DIR/exact_grid.csv and .md
(default out/exact-grid) and prints the markdown. Where a data set's exploration is cut at one
Bayes factor, the larger Bayes factors of the same score are not run (a larger epsilon prunes
less, so their explorations do at least the same work within the same deadline); their rows
say so.
"""
import argparse
import csv
import glob
import json
import os
import re
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


def compare_pools(exact_pool, other_pool):
    """(share of exact_pool's DAGs that other_pool holds, whether the two sets are equal),
    computed in a child process: loading pools here would inflate the peak RSS measured for
    later runs (see suite.measure)."""
    code = (suite.LOAD_POOL +
            "d=lambda f:{tuple(map(tuple,g['parents'])) for g in load(f)['dags']}\n"
            "e,l=d(sys.argv[1]),d(sys.argv[2]);print(len(e&l)/len(e), int(e==l))")
    out = subprocess.run([sys.executable, "-c", code, exact_pool, other_pool],
                         stdout=subprocess.PIPE, text=True, check=True)
    share, equal = out.stdout.split()
    return float(share), equal == "1"


def exact_stats(prefix):
    if not os.path.exists(prefix + ".stats.json"):
        return None
    with open(prefix + ".stats.json") as f:
        stats = json.load(f)
    st = stats["exact"]
    # From a CSV, OPT and completeness hold only if the exploration finished (bnsl exact says
    # so in the pool; the solver's own flags are relative to the cache it got).
    ex = stats.get("explore", {})
    st["vars_cut"] = ex.get("vars_out_of_time", 0) + ex.get("vars_out_of_memory", 0)
    st["optimal"] = st["optimal"] and st["vars_cut"] == 0
    st["complete"] = st["complete"] and st["vars_cut"] == 0
    st["classes"] = suite.pool_header(prefix + ".pool.json")["class_count"]
    st["explore_s"] = ex.get("seconds")
    return st


def check(csv_path, prefix, args):
    """Whether `bnsl check` passes on PREFIX.pool.json (None when the run wrote no pool),
    remembered in PREFIX.check.json for --resume."""
    memo, pool = prefix + ".check.json", prefix + ".pool.json"
    if args.resume and os.path.exists(memo):
        with open(memo) as f:
            return json.load(f)["ok"]
    if not os.path.exists(pool):
        return None
    with open(prefix + ".check.stderr", "w") as err:
        code = subprocess.run([args.bnsl, "check", csv_path, pool, "--no-header"],
                              stdout=subprocess.DEVNULL, stderr=err).returncode
    with open(memo, "w") as f:
        json.dump({"ok": code == 0, "exit": code}, f)
    return code == 0


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
    ap.add_argument("--max-vars", type=int, default=60)
    ap.add_argument("--settings", default="bic:3 bic:20 bic:150 bdeu:20")
    ap.add_argument("--deadline", type=float, default=600)
    ap.add_argument("--learn-time", type=float, default=10)
    ap.add_argument("--dp-max-vars", type=int, default=20)
    ap.add_argument("--methods", default="ilp dp",
                    help="exact methods to run: 'ilp dp' (default), 'ilp' or 'dp' (the DP "
                    "only where n <= --dp-max-vars)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-count", action="store_true",
                    help="do not pass --count to the DP's runs (binaries before it had none); "
                    "with it, a DP list cut at --max-solutions also counts every DAG within "
                    "epsilon until the deadline")
    ap.add_argument("--bnsl", default=os.path.join(REPO, "build", "bnsl"))
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "datasets"))
    ap.add_argument("--out", default=os.path.join(REPO, "out", "exact-grid"))
    ap.add_argument("--resume", action="store_true", help="reuse runs already measured, and "
                    "keep as they are the rows of --out's exact_grid.csv (a copy of "
                    "bench/results/exact_grid_issue21.csv carries its rows to a new machine)")
    ap.add_argument("--redo", default="", help="with --resume: rows DATA:SCORE:BF to measure "
                    "again (their files in --out are removed first), e.g. with a newer build")
    ap.add_argument("--merge", help="output directories of earlier runs: write their rows as "
                    "one table (by variables, data set, setting) to --out and print it")
    ap.add_argument("--before", help="FILE#HEADING: the grid tables under that markdown heading "
                    "of FILE, named by its text or its anchor (e.g. bench/results/exact-grid.md"
                    "#opt-lists-and-the-pools-recovery-on-26-data-sets-up-to-40-variables-issue-5, "
                    "issue 5's grid) are the before; write DIR/exact_grid_compare.md, before "
                    "beside --out's exact_grid.csv, and print it")
    args = ap.parse_args()
    if args.merge:
        return merge(args.merge.split(), args.out)
    if args.before:
        return compare(args.before, args.out)
    uci = os.path.join(args.data, "uci")
    names = args.sets.split() if args.sets else sorted(
        f[:-4] for f in os.listdir(uci) if f.endswith(".csv"))
    sets = sorted(((n_vars(os.path.join(uci, n + ".csv")), n) for n in names))
    sets = [(v, n) for v, n in sets if v <= args.max_vars]
    refs = published(args.data)
    os.makedirs(args.out, exist_ok=True)
    redo = set()
    for item in args.redo.split():
        name, score, bf = item.split(":")
        redo.add((name, score, float(bf)))
    grid = {(n, s.split(":")[0], float(s.split(":")[1]))
            for _, n in sets for s in args.settings.split()}
    if redo - grid:
        sys.exit(f"exact_grid.py: --redo rows not in the grid: {sorted(redo - grid)}")
    kept = {}
    if args.resume and os.path.exists(os.path.join(args.out, "exact_grid.csv")):
        with open(os.path.join(args.out, "exact_grid.csv")) as f:
            for r in csv.DictReader(f):
                r = {k: v for k, v in typed(r).items() if v is not None}
                if (r["data"], r["score"], r["bf"]) not in redo:
                    kept[(r["data"], r["score"], r["bf"])] = r
    rows = []
    for vars_, name in sets:
        cut_at = {}  # score -> the smallest Bayes factor whose exploration was cut
        for setting in args.settings.split():
            score, bf = setting.split(":")
            key = (name, score, float(bf))
            if key in kept:
                rows.append(kept.pop(key))
            elif cut_at.get(score, float(bf)) < float(bf):
                # A larger epsilon prunes a subset of what a smaller one prunes, so this
                # exploration does at least that work within the same deadline: cut as well.
                rows.append({"data": name, "vars": vars_, "score": score, "bf": float(bf),
                             "implied_cut": cut_at[score], "binary": os.path.basename(args.bnsl)})
            else:
                if key in redo:  # its earlier runs, named as grid_row() names them
                    base = row_prefix(args.out, name, score, bf)
                    for f in glob.glob(base + ".*") + glob.glob(base + "-*"):
                        os.remove(f)
                rows.append(grid_row(name, vars_, score, bf, refs, args))
            cut = rows[-1].get("implied_cut") or (float(bf) if rows[-1].get("vars_cut") else None)
            if cut:
                cut_at[score] = min(cut, cut_at.get(score, cut))
            # The kept rows not reached yet too, so that a stopped run loses none of them.
            write(rows + list(kept.values()), args.out)
    with open(os.path.join(args.out, "exact_grid.md")) as f:
        sys.stdout.write(f.read())
    return 0


def row_prefix(out, name, score, bf):
    """The path prefix of a row's files: BF as the setting spells it."""
    return os.path.join(out, f"{name}-{score}-bf{bf}")


def grid_row(name, vars_, score, bf, refs, args):
    """Runs one row of the grid: the ILP, the DP, learn, and check on every pool written."""
    csv_path = os.path.join(args.data, "uci", name + ".csv")
    base = row_prefix(args.out, name, score, bf)
    common = ["--no-header", "--score", score, "--bayes-factor", bf,
              "--threads", str(args.threads), "-q"]
    row = {"data": name, "vars": vars_, "score": score, "bf": float(bf),
           "binary": os.path.basename(args.bnsl)}  # the build that measured the row
    st = None
    if "ilp" in args.methods.split():
        row.update(run([args.bnsl, "exact", csv_path, "-o", base, "--method", "ilp",
                        "--time", str(args.deadline), "--stats", base + ".stats.json"]
                       + common, base, args.deadline, args))
        st = exact_stats(base)
    if st:
        row.update(ilp_best=st["best_score"], optimal=st["optimal"], bound=st["bound"],
                   t_opt=round(st["seconds_opt"], 3), complete=st["complete"],
                   dags=st["solutions"], classes=st["classes"],
                   vars_cut=st["vars_cut"], explore_s=st["explore_s"],
                   truncated=st.get("truncated"),
                   listed_above=st.get("listed_above") if not st["vars_cut"] else None,
                   list_s=round(st["seconds"], 3) if st["complete"] else None)
    if (name, score) in refs:
        row["ref"] = refs[(name, score)]
    complete_pool = base + ".pool.json" if row.get("complete") else None
    if vars_ <= args.dp_max_vars and "dp" in args.methods.split() and row.get("vars_cut"):
        # The DP explores as the ILP does (the same share of the same deadline): its
        # exploration would be cut as well, and nothing proven; 9 minutes saved a row.
        row["dp_skipped"] = True
    elif vars_ <= args.dp_max_vars and "dp" in args.methods.split():
        dp = base + "-dpe"  # the DP with the setting's epsilon: OPT and its own list
        m = run([args.bnsl, "exact", csv_path, "-o", dp, "--method", "dp", "--time",
                 str(args.deadline), "--stats", dp + ".stats.json"] + common
                + ([] if args.no_count else ["--count"]), dp, args.deadline, args)
        row["dp_wall_s"], row["dp_peak_mib"] = m["wall_s"], m["peak_rss_mib"]
        st = exact_stats(dp) if m["exit"] == 0 else None
        if st and "wall_s" not in row:  # DP-only row: its exploration decides
            row["vars_cut"] = st["vars_cut"]
        if st and st["optimal"]:
            row.update(dp_opt=st["best_score"], dp_dags=st["solutions"],
                       dp_complete=st["complete"], dp_truncated=st.get("truncated"),
                       dp_listed_above=st.get("listed_above"))
            if st.get("truncated") and st.get("dags_within"):  # --count's
                row.update(dp_within=st["dags_within"], dp_within_exact=st["dags_within_exact"])
            if st["complete"]:
                row.setdefault("classes", st["classes"])
                if complete_pool:
                    row["same_set"] = compare_pools(complete_pool, dp + ".pool.json")[1]
                else:
                    complete_pool = dp + ".pool.json"
                    row["classes"] = st["classes"]
            elif not complete_pool and st["solutions"] > (row.get("dags") or 0):
                row["classes"] = st["classes"]  # of the longer of two partial lists
    row["opt"] = (row.get("ilp_best") if row.get("optimal") else row.get("dp_opt"))
    pools = [base, base + "-dpe"]
    if complete_pool:
        # learn as a user runs it (exact up to 22 variables), and its ordering search
        # alone (--exact-max-vars 0), the heuristic this column is meant to measure
        for key, extra in (("", []), ("_search", ["--exact-max-vars", "0"])):
            lp = base + "-learn" + key.replace("_", "-")
            run([args.bnsl, "learn", csv_path, "-o", lp, "--time", str(args.learn_time)]
                + extra + common, lp, args.learn_time, args)
            pools.append(lp)
            if os.path.exists(lp + ".pool.json"):
                row["learn_best" + key] = suite.pool_header(lp + ".pool.json")["best_score"]
                row["recovered" + key] = compare_pools(complete_pool,
                                                       lp + ".pool.json")[0]
    checked = {p: check(csv_path, p, args) for p in pools}
    checked = {p: ok for p, ok in checked.items() if ok is not None}
    if checked:
        failed = [os.path.basename(p) for p, ok in checked.items() if not ok]
        row["check"] = "ok" if not failed else "FAIL " + " ".join(failed)
    return row


def merge(dirs, out):
    """The table rows of several runs' exact_grid.md, sorted, as one exact_grid.md."""
    head, rows, tail = [], {}, []
    for d in dirs:
        with open(os.path.join(d, "exact_grid.md")) as f:
            lines = f.read().splitlines()
        table = [l for l in lines if l.startswith("|")]
        head, tail = table[:2], [l for l in lines if l and not l.startswith("|")]
        for line in table[2:]:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[(int(cells[1]), cells[0], cells[2] != "bic", float(cells[3]))] = line  # BIC first
    os.makedirs(out, exist_ok=True)
    text = "\n".join(head + [rows[k] for k in sorted(rows)] + [""] + tail) + "\n"
    with open(os.path.join(out, "exact_grid.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0


def anchor(text):
    """The anchor GitHub gives a markdown heading's text (links to FILE#anchor open it)."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def markdown_tables(path, heading):
    """The tables under the markdown heading of `path` whose text or anchor is `heading` (up to
    the next heading of the same or a higher level), each a list of {column: cell} rows; and
    the heading's text."""
    with open(path) as f:
        lines = f.read().splitlines()
    titles = [(i, l.lstrip("#").strip()) for i, l in enumerate(lines) if l.startswith("#")]
    found = [(i, t) for i, t in titles if heading in (t, anchor(t))]
    if not found:
        sys.exit(f"exact_grid.py: {path} has no heading {heading!r}")
    start, title = found[0]
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    tables, head = [], None
    for line in lines[start + 1:]:
        if line.startswith("#") and len(line) - len(line.lstrip("#")) <= level:
            break
        if not line.startswith("|"):
            head = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if head is None:
            head = cells
            tables.append([])
        elif not set("".join(cells)) <= set("-: "):
            tables[-1].append(dict(zip(head, cells)))
    return tables, title


def compare(before, out):
    """Before/after table: the rows of the grid tables under FILE#HEADING (columns as this
    script writes them: `ILP proof s`, `ILP DAGs`, `ILP total s`, and `DP DAGs`, `DP total s`
    where a table has them) beside OUT/exact_grid.csv; writes OUT/exact_grid_compare.md."""
    path, heading = before.split("#", 1)
    old = {}
    tables, heading = markdown_tables(path, heading)
    for table in tables:
        for r in table:
            if {"data", "score", "BF"} <= r.keys():
                old.setdefault((r["data"], r["score"], float(r["BF"].replace(",", ""))),
                               {}).update(r)
    with open(os.path.join(out, "exact_grid.csv")) as f:
        new = list(csv.DictReader(f))

    def val(r, key, d=1):
        x = r.get(key)
        return "" if x in (None, "") else f"{float(x):,.{d}f}"

    def dags(r, n, complete, truncated="False", above=""):
        if not r[n]:
            return ""
        text = f"{int(r[n]):,}"
        if complete == "True":
            return text
        if truncated == "True":
            if above and r["opt"] and r["vars_cut"] in ("", "0"):
                return text + f" (best: all above OPT − {float(r['opt']) - float(above):,.3g})"
            return text + " (best found)"
        return text + " (partial)"

    lines = ["| data | n | score | BF | before: ILP proof s | ILP DAGs | ILP total s | DP DAGs "
             "| DP total s | after: OPT | explore s | ILP proof s | list s | ILP DAGs "
             "| ILP total s | peak MiB | DP DAGs | DP total s | classes | check | binary |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
             "|---:|---:|---:|---|---|"]
    for r in new:
        b = old.get((r["data"], r["score"], float(r["bf"])), {})
        ran_dp = bool(r["dp_wall_s"])
        opt = (val(r, "opt", 2) if r["opt"] else
               "≥ " + val(r, "ilp_best", 2) if r["ilp_best"] else "")
        lines.append("| " + " | ".join([
            r["data"], r["vars"], r["score"], f"{float(r['bf']):g}",
            b.get("ILP proof s", "not run"), b.get("ILP DAGs", ""), b.get("ILP total s", ""),
            b.get("DP DAGs", ""), b.get("DP total s", ""),
            opt, val(r, "explore_s"), proof_text(typed(r)),
            val(r, "list_s") if r["list_s"] else "partial" if r["optimal"] == "True" else "",
            dags(r, "dags", r["complete"], r["truncated"], r["listed_above"]),
            val(r, "wall_s"), val(r, "peak_rss_mib", 0),
            dags(r, "dp_dags", r["dp_complete"], r.get("dp_truncated", "False"),
                 r.get("dp_listed_above", "")) if ran_dp
            else "not run (cut)" if r.get("dp_skipped") == "True" else "",
            val(r, "dp_wall_s") if ran_dp else "",
            classes_text(typed(r)), r["check"], r["binary"]]) + " |")

    def before_status(b):
        proof, dp = b.get("ILP proof s", ""), b.get("DP", "")
        proven = proof[:1].isdigit() or dp in ("=", "proof")
        complete = any(b.get(k) and "(" not in b[k] for k in ("ILP DAGs", "DP DAGs"))
        return proven, complete, "cut" in proof

    def after_status(r):
        proven = r["optimal"] == "True" or bool(r["dp_opt"])
        complete = r["complete"] == "True" or r["dp_complete"] == "True"
        return proven, complete, r["vars_cut"] not in ("", "0") or bool(r.get("implied_cut"))

    tally = {}
    for r in new:
        b = old.get((r["data"], r["score"], float(r["bf"])))
        for side, st in (("before", before_status(b) if b else None), ("after", after_status(r))):
            t = tally.setdefault(side, [0, 0, 0, 0])
            if st is None:
                t[3] += 1
                continue
            t[0] += st[0]
            t[1] += st[1]
            t[2] += st[2]
    lines += ["", f"{len(new)} rows. " + "; ".join(
        f"{side}: OPT proven on {t[0]}, complete list on {t[1]}, exploration cut on {t[2]}"
        + (f", not run on {t[3]}" if t[3] else "") for side, t in tally.items()) + "."]
    lines += ["", f"before: the tables under \"{heading}\" in {os.path.relpath(path, REPO)}; "
              f"after: {os.path.relpath(os.path.join(out, 'exact_grid.csv'), REPO)}. Columns "
              "as in exact_grid.md (after: OPT `≥ x` when not proven, x the best DAG's score; peak "
              "MiB the ILP run's). ILP DAGs: `best: all above OPT − x` when the list "
              "passed --max-solutions, kept the best and its search finished."]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "exact_grid_compare.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    return 0


def typed(row):
    """A row of exact_grid.csv with its values typed as write() gets them (None when empty)."""
    def value(text):
        if text in ("", "True", "False"):
            return None if text == "" else text == "True"
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
        return text
    return {k: value(v) for k, v in row.items()}


def proof_text(r):
    """The ILP proof column of a row: seconds to OPT, the gap at the deadline, or why not."""
    if r.get("vars_cut"):
        return f"exploration cut ({r['vars_cut']} variables)"
    if r.get("implied_cut"):
        return f"not run (cut at BF {r['implied_cut']:g})"
    if r.get("optimal"):
        return f"{r['t_opt']:,.2f}" if r.get("t_opt") is not None else ""
    if r.get("ilp_best") is not None and r.get("bound") is not None:
        return f"gap {r['bound'] - r['ilp_best']:,.2f}"
    return "not run" if r.get("wall_s") is None else "no result"


def classes_text(r):
    """The classes column of a row: the count, `partial` unless one of the lists is complete."""
    if r.get("classes") is None:
        return ""
    return f"{r['classes']:,}" + ("" if r.get("complete") or r.get("dp_complete") else " (partial)")


COLUMNS = ["data", "vars", "score", "bf", "opt", "ilp_best", "optimal", "bound", "explore_s",
           "t_opt", "list_s", "dags", "truncated", "listed_above", "complete", "wall_s",
           "peak_rss_mib", "exit", "dp_opt", "dp_dags", "dp_complete", "dp_wall_s", "dp_peak_mib",
           "dp_truncated", "dp_listed_above", "same_set", "classes", "ref", "learn_best",
           "recovered", "vars_cut", "learn_best_search", "recovered_search", "check", "dp_skipped",
           "implied_cut", "binary", "dp_within", "dp_within_exact"]


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

    def count(n, complete, truncated=False, above=None, within=None, exact=False):
        if n is None:
            return ""
        if complete:
            return f"{n:,}"
        if truncated and above is not None and within:
            return (f"{n:,} (best: all above OPT − {r['opt'] - above:,.3g}; "
                    f"{'' if exact else '≥ '}{within:,} within ε)")
        if truncated and above is not None:
            return f"{n:,} (best: all above OPT − {r['opt'] - above:,.3g})"
        return f"{n:,} (best found)" if truncated else f"{n:,} (partial)"

    lines = ["| data | n | score | BF | OPT | explore s | ILP proof s | list s | ILP DAGs "
             "| ILP total s | peak MiB | DP | DP DAGs | DP total s | DP peak MiB | same set "
             "| classes | check | ref | learn − OPT | recovered | search only: − OPT | recovered "
             "| binary |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|---:|---"
             "|---|---:|---:|---:|---:|---|"]
    for r in rows:
        learn, opt, heur = r.get("learn_best"), r.get("opt"), r.get("learn_best_search")
        proof = proof_text(r)
        same = {True: "yes", False: "**no**"}.get(r.get("same_set"), "")
        # Unproven: the best DAG found is a lower bound on OPT (its score is exact).
        opt_text = (num(opt) if opt is not None else
                    "≥ " + num(r["ilp_best"]) if r.get("ilp_best") is not None else "")
        lines.append("| " + " | ".join([
            r["data"], str(r["vars"]), r["score"], f"{r['bf']:g}", opt_text,
            num(r.get("explore_s"), 1), proof,
            num(r.get("list_s"), 1) if r.get("list_s") is not None
            else "partial" if r.get("optimal") else "",
            count(r.get("dags"), r.get("complete"), r.get("truncated"),
                  r.get("listed_above") if r.get("opt") is not None else None),
            num(r.get("wall_s"), 1),
            num(r.get("peak_rss_mib"), 0),
            "not run (cut)" if r.get("dp_skipped")
            else agree(r.get("ilp_best"), r.get("dp_opt")) if "wall_s" in r
            else ("proof" if r.get("dp_opt") is not None
                  else "cut" if r.get("vars_cut") else ""),
            count(r.get("dp_dags"), r.get("dp_complete"), r.get("dp_truncated"),
                  r.get("dp_listed_above") if r.get("opt") is not None else None,
                  r.get("dp_within"), r.get("dp_within_exact")),
            num(r.get("dp_wall_s"), 1),
            num(r.get("dp_peak_mib"), 0), same,
            classes_text(r), r.get("check", ""),
            agree(opt if opt is not None else r.get("ilp_best"), r.get("ref")),
            num(learn - opt) if learn is not None and opt is not None else "",
            f"{100 * r['recovered']:.1f}%" if "recovered" in r else "",
            num(heur - opt) if heur is not None and opt is not None else "",
            f"{100 * r['recovered_search']:.1f}%" if "recovered_search" in r else "",
            r.get("binary", "")]) + " |")
    lines += ["", "OPT: proven by the ILP or the DP (`≥ x`: not proven, x is the best DAG's "
              "score). explore s: the ILP run's exhaustive exploration (building its cache). "
              "ILP proof s: seconds to prove OPT (cache "
              "building excluded), or the gap between bound and best at the deadline, or how many "
              "variables the exploration left unfinished at the deadline (then nothing is "
              "proven: the cache may lack families). list s: seconds from the cache to the "
              "complete list (exact's clock; `partial`: OPT proven, list cut). ILP DAGs: "
              "`partial` when cut by the deadline; past --max-solutions the list keeps the best: "
              "`best: all above OPT − x` when its search finished (every DAG within x of OPT is "
              "listed), `best found` when the deadline cut it; DP DAGs `N within ε`: the DP's "
              "count of them all (`--count`; `≥`: the deadline cut the count). check: `bnsl "
              "check` on every pool of the row (ILP, DP, learn). DP and "
              "ref: `=` when equal to the ILP's best (ref: OPT, else the best found) within 1e-6 "
              "relative, else the other value "
              "(DP: `proof` when the ILP did not run; `not run (cut)`: the ILP's exploration was "
              "cut, and the DP's, which explores the same way within the same deadline, would be). "
              "ILP proof s `not run (cut at BF b)`: the data set's exploration at the smaller "
              "Bayes factor b was cut, and a larger one prunes less, so its exploration would "
              "be cut as well. "
              "same set: the ILP's and the DP's complete lists are the same DAGs. classes: "
              "the equivalence classes of the complete list (the ILP's, else the DP's), or of "
              "the longer list when neither is complete (`partial`). recovered: "
              "share of the complete list (the ILP's, else the DP's) in the `learn` pool "
              "(`learn` is exact up to 22 variables); search only: the same for `learn "
              "--exact-max-vars 0`, the ordering search alone. binary: the file name of the "
              "--bnsl build that measured the row."]
    with open(os.path.join(out, "exact_grid.md"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())
