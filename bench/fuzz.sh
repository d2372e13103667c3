#!/usr/bin/env bash
# Long fuzzing runs: every fuzz target (fuzz/) for SECONDS each (default one hour), on a
# corpus kept in BUILD_DIR/corpus between runs. CI runs the same for 20 s per target.
#
#   bench/fuzz.sh [SECONDS] [BUILD_DIR]       # e.g. bench/fuzz.sh 3600; TARGETS="csv" ...
#
# Prints, per target, the inputs run and the peak memory; findings are saved as
# BUILD_DIR/findings/TARGET-* (see scripts/fuzz.sh). Report the hours fuzzed with the commit.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/fuzz.sh "${1:-3600}" "${2:-build-fuzz}"
