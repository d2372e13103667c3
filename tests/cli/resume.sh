#!/usr/bin/env bash
# `bnsl learn --resume`: a run killed by SIGTERM during its exploration, then one killed during
# its search, each resumed. The exploration's journal (PREFIX.cache.jkl.journal, renamed
# PREFIX.cache.jkl once whole) holds the variables that ended before the signal; the resumed run takes exactly those from it and explores only
# the others (its --stats counters: vars_resumed + vars_explored = every variable, none
# explored twice), starts its search from the earlier pool's classes, and writes a pool that
# `bnsl check` accepts; once complete, the journal is an ordinary score cache. A journal of
# other options is refused (exit 2, naming the file).
#
# Usage: bash resume.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1
alarm=$DATA/alarm-5000.csv
n=$(head -1 "$alarm" | awk -F, '{print NF}')

# kill_after SECONDS ARGS...: runs bnsl ARGS, sends SIGTERM after SECONDS, wants exit 143.
kill_after() {
  local after=$1
  shift
  "$BNSL" "$@" >out.txt 2>err.txt &
  local pid=$!
  sleep "$after"
  kill -TERM "$pid"
  wait "$pid"
  local status=$?
  [[ $status -eq 143 ]] || fail "bnsl $*: exit $status after SIGTERM, expected 143"
}

# counters STATS_JSON: prints "vars_resumed vars_explored start_networks".
counters() {
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))
print(s["explore"]["vars_resumed"], s["explore"]["vars_explored"], s["search"]["start_networks"])' "$1"
}

# 1. Killed while exploring: part of the variables are in the journal, and only those.
kill_after 4 learn "$alarm" -o run --time 30 --threads 2 --quiet
[[ ! -e run.cache.jkl ]] || fail "a journal cut by SIGTERM took the cache's name"
done_before=$(grep -c '^# done ' run.cache.jkl.journal)
((done_before > 0 && done_before < n)) ||
  fail "journal after SIGTERM in the exploration: $done_before of $n variables done"
[[ $(grep '^# done ' run.cache.jkl.journal | sort | uniq -d | wc -l) -eq 0 ]] ||
  fail "a variable is in the journal twice"
"$BNSL" learn "$alarm" --resume run --time 10 --threads 2 --quiet --stats s1.json 2>err.txt ||
  fail "learn --resume after a kill in the exploration"
read -r resumed explored started <<<"$(counters s1.json)"
[[ $resumed -eq $done_before ]] || fail "resumed $resumed variables, the journal had $done_before"
[[ $((resumed + explored)) -eq $n ]] ||
  fail "resumed $resumed + explored $explored variables, the data has $n"
[[ $(grep -c '^# done ' run.cache.jkl) -eq $n ]] || fail "the journal is not complete after resume"
[[ ! -e run.cache.jkl.journal ]] || fail "the whole journal was not renamed to the cache"
"$BNSL" check "$alarm" run.pool.json >out.txt 2>err.txt || fail "check of the resumed pool"
"$BNSL" search run.cache.jkl --data "$alarm" --time 2 --threads 1 -o searched --quiet 2>err.txt ||
  fail "search of the completed journal as a score cache"
pass "killed while exploring: $done_before variables resumed, $explored explored, valid pool"

# 2. Killed while searching (exploration share 0.2 of 20 s): every variable is in the journal,
# the resumed run explores none and starts from the earlier pool.
kill_after 8 learn "$alarm" -o run2 --time 20 --explore-share 0.2 --threads 2 --quiet
[[ $(grep -c '^# done ' run2.cache.jkl) -eq $n ]] ||
  fail "journal after SIGTERM in the search: not every variable"
"$BNSL" learn "$alarm" --resume run2 -o run3 --time 5 --threads 2 --quiet --stats s2.json \
  2>err.txt || fail "learn --resume after a kill in the search"
read -r resumed explored started <<<"$(counters s2.json)"
[[ $resumed -eq $n && $explored -eq 0 ]] ||
  fail "after a kill in the search: resumed $resumed, explored $explored (want $n, 0)"
((started > 0)) || fail "the resumed search pooled none of the earlier run's classes"
[[ $(grep -c '^# done ' run3.cache.jkl) -eq $n ]] || fail "run3's new journal lacks variables"
"$BNSL" check "$alarm" run3.pool.json >out.txt 2>err.txt || fail "check of run3's pool"
pass "killed while searching: nothing explored again, $started classes restarted the search"

# 3. A journal of other options is refused.
"$BNSL" learn "$alarm" --resume run2 -o run4 --time 5 --bayes-factor 3 --quiet 2>err.txt
status=$?
[[ $status -eq 2 ]] || fail "--resume with another epsilon: exit $status, expected 2"
grep -q "run2.cache.jkl" err.txt || fail "--resume with another epsilon: the message lacks the file"
pass "a journal of other options is refused"

echo "$passed passed, 0 failed"
