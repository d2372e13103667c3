#!/usr/bin/env bash
# Flat profile of one phase of a running bnsl: waits until the run's stderr shows the phase,
# then samples the process with perf (software clock, 99 Hz, every thread) for SECONDS and
# prints the hottest functions. Low overhead: use it on a timed benchmark run.
#
#   bench/suite.py bench/suites/scale.suite --only gen10000 &
#   bench/profile_phase.sh out/suite-scale/runs/gen10000-learn-3600s-t2-s1.stderr \
#       'explore: [0-9]' 60 out/perf/gen10000-explore
#   bench/profile_phase.sh out/suite-scale/runs/gen10000-learn-3600s-t2-s1.stderr \
#       'search: [0-9]' 120 out/perf/gen10000-search
#
# Usage: bench/profile_phase.sh STDERR_FILE PATTERN SECONDS OUT_PREFIX
# Writes OUT_PREFIX.data (perf) and OUT_PREFIX.txt (the top 15 symbols).
set -euo pipefail
[ $# -eq 4 ] || { sed -n '2,13p' "$0"; exit 2; }
log=$1 pattern=$2 seconds=$3 out=$4
command -v perf >/dev/null || { echo "perf not found (Debian: linux-perf)" >&2; exit 1; }
until [ -f "$log" ] && grep -q -- "$pattern" "$log"; do sleep 1; done
pid=$(pgrep -n -f "bnsl (learn|search|score|exact)")
mkdir -p "$(dirname "$out")"
perf record -F 99 -p "$pid" -o "$out.data" -- sleep "$seconds" >/dev/null 2>&1
perf report -i "$out.data" --no-children --sort symbol --stdio 2>/dev/null |
  grep -v '^#' | grep -v '^$' | head -15 | sed 's/ *$//' | tee "$out.txt"
