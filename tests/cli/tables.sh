#!/usr/bin/env bash
# Command-line tests of the tables and pictures (issue 58): `bnsl exact --matrices` on wine
# with a header of awkward names (a comma, double quotes, spaces at the ends, non-ASCII
# letters; line breaks, which bnsl's CSV reader refuses in names, are in test_pool_file.cpp)
# writes PREFIX.edges.csv, .classes.csv, .best.adjacency.csv and
# .probabilities.csv; read back by Python's csv module (an RFC 4180 parser bnsl did not write)
# and compared with the pool file read by tests/cli/lib/pool_file.py, the edge table holds the
# pool's probabilities exactly, the matrices agree with both and with the best network, and
# the class table with the classes. `bnsl merge`, `bnsl learn` and `bnsl search` write the
# tables too. When
# Graphviz is installed, the DOT files render.
#
# Usage: bash tables.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

python3 - "$DATA/wine.csv" >names.csv <<'PY' || fail "writing names.csv"
import csv, sys
names = ["a,b", 'say "hi"', "semi;colon", " padded ", "caf\u00e9"] + ["V%d" % i for i in range(5, 14)]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(names)
for row in csv.reader(open(sys.argv[1])):
    w.writerow(row)
PY

"$BNSL" exact names.csv --bayes-factor 20 --matrices -q -o wine 2>err.txt || fail "exact --matrices"
for f in pool.json edges.csv classes.csv best.adjacency.csv probabilities.csv; do
  [[ -s wine.$f ]] || fail "exact --matrices wrote no wine.$f"
done
"$BNSL" check names.csv wine.pool.json >check.txt 2>err.txt || { cat check.txt >&2; fail "check"; }
pass "exact --matrices writes the tables and a pool that passes bnsl check"

# agree PREFIX: the tables of PREFIX against its pool file.
agree() {
  python3 - "$1" <<'PY'
import csv, math, pool_file, sys
prefix = sys.argv[1]
pool = pool_file.load(prefix + ".pool.json")
names = pool["variables"]
def rows(suffix):
    with open(prefix + suffix, newline="") as f:
        return list(csv.reader(f))
edges = rows(".edges.csv")
assert edges[0] == ["from", "to", "p", "p_edge"], edges[0]
assert len(edges) - 1 == len(pool["edges"])
for row, e in zip(edges[1:], pool["edges"]):
    assert row[:2] == [names[e["from"]], names[e["to"]]], (row, e)
    assert float(row[2]) == e["p"] and float(row[3]) == e["p_edge"], (row, e)  # exactly

classes = rows(".classes.csv")
assert classes[0][:5] == ["rank", "score", "size", "log10_size", "differs"], classes[0]
assert len(classes) - 1 == len(pool["classes"])
first = {(u, v) for v, ps in enumerate(pool["classes"][0]["dag"]) for u in ps}
for k, (row, c) in enumerate(zip(classes[1:], pool["classes"])):
    assert int(row[0]) == k + 1 and float(row[1]) == c["score"] and row[2] == c["size"], row
    arcs = {(u, v) for v, ps in enumerate(c["dag"]) for u in ps}
    differ = len(arcs - first) + len({(u, v) for u, v in first - arcs if (v, u) not in arcs})
    assert int(row[4]) == differ, (row, differ)

p = {(e["from"], e["to"]): e["p"] for e in pool["edges"]}
best = pool["dags"][0]["parents"] if pool["dags"] else pool["classes"][0]["dag"]
adjacency, probabilities = rows(".best.adjacency.csv"), rows(".probabilities.csv")
for matrix in (adjacency, probabilities):
    assert matrix[0] == names and len(matrix) == len(names) + 1
    assert all(len(r) == len(names) for r in matrix[1:])
skeleton = {(min(e["from"], e["to"]), max(e["from"], e["to"])): e["p_edge"] for e in pool["edges"]}
for i in range(len(names)):
    for j in range(len(names)):
        assert adjacency[i + 1][j] == ("1" if i in best[j] else "0"), (i, j)
        assert float(probabilities[i + 1][j]) == p.get((i, j), 0.0), (i, j)
        if i < j:  # the skeleton's probability: both directions of the matrix
            both = float(probabilities[i + 1][j]) + float(probabilities[j + 1][i])
            assert math.isclose(both, skeleton.get((i, j), 0.0), abs_tol=1e-12), (i, j, both)
PY
}
agree wine || fail "the tables of exact disagree with its pool"
pass "edges, classes and matrices read back with Python's csv equal the pool file's numbers"

"$BNSL" merge --data names.csv wine.pool.json -o merged --matrices 2>err.txt || fail "merge"
agree merged || fail "the tables of merge disagree with its pool"
"$BNSL" learn names.csv --time 3 --threads 2 --bayes-factor 3 -q -o learned 2>err.txt ||
  fail "learn"
[[ -s learned.edges.csv && -s learned.classes.csv && ! -e learned.probabilities.csv ]] ||
  fail "learn without --matrices: the tables, and no matrix"
"$BNSL" search learned.cache.jkl --data names.csv --time 2 --threads 2 --bayes-factor 3 \
  --matrices -q -o searched 2>err.txt || fail "search: $(cat err.txt)"
agree searched || fail "the tables of search disagree with its pool"
pass "merge --matrices, learn and search write the tables"

if command -v dot >/dev/null; then
  for f in wine.best.dot wine.consensus.dot; do
    dot -Tsvg "$f" -o "$f.svg" 2>err.txt && grep -q "<svg" "$f.svg" || fail "Graphviz renders $f"
  done
  pass "Graphviz renders the DOT files"
fi

echo "$passed passed, 0 failed"
