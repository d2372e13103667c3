#!/usr/bin/env bash
# Do networks bnsl writes open in bnlearn? Writes BIF and Hugin NET files with bnsl (the bundled
# asia, child and alarm, a generated network of 50 variables, and a network whose names hold
# blanks, quotes, commas and non-ASCII letters, with parameters estimated from data) and reads
# each with bnlearn's read.bif and read.net in R. For every file it prints the nodes, arcs and
# free parameters bnlearn sees and the largest difference between its probabilities and those
# of the same network read by bnlearn from the other format (and, for the bundled networks,
# from the original BIF); names are compared as bnsl wrote them (FILE.names.csv maps them back).
#
#   bench/bnlearn_read.sh build/bnsl
#
# Needs R (Debian's r-base-dev) and the bnlearn package where R finds it (R_LIBS). bnlearn is
# not built here: install it from its source with R CMD INSTALL. Exits 77 (skipped) without
# them, 1 when a file does not read or a value differs by more than 1e-9.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -eq 1 ]] || { sed -n 2,15p "$0" >&2; exit 2; }
bnsl=$1
if ! command -v Rscript >/dev/null || ! Rscript -e 'library(bnlearn)' >/dev/null 2>&1; then
  echo "bnlearn_read.sh: needs R with the bnlearn package (R_LIBS)" >&2
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-bnlearn-read.XXXXXX")
trap 'rm -rf "$work"' EXIT

for n in asia child alarm; do
  cp "$repo/datasets/$n.bif" "$work/$n.orig.bif"
  "$bnsl" convert -q "$work/$n.orig.bif" "$work/$n.bif"
  "$bnsl" convert -q "$work/$n.orig.bif" "$work/$n.net"
done
"$bnsl" generate --vars 50 --max-parents 3 --arity 2:4 --seed 7 -o "$work/gen50.bif" -q
"$bnsl" convert -q "$work/gen50.bif" "$work/gen50.net"
cp "$repo/tests/formats/odd.dot" "$repo/tests/formats/odd.csv" "$work/"
"$bnsl" convert -q "$work/odd.dot" "$work/odd.bif" --data "$work/odd.csv"
"$bnsl" convert -q "$work/odd.dot" "$work/odd.net" --data "$work/odd.csv"

cd "$work"
Rscript --vanilla - <<'EOF'
suppressMessages(library(bnlearn))
maxdiff = function(a, b) {
  d = 0
  for (node in nodes(a)) {
    pa = a[[node]]$prob
    pb = b[[node]]$prob
    # the same table whatever the order of the parents' dimensions
    pb = aperm(pb, match(names(dimnames(pa)), names(dimnames(pb))))
    pb = do.call("[", c(list(pb), lapply(dimnames(pa), function(x) x)))
    d = max(d, abs(as.numeric(pa) - as.numeric(pb)))
  }
  d
}
cat("| file | bnlearn reader | nodes | arcs | parameters | max diff (other format) | max diff (original) |\n")
cat("|---|---|---:|---:|---:|---:|---:|\n")
bad = FALSE
for (n in c("asia", "child", "alarm", "gen50", "odd")) {
  b = read.bif(paste0(n, ".bif"))
  h = read.net(paste0(n, ".net"))
  o = if (file.exists(paste0(n, ".orig.bif"))) read.bif(paste0(n, ".orig.bif")) else NULL
  d = maxdiff(b, h)
  do = if (is.null(o)) NA else max(maxdiff(o, b), maxdiff(o, h))
  for (x in list(list("bif", b), list("net", h)))
    cat(sprintf("| %s.%s | read.%s | %d | %d | %d | %.3g | %s |\n", n, x[[1]], x[[1]],
                length(nodes(x[[2]])), narcs(bn.net(x[[2]])), nparams(x[[2]]), d,
                if (is.na(do)) "n/a" else sprintf("%.3g", do)))
  if (!isTRUE(all.equal(sort(nodes(b)), sort(nodes(h))))) bad = TRUE
  if (d > 1e-9 || (!is.na(do) && do > 1e-9)) bad = TRUE
}
odd = read.bif("odd.bif")
cat("\nodd.bif as bnlearn reads it:", modelstring(odd), "\n")
cat("states:", paste(sapply(nodes(odd), function(x) paste(dimnames(odd[[x]]$prob)[[1]], collapse = "/")), collapse = "; "), "\n")
if (bad) quit(status = 1)
EOF
echo
echo "odd.bif.names.csv (the names as bnsl wrote them):"
cat "$work/odd.bif.names.csv"
