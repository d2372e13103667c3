#!/usr/bin/env bash
# `bnsl generate`, then `bnsl sample` and `bnsl learn` at scale: a random network of 3,000
# variables is written as BIF (the same seed gives the same bytes); 60 rows sampled from it
# are learned with screening (the default above 300 variables) under a short budget; the
# pool passes `bnsl check` (every DAG re-scored from the data), says it is not complete (a
# screened cache), and its best network is on disk before the end; `bnsl eval --data` scores
# the true and the learned networks on the data, and the learned score is the pool's. Options
# out of range give exit 2.
#
# Usage: bash generate.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"

field() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

# 1. Generate: BIF with 3,000 variables, deterministic.
"$BNSL" generate --vars 3000 --max-parents 3 --arity 2:3 --seed 4 -o "$WORK/net.bif" \
  2>"$WORK/err.txt" || fail "generate: exit $?"
[[ $(grep -c '^variable ' "$WORK/net.bif") -eq 3000 ]] || fail "not 3000 variables"
"$BNSL" generate --vars 3000 --max-parents 3 --arity 2:3 --seed 4 -o "$WORK/again.bif" -q \
  2>"$WORK/err.txt" || fail "generate again: exit $?"
cmp -s "$WORK/net.bif" "$WORK/again.bif" || fail "same seed gave different networks"
pass "generate writes 3,000 variables; the same seed gives the same file"

# 2. Sample and learn at scale, tiny row count.
"$BNSL" sample "$WORK/net.bif" -n 60 --seed 1 -o "$WORK/data.csv" -q 2>"$WORK/err.txt" ||
  fail "sample: exit $?"
# --max-dags 300: the best class of a tree learned from 60 rows holds thousands of DAGs, and
# bnsl check re-scores each listed one (minutes in CI's ASan build for 3,000).
"$BNSL" learn "$WORK/data.csv" -o "$WORK/out" --time 8 --threads 2 --max-dags 300 \
  --stats "$WORK/stats.json" \
  2>"$WORK/err.txt" || fail "learn: exit $?"
grep -q "wrote a first network" "$WORK/err.txt" || fail "no first network before the search"
[[ $(field "$WORK/stats.json" 'j["explore"]["candidates"]') -gt 0 ]] || fail "not screened"
[[ $(field "$WORK/out.pool.json" 'j["complete"], j["optimal"]') == "False False" ]] ||
  fail "a screened cache claimed complete or optimal"
"$BNSL" check "$WORK/data.csv" "$WORK/out.pool.json" >"$WORK/check.txt" 2>"$WORK/err.txt" ||
  fail "check: exit $? ($(tail -3 "$WORK/check.txt"))"
pass "learn on 3,000 variables x 60 rows: screened, the pool re-scores exactly"

# 3. eval --data: both networks scored on the data; the learned one is the pool's best.
"$BNSL" eval --truth "$WORK/net.bif" --learned "$WORK/out.pool.json" --data "$WORK/data.csv" \
  --json >"$WORK/eval.json" 2>"$WORK/err.txt" || fail "eval: exit $?"
python3 - "$WORK/eval.json" "$WORK/out.pool.json" <<'PY' || fail "eval --data scores"
import json, sys
e = json.load(open(sys.argv[1]))["data"]
best = json.load(open(sys.argv[2]))["best_score"]
assert e["score"] == "bic" and e["rows"] == 60
assert isinstance(e["truth"], float)
assert abs(e["learned"] - best) <= 1e-9 * max(1.0, abs(best)), (e["learned"], best)
PY
pass "eval --data scores the true and the learned network"

# 4. Bad options: exit 2 with a message.
for args in "--vars 0" "--vars 10 --arity 5:2" "--vars 10 --arity 1:3" "--vars 10 --arity x" \
            "--vars 10 --alpha 0"; do
  "$BNSL" generate $args -o "$WORK/bad.bif" 2>"$WORK/err.txt"
  status=$?
  [[ $status -eq 2 ]] || fail "generate $args: exit $status, expected 2"
  grep -q "error" "$WORK/err.txt" || fail "generate $args: no error message"
  [[ ! -e $WORK/bad.bif ]] || fail "generate $args wrote a file"
done
pass "options out of range: exit 2"

echo "$passed passed, 0 failed"
