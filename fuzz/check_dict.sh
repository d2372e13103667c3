#!/usr/bin/env bash
# Checks the command-line fuzz target's dictionary (cli_dict) against the help: every command
# `bnsl --help` lists and every option name `bnsl COMMAND --help-all` shows must be an entry.
#
#   bash fuzz/check_dict.sh build/fuzz/cli_dict build/bnsl
set -euo pipefail
dict=$("$1")
bnsl=$2
missing=0
has() {
  if ! grep -qxF "\"$1\"" <<<"$dict"; then
    echo "check_dict: '$1' ($2) is not in the dictionary" >&2
    missing=$((missing + 1))
  fi
}
# The commands: the first word of each line of --help's command list.
commands=$("$bnsl" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [a-z]/ {print $1}')
[[ -n $commands ]] || { echo "check_dict: no command in bnsl --help" >&2; exit 1; }
for command in $commands; do
  has "$command" "a command"
  # Option lines: "  -o,--output PREFIX ...", "  --time SECONDS ...".
  for name in $("$bnsl" "$command" --help-all | grep -oE '^  -[-a-zA-Z0-9,]+' | tr ',' ' '); do
    has "$name" "$command"
  done
done
[[ $missing -eq 0 ]] || exit 1
echo "check_dict: $(wc -l <<<"$dict") entries, every command and option of $(wc -w <<<"$commands") commands"
