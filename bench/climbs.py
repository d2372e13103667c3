#!/usr/bin/env python3
"""The climbs of `learn` runs made by bench/scale_run.sh: how many local optima the searches
reached, in how many seconds of search, per second and the seconds per climb, as a Markdown
table (issue 60's measure of a search's speed at 10,000 variables).

    bench/climbs.py out/s60/before-s1 out/s60/after-s1

Each argument is scale_run.sh's OUT: OUT.stats.json gives the last search's climbs and seconds
(`search.local_optima`, `search.seconds`), OUT.log the search rounds' before it (their progress
lines, "bnsl: propose: ... round N: a search of S s, C climbs; ..."; runs made before the rounds
existed have none).
"""
import json
import os
import re
import sys

ROUND = re.compile(r"bnsl: propose: (\w+) round \d+: a search of ([0-9.e+-]+) s, (\d+) climbs")


def climbs(out):
    stats = json.load(open(out + ".stats.json"))["search"]
    rows = {"last search": (stats["seconds"], stats["local_optima"])}
    log = open(out + ".log").read().replace("\r", "\n")
    for phase, seconds, n in ROUND.findall(log):
        s, c = rows.get(phase + " rounds", (0.0, 0))
        rows[phase + " rounds"] = (s + float(seconds), c + int(n))
    return rows


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) >= 2 else 2
    print("| run | searches | search s | climbs | climbs/s | s per climb |")
    print("|---|---|---:|---:|---:|---:|")
    for out in sys.argv[1:]:
        rows = climbs(out)
        total = (sum(s for s, _ in rows.values()), sum(c for _, c in rows.values()))
        for name, (s, c) in list(rows.items()) + [("all", total)]:
            per = f"{s / c:.2f}" if c else "—"
            rate = f"{c / s:.2f}" if s > 0 else "—"
            print(f"| {os.path.basename(out)} | {name} | {s:.1f} | {c} | {rate} | {per} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
