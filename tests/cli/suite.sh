#!/usr/bin/env bash
# bench/suite.py end to end on a tiny suite: two learn runs on data sampled from asia, one with
# a true network and one with a held-out split; results.csv and results.md list both with
# exit 0, a score, DAGs and classes, the eval figures (SHD; test log-likelihood), and each
# data set gets a well-formed SVG of its trace. --resume reuses the measured runs; a malformed
# suite line is exit 2 with its line number.
#
# Usage: bash suite.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"
SUITE=$(dirname "$0")/../../bench/suite.py

"$BNSL" sample "$DATA/asia.bif" -n 3000 --seed 4 -o "$WORK/train.csv" -q || fail "sample train"
"$BNSL" sample "$DATA/asia.bif" -n 1000 --seed 5 -o "$WORK/test.csv" -q || fail "sample test"
cat >"$WORK/tiny.suite" <<SUITE_EOF
# two runs, different data labels
defaults command=learn threads=1 time=1 seeds=1
data=$WORK/train.csv label=asia truth=$DATA/asia.bif refs="zero=0 low=-1e9"
data=$WORK/train.csv label=asia-split test=$WORK/test.csv
SUITE_EOF

python3 "$SUITE" "$WORK/tiny.suite" --bnsl "$BNSL" --out "$WORK/out" >"$WORK/table.md" \
  2>"$WORK/err.txt" || fail "suite run: exit $?"
python3 - "$WORK/out" <<'PY' || fail "results.csv"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/results.csv")))
assert len(rows) == 2, rows
a, b = rows
for r in rows:
    assert r["exit"] == "0" and float(r["best_score"]) < 0 and int(r["dags"]) >= 1, r
    assert int(r["classes"]) >= 1 and float(r["wall_s"]) > 0 and float(r["peak_rss_mib"]) > 0, r
assert a["label"] == "asia" and a["shd_cpdag"] != "" and a["test_ll"] == "", a
assert a["best_ref"] == "zero" and abs(float(a["vs_best_ref"]) - float(a["best_score"])) < 0.01, a
assert b["label"] == "asia-split" and b["shd"] == "" and float(b["test_ll"]) < 0, b
PY
grep -q "^| asia | learn | 1 | 1 | 1 |" "$WORK/table.md" || fail "markdown row: $(cat "$WORK/table.md")"
pass "two runs measured, scored, evaluated: CSV and markdown"

for label in asia asia-split; do
  python3 -c "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])" \
    "$WORK/out/traces-$label.svg" 2>"$WORK/err.txt" || fail "SVG $label"
done
pass "one well-formed SVG per data set"

python3 "$SUITE" "$WORK/tiny.suite" --bnsl "$BNSL" --out "$WORK/out" --resume >/dev/null \
  2>"$WORK/err.txt" || fail "resume: exit $?"
grep -q "bnsl learn" "$WORK/err.txt" && fail "resume ran bnsl again"
pass "--resume reuses measured runs"

echo 'data=x.csv bogus' >"$WORK/bad.suite"
python3 "$SUITE" "$WORK/bad.suite" --bnsl "$BNSL" --out "$WORK/out2" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] || fail "bad suite: expected exit 2"
grep -q "bad.suite:1: expected key=value" "$WORK/err.txt" || fail "bad suite: message"
pass "a malformed suite line: exit 2 with file and line"

echo "$passed passed, 0 failed"
