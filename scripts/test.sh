#!/usr/bin/env bash
# Installs dependencies, builds (Release) and runs every test (Catch2 unit/property tests
# and command-line tests) through ctest. Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$dir" -DBNSL_BUILD_TESTS=ON
ctest --test-dir "$dir" --output-on-failure -j"$(nproc)"
