#!/usr/bin/env bash
# Command-line tests of `bnsl check`: a pool JSON written by hand for a tiny CSV, with BIC
# scores, classes and edge probabilities computed here in python3 (independently of bnsl),
# must pass (exit 0); a corrupted score, a cyclic DAG, a duplicate DAG, a DAG outside epsilon
# or below the list's floor (listed_above),
# a wrong class id, class size or CPDAG (sizes and CPDAGs here by brute force over every DAG on
# three nodes) must fail (exit 1, naming the problem); malformed JSON, a missing file
# and a pool for other data are bad input (exit 2). That pool is written in format 1 (the
# format before the current one, which bnsl still reads); a pool of the current format that
# bnsl exact wrote passes, and fails with an arc, a size or a score altered.
#
# Usage: bash check.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Stops at the first failure with a message and a non-zero status; ends with "N passed, 0 failed".
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

# expect STATUS DESCRIPTION PATTERN ARGS...: runs `bnsl check ARGS`, wants exit STATUS and
# PATTERN (grep -E, may be empty) somewhere in stdout + stderr.
expect() {
  local want=$1 what=$2 pattern=$3
  shift 3
  "$BNSL" check "$@" >out.txt 2>err.txt
  local status=$?
  [[ $status -eq $want ]] || { cat out.txt err.txt >&2; fail "$what: exit $status, expected $want"; }
  if [[ -n $pattern ]] && ! grep -Eq -- "$pattern" out.txt err.txt; then
    cat out.txt err.txt >&2
    fail "$what: output lacks /$pattern/"
  fi
  passed=$((passed + 1))
}

cat >data.csv <<'CSV'
A,B,C
a,x,0
a,x,0
a,y,1
b,y,1
b,y,0
a,x,0
b,y,1
b,x,1
a,x,0
b,y,1
a,y,0
b,y,1
a,x,1
b,y,1
a,x,0
b,x,0
CSV

# Writes pool.json: BIC of every DAG below from the counts, sorted best first; classes by
# skeleton + v-structures, with their sizes and CPDAGs; arc probabilities weighted by
# exp(score - best).
python3 - <<'PY' || fail "python3 could not write the pool"
import csv, json, math
from collections import Counter
rows = list(csv.reader(open("data.csv")))
names, rows = rows[0], rows[1:]
n, N = len(names), len(rows)
states = [sorted({r[v] for r in rows}) for v in range(n)]

def bic(child, parents):
    joint = Counter((tuple(r[p] for p in parents), r[child]) for r in rows)
    marg = Counter(tuple(r[p] for p in parents) for r in rows)
    ll = sum(c * math.log(c / marg[j]) for (j, _), c in joint.items())
    q = math.prod(len(states[p]) for p in parents)
    return ll - 0.5 * math.log(N) * (len(states[child]) - 1) * q

def score(dag):
    return sum(bic(v, dag[v]) for v in range(n))

def signature(dag):
    adj = {(min(a, c), max(a, c)) for c in range(n) for a in dag[c]}
    vs = {(a, c, b) for c in range(n) for a in dag[c] for b in dag[c]
          if a < b and (a, b) not in adj}
    return (frozenset(adj), frozenset(vs))

dags = [[[], [0], [1]], [[1], [], [1]], [[], [], [0, 1]], [[], [0], [0, 1]],
        [[], [], []], [[], [0], []], [[2], [2], []]]
pool = sorted(({"score": score(d), "parents": d} for d in dags), key=lambda x: -x["score"])
best = pool[0]["score"]
classes = {}
for d in pool:
    d["mec"] = classes.setdefault(signature(d["parents"]), len(classes))
# Each class's size, compelled arcs and reversible edges by brute force: every DAG on n nodes
# (each node's parents any subset of the others, kept when acyclic), grouped by signature.
from itertools import product
def acyclic(dag):
    left = set(range(n))
    while left:
        free = [v for v in left if not set(dag[v]) & left]
        if not free:
            return False
        left -= set(free)
    return True
subsets = [[[p for p in range(n) if p != v and m >> p & 1] for m in range(1 << n)
            if not m >> v & 1] for v in range(n)]
members = {}
for dag in product(*subsets):
    if acyclic(dag):
        members.setdefault(signature(list(dag)), []).append(dag)
class_list = [None] * len(classes)
for i, d in enumerate(pool):
    sig = signature(d["parents"])
    if class_list[d["mec"]] is None:
        all_arcs = [{(p, v) for v in range(n) for p in g[v]} for g in members[sig]]
        compelled = set.intersection(*all_arcs)
        edges_u = {(min(a, b), max(a, b)) for a, b in set.union(*all_arcs) - compelled}
        size = len(members[sig])
        class_list[d["mec"]] = {"score": d["score"], "size": str(size),
                                "log10_size": math.log10(size), "members": 0, "first": i,
                                "arcs": sorted(map(list, compelled)),
                                "edges": sorted(map(list, edges_u))}
    class_list[d["mec"]]["members"] += 1
# Edge probabilities: each class weighs size * exp(score - best), an arc the fraction of the
# class's DAGs (all of them, enumerated above) that hold it.
# An edge's p_edge sums the weights of the classes whose skeleton holds it.
mass, skeleton, total = Counter(), Counter(), 0.0
for sig, c in zip(classes, class_list):
    w = len(members[sig]) * math.exp(c["score"] - best)
    total += w
    for v in range(n):
        for p in members[sig][0][v]:
            skeleton[(min(p, v), max(p, v))] += w
    for g in members[sig]:
        for v in range(n):
            for p in g[v]:
                mass[(p, v)] += w / len(members[sig])
edges = [{"from": a, "to": b, "p": m / total,
          "p_edge": skeleton[(min(a, b), max(a, b))] / total}
         for (a, b), m in mass.items() if m > 0]
json.dump({"score": "bic", "ess": None, "n": n, "rows": N, "variables": names,
           "epsilon": 100.0, "best_score": best, "optimal": False, "complete": False,
           "dags": pool, "classes": class_list, "edges": edges},
          open("pool.json", "w"), indent=1)
PY

# mutate EXPRESSION OUT: applies a python expression to the pool dict p and writes OUT.
mutate() {
  python3 -c "
import json, sys
p = json.load(open('pool.json'))
$1
json.dump(p, open('$2', 'w'))" || fail "python3 could not write $2"
}

expect 0 "a correct pool" "result: OK" data.csv pool.json

mutate "p['dags'][2]['score'] += 1e-3" bad_score.json
expect 1 "a corrupted score" "DAG 3 \(class [0-9]+\): reported" data.csv bad_score.json

mutate "p['dags'][1]['parents'] = [[2], [0], [1]]" cyclic.json
expect 1 "a cyclic DAG" "acyclic: FAILED" data.csv cyclic.json

mutate "p['dags'][1]['parents'] = [[], [0, 0], [1]]" twice.json
expect 1 "a parent listed twice" "twice" data.csv twice.json

mutate "p['dags'].insert(1, dict(p['dags'][0]))" duplicate.json
expect 1 "a duplicate DAG" "repeats an earlier DAG" data.csv duplicate.json

mutate "p['dags'].reverse(); p['best_score'] = p['dags'][0]['score']" unsorted.json
expect 1 "an unsorted pool" "sorted: FAILED" data.csv unsorted.json

mutate "p['epsilon'] = 0.5" epsilon.json
expect 1 "a DAG outside epsilon" "epsilon: FAILED" data.csv epsilon.json

mutate "p['best_score'] += 1" best.json
expect 1 "a wrong best_score" "best_score: FAILED" data.csv best.json

mutate "p['dags'][0]['mec'] = 5" mec.json
expect 1 "a wrong class id" "classes: FAILED" data.csv mec.json

mutate "p['classes'][0]['size'] = str(int(p['classes'][0]['size']) + 1)" size.json
expect 1 "a wrong class size" "class 1: size" data.csv size.json
expect 1 "a wrong class size, from the members" "class 1 holds [0-9]+ DAGs by covered-arc" \
  data.csv size.json

mutate "c = p['classes'][0]; c['edges'], c['arcs'] = c['arcs'], c['edges']" cpdag.json
expect 1 "a wrong CPDAG" "CPDAG differs" data.csv cpdag.json

mutate "p['edges'][0]['p'] = 0.123" edges.json
expect 1 "a wrong edge probability" "edges: FAILED" data.csv edges.json
expect 1 "a wrong edge probability, from the members" "members: FAILED" data.csv edges.json

mutate "p['edges'][0]['p_edge'] = 0.123" p_edge.json
expect 1 "a wrong edge (skeleton) probability" "recomputed from the classes" data.csv p_edge.json

mutate "p['listed_above'] = p['dags'][-1]['score'] - 1e-3" floor.json
expect 0 "a list's floor below every listed DAG" "listed_above: ok" data.csv floor.json

mutate "p['listed_above'] = p['dags'][1]['score'] + 1e-6" floor_above.json
expect 1 "a DAG below the list's floor" "DAG [2-9] \(class [0-9]+\) scores below listed_above" data.csv floor_above.json

mutate "p['listed_above'] = p['dags'][-1]['score'] - 1; p['complete'] = True" floor_complete.json
expect 1 "a floor on a complete pool" "a complete pool has no listed_above" data.csv floor_complete.json

mutate "p['rows'] = 99" rows.json
expect 1 "a wrong row count" "rows: FAILED" data.csv rows.json

mutate "p['dags'][2]['score'] += 1e-7; p['classes'][p['dags'][2]['mec']]['score'] += 1e-7" loose.json
expect 0 "a small difference within --tolerance" "result: OK" data.csv loose.json --tolerance 1e-6

head -c 200 pool.json >truncated.json
expect 2 "malformed JSON" "bnsl: error: truncated.json:[0-9]+:[0-9]+: " data.csv truncated.json

mutate "p['dags'][0]['parents'][2] = [7]" range.json
expect 2 "a parent index out of range" "bnsl: error: range.json: .*out of range" data.csv range.json

mutate "p['variables'][0] = 'Z'" other.json
expect 2 "a pool for other data" "bnsl: error: .*variables" data.csv other.json

expect 2 "a missing pool file" "bnsl: error: " data.csv missing.json
expect 2 "a missing data file" "bnsl: error: " missing.csv pool.json

# End to end, when this build has `learn`: what it writes must pass the checker.
if "$BNSL" learn --help >/dev/null 2>&1; then
  "$BNSL" learn data.csv -o learned/run --time 2 --threads 1 --seed 1 --quiet --epsilon 5 \
    || fail "bnsl learn on data.csv failed"
  expect 0 "the pool bnsl learn wrote" "result: OK" data.csv learned/run.pool.json
fi

# The current format (classes as changes against the first, members as reversed arcs): the
# pool of every DAG within ln 20 on wine passes; an altered arc (a member reversing a compelled
# arc of its class, a class's change undone, an edge turned round), size or score fails.
"$BNSL" exact "$DATA/wine.csv" --no-header --bayes-factor 20 -q -o wine || fail "exact on wine"
expect 0 "the pool bnsl exact wrote" "result: OK" "$DATA/wine.csv" --no-header wine.pool.json
# mutate2 EXPRESSION OUT: as mutate, on wine.pool.json; c is the second class, and compelled(k)
# the numbers of class k's arcs its essential graph keeps directed (k: 0, the first class; the
# file gives no essential graph: pool_file.essential computes it by Meek's rules).
mutate2() {
  python3 -c "
import json, pool_file
p = json.load(open('wine.pool.json'))
c = p['classes'][1]
def compelled(k):
    first = p['classes'][0]
    assert k == 0
    names = p['variables']
    dag = [sorted(names.index(u) for u in first['dag'][v]) for v in names]
    arcs = [(u, v) for v in range(len(names)) for u in dag[v]]
    kept, _ = pool_file.essential(dag)
    return [i + 1 for i, a in enumerate(arcs) if a in kept]
$1
json.dump(p, open('$2', 'w'))" || fail "python3 could not write $2"
}
mutate2 "m = p['classes'][0]['members']; m[0] = [compelled(0)[0]]" v2_member.json
expect 1 "a member reversing a compelled arc" "FAILED" "$DATA/wine.csv" --no-header v2_member.json
mutate2 "k = next(k for k in p['classes'] if k.get('removed'))
for key in ('removed', 'members'): k.pop(key, None)" \
  v2_change.json
expect 1 "a class's removed arcs put back" "FAILED" "$DATA/wine.csv" --no-header v2_change.json
mutate2 "e = p['edges'][0]; e['from'], e['to'] = e['to'], e['from']" v2_edge.json
expect 1 "an edge turned round" "edges: FAILED" "$DATA/wine.csv" --no-header v2_edge.json
mutate2 "c['size'] += 1" v2_size.json
expect 1 "a wrong size" "class 2: size" "$DATA/wine.csv" --no-header v2_size.json
mutate2 "c['score'] -= 1e-3" v2_score.json
expect 1 "a wrong score" "class 2's DAG: reported" "$DATA/wine.csv" --no-header v2_score.json
# A pool of classes alone (no DAG listed) is checked whole too.
"$BNSL" exact "$DATA/wine.csv" --no-header --bayes-factor 3 --classes -q -o classes ||
  fail "exact --classes on wine"
expect 0 "a pool of classes alone" "members: ok" "$DATA/wine.csv" --no-header classes.pool.json
python3 -c "
import json
p = json.load(open('classes.pool.json'))
p['classes'][-1]['size'] += 1
json.dump(p, open('classes_size.json', 'w'))" || fail "python3 could not write classes_size.json"
expect 1 "a wrong size in a pool of classes alone" "size" "$DATA/wine.csv" --no-header \
  classes_size.json
mutate2 "c.setdefault('removed', []).append(['nope', 'V1'])" v2_name.json
expect 2 "an unknown name" "bnsl: error: v2_name.json: .*'classes\[1\]\.removed.*no variable is named 'nope'" \
  "$DATA/wine.csv" --no-header v2_name.json

echo "$passed passed, 0 failed"
