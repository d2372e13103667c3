#!/usr/bin/env bash
# Command-line tests of CSV input: every malformed file must make `bnsl score` exit with status 2
# and print "bnsl: error: FILE:LINE:COL: ..." on stderr, pointing at the offending field; the
# CSV options (--no-header, --delimiter, --missing-as-state) must make good files succeed.
#
# Usage: bash csv_errors.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Stops at the first failure with a message and a non-zero status; ends with "N passed, 0 failed".
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: bash $0 PATH_TO_bnsl_BINARY DATASETS_DIR" >&2
  exit 2
fi
BNSL=$(realpath "$1")
DATASETS=$(realpath "$2")
[[ -x $BNSL ]] || { echo "csv_errors.sh: $BNSL is not an executable" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
passed=0

fail() {
  echo "csv_errors.sh: FAIL: $*" >&2
  echo "$passed passed, 1 failed" >&2
  exit 1
}

# run FILE ARGS...: runs `bnsl score` on FILE; leaves the exit status in $status.
run() {
  local file=$1
  shift
  rm -f out.jkl
  "$BNSL" score "$file" -o out.jkl --quiet "$@" >stdout.txt 2>stderr.txt
  status=$?
}

# expect_error FILE LOCATION PHRASE [ARGS...]: exit status 2, stderr holds
# "bnsl: error: FILE:LOCATION" (LOCATION is "LINE:COL:", or ":" when there is none) and PHRASE.
expect_error() {
  local file=$1 location=$2 phrase=$3
  shift 3
  run "$file" "$@"
  local err
  err=$(cat stderr.txt)
  [[ $status -eq 2 ]] || fail "$file $*: exit status $status, expected 2; stderr: $err"
  local want="bnsl: error: $file:$location"
  [[ $location == ":" ]] && want="bnsl: error: $file:"
  grep -qF -- "$want" stderr.txt || fail "$file $*: stderr lacks '$want'; stderr: $err"
  grep -qF -- "$phrase" stderr.txt || fail "$file $*: stderr lacks '$phrase'; stderr: $err"
  passed=$((passed + 1))
}

# expect_success FILE [ARGS...]: exit status 0 and a non-empty score file.
expect_success() {
  local file=$1
  shift
  run "$file" "$@"
  [[ $status -eq 0 ]] || fail "$file $*: exit status $status, expected 0; stderr: $(cat stderr.txt)"
  [[ -s out.jkl ]] || fail "$file $*: no score file written"
  passed=$((passed + 1))
}

# rows N DELIM: N deterministic data rows of three columns with a few states each.
rows() {
  local i
  for ((i = 0; i < $1; i++)); do
    printf '%s%s%s%s%s\n' "s$((i % 3))" "$2" "t$(((i / 2) % 2))" "$2" "u$(((i * 7) % 4))"
  done
}

# Malformed files.
expect_error nope.csv ":" "cannot open"

: >empty.csv
expect_error empty.csv "1:1:" "empty file"

printf 'A,B,C\n' >header_only.csv
expect_error header_only.csv "2:1:" "no data rows"

{ printf 'A,B,C\n'; rows 5 ,; printf 'x,y,z,w\n'; rows 5 ,; } >ragged_long.csv
expect_error ragged_long.csv "7:7:" "expected 3 fields, found 4"

{ printf 'A,B,C\n'; rows 5 ,; printf 'xx,yy\n'; } >ragged_short.csv
expect_error ragged_short.csv "7:6:" "expected 3 fields, found 2"

{ printf 'A,B,C\n'; rows 3 ,; printf '\n'; rows 3 ,; } >blank_line.csv
expect_error blank_line.csv "5:1:" "empty line"

{ printf 'A,B,C\n'; rows 4 ,; printf 's0,,u1\n'; rows 2 ,; } >empty_field.csv
expect_error empty_field.csv "6:4:" "missing value ''"

{ printf 'A,B,C\n'; rows 8 ,; printf 's1,t0,NA\n'; } >na.csv
expect_error na.csv "10:7:" "missing value 'NA'"

{ printf 'A,B,C\n'; rows 2 ,; printf 's1,?,u0\n'; } >question.csv
expect_error question.csv "4:4:" "missing value '?'"

{ printf 'A,B\n'; seq 0 65535 | sed 's/^/x,/'; } >many_states.csv
expect_error many_states.csv "65537:3:" "more than 65,535 distinct values"

{ printf 'A,B,A\n'; rows 5 ,; } >duplicate.csv
expect_error duplicate.csv "1:5:" "duplicate column name 'A'"

{ printf 'A;B;C\n'; rows 3 ';'; printf 's0;t1\n'; } >semicolon_ragged.csv
expect_error semicolon_ragged.csv "5:6:" "expected 3 fields, found 2" --delimiter ';'

# Good files.
expect_success na.csv --missing-as-state

{ printf 'A,B,C\n'; rows 30 ,; } >good.csv
expect_success good.csv

rows 30 , >no_header.csv
expect_success no_header.csv --no-header

{ printf 'A;B;C\n'; rows 30 ';'; } >semicolon.csv
expect_success semicolon.csv --delimiter ';'

{ printf 'A,B,C\r\n'; rows 30 , | sed 's/$/\r/'; } >crlf.csv
expect_success crlf.csv

expect_success "$DATASETS/wine.csv" --no-header
expect_success "$DATASETS/wine.csv" --no-header=true

# A flag's value that is not true/false or a number (--no-header=abc; found by fuzzing: CLI11
# let std::stoll's exception escape and bnsl aborted): a usage error, exit 2.
for value in abc --time 99999999999999999999; do
  run good.csv "--no-header=$value"
  [[ $status -eq 2 ]] || fail "--no-header=$value: exit status $status, expected 2"
  grep -qF "bnsl: error: " stderr.txt || fail "--no-header=$value: no error message"
  passed=$((passed + 1))
done

echo "$passed passed, 0 failed"
