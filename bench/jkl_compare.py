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
import sys


def key(name):
    return name[1:] if name.startswith("V") and name[1:].isdigit() else name


def read(path):
    entries = {}
    lines = [line for line in open(path) if line.strip() and not line.startswith("#")]
    i = 1
    while i < len(lines):
        name, k = lines[i].split()
        i += 1
        for _ in range(int(k)):
            fields = lines[i].split()
            i += 1
            entries[(key(name), frozenset(key(p) for p in fields[2:]))] = float(fields[0])
    return entries


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
