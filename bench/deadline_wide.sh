#!/usr/bin/env bash
# The deadline on wide data with few rows (issue 61): `bnsl learn --time T --threads 1` on
# 3,000 x 5, 20,000 x 2 and 100,000 x 2 columns x rows of random letters a-c (seed 1, made
# under out/wide/ once), printing the wall time against T. Each run goes through
# /work/locks/exclusive when it exists (a quiet machine), one at a time.
#
# Usage: bench/deadline_wide.sh [BNSL] [TIMES]   (defaults: build/bnsl, "1 5 30")
# Environment: SHAPES (default "3000x5 20000x2 100000x2"), SKIP (e.g. "100000x2:30"),
# EXCLUSIVE (the command each run goes through, default /work/locks/exclusive; empty: none).
set -eu
BNSL=${1:-build/bnsl}
TIMES=${2:-1 5 30}
SHAPES=${SHAPES:-3000x5 20000x2 100000x2}
SKIP=${SKIP:-}
DIR=out/wide
mkdir -p "$DIR"
EXCLUSIVE=${EXCLUSIVE-/work/locks/exclusive}  # empty: run without it
LOCK=()
[[ -n $EXCLUSIVE && -x $EXCLUSIVE ]] && LOCK=("$EXCLUSIVE")

for shape in $SHAPES; do
  csv=$DIR/w$shape.csv
  [[ -s $csv ]] || python3 - "$csv" "${shape%x*}" "${shape#*x}" <<'PY'
import random, sys
random.seed(1)
path, cols, rows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as f:
    f.write(",".join(f"v{i}" for i in range(cols)) + "\n")
    for _ in range(rows):
        f.write(",".join(random.choice("abc") for _ in range(cols)) + "\n")
PY
done

printf '%-10s %4s %8s %6s  %s\n' shape T wall_s exit orientations
for shape in $SHAPES; do
  for t in $TIMES; do
    [[ " $SKIP " == *" $shape:$t "* ]] && continue
    out=$DIR/run-$shape-$t
    rm -f "$out".*
    set +e
    # /usr/bin/time inside the lock: the wait for a quiet machine is not counted.
    "${LOCK[@]}" /usr/bin/time -f %e -o "$out.wall" "$BNSL" learn "$DIR/w$shape.csv" \
      -o "$out" --time "$t" --threads 1 --quiet 2>"$out.log"
    status=$?
    set -e
    wall=$(tail -1 "$out.wall")
    orient=$(python3 -c "
import json, sys
try: print(json.load(open(sys.argv[1])).get('orientations'))
except Exception as e: print('no pool')" "$out.pool.json")
    printf '%-10s %4s %8s %6s  %s\n' "$shape" "$t" "$wall" "$status" "$orient"
  done
done
