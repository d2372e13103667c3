# Shared preamble of the command-line tests (sourced, not run by ctest: it is not in cli/*.sh).
# Usage in a test: source "$(dirname "$0")/lib/common.bash" "$@"
# Sets BNSL (the binary), DATA (datasets dir), WORK (a temporary dir removed on exit),
# PYTHONPATH (for pool_file.py) and `passed`; defines pass WHAT and fail WHAT (prints
# WORK/err.txt's tail, the "N passed, 1 failed" line, and exits 1). Each test ends with:
# echo "$passed passed, 0 failed".
set -u
NAME=$(basename "$0")
if [[ $# -ne 2 ]]; then
  echo "usage: bash $0 PATH_TO_bnsl_BINARY DATASETS_DIR" >&2
  exit 2
fi
BNSL=$(realpath "$1")
DATA=$(realpath "$2")
[[ -x $BNSL ]] || { echo "$NAME: $BNSL is not an executable" >&2; exit 1; }
command -v python3 >/dev/null || { echo "$NAME: python3 is required" >&2; exit 1; }

# pool_file.py (this folder) reads pool files of every format: `import pool_file`.
export PYTHONPATH="$(realpath "$(dirname "${BASH_SOURCE[0]}")")${PYTHONPATH:+:$PYTHONPATH}"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
passed=0

fail() {
  echo "$NAME: FAIL: $*" >&2
  [[ -f $WORK/err.txt ]] && tail -20 "$WORK/err.txt" >&2
  echo "$passed passed, 1 failed" >&2
  exit 1
}
pass() { passed=$((passed + 1)); echo "ok: $*"; }

# wait_stopped PID WHAT: after a signal to PID, waits up to 5 s for it to end (else kills it
# and fails naming WHAT); sets `stopped_status` to its exit status.
wait_stopped() {
  local pid=$1 waited=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 0.1
    waited=$((waited + 1))
    if ((waited > 50)); then
      kill -KILL "$pid" 2>/dev/null
      fail "$2: still running 5 s after the signal"
    fi
  done
  wait "$pid"
  stopped_status=$?
}
