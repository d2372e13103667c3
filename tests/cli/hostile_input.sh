#!/usr/bin/env bash
# Inputs a hostile-input probe found breaking (issue 61, findings 1, 2 and 4). Option values (and
# --set's tunables): each must end at once with exit status 2 and one line naming the option and
# the value, never an abort (an InputError thrown in an option's callback escaped main: SIGABRT),
# never a run without a limit (--time nan), never a silent default (--bayes-factor nan) or a
# wrapped seed (-1).
# Each case runs under a timeout: a hang fails it too. An earlier output of the same prefix
# is left as it was. A FIFO as the data file: a SIGTERM ends the wait for a writer (exit 1,
# the file named; it blocked in open() until SIGKILL), so does --time, and a writer that comes
# is read.
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

cmp -s old.best.bif old.bif.before || fail "a refused run changed the earlier old.best.bif"
pass "the earlier outputs are as they were"

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

echo "$passed passed, 0 failed"
