#!/usr/bin/env bash
# Inputs a hostile-input probe found breaking (issue 61, findings 1, 2 and 4). Option values (and
# --set's tunables): each must end at once with exit status 2 and one line naming the option and
# the value, never an abort (an InputError thrown in an option's callback escaped main: SIGABRT),
# never a run without a limit (--time nan), never a silent default (--bayes-factor nan) or a
# wrapped seed (-1).
# Each case runs under a timeout: a hang fails it too. An earlier output of the same prefix
# is left as it was. A FIFO as the data file: a SIGTERM ends the wait for a writer (exit 1,
# the file named; it blocked in open() until SIGKILL), so does --time, and a writer that comes
# is read. "-" as the data file is standard input (item 2 of the issue: HPC pipelines).
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1
csv=$DATA/alarm-5000.csv

"$BNSL" learn "$csv" -o old --time 2 -q || fail "the first run"
cp old.best.bif old.bif.before

# expect_refused COMMAND OPTION VALUE TEXT: `bnsl COMMAND DATA ... OPTION VALUE` exits 2 within
# 20 s, its stderr names OPTION (or the value) and says TEXT.
expect_refused() {
  local command=$1 option=$2 value=$3 text=$4 args=("$csv" -o old --time 1) status
  [[ $command == score ]] && args=("$csv" -o old.cache.jkl --time 1)
  [[ $command == sample ]] && args=(old.best.bif -n 10 -o old.csv)
  timeout 20 "$BNSL" "$command" "${args[@]}" "$option" "$value" >out.txt 2>err.txt
  status=$?
  [[ $status -ne 124 ]] || fail "$command $option $value: still running after 20 s"
  [[ $status -lt 128 ]] || fail "$command $option $value: killed by signal $((status - 128))"
  [[ $status -eq 2 ]] || fail "$command $option $value: exit status $status, not 2"
  grep -q -- "^bnsl: error: .*$text" err.txt || fail "$command $option $value: $(head -1 err.txt)"
  pass "$command $option $value: exit 2, '$(head -1 err.txt | cut -c1-70)...'"
}

for command in learn score; do
  for value in 0 -3 xyz; do
    expect_refused "$command" --candidates "$value" "got '$value'"
  done
done
expect_refused learn --time nan "'nan' is not a number in \[0, "
expect_refused learn --time inf "'inf' is not a number in \[0, "
expect_refused learn --time 1e400 "'1e400' is not a number"
expect_refused learn --bayes-factor nan "--bayes-factor: 'nan' is not a number in \[1, "
expect_refused learn --epsilon nan "--epsilon: 'nan' is not a number"
expect_refused learn --factor -inf "--factor: '-inf' is not a number"
expect_refused learn --ess 0 "--ess: '0' is not a number in (0, "
expect_refused learn --seed -1 "--seed: '-1' is not a seed"
expect_refused learn --seed 18446744073709551616 "is not a seed"
expect_refused sample --seed -5 "--seed: '-5' is not a seed"
expect_refused learn --set search.stal_share=0.5 "unknown tunable 'search.stal_share'; did you mean 'search.stall_share'"
expect_refused learn --set search.stall_share=2 "--set search.stall_share: '2' is not a number in \[0, 1\]"
expect_refused learn --set search.stall_share=nan "'nan' is not a number in \[0, 1\]"
expect_refused learn --set search.flood_max=2.5 "'2.5' is not a whole number"
expect_refused learn --set search.flood_max "NAME=VALUE expected"
expect_refused score --set explore.draft_singles=x "--set explore.draft_singles: 'x' is not a number"
expect_refused learn --set pool.bands=0 "--set pool.bands: '0' is not a whole number in \[1, 64\]"
expect_refused exact --set exact.start_climbs=0 "--set exact.start_climbs: '0' is not a whole number in \[1, "
expect_refused score --set explore.group_rows_share=1.5 "'1.5' is not a number in \[0, 1\]"

cmp -s old.best.bif old.bif.before || fail "a refused run changed the earlier old.best.bif"
pass "the earlier outputs are as they were"

# A tunable of exact mode reaches it, and the stats say it was set: the K = 100 best DAGs of
# wine from a first epsilon of 0.001 (its best class alone, 48 DAGs) take more than one listing,
# and one when only one is allowed.
for rounds in 1 64; do
  timeout 60 "$BNSL" exact "$DATA/wine.csv" --no-header --k-best 100 -q -o kb --stats kb.json \
    --set exact.k_best_first_epsilon=0.001 --set exact.k_best_rounds=$rounds 2>err.txt ||
    fail "exact --set exact.k_best_rounds=$rounds: exit $?, $(head -1 err.txt)"
  listings=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["exact"]["k_best_rounds"])' kb.json)
  if [[ $rounds == 1 ]]; then
    [[ $listings == 1 ]] || fail "exact.k_best_rounds=1: $listings listings"
    grep -q '"exact.k_best_rounds=1"' kb.json || fail "--stats: the tunable set is not recorded"
  else
    ((listings > 1)) || fail "exact.k_best_first_epsilon=0.001: $listings listing"
  fi
done
pass "--set exact.k_best_rounds=1: one listing (more without it); --stats records it"

# The largest seed is a seed.
timeout 20 "$BNSL" learn "$csv" -o big --time 1 --seed 18446744073709551615 -q 2>err.txt ||
  fail "--seed 2^64 - 1 refused"
pass "--seed 18446744073709551615 runs"

mkfifo fifo.csv
"$BNSL" learn fifo.csv -o fifo --time 3 -q 2>err.txt &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait_stopped "$pid" "learn on a FIFO without a writer"
[[ $stopped_status -eq 1 ]] || fail "learn on a FIFO, SIGTERM: exit status $stopped_status, not 1"
grep -q "^bnsl: error: fifo.csv: stopped by signal 15 while waiting for its data" err.txt ||
  fail "learn on a FIFO, SIGTERM: $(head -1 err.txt)"
pass "a FIFO without a writer: SIGTERM ends the wait, exit 1, the file named"
timeout 20 "$BNSL" learn fifo.csv -o fifo --time 1 -q 2>err.txt
status=$?
[[ $status -eq 1 ]] || fail "learn --time 1 on a FIFO without a writer: exit status $status, not 1"
grep -q "^bnsl: error: fifo.csv: its data did not end within the --time budget, 1 s" err.txt ||
  fail "learn --time 1 on a FIFO: $(head -1 err.txt)"
pass "a FIFO without a writer: --time ends the wait, exit 1"
(sleep 0.3 && cat "$csv" >fifo.csv) &
timeout 30 "$BNSL" learn fifo.csv -o fifo --time 1 -q 2>err.txt || fail "learn on a FIFO with a writer"
[[ -s fifo.best.bif ]] || fail "learn on a FIFO with a writer: no network"
pass "a FIFO whose writer comes is read"
cat "$csv" | timeout 30 "$BNSL" learn /dev/stdin -o piped --time 1 -q 2>err.txt ||
  fail "learn on a pipe (/dev/stdin)"
pass "a pipe as the data file (/dev/stdin) is read"

# "-" is standard input: the same cache as the file itself (score --time 0 --explore seq does
# not depend on timing), its errors named <stdin> with line and column, and an empty input
# refused.
seq=(--explore seq --max-parents 2 --time 0 -q)
timeout 60 "$BNSL" score "$csv" -o file.jkl "${seq[@]}" || fail "score on the file"
timeout 60 "$BNSL" score - -o stdin.jkl "${seq[@]}" <"$csv" 2>err.txt || fail "score - < file"
cmp -s <(grep -v '^#' file.jkl) <(grep -v '^#' stdin.jkl) || fail "score -: another cache"
pass "score - < DATA.csv: the same cache as the file"
cat "$csv" | timeout 30 "$BNSL" learn - -o dash --time 1 -q 2>err.txt || fail "learn on -"
[[ -s dash.best.bif ]] || fail "learn - : no network"
pass "learn - reads a pipe"
printf 'a,b\nx,y\nx\n' | timeout 20 "$BNSL" learn - -o dash_bad --time 1 -q 2>err.txt
status=$?
[[ $status -eq 2 ]] || fail "learn - on a ragged CSV: exit status $status, not 2"
grep -q "^bnsl: error: <stdin>:3:" err.txt || fail "learn - on a ragged CSV: $(head -1 err.txt)"
pass "learn - on a ragged CSV: exit 2, '<stdin>:3:...'"
timeout 20 "$BNSL" learn - -o dash_empty --time 1 -q </dev/null 2>err.txt
status=$?
[[ $status -eq 2 ]] || fail "learn - < /dev/null: exit status $status, not 2"
grep -q "^bnsl: error: <stdin>" err.txt || fail "learn - < /dev/null: $(head -1 err.txt)"
pass "learn - < /dev/null: exit 2, <stdin> named"

# Finding 8: inputs whose messages did not say what was wrong. A byte-order mark and classic
# Mac OS line ends (CR only) are read; a directory, a line break inside quotes and a cache too
# large for exact mode are named as such.
printf '\xef\xbb\xbffrom,to\nHR,CO\n' >bom.csv
timeout 30 "$BNSL" learn "$csv" -o bom --time 1 -q --forbid bom.csv 2>err.txt ||
  fail "a forbid file with a byte-order mark: $(head -1 err.txt)"
pass "a constraint file with a byte-order mark is read"
printf 'a,b\rx,y\rx,z\ry,y\r' >cr.csv
timeout 30 "$BNSL" score cr.csv -o cr.jkl --time 0 -q 2>err.txt || fail "CR-only CSV: $(head -1 err.txt)"
[[ $(grep -vc '^#' cr.jkl) -gt 0 ]] || fail "CR-only CSV: an empty cache"
pass "a CSV with CR-only line ends is read"
mkdir -p adir
expect_file_error() {  # expect_file_error TEXT COMMAND...: exit 2 and TEXT in the message
  local text=$1 status
  shift
  timeout 30 "$BNSL" "$@" >out.txt 2>err.txt
  status=$?
  [[ $status -eq 2 ]] || fail "$*: exit status $status, not 2"
  grep -q -- "^bnsl: error: .*$text" err.txt || fail "$*: $(head -1 err.txt)"
  pass "$*: exit 2, '$(head -1 err.txt | cut -c1-70)...'"
}
expect_file_error "adir: cannot read: is a directory" learn "$csv" -o dir --time 1 -q --forbid adir
expect_file_error "adir: cannot read.*directory" sample adir -n 5 -o s.csv
printf 'a,b\nx,"y\nz"\nx,z\n' >quoted.csv
expect_file_error "quoted.csv:2:3: a quoted field not closed on its line" learn quoted.csv -o q --time 1 -q
{
  echo 70
  for v in $(seq 0 69); do printf '%s 1\n-1.0 0\n' "$v"; done
} >wide.jkl
expect_file_error "exact mode proves optima of at most 64 variables" exact wide.jkl -o w --time 2 -q

# A network with a directed cycle is bad input (exit 2) in every format, named with the line
# and column of a variable on the cycle or below it: a BIF as `sample` and `eval --truth` read
# it (it gave exit 1 without the file), and a model string, a DOT file and an adjacency CSV as
# `convert` and `eval --learned` read them. A directory given as a BIF file is named as one.
cat >cyclic.bif <<'BIF'
network unknown {
}
variable a {
  type discrete [ 2 ] { yes, no };
}
variable b {
  type discrete [ 2 ] { yes, no };
}
probability ( a | b ) {
  (yes) 0.5, 0.5;
  (no) 0.5, 0.5;
}
probability ( b | a ) {
  (yes) 0.5, 0.5;
  (no) 0.5, 0.5;
}
BIF
expect_file_error "cyclic.bif:3:10: the network has a directed cycle through a" \
  sample cyclic.bif -n 5 -o c.csv
expect_file_error "cyclic.bif:3:10: the network has a directed cycle" \
  eval --truth cyclic.bif --learned "$DATA/asia.bif"
printf '[a|c][b|a][c|b][d]\n' >cyclic.modelstring
expect_file_error "cyclic.modelstring:.*: the network has a directed cycle" \
  convert cyclic.modelstring c.bif
printf 'digraph { a -> b; b -> c; c -> a; }\n' >cyclic.dot
expect_file_error "cyclic.dot:1:.*: the network has a directed cycle" convert cyclic.dot c.graphml
printf ',a,b,c\na,0,1,0\nb,0,0,1\nc,1,0,0\n' >cyclic.csv
expect_file_error "cyclic.csv:1:2: the network has a directed cycle" convert cyclic.csv c.dot
expect_file_error "cyclic.dot:1:.*: the network has a directed cycle" \
  eval --truth "$DATA/asia.bif" --learned cyclic.dot
mkdir -p adir.bif
expect_file_error "adir.bif: cannot read the network file: is a directory" sample adir.bif -n 5 -o s.csv
expect_file_error "adir.bif: cannot read the network file: is a directory" \
  eval --truth adir.bif --learned "$DATA/asia.bif"
[[ ! -e c.csv && ! -e c.bif && ! -e c.graphml && ! -e c.dot && ! -e s.csv ]] ||
  fail "a refused network left an output"
pass "no output written for a refused network"

echo "$passed passed, 0 failed"
