#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, one per input format and one for the command line) with
# clang, AddressSanitizer and UndefinedBehaviorSanitizer, and runs each for SECONDS.
#
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR]      # default 20 s per target, build-fuzz
#   TARGETS="csv jkl" scripts/fuzz.sh 3600     # some targets only
#
# Each target starts from tests/fuzz/TARGET (committed seeds, the hostile inputs of issue 61
# and past findings), from tests/fuzz/corpus/TARGET (the minimised corpus of a long run, where
# committed: bench/fuzz_minimise.sh), from seeds made of the repository's small files
# (fuzz/seeds.sh, into BUILD_DIR/seeds/TARGET) and from its own corpus in
# BUILD_DIR/corpus/TARGET, which grows from run to run. The command-line target also takes a dictionary of every command and option
# name, printed from the options' definitions (fuzz/cli_dict.cpp, BUILD_DIR/cli.dict), so that
# it reaches option values without guessing names byte by byte. A crash, a sanitizer report,
# an exception other than bnsl's InputError, a leak, a hang (-timeout) or an input that needs
# more than 2 GiB stops the target: its input is saved as BUILD_DIR/findings/TARGET-*, the
# script goes on with the others and exits 1 at the end. A finding becomes a regression input:
# copy it into tests/fuzz/TARGET/ (the tests replay every file there, fuzz.replay.TARGET).
# Installs clang, libfuzzer-14-dev and libomp-dev (OpenMP for clang) from Debian if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
build=${2:-build-fuzz}
targets=${TARGETS:-csv jkl bif check learned cli arcs networks}
BNSL_FUZZ=1 scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBNSL_FUZZ=ON \
  -DBNSL_WITH_MPI=OFF -DBNSL_WITH_CBC=OFF -DBNSL_PYTHON=OFF -DBNSL_BUILD_TESTS=OFF \
  -DBNSL_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target $(printf 'fuzz_%s ' $targets) cli_dict bnsl
mkdir -p "$build/findings"
bash fuzz/seeds.sh "$build/seeds" "$build/bnsl"
"$build/fuzz/cli_dict" >"$build/cli.dict"
failed=()
for t in $targets; do
  mkdir -p "$build/corpus/$t"
  echo "== fuzz_$t: $seconds s"
  dict=()
  [ "$t" != cli ] || dict=(-dict="$build/cli.dict")
  committed=()  # the minimised corpus of a long run, where committed (bench/fuzz.sh)
  [ ! -d "tests/fuzz/corpus/$t" ] || committed=("tests/fuzz/corpus/$t")
  set +e
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/findings/$t-" "${dict[@]}" \
      "$build/corpus/$t" "tests/fuzz/$t" "${committed[@]}" "$build/seeds/$t" 2>"$build/fuzz_$t.log"
  status=$?
  set -e
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|Done [0-9]+ runs|INITED|DONE" \
    "$build/fuzz_$t.log" || true
  if [ $status -ne 0 ]; then
    failed+=("$t")
    grep -E "ERROR|SUMMARY|terminate|what\(\)" "$build/fuzz_$t.log" | head -5 || true
    echo "fuzz_$t: finding saved in $build/findings/ (log: $build/fuzz_$t.log)"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}"
  exit 1
fi
echo "fuzz: no finding in $targets ($seconds s each)"
