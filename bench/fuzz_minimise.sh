#!/usr/bin/env bash
# The corpus a long fuzzing run grew (bench/fuzz.sh), minimised for the repository: its inputs
# of at most MAX_BYTES (default 4,096) with the committed seeds and the seeds of fuzz/seeds.sh,
# merged by libFuzzer (-merge=1: the fewest, smallest inputs that keep every feature), less the
# committed seeds themselves, into tests/fuzz/corpus/TARGET, which the tests replay
# (fuzz.replay.TARGET) and every later fuzzing run starts from.
#
#   bench/fuzz_minimise.sh TARGET [BUILD_DIR]        # after bench/fuzz.sh 3600, same BUILD_DIR
#   MAX_BYTES=8192 bench/fuzz_minimise.sh jkl
#
# Prints the coverage of the merged set; compare it with the whole corpus's (the merge's log,
# BUILD_DIR/merge_TARGET.log) to see what the size limit costs.
set -euo pipefail
cd "$(dirname "$0")/.."
t=$1 build=${2:-build-fuzz} max=${MAX_BYTES:-4096}
small=$(mktemp -d) merged=$(mktemp -d)
trap 'rm -rf "$small" "$merged"' EXIT
# Each input is copied under its SHA-1: the directories share names (a seed `asia` in two of
# them), and a name copied twice would keep one input and lose the other.
collect() {
  local f
  while IFS= read -r -d '' f; do cp "$f" "$small/$(sha1sum <"$f" | cut -d' ' -f1)"; done
}
find "$build/corpus/$t" "tests/fuzz/$t" "$build/seeds/$t" -type f -size -$((max + 1))c -print0 |
  collect
[ ! -d "tests/fuzz/corpus/$t" ] || find "tests/fuzz/corpus/$t" -type f -print0 | collect
"$build/fuzz/fuzz_$t" -merge=1 -timeout=60 -rss_limit_mb=2048 "$merged" "$small" \
  >"$build/merge_$t.log" 2>&1
for f in "tests/fuzz/$t"/*; do rm -f "$merged/$(sha1sum "$f" | cut -d' ' -f1)"; done
rm -rf "tests/fuzz/corpus/$t"
mkdir -p "tests/fuzz/corpus/$t"
cp "$merged"/* "tests/fuzz/corpus/$t/"
echo "$t: $(ls "tests/fuzz/corpus/$t" | wc -l) inputs, $(cat "tests/fuzz/corpus/$t"/* | wc -c) bytes"
grep MERGE-OUTER "$build/merge_$t.log" | tail -1
