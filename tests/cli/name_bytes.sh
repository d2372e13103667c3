#!/usr/bin/env bash
# Column names whose bytes are not UTF-8 (issue 61, finding 7: a Latin-1 header, which the
# pool file wrote as U+FFFD, after which `bnsl check` on the same CSV refused it) are kept byte
# for byte. The pool file is UTF-8 (Python's json module, an independent parser, reads it with
# strict decoding) and gives such names back through "variable_bytes"; `check` on the same CSV
# accepts it; every network file, read back by bnsl (`sample`'s CSV header, `eval` matching
# names), and the tables name the columns as the CSV's header does.
#
# Usage: bash name_bytes.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1

# "caf\xe9" and "na\xefve" are Latin-1 (not UTF-8); "ok\xc3\xa9" is UTF-8 ("oké").
header=$'caf\xe9,na\xefve,ok\xc3\xa9,plain'
{
  printf '%s\n' "$header"
  tail -n +2 "$DATA/alarm-5000.csv" | cut -d, -f1-4 | head -1000
} >latin1.csv
formats=xmlbif,net,uai,dot,graphml,modelstring,adjacency
timeout 60 "$BNSL" learn latin1.csv -o x --time 2 -q --format "$formats" 2>err.txt ||
  fail "learn on a Latin-1 header: $(head -1 err.txt)"
timeout 60 "$BNSL" check latin1.csv x.pool.json >check.txt 2>err.txt ||
  fail "check on the same CSV refused the pool: $(head -1 err.txt)"
pass "learn, then check on the same CSV: the pool is accepted"

python3 - "$header" <<'PY' || fail "the pool's names (above)"
import json, sys
import pool_file

header = sys.argv[1].encode("utf-8", "surrogateescape").split(b",")
raw = open("x.pool.json", "rb").read()
p = json.loads(raw.decode("utf-8"))  # strict: a byte that is not UTF-8 raises
written = p["variables"]
assert written == ["caf\ufffd", "na\ufffdve", "ok\u00e9", "plain"], written
assert p["variable_bytes"] == {"caf\ufffd": "636166e9", "na\ufffdve": "6e61ef7665"}, p
names = [bytes.fromhex(p["variable_bytes"][w]) if w in p["variable_bytes"] else w.encode()
         for w in written]
assert names == header, (names, header)
# Every other mention is by the written name.
for e in p["edges"]:
    assert e["from"] in written and e["to"] in written, e
assert [n.encode("utf-8", "surrogateescape") for n in pool_file.load("x.pool.json")["variables"]] \
    == header
PY
pass "the pool is UTF-8 (Python's json), and its names are the header's bytes"

# The networks: those with parameters read back by `sample`, whose CSV header names the
# variables as read; the others by `eval`, which matches them with the BIF's names by name.
for net in x.best.bif x.best.xml x.best.net x.best.uai; do
  timeout 30 "$BNSL" sample "$net" -n 3 -o s.csv 2>err.txt || fail "sample $net: $(head -1 err.txt)"
  [[ $(head -1 s.csv) == "$header" ]] || fail "$net read back names '$(head -1 s.csv)'"
done
pass "the BIF, XMLBIF, NET and UAI networks read back with the header's names"
for net in x.best.dot x.best.graphml x.best.modelstring x.best.csv; do
  [[ -e $net ]] || fail "no $net"
  timeout 30 "$BNSL" eval --truth x.best.bif --learned "$net" >eval.txt 2>err.txt ||
    fail "eval --learned $net: $(head -1 err.txt)"
  grep -q "SHD (DAG) *0$" eval.txt || fail "eval --learned $net: $(grep SHD eval.txt)"
done
timeout 30 "$BNSL" eval --truth x.best.bif --learned x.pool.json >eval.txt 2>err.txt ||
  fail "eval --learned x.pool.json: $(head -1 err.txt)"
pass "the DOT, GraphML, model string and adjacency files and the pool match the BIF by name"

# The tables name the columns raw, as the CSV does (RFC 4180 quoting needs none here).
python3 - "$header" <<'PY' || fail "the tables' names (above)"
import sys
header = set(sys.argv[1].encode("utf-8", "surrogateescape").split(b","))
for table in ("x.edges.csv",):
    for line in open(table, "rb").read().splitlines()[1:]:
        fields = line.split(b",")
        assert fields[0] in header and fields[1] in header, (table, line)
PY
pass "the edge table names the columns byte for byte"

echo "$passed passed, 0 failed"
