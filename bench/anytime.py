#!/usr/bin/env python3
"""The anytime curves of `learn --trace` runs: the best score at fixed times, as a Markdown
table, and optionally as an SVG plot (score against time, drawn as bench/suite.py draws its
suites' traces).

    bench/anytime.py out/s60/before.trace.txt out/s60/after.trace.txt \\
        --true -41674344.50 --at 5,10,30,60,120,300,450,600 --svg out/s60/anytime.svg

Each trace file (bench/scale_run.sh writes OUT.trace.txt) holds lines "SECONDS BEST", one per
rise of the best. A run's label is its file name less ".trace.txt". With --true, each cell also
says how far below the true network's score the best is, in percent.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import best_at, read_trace, svg_traces  # noqa: E402  (bench/suite.py's)


def label_of(path):
    name = os.path.basename(path)
    return name[: -len(".trace.txt")] if name.endswith(".trace.txt") else name


def table(runs, times, true):
    head = "| run | " + " | ".join(f"{t:g} s" for t in times) + " |"
    rows = [head, "|---|" + "---:|" * len(times)]
    for label, curve in runs:
        cells = []
        for t in times:
            b = best_at(curve, t)
            if b is None:
                cells.append("—")
            elif true is not None:
                cells.append(f"{b:,.0f} ({100 * (b - true) / abs(true):+.2f}%)")
            else:
                cells.append(f"{b:,.0f}")
        rows.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("traces", nargs="+")
    ap.add_argument("--true", type=float, help="the true network's score (bnsl eval --data)")
    ap.add_argument("--at", default="5,10,30,60,120,300,450,600", help="times, s")
    ap.add_argument("--svg", help="also write the plot here")
    a = ap.parse_args()
    runs = [(label_of(p), read_trace(p)) for p in a.traces]
    times = [float(t) for t in a.at.split(",")]
    print(table(runs, times, a.true))
    if a.svg:
        results = [{"name": label, "trace": curve, "time": max(times),
                    "refs": {"true network": a.true} if a.true is not None else {}}
                   for label, curve in runs]
        first = min(curve[0][1] for _, curve in runs if curve)  # the whole curve, not the end
        svg_traces(a.svg, "anytime", results, low=first)


if __name__ == "__main__":
    main()
