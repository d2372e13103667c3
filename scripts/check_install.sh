#!/usr/bin/env bash
# Checks what a user installs, from a build folder configured with -DBNSL_PYTHON=ON (CI passes
# its own, so nothing is compiled twice but the small program):
#  1. cmake --install into a fresh prefix; the installed bnsl learns the installed sample;
#  2. tests/install/, a program outside the repository, finds the package (find_package(bnsl))
#     and links bnsl::bnsl, and learns the sample with bnsl::learn;
#  3. pip install --no-build-isolation . into a fresh venv of Debian's python3 with its system
#     site packages (numpy, pandas, networkx, setuptools, pybind11), reusing the build
#     folder's extension; `import bnsl` from /tmp learns ALARM.
# Usage: scripts/check_install.sh [BUILD_DIR]   (default build-ci)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build-ci}" && pwd)
work=$(mktemp -d /tmp/bnsl-install.XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== cmake --install $build --prefix $work/prefix"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
find "$work/prefix" -type f | sed "s|$work/prefix/||" | sort | sed 's/^/  /'
"$work/prefix/bin/bnsl" learn "$work/prefix/share/bnsl/alarm-5000.csv" -o "$work/alarm" \
  --time 5 --threads 2 -q
test -s "$work/alarm.pool.json" && test -s "$work/alarm.best.bif"
echo "  installed bnsl learned the installed sample: $work/alarm.pool.json"

echo "== find_package(bnsl) from a project outside the repository (tests/install/)"
cp -r "$root/tests/install" "$work/consumer"
cmake -S "$work/consumer" -B "$work/consumer/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer/build" >/dev/null
"$work/consumer/build/consumer" "$work/prefix/share/bnsl/alarm-5000.csv" 5

echo "== pip install --no-build-isolation . into a fresh venv (/usr/bin/python3, system site packages)"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
BNSL_CMAKE_BUILD_DIR="$build" "$work/venv/bin/pip" install --quiet --no-build-isolation \
  --no-index --no-deps "$root"
(cd /tmp && "$work/venv/bin/python" - "$root/datasets/alarm-5000.csv" <<'PY'
import sys
import bnsl
assert not bnsl.__file__.startswith(sys.argv[1].rsplit("/datasets/", 1)[0]), bnsl.__file__
r = bnsl.learn(sys.argv[1], time=5, threads=2, quiet=True)
print(f"  import bnsl {bnsl.__version__} from {bnsl.__file__}: ALARM best {r.best_score:.2f}, "
      f"{len(r.classes)} classes, {len(r.dags)} DAGs, {r.best.number_of_edges()} arcs")
assert len(r.variables) == 37 and r.best.number_of_edges() > 30
PY
)
rm -rf "$root/build-python" "$root"/python/*.egg-info
echo "check_install: all passed"
