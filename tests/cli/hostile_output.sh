#!/usr/bin/env bash
# Outputs under hostile conditions (issue 61, the output side): no output is truncated before
# its replacement is whole. Each case runs under `timeout` and checks the exit status, the
# message, and that the older outputs are intact afterwards, compared byte for byte with a
# copy taken before.
#   1. SIGKILL at 0.5 s of a run of other data at the same prefix: the earlier cache stays as
#      it was, and each other output is the earlier run's or a whole one of the killed run
#      (which writes its first network within milliseconds): a pool that check passes, a BIF
#      of all 37 variables that eval scores, tables whose rows have the header's columns; the
#      killed run's journal is PREFIX.cache.jkl.journal and names its data; --resume continues
#      it and passes over the other run's pool where that one is still there.
#   2. A full disk (a file size limit, SIGXFSZ ignored so that writes fail with EFBIG): the
#      best network is still written, the pool and the journal are not, the earlier pool and
#      cache stay whole (or the pool is replaced by a whole one), exit 1 naming each file not
#      written.
#   3. exact under a memory limit lists what fits and writes it, exit 0, "memory_short" in the
#      pool, advice about the list's width; the pool passes check.
#   4. check refuses a pool whose header contradicts its lists or whose probabilities leave
#      [0, 1], and names what it did not check.
#   5. Bad input: exit 2 before anything is written.
#
# Usage: bash hostile_output.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"
cd "$WORK" || exit 1
wine=$DATA/wine.csv
alarm=$DATA/alarm-5000.csv
cut -d, -f1-4 "$wine" >small.csv # a run of other data, whose outputs must survive

# snapshot PREFIX: copies every PREFIX.* file into before/.
snapshot() {
  rm -rf before && mkdir before && cp -p "$1".* before/
}
# intact FILE...: each FILE is byte for byte its copy in before/.
intact() {
  local f
  for f in "$@"; do
    cmp -s "$f" "before/$f" || fail "$f changed (case: $case)"
  done
}

# 1. Killed at 0.5 s by SIGKILL while a run of other data starts at the same prefix.
case="SIGKILL at 0.5 s"
timeout 60 "$BNSL" learn small.csv --no-header -o run --time 1 --threads 1 -q 2>err.txt ||
  fail "the earlier run"
snapshot run
{ timeout -s KILL 0.5 "$BNSL" learn "$alarm" -o run --time 30 --threads 2 -q 2>err.txt; } \
  2>/dev/null # without the shell's "Killed" line
status=$?
[[ $status -eq 137 ]] || fail "$case: exit $status, expected 137 (killed)"
intact run.cache.jkl
replaced=0 # outputs the killed run replaced with whole ones
for f in run.pool.json run.best.bif run.edges.csv run.classes.csv run.best.dot; do
  cmp -s "$f" "before/$f" && continue
  replaced=$((replaced + 1))
  case $f in
    *.pool.json) "$BNSL" check "$alarm" "$f" >/dev/null 2>&1 || fail "$case: $f not whole" ;;
    *.bif)
      [[ $(grep -c '^variable ' "$f") -eq 37 ]] || fail "$case: $f not whole"
      "$BNSL" eval --learned "$f" --data "$alarm" >/dev/null 2>&1 || fail "$case: $f not whole"
      ;;
    *.csv)
      awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad || NR < 2 }' "$f" ||
        fail "$case: $f not whole"
      ;;
    *.dot) [[ $(tail -n 1 "$f") == "}" ]] || fail "$case: $f not whole" ;;
  esac
done
if [[ -e run.cache.jkl.journal ]]; then # the killed run's, naming its data
  grep -q '^# bnsl rows 5000$' run.cache.jkl.journal || fail "$case: the journal's header"
fi
timeout 60 "$BNSL" learn "$alarm" --resume run --time 3 --threads 2 2>err.txt ||
  fail "$case: --resume after the kill"
if cmp -s run.pool.json before/run.pool.json; then
  grep -q "run.pool.json is another run's" err.txt || fail "$case: --resume took the other pool"
fi
[[ ! -e run.cache.jkl.journal ]] || fail "$case: the whole journal was not renamed"
grep -q '^# bnsl rows 5000$' run.cache.jkl || fail "$case: the resumed run's cache"
timeout 60 "$BNSL" check "$alarm" run.pool.json >out.txt 2>err.txt || fail "$case: check"
pass "$case: the earlier cache intact, $replaced outputs replaced by whole ones," \
  "the journal beside them, --resume completes it"

# 2. A full disk: files above 8 KiB cannot be written (wine's BIF takes 3 KB, its pool 45 KB,
# its journal 25 KB). exact writes once: its pool is the earlier one, its BIF the new one.
case="full disk"
rm -f run.*
timeout 60 "$BNSL" learn small.csv --no-header -o run --time 1 --threads 1 -q 2>err.txt ||
  fail "the earlier run"
snapshot run
# full_disk ARGS...: bnsl ARGS with files limited to 8 KiB, SIGXFSZ ignored (writes fail with
# EFBIG, as on a full disk); wants exit 1.
full_disk() {
  (
    trap '' XFSZ
    ulimit -f 8
    exec timeout 60 "$BNSL" "$@"
  ) 2>err.txt
  status=$?
  [[ $status -eq 1 ]] || fail "$case: bnsl $1: exit $status, expected 1"
  ! ls run.*.tmp 2>/dev/null || fail "$case: a .tmp file was left"
}
full_disk exact "$wine" --no-header -o run -q
grep -q "run.pool.json" err.txt || fail "$case: the message does not name the pool"
intact run.pool.json run.classes.csv run.cache.jkl
cmp -s run.best.bif before/run.best.bif && fail "$case: the best network was not written"
timeout 60 "$BNSL" convert run.best.bif net.dot 2>err.txt || fail "$case: the BIF is not whole"
[[ $(grep -c '^variable ' run.best.bif) -eq 14 ]] || fail "$case: the BIF is not wine's"
pass "$case: exact wrote the best network, kept the earlier pool whole, exit 1 naming it"
# learn: its checkpoints may replace the pool by a smaller whole one; never a cut one.
full_disk learn "$wine" --no-header -o run --time 2 --threads 1 -q
grep -q "run.cache.jkl.journal" err.txt || fail "$case: the message does not name the journal"
intact run.cache.jkl
cmp -s run.pool.json before/run.pool.json ||
  timeout 60 "$BNSL" check "$wine" --no-header run.pool.json >out.txt 2>err.txt ||
  fail "$case: the pool is neither the earlier one nor a whole one of this run"
pass "$case: learn kept the earlier cache whole beside its journal, exit 1 naming it"

# 3. exact under a memory limit: the list stops where it fits, and is written. (An
# AddressSanitizer build reserves terabytes of address space and cannot start under
# `ulimit -v`, as tests/cli/resources.sh says.) The memory runs out within 2 s; the 30 s budget
# keeps a slow or busy machine from ending the list by its deadline first.
case="exact out of memory"
if ldd "$BNSL" 2>/dev/null | grep -q libasan; then
  echo "skipped (AddressSanitizer build): $case"
else
  (
    ulimit -v 300000
    exec timeout 120 "$BNSL" exact "$wine" --no-header --bayes-factor 1e6 --time 30 -o mem
  ) 2>err.txt
  status=$?
  [[ $status -eq 0 ]] || fail "$case: exit $status, expected 0"
  grep -q -- "--bayes-factor" err.txt || fail "$case: no advice on the list's width"
  grep -q "fewer rows or columns" err.txt && fail "$case: advice about the data's size"
  python3 - <<'EOF' || fail "$case: the pool does not say the list stopped"
import json
p = json.load(open("mem.pool.json"))
assert p["memory_short"] is True and p["complete"] is False and p["optimal"] is True, p
assert p["dags_listed"] > 1000, p["dags_listed"]
EOF
  timeout 120 "$BNSL" check "$wine" --no-header mem.pool.json >out.txt 2>err.txt ||
    fail "$case: check of the pool"
  pass "$case: $(grep -o '"dags_listed": [0-9]*' mem.pool.json), memory_short, check OK"
fi

# 4. check of pools that contradict themselves.
case="check"
timeout 60 "$BNSL" exact "$wine" --no-header -o good -q 2>err.txt || fail "exact wine"
timeout 60 "$BNSL" check "$wine" --no-header good.pool.json >out.txt 2>err.txt ||
  fail "$case: the good pool"
grep -q "^not checked: optimal" out.txt || fail "$case: does not say it skipped 'optimal'"
# tamper FILE FIELD_EDIT: a copy of good.pool.json changed by a line of Python on `p`.
tamper() {
  python3 -c "import json,sys; p=json.load(open('good.pool.json')); $2
json.dump(p, open(sys.argv[1], 'w'))" "$1"
}
tamper emptied.json 'p["classes"] = []'
tamper probs.json 'p["edges"][0]["p"] = 2.0; p["edges"][1]["p_edge"] = -7'
tamper abc.json 'p["dag_count"] = "abc"'
for f in emptied probs abc; do
  timeout 60 "$BNSL" check "$wine" --no-header $f.json >out.txt 2>err.txt
  status=$?
  [[ $status -eq 1 ]] || fail "$case: $f: exit $status, expected 1"
done
grep -q "dag_count \"abc\" is not a count" out.txt || fail "$case: the dag_count message"
pass "$case: emptied classes, p 2.0 and p_edge -7, dag_count \"abc\" refused"

# 5. Bad input: exit 2, and nothing written over the earlier outputs.
case="bad input"
snapshot run
printf 'A,B\n1\n' >bad.csv
timeout 60 "$BNSL" learn bad.csv -o run --time 2 -q 2>err.txt
status=$?
[[ $status -eq 2 ]] || fail "$case: exit $status, expected 2"
intact run.pool.json run.best.bif run.cache.jkl
pass "$case: exit 2, the earlier outputs intact"

echo "$passed passed, 0 failed"
