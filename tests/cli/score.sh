#!/usr/bin/env bash
# Command-line tests of `bnsl score`: the budget (`--time 0` explores every variable to the
# end, no --time means one second per variable, --time with --time-per-var is bad usage), and
# counting over repeated rows: the bundled wine data written three times over (534 rows, 135
# distinct) is counted over its distinct rows (--stats: rows, rows_counted), and every score in
# the cache equals BIC computed here in python3 from the CSV, row by row.
#
# Usage: bash score.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

for _ in 1 2 3; do cat "$DATA/wine.csv"; done >wine3.csv
distinct=$(sort -u wine3.csv | wc -l)
[[ $(wc -l <wine3.csv) -eq 534 && $distinct -lt 178 ]] || fail "wine3.csv: unexpected rows"

"$BNSL" score wine3.csv --no-header --time 0 --bayes-factor 3 --stats stats.json -o wine3.jkl \
  --verbose 2>err.txt || fail "score --time 0: exit $?"
grep -q "no time limit" err.txt || fail "score --time 0 does not say 'no time limit'"
grep -q "rows counted *$distinct distinct of 534" err.txt || fail "no 'rows counted' line"
pass "score --time 0 explores without a limit and counts the distinct rows"

python3 - stats.json "$distinct" <<'EOF' || fail "stats"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["rows"] == 534 and s["rows_counted"] == int(sys.argv[2]), s
assert s["vars_out_of_time"] == 0, s["vars_out_of_time"]
EOF
pass "stats: rows 534, rows_counted $distinct, no variable cut"

python3 - wine3.csv wine3.jkl <<'EOF' || fail "cache scores differ from BIC computed from the rows"
import math, sys
from collections import Counter
rows = [line.strip().split(",") for line in open(sys.argv[1]) if line.strip()]
n_rows, n = len(rows), len(rows[0])
cols = list(zip(*rows))
arity = [len(set(c)) for c in cols]
def bic(child, parents):
    nj, njk = Counter(), Counter()
    for r in rows:
        j = tuple(r[p] for p in parents)
        nj[j] += 1
        njk[j, r[child]] += 1
    ll = sum(c * math.log(c / nj[j]) for (j, _), c in njk.items())
    q = 1
    for p in parents:
        q *= arity[p]
    return ll - 0.5 * math.log(n_rows) * (arity[child] - 1) * q
# '#' lines are comments (bnsl's provenance header)
lines = iter(l for l in open(sys.argv[2]).read().split("\n") if not l.startswith("#"))
assert int(next(lines)) == n
checked = 0
for _ in range(n):
    child, count = map(int, next(lines).split())
    for _ in range(count):
        fields = next(lines).split()
        score, parents = float(fields[0]), [int(p) for p in fields[2:]]
        assert int(fields[1]) == len(parents)
        want = bic(child, parents)
        assert abs(score - want) <= 1e-6 * max(1.0, abs(want)), (child, parents, score, want)
        checked += 1
assert checked > 100, checked
print("checked", checked, "families")
EOF
pass "every cached score equals BIC over all 534 rows"

"$BNSL" score wine3.csv --no-header -o w1.jkl 2>err.txt || fail "score: exit $?"
grep -q "1 s per variable" err.txt || fail "the default budget is not one second per variable"
pass "default budget: one second per variable"

"$BNSL" score wine3.csv --no-header --time 0 --time-per-var 1 -o w2.jkl 2>err.txt
[[ $? -eq 2 ]] || fail "--time with --time-per-var: expected exit 2"
pass "--time with --time-per-var is bad usage"

echo "$passed passed, 0 failed"
