#!/usr/bin/env bash
# Installs bnsl's dependencies from Debian's package archive (Debian 12); needs root or sudo.
#   scripts/setup.sh        what the bnsl binary and libbnsl need (README command 1), with
#                           COIN-OR CBC (bnsl exact --method ilp)
#   scripts/setup.sh --all  also what the tests, benchmarks, MPI, the Python and R packages,
#                           pip install, the man pages and the .deb need (scripts/test.sh)
# BNSL_MINIMAL=1 leaves out the optional features (CBC, MPI, Python, R); BNSL_FUZZ=1 adds clang
# with libFuzzer (scripts/fuzz.sh).
set -euo pipefail
all=0
[ "${1:-}" = --all ] && all=1
pkgs=(g++ make cmake pkg-config libxxhash-dev libexpat1-dev robin-map-dev libcli11-dev nlohmann-json3-dev)
minimal=${BNSL_MINIMAL:-0}
# CBC's pkg-config file links zlib and bzip2, which coinor-libcbc-dev does not pull in.
[ "$minimal" = 1 ] || pkgs+=(coinor-libcbc-dev zlib1g-dev libbz2-dev)
if [ "$all" = 1 ]; then
  pkgs+=(build-essential catch2 libbenchmark-dev python3 clang-format help2man file)
  # Graphviz: README's pictures; tests/cli/tables.sh renders the DOT files when it is there.
  pkgs+=(graphviz)
  # R: the README's example reads the tables with it (scripts/readme_commands.sh runs it).
  pkgs+=(r-base-core)
  # The R package (r/, BNSL_R): Rcpp against libbnsl, its tests with testthat.
  [ "$minimal" = 1 ] || pkgs+=(r-base-dev r-cran-rcpp r-cran-testthat)
  if [ "$minimal" != 1 ]; then
    pkgs+=(libopenmpi-dev openmpi-bin procps)  # tests/cli/mpi.sh finds the ranks with pgrep
    pkgs+=(pybind11-dev python3-dev python3-numpy python3-pandas python3-networkx python3-pytest)
    pkgs+=(python3-venv python3-pip python3-setuptools python3-wheel python3-build python3-pybind11)
  fi
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
