#!/usr/bin/env bash
# Do two bnsl binaries prove and list the same in exact mode? For each uci/ data set named, runs
# `bnsl exact DATA --time T` (BIC, Bayes factor BF) with each binary and compares what the
# pool file says beyond its timings: the optimum, whether it is proven and the list complete,
# the class and DAG counts, and every class listed (its score, its representative DAG and its
# members). A refactor of exact mode gives identical lists; a row either binary does not finish
# within T (no proof, or a list cut) is shown as such and not compared.
#
#   bench/same_exact.sh OLD/bnsl NEW/bnsl
#   SETS="iris wine zoo" TIME=60 BF=20 bench/same_exact.sh OLD/bnsl NEW/bnsl
#   SETS="wine zoo hepatitis" METHOD=ilp bench/same_exact.sh OLD/bnsl NEW/bnsl   # the collector
#
# Environment: DATA (data root, default <repo>/../shared/datasets), SETS (uci/ names, default
# the ones below), TIME (seconds per run, default 60), BF (Bayes factor, default 20), THREADS
# (default 2), METHOD (--method, default auto: dp up to 29 variables). Prints a markdown table on
# stdout; exits 1 when a pair that both finished differs.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
data=${DATA:-$repo/../shared/datasets}
time=${TIME:-60}
bf=${BF:-20}
threads=${THREADS:-2}
method=${METHOD:-auto}
# Default: the BIC BF 20 rows of bench/results/exact-grid.md that finished in under 40 s.
sets=${SETS:-iris shuttle tic-tac-toe adult wine nltcs voting zoo hepatitis insurance1000
water1000 mildew1000 alarm1000 sponge barley1000 promoters}
[[ $# -eq 2 ]] || { sed -n 2,16p "$0" >&2; exit 2; }
old=$1 new=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-same-exact.XXXXXX")
trap 'rm -rf "$work"' EXIT

# digest POOL: "finished|cut|none" (no pool written), the summary fields, and a hash of the classes without timings.
digest() {
  [[ -s $1 ]] || { echo "none - - - -"; return; }
  python3 - "$1" <<'EOF'
import hashlib, json, sys
p = json.load(open(sys.argv[1]))
finished = p["optimal"] and p["complete"]
keys = ["best_score", "optimal", "complete", "class_count", "dag_count", "dags_listed"]
body = json.dumps([p[k] for k in keys] + [p["classes"]], sort_keys=True)
print("finished" if finished else "cut", f"{p['best_score']:.4f}", p["class_count"], p["dag_count"],
      hashlib.sha256(body.encode()).hexdigest()[:12])
EOF
}

echo "| data | n | OPT | classes | DAGs | old | new | lists |"
echo "|---|---:|---:|---:|---:|---|---|---|"
differ=0
for s in $sets; do
  csv=$data/uci/$s.csv
  n=$(head -1 "$csv" | tr ',' '\n' | wc -l)
  for side in old new; do
    bin=$old; [[ $side == new ]] && bin=$new
    "$bin" exact "$csv" --no-header --bayes-factor "$bf" --time "$time" --threads "$threads" \
      --method "$method" -q -o "$work/$s.$side" || echo "$s: $side exited $?" >&2
  done
  read -r fo so co do ho <<<"$(digest "$work/$s.old.pool.json")"
  read -r fn sn cn dn hn <<<"$(digest "$work/$s.new.pool.json")"
  if [[ $fo != finished || $fn != finished ]]; then
    verdict="not compared (a run did not finish in $time s)"
  elif [[ "$so $co $do $ho" == "$sn $cn $dn $hn" ]]; then
    verdict=identical
  else
    verdict=differ differ=1
  fi
  echo "| $s | $n | $sn | $cn | $dn | $fo | $fn | $verdict |"
done
exit $differ
