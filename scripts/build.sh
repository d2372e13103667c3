#!/usr/bin/env bash
# Configures and builds the bnsl binary and libbnsl (Release), nothing else unless asked, and
# says where they are. Usage: scripts/build.sh [BUILD_DIR] [extra cmake args...]
# e.g. scripts/build.sh build -DBNSL_BUILD_TESTS=ON -DBNSL_PYTHON=ON (scripts/test.sh does).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build}
shift || true
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
      -DBNSL_BUILD_TESTS=OFF -DBNSL_BUILD_BENCH=OFF -DBNSL_PYTHON=OFF "$@" >/dev/null
cmake --build "$dir" -j"$(nproc)"
echo "bnsl: built $dir/bnsl ($("$dir/bnsl" --version)); cmake --install $dir --prefix DIR installs it"
