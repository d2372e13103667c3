#!/usr/bin/env bash
# The size of a run's files and the time it takes to write them (issue 58): learns the bundled
# ALARM sample for 30 s, the andes sample for 60 s and a generated network of 2,000 variables for
# 120 s (and, with `10000` among the runs, one of 10,000 variables for 300 s), 2 threads, seed 1,
# each run alone on the machine (`flock -x /work/locks/machine`, one run per hold when that lock
# exists). Prints one line per run: the pool file's bytes, all outputs' bytes, the seconds the
# final report took to write (from the birth of the pool file's last version to the last output's
# modification: the filesystem's clock, a few ms coarse), the pool file's own seconds, the
# tables' (edges.csv and classes.csv, when written), the wall time, and the summary's classes
# and listed DAGs.
#
#   bench/pool_files.sh [BNSL] [OUT] [RUNS]     # default build/bnsl, out/pool-files,
#                                               # "alarm andes gen2000"; reads ../shared or
#                                               # $BNSL_DATASETS (andes), generates the others
#   bench/pool_files.sh /work/bin/bnsl-550b5b8 out/pool-files-before "alarm andes gen2000 10000"
#
# The generated networks are written once to out/generated/ (bnsl generate --vars N
# --max-parents 4 --arity 2:4 --seed 1, then bnsl sample -n 5000 --seed 1), as
# bench/suites/scale.suite does.
set -euo pipefail
cd "$(dirname "$0")/.."
bnsl=${1:-build/bnsl}
out=${2:-out/pool-files}
runs=${3:-alarm andes gen2000}
datasets=${BNSL_DATASETS:-../shared/datasets}
[ -d "$datasets" ] || datasets=/work/shared/datasets
lock=/work/locks/machine
mkdir -p "$out" out/generated

generated() {  # generated VARS: out/generated/genVARS.csv (untimed: beside others' builds)
  local n=$1 bif=out/generated/gen$1.bif csv=out/generated/gen$1.csv
  [ -f "$bif" ] || shared "$bnsl" generate --vars "$n" --max-parents 4 --arity 2:4 --seed 1 \
    -o "$bif" -q
  [ -f "$csv" ] || shared "$bnsl" sample "$bif" -n 5000 --seed 1 -o "$csv" -q
  echo "$csv"
}

shared() { if [ -e "$lock" ]; then flock -s "$lock" "$@"; else "$@"; fi; }

# alone WALL_FILE COMMAND...: runs the command alone on the machine (when the machine's lock
# exists), and writes its wall time in ms (without the wait for the lock) to WALL_FILE.
alone() {
  local timed='s=$(date +%s%N); "${@:2}"; c=$?; echo $((($(date +%s%N) - s) / 1000000)) >"$1"; exit $c'
  if [ -e "$lock" ]; then flock -x "$lock" bash -c "$timed" _ "$@"; else bash -c "$timed" _ "$@"; fi
}

printf '%-8s %6s %14s %14s %9s %9s %9s %8s  %s\n' run time pool_bytes all_bytes write_s \
  pool_s tables_s wall_s summary
for run in $runs; do
  case $run in
    alarm) data=datasets/alarm-5000.csv time_s=30 ;;
    andes) data=$datasets/samples/andes-5000.csv time_s=60 ;;
    gen2000) data=$(generated 2000) time_s=120 ;;
    10000 | gen10000) data=$(generated 10000) time_s=300 run=gen10000 ;;
    *) echo "unknown run '$run'" >&2 && exit 2 ;;
  esac
  prefix=$out/$run
  rm -f "$prefix".*
  alone "$prefix.wall" "$bnsl" learn "$data" --time "$time_s" --threads 2 --seed 1 \
    -o "$prefix" 2>"$prefix.stderr"
  wall=$(cat "$prefix.wall")
  outputs=$(ls "$prefix".pool.json "$prefix".best.* "$prefix".consensus.dot \
    "$prefix".edges.csv "$prefix".classes.csv 2>/dev/null || true)
  born=$(stat -c %.9W "$prefix.pool.json")
  pool_done=$(stat -c %.9Y "$prefix.pool.json")
  last=$(stat -c %.9Y $outputs | sort -n | tail -1)
  all=$(stat -c %s $outputs | paste -sd+ | bc)
  tables=-
  if [ -f "$prefix.classes.csv" ]; then
    tables=$(printf '%.3f' "$(echo "$(stat -c %.9Y "$prefix.classes.csv") - \
      $(stat -c %.9W "$prefix.edges.csv")" | bc)")
  fi
  summary=$(grep -o '[0-9,]* equivalence classes of [^;]*listed)' "$prefix.stderr" | tail -1)
  printf '%-8s %6s %14s %14s %9.3f %9.3f %9s %8.1f  %s\n' "$run" "$time_s" \
    "$(stat -c %s "$prefix.pool.json")" "$all" "$(echo "$last - $born" | bc)" \
    "$(echo "$pool_done - $born" | bc)" "$tables" "$(echo "scale=1; $wall / 1000" | bc)" \
    "$summary"
done
