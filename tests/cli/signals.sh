#!/usr/bin/env bash
# SIGTERM and SIGINT at moments spread over every phase of learn, score, search and exact
# (reading, exploration, the ordering search, the neighbour walk, the DP, the ILP, writing the
# report): each run must end within 5 s of the signal with exit 128 + signal (or 0 when it ended
# first), and every output on disk must be whole: a pool JSON passes `bnsl check` against the
# data, a jkl reads back (`bnsl search` on it), a BIF samples (`bnsl sample`), and no
# temporary file (FILE.tmp of an atomic write) is left. The moments are drawn from a fixed seed.
#
# Usage: bash signals.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"

RANDOM=2024
runs=0
ended_first=0

# outputs_whole PREFIX DATA [NOHEADER]: every output of PREFIX that exists is whole.
outputs_whole() {
  local prefix=$1 data=$2 header=${3:-}
  local leftover
  leftover=$(find "$(dirname "$prefix")" -name "$(basename "$prefix")*.tmp*" | head -1)
  [[ -z $leftover ]] || fail "$prefix: temporary file left: $leftover"
  if [[ -e $prefix.pool.json ]]; then
    "$BNSL" check "$data" "$prefix.pool.json" $header >"$WORK/check.txt" 2>&1 ||
      { cat "$WORK/check.txt" >&2; fail "$prefix.pool.json fails bnsl check"; }
  fi
  if [[ -e $prefix.jkl ]]; then
    "$BNSL" search "$prefix.jkl" -o "$WORK/readback" --time 0.5 --threads 1 -q \
      2>"$WORK/readback.err" || { cat "$WORK/readback.err" >&2; fail "$prefix.jkl does not read back"; }
  fi
  if [[ -e $prefix.best.bif ]]; then
    "$BNSL" sample "$prefix.best.bif" -n 3 -o "$WORK/sample.csv" -q 2>"$WORK/sample.err" ||
      { cat "$WORK/sample.err" >&2; fail "$prefix.best.bif does not read back"; }
  fi
  if [[ -e $prefix.best.dot ]]; then
    grep -q "^}" "$prefix.best.dot" || fail "$prefix.best.dot is cut short"
  fi
  return 0
}

# signal_at SIG SECONDS PREFIX DATA HEADER ARGS...: runs bnsl ARGS, sends SIG after SECONDS,
# checks the exit status and the outputs of PREFIX.
signal_at() {
  local sig=$1 after=$2 prefix=$3 data=$4 header=$5
  shift 5
  rm -rf "$prefix".*
  # A background job of a non-interactive shell starts with SIGINT ignored, until bnsl sets
  # its handler (0.1 s into an ASan build); a user's Ctrl-C meets the default handling.
  env --default-signal=INT,TERM "$BNSL" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" &
  local pid=$!
  sleep "$after"
  local want
  case $sig in TERM) want=143 ;; INT) want=130 ;; esac
  kill "-$sig" "$pid" 2>/dev/null
  wait_stopped "$pid" "bnsl $* (SIG$sig at $after s)"
  local status=$stopped_status
  runs=$((runs + 1))
  if [[ $status -eq 0 ]]; then
    ended_first=$((ended_first + 1))
    echo "  bnsl ${1-} ended before SIG$sig at $after s"
  elif [[ $status -ne $want ]]; then
    fail "bnsl $*: exit $status after SIG$sig at $after s, expected $want"
  fi
  outputs_whole "$prefix" "$data" "$header"
}

# A moment in [LO, HI) seconds, drawn from the seeded RANDOM.
moment() { python3 -c "print(f'{$1 + ($2 - $1) * $RANDOM / 32768:.2f}')"; }

ALARM=$DATA/alarm-5000.csv
WINE=$DATA/wine.csv
cut -d, -f1-20 "$ALARM" >"$WORK/alarm20.csv"  # 20 variables: exact mode's DP in seconds
A20=$WORK/alarm20.csv

sig() { if ((RANDOM % 2)); then echo TERM; else echo INT; fi; }

# learn: reading and exploration (first second), the search, the walk near the end.
for range in "0.02 0.3" "0.3 2" "2 5" "5 8" "8.5 9.8"; do
  signal_at "$(sig)" "$(moment $range)" "$WORK/l" "$ALARM" "" \
    learn "$ALARM" -o "$WORK/l" --time 10 --threads 2 -q
done
pass "learn: SIGTERM/SIGINT in every phase leave whole outputs"

# score: exploration only; the cache is written at the stop.
for range in "0.02 0.3" "0.3 2" "2 5"; do
  signal_at "$(sig)" "$(moment $range)" "$WORK/s" "$ALARM" "" \
    score "$ALARM" -o "$WORK/s.jkl" --time 10 -q
done
pass "score: signals leave a whole cache or none"

# search on a cache (with the data: BIF outputs).
"$BNSL" score "$ALARM" -o "$WORK/alarm.jkl" --time 3 -q 2>"$WORK/err.txt" ||
  fail "score for the search runs"
for range in "0.02 0.3" "0.3 2" "2 5" "5.5 5.95"; do
  signal_at "$(sig)" "$(moment $range)" "$WORK/x" "$ALARM" "" \
    search "$WORK/alarm.jkl" --data "$ALARM" -o "$WORK/x" --time 6 --threads 2 -q
done
pass "search: signals leave whole outputs"

# exact: the DP on 20 variables, the ILP on wine at a Bayes factor that lists many DAGs.
for range in "0.02 0.4" "0.4 0.9" "0.9 1.4"; do  # the DP takes about 2 s in all
  signal_at "$(sig)" "$(moment $range)" "$WORK/e" "$A20" "" \
    exact "$A20" -o "$WORK/e" --method dp --time 8 -q
done
pass "exact: signals during the DP leave whole outputs"
if "$BNSL" exact "$WINE" --no-header -o "$WORK/probe" --method ilp --time 2 -q 2>/dev/null; then
  for range in "0.02 0.5" "0.5 3" "3 6"; do
    signal_at "$(sig)" "$(moment $range)" "$WORK/i" "$WINE" "--no-header" \
      exact "$WINE" --no-header -o "$WORK/i" --method ilp --bayes-factor 1000 --time 8 -q
  done
  pass "exact: signals during the ILP leave whole outputs"
else
  echo "exact --method ilp unavailable (built without CBC): its runs skipped"
fi

echo "($runs runs, $ended_first ended before their signal)"
echo "$passed passed, 0 failed"
