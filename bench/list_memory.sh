#!/usr/bin/env bash
# The memory a listed DAG (class) takes in exact mode, from the listing to the written pool
# (issue 61: src/exact/list_memory.hpp stops a list that would not fit): runs `bnsl exact` on
# the bundled uci/wine (14 variables, BIC) at a Bayes factor of 1e6, where millions of DAGs lie
# within epsilon, with --max-solutions M for two values of M, as DAGs and as classes, and
# prints each run's peak RSS (GNU time's %M) and the bytes per listed unit between the two
# (the difference of the peaks over the difference of the lists). Then the run under
# `ulimit -v 300000` that issue 61 reported: its exit status and what it listed. Memory, not
# time: no machine lock.
#
#   bench/list_memory.sh [BNSL]      # default build/bnsl
set -euo pipefail
cd "$(dirname "$0")/.."
bnsl=${1:-build/bnsl}
out=out/list-memory
mkdir -p "$out"
wine=datasets/wine.csv

peak() {  # peak MODE M: peak RSS in KB of a list of M DAGs (MODE dags) or classes (classes)
  local extra=()
  [[ $1 == classes ]] && extra=(--classes)
  /usr/bin/time -f %M -o "$out/time.txt" "$bnsl" exact "$wine" --no-header --bayes-factor 1e6 \
    --time 60 --threads 1 -q --max-solutions "$2" "${extra[@]}" -o "$out/run"
  cat "$out/time.txt"
}

printf '%-8s %10s %10s %10s %14s\n' mode listed_a listed_b peak_b_KB bytes_per_unit
for mode in dags classes; do
  a=50000 b=100000
  ka=$(peak "$mode" $a)
  kb=$(peak "$mode" $b)
  printf '%-8s %10d %10d %10d %14.0f\n' "$mode" $a $b "$kb" \
    "$(echo "($kb - $ka) * 1024 / ($b - $a)" | bc -l)"
done
status=0
(ulimit -v 300000 && exec "$bnsl" exact "$wine" --no-header --bayes-factor 1e6 --time 5 \
  -o "$out/limited") 2>"$out/limited.err" || status=$?
echo "ulimit -v 300000: exit $status; $(grep -o '"dags_listed": [0-9]*' "$out/limited.pool.json"),"\
  "$(grep -o '"memory_short": [a-z]*' "$out/limited.pool.json")"
