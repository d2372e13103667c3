#!/usr/bin/env bash
# How long Graphviz takes to draw the pictures a run wrote (issue 58): `dot -Tsvg` (which
# follows a file's own `layout`, sfdp in large consensus graphs) on each DOT file given, alone
# on the machine (`flock -x /work/locks/machine` when that lock exists), stopped after LIMIT
# seconds. Prints one line per file: its nodes and edges, the seconds, and "timeout" when cut.
#
#   bench/render_dot.sh [LIMIT] FILE.dot...     # default LIMIT 300
#   bench/render_dot.sh 300 out/pool-files/*.consensus.dot
set -euo pipefail
limit=300
if [[ ${1:-} =~ ^[0-9]+$ ]]; then limit=$1 && shift; fi
lock=/work/locks/machine
command -v dot >/dev/null || { echo "render_dot.sh: Graphviz (dot) is not installed" >&2; exit 2; }
printf '%-44s %7s %7s %9s\n' file nodes edges seconds
for f in "$@"; do
  nodes=$(grep -cE '^  n[0-9]+ \[label=' "$f" || true)
  edges=$(grep -c -- ' -> ' "$f" || true)
  timed='s=$(date +%s%N); timeout "$1" dot -Tsvg "$2" -o "$2.svg"; c=$?
echo "$(((($(date +%s%N) - s) / 1000000))) $c"'
  if [ -e "$lock" ]; then
    read -r ms status < <(flock -x "$lock" bash -c "$timed" _ "$limit" "$f")
  else
    read -r ms status < <(bash -c "$timed" _ "$limit" "$f")
  fi
  shown=$(echo "scale=2; $ms / 1000" | bc)
  [ "$status" = 124 ] && shown="timeout (${limit} s)"
  printf '%-44s %7s %7s %9s\n' "$f" "$nodes" "$edges" "$shown"
done
