#!/usr/bin/env python3
"""Coverage of a score cache: for how many variables does the cache hold the TRUE parent set
(from the network the data was sampled from)?

usage: bench/coverage.py NET.bif DATA.csv CACHE.jkl [--best-subsets]

DATA.csv must have a header row naming the variables (the cache refers to columns by index).
Parents of variables whose true parent has a single observed state in the data are compared
without that parent (bnsl never uses such parents: they change no score), and are reported.

--best-subsets: also the oracle network, each variable's best subset of its true parents by
BIC on DATA.csv (an acyclic network at least as good as the true one): its score, for how many
variables the cache holds that subset, and the BIC lost where it does not (the oracle
subset's score minus the best cache entry that is a subset of the true parents): the part of
the true network's score that a search over this cache cannot reach through the true
structure. Uses numpy when it is installed (seconds), plain Python otherwise (minutes).
"""
import itertools
import math
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


def jkl_sets(path, name=int):
    """{variable: {sorted parent tuple: score}}, each variable's token mapped by `name` (the
    default: bnsl's jkl files, which number the variables)."""
    lines = [l.split() for l in open(path) if l.strip() and not l.startswith("#")]
    sets, i = {}, 1
    while i < len(lines):
        v, count = name(lines[i][0]), int(lines[i][1])
        i += 1
        sets[v] = {}
        for _ in range(count):
            k = int(lines[i][1])
            sets[v][tuple(sorted(name(p) for p in lines[i][2:2 + k]))] = float(lines[i][0])
            i += 1
    return sets


def csv_codes(path):
    """Columns as lists of integer codes (by first appearance) and arities."""
    with open(path) as f:
        f.readline()
        rows = [line.rstrip("\r\n").split(",") for line in f if line.strip()]
    cols, arity = [], []
    for j in range(len(rows[0])):
        codes = {}
        cols.append([codes.setdefault(r[j], len(codes)) for r in rows])
        arity.append(len(codes))
    return cols, arity


def make_bic(cols, arity):
    n_rows = len(cols[0])
    half_log_n = 0.5 * math.log(n_rows)
    try:
        import numpy as np
        arr = [np.array(c, dtype=np.int64) for c in cols]

        def ll(child, parents):
            key = np.zeros(n_rows, dtype=np.int64)
            for p in parents:
                key = key * arity[p] + arr[p]
            _, nj = np.unique(key, return_counts=True)
            _, njk = np.unique(key * arity[child] + arr[child], return_counts=True)
            return float((njk * np.log(njk)).sum() - (nj * np.log(nj)).sum())
    except ImportError:
        from collections import Counter

        def ll(child, parents):
            keys = list(zip(*(cols[p] for p in parents))) if parents else [()] * n_rows
            nj = Counter(keys)
            njk = Counter(zip(keys, cols[child]))
            return sum(c * math.log(c) for c in njk.values()) - \
                sum(c * math.log(c) for c in nj.values())

    def bic(child, parents):
        q = 1
        for p in parents:
            q *= arity[p]
        return ll(child, parents) - half_log_n * (arity[child] - 1) * q
    return bic


def best_subsets(truth, names, index, cache, data_path):
    cols, arity = csv_codes(data_path)
    bic = make_bic(cols, arity)
    oracle = truth_score = lost = 0.0
    held = 0
    for child, pa in truth.items():
        v = index[child]
        ps = [index[p] for p in pa if arity[index[p]] >= 2] if arity[v] >= 2 else []
        truth_score += bic(v, ps)
        best = max(((bic(v, list(s)), tuple(sorted(s))) for k in range(len(ps) + 1)
                    for s in itertools.combinations(ps, k)))
        oracle += best[0]
        entries = cache.get(v, {})
        if best[1] in entries:
            held += 1
        else:
            reach = max((sc for s, sc in entries.items() if set(s) <= set(ps)),
                        default=-math.inf)
            lost += best[0] - reach
    print(f"true network BIC {truth_score:,.2f}; oracle network (best subset of each true "
          f"parent set) {oracle:,.2f}")
    print(f"oracle subsets held {held} of {len(truth)}; BIC lost where not held {lost:,.2f}")


def main():
    flags = [a for a in sys.argv[1:] if a.startswith("--")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 3:
        sys.exit(__doc__)
    sys.argv[1:] = args
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
        hit = kept in cache.get(v, {})
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
    if "--best-subsets" in flags:
        best_subsets(truth, names, index, cache, sys.argv[2])


if __name__ == "__main__":
    main()
