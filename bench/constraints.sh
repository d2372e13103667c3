#!/usr/bin/env bash
# The deadline of `learn` under domain knowledge (issue 23): the andes sample (223 variables,
# 5,000 rows) in three tiers by column order (columns 0-74, 75-149, 150-222: tiers 0, 1, 2, which
# cut across the true network, so many reversible edges have a forbidden direction), learned
# with --time T; prints the wall time, the final report's line and the classes. Then `bnsl check
# --tiers` on the pool (its time too).
#
#   bench/constraints.sh [BNSL] [TIME]     # default build/bnsl, 30 s; reads ../shared
set -euo pipefail
cd "$(dirname "$0")/.."
bnsl=${1:-build/bnsl}
time_s=${2:-30}
data=../shared/datasets/samples/andes-5000.csv
out=out/constraints
mkdir -p "$out"
python3 - "$data" >"$out/andes-tiers.csv" <<'PY'
import sys
names = open(sys.argv[1]).readline().strip().split(",")
print("variable,tier")
for i, n in enumerate(names):
    print(f"{n},{min(2, i // 75)}")
PY
start=$(date +%s%N)
"$bnsl" learn "$data" --tiers "$out/andes-tiers.csv" --time "$time_s" --threads 2 --seed 1 \
  --verbose -o "$out/andes" 2>"$out/andes.stderr"
echo "learn --time $time_s: wall $((($(date +%s%N) - start) / 1000000)) ms"
grep -E "final report|^bnsl: learn: best" "$out/andes.stderr"
start=$(date +%s%N)
"$bnsl" check "$data" "$out/andes.pool.json" --tiers "$out/andes-tiers.csv" | tail -3
echo "check: $((($(date +%s%N) - start) / 1000000)) ms"
