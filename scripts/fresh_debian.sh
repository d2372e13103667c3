#!/usr/bin/env bash
# What a new user gets on a fresh Debian 12 machine, in chroots made from Debian's archive
# (debootstrap --variant=minbase bookworm), from the repository's committed HEAD:
#  1. in a fresh chroot: README command 1, timed (install the build dependencies, build, learn
#     ALARM for 30 s);
#  2. in another: README command 2 (scripts/test.sh: every dependency, every target, every
#     test), timed;
#  p. there: the .deb packages (cpack -G DEB), cmake --install + find_package and pip install
#     into a fresh venv (scripts/check_install.sh), and python3 -m build --wheel installed
#     into another venv;
#  3. in a third: apt install ./bnsl_*.deb, bnsl learn on the installed sample, then apt
#     install ./bnsl-dev_*.deb and a ten-line CMake project (tests/install/) that links
#     bnsl::bnsl and runs bnsl::learn on the sample (needs step 2's packages).
# Run as root: scripts/fresh_debian.sh [WORK_DIR [STEPS]]   (default /var/tmp/bnsl-fresh and
# "1 2 p 3"; the base system is kept there and reused, each chroot is a fresh copy of it; steps 1
# and 2 may run at once, from two calls). Needs debootstrap and
# deb.debian.org. BNSL_TIMED_LOCK=FILE holds `flock -x FILE` around README command 1 (timed on
# a quiet machine) and `flock -s FILE` around the rest (a shared machine). The log:
# WORK_DIR/fresh_debian.log.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-/var/tmp/bnsl-fresh}
steps=${2:-1 2 p 3}
mirror=http://deb.debian.org/debian
mkdir -p "$work"
exec > >(tee "$work/fresh_debian-${steps// /}.log") 2>&1
lock=()
shared=()
if [ -n "${BNSL_TIMED_LOCK:-}" ]; then
  lock=(flock -x "$BNSL_TIMED_LOCK")
  shared=(flock -s "$BNSL_TIMED_LOCK")
fi

mounted=()
unmount_all() {
  local m
  for m in "${mounted[@]}"; do umount -R -l "$m" 2>/dev/null || true; done
  mounted=()
}
trap unmount_all EXIT

# fresh NAME: WORK_DIR/NAME, a copy of the base system with /proc, /sys and /dev mounted.
fresh() {
  local dir=$work/$1
  local m  # mounts a stopped run may have left: never remove through them
  for m in proc sys dev; do umount -R -l "$dir/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$dir"
  cp -a "$work/base" "$dir"
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  mount -t proc proc "$dir/proc" && mounted+=("$dir/proc")
  mount --rbind /sys "$dir/sys" && mounted+=("$dir/sys")
  mount --rbind /dev "$dir/dev" && mounted+=("$dir/dev")
}

# inside NAME SCRIPT: runs SCRIPT with bash in chroot NAME, as root in a clean environment.
inside() {
  "${shared[@]}" chroot "$work/$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -euo pipefail -c "$2"
}

if [ ! -x "$work/base/bin/bash" ]; then
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap
  rm -rf "$work/base"
  debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log"
fi
echo "== $(date -u +%FT%TZ) bnsl $(git -C "$repo" rev-parse --short HEAD) on a fresh Debian" \
     "$(cat "$work/base/etc/debian_version") (debootstrap minbase), $(nproc) cores," \
     "$(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"

command1=$(sed -n '/^# 1\./{n;p;q}' "$repo/README.md")
command2=$(sed -n '/^# 2\./{n;p;q}' "$repo/README.md")
quiet_apt="grep -v '^\(Selecting\|Preparing\|Unpacking\|Setting up\|Processing\|(Reading\)'"

# checkout NAME: the repository's HEAD in WORK_DIR/NAME/root/bnsl.
checkout() {
  mkdir -p "$work/$1/root/bnsl"
  git -C "$repo" archive HEAD | tar -x -C "$work/$1/root/bnsl"
}

if [[ " $steps " == *" 1 "* ]]; then
  fresh one
  checkout one
  echo "== README command 1: $command1"
  "${lock[@]}" chroot "$work/one" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
    PATH=/usr/sbin:/usr/bin:/sbin:/bin bash -o pipefail -c \
    "cd /root/bnsl && TIMEFORMAT='README command 1: %0R s (wall)' && time ( $command1 ) 2>&1 |
     $quiet_apt | grep -v '^\[ *[0-9]*%\]'"
  ls -l "$work/one/root/bnsl/out/"
fi

if [[ " $steps " == *" 2 "* ]]; then
  fresh build
  checkout build
  echo "== README command 2: $command2"
  inside build "cd /root/bnsl && TIMEFORMAT='README command 2: %0R s (wall)' &&
    time ( $command2 ) 2>&1 | $quiet_apt | tail -25"
fi

if [[ " $steps " == *" p "* ]]; then
  [ -x "$work/build/root/bnsl/build/bnsl" ] || { echo "step p needs step 2's build" >&2; exit 1; }
  for m in proc sys dev; do mountpoint -q "$work/build/$m" || {
    [ $m = proc ] && mount -t proc proc "$work/build/proc" || mount --rbind "/$m" "$work/build/$m"
    mounted+=("$work/build/$m"); }; done
  echo "== Packages (cpack -G DEB), install checks, wheel"
  inside build "cd /root/bnsl/build && cpack -G DEB | tail -3 && dpkg-deb -I bnsl_*.deb | grep -E 'Package|Version|Depends' &&
  dpkg-deb -I bnsl-dev_*.deb | grep -E 'Package|Depends' && dpkg-deb -c bnsl_*.deb | awk '{print \$6}'"
  inside build "cd /root/bnsl && scripts/check_install.sh build"
  inside build "cd /root/bnsl && BNSL_CMAKE_BUILD_DIR=build python3 -m build --wheel --no-isolation >/dev/null &&
  ls dist && python3 -m venv --system-site-packages /tmp/wheel-venv &&
  /tmp/wheel-venv/bin/pip install --quiet --no-index --no-deps dist/bnsl-*.whl &&
  cd /tmp && /tmp/wheel-venv/bin/python -c 'import bnsl; r = bnsl.exact(\"/root/bnsl/datasets/wine.csv\", header=False, bayes_factor=3, quiet=True); print(\"wheel:\", bnsl.__file__, r.best_score, len(r.dags), \"DAGs\")'"
fi

if [[ " $steps " == *" 3 "* ]]; then
  echo "== A fresh Debian 12: apt install ./bnsl_*.deb, then ./bnsl-dev_*.deb"
  fresh deb
  cp "$work"/build/root/bnsl/build/bnsl*_*.deb "$work/deb/tmp/"
  cp -r "$repo/tests/install" "$work/deb/tmp/consumer"
  inside deb "cd /tmp && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./bnsl_*.deb >/dev/null &&
  bnsl --version && ls /usr/share/man/man1/ | grep bnsl | tr '\n' ' ' && echo &&
  bnsl learn /usr/share/bnsl/alarm-5000.csv -o /tmp/alarm --time 10 2>&1 | tail -1"
  inside deb "cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ./bnsl-dev_*.deb >/dev/null &&
  cmake -S consumer -B consumer/build >/dev/null && cmake --build consumer/build >/dev/null &&
  wc -l consumer/CMakeLists.txt && consumer/build/consumer /usr/share/bnsl/alarm-5000.csv 10"
fi
echo "== fresh_debian: steps $steps passed"
