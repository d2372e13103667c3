#!/usr/bin/env python3
"""Suite runner: runs the bnsl command lines a suite file lists, measures each process (wall
and CPU seconds, peak memory), collects the best score, pool size, classes, the anytime trace
and the `bnsl eval` figures, and writes a CSV, a markdown table and one SVG of the
score-versus-time traces per data set.

usage: bench/suite.py SUITE [--out DIR] [--bnsl BINARY] [--tools BINARY] [--data ROOT]
                            [--only REGEX] [--set KEY=VALUE ...] [--resume] [--dry-run]

    bench/suite.py bench/suites/samples.suite                      # every run, then the report
    bench/suite.py bench/suites/samples.suite --only alarm --set time=10
    bench/suite.py bench/suites/density.suite --resume             # skip runs already done

Suite file: one run per line, `key=value` fields split like a shell line (quote values with
blanks); `#` starts a comment; a line starting with `defaults` sets fields for the lines after
it. Fields (a comma list in time, threads or seeds makes one run per combination):

    data=PATH       the CSV to learn from (required); relative paths are under --data
    label=NAME      data set name for tables and plots (default: the file name without
                    extension, or the folder name for train.csv / test.csv / valid.csv)
    command=CMD     learn (default), search, exact or score
    time=S          --time budget, seconds
    threads=N       --threads
    seeds=S[,S..]   --seed of learn and search (default 1)
    header=no       the CSV has no header row (adds --no-header)
    args="..."      more bnsl options, appended
    truth=PATH      true network (BIF): bnsl eval gives SHD, precision, recall
    test=PATH       held-out CSV: bnsl eval gives the mean log-likelihood per row, with
                    parameters estimated from train=PATH (default: data)
    refs="a=X b=Y"  reference scores (other tools, the true network) shown in the table and
                    drawn as dashed lines in the plot
    generate="..."  a synthetic data set instead of data=: `bnsl generate` with these options
                    (e.g. "--vars 2000 --max-parents 4 --seed 1") writes the true network and
                    `bnsl sample -n ROWS --seed SAMPLE_SEED` the data, both once into
                    out/generated/LABEL.bif and .csv (label= is required); truth is that network
    rows=N          rows to sample for generate= (default 5000)
    sample_seed=S   --seed of that sample (default 1)

With a truth and a learn or search run, the true network is also scored on the data (`bnsl
eval --data`): that score is the reference `true` when refs gives none.

Output (DIR, default out/suite-SUITENAME): runs/RUN.* (bnsl's files, its stderr, RUN.result.json
with everything measured), results.csv, results.md, traces-LABEL.svg. Peak memory is the
process's maximum resident set size (getrusage); wall time is measured around the process;
a run that exceeds its budget by 120 s is killed and marked so. Needs only Python 3.
"""
import argparse
import csv
import gzip
import html
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The first line of a child process that reads whole pool files of any format with load(path)
# (tests/cli/lib/pool_file.py: classes and DAGs whole, variables as 0-based indices).
LOAD_POOL = ("import sys; sys.path.insert(0, %r); from pool_file import load\n"
             % os.path.join(REPO, "tests", "cli", "lib"))
LIST_KEYS = ("time", "threads", "seeds")
KNOWN = {"data", "label", "command", "time", "threads", "seeds", "header", "args", "truth",
         "test", "train", "refs", "generate", "rows", "sample_seed"}


class SuiteError(Exception):
    pass


def parse_suite(path, overrides):
    """Returns the list of runs (dicts of fields), lists expanded, in file order."""
    runs, defaults = [], {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            try:
                words = shlex.split(line, comments=True)
            except ValueError as e:
                raise SuiteError(f"{path}:{number}: {e}")
            if not words:
                continue
            is_defaults = words[0] == "defaults"
            fields = {}
            for w in words[1:] if is_defaults else words:
                key, eq, value = w.partition("=")
                if not eq or key not in KNOWN:
                    raise SuiteError(f"{path}:{number}: expected key=value with key one of "
                                     f"{', '.join(sorted(KNOWN))}, got '{w}'")
                fields[key] = value
            if is_defaults:
                defaults.update(fields)
                continue
            run = {**defaults, **fields, **overrides}
            if "generate" in run and not run.get("label"):
                raise SuiteError(f"{path}:{number}: generate= needs a label=")
            if "data" not in run and "generate" not in run:
                raise SuiteError(f"{path}:{number}: no data=PATH (or generate=)")
            run.setdefault("command", "learn")
            run.setdefault("seeds", "1")
            lists = [run.get(k, "").split(",") if run.get(k) else [None] for k in LIST_KEYS]
            for t, th, seed in itertools.product(*lists):
                runs.append({**run, "time": t, "threads": th, "seed": seed, "line": number})
    return runs


def label_of(run):
    if run.get("label"):
        return run["label"]
    stem, _ = os.path.splitext(os.path.basename(run["data"]))
    if stem in ("train", "test", "valid"):
        return os.path.basename(os.path.dirname(run["data"]))
    return stem


def run_name(run):
    parts = [label_of(run), run["command"]]
    if run["time"]:
        parts.append(run["time"] + "s")
    if run["threads"]:
        parts.append("t" + run["threads"])
    parts.append("s" + run["seed"])
    extra = run.get("args", "")
    if extra:  # distinguish runs that differ only in their options
        parts.append(re.sub(r"[^A-Za-z0-9.]+", "", extra.replace("--", "_"))[:40])
    return "-".join(parts)


def resolve(root, path):
    """A data path under root. A file stored only gzipped (density/kdd and density/msnbc are
    FILE.csv.gz) is decompressed once into out/gunzip/ and that copy is returned: bnsl reads
    plain CSV."""
    full = path if os.path.isabs(path) else os.path.join(root, path)
    if os.path.exists(full) or not os.path.exists(full + ".gz"):
        return full
    rel = full.lstrip(os.sep) if os.path.isabs(path) else path
    copy = os.path.join(REPO, "out", "gunzip", rel)
    if not os.path.exists(copy):
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        with gzip.open(full + ".gz", "rb") as src, open(copy + ".tmp", "wb") as dst:
            shutil.copyfileobj(src, dst)
        os.replace(copy + ".tmp", copy)
    return copy


def generated(bnsl, run):
    """For a generate= run: writes out/generated/LABEL.bif and .csv once (bnsl generate, bnsl
    sample) and sets the run's data and truth to them."""
    folder = os.path.join(REPO, "out", "generated")
    os.makedirs(folder, exist_ok=True)
    bif = os.path.join(folder, run["label"] + ".bif")
    data = os.path.join(folder, run["label"] + ".csv")
    if not os.path.exists(bif):
        subprocess.run([bnsl, "generate", *shlex.split(run["generate"]), "-o", bif, "-q"],
                       check=True)
    if not os.path.exists(data):
        subprocess.run([bnsl, "sample", bif, "-n", run.get("rows") or "5000", "--seed",
                        run.get("sample_seed") or "1", "-o", data, "-q"], check=True)
    run["data"], run["truth"] = data, bif


def bnsl_argv(bnsl, root, run, prefix):
    cmd = run["command"]
    data = resolve(root, run["data"])
    argv = [bnsl, cmd, data]
    if cmd == "score":
        argv += ["-o", prefix + ".jkl"]
    else:
        argv += ["-o", prefix]
    if run["time"]:
        argv += ["--time", run["time"]]
    if run["threads"]:
        argv += ["--threads", run["threads"]]
    if cmd in ("learn", "search"):
        argv += ["--seed", run["seed"], "--trace", prefix + ".trace",
                 "--stats", prefix + ".stats.json"]
    if cmd in ("learn", "exact", "score") and run.get("header") == "no":
        argv.append("--no-header")
    argv += shlex.split(run.get("args", ""))
    return argv


def measure(argv, stderr_path, budget, env=None, stdout_path=None):
    """Runs argv (with environment env, stdout into stdout_path or discarded); returns (exit
    status or 'killed', wall s, CPU s, peak RSS MiB).

    Peak RSS is the child's ru_maxrss from wait4. Linux folds into it the peak RSS of the
    memory image the child replaced at exec -- a copy of this Python process -- so this
    process must stay small: it never loads a whole pool (see pool_header)."""
    limit = (float(budget) + 120) if budget else None
    start = time.monotonic()
    with open(stderr_path, "w") as err, \
            open(stdout_path or os.devnull, "w") as out:
        p = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        killed = False
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if limit and time.monotonic() - start > limit:
                os.kill(p.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.02)
    wall = time.monotonic() - start
    code = "killed" if killed else os.waitstatus_to_exitcode(status)
    return code, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def pool_header(path):
    """The fields of a pool JSON before its class and DAG lists (bnsl writes them first),
    parsed without reading the lists: a pool can hold 100,000 classes and DAGs, and a Python
    copy of them would inflate the peak RSS measured for every later run (see measure).
    Older pools (mec_count, dag_count = DAGs listed) are read into the current fields
    (class_count, dag_count = DAGs in the classes, dags_listed)."""
    head = []
    with open(path) as f:
        for line in f:
            cut = min((i for i in (line.find('"classes": ['), line.find('"dags": [')) if i >= 0),
                      default=-1)
            if cut >= 0:
                head.append(line[:cut])
                break
            head.append(line)
    p = json.loads("".join(head).rstrip().rstrip(",") + "}")
    if "class_count" not in p:
        p["class_count"] = p.get("mec_count")
        p["dags_listed"] = p.get("dag_count")
        p["dag_count"] = p.get("dags_in_classes", p.get("dag_count"))
    if "dag_count_exact" in p:  # past 2^53
        p["dag_count"] = p["dag_count_exact"]
    if isinstance(p.get("dag_count"), str):
        p["dag_count"] = int(p["dag_count"])
    return p


def class_spread(path):
    """Best minus worst class score of a pool JSON, read line by line (one class per line in
    the "classes" list, score first), without loading the lists; None for older pools."""
    scores, inside = [], False
    with open(path) as f:
        for line in f:
            if not inside:
                inside = '"classes": [' in line
                continue
            m = re.match(r'\s*\{"score":\s*([-0-9.eE+]+)', line)
            if not m:
                break
            scores.append(float(m.group(1)))
    return scores[0] - scores[-1] if scores else None


def walk_seconds(path):
    """The neighbour walk's seconds from a --stats file and whether it finished (None when
    absent): the walk around the final best (the pool's account), or, from builds before the
    account, every walk's (after a stall too) with no word on finishing."""
    if not os.path.exists(path):
        return None, None
    with open(path) as f:
        j = json.load(f).get("search", {})
    if "account" in j:
        return j["account"]["walk_seconds"], j["account"]["walk_finished"]
    return j.get("completion_seconds"), None


def read_trace(path):
    points = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                s, b = line.split()
                points.append((float(s), float(b)))
    return points


def best_at(curve, t):
    """The best score a trace (read_trace) had reached by t seconds; None before its first."""
    best = None
    for s, b in curve:
        if s <= t:
            best = b if best is None else max(best, b)
    return best


def evaluate(bnsl, root, run, prefix, stderr_path, learned=None):
    """bnsl eval of the pool's best DAG, or of the network file `learned` (another tool's, which
    is then always scored on the data: learned_score); {} when there is nothing to evaluate."""
    if not (run.get("truth") or run.get("test") or learned):
        return {}
    argv = [bnsl, "eval", "--learned", learned or prefix + ".pool.json", "--json"]
    if run.get("truth"):
        argv += ["--truth", resolve(root, run["truth"])]
    if learned or (run.get("truth") and run["command"] in ("learn", "search") and
                   "--score" not in run.get("args", "")):
        argv += ["--data", resolve(root, run["data"])]  # both networks' BIC
    if run.get("test"):
        argv += ["--test", resolve(root, run["test"]),
                 "--train", resolve(root, run.get("train") or run["data"])]
    if run.get("header") == "no":
        argv.append("--no-header")
    with open(stderr_path, "a") as err:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=err, text=True)
    if p.returncode != 0:
        return {"eval_error": p.returncode}
    j = json.loads(p.stdout)
    out = {}
    if "shd" in j:
        out.update(shd=j["shd"], shd_cpdag=j["shd_cpdag"],
                   arc_precision=j["arcs"]["precision"], arc_recall=j["arcs"]["recall"],
                   edge_precision=j["edges"]["precision"], edge_recall=j["edges"]["recall"])
    if "edge_brier" in j:  # a pool with edge probabilities (p_edge) against the truth
        out.update(brier_pool=j["edge_brier"]["pool"], brier_best=j["edge_brier"]["best"])
    if "data" in j:
        out["truth_score"] = j["data"]["truth"]
        out["learned_score"] = j["data"]["learned"]
    if "test" in j:
        t = j["test"]
        out["test_ll"] = t["learned"]["mean"] if t["learned"] else None
        out["truth_test_ll"] = t["truth"]["mean"] if t["truth"] else None
    return out


def parse_refs(text):
    refs = {}
    for w in (text or "").split():
        k, _, v = w.partition("=")
        refs[k] = float(v)
    return refs


def execute(run, args, runs_dir):
    name = run_name(run)
    prefix = os.path.join(runs_dir, name)
    result_path = prefix + ".result.json"
    if args.resume and os.path.exists(result_path):
        with open(result_path) as f:
            r = json.load(f)
        if "eval_error" not in r or args.dry_run:
            return r
        # The run stands; its evaluation failed (e.g. an older --tools): evaluate again.
        if run.get("generate"):
            generated(args.tools, run)
        del r["eval_error"]
        r.update(evaluate(args.tools, args.data, run, prefix, prefix + ".stderr"))
        if r.get("truth_score") is not None:
            r["refs"].setdefault("true", r["truth_score"])
        write_result(result_path, r)
        return r
    if run.get("generate") and not args.dry_run:
        generated(args.tools, run)
    elif run.get("generate"):
        run["data"] = os.path.join(REPO, "out", "generated", run["label"] + ".csv")
    argv = bnsl_argv(args.bnsl, args.data, run, prefix)
    print(f"suite: {name}: {shlex.join(argv)}", file=sys.stderr, flush=True)
    if args.dry_run:
        return None
    code, wall, cpu, rss = measure(argv, prefix + ".stderr", run["time"])
    r = {"name": name, "label": label_of(run), "command": run["command"],
         "time": float(run["time"]) if run["time"] else None,
         "threads": int(run["threads"]) if run["threads"] else None,
         "seed": int(run["seed"]), "args": run.get("args", ""), "exit": code,
         "wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "peak_rss_mib": round(rss, 1),
         "refs": parse_refs(run.get("refs")), "argv": shlex.join(argv)}
    pool = prefix + ".pool.json"
    if os.path.exists(pool):
        p = pool_header(pool)
        r.update(best_score=p["best_score"], dags=p["dag_count"], classes=p["class_count"],
                 optimal=p.get("optimal"), complete=p.get("complete"),
                 spread=class_spread(pool))
        r["walk_s"], r["walk_done"] = walk_seconds(prefix + ".stats.json")
        r.update(evaluate(args.tools, args.data, run, prefix, prefix + ".stderr"))
        if r.get("truth_score") is not None:
            r["refs"].setdefault("true", r["truth_score"])
    r["trace"] = read_trace(prefix + ".trace")
    write_result(result_path, r)
    return r


def write_result(path, r):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(r, f, indent=1)
    os.replace(tmp, path)


COLUMNS = ["name", "label", "command", "time", "threads", "seed", "exit", "wall_s", "cpu_s",
           "peak_rss_mib", "best_score", "dags", "classes", "spread", "walk_s", "walk_done", "optimal", "first_at_s", "best_at_s",
           "best_ref", "best_ref_score", "vs_best_ref", "shd", "shd_cpdag", "arc_precision",
           "arc_recall", "edge_precision", "edge_recall", "brier_pool", "brier_best", "test_ll",
           "truth_test_ll", "argv"]


def derived(r):
    r = dict(r)
    r["best_at_s"] = r["trace"][-1][0] if r.get("trace") else None
    r["first_at_s"] = r["trace"][0][0] if r.get("trace") else None
    if r.get("refs"):
        name, score = max(r["refs"].items(), key=lambda kv: kv[1])
        r["best_ref"], r["best_ref_score"] = name, score
        if r.get("best_score") is not None:
            r["vs_best_ref"] = round(r["best_score"] - score, 2)
    return r


def write_csv(path, results):
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        for r in results:
            w.writerow(derived(r))
    os.replace(path + ".tmp", path)


def fmt(x, digits=2):
    if x is None:
        return ""
    if isinstance(x, float):
        return f"{x:,.{digits}f}"
    if isinstance(x, int) and not isinstance(x, bool):
        return f"{x:,}"
    return str(x)


def sci(x):
    """3 significant digits in scientific notation (Brier scores over n(n-1)/2 pairs are tiny);
    blank when absent."""
    return "" if x is None else f"{x:.2e}"


def walk_text(r):
    """The walk's seconds, with + when it finished and - when the deadline stopped it."""
    done = r.get("walk_done")
    mark = "" if done is None else "+" if done else "-"
    return fmt(r.get("walk_s"), 1) + mark


def write_markdown(path, results, suite):
    lines = [f"Suite `{suite}`, {time.strftime('%Y-%m-%d', time.gmtime())}. Scores are the "
             "best found (BIC or BDeu, natural log); `vs ref` is that minus the best "
             "reference score of the line (`ref`); wall, CPU and peak RSS are of the whole "
             "bnsl process; `first at` is when the first network was on disk, `best at` when "
             "the best was found; `Brier pool` is the Brier score of the pool's edge "
             "probabilities against the true skeleton over all pairs, `Brier best` that of its "
             "best network alone (lower is better); `spread` is the best minus the worst class "
             "score in the pool (nats), `walk s` the neighbour walk's seconds (around the final best; "
             "`+` it finished, `-` the deadline stopped it).", "",
             "| data | command | budget s | threads | seed | wall s | CPU s | peak RSS MiB "
             "| best score | first at s | best at s | ref | vs ref | DAGs | classes | spread "
             "| walk s | SHD (CPDAG) | arc prec / rec | Brier pool | Brier best | test LL/row "
             "| exit |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:"
             "|---:|---|---:|---:|---:|---|"]
    for r in map(derived, results):
        pr = ""
        if r.get("arc_precision") is not None:
            pr = f"{r['arc_precision']:.2f} / {r['arc_recall']:.2f}"
        ref = f"{r['best_ref']} {fmt(r['best_ref_score'])}" if r.get("best_ref") else ""
        lines.append("| " + " | ".join([
            r["label"], r["command"] + (" " + r["args"] if r.get("args") else ""),
            fmt(r["time"], 0), fmt(r["threads"]), fmt(r["seed"]), fmt(r["wall_s"]),
            fmt(r["cpu_s"]), fmt(r["peak_rss_mib"], 1), fmt(r.get("best_score")),
            fmt(r.get("first_at_s"), 1), fmt(r.get("best_at_s"), 1), ref,
            fmt(r.get("vs_best_ref")), fmt(r.get("dags")), fmt(r.get("classes")),
            fmt(r.get("spread")), walk_text(r), fmt(r.get("shd_cpdag")), pr, sci(r.get("brier_pool")),
            sci(r.get("brier_best")), fmt(r.get("test_ll"), 3), str(r["exit"])]) + " |")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def svg_traces(path, label, results, low=None):
    """Score-versus-time step curves of the runs of one data set, reference lines dashed; the
    y axis from a little below the lowest final score (or from `low`) to the highest."""
    curves = [(r["name"], r["trace"]) for r in results if r.get("trace")]
    if not curves:
        return False
    refs = {}
    for r in results:
        refs.update(r.get("refs") or {})
    W, H, L, R, T, B = 760, 440, 96, 190, 36, 48
    xmax = max(max(s for s, _ in c) for _, c in curves)
    xmax = max([xmax] + [r["time"] or 0 for r in results]) or 1.0
    finals = [c[-1][1] for _, c in curves] + list(refs.values())
    top, bottom = max(finals), min(finals)
    spread = (top - bottom) or abs(top) * 0.01 or 1.0
    ylo, yhi = bottom - 0.6 * spread, top + 0.15 * spread
    if low is not None:
        ylo = min(ylo, low)

    def X(s):
        return L + (W - L - R) * s / xmax

    def Y(v):
        v = min(max(v, ylo), yhi)
        return T + (H - T - B) * (yhi - v) / (yhi - ylo)

    colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
              "#17becf"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{L}" y="20" font-size="14">{html.escape(label)}: best score vs '
           f'seconds</text>',
           f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" '
           f'stroke="#444"/>']
    for i in range(6):  # axis ticks
        s = xmax * i / 5
        v = ylo + (yhi - ylo) * i / 5
        out.append(f'<text x="{X(s):.1f}" y="{H - B + 16}" text-anchor="middle">'
                   f'{s:.0f}</text>')
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" '
                   f'stroke="#ddd"/>')
        out.append(f'<text x="{L - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:,.0f}</text>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - 10}" text-anchor="middle">seconds since '
               f'start (exploration included)</text>')
    legend_y = T + 10
    for k, (name, c) in enumerate(curves):
        color = colors[k % len(colors)]
        pts, prev = [], None
        for s, v in c:
            if prev is not None:
                pts.append(f"{X(s):.1f},{Y(prev):.1f}")
            pts.append(f"{X(s):.1f},{Y(v):.1f}")
            prev = v
        end = next(r for r in results if r["name"] == name)
        pts.append(f"{X(end.get('wall_s') or c[-1][0]):.1f},{Y(prev):.1f}")
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.6" '
                   f'points="{" ".join(pts)}"/>')
        out.append(f'<line x1="{W - R + 10}" x2="{W - R + 28}" y1="{legend_y}" '
                   f'y2="{legend_y}" stroke="{color}" stroke-width="2"/>')
        text = name[len(label) + 1:] if name.startswith(label + "-") else name
        out.append(f'<text x="{W - R + 32}" y="{legend_y + 4}">{html.escape(text)}</text>')
        legend_y += 18
    for name, v in sorted(refs.items(), key=lambda kv: -kv[1]):
        out.append(f'<line x1="{L}" x2="{W - R}" y1="{Y(v):.1f}" y2="{Y(v):.1f}" '
                   f'stroke="#777" stroke-dasharray="5,4"/>')
        out.append(f'<line x1="{W - R + 10}" x2="{W - R + 28}" y1="{legend_y}" '
                   f'y2="{legend_y}" stroke="#777" stroke-dasharray="5,4"/>')
        out.append(f'<text x="{W - R + 32}" y="{legend_y + 4}">{html.escape(name)} '
                   f'{v:,.0f}</text>')
        legend_y += 18
    out.append("</svg>")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(path + ".tmp", path)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite")
    ap.add_argument("--out", help="output folder (default out/suite-SUITENAME)")
    ap.add_argument("--bnsl", default=os.path.join(REPO, "build", "bnsl"),
                    help="bnsl binary (default build/bnsl)")
    ap.add_argument("--tools", help="bnsl binary for generate, sample and eval (default: --bnsl; "
                    "lets an older --bnsl be measured on the same data)")
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "datasets"),
                    help="root of relative data paths (default ../shared/datasets)")
    ap.add_argument("--only", help="run only runs whose name matches this regular expression")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="override a field of every run (e.g. time=10)")
    ap.add_argument("--resume", action="store_true",
                    help="reuse runs already measured (a run whose bnsl eval failed is "
                    "evaluated again, with --tools)")
    ap.add_argument("--dry-run", action="store_true", help="print the command lines only")
    args = ap.parse_args()
    overrides = {}
    for s in args.set:
        k, eq, v = s.partition("=")
        if not eq or k not in KNOWN:
            ap.error(f"--set {s}: expected KEY=VALUE with a suite field as KEY")
        overrides[k] = v
    try:
        runs = parse_suite(args.suite, overrides)
    except (OSError, SuiteError) as e:
        print(f"suite: error: {e}", file=sys.stderr)
        return 2
    if args.only:
        runs = [r for r in runs if re.search(args.only, run_name(r))]
    suite_name = os.path.splitext(os.path.basename(args.suite))[0]
    out = args.out or os.path.join(REPO, "out", "suite-" + suite_name)
    runs_dir = os.path.join(out, "runs")
    os.makedirs(runs_dir, exist_ok=True)
    args.tools = args.tools or args.bnsl
    if not args.dry_run and not os.access(args.bnsl, os.X_OK):
        print(f"suite: error: {args.bnsl} is not an executable (build first, or --bnsl)",
              file=sys.stderr)
        return 2
    results = []
    for run in runs:
        r = execute(run, args, runs_dir)
        if r is None:
            continue
        results.append(r)
        print(f"suite: {r['name']}: exit {r['exit']}, wall {r['wall_s']:.1f} s, best "
              f"{fmt(r.get('best_score'))}", file=sys.stderr, flush=True)
    if args.dry_run:
        return 0
    write_csv(os.path.join(out, "results.csv"), results)
    write_markdown(os.path.join(out, "results.md"), results, args.suite)
    for label in dict.fromkeys(r["label"] for r in results):
        svg_traces(os.path.join(out, f"traces-{label}.svg"), label,
                   [r for r in results if r["label"] == label])
    with open(os.path.join(out, "results.md")) as f:
        sys.stdout.write(f.read())
    print(f"suite: wrote {out}/results.csv, results.md, traces-*.svg", file=sys.stderr)
    return 0 if all(r["exit"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
