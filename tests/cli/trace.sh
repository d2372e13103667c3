#!/usr/bin/env bash
# `--trace FILE` on `bnsl search` and `bnsl learn`: the file is non-empty, every line is
# "elapsed_seconds best_score", seconds never decrease, scores strictly increase, and the last
# score is the best score of the pool written next to it (PREFIX.pool.json, within the 1e-9
# relative score tolerance). On alarm the curve has at least two points: the identity order's
# network that seeds the search, then the better ones found.
#
# Usage: bash trace.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"

# trace_valid TRACE POOL_JSON MIN_POINTS: the checks above; prints the number of lines.
trace_valid() {
  python3 - "$1" "$2" "$3" <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) >= int(sys.argv[3]), "%d points, expected >= %s" % (len(lines), sys.argv[3])
points = []
for i, line in enumerate(lines, 1):
    f = line.split()
    assert len(f) == 2, "line %d: %r is not 'seconds score'" % (i, line)
    points.append((float(f[0]), float(f[1])))
for (t0, s0), (t1, s1) in zip(points, points[1:]):
    assert t1 >= t0, "seconds decrease: %r then %r" % (t0, t1)
    assert s1 > s0, "score does not increase: %r then %r" % (s0, s1)
assert points[0][0] >= 0
best = json.load(open(sys.argv[2]))["best_score"]
assert abs(points[-1][1] - best) <= 1e-9 * max(1.0, abs(best)), \
    "last traced score %r, pool best %r" % (points[-1][1], best)
print(len(points))
EOF
}

# 1. search on a score cache (8 variables; --exact-max-vars 0: chains, not the exact DP), 2 s.
"$BNSL" search "$DATA/asia_10000.dat.3.jkl" -o "$WORK/s" --time 2 --threads 1 \
  --exact-max-vars 0 --trace "$WORK/s.trace" --quiet 2>"$WORK/err.txt" ||
  fail "search --trace: exit $?"
n=$(trace_valid "$WORK/s.trace" "$WORK/s.pool.json" 1) || fail "search trace invalid"
[[ ! -e $WORK/s.trace.tmp ]] || fail "s.trace.tmp left behind"
pass "search --trace: $n increasing points, last = pool best"

# 2. learn on alarm (37 variables), 4 s, one thread; seconds include exploration.
"$BNSL" learn "$DATA/alarm-5000.csv" -o "$WORK/l" --time 4 --threads 1 \
  --trace "$WORK/l.trace" --quiet 2>"$WORK/err.txt" || fail "learn --trace: exit $?"
n=$(trace_valid "$WORK/l.trace" "$WORK/l.pool.json" 2) || fail "learn trace invalid"
pass "learn --trace: $n increasing points, last = pool best"

# 3. The trace is written at checkpoints too: present while the run is still going.
"$BNSL" learn "$DATA/alarm-5000.csv" -o "$WORK/c" --time 6 --threads 1 --explore-share 0.2 \
  --checkpoint 0.5 --trace "$WORK/c.trace" --quiet 2>"$WORK/err.txt" &
pid=$!
sleep 4
kill -0 "$pid" 2>/dev/null || fail "learn --checkpoint 0.5 ended before 4 s"
[[ -s $WORK/c.trace ]] || { wait "$pid"; fail "no trace file at a checkpoint"; }
wait "$pid" || fail "learn --checkpoint 0.5: exit $?"
trace_valid "$WORK/c.trace" "$WORK/c.pool.json" 1 >/dev/null || fail "checkpointed trace invalid"
pass "trace written at checkpoints while the run goes on"

# 4. Without --trace no trace file appears.
"$BNSL" search "$DATA/asia_10000.dat.3.jkl" -o "$WORK/n" --time 1 --threads 1 --quiet \
  2>"$WORK/err.txt" || fail "search without --trace: exit $?"
[[ $(ls "$WORK" | grep -c 'trace$') -eq 3 ]] || fail "a trace file appeared without --trace"
pass "no trace file without --trace"

echo "$passed passed, 0 failed"
