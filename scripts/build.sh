#!/usr/bin/env bash
# Configures and builds bnsl. Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
# Default: build/ in Release with tests and benchmarks.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
