#!/usr/bin/env bash
# Long fuzzing runs: every fuzz target (fuzz/) for SECONDS each (default one hour, so eight
# hours for the eight targets), on a corpus kept in BUILD_DIR/corpus between runs; each starts
# from tests/fuzz/TARGET and the seeds of fuzz/seeds.sh, the command line with its dictionary
# (scripts/fuzz.sh). CI runs the same for 20 s per target.
#
#   bench/fuzz.sh [SECONDS] [BUILD_DIR]       # e.g. bench/fuzz.sh 3600; TARGETS="csv" ...
#   nice bench/fuzz.sh 3600                   # beside other work: fuzzing measures no time
#
# Prints, per target, the inputs run, the corpus and the peak memory; findings are saved as
# BUILD_DIR/findings/TARGET-* (see scripts/fuzz.sh). Record the seconds per target, the
# commit and the outcome in bench/results/fuzz.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/fuzz.sh "${1:-3600}" "${2:-build-fuzz}"
