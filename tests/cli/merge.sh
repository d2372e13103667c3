#!/usr/bin/env bash
# Command-line tests of `bnsl merge`, as a job array uses it: `bnsl score --vars A:B` slices of
# the bundled wine data, explored to the end (--time 0), merge into the cache of one whole run
# (the same bytes once both have been read back); parts that do not belong together (other
# epsilon, overlapping or missing variables, a cache without provenance, a mix of caches and
# pools) exit 2 naming the problem; pools of two `learn` seeds merge into a pool that `bnsl
# check` accepts and that holds every DAG of either input within epsilon of the merged best.
#
# Usage: bash merge.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

wine=$DATA/wine.csv
score() { "$BNSL" score "$wine" --no-header --time 0 --threads 1 -q "$@" 2>err.txt; }
score -o whole.jkl || fail "score whole"
score --vars 0:5 -o part-0.jkl || fail "score --vars 0:5"
score --vars 5:9 -o part-1.jkl || fail "score --vars 5:9"
score --vars 9:14 -o part-2.jkl || fail "score --vars 9:14"
grep -q "^# bnsl vars 5:9$" part-1.jkl || fail "part-1.jkl has no provenance header"
pass "score writes a provenance header"

"$BNSL" merge part-2.jkl part-0.jkl part-1.jkl -o all.jkl 2>err.txt || fail "merge: exit $?"
"$BNSL" merge whole.jkl -o whole-back.jkl 2>err.txt || fail "merge of one whole cache: exit $?"
cmp -s all.jkl whole-back.jkl || fail "merged slices differ from the whole run's cache"
grep -q "every variable explored to the end" err.txt || fail "merge does not say exhaustive"
pass "merged slices equal the whole run's cache"

"$BNSL" search all.jkl --data "$wine" --no-header --time 2 --threads 1 -q -o searched \
  2>err.txt || fail "search on the merged cache: exit $?"
pass "search reads the merged cache"

# expect_2 WHAT PATTERN ARGS...: `bnsl merge ARGS` exits 2 with PATTERN on stderr.
expect_2() {
  local what=$1 pattern=$2
  shift 2
  "$BNSL" merge "$@" 2>err.txt >/dev/null
  local status=$?
  [[ $status -eq 2 ]] || fail "$what: exit $status, expected 2"
  grep -Eq -- "$pattern" err.txt || fail "$what: stderr lacks /$pattern/"
  pass "$what"
}
score --vars 4:9 -o overlap.jkl || fail "score --vars 4:9"
score --vars 5:9 --bayes-factor 3 -o eps3.jkl || fail "score --bayes-factor 3"
expect_2 "overlapping parts" "overlap.jkl.*overlap" part-0.jkl overlap.jkl part-2.jkl -o x.jkl
expect_2 "a missing part" "part-2.jkl.*no part covers variables 5:9" part-0.jkl part-2.jkl -o x.jkl
expect_2 "a part of another epsilon" "eps3.jkl.*epsilon" part-0.jkl eps3.jkl part-2.jkl -o x.jkl
expect_2 "a cache without provenance" "no provenance header" "$DATA/wine.BIC.3" -o x.jkl
expect_2 "pools without --data" "--data" searched.pool.json -o x
expect_2 "caches and pools mixed" "all of one kind" part-0.jkl searched.pool.json -o x

# Pools of two seeds (learn on a sample of the bundled alarm data: many near-ties, so the two
# pools differ).
head -1001 "$DATA/alarm-5000.csv" >alarm.csv
for seed in 1 2; do
  "$BNSL" learn alarm.csv --time 3 --threads 1 --seed "$seed" --exact-max-vars 0 -q \
    -o "seed$seed" 2>err.txt || fail "learn --seed $seed"
done
"$BNSL" merge --data alarm.csv seed1.pool.json seed2.pool.json -o merged 2>err.txt ||
  fail "merge of pools: exit $?"
"$BNSL" check alarm.csv merged.pool.json >check.txt 2>err.txt || {
  cat check.txt >&2
  fail "bnsl check rejects the merged pool"
}
pass "the merged pool passes bnsl check"
python3 - <<'EOF' || fail "the merged pool lacks DAGs of its inputs within epsilon"
import json, pool_file
m = pool_file.load("merged.pool.json")
best, eps = m["best_score"], m["epsilon"]
tol = 1e-9 * max(1.0, abs(best))
have = {json.dumps(d["parents"]) for d in m["dags"]}
for name in ("seed1.pool.json", "seed2.pool.json"):
    p = pool_file.load(name)
    assert p["best_score"] <= best + tol, (name, p["best_score"], best)
    for d in p["dags"]:
        if d["score"] >= best - eps + tol:
            assert json.dumps([sorted(x) for x in d["parents"]]) in have, (name, d["score"])
EOF
pass "the merged pool holds every DAG of either input within epsilon of the merged best"

echo "$passed passed, 0 failed"
