#!/usr/bin/env python3
"""Two jkl score caches as sets of families: are the (child, parents) pairs the same, and how
far apart are their scores? Variables are matched by name, or by number where a cache names
them V0, V1, ... (bnsl with --no-header) and the other 0, 1, ... (bnsl's jkl writes indices).

    bench/jkl_compare.py A.jkl B.jkl

Exit 0 when the sets are the same and every score agrees to --tolerance (relative, default
1e-9, bnsl's score tolerance), 1 otherwise. Issue 62: bdeu_lattice's brute-force cache against
bnsl's exploration.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coverage import jkl_sets  # noqa: E402  (bench/coverage.py: the jkl reader)


def key(name):
    return name[1:] if name.startswith("V") and name[1:].isdigit() else name


def read(path):
    """{(child, parent tuple): score}, variables keyed by key()."""
    return {(child, parents): score for child, sets in jkl_sets(path, key).items()
            for parents, score in sets.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tolerance", type=float, default=1e-9)
    args = ap.parse_args()
    a, b = read(args.a), read(args.b)
    only_a, only_b = a.keys() - b.keys(), b.keys() - a.keys()
    common = a.keys() & b.keys()
    worst = max((abs(a[k] - b[k]) / max(1.0, abs(a[k])) for k in common), default=0.0)
    print(f"{args.a}: {len(a)} families; {args.b}: {len(b)}")
    print(f"only in the first: {len(only_a)}; only in the second: {len(only_b)}")
    print(f"largest relative score difference: {worst:.3g}")
    return 0 if not only_a and not only_b and worst <= args.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
