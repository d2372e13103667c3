#!/usr/bin/env bash
# Source checks CI runs before building (no build needed):
#  1. every OpenMP parallel region names its team size (num_threads), resolved by
#     resolve_threads (src/util/threads.hpp): "0 threads" means one thing everywhere;
#  2. every C++ source is formatted by .clang-format (clang-format 14, Debian's
#     clang-format package, which scripts/setup.sh installs);
#  3. every relative link of the markdown files resolves (scripts/check_links.py);
#  4. no source file of src/, cmd/, include/ or python/ is over 700 lines (one file per
#     technique: a longer one holds more than one).
# Given a build, also the checks that need the bnsl binary (CI runs them after its build):
#  5. every command of README.md's sh blocks runs (scripts/readme_commands.sh);
#  6. no line of any command's --help or --help-all is over 100 columns
#     (scripts/check_help_width.sh; tests/cli/help.sh runs it with the tests too).
# Usage: scripts/check_sources.sh [BUILD_DIR]   (from anywhere; exit 1 on a finding)
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# r/src/RcppExports.cpp is written by Rcpp::compileAttributes().
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' ':!r/src/RcppExports.cpp')

echo "== OpenMP regions name their team size (num_threads)"
if grep -n '#pragma omp parallel' "${sources[@]}" | grep -v 'num_threads('; then
  echo "error: the regions above have no num_threads(...) clause" >&2
  status=1
fi

echo "== clang-format"
if ! command -v clang-format >/dev/null; then
  echo "error: clang-format not found (scripts/setup.sh installs it)" >&2
  exit 1
fi
if ! clang-format --dry-run --Werror "${sources[@]}"; then
  echo "error: run clang-format -i on the files above" >&2
  status=1
fi

echo "== Source files within 700 lines"
mapfile -t library < <(git ls-files 'src/*' 'cmd/*' 'include/*' 'python/*.cpp' 'python/*.py' |
  grep -E '\.(cpp|hpp|py)$')
if ! awk 'FNR == 1 && NR > 1 && n > 700 { print name ": " n " lines"; bad = 1 }
          { name = FILENAME; n = FNR }
          END { if (n > 700) { print name ": " n " lines"; bad = 1 }; exit bad }' "${library[@]}"; then
  echo "error: split the files above along their techniques" >&2
  status=1
fi

echo "== Markdown links resolve"
if ! python3 scripts/check_links.py; then
  echo "error: the links above name no file or heading" >&2
  status=1
fi

if [ -n "${1:-}" ]; then
  echo "== README commands run (on $1)"
  scripts/readme_commands.sh "$1" || status=1
  echo "== --help within 100 columns"
  if ! scripts/check_help_width.sh "$1/bnsl"; then
    echo "error: wrap the help texts above (cmd/help.hpp)" >&2
    status=1
  fi
fi
exit "$status"
