#!/usr/bin/env bash
# Do two bnsl binaries explore and score the same? For every data set of the samples and
# density suites, runs `bnsl score` with each binary in a mode that does not depend on timing
# (--time 0, no time budget; each variable's exploration ends at the end of its lattice or at a
# fixed memory cap, --explore-memory) and compares the two score caches byte for byte (comment
# lines aside: the provenance header, which older binaries do not write). A refactor that keeps
# the behaviour gives identical caches; a change of counting, scoring, pruning or
# exploration order shows up as a difference, with the entry counts and the sum over variables
# of each one's best cached score (the bound on any network from the cache) of both.
#
#   bench/same_caches.sh OLD/bnsl NEW/bnsl                 # all 26 data sets (~8 min, 2 cores)
#   SETS="alarm nltcs plants" bench/same_caches.sh OLD/bnsl NEW/bnsl
#   SETS=munin CANDIDATES=32 bench/same_caches.sh OLD/bnsl NEW/bnsl   # screened: the sweeps too
#
# Environment: DATA (data root, default <repo>/../shared/datasets), MEMORY (the cap, MiB per
# variable, default 8), THREADS (default 2), SETS (data set names, default all; a name with a
# samples/NAME-5000.csv under DATA is read there, any other from density/), SCORE (bic or bdeu,
# default bic), CANDIDATES (screening's --candidates, default none: --time 0 screens nothing).
# Prints a markdown table on stdout; exits 1 when any pair differs.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
data=${DATA:-$repo/../shared/datasets}
memory=${MEMORY:-8}
threads=${THREADS:-2}
score=${SCORE:-bic}
screen=()
[[ -n ${CANDIDATES:-} ]] && screen=(--candidates "$CANDIDATES")
[[ $# -eq 2 ]] || { sed -n 2,19p "$0" >&2; exit 2; }
old=$1 new=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-same-caches.XXXXXX")
trap 'rm -rf "$work"' EXIT

samples="alarm hailfinder andes pigs link munin"
density="accidents ad audio bbc book c20ng dna eachmovie jester kdd kosarek msnbc msweb netflix
nltcs plants pumsb_star r52 retail webkb"
sets=${SETS:-$samples $density}

# path_of NAME: the CSV (a gzipped one decompressed into the work folder) and its header flag.
path_of() {
  local csv flag=""
  if [[ " $samples " == *" $1 "* || -e $data/samples/$1-5000.csv ]]; then
    csv=$data/samples/$1-5000.csv
  else
    csv=$data/density/$1/train.csv flag=--no-header
  fi
  if [[ ! -e $csv && -e $csv.gz ]]; then
    gunzip -c "$csv.gz" >"$work/$1.csv"
    csv=$work/$1.csv
  fi
  echo "$csv $flag"
}

# summary JKL: entries and the sum of each variable's best score ('#' lines are comments; after
# the first other line, the number of variables, each variable's block is "VAR COUNT", then
# COUNT lines "SCORE K PARENTS").
summary() {
  awk '/^#/ { next }
       !n { n = $1; next }
       left == 0 { left = $2; best = ""; next }
       { if (best == "" || $1 + 0 > best + 0) best = $1; entries++; if (--left == 0) sum += best }
       END { printf "%d %.4f", entries, sum }' "$1"
}

echo "| data | entries old | entries new | best-sum old | best-sum new | caches |"
echo "|---|---:|---:|---:|---:|---|"
differ=0
for s in $sets; do
  read -r csv flag <<<"$(path_of "$s")"
  for side in old new; do
    bin=$old; [[ $side == new ]] && bin=$new
    # shellcheck disable=SC2086
    "$bin" score "$csv" $flag --score "$score" --explore-memory "$memory" --threads "$threads" \
      --time 0 "${screen[@]}" -q -o "$work/$s.$side.jkl"
  done
  read -r eo so <<<"$(summary "$work/$s.old.jkl")"
  read -r en sn <<<"$(summary "$work/$s.new.jkl")"
  verdict=identical  # comment lines aside (a provenance header, which older binaries lack)
  cmp -s <(grep -v '^#' "$work/$s.old.jkl") <(grep -v '^#' "$work/$s.new.jkl") ||
    { verdict=differ; differ=1; }
  echo "| $s | $eo | $en | $so | $sn | $verdict |"
done
exit $differ
