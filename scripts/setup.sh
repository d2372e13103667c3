#!/usr/bin/env bash
# Installs bnsl's build dependencies from Debian's package archive (Debian 12).
# Usage: scripts/setup.sh            (needs root or sudo)
set -euo pipefail
pkgs=(build-essential cmake pkg-config
      libxxhash-dev robin-map-dev libcli11-dev catch2 libbenchmark-dev
      nlohmann-json3-dev python3 clang-format)
# Optional features, installed unless BNSL_MINIMAL=1: the ILP (CBC), MPI, and the Python
# package (python/: pybind11, built against Debian's python3 and tested with pytest).
if [ "${BNSL_MINIMAL:-0}" != 1 ]; then
  pkgs+=(coinor-libcbc-dev libopenmpi-dev openmpi-bin)
  pkgs+=(pybind11-dev python3-dev python3-numpy python3-pandas python3-networkx python3-pytest)
  # Graphviz: README's pictures; tests/cli/tables.sh renders the DOT files when it is there.
  pkgs+=(graphviz)
fi
# Fuzzing (scripts/fuzz.sh): clang with libFuzzer, and clang's OpenMP runtime.
if [ "${BNSL_FUZZ:-0}" = 1 ]; then
  pkgs+=(clang libfuzzer-14-dev libomp-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
