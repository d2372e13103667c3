#!/usr/bin/env bash
# Runs across processes (bnsl/comm.hpp) with `mpirun --oversubscribe -np 3`, against the same
# commands in one process:
# 1. an exhaustive exploration (`score --time 0`) spread over three processes gathers the same
#    cache, entry for entry, as one process;
# 2. `search` of that cache on three processes (chains, no exact solver) finds the optimum that
#    `bnsl exact` proves on it, and its pool passes `bnsl check`;
# 3. `learn` on three processes writes a pool that passes `bnsl check`;
# 4. SIGTERM to one process mid-search ends the whole job within a few seconds, with outputs
#    that pass `bnsl check`;
# 5. an error (a missing file) ends every process with exit 2, and `exact` under mpirun is
#    refused.
# Skipped (exit 77) when bnsl was built without MPI or mpirun is missing.
#
# Usage: bash mpi.sh PATH_TO_bnsl_BINARY DATASETS_DIR
# Ends with "N passed, 0 failed"; exits non-zero at the first failure.
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

if ! "$BNSL" --version | grep -q MPI || ! command -v mpirun >/dev/null; then
  echo "skipped: bnsl built without MPI, or no mpirun"
  exit 77
fi
# As root (CI machines, containers) Open MPI wants to be told; shared-memory transport without
# the ptrace-based single copy, which containers forbid.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
MPIRUN=(timeout 180 mpirun --oversubscribe -np 3)  # never a hung CI run
CSV=(--no-header "$DATA/wine.csv")

# 1. The gathered cache equals one process's (the provenance header aside).
"$BNSL" score "${CSV[@]}" --time 0 --threads 1 -o one.jkl --quiet 2>err.txt ||
  fail "score in one process"
"${MPIRUN[@]}" "$BNSL" score "${CSV[@]}" --time 0 --threads 1 -o three.jkl 2>err.txt ||
  fail "score on three processes"
grep -q "3 processes" err.txt || fail "score on three processes does not say so"
cmp <(grep -v '^#' one.jkl) <(grep -v '^#' three.jkl) ||
  fail "the cache gathered from three processes differs from one process's"
pass "score: the cache gathered from three processes equals one process's"

# 2. search on three processes reaches the proven optimum; its pool is valid.
"$BNSL" exact one.jkl -o exact --quiet 2>err.txt || fail "exact on the cache"
"${MPIRUN[@]}" "$BNSL" search one.jkl --data "$DATA/wine.csv" --no-header --exact-max-vars 0 \
  --time 6 --threads 1 -o search --quiet --stats stats.json 2>err.txt ||
  fail "search on three processes"
python3 - exact.pool.json search.pool.json stats.json <<'EOF' || fail "search: best is not the optimum"
import json, sys
opt = json.load(open(sys.argv[1]))["best_score"]
got = json.load(open(sys.argv[2]))
best = got["best_score"]
assert abs(best - opt) <= 1e-9 * max(1.0, abs(opt)), (best, opt)
assert got["algorithm"] == "asobs", got["algorithm"]  # the chains, not an exact solver
stats = json.load(open(sys.argv[3]))["search"]
assert stats["peer_classes"] > 0, "rank 0 pooled no class of the others"
EOF
"$BNSL" check "${CSV[@]}" search.pool.json >out.txt 2>err.txt || fail "check of the search pool"
pass "search: three processes reach the proven optimum with a valid pool"

# 3. learn on three processes.
"${MPIRUN[@]}" "$BNSL" learn "${CSV[@]}" --exact-max-vars 0 --time 6 --threads 1 -o learn \
  --quiet 2>err.txt || fail "learn on three processes"
"$BNSL" check "${CSV[@]}" learn.pool.json >out.txt 2>err.txt || fail "check of the learn pool"
pass "learn: three processes write a valid pool"

# 4. SIGTERM to one process (not rank 0) mid-search: every process ends soon, outputs valid.
"${MPIRUN[@]}" "$BNSL" search one.jkl --data "$DATA/wine.csv" --no-header --exact-max-vars 0 \
  --time 120 --threads 1 -o stopped >out.txt 2>err.txt &
job=$!
# Past start-up: every rank has its signal handlers once the search reports its first network
# (MPI's start-up alone took over 5 s in a fresh chroot without /dev/shm).
for _ in $(seq 600); do
  grep -q "search: greedy network" err.txt && break
  sleep 0.1
done
grep -q "search: greedy network" err.txt || fail "the search did not start within 60 s"
sleep 1
ranks=$(pgrep -f "bnsl search one.jkl" | while read -r p; do
  [[ $(ps -o comm= -p "$p") == bnsl ]] && echo "$p"
done)
[[ $(wc -w <<<"$ranks") -eq 3 ]] || fail "expected 3 bnsl processes, found: $ranks"
victim=$(tr ' ' '\n' <<<"$ranks" | sort -n | tail -1)
t0=$SECONDS
kill -TERM "$victim"
waited=0
while kill -0 "$job" 2>/dev/null; do
  sleep 0.1
  waited=$((waited + 1))
  if ((waited > 100)); then
    kill -KILL "$job" $ranks 2>/dev/null
    fail "the job still runs 10 s after SIGTERM to one process"
  fi
done
wait "$job"
echo "  ended $((SECONDS - t0)) s after SIGTERM to process $victim (mpirun exit $?)"
"$BNSL" check "${CSV[@]}" stopped.pool.json >out.txt 2>err.txt ||
  fail "check of the pool written after SIGTERM"
pass "SIGTERM to one process ends the job with a valid pool"

# 5. Errors end every process.
"${MPIRUN[@]}" "$BNSL" learn missing.csv -o x --time 5 >out.txt 2>err.txt
status=$?
[[ $status -eq 2 ]] || fail "a missing file on three processes: exit $status, expected 2"
grep -q "missing.csv" err.txt || fail "a missing file: the message does not name it"
"${MPIRUN[@]}" "$BNSL" exact one.jkl -o x >out.txt 2>err.txt
status=$?
[[ $status -eq 2 ]] || fail "exact under mpirun: exit $status, expected 2"
grep -q "without mpirun" err.txt || fail "exact under mpirun: no explanation"
pass "errors end every process with exit 2 and a message"

echo "$passed passed, 0 failed"
