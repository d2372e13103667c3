#!/usr/bin/env bash
# Outputs that cannot be written: an output folder that cannot be created (a parent is a
# file), a folder without write permission (skipped as root, who may write anyway), an output
# path that is a folder, and a full disk (a 64 KiB tmpfs, when the test may mount one: as root,
# outside restricted containers). Each must give exit 1 with a message naming the path and the
# reason, before the run spends its budget where it can know, and leave no partial file
# behind; an output that existed before is replaced only whole (after a failed write it still
# holds its old content). A missing output folder is created (README: `-o out/alarm`).
#
# Usage: bash files.sh PATH_TO_bnsl_BINARY DATASETS_DIR
source "$(dirname "$0")/lib/common.bash" "$@"

WINE=$DATA/wine.csv
ALARM=$DATA/alarm-5000.csv

# expect_failure WHAT PATTERN ARGS...: bnsl ARGS exits 1 and stderr matches PATTERN.
expect_failure() {
  local what=$1 pattern=$2
  shift 2
  "$BNSL" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"
  local status=$?
  [[ $status -eq 1 ]] || fail "$what: exit $status, expected 1"
  grep -qE "$pattern" "$WORK/err.txt" || fail "$what: message does not match '$pattern'"
}

# no_partial DIR: no temporary file of an atomic write is left in DIR.
no_partial() {
  local left
  left=$(find "$1" -name "*.tmp*" | head -1)
  [[ -z $left ]] || fail "temporary file left: $left"
}

# 1. An output folder that cannot be created: learn, score and exact stop before the run,
# naming it; a missing folder that can be is created.
touch "$WORK/afile"
for cmd in "learn $WINE --no-header --time 30" "score $WINE --no-header --time 30" \
  "exact $WINE --no-header --time 30"; do
  read -ra args <<<"$cmd"
  out=$WORK/afile/sub/out
  [[ ${args[0]} == score ]] && out=$WORK/afile/sub/out.jkl
  expect_failure "${args[0]} -o afile/sub/" "afile.*(Not a directory|not a directory)" \
    "${args[@]}" -o "$out" -q
done
"$BNSL" learn "$WINE" --no-header -o "$WORK/new/folder/w" --time 1 -q 2>"$WORK/err.txt" ||
  fail "learn -o new/folder/: exit $?"
[[ -s $WORK/new/folder/w.pool.json ]] || fail "learn -o new/folder/: no pool written"
pass "an output folder that cannot be created: exit 1 naming it; a missing one is created"

# 2. An output path that is a folder.
mkdir -p "$WORK/dir/x.pool.json"
expect_failure "learn -o onto a folder" "x.pool.json" learn "$WINE" --no-header -o "$WORK/dir/x" \
  --time 1 -q
no_partial "$WORK/dir"
pass "an output that is a folder: exit 1 naming it"

# 3. A folder without write permission (root writes anyway: skipped).
if [[ $(id -u) -ne 0 ]]; then
  mkdir -p "$WORK/ro"
  chmod 555 "$WORK/ro"
  expect_failure "learn -o read-only/" "$WORK/ro.*Permission denied" learn "$WINE" --no-header \
    -o "$WORK/ro/x" --time 30 -q
  chmod 755 "$WORK/ro"
  no_partial "$WORK/ro"
  pass "a read-only folder: exit 1 naming it, before the run"
else
  echo "running as root: the read-only folder case is skipped"
fi

# 4. A full disk: a 64 KiB tmpfs holding an older pool, its free space filled, so that no
# output fits whatever its size (a short run's pool under ASan can be smaller than the tmpfs,
# and would then replace the old one before a later output fails): exit 1, the reason, no
# partial file, the older pool unchanged.
mkdir -p "$WORK/full"
if mount -t tmpfs -o size=64k tmpfs "$WORK/full" 2>/dev/null; then
  trap 'umount "$WORK/full" 2>/dev/null; rm -rf "$WORK"' EXIT
  echo '{"old": true}' >"$WORK/full/x.pool.json"
  dd if=/dev/zero of="$WORK/full/filler" bs=1k 2>/dev/null
  expect_failure "learn -o full disk" "full/x\\..*No space left" \
    learn "$ALARM" -o "$WORK/full/x" --time 3 -q
  no_partial "$WORK/full"
  [[ $(cat "$WORK/full/x.pool.json") == '{"old": true}' ]] ||
    fail "the older pool was not kept whole"
  pass "a full disk: exit 1 with the reason, no partial file, the older output kept"
else
  echo "cannot mount a tmpfs here: the full-disk case is skipped"
fi

echo "$passed passed, 0 failed"
