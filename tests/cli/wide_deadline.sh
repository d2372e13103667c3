#!/usr/bin/env bash
# Wide data with few rows (3,000 columns x 5 rows, made here): `bnsl learn --time 1` ends
# (a generous guard of 60 s, not a timing check: bench/deadline_wide.sh measures the time) with
# exit 0 and a pool that `bnsl check` accepts against the same CSV. The best class of such
# data has large undirected blocks whose orientations the final report samples; their count
# of draws is stated in the pool's `orientations`.
#
# Usage: bash wide_deadline.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"

python3 - "$WORK/wide.csv" <<'PY'
import random, sys
random.seed(1)
cols, rows = 3000, 5
with open(sys.argv[1], "w") as f:
    f.write(",".join(f"v{i}" for i in range(cols)) + "\n")
    for _ in range(rows):
        f.write(",".join(random.choice("abc") for _ in range(cols)) + "\n")
PY

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

echo "$passed passed, 0 failed"
