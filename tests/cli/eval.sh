#!/usr/bin/env bash
# `bnsl eval`: the true network against itself gives SHD 0 and equal test log-likelihoods;
# a structure file with one arc reversed inside an undirected part gives SHD 1, CPDAG SHD 0;
# a pool file needs --train for parameters; an unknown variable name or a test value unknown
# to the network gives exit 2 with the file named. JSON output parses; the table has the SHDs.
# Without --truth, the test log-likelihood alone.
#
# Usage: bash eval.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"

# field JSON_FILE PYTHON_EXPRESSION_ON_j: prints the value.
field() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

"$BNSL" sample "$DATA/asia.bif" -n 2000 --seed 1 -o "$WORK/train.csv" -q || fail "sample train"
"$BNSL" sample "$DATA/asia.bif" -n 1000 --seed 2 -o "$WORK/test.csv" -q || fail "sample test"

# 1. Truth against itself.
"$BNSL" eval --truth "$DATA/asia.bif" --learned "$DATA/asia.bif" --test "$WORK/test.csv" \
  --json >"$WORK/self.json" 2>"$WORK/err.txt" || fail "eval self: exit $?"
[[ $(field "$WORK/self.json" 'j["shd"], j["shd_cpdag"], j["arcs"]["found"]') == "0 0 8" ]] ||
  fail "self: $(field "$WORK/self.json" 'j["shd"], j["shd_cpdag"], j["arcs"]["found"]')"
[[ $(field "$WORK/self.json" 'j["test"]["truth"]["mean"] == j["test"]["learned"]["mean"]') == True ]] ||
  fail "self: learned and true log-likelihoods differ"
pass "truth against itself: SHD 0, CPDAG SHD 0, same log-likelihood"

# 2. Structure file: asia with smoke -> bronc reversed. In asia's CPDAG smoke - bronc is
# undirected (only tub -> either <- lung, bronc -> dysp <- either and either -> xray are
# compelled), and bronc -> smoke makes no new v-structure: SHD 1, CPDAG SHD 0.
cat >"$WORK/s.txt" <<'EOF'
tub: asia
lung: smoke
smoke: bronc
either: tub lung
xray: either
dysp: bronc either
EOF
"$BNSL" eval --truth "$DATA/asia.bif" --learned "$WORK/s.txt" --test "$WORK/test.csv" \
  --train "$WORK/train.csv" --json >"$WORK/s.json" 2>"$WORK/err.txt" || fail "eval s.txt: exit $?"
[[ $(field "$WORK/s.json" 'j["shd"], j["shd_cpdag"], j["arcs"]["reversed"]') == "1 0 1" ]] ||
  fail "s.txt: $(field "$WORK/s.json" 'j["shd"], j["shd_cpdag"], j["arcs"]["reversed"]')"
[[ $(field "$WORK/s.json" 'j["test"]["parameters"]') == train ]] || fail "s.txt: parameters"
pass "structure file: reversed reversible arc costs SHD 1, CPDAG SHD 0"

# 3. Table output names the SHDs.
"$BNSL" eval --truth "$DATA/asia.bif" --learned "$WORK/s.txt" >"$WORK/table.txt" \
  2>"$WORK/err.txt" || fail "eval table: exit $?"
grep -Eq "SHD \(DAG\) +1$" "$WORK/table.txt" && grep -Eq "SHD \(CPDAG\) +0$" "$WORK/table.txt" ||
  fail "table: $(cat "$WORK/table.txt")"
pass "table output"

# 4. Errors: unknown name, unknown state value, --train without --test.
printf 'tub: asia\nlung: smokes\n' >"$WORK/bad.txt"
"$BNSL" eval --truth "$DATA/asia.bif" --learned "$WORK/bad.txt" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] || fail "unknown name: expected exit 2"
grep -q "bad.txt:2:7: 'smokes'" "$WORK/err.txt" || fail "unknown name: message"
sed '3s/^yes/maybe/; 3s/^no/maybe/' "$WORK/test.csv" >"$WORK/odd.csv"
"$BNSL" eval --truth "$DATA/asia.bif" --learned "$DATA/asia.bif" --test "$WORK/odd.csv" \
  2>"$WORK/err.txt"
[[ $? -eq 2 ]] || fail "unknown state: expected exit 2"
grep -q "odd.csv: row 2: 'maybe' is not a state of asia" "$WORK/err.txt" ||
  fail "unknown state: message"
"$BNSL" eval --truth "$DATA/asia.bif" --learned "$DATA/asia.bif" --train "$WORK/train.csv" \
  2>"$WORK/err.txt"
[[ $? -eq 2 ]] || fail "--train without --test: expected exit 2"
pass "errors exit 2 with the file named"

# 5. Without --truth: only the test log-likelihood, the same number as with the truth (every
# state of asia occurs in the training rows, so the state lists agree); a BIF uses its own
# parameters; a pool or structure file without --train, or no --test, is exit 2.
"$BNSL" eval --learned "$WORK/s.txt" --test "$WORK/test.csv" --train "$WORK/train.csv" \
  --json >"$WORK/nt.json" 2>"$WORK/err.txt" || fail "eval without truth: exit $?"
python3 - "$WORK/nt.json" "$WORK/s.json" <<'PY' || fail "without truth: log-likelihoods differ"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["test"]["truth"] is None and "shd" not in a
assert abs(a["test"]["learned"]["mean"] - b["test"]["learned"]["mean"]) < 1e-9
PY
"$BNSL" eval --learned "$DATA/asia.bif" --test "$WORK/test.csv" --json >"$WORK/nb.json" \
  2>"$WORK/err.txt" || fail "eval BIF without truth: exit $?"
[[ $(field "$WORK/nb.json" 'j["test"]["learned"]["mean"] == '"$(field "$WORK/self.json" 'j["test"]["truth"]["mean"]')") == True ]] ||
  fail "BIF without truth: log-likelihood differs from the truth's"
"$BNSL" eval --learned "$WORK/s.txt" --test "$WORK/test.csv" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] && grep -q "give --train" "$WORK/err.txt" || fail "structure without --train"
"$BNSL" eval --learned "$DATA/asia.bif" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] && grep -q "give --test" "$WORK/err.txt" || fail "no truth, no test"
pass "without --truth: test log-likelihood only"

echo "$passed passed, 0 failed"
