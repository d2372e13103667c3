#!/usr/bin/env bash
# Command-line tests of --require, --forbid and --tiers: `learn` on the bundled ALARM sample
# with every arc of the true network forbidden writes a pool that `bnsl check --forbid` accepts
# and in which (read here in python3) no DAG, class DAG or edge holds one of them; with five
# true arcs reversed and required, every DAG and class DAG holds them and their edge
# probability is 1; `score` with tiers (and with required arcs) writes a cache whose sets never
# point from a later tier into an earlier one (and always hold the required parents), and
# `search` and `exact` over it keep them (asking for the same files, which the cache's header
# records); `exact --max-parents` keeps its in-degree limit and the pool says so; bad files are
# bad input (exit 2) naming the file, line and column.
#
# Usage: bash constraints.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Stops at the first failure with a message and a non-zero status; ends with "N passed, 0 failed".
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

# The true network's arcs (parent,child) from its BIF "probability ( CHILD | P1, P2 )" lines.
python3 - "$DATA/alarm.bif" >forbid.csv <<'PY' || fail "reading alarm.bif"
import re, sys
print("from,to")
for m in re.finditer(r"probability\s*\(\s*(\S+)\s*\|\s*([^)]*)\)", open(sys.argv[1]).read()):
    for p in m.group(2).split(","):
        print(f"{p.strip()},{m.group(1)}")
PY
[[ $(wc -l <forbid.csv) -eq 47 ]] || fail "expected ALARM's 46 arcs, got $(($(wc -l <forbid.csv) - 1))"

# no_arc_of POOL FILE: no DAG, class DAG or edge with p > 0 of POOL holds an arc of FILE.
no_arc_of() {
  python3 - "$1" "$2" <<'PY'
import csv, pool_file, sys
pool = pool_file.load(sys.argv[1])
names = pool["variables"]
bad = {(r["from"], r["to"]) for r in csv.DictReader(open(sys.argv[2]))}
graphs = [d["parents"] for d in pool["dags"]] + [c["dag"] for c in pool["classes"]]
hits = [(names[p], names[v]) for g in graphs for v, ps in enumerate(g) for p in ps
        if (names[p], names[v]) in bad]
hits += [(names[e["from"]], names[e["to"]]) for e in pool["edges"]
         if (names[e["from"]], names[e["to"]]) in bad]
if pool["constraints"] is None or not pool["dags"]:
    sys.exit("the pool states no constraints, or lists no DAG")
sys.exit(f"forbidden arcs in the pool: {hits[:5]}" if hits else 0)
PY
}

"$BNSL" learn "$DATA/alarm-5000.csv" --forbid forbid.csv --time 8 --threads 2 -o alarm \
  2>err.txt || fail "learn --forbid exited $?"
grep -q "constraints: 46 forbidden arcs" err.txt || fail "learn does not say its constraints"
"$BNSL" check "$DATA/alarm-5000.csv" alarm.pool.json --forbid forbid.csv >check.txt 2>err.txt ||
  { cat check.txt >&2; fail "check --forbid of learn's pool"; }
grep -q "constraints: ok (46 forbidden arcs)" check.txt || fail "check did not check them"
no_arc_of alarm.pool.json forbid.csv 2>err.txt || fail "learn's pool holds a forbidden arc"
pass "learn --forbid (every true arc of ALARM): a valid pool without them"

# The same pool checked against other constraints: it breaks them, and was not learned under them.
head -1 forbid.csv >other.csv
python3 - alarm.pool.json >>other.csv <<'PY'
import pool_file, sys
pool = pool_file.load(sys.argv[1])
names, parents = pool["variables"], pool["dags"][0]["parents"]
v = next(v for v, ps in enumerate(parents) if ps)
print(f"{names[parents[v][0]]},{names[v]}")
PY
"$BNSL" check "$DATA/alarm-5000.csv" alarm.pool.json --forbid other.csv >check.txt 2>err.txt
[[ $? -eq 1 ]] && grep -q "which the given constraints forbid" check.txt &&
  grep -q "the pool was learned under 46 forbidden arcs, not the 1 forbidden arc given" check.txt ||
  { cat check.txt >&2; fail "check --forbid of arcs the pool holds"; }
pass "check --forbid names the arcs a pool breaks"

# Five true arcs of ALARM reversed, required: every DAG holds them, each with probability 1.
python3 - forbid.csv >require.csv <<'PY'
import csv, sys
arcs = [(r["from"], r["to"]) for r in csv.DictReader(open(sys.argv[1]))]
print("from,to")
for a, b in arcs[::9][:5]:
    print(f"{b},{a}")
PY
"$BNSL" learn "$DATA/alarm-5000.csv" --require require.csv --time 8 --threads 2 -o required \
  2>err.txt || fail "learn --require exited $?"
grep -q "constraints: 5 required arcs" err.txt || fail "learn does not say its required arcs"
"$BNSL" check "$DATA/alarm-5000.csv" required.pool.json --require require.csv >check.txt ||
  { cat check.txt >&2; fail "check --require of learn's pool"; }
grep -q "constraints: ok (5 required arcs)" check.txt || fail "check did not check them"
python3 - required.pool.json require.csv <<'PY' || fail "learn --require: a DAG lacks a required arc"
import csv, pool_file, sys
pool = pool_file.load(sys.argv[1])
index = {n: i for i, n in enumerate(pool["variables"])}
need = [(index[r["from"]], index[r["to"]]) for r in csv.DictReader(open(sys.argv[2]))]
graphs = [d["parents"] for d in pool["dags"]] + [c["dag"] for c in pool["classes"]]
missing = [(g_i, a, b) for g_i, g in enumerate(graphs) for a, b in need if a not in g[b]]
if missing or not pool["dags"] or len(pool["constraints"]["required"]) != 5:
    sys.exit(f"missing: {missing[:5]}")
p = {(e["from"], e["to"]): e["p"] for e in pool["edges"]}
if any(abs(p.get(arc, 0) - 1) > 1e-9 for arc in need):
    sys.exit("a required arc's probability is not 1")
PY
head -6 forbid.csv >true5.csv  # five true arcs, which the pool learned without them lacks
"$BNSL" check "$DATA/alarm-5000.csv" alarm.pool.json --require true5.csv >check.txt
[[ $? -eq 1 ]] && grep -qE "(lacks the arc .*, which|the reverse of one) the given constraints require" \
  check.txt ||
  { cat check.txt >&2; fail "check --require of a pool without them"; }
pass "learn --require (five true arcs of ALARM reversed): every DAG holds them; check agrees"

# Tiers on wine (columns V0..V13): V0..V4 first, then V5..V9, the rest free.
{
  echo "variable,tier"
  for v in 0 1 2 3 4; do echo "V$v,0"; done
  for v in 5 6 7 8 9; do echo "\"V$v\",1"; done
} >tiers.csv
"$BNSL" score "$DATA/wine.csv" --no-header --tiers tiers.csv --time 20 -o wine.jkl -q 2>err.txt ||
  fail "score --tiers exited $?"
grep -q "^# bnsl constraints [0-9a-f]\{16\}$" wine.jkl || fail "the cache's header lacks them"
python3 - wine.jkl <<'PY' || fail "score --tiers cached a set against the tiers"
import sys
tier = {v: 0 for v in range(5)} | {v: 1 for v in range(5, 10)}
lines = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
i = 1
for _ in range(int(lines[0][0])):
    child, count = int(lines[i][0]), int(lines[i][1])
    for entry in lines[i + 1:i + 1 + count]:
        for p in map(int, entry[2:]):
            if p in tier and child in tier and tier[p] > tier[child]:
                sys.exit(f"V{p} -> V{child}")
    i += 1 + count
PY
pass "score --tiers: no cached set points into an earlier tier"

"$BNSL" search wine.jkl --data "$DATA/wine.csv" --no-header --tiers tiers.csv --time 3 \
  -o wine-search -q 2>err.txt ||
  fail "search --tiers exited $?"
"$BNSL" check "$DATA/wine.csv" --no-header wine-search.pool.json --tiers tiers.csv >check.txt ||
  { cat check.txt >&2; fail "check --tiers of search's pool"; }
"$BNSL" exact wine.jkl --data "$DATA/wine.csv" --no-header --tiers tiers.csv --bayes-factor 3 \
  -o wine-exact -q 2>err.txt ||
  fail "exact --tiers exited $?"
"$BNSL" check "$DATA/wine.csv" --no-header wine-exact.pool.json --tiers tiers.csv >check.txt ||
  { cat check.txt >&2; fail "check --tiers of exact's pool"; }
pass "search and exact over the cache keep the tiers; check agrees"

"$BNSL" search wine.jkl --time 1 -o none -q 2>err.txt
[[ $? -eq 2 ]] && grep -q "wine.jkl: the cache was explored under other constraints" err.txt ||
  fail "search without the cache's tiers"
pass "search without the tiers the cache was scored with is refused"

# Required arcs need a cache explored with them: score --require, then search and exact.
printf 'from,to\nV0,V5\nV5,V12\n' >wine-require.csv
"$BNSL" search wine.jkl --data "$DATA/wine.csv" --no-header --tiers tiers.csv \
  --require wine-require.csv --time 1 -o none -q 2>err.txt
[[ $? -eq 2 ]] && grep -q "wine.jkl: required arcs need a cache explored with them" err.txt ||
  fail "search --require over a cache explored without them"
"$BNSL" score "$DATA/wine.csv" --no-header --tiers tiers.csv --require wine-require.csv \
  --time 20 -o wine-req.jkl -q 2>err.txt || fail "score --require exited $?"
python3 - wine-req.jkl <<'PY' || fail "score --require cached a set without a required parent"
import sys
need = {5: {0}, 12: {5}}
lines = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
i = 1
for _ in range(int(lines[0][0])):
    child, count = int(lines[i][0]), int(lines[i][1])
    for entry in lines[i + 1:i + 1 + count]:
        if not need.get(child, set()) <= set(map(int, entry[2:])):
            sys.exit(f"V{child}: {entry}")
    i += 1 + count
PY
for mode in search exact; do
  "$BNSL" $mode wine-req.jkl --data "$DATA/wine.csv" --no-header --tiers tiers.csv \
    --require wine-require.csv --time 5 --bayes-factor 3 -o wine-req-$mode -q 2>err.txt ||
    { cat err.txt >&2; fail "$mode --require exited $?"; }
  "$BNSL" check "$DATA/wine.csv" --no-header wine-req-$mode.pool.json --tiers tiers.csv \
    --require wine-require.csv >check.txt || { cat check.txt >&2; fail "check of $mode --require"; }
done
pass "score, search and exact with required arcs; check agrees"

# An in-degree limit: exact --max-parents from the CSV and from a cache; the pool states it,
# no DAG passes it, check agrees, and a pool that breaks it is named.
"$BNSL" exact "$DATA/wine.csv" --no-header --max-parents 1 --bayes-factor 3 -o wine-k1 \
  2>err.txt || { cat err.txt >&2; fail "exact --max-parents exited $?"; }
grep -q "constraints: at most 1 parent per variable" err.txt &&
  grep -q "among the networks with at most 1 parents per variable" err.txt ||
  fail "exact does not say its in-degree limit"
cp "$DATA/wine.BIC.3" wine-gobnilp.jkl  # GOBNILP's cache, pruned by subsets only
"$BNSL" exact wine-gobnilp.jkl --max-parents 1 --bayes-factor 3 -o wine-k1-jkl -q ||
  fail "exact --max-parents over a cache exited $?"
python3 - wine-k1.pool.json wine-k1-jkl.pool.json <<'PY' || fail "exact --max-parents 1"
import pool_file, sys
a, b = (pool_file.load(p) for p in sys.argv[1:])
for pool in (a, b):
    graphs = [d["parents"] for d in pool["dags"]] + [c["dag"] for c in pool["classes"]]
    if pool["constraints"]["max_parents"] != 1 or not pool["optimal"] or not pool["complete"]:
        sys.exit("the pool does not state the limit, or is not proven")
    if any(len(ps) > 1 for g in graphs for ps in g) or not graphs:
        sys.exit("a DAG with two parents")
if abs(a["dags"][0]["score"] - b["dags"][0]["score"]) > 1e-6 * abs(a["dags"][0]["score"]):
    sys.exit("the CSV's and the cache's optima differ")
PY
"$BNSL" check "$DATA/wine.csv" --no-header wine-k1.pool.json >check.txt ||
  { cat check.txt >&2; fail "check of exact --max-parents"; }
sed 's/"max_parents": 1/"max_parents": 0/' wine-k1.pool.json >wine-k0.pool.json
"$BNSL" check "$DATA/wine.csv" --no-header wine-k0.pool.json >check.txt
[[ $? -eq 1 ]] && grep -q "parents, more than the pool's limit of 0" check.txt ||
  { cat check.txt >&2; fail "check of a pool beyond its in-degree limit"; }
printf 'from,to\nV0,V5\nV1,V5\n' >two.csv
"$BNSL" exact "$DATA/wine.csv" --no-header --require two.csv --max-parents 1 -o bad -q 2>err.txt
[[ $? -eq 2 ]] && grep -q "has 2 required parents, more than the in-degree limit of 1" err.txt ||
  fail "exact --max-parents below the required parents"
pass "exact --max-parents (CSV and cache): the pool states the limit and keeps it; check agrees"

# expect_input_error FILE_OPTION CONTENT LOCATION PHRASE: exit 2 and "FILE:LOCATION ... PHRASE".
expect_input_error() {
  printf '%b' "$2" >bad.csv
  "$BNSL" learn "$DATA/wine.csv" --no-header "$1" bad.csv --time 1 -o bad -q 2>err.txt
  local status=$?
  [[ $status -eq 2 ]] || fail "$1 '$2': exit $status, expected 2"
  grep -q "bnsl: error: bad.csv:$3.*$4" err.txt || fail "$1 '$2': stderr lacks bad.csv:$3 $4"
  passed=$((passed + 1))
}
expect_input_error --forbid 'from,to\nV0,V1\nV1,V99\n' "3:4:" "unknown variable 'V99'"
expect_input_error --forbid 'from,to\nV0,V1\nV0,V1\n' "3:1:" "listed twice"
expect_input_error --forbid 'a,b\n' "1:1:" "expected the header line from,to"
expect_input_error --tiers 'variable,tier\nV0,first\n' "2:4:" "expected the tier as an integer"
expect_input_error --tiers 'variable,tier\nV0,1\nV0,2\n' "3:1:" "already listed on line 2"
expect_input_error --tiers 'variable,level\n' "1:1:" "expected the header line variable,tier"
expect_input_error --require 'from,to\nV0,V1\nV1,V2\nV2,V0\n' "4:1:" \
  "the required arc 'V2' -> 'V0' closes the cycle 'V0' -> 'V1' -> 'V2' -> 'V0'"
expect_input_error --require 'from,to\nV0,V99\n' "2:4:" "unknown variable 'V99'"
"$BNSL" learn "$DATA/wine.csv" --no-header --forbid missing.csv --time 1 -o bad -q 2>err.txt
[[ $? -eq 2 ]] && grep -q "missing.csv: cannot open the file" err.txt || fail "a missing file"
printf 'from,to\nV1,V2\n' >forbid-one.csv
printf 'from,to\nV0,V1\nV1,V2\n' >bad.csv
"$BNSL" learn "$DATA/wine.csv" --no-header --require bad.csv --forbid forbid-one.csv --time 1 \
  -o bad -q 2>err.txt
[[ $? -eq 2 ]] && grep -q "bad.csv:3:1: the required arc 'V1' -> 'V2' is forbidden by" err.txt ||
  fail "a required arc that is forbidden"
printf 'from,to\nV6,V1\n' >bad.csv
"$BNSL" learn "$DATA/wine.csv" --no-header --require bad.csv --tiers tiers.csv --time 1 \
  -o bad -q 2>err.txt
[[ $? -eq 2 ]] && grep -q "bad.csv:2:1: the required arc 'V6' -> 'V1' goes from tier 1" err.txt ||
  fail "a required arc against the tiers"
pass "bad --require, --forbid and --tiers files: exit 2 with file, line and column"

echo "$passed passed, 0 failed"
