#!/usr/bin/env python3
"""How far exhaustion reaches under BDeu (issue 62): for every uci/ data set of --min-vars to
--max-vars variables, the parent sets an exhaustive exploration without an in-degree limit
scores when no bound cuts (n children times 2^(n-1) subsets), and the seconds that takes at the
cheapest cost per set measured (the lattice walk, bench/results/exact-grid.md: 1.20 us a set on
uci/parkinsons, 138 distinct rows; the walk extends each set's index over the rows, so more
rows cost more) on --threads threads. The rules cut part of it: on uci/autos the walk scored
4.0e8 of the 8.7e8 sets.

    bench/bdeu_reach.py                                   # ../shared/datasets/uci, 600-s deadline
    bench/bdeu_reach.py --us-per-set 1.27 --deadline 540  # autos's cost; the exploration's share

Prints a markdown table: the sets, the seconds without cuts, and 2^(n-1) x distinct rows,
which the walk needs within explore.lattice_max_work (10^10; beyond it the levels explore, at
several times the cost a set). Why the bounds cut little there: docs/design.md, "Where BDeu's
superset bounds stop".
"""
import argparse
import glob
import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shape(path):
    """Variables, rows and distinct rows of a headerless CSV (uci/'s files have no header)."""
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(line)
    return len(rows[0].split(",")), len(rows), len(set(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(REPO, "..", "shared", "datasets", "uci"),
                    help="folder of headerless CSVs (default ../shared/datasets/uci)")
    ap.add_argument("--max-vars", type=int, default=60)
    ap.add_argument("--min-vars", type=int, default=21)
    ap.add_argument("--us-per-set", type=float, default=1.20)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--deadline", type=float, default=600)
    ap.add_argument("--work-bound", type=float, default=1e10,
                    help="explore.lattice_max_work (default 1e10)")
    args = ap.parse_args()
    rows = []
    for path in sorted(glob.glob(os.path.join(args.data, "*.csv"))):
        n, count, distinct = shape(path)
        if not args.min_vars <= n <= args.max_vars:
            continue
        sets = n * 2 ** (n - 1)
        seconds = sets * args.us_per_set * 1e-6 / args.threads
        work = 2 ** (n - 1) * distinct
        rows.append((n, os.path.basename(path)[:-4], count, distinct, sets, seconds, work))
    print(f"| data | n | rows | distinct rows | sets n·2^(n−1) | s at {args.us_per_set} µs a set, "
          f"{args.threads} threads, no cut | 2^(n−1) × distinct rows | past {args.deadline:g} s "
          f"or the work bound |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for n, name, count, distinct, sets, seconds, work in sorted(rows):
        reach = ", ".join(w for w, past in (("deadline", seconds > args.deadline),
                                            ("work bound", work > args.work_bound)) if past)
        print(f"| {name} | {n} | {count:,} | {distinct:,} | {sets:.3g} | {seconds:,.0f} | "
              f"{work:.3g} | {reach or 'neither'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
