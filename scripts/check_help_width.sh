#!/usr/bin/env bash
# Fails (exit 1) if a line of `bnsl --help`, `bnsl --help-all` or any command's --help or
# --help-all is over 100 columns, naming the command and the line.
# Usage: scripts/check_help_width.sh PATH_TO_bnsl_BINARY
set -euo pipefail
bnsl=${1:?usage: scripts/check_help_width.sh PATH_TO_bnsl_BINARY}
status=0
for command in "" $("$bnsl" --help | sed -n '/^Subcommands:$/,$p' | awk '/^  [a-z]/ { print $1 }'); do
  for flag in --help --help-all; do
    if ! "$bnsl" $command $flag | awk -v what="bnsl $command $flag" \
      'length($0) > 100 { print what ": " length($0) " columns: " $0; bad = 1 } END { exit bad }'; then
      status=1
    fi
  done
done
exit "$status"
