#!/usr/bin/env bash
# Do two bnsl binaries read every data set alike? For every CSV under the shared data sets
# (samples/, density/, uci/; gzipped ones decompressed first), runs `bnsl score` with each binary
# on the first variable alone with no parents (so it costs the reading, nothing more) and
# compares the data fingerprint and row count the cache's provenance header records (the
# fingerprint hashes every name, every state in code order and every code: bnsl/dataset.hpp).
# Also lists the warnings the new binary prints (columns of many integers read as categories).
#
#   bench/datasets_load.sh OLD/bnsl NEW/bnsl        # ~2 min
#
# Environment: DATA (data root, default <repo>/../shared/datasets). Prints a markdown table on
# stdout; exits 1 when a data set loads differently (or fails in one binary only).
set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
data=${DATA:-$repo/../shared/datasets}
[[ $# -eq 2 ]] || { sed -n 2,12p "$0" >&2; exit 2; }
old=$1 new=$2
[[ -d $data ]] || { echo "datasets_load.sh: no data sets at $data (set DATA)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-datasets-load.XXXXXX")
trap 'rm -rf "$work"' EXIT

# load BINARY CSV FLAGS...: "fingerprint rows" from the cache header, or "error: MESSAGE".
load() {
  local bin=$1 csv=$2
  shift 2
  rm -f "$work/c.jkl"
  if "$bin" score "$csv" "$@" --vars 0:1 --explore seq --max-parents 0 --time 0 --threads 1 \
    -q -o "$work/c.jkl" 2>"$work/err.txt"; then
    awk '/^# bnsl data /{ d = $4 } /^# bnsl rows /{ r = $4 } END { print d, r }' "$work/c.jkl"
  else
    echo "error: $(head -1 "$work/err.txt")"
  fi
}

echo "| data set | header | rows | fingerprint | same | warnings (new) |"
echo "|---|---|---:|---|---|---|"
differ=0
while IFS= read -r file; do
  csv=$file
  if [[ $file == *.gz ]]; then
    csv=$work/$(basename "${file%.gz}")
    gunzip -c "$file" >"$csv"
  fi
  # A header is a first line with a field that is not a number.
  flags=(--no-header)
  if head -1 "$csv" | tr ',' '\n' | grep -qvE '^-?[0-9.]+$'; then flags=(); fi
  a=$(load "$old" "$csv" "${flags[@]}")
  b=$(load "$new" "$csv" "${flags[@]}")
  "$new" score "$csv" "${flags[@]}" --vars 0:1 --explore seq --max-parents 0 --time 0 \
    --threads 1 -o "$work/c.jkl" 2>"$work/err.txt" >/dev/null
  warnings=$(grep -c "warning:" "$work/err.txt" || true)
  same=yes
  [[ $a == "$b" ]] || { same="NO (old: $a)"; differ=1; }
  read -r fp rows <<<"$b"
  echo "| ${file#"$data"/} | $([[ ${#flags[@]} -eq 0 ]] && echo yes || echo no) | $rows | $fp | $same | $warnings |"
  [[ $file == *.gz ]] && rm -f "$csv"
done < <(find "$data" -name '*.csv' -o -name '*.csv.gz' | sort)
exit $differ
