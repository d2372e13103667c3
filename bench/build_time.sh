#!/usr/bin/env bash
# The first build's cost (README command 1 compiles the library and bnsl from scratch): a clean
# Release build of the bnsl target, without ccache, as a unity build (the default) and file by
# file, each in a fresh directory under OUT_DIR. Prints wall, user and system seconds.
# Usage: bench/build_time.sh [OUT_DIR]   (default /tmp/bnsl-build-time; run on a quiet machine:
# wall time depends on the load, user + system time much less)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/bnsl-build-time}
echo "bnsl $(git -C "$root" rev-parse --short HEAD), $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"
for unity in ON OFF; do
  rm -rf "$out/unity-$unity"
  cmake -S "$root" -B "$out/unity-$unity" -DCMAKE_BUILD_TYPE=Release -DBNSL_UNITY_BUILD=$unity \
        -DBNSL_BUILD_TESTS=OFF -DBNSL_BUILD_BENCH=OFF -DBNSL_PYTHON=OFF >/dev/null
  /usr/bin/time -f "BNSL_UNITY_BUILD=$unity: wall %e s, user %U s, system %S s" \
    cmake --build "$out/unity-$unity" -j"$(nproc)" --target bnsl >/dev/null
done
