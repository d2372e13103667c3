#!/usr/bin/env bash
# Runs every shell command of README.md's ```sh blocks, in order, on the bundled data, so that a
# README command that stops working fails CI. The commands run in a scratch copy of the
# repository's tracked files whose build/ is BUILD_DIR, so they write nothing here.
#  - A command is as many lines as bash needs to parse it (a quoted argument may span lines);
#    comment lines are skipped.
#  - scripts/setup.sh, scripts/build.sh and scripts/test.sh are not run (CI installs, builds
#    and tests itself; setup needs root): a command made of them alone is skipped, and where
#    they lead a command (`scripts/setup.sh && scripts/build.sh && build/bnsl learn ...`) the
#    rest of it runs.
#  - Every `--time S` above README_TIME seconds (default 5) runs as --time README_TIME: the
#    check is that each command runs, not what a longer budget finds.
# Usage: scripts/readme_commands.sh [BUILD_DIR]      (default build; needs BUILD_DIR/bnsl)
#        scripts/readme_commands.sh --list            (the commands as they would run)
# Exit status 1 naming the first command that fails (its output is printed), 2 on bad usage.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cap=${README_TIME:-5}
[[ "$cap" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "error: README_TIME=$cap is not a number" >&2; exit 2; }

# The commands of the ```sh blocks, one per NUL-terminated record.
extract() {
  local in_block=0 buffer="" line
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$in_block" = 0 ]; then
      [[ "$line" =~ ^\`\`\`sh[[:space:]]*$ ]] && in_block=1
      continue
    fi
    if [[ "$line" =~ ^\`\`\`[[:space:]]*$ ]]; then
      [ -z "$buffer" ] || { echo "error: README.md: unfinished command: $buffer" >&2; exit 2; }
      in_block=0
      continue
    fi
    if [ -z "$buffer" ] && [[ "$line" =~ ^[[:space:]]*(#.*)?$ ]]; then
      continue
    fi
    buffer+="${buffer:+$'\n'}$line"
    [[ "$line" == *\\ ]] && continue
    if bash -n -c "$buffer" 2>/dev/null; then
      printf '%s\0' "$buffer"
      buffer=""
    fi
  done < "$repo/README.md"
}

# A command as it runs: the setup, build and test steps leading it dropped, --time capped;
# empty when nothing is left to run.
as_run() {
  local run=$1 step='^[[:space:]]*scripts/(setup|build|test)\.sh([[:space:]][^&|;]*)?'
  while [[ "$run" =~ ${step}\&\&[[:space:]]*(.*)$ ]]; do
    run=${BASH_REMATCH[3]}
  done
  [[ "$run" =~ ${step}$ ]] && return 0
  printf '%s' "$run" | perl -pe 's/--time([ =])(\d+(?:\.\d+)?)/"--time$1".($2 > '"$cap"' ? '"$cap"' : $2)/ge'
}

commands=$(mktemp "${TMPDIR:-/tmp}/bnsl-readme-commands.XXXXXX")
trap 'rm -f "$commands"' EXIT
extract > "$commands"
if [ "${1:-}" = --list ]; then
  while IFS= read -r -d '' command; do
    run=$(as_run "$command")
    echo "${run:-(skipped) $command}"
  done < "$commands"
  exit 0
fi

build=${1:-$repo/build}
if [ ! -x "$build/bnsl" ]; then
  echo "error: $build/bnsl not found: build it first (scripts/build.sh $build)" >&2
  exit 2
fi
build=$(cd "$build" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-readme.XXXXXX")
trap 'rm -rf "$scratch" "$commands"' EXIT
(cd "$repo" && git ls-files -z | while IFS= read -r -d '' f; do
  [ -f "$f" ] && printf '%s\0' "$f"
done | xargs -0 cp --parents -t "$scratch")
ln -s "$build" "$scratch/build"

ran=0 skipped=0
while IFS= read -r -d '' command; do
  run=$(as_run "$command")
  if [ -z "$run" ]; then
    echo "-- skipped (CI runs it itself): $command"
    skipped=$((skipped + 1))
    continue
  fi
  echo "-- $run"
  if ! (cd "$scratch" && timeout 300 bash -eo pipefail -c "$run") > "$scratch/.output" 2>&1; then
    cat "$scratch/.output" >&2
    echo "error: README.md command failed: $command" >&2
    exit 1
  fi
  ran=$((ran + 1))
done < "$commands"
[ "$ran" -gt 0 ] || { echo "error: no command found in README.md's sh blocks" >&2; exit 1; }
echo "README.md: $ran commands ran, $skipped skipped"
