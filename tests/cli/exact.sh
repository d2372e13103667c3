#!/usr/bin/env bash
# Command-line tests of `bnsl exact`: on the bundled wine data (BIC, no header) both methods
# prove GOBNILP's optimum -1258.445909, list the same DAGs within ln 3 (the pool JSON says
# optimal and complete), the default method (auto: dp here) and `bnsl learn` (exact up to 22
# variables) list them too, a .jkl cache is read as such, --max-solutions truncates (complete
# false), --k-best and --k-best-classes give the head of the complete list, --classes lists its
# classes once each (dp and ilp), --prefer-arcs orients the classes' reversible edges, a cut
# exploration's optimum is not called proven, and bad usage exits 2 with a message. The pools
# are re-checked with python3 and bnsl check.
#
# Usage: bash exact.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

# pool_is FILE BEST OPTIMAL COMPLETE [COUNT]: checks fields of a pool JSON.
pool_is() {
  python3 - "$@" <<'EOF' || fail "pool check: $*"
import json, pool_file, sys
path, best, optimal, complete = sys.argv[1:5]
d = pool_file.load(path)
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
import json, pool_file, sys
a, b = (pool_file.load(p) for p in sys.argv[1:3])
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

methods=dp
if "$BNSL" exact "$WINE" --no-header --method ilp --bayes-factor 3 -q -o ilp 2>err.txt; then
  methods="dp ilp"
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

# --k-best: the 10 best DAGs (and ties at the 10th), the head of the complete list within
# ln 20; --k-best-classes: every DAG of the 5 best classes. bnsl check re-scores both.
"$BNSL" exact "$WINE" --no-header --method dp --bayes-factor 20 -q -o all || fail "all exit $?"
"$BNSL" exact "$WINE" --no-header --k-best 10 -q -o k10 || fail "k-best exit $?"
"$BNSL" exact "$WINE" --no-header --k-best-classes 5 -q -o c5 || fail "k-best-classes exit $?"
python3 - <<'EOF' || fail "k-best pools"
import pool_file
a, k, c = (pool_file.load(p + ".pool.json") for p in ("all", "k10", "c5"))
assert a["complete"] and k["complete"] and c["complete"] and k["optimal"]
assert a["k_best"] is None
assert k["k_best"]["k"] == 10 and k["k_best"]["of"] == "dags"
assert k["k_best"]["listed"] == len(k["dags"]) >= 10
assert k["k_best"]["tied"] == len(k["dags"]) - 10
kth = k["dags"][9]["score"]
head = [g["score"] for g in a["dags"] if g["score"] >= kth - 1e-6]
assert len(head) == len(k["dags"]), (len(head), len(k["dags"]))
assert c["k_best"]["of"] == "classes" and c["k_best"]["listed"] == c["class_count"] >= 5
assert [x["score"] for x in c["classes"][:5]] == [x["score"] for x in a["classes"][:5]]
assert c["dag_count"] == len(c["dags"])  # every member of the 5 best classes listed
EOF
"$BNSL" check "$WINE" k10.pool.json --no-header >/dev/null || fail "check k10"
"$BNSL" check "$WINE" c5.pool.json --no-header >/dev/null || fail "check c5"
"$BNSL" exact "$WINE" --no-header --k-best 3 --k-best-classes 3 -o x >/dev/null 2>err.txt
[[ $? -eq 2 ]] || fail "--k-best with --k-best-classes: expected exit 2"
passed=$((passed + 1))

# --classes: each class within ln 20 once (dp and ilp), the same classes and sizes as the
# DAG list "all" above groups; bnsl check enumerates each class's members from its DAG.
for m in $methods; do
  "$BNSL" exact "$WINE" --no-header --method $m --bayes-factor 20 --classes -q -o cls-$m ||
    fail "--classes $m exit $?"
  python3 - cls-$m.pool.json <<'EOF' || fail "--classes $m pool"
import json, pool_file, sys
a, c = pool_file.load("all.pool.json"), pool_file.load(sys.argv[1])
assert c["complete"] and c["optimal"]
assert c["class_count"] == a["class_count"] and c["dags_listed"] == 0 == len(c["dags"])
assert c["dag_count"] == a["dag_count"] == len(a["dags"])
key = lambda d: sorted((round(x["score"], 6), x["size"], json.dumps(x["arcs"]),
                        json.dumps(x["edges"])) for x in d["classes"])
assert key(a) == key(c)
EOF
  "$BNSL" check "$WINE" cls-$m.pool.json --no-header >/dev/null || fail "check --classes $m"
done
passed=$((passed + 1))

# --class-nogoods (ilp): the classes within ln 3 by the ILP's imset no-goods are those of the
# list above within ln 3; without --classes it is a usage error.
if [[ $methods == *ilp* ]]; then
  "$BNSL" exact "$WINE" --no-header --method ilp --bayes-factor 3 --classes --class-nogoods \
    -q -o nogoods --stats nogoods.stats.json || fail "--class-nogoods exit $?"
  python3 - <<'EOF' || fail "--class-nogoods pool"
import json, math, pool_file
a, c = pool_file.load("all.pool.json"), pool_file.load("nogoods.pool.json")
s = json.load(open("nogoods.stats.json"))["exact"]
assert c["complete"] and c["optimal"] and s["collect_nogoods"] > 0
best = a["classes"][0]["score"]
key = lambda cs: sorted((round(x["score"], 6), x["size"], json.dumps(x["arcs"]),
                         json.dumps(x["edges"])) for x in cs)
assert key(c["classes"]) == key(x for x in a["classes"] if x["score"] >= best - math.log(3) - 1e-9)
EOF
fi
"$BNSL" exact "$WINE" --no-header --method ilp --class-nogoods -o x >/dev/null 2>err.txt
[[ $? -eq 2 ]] || fail "--class-nogoods without --classes: expected exit 2"
passed=$((passed + 1))

# --prefer-arcs: every class with V0 - V1 reversible shows V1 -> V0, the best DOT too; the
# pool still passes bnsl check; an unknown name exits 2 naming the file, line and column.
printf 'from,to,weight\nV1,V0,2\n' >pref.csv
"$BNSL" exact "$WINE" --no-header --bayes-factor 20 --prefer-arcs pref.csv -q -o pref ||
  fail "--prefer-arcs exit $?"
python3 - <<'EOF' || fail "--prefer-arcs pool"
import pool_file
d = pool_file.load("pref.pool.json")
assert d["prefer_arcs"]["arcs"] == 1 and d["prefer_arcs"]["classes"] > 0
for c in d["classes"]:
    if [0, 1] in c["edges"]:
        assert 1 in c["dag"][0], c["dag"]
EOF
grep -q "n1 -> n0;" pref.best.dot || fail "--prefer-arcs: best.dot lacks V1 -> V0"
"$BNSL" check "$WINE" pref.pool.json --no-header >/dev/null || fail "check --prefer-arcs"
printf 'from,to\nV1,nope\n' >pref-bad.csv
"$BNSL" exact "$WINE" --no-header --prefer-arcs pref-bad.csv -q -o x 2>err.txt
[[ $? -eq 2 ]] && grep -q "pref-bad.csv:2:4: unknown variable 'nope'" err.txt ||
  fail "--prefer-arcs with an unknown name: expected exit 2 and file:line:col"
passed=$((passed + 1))

# An exploration cut by its budget: the DP's optimum holds among the cached families only, and
# neither the summary nor the pool calls it proven.
"$BNSL" exact "$WINE" --no-header --score bdeu --method dp --time 1 \
  --set budget.exact_explore_share=0.0001 -o cut 2>err.txt || fail "cut exploration exit $?"
grep -q "best .* (optimal among the cached families)" err.txt &&
  grep -q "exploration did not finish" err.txt && ! grep -qF "(proven optimal)" err.txt ||
  fail "cut exploration: the summary calls the optimum proven: $(cat err.txt)"
pool_is cut.pool.json "$(python3 -c 'import pool_file; print(pool_file.load("cut.pool.json")["best_score"])')" \
  false false
passed=$((passed + 1))

"$BNSL" exact "$WINE" --no-header --method nope -o x >/dev/null 2>err.txt
[[ $? -eq 2 ]] || fail "bad --method: expected exit 2"
"$BNSL" exact missing.csv -o x >/dev/null 2>err.txt
[[ $? -eq 2 ]] && grep -q "bnsl: error:" err.txt || fail "missing file: expected exit 2"
passed=$((passed + 1))

echo "$passed passed, 0 failed"
