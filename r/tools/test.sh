#!/bin/sh
# ctest's r.testthat: installs the package from a copy of r/ into a temporary library, against
# the build BNSL_CMAKE_BUILD_DIR names, and runs tests/testthat on it (BNSL_BINARY and
# BNSL_DATASETS let the tests compare with the command line on the bundled data).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$here" "$tmp/bnsl"
rm -f "$tmp/bnsl/src/Makevars" "$tmp/bnsl/src/"*.o "$tmp/bnsl/src/"*.so
mkdir "$tmp/lib"
# Its two sources compile side by side.
MAKEFLAGS=-j2 R CMD INSTALL --no-docs --no-html --no-multiarch -l "$tmp/lib" "$tmp/bnsl" \
  >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
R_LIBS="$tmp/lib${R_LIBS:+:$R_LIBS}" Rscript -e \
  "testthat::test_dir('$here/tests/testthat', package = 'bnsl', load_package = 'installed',
                      reporter = 'summary', stop_on_failure = TRUE)"
