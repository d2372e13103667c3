#!/usr/bin/env bash
# Resource guards (issue 24): data too large for the memory available stop with exit 1 and a
# message naming the file, what it needs and what is available, before the allocation (no OOM
# kill, no crash); an allocation that fails anyway ends with exit 1 and a message; the caps
# that cut a run (--explore-memory, the pool's capacity) say so in the summary.
#
# The memory available is bounded here with `ulimit -v` (the address space), which bnsl reads
# with MemAvailable and its cgroup's limit (src/util/memory.hpp). The large inputs cost no
# disk: a sparse file, and a header of many columns over many empty lines (rows are counted by
# line breaks before any row is parsed).
#
# Usage: bash resources.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"

WINE=$DATA/wine.csv
ALARM=$DATA/alarm-5000.csv
LIMIT_KB=3000000 # ulimit -v: about 2.9 GiB of address space

# AddressSanitizer reserves terabytes of address space: under `ulimit -v` such a build cannot
# start, so sections 1 to 3 run only on a build without it.
if ldd "$BNSL" 2>/dev/null | grep -q libasan; then
  sanitized=1
else
  sanitized=0
fi

# limited WHAT ARGS...: bnsl ARGS under the limit; sets `status`, stderr in WORK/err.txt.
limited() {
  local what=$1
  shift
  (
    ulimit -v $LIMIT_KB
    exec "$BNSL" "$@"
  ) >"$WORK/out.txt" 2>"$WORK/err.txt"
  status=$?
  ((status < 128)) || fail "$what: ended by signal $((status - 128))"
}

if ((sanitized)); then
  echo "skipped (AddressSanitizer build): sections 1 to 3, which run under ulimit -v"
else
# 1. A file larger than the memory available: refused before it is read, by every command that
# reads a CSV.
truncate -s 8G "$WORK/huge.csv"
for cmd in learn score exact; do
  out=$WORK/h
  [[ $cmd == score ]] && out=$WORK/h.jkl
  limited "$cmd huge.csv" "$cmd" "$WORK/huge.csv" -o "$out" --time 30
  [[ $status -eq 1 ]] || fail "$cmd huge.csv: exit $status, expected 1"
  grep -qE "reading .*huge\.csv \(8\.0 GiB\) needs about 8\.0 GiB, and only .* is available \((ulimit -v|MemAvailable|cgroup)\)" \
    "$WORK/err.txt" || fail "$cmd huge.csv: message"
done
[[ ! -e $WORK/h.pool.json && ! -e $WORK/h.jkl ]] || fail "huge.csv: an output was written"
pass "a file larger than the memory available: exit 1 naming it and the memory, nothing written"

# 2. Values that would not fit once coded (20,000 columns over 100,000 lines: 2e9 values, 3.7
# GiB at two bytes each), though the text is small.
python3 - "$WORK/wide.csv" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write(",".join(f"c{i}" for i in range(20000)) + "\n")
    f.write("\n" * 100000)
    f.write(",".join("0" for _ in range(20000)) + "\n")
EOF
limited "learn wide.csv" learn "$WORK/wide.csv" -o "$WORK/w" --time 30
[[ $status -eq 1 ]] || fail "learn wide.csv: exit $status, expected 1"
grep -qE "reading .*wide\.csv \(100001 rows of 20000 columns\) needs about 3\.7 GiB" \
  "$WORK/err.txt" || fail "learn wide.csv: message"
pass "values that would not fit once coded: exit 1 naming rows, columns and the memory"

# 3. Far too little address space for the run (where it fails depends on the machine's
# libraries: the data, an allocation, the search's threads): exit 1 and a message, never a
# crash; at ample limits it runs.
failed=0
for LIMIT_KB in 30000 40000 50000 60000 400000; do
  limited "learn under ulimit -v $LIMIT_KB" learn "$ALARM" -o "$WORK/a" --time 2 --threads 2 -q
  if [[ $status -ne 0 ]]; then
    [[ $status -eq 1 ]] || fail "learn under ulimit -v $LIMIT_KB: exit $status, expected 0 or 1"
    grep -qE "^bnsl: error: " "$WORK/err.txt" || fail "learn under ulimit -v $LIMIT_KB: no message"
    failed=$((failed + 1))
  fi
done
((failed > 0)) || fail "no limit was small enough to make learn fail"
pass "a run short of memory: exit 1 with a message ($failed of 5 limits), never a crash"
fi

# 4. The caps that cut a run say so: --explore-memory (variables cut) and a full pool.
"$BNSL" learn "$ALARM" -o "$WORK/m" --time 4 --explore-memory 1 --threads 2 \
  >/dev/null 2>"$WORK/err.txt" || fail "learn --explore-memory 1: exit $?"
grep -qE "out of memory in [1-9][0-9]* variables \(--explore-memory: 1\.0 MiB per variable\)" \
  "$WORK/err.txt" || fail "learn --explore-memory 1: the cut is not reported"
"$BNSL" learn "$WINE" --no-header -o "$WORK/p" --time 3 --pool-max 3 --bayes-factor 1000 \
  --exact-max-vars 0 >/dev/null 2>"$WORK/err.txt" || fail "learn --pool-max 3: exit $?"
grep -qE "3 classes kept$" "$WORK/err.txt" &&
  grep -qE "the pool was full at 3 classes \(--pool-max, --pool-max-cells\)" "$WORK/err.txt" ||
  fail "learn --pool-max 3: the full pool is not reported"
pass "--explore-memory and a full pool say what they cut"

echo "$passed passed, 0 failed"
