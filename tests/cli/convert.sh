#!/usr/bin/env bash
# `bnsl convert` and the network formats (bnsl/network_io.hpp): every format written reads back
# to the same structure and CPTs; a generated 50-variable network survives every chain of two
# conversions; names with blanks, quotes and non-ASCII letters open in readers written from the
# formats' descriptions (tests/formats/independent_readers.py), with the originals recorded;
# bad input (unknown format, malformed file of each format, a collision after mapping) exits 2
# with FILE:LINE:COL and writes nothing; learn --format, sample, eval and --prefer-arcs read
# and write the formats; --discretize and the error for numbers read as categories.
#
# Usage: bash convert.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"
READERS="$(cd "$(dirname "$0")/../formats" && pwd)/independent_readers.py"
FORMATS=(bif xml net uai modelstring graphml dot csv)
PARAMS=(bif xml net uai)

has_params() { [[ $1 == bif || $1 == xml || $1 == net || $1 == uai ]]; }

# 1. asia through every format: parameterised ones back to the very same BIF text, the others
#    to the same adjacency matrix.
"$BNSL" convert -q "$DATA/asia.bif" "$WORK/asia.csv" || fail "asia -> csv: exit $?"
for f in "${FORMATS[@]}"; do
  "$BNSL" convert -q "$DATA/asia.bif" "$WORK/a.$f" || fail "asia -> $f: exit $?"
  if has_params "$f"; then
    "$BNSL" convert -q "$WORK/a.$f" "$WORK/a.$f.bif" || fail "$f -> bif: exit $?"
    cmp -s "$WORK/a.$f.bif" "$DATA/asia.bif" || fail "asia via $f: not the same BIF"
  fi
  "$BNSL" convert -q "$WORK/a.$f" "$WORK/a.$f.csv" || fail "$f -> csv: exit $?"
  cmp -s "$WORK/a.$f.csv" "$WORK/asia.csv" || fail "asia via $f: not the same structure"
done
pass "asia round-trips through all ${#FORMATS[@]} formats"

# 2. A generated network of 50 variables through every chain of two conversions A -> B.
"$BNSL" generate --vars 50 --max-parents 3 --arity 2:4 --seed 7 -o "$WORK/g.bif" -q ||
  fail "generate: exit $?"
"$BNSL" sample "$WORK/g.bif" -n 300 --seed 1 -o "$WORK/g.data.csv" -q || fail "sample: exit $?"
"$BNSL" convert -q "$WORK/g.bif" "$WORK/g.ref.csv" || fail "g -> csv: exit $?"
chains=0
for a in "${FORMATS[@]}"; do
  "$BNSL" convert -q "$WORK/g.bif" "$WORK/g1.$a" || fail "g -> $a: exit $?"
  for b in "${FORMATS[@]}"; do
    data=()
    if has_params "$b" && ! has_params "$a"; then data=(--data "$WORK/g.data.csv"); fi
    "$BNSL" convert -q "$WORK/g1.$a" "$WORK/g2.$a.$b" "${data[@]}" --to "$([[ $b == xml ]] && echo xmlbif || ([[ $b == csv ]] && echo adjacency || echo "$b"))" ||
      fail "g: $a -> $b: exit $?"
    if has_params "$a" && has_params "$b"; then
      "$BNSL" convert -q "$WORK/g2.$a.$b" "$WORK/g3.bif" --from "$([[ $b == xml ]] && echo xmlbif || echo "$b")" ||
        fail "g: $a -> $b -> bif: exit $?"
      cmp -s "$WORK/g3.bif" "$WORK/g.bif" || fail "g via $a, $b: not the same network"
    fi
    "$BNSL" convert -q "$WORK/g2.$a.$b" "$WORK/g3.csv" --from "$([[ $b == xml ]] && echo xmlbif || ([[ $b == csv ]] && echo adjacency || echo "$b"))" ||
      fail "g: $a -> $b -> csv: exit $?"
    cmp -s "$WORK/g3.csv" "$WORK/g.ref.csv" || fail "g via $a, $b: not the same structure"
    chains=$((chains + 1))
  done
done
pass "a 50-variable network survives all $chains chains of two conversions"

# 3. Names with blanks, quotes, commas and non-ASCII letters: BIF, XMLBIF and NET written from a
#    DOT structure and data open in independent readers, with the original names recorded.
FIXTURES="$(dirname "$READERS")"  # odd.dot, odd.csv, odd.json: the names and data
cp "$FIXTURES/odd.dot" "$FIXTURES/odd.csv" "$WORK/"
for f in bif xml net; do
  "$BNSL" convert -q "$WORK/odd.dot" "$WORK/odd.$f" --data "$WORK/odd.csv" ||
    fail "odd -> $f: exit $?"
done
python3 "$READERS" "$FIXTURES/odd.json" "$WORK/odd.bif" "$WORK/odd.xml" "$WORK/odd.net" \
  >"$WORK/readers.txt" || fail "independent readers: $(cat "$WORK/readers.txt")"
grep -q "variable col_one {" "$WORK/odd.bif" || fail "odd.bif: no 'variable col_one'"
grep -q "property bnsl_name = col%20one;" "$WORK/odd.bif" || fail "odd.bif: name not recorded"
grep -q "^variable,col one,,col_one$" "$WORK/odd.bif.names.csv" || fail "odd.bif.names.csv"
# bnsl reads back the original names, and the states sorted (numbers numerically).
"$BNSL" convert -q "$WORK/odd.net" "$WORK/odd.back.xml" || fail "net -> xml: exit $?"
grep -q "<NAME>say &quot;hi&quot;</NAME>" "$WORK/odd.back.xml" || fail "original name lost"
tr -d '\n ' <"$WORK/odd.back.xml" | grep -q "<OUTCOME>1</OUTCOME><OUTCOME>2</OUTCOME><OUTCOME>10</OUTCOME>" ||
  fail "states of plain not in numeric order"
pass "odd names open in independent BIF, XMLBIF and NET readers; originals recorded and restored"

# 4. Bad input: exit 2 with FILE:LINE:COL, and no output written or replaced.
"$BNSL" convert "$DATA/asia.bif" "$WORK/x.unknown" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] && grep -q "x.unknown.*unknown network format" "$WORK/err.txt" ||
  fail "unknown output format: $(cat "$WORK/err.txt")"
printf 'BAYES\n2\n2 2\n2\n1 0\n2 0 1\n\n2\n0.5 0.5\n3\n0.5 0.5 0.5\n' >"$WORK/bad.uai"
printf '<?xml version="1.0"?>\n<BIF VERSION="0.3"><NETWORK><NAME>x</NAME>\n<VARIABLE TYPE="nature"><NAME>a</NAME><OUTCOME>y</OUTCOME>\n</NETWORK></BIF>\n' >"$WORK/bad.xml"
printf 'net\n{\n}\nnode a\n{\n  states = ("y" "n");\n}\npotential ( a )\n{\n  data = (0.5 0.5;\n}\n' >"$WORK/bad.net"
printf '[a][b|a][c|a:d]\n' >"$WORK/bad.modelstring"
printf '<graphml><graph edgedefault="directed"><node id="a"/><edge source="a" target="b"/></graph></graphml>\n' >"$WORK/bad.graphml"
printf 'digraph {\n  a -> b\n  b -- c\n}\n' >"$WORK/bad.dot"
printf 'a,b\n0,1\n1,x\n' >"$WORK/bad.csv"
printf 'network unknown {\n}\nvariable a {\n  type discrete [ 2 ] { x, y };\n}\nprobability ( a ) {\n  table 0.5 0.5\n' >"$WORK/bad.bif"
echo "keep" >"$WORK/kept.bif"
for f in uai xml net modelstring graphml dot csv bif; do
  out="$WORK/out.$f.graphml"
  rm -f "$out"
  "$BNSL" convert "$WORK/bad.$f" "$out" 2>"$WORK/err.txt"
  status=$?
  [[ $status -eq 2 ]] || fail "malformed $f: exit $status, expected 2"
  grep -Eq "bad\.$f:[0-9]+:[0-9]+: " "$WORK/err.txt" || fail "malformed $f: no FILE:LINE:COL: $(cat "$WORK/err.txt")"
  [[ ! -e $out ]] || fail "malformed $f: output written"
  "$BNSL" convert "$WORK/bad.$f" "$WORK/kept.bif" --to bif 2>/dev/null
  [[ $(cat "$WORK/kept.bif") == keep ]] || fail "malformed $f: an existing output was replaced"
done
# A collision after mapping: "a b" and "a_b" are both a_b in BIF.
printf 'digraph { "a b" -> "a_b"; }\n' >"$WORK/clash.dot"
printf 'a b,a_b\nx,y\ny,x\n' >"$WORK/clash.csv"
"$BNSL" convert "$WORK/clash.dot" "$WORK/clash.bif" --data "$WORK/clash.csv" 2>"$WORK/err.txt"
status=$?
[[ $status -eq 2 ]] || fail "collision: exit $status, expected 2"
grep -Eq "clash\.dot:1:[0-9]+: .*'a b' and 'a_b' are both written 'a_b'" "$WORK/err.txt" ||
  fail "collision: $(cat "$WORK/err.txt")"
[[ ! -e $WORK/clash.bif ]] || fail "collision: clash.bif written"
"$BNSL" convert -q "$WORK/clash.dot" "$WORK/clash.graphml" || fail "clash -> graphml (no collision there)"
"$BNSL" convert "$WORK/a.dot" "$WORK/s.bif" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] && grep -q "no parameters.*--data" "$WORK/err.txt" ||
  fail "structure -> bif without data: $(cat "$WORK/err.txt")"
pass "bad input exits 2 with FILE:LINE:COL and writes nothing"

# 5. sample, eval and --prefer-arcs read the formats; learn --format writes them.
"$BNSL" sample "$WORK/a.xml" -n 200 --seed 3 -o "$WORK/s1.csv" -q || fail "sample .xml: exit $?"
"$BNSL" sample "$DATA/asia.bif" -n 200 --seed 3 -o "$WORK/s2.csv" -q || fail "sample .bif"
cmp -s "$WORK/s1.csv" "$WORK/s2.csv" || fail "sampling the XMLBIF and the BIF differ"
"$BNSL" sample "$WORK/a.uai" -n 200 --seed 3 -o "$WORK/s3.csv" -q || fail "sample .uai: exit $?"
cmp -s "$WORK/s3.csv" "$WORK/s2.csv" || fail "sampling the UAI (names from its table) differs"
"$BNSL" eval --truth "$WORK/a.net" --learned "$WORK/a.dot" --json >"$WORK/eval.json" ||
  fail "eval net/dot: exit $?"
grep -q '"shd": 0' "$WORK/eval.json" || fail "eval of asia against itself: $(cat "$WORK/eval.json")"
"$BNSL" sample "$WORK/g.bif" -n 2000 --seed 2 -o "$WORK/g8.csv" -q
"$BNSL" learn "$WORK/s2.csv" -o "$WORK/run" --time 3 --threads 1 --format xmlbif,net,uai,modelstring,graphml,adjacency \
  --prefer-arcs "$WORK/a.dot" -q || fail "learn --format: exit $?"
for ext in bif xml net uai modelstring graphml csv; do
  [[ -s $WORK/run.best.$ext ]] || fail "learn --format: no run.best.$ext"
done
"$BNSL" convert -q "$WORK/run.best.xml" "$WORK/run.x.bif" || fail "run.best.xml reads: exit $?"
cmp -s "$WORK/run.x.bif" "$WORK/run.best.bif" || fail "run.best.xml is not run.best.bif"
"$BNSL" learn "$WORK/s2.csv" -o "$WORK/run2" --time 1 --format bogus 2>"$WORK/err.txt"
[[ $? -eq 2 ]] || fail "learn --format bogus: expected exit 2"
pass "sample, eval, --prefer-arcs and learn --format use the formats"

# 6. Numbers read as categories: an error naming the column at its header cell, and the way
#    out; --discretize cuts them and the pool records the cut points.
awk 'BEGIN { srand(3); print "id,x,y"; for (i = 1; i <= 200; i++)
  printf "%d,%.3f,%s\n", i, rand() * 10, (i % 3 ? "a" : "b") }' >"$WORK/num.csv"
"$BNSL" learn "$WORK/num.csv" -o "$WORK/num" --time 1 2>"$WORK/err.txt"
status=$?
[[ $status -eq 2 ]] || fail "numbers as categories: exit $status, expected 2"
grep -Eq "num.csv:1:4: column 'x' holds [0-9]+ distinct numbers.*--discretize" "$WORK/err.txt" ||
  fail "numbers as categories: $(cat "$WORK/err.txt")"
"$BNSL" learn "$WORK/num.csv" -o "$WORK/num" --time 2 --threads 1 --discretize quantile:4 \
  --discretize id=none 2>"$WORK/err.txt" || fail "--discretize: exit $? ($(cat "$WORK/err.txt"))"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))["discretized"]
assert [(c["variable"], c["method"], len(c["breaks"])) for c in d] == [("x", "quantile", 5)], d
assert d[0]["breaks"] == sorted(d[0]["breaks"]), d' "$WORK/num.pool.json" 2>"$WORK/err.txt" ||
  fail "pool has no cut points: $(cat "$WORK/err.txt")"
"$BNSL" check "$WORK/num.csv" "$WORK/num.pool.json" --discretize quantile:4 --discretize id=none \
  >/dev/null 2>"$WORK/err.txt" || fail "check of a discretized pool: $(cat "$WORK/err.txt")"
grep -q 'type discrete \[ 4 \] { \[' "$WORK/num.best.bif" && fail "interval labels not mapped in BIF"
grep -q "property bnsl_states = %5B" "$WORK/num.best.bif" || fail "interval labels not recorded"
"$BNSL" learn "$WORK/num.csv" -o "$WORK/num2" --time 1 --discretize x=quantile:3 2>"$WORK/err.txt"
[[ $? -eq 0 ]] && grep -q "warning: .*column 'id' holds 200 distinct integers" "$WORK/err.txt" ||
  fail "integer column: no warning ($(cat "$WORK/err.txt"))"
pass "numbers as categories: error at the header cell, warning for integers, --discretize"

echo "$passed passed, 0 failed"
