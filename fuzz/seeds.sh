#!/usr/bin/env bash
# Seeds for every fuzz target made from the repository's own small files, so that each fuzzer
# starts from inputs that read whole (its mutations then reach past the first check) and the
# seeds follow the files as they change: the bundled data and networks (datasets/), the
# format tests' files (tests/formats/), the command lines of README.md and docs/usage.md, and,
# with a bnsl binary, what it makes of them (the networks in every format, a learned pool, a
# score cache). Each target's committed inputs (tests/fuzz/TARGET: past findings and the
# hostile-input cases of issue 61) come on top (scripts/fuzz.sh passes both).
#
#   bash fuzz/seeds.sh OUT_DIR [BNSL]      # writes OUT_DIR/TARGET/NAME, replacing OUT_DIR
#
# The first byte of a csv input chooses the reader's options and of a learned input the file
# type, the first line of a networks input names the format (see each fuzz_TARGET.cpp).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=$1
bnsl=${2:-}
rm -rf "$out"
mkdir -p "$out"/{csv,jkl,bif,check,learned,cli,arcs,networks}
data=$repo/datasets

# put FILE PREFIX [INPUT...]: FILE holds PREFIX (printf's escapes) and then the inputs.
put() {
  local file=$1 prefix=$2
  shift 2
  { printf "$prefix"; cat "$@"; } >"$file"
}

# CSV: option byte bit 0 a header, bit 1 missing values as states, bits 2-4 the delimiter
# (, ; tab | space :).
head -200 "$data/alarm-5000.csv" >"$out/alarm.csv"
put "$out/csv/wine" '\x00' "$data/wine.csv"
put "$out/csv/alarm" '\x01' "$out/alarm.csv"
put "$out/csv/alarm-missing" '\x03' <(sed '3s/^[^,]*,/,/; 5s/,[^,]*$/,NA/' "$out/alarm.csv")
put "$out/csv/alarm-semicolon" '\x05' <(tr , ';' <"$out/alarm.csv")
put "$out/csv/wine-tab" '\x08' <(tr , '\t' <"$data/wine.csv")
put "$out/csv/odd" '\x01' "$repo/tests/formats/odd.csv"
rm "$out/alarm.csv"

cp "$data/asia_10000.dat.3.jkl" "$out/jkl/asia"
cp "$data/wine.BIC.3" "$out/jkl/wine"
for f in "$data"/*.bif; do
  cp "$f" "$out/bif/$(basename "$f" .bif)"
  put "$out/learned/$(basename "$f" .bif)-bif" '\x01' "$f"
done
put "$out/networks/odd-dot" 'dot\n' "$repo/tests/formats/odd.dot"

# The command lines of the documentation's ```sh blocks: each argument after `bnsl` a line.
python3 - "$out/cli" "$repo/README.md" "$repo/docs/usage.md" <<'PY'
import re, shlex, sys
out, docs = sys.argv[1], sys.argv[2:]
seen = set()
for doc in docs:
    for block in re.findall(r"^```sh\n(.*?)^```", open(doc, encoding="utf-8").read(), re.M | re.S):
        for line in block.replace("\\\n", " ").splitlines():
            try:
                words = shlex.split(line, comments=True)
            except ValueError:
                continue
            for i, w in enumerate(words):
                if w.endswith("bnsl") and i + 1 < len(words) and words[i + 1][0].isalpha():
                    args = []
                    for a in words[i + 1:]:
                        if a in ("&&", "||", "|", ";", ">", "2>"):
                            break
                        args.append(a)
                    seen.add("\n".join(args))
for k, args in enumerate(sorted(seen)):
    open("%s/doc-%03d" % (out, k), "w").write(args)
PY

[[ -n $bnsl ]] || exit 0
# With bnsl: every bundled network in every other format, a pool and a network learned from
# wine (the data the check and learned targets read against), and wine's score cache.
work=$out/work
mkdir -p "$work"
for f in "$data"/*.bif; do
  name=$(basename "$f" .bif)
  for format in xmlbif:xml net:net uai:uai modelstring:modelstring graphml:graphml \
    dot:dot adjacency:csv; do
    "$bnsl" convert "$f" "$work/$name.${format#*:}" -q
    put "$out/networks/$name-${format%%:*}" "${format%%:*}\\n" "$work/$name.${format#*:}"
  done
done
"$bnsl" learn "$data/wine.csv" --no-header -o "$work/wine" --time 2 -q
cp "$work/wine.pool.json" "$out/check/wine-learned"
cp "$work/wine.best.bif" "$out/bif/wine-learned"
put "$out/learned/wine-pool" '\x00' "$work/wine.pool.json"
put "$out/learned/wine-bif" '\x01' "$work/wine.best.bif"
"$bnsl" score "$data/wine.csv" --no-header -o "$work/wine.jkl" --time 2 --max-parents 2 -q
cp "$work/wine.jkl" "$out/jkl/wine-provenance"
rm -rf "$work"
