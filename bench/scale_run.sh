#!/usr/bin/env bash
# One `bnsl learn` on a generated network of bench/suites/scale.suite, alone on the machine,
# with its anytime curve and statistics: the before/after runs of issue 60.
#
#   bench/scale_run.sh BNSL VARS TIME OUT [learn options...]
#   bench/scale_run.sh build/bnsl 10000 600 out/s60/after
#   bench/scale_run.sh OLD/bnsl 10000 600 out/s60/before --seed 2
#
# Generates out/generated/genVARS.{bif,csv} as the suite does (in-degree <= 4, arities 2-4,
# seed 1, 5,000 rows) when missing, runs learn with 2 threads, and prints the best score, the
# true network's BIC on the data (`bnsl eval --data`), the best at 120 s from the trace, the
# proposal rounds' lines, the wall time, the peak memory and the searches' climbs
# (bench/climbs.py). OUT.trace.txt is the curve (seconds, best); OUT.stats.json the run's --stats.
set -euo pipefail
bnsl=$1 vars=$2 time=$3 out=$4
shift 4
gen=out/generated/gen$vars
mkdir -p out/generated "$(dirname "$out")"
if [ ! -f "$gen.csv" ]; then
  "$bnsl" generate --vars "$vars" --max-parents 4 --arity 2:4 --seed 1 -o "$gen.bif" -q
  "$bnsl" sample "$gen.bif" -n 5000 --seed 1 -o "$gen.csv"
fi
/usr/bin/time -v "$bnsl" learn "$gen.csv" --time "$time" --threads 2 -o "$out" \
  --trace "$out.trace.txt" --stats "$out.stats.json" "$@" 2>"$out.log"
true_bic=$("$bnsl" eval --truth "$gen.bif" --learned "$gen.bif" --data "$gen.csv" --json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["truth"])')
python3 - "$out" "$true_bic" <<'PY'
import re, sys
out, true_bic = sys.argv[1], float(sys.argv[2])
curve = [tuple(map(float, l.split())) for l in open(out + ".trace.txt") if l.strip()]
best = curve[-1][1]
at120 = max((b for t, b in curve if t <= 120), default=float("nan"))
log = open(out + ".log").read().replace("\r", "\n")
print(f"best {best:,.2f}  true {true_bic:,.2f}  vs true {best - true_bic:+,.2f} "
      f"({100 * (best - true_bic) / abs(true_bic):+.3f}%)  best at 120 s {at120:,.2f}")
for line in log.splitlines():
    if line.startswith("bnsl: propose:") or "explore: " in line and "sets scored;" in line:
        print(line)
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", log)
rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", log)
print(f"wall {wall.group(1) if wall else '?'}  peak RSS {int(rss.group(1)) / 1024:,.0f} MiB"
      if rss else "")
PY
python3 "$(dirname "$0")/climbs.py" "$out"
