#!/usr/bin/env bash
# Issue 3 quality table (Scanagatta et al. 2015, Table 2): for each density data set, build a
# cache with each explorer (hybrid, is, greedy, seq) under the same per-variable budget, then search
# each cache for the same time, and report sets scored, cache entries, the sum of each
# variable's best cache entry, and the BIC of the network the search finds.
#
#   bench/explore_quality.sh                       # 1 s per variable, 60 s of search
#   PER_VAR=0.1 SEARCH=10 SETS="audio jester" bench/explore_quality.sh
#
# Environment: BUILD (default <repo>/build-bench), DATA (default <repo>/../shared/datasets),
# PER_VAR (s per variable, default 1), SEARCH (s of search per cache, default 60), SETS
# (space-separated data set names), EXPLORERS (default "hybrid is greedy seq"), THREADS
# (default all cores), SCORE (bic or bdeu, default bic; BDeu at ESS 1), SKIP_BUILD=1.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD:-$repo/build-bench}
data=${DATA:-$repo/../shared/datasets}
per_var=${PER_VAR:-1}
search=${SEARCH:-60}
threads=${THREADS:-0}
score=${SCORE:-bic}
explorers=${EXPLORERS:-"hybrid is greedy seq"}
sets=${SETS:-"audio jester netflix accidents retail pumsb_star dna kosarek msweb book eachmovie webkb r52 c20ng bbc ad"}
work=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-quality.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [[ -z ${SKIP_BUILD:-} ]]; then
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBNSL_BUILD_TESTS=OFF >&2
  cmake --build "$build" -j"$(nproc)" --target bnsl >&2
fi
bnsl=$build/bnsl

best_entry_sum() {  # sum over variables of the first (best) entry of a jkl cache
  awk '/^#/ { next } !n { n = $1; next } want == 0 { want = $2; first = 1; next }
       { if (first) { s += $1; first = 0 } want-- } END { printf "%.2f", s }' "$1"
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

echo "score ${score}, per-variable budget ${per_var} s, search ${search} s, threads ${threads:-all}, $(date -u +%F)"
echo
echo "| data | vars | explorer | sets scored | cache entries | sum of best entries | network ${score} |"
echo "|---|---:|---|---:|---:|---:|---:|"
for name in $sets; do
  csv=$data/density/$name/train.csv
  [[ -f $csv ]] || { echo "| $name | (no $csv) |||||"; continue; }
  vars=$(head -1 "$csv" | tr ',' '\n' | wc -l)
  for m in $explorers; do
    "$bnsl" score "$csv" --no-header --score "$score" --explore "$m" --time-per-var "$per_var" \
      --threads "$threads" -q -o "$work/c.jkl" --stats "$work/s.json"
    "$bnsl" search "$work/c.jkl" --time "$search" --threads "$threads" -q -o "$work/p"
    echo "| $name | $vars | $m | $(json "$work/s.json" "d['sets_scored']") |" \
         "$(json "$work/s.json" "d['cache_entries']") | $(best_entry_sum "$work/c.jkl") |" \
         "$(json "$work/p.pool.json" "round(d['best_score'], 2)") |"
  done
done
