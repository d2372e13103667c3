#!/usr/bin/env bash
# `bnsl sample`: the CSV has a header of the network's variable names and N rows of its state
# names; the same seed gives the same file and another seed a different one; a malformed BIF
# gives exit 2 and a FILE:LINE:COL message; a missing -n is a usage error (exit 2).
#
# Usage: bash sample.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"

# 1. Shape: header = asia's variables in BIF order, 1000 data lines of 8 fields of yes/no.
"$BNSL" sample "$DATA/asia.bif" -n 1000 --seed 5 -o "$WORK/a.csv" 2>"$WORK/err.txt" ||
  fail "sample asia: exit $?"
[[ $(head -1 "$WORK/a.csv") == "asia,tub,smoke,lung,bronc,either,xray,dysp" ]] ||
  fail "header is '$(head -1 "$WORK/a.csv")'"
[[ $(wc -l <"$WORK/a.csv") -eq 1001 ]] || fail "$(wc -l <"$WORK/a.csv") lines, expected 1001"
bad=$(tail -n +2 "$WORK/a.csv" | awk -F, 'NF != 8 { n++; next }
  { for (i = 1; i <= 8; i++) if ($i != "yes" && $i != "no") { n++; break } } END { print n + 0 }')
[[ $bad -eq 0 ]] || fail "$bad data lines without 8 yes/no fields"
[[ ! -e $WORK/a.csv.tmp ]] || fail "a.csv.tmp left behind"
pass "CSV shape: header of names, 1000 rows of state names"

# 2. Determinism: same seed, same bytes; another seed, another file.
"$BNSL" sample "$DATA/asia.bif" -n 1000 --seed 5 -o "$WORK/b.csv" -q 2>"$WORK/err.txt" ||
  fail "second sample: exit $?"
cmp -s "$WORK/a.csv" "$WORK/b.csv" || fail "same seed gave different files"
"$BNSL" sample "$DATA/asia.bif" -n 1000 --seed 6 -o "$WORK/c.csv" -q 2>"$WORK/err.txt" ||
  fail "third sample: exit $?"
cmp -s "$WORK/a.csv" "$WORK/c.csv" && fail "seeds 5 and 6 gave the same file"
pass "same seed gives the same file, another seed a different one"

# 3. A larger network samples and the data set reads back (bnsl score accepts it).
"$BNSL" sample "$DATA/child.bif" -n 500 --seed 1 -o "$WORK/child.csv" -q 2>"$WORK/err.txt" ||
  fail "sample child: exit $?"
[[ $(head -1 "$WORK/child.csv" | awk -F, '{ print NF }') -eq 20 ]] || fail "child: not 20 columns"
pass "child (20 variables) samples"

# 4. Malformed BIF: exit 2 and FILE:LINE:COL.
printf 'network unknown {\n}\nvariable a {\n  type discrete [ 2 ] { x, y };\n}\nprobability ( a ) {\n  table 0.5 0.5\n' \
  >"$WORK/bad.bif"
"$BNSL" sample "$WORK/bad.bif" -n 10 -o "$WORK/bad.csv" 2>"$WORK/err.txt"
status=$?
[[ $status -eq 2 ]] || fail "malformed BIF: exit $status, expected 2"
grep -Eq "bad\.bif:[0-9]+:[0-9]+: " "$WORK/err.txt" || fail "malformed BIF: no FILE:LINE:COL"
[[ ! -e $WORK/bad.csv ]] || fail "malformed BIF: a CSV was written"
pass "malformed BIF: exit 2 with FILE:LINE:COL"

# 5. Usage errors: missing -n, missing file.
"$BNSL" sample "$DATA/asia.bif" -o "$WORK/x.csv" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] || fail "missing -n: expected exit 2"
"$BNSL" sample "$WORK/none.bif" -n 5 -o "$WORK/x.csv" 2>"$WORK/err.txt"
[[ $? -eq 2 ]] || fail "missing BIF file: expected exit 2"
pass "usage errors exit 2"

echo "$passed passed, 0 failed"
