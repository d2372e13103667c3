#!/usr/bin/env bash
# Wide data with few rows (3,000 columns x 5 rows and 20,000 x 2, made here): `bnsl learn --time 1` ends
# (a generous guard of 60 s, not a timing check: bench/deadline_wide.sh measures the time) with
# exit 0 and a pool that `bnsl check` accepts against the same CSV. The best class of such
# data has large undirected blocks whose orientations the final report samples; their count
# of draws is stated in the pool's `orientations`.
#
# Usage: bash wide_deadline.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"

# wide_csv PATH COLUMNS ROWS SEED: random letters a-c, a header v0, v1, ...
wide_csv() {
  python3 - "$@" <<'PY'
import random, sys
path, cols, rows, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
random.seed(seed)
with open(path, "w") as f:
    f.write(",".join(f"v{i}" for i in range(cols)) + "\n")
    for _ in range(rows):
        f.write(",".join(random.choice("abc") for _ in range(cols)) + "\n")
PY
}

wide_csv "$WORK/wide.csv" 3000 5 1

timeout 60 "$BNSL" learn "$WORK/wide.csv" -o "$WORK/w" --time 1 --threads 1 --quiet \
  2>"$WORK/err.txt" || fail "learn --time 1 on 3000 x 5: exit $? (124: still running at 60 s)"
pass "learn --time 1 on 3000 columns x 5 rows ends with exit 0"

"$BNSL" check "$WORK/wide.csv" "$WORK/w.pool.json" >"$WORK/check.txt" \
  2>"$WORK/err.txt" || fail "check of the wide pool: exit $?"
pass "check accepts the wide pool"

python3 - "$WORK/w.pool.json" <<'PY' || fail "the pool's orientations are not consistent"
import pool_file, sys
d = pool_file.load(sys.argv[1])
o = d.get("orientations") or {}
sampled, samples = o.get("sampled_components", 0), o.get("samples", 0)
assert (sampled == 0) == (samples == 0), (sampled, samples)
assert samples == 0 or 16 <= samples <= 1000, samples
PY
pass "the pool says how many orientations its sampled components drew"

# 20,000 columns x 2 rows with --time 1: the all-pairs statistics alone take longer than the
# budget on a slow machine, and the exploration once ran unbounded after it (a deadline already
# passed read as none). The guard of 120 s is for that hang, not a timing check.
wide_csv "$WORK/wide2.csv" 20000 2 2
timeout 120 "$BNSL" learn "$WORK/wide2.csv" -o "$WORK/w2" --time 1 --threads 1 --quiet \
  2>"$WORK/err.txt" || fail "learn --time 1 on 20000 x 2: exit $? (124: still running at 120 s)"
"$BNSL" check "$WORK/wide2.csv" "$WORK/w2.pool.json" >"$WORK/check.txt" \
  2>"$WORK/err.txt" || fail "check of the 20000 x 2 pool: exit $?"
pass "learn --time 1 on 20000 columns x 2 rows ends, and check accepts its pool"

echo "$passed passed, 0 failed"
