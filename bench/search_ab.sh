#!/usr/bin/env bash
# The search alone, two binaries on one score cache: `bnsl search CACHE --time T --threads 2
# --seed S` for each seed, the two binaries alternating, each run alone on the machine (each
# under the command prefix WRAP when given, e.g. a lock: WRAP="flock -x /path/to/lock"). A change to the search or the pool is compared here
# without the exploration's run-to-run variation: under `learn --time`, how many sets the
# exploration scores depends on the machine's speed at the time, and so does the cache the
# search gets.
# Prints one line per run (binary, seed, best score, classes kept, climbs: restarts and
# perturbations, each a climb to a local optimum) and the means of each binary.
# Usage: bench/search_ab.sh OLD_BNSL NEW_BNSL CACHE.jkl [TIME=30] [SEEDS="1 2 3"]
#        WRAP="flock -x LOCKFILE" bench/search_ab.sh ...   (each run under that prefix)
# A cache: `bnsl learn DATA.csv -o X --time 60` leaves X.cache.jkl, or `bnsl score`.
set -euo pipefail
old=${1:?usage: bench/search_ab.sh OLD_BNSL NEW_BNSL CACHE.jkl [TIME] [SEEDS]}
new=${2:?usage: bench/search_ab.sh OLD_BNSL NEW_BNSL CACHE.jkl [TIME] [SEEDS]}
cache=${3:?usage: bench/search_ab.sh OLD_BNSL NEW_BNSL CACHE.jkl [TIME] [SEEDS]}
time=${4:-30}
seeds=${5:-1 2 3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {
  # shellcheck disable=SC2086
  ${WRAP:-} "$@"
}
printf '%-4s %6s %18s %9s %7s\n' run seed best classes climbs
for seed in $seeds; do
  for which in old new; do
    bin=$old
    [[ $which == new ]] && bin=$new
    run "$bin" search "$cache" -o "$work/$which-$seed" --time "$time" --threads 2 \
      --seed "$seed" --stats "$work/$which-$seed.stats.json" >/dev/null \
      2>"$work/$which-$seed.stderr" ||
      { cat "$work/$which-$seed.stderr" >&2; exit 1; }
    python3 - "$work/$which-$seed" "$which" "$seed" <<'EOF' | tee -a "$work/table"
import json, sys
pool = json.load(open(sys.argv[1] + ".pool.json"))
search = json.load(open(sys.argv[1] + ".stats.json"))["search"]
climbs = search["restarts"] + search["perturbations"]
print(f"{sys.argv[2]:<4} {sys.argv[3]:>6} {pool['best_score']:18.4f} {pool['class_count']:9d} {climbs:7d}")
EOF
  done
done
awk '{ s[$1] += $3; c[$1] += $5; n[$1]++ }
     END { for (k in s) printf "mean %-4s %18.4f %17.1f climbs over %d seeds\n", k, s[k] / n[k], c[k] / n[k], n[k] }' \
  "$work/table" | sort
