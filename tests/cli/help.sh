#!/usr/bin/env bash
# The help texts and the stderr summary (cmd/help.*, cmd/summary.*): no line of any --help or
# --help-all over 100 columns; `bnsl help CMD` prints CMD's help; an unknown command is named
# with the nearest one (exit 2); the advanced options only in --help-all; the defaults --help
# shows are the ones a run uses; the summary's counters only with --verbose (and in --stats).
source "$(dirname "$0")/lib/common.bash" "$@"
SCRIPTS=$(realpath "$(dirname "$0")/../../scripts")
cd "$WORK" || exit 1
commands="learn score search exact check sample eval generate merge convert help"

# 1. Every help text within 100 columns (scripts/check_sources.sh BUILD_DIR runs this part too).
bash "$SCRIPTS/check_help_width.sh" "$BNSL" >err.txt 2>&1 ||
  fail "help lines over 100 columns"
pass "every --help and --help-all within 100 columns"

# 2. bnsl help [CMD] is bnsl [CMD] --help.
"$BNSL" help >a.txt && "$BNSL" --help >b.txt && cmp -s a.txt b.txt || fail "bnsl help"
for c in $commands; do
  "$BNSL" help "$c" >a.txt && "$BNSL" "$c" --help >b.txt || fail "bnsl help $c: exit $?"
  cmp -s a.txt b.txt || fail "bnsl help $c differs from bnsl $c --help"
done
pass "bnsl help CMD prints bnsl CMD --help"

# 3. An unknown command: exit 2, the nearest named.
for typo in lear serach exat; do
  "$BNSL" "$typo" data.csv >/dev/null 2>err.txt
  [[ $? -eq 2 ]] || fail "bnsl $typo: exit status not 2"
done
"$BNSL" lear 2>err.txt
grep -q "unknown command 'lear'; did you mean 'learn'?" err.txt || fail "bnsl lear: $(cat err.txt)"
"$BNSL" help serach >/dev/null 2>err.txt
[[ $? -eq 2 ]] && grep -q "did you mean 'search'?" err.txt || fail "bnsl help serach"
pass "an unknown command gets exit 2 and the nearest command's name"

# 4. Groups, the common options first, the advanced ones in --help-all only.
"$BNSL" learn --help >learn.txt
"$BNSL" learn --help-all >all.txt
for g in "Budget and threads" Input Score Search Pool Outputs Knowledge; do
  grep -q "^$g:$" learn.txt || fail "learn --help lacks the group '$g'"
done
line() { grep -n -- "$1" "$2" | head -1 | cut -d: -f1; }
(($(line "--time SECONDS" learn.txt) < $(line "--score NAME" learn.txt))) ||
  fail "--time is not before --score"
! grep -q -- "--explore-share" learn.txt && grep -q "^Advanced:$" all.txt &&
  grep -q -- "--explore-share" all.txt || fail "--explore-share: in --help, or not in --help-all"
pass "learn --help: groups, --time first, the advanced group in --help-all only"

# 5. The defaults shown: learn's budget is 60 s; score's --time has none (its default is per
# variable); no CLI11 range noise.
grep -q -- "--time SECONDS .*\[default: 60\]" <(tr -s ' \n' ' ' <learn.txt) ||
  fail "learn --time: default 60 not shown"
"$BNSL" score --help >score.txt
awk '/--time SECONDS/ { p = 1 } /--threads/ { p = 0 } p' score.txt | grep -q "default: 0" &&
  fail "score --time shows a default of 0"
grep -q "FLOAT:\|INT in \[" learn.txt score.txt && fail "CLI11's type noise in --help"
pass "the defaults shown are the runs' defaults"

# 6. The summary: short by default, the counters with --verbose, all of them in --stats.
"$BNSL" learn "$DATA/wine.csv" --no-header -o w --time 2 --threads 1 --stats s.json 2>err.txt ||
  fail "learn: exit $?"
grep -q "^bnsl: explore: .* sets scored; cache" err.txt && grep -q "^bnsl: search: .*, best" err.txt ||
  fail "learn: no short block per phase"
grep -q "orders evaluated\|rule 1 (subset)" err.txt && fail "learn: counters without --verbose"
grep -q '"pruned_rule1"\|"rule1"' s.json && grep -q '"orders"' s.json || fail "--stats lacks counters"
"$BNSL" learn "$DATA/wine.csv" --no-header -o w --time 2 --threads 1 --verbose 2>err.txt ||
  fail "learn --verbose: exit $?"
grep -q "rule 1 (subset)" err.txt && grep -q "orders evaluated" err.txt ||
  fail "learn --verbose: no counters"
pass "stderr: one short block per phase; the counters with --verbose and in --stats"

echo "$passed passed, 0 failed"
