#!/usr/bin/env bash
# Times whole `bnsl score` runs and prints a markdown table: wall time, peak RSS, sets scored,
# cache entries, variables out of time, pruning counts (from `bnsl score --stats FILE`).
#
#   bench/run_score.sh                    # Release build in build-bench, then every run
#   BUILD=/tmp/b DATA=/data/datasets bench/run_score.sh
#   RUNS="alarm" bench/run_score.sh      # only the runs whose label contains "alarm"
#   RUNS="speed-up" bench/run_score.sh   # the same fixed work on 1 and 2 threads
#   EXPLORE=is RUNS="throughput" bench/run_score.sh   # sets scored in 30 s, 1 and 2 threads
#   EXPLORE=is RUNS="per variable" bench/run_score.sh # the same time per variable: 1 thread
#                                                       60 s against 2 threads 30 s
#   RUNS=scale bench/run_score.sh       # ad with one second per variable (issue 3's scale item)
#   EXPLORE=is RUNS=exhaustive bench/run_score.sh  # exact mode's exploration (no budget, no
#                                                   in-degree limit) of uci/ sets with many rows
#
# Environment: BUILD (build directory, default <repo>/build-bench), DATA (data root, default
# <repo>/../shared/datasets), EXPLORE (explorer passed as --explore, default seq), RUNS
# (substring filter on run labels), SKIP_BUILD=1, RSS_METHOD=gnu|proc (force a peak-RSS method).
# Peak RSS comes from GNU time (/usr/bin/time -v); without it the script installs Debian's
# `time` package when run as root with apt-get, and otherwise polls /proc/PID/status (VmHWM).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD:-$repo/build-bench}
data=${DATA:-$repo/../shared/datasets}
filter=${RUNS:-}
explore=${EXPLORE:-seq}
work=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-run-score.XXXXXX")
trap 'rm -rf "$work"' EXIT

die() { echo "run_score.sh: $*" >&2; exit 1; }

if [[ -z ${SKIP_BUILD:-} ]]; then
  echo "run_score.sh: building Release in $build" >&2
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBNSL_BUILD_TESTS=OFF >&2
  cmake --build "$build" -j"$(nproc)" --target bnsl >&2
fi
bnsl=$build/bnsl
[[ -x $bnsl ]] || die "no bnsl binary at $bnsl"
command -v python3 >/dev/null || die "python3 is needed to read the --stats JSON"

# How to measure peak RSS: gnu | proc.
gnu_time() { /usr/bin/time --version 2>&1 | grep -q GNU; }
if [[ -n ${RSS_METHOD:-} ]]; then
  rss_method=$RSS_METHOD  # gnu | proc, for testing the fallback
elif [[ -x /usr/bin/time ]] && gnu_time; then
  rss_method=gnu
elif [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null &&
     { apt-get install -y -qq time >&2 || { apt-get update -qq >&2 && apt-get install -y -qq time >&2; }; } &&
     [[ -x /usr/bin/time ]] && gnu_time; then
  rss_method=gnu
else
  rss_method=proc
fi
echo "run_score.sh: peak RSS via $rss_method" >&2

# run_timed OUT_PREFIX CMD...: runs CMD, writes OUT_PREFIX.wall and OUT_PREFIX.cpu (user +
# system, s) and OUT_PREFIX.rss (KiB).
run_timed() {
  local out=$1; shift
  if [[ $rss_method == gnu ]]; then
    /usr/bin/time -v -o "$out.time" "$@"
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
                  for (i = 1; i <= n; ++i) s = s * 60 + t[i]; print s }' "$out.time" >"$out.wall"
    awk -F': ' '/Maximum resident set size/ { print $2 }' "$out.time" >"$out.rss"
    awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { print s }' "$out.time" >"$out.cpu"
  else
    local start end pid hwm=0 v ticks=0 t
    start=$(date +%s.%N)
    "$@" & pid=$!
    while kill -0 "$pid" 2>/dev/null; do
      v=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
      [[ -n $v && $v -gt $hwm ]] && hwm=$v
      t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true)
      [[ -n $t ]] && ticks=$t
      sleep 0.05
    done
    wait "$pid"
    end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.2f\n", $2 - $1 }' >"$out.wall"
    echo "$hwm" >"$out.rss"
    echo "$ticks $(getconf CLK_TCK)" | awk '{ printf "%.2f\n", $1 / $2 }' >"$out.cpu"
  fi
}

alarm=$data/samples/alarm-5000.csv
book=$data/density/book/train.csv
hailfinder=$data/samples/hailfinder-5000.csv
andes=$data/samples/andes-5000.csv
ad=$data/density/ad/train.csv
uci=$data/uci
# label | threads | arguments after `bnsl score`
runs=(
  "hailfinder-5000, K=3 (fixed work: 1 -> 2 thread speed-up)|1|--max-parents 3 $hailfinder"
  "hailfinder-5000, K=3 (fixed work: 1 -> 2 thread speed-up)|2|--max-parents 3 $hailfinder"
  "alarm-5000, K=3|1|--max-parents 3 $alarm"
  "alarm-5000, K=3|2|--max-parents 3 $alarm"
  "alarm-5000, K=3, --time 2|1|--max-parents 3 --time 2 $alarm"
  "alarm-5000, K=3, --time 2|2|--max-parents 3 --time 2 $alarm"
  "book (train), K=3, --time 120|1|--max-parents 3 --time 120 --no-header $book"
  "book (train), K=3, --time 120|2|--max-parents 3 --time 120 --no-header $book"
  "andes-5000, --time 30 (throughput: sets scored in the same time)|1|--time 30 $andes"
  "andes-5000, --time 30 (throughput: sets scored in the same time)|2|--time 30 $andes"
  "book (train), --time 30 (throughput: sets scored in the same time)|1|--time 30 --no-header $book"
  "book (train), --time 30 (throughput: sets scored in the same time)|2|--time 30 --no-header $book"
  "ad (train), --time 30 (throughput: sets scored in the same time)|1|--time 30 --no-header $ad"
  "ad (train), --time 30 (throughput: sets scored in the same time)|2|--time 30 --no-header $ad"
  "andes-5000, 60 thread-seconds (the same time per variable)|1|--time 60 $andes"
  "andes-5000, 60 thread-seconds (the same time per variable)|2|--time 30 $andes"
  "book (train), 60 thread-seconds (the same time per variable)|1|--time 60 --no-header $book"
  "book (train), 60 thread-seconds (the same time per variable)|2|--time 30 --no-header $book"
  "ad (train), 60 thread-seconds (the same time per variable)|1|--time 60 --no-header $ad"
  "ad (train), 60 thread-seconds (the same time per variable)|2|--time 30 --no-header $ad"
  "ad (train), --time 1556 (scale: one second per variable, 26 min)|2|--time 1556 --no-header $ad"
  "uci/letter, BIC BF 20, exhaustive|1|--time-per-var 1e9 --no-header $uci/letter.csv"
  "uci/msnbc, BIC BF 20, exhaustive|1|--time-per-var 1e9 --no-header $uci/msnbc.csv"
  "uci/adult, BIC BF 20, exhaustive|1|--time-per-var 1e9 --no-header $uci/adult.csv"
  "uci/nltcs, BDeu BF 20, exhaustive|1|--time-per-var 1e9 --score bdeu --no-header $uci/nltcs.csv"
)

echo "| run | explore | threads | wall s | explore s | CPU s | peak RSS MiB | sets scored | sets/CPU-s | cache entries | out of time | rule1 | rule2 | rule3 |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
i=0
for spec in "${runs[@]}"; do
  IFS='|' read -r label threads args <<<"$spec"
  [[ -n $filter && $label != *"$filter"* ]] && continue
  i=$((i + 1))
  p=$work/run$i
  # shellcheck disable=SC2086  # args is a word list
  run_timed "$p" "$bnsl" score $args --explore "$explore" --threads "$threads" --quiet -o "$p.jkl" --stats "$p.json" \
    2>"$p.err" || { cat "$p.err" >&2; die "run failed: $label"; }
  python3 - "$p.json" "$(cat "$p.wall")" "$(cat "$p.rss")" "$label" "$threads" "$explore" "$(cat "$p.cpu")" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
wall, rss, label, threads = float(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
cpu = float(sys.argv[7])
rate = s["sets_scored"] / cpu if cpu > 0 else 0
pr = s["pruned"]
print(f"| {label} | {sys.argv[6]} | {threads} | {wall:.2f} | {s['seconds']:.2f} | {cpu:.2f} | {rss / 1024:.1f} | "
      f"{s['sets_scored']:,} | {rate:,.0f} | {s['cache_entries']:,} | {s['vars_out_of_time']} | "
      f"{pr['rule1']:,} | {pr['rule2']:,} | {pr['rule3']:,} |")
EOF
done
