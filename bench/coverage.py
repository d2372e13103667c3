#!/usr/bin/env python3
"""Coverage of a score cache: for how many variables does the cache hold the TRUE parent set
(from the network the data was sampled from)?

usage: bench/coverage.py NET.bif DATA.csv CACHE.jkl

DATA.csv must have a header row naming the variables (the cache refers to columns by index).
Parents of variables whose true parent has a single observed state in the data are compared
without that parent (bnsl never uses such parents: they change no score), and are reported.
"""
import re
import sys


def bif_parents(path):
    text = open(path).read()
    parents = {}
    for m in re.finditer(r"probability\s*\(\s*([^|)]+?)\s*(?:\|\s*([^)]*))?\)", text):
        child = m.group(1).strip()
        pa = [p.strip() for p in (m.group(2) or "").split(",") if p.strip()]
        parents[child] = pa
    return parents


def csv_header_and_arity(path):
    with open(path) as f:
        names = f.readline().rstrip("\r\n").split(",")
        seen = [set() for _ in names]
        for line in f:
            for i, v in enumerate(line.rstrip("\r\n").split(",")):
                seen[i].add(v)
    return names, [len(s) for s in seen]


def jkl_sets(path):
    lines = [l.split() for l in open(path) if l.strip() and not l.startswith("#")]
    sets, i = {}, 1
    while i < len(lines):
        v, count = int(lines[i][0]), int(lines[i][1])
        i += 1
        sets[v] = set()
        for _ in range(count):
            k = int(lines[i][1])
            sets[v].add(tuple(sorted(int(p) for p in lines[i][2:2 + k])))
            i += 1
    return sets


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    truth = bif_parents(sys.argv[1])
    names, arity = csv_header_and_arity(sys.argv[2])
    index = {n: i for i, n in enumerate(names)}
    cache = jkl_sets(sys.argv[3])
    covered = total = adjusted = 0
    by_size = {}
    for child, pa in truth.items():
        v = index[child]
        kept = tuple(sorted(index[p] for p in pa if arity[index[p]] >= 2))
        if len(kept) != len(pa):
            adjusted += 1
        if arity[v] < 2:
            kept = ()
        hit = kept in cache.get(v, set())
        total += 1
        covered += hit
        s = by_size.setdefault(len(pa), [0, 0])
        s[0] += hit
        s[1] += 1
    print(f"covered {covered} of {total} true parent sets")
    for size in sorted(by_size):
        print(f"  {size} parents: {by_size[size][0]} of {by_size[size][1]}")
    if adjusted:
        print(f"  ({adjusted} sets compared without parents that have one observed state)")


if __name__ == "__main__":
    main()
