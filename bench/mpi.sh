#!/usr/bin/env bash
# One machine, two ways to use its two cores (issue 20): `bnsl learn` as one process with two
# threads against `mpirun -np 2` processes of one thread each, on the same data and budget.
# Per run: exploration throughput (families scored per second of exploration), the best score,
# the pool's classes, and for the MPI runs the bytes rank 0 sent and received (the cache
# gather, the best networks exchanged, the pools gathered at the end).
#
#   bench/mpi.sh                                   # andes sample, 60 s, seeds 1 2 3 (~7 min)
#   SETS="gen2000" TIME=120 bench/mpi.sh           # out/generated/gen2000.csv (bench/suite.py)
#
# Environment: BNSL (default build/bnsl, built with MPI), DATA (data root, default
# <repo>/../shared/datasets), TIME (default 60), SEEDS (default "1 2 3"), SETS (andes, or
# gen2000/gen5000/gen10000 from out/generated), OUT (default out/mpi). Needs a quiet machine.
# Prints a markdown table.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bnsl=${BNSL:-$repo/build/bnsl}
data=${DATA:-$repo/../shared/datasets}
time_s=${TIME:-60}
seeds=${SEEDS:-1 2 3}
sets=${SETS:-andes}
out=${OUT:-$repo/out/mpi}
mkdir -p "$out"
"$bnsl" --version | grep -q MPI || { echo "mpi.sh: $bnsl was built without MPI" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none

csv_of() {
  case $1 in
    gen*) echo "$repo/out/generated/$1.csv" ;;
    *) echo "$data/samples/$1-5000.csv" ;;
  esac
}

echo "| data | layout | seed | wall s | explore s | families scored/s | best | classes | rank 0 sent | rank 0 received |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for set in $sets; do
  csv=$(csv_of "$set")
  for seed in $seeds; do
    for layout in "1x2" "2x1"; do
      prefix=$out/$set-$layout-s$seed
      if [[ $layout == 1x2 ]]; then
        launch=() threads=2
      else
        launch=(mpirun --oversubscribe -np 2) threads=1
      fi
      start=$(date +%s.%N)
      "${launch[@]}" "$bnsl" learn "$csv" -o "$prefix" --time "$time_s" --threads "$threads" \
        --seed "$seed" --quiet --stats "$prefix.stats.json" 2>"$prefix.stderr"
      end=$(date +%s.%N)
      python3 - "$prefix" "$set" "$layout" "$seed" "$start" "$end" <<'EOF'
import json, sys
prefix, name, layout, seed, start, end = sys.argv[1:]
s = json.load(open(prefix + ".stats.json"))
e, p = s["explore"], s.get("processes", {})
best = s["search"]["best_score"]
classes = s["search"]["pool_size"]
mib = lambda b: f"{b / 2**20:,.1f} MiB" if b else ""
print(f"| {name} | {layout.replace('x', ' × ')} | {seed} | {float(end) - float(start):.1f} | "
      f"{e['seconds']:.1f} | {e['sets_scored'] / max(e['seconds'], 1e-9):,.0f} | {best:,.2f} | "
      f"{classes:,} | {mib(p.get('bytes_sent', 0))} | {mib(p.get('bytes_received', 0))} |")
EOF
    done
  done
done
