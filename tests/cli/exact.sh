#!/usr/bin/env bash
# Command-line tests of `bnsl exact`: on the bundled wine data (BIC, no header) both methods
# prove GOBNILP's optimum -1258.445909, list the same DAGs within ln 3 (the pool JSON says
# optimal and complete), the default method (auto: dp here) and `bnsl learn` (exact up to 22
# variables) list them too, a .jkl cache is read as such, --max-solutions truncates (complete
# false), and bad usage exits 2 with a message. The pool is re-checked with python3.
#
# Usage: bash exact.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

# pool_is FILE BEST OPTIMAL COMPLETE [COUNT]: checks fields of a pool JSON.
pool_is() {
  python3 - "$@" <<'EOF' || fail "pool check: $*"
import json, sys
path, best, optimal, complete = sys.argv[1:5]
d = json.load(open(path))
assert abs(d["best_score"] - float(best)) < 1e-6, d["best_score"]
assert d["optimal"] == (optimal == "true"), d["optimal"]
assert d["complete"] == (complete == "true"), d["complete"]
if len(sys.argv) > 5:
    assert len(d["dags"]) == int(sys.argv[5]), len(d["dags"])
scores = [g["score"] for g in d["dags"]]
assert scores == sorted(scores, reverse=True)
assert len({json.dumps(g["parents"]) for g in d["dags"]}) == len(d["dags"])
EOF
}

same_dags() {
  python3 - "$1" "$2" <<'EOF' || fail "dp and ilp pools differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda d: sorted(json.dumps(g["parents"]) for g in d["dags"])
assert key(a) == key(b)
assert a["class_count"] == b["class_count"]
EOF
}

WINE=$DATA/wine.csv
"$BNSL" exact "$WINE" --no-header --method dp --bayes-factor 3 -q -o dp || fail "dp exit $?"
pool_is dp.pool.json -1258.445909 true true 308
[[ -s dp.best.dot && -s dp.best.bif ]] || fail "dp: missing .best.dot / .best.bif"
passed=$((passed + 1))

if "$BNSL" exact "$WINE" --no-header --method ilp --bayes-factor 3 -q -o ilp 2>err.txt; then
  pool_is ilp.pool.json -1258.445909 true true 308
  same_dags dp.pool.json ilp.pool.json
  passed=$((passed + 1))
else
  status=$?
  [[ $status -eq 2 ]] && grep -q "unavailable" err.txt || fail "ilp: exit $status"
  echo "exact.sh: built without CBC; ilp reports it is unavailable" >&2
fi

# The default method, auto, is dp for 14 variables.
"$BNSL" exact "$WINE" --no-header --bayes-factor 3 -q -o auto || fail "auto exit $?"
pool_is auto.pool.json -1258.445909 true true 308
python3 -c "import json; assert json.load(open('auto.pool.json'))['algorithm'] == 'dp'" ||
  fail "auto: expected dp on 14 variables"
passed=$((passed + 1))

# learn on 14 variables is exact too (the DP after a finished exploration): the same list.
"$BNSL" learn "$WINE" --no-header --bayes-factor 3 --time 20 -q -o learn || fail "learn exit $?"
pool_is learn.pool.json -1258.445909 true true 308
same_dags dp.pool.json learn.pool.json
python3 -c "import json; assert json.load(open('learn.pool.json'))['algorithm'] == 'dp'" ||
  fail "learn: expected algorithm dp on 14 variables"
passed=$((passed + 1))

cp "$DATA/wine.BIC.3" wine.jkl  # a cache is recognised by its .jkl ending
"$BNSL" exact wine.jkl --method dp --epsilon 0 -q -o jkl || fail "jkl exit $?"
pool_is jkl.pool.json -1258.445909 true true
passed=$((passed + 1))

"$BNSL" exact "$WINE" --no-header --method dp --max-solutions 5 -q -o cut || fail "cut exit $?"
pool_is cut.pool.json -1258.445909 true false
passed=$((passed + 1))

"$BNSL" exact "$WINE" --no-header --method nope -o x >/dev/null 2>err.txt
[[ $? -eq 2 ]] || fail "bad --method: expected exit 2"
"$BNSL" exact missing.csv -o x >/dev/null 2>err.txt
[[ $? -eq 2 ]] && grep -q "bnsl: error:" err.txt || fail "missing file: expected exit 2"
passed=$((passed + 1))

echo "$passed passed, 0 failed"
