#!/usr/bin/env bash
# Installs every dependency, builds everything (Release: the binary, the tests, the benchmarks,
# the Python package, the man pages) and runs every test (Catch2 unit/property tests,
# command-line tests, fuzz replays, the Python tests and the R package's tests) through ctest.
# Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
"$root/scripts/setup.sh" --all
"$root/scripts/build.sh" "$dir" -DBNSL_BUILD_TESTS=ON -DBNSL_BUILD_BENCH=ON -DBNSL_PYTHON=ON \
  -DBNSL_R=ON
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
