#!/usr/bin/env bash
# Builds with AddressSanitizer + UndefinedBehaviorSanitizer and COIN-OR CBC (the ILP), without
# MPI, and runs the tests (all, or those ctest's arguments select). CI runs its sanitizer stage
# without CBC, to test the build without the optional feature in the same run; run this after
# changing the ILP (src/exact), e.g.
#
#   scripts/sanitize.sh                         # every test, build-sanitize
#   scripts/sanitize.sh build-sanitize -R 'ILP|ilp|exact|k-best'
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-sanitize}
shift || true
scripts/setup.sh --all
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBNSL_SANITIZE=ON -DBNSL_WITH_CBC=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DBNSL_WITH_MPI=OFF -DBNSL_PYTHON=OFF \
  -DBNSL_BUILD_TESTS=ON -DBNSL_BUILD_BENCH=OFF -DBNSL_MAN=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "$@"
