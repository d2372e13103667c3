#!/usr/bin/env bash
# Do the R package's results work as bnlearn's objects? Installs r/ against BUILD (configured
# with -DBNSL_R=ON) into a temporary library, learns from the bundled ALARM sample for 20 s and
# from wine exactly, and for each prints bnsl's best score next to bnlearn's score() of the
# returned bn on the same data frame (factors), their difference, and the arcs of
# averaged.network(r$strength) and cpdag(r$best).
#
#   R_LIBS=DIR_WITH_BNLEARN bench/r_bnlearn.sh build
#
# Needs R, Rcpp and the bnlearn package where R finds it (R_LIBS). bnlearn is not built here:
# install it from its source with R CMD INSTALL. Exits 77 (skipped) without them, 1 when a
# score differs by more than 1e-6 or a call fails.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[[ $# -eq 1 ]] || { sed -n 2,12p "$0" >&2; exit 2; }
build=$(cd "$1" && pwd)
if ! command -v Rscript >/dev/null ||
   ! Rscript -e 'library(bnlearn); library(Rcpp)' >/dev/null 2>&1; then
  echo "r_bnlearn.sh: needs R with the bnlearn and Rcpp packages (R_LIBS)" >&2
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/bnsl-r-bnlearn.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp -R "$repo/r" "$work/bnsl"
mkdir "$work/lib"
if ! BNSL_CMAKE_BUILD_DIR=$build R CMD INSTALL --no-docs -l "$work/lib" "$work/bnsl" \
     >"$work/install.log" 2>&1; then
  cat "$work/install.log"
  exit 1
fi
R_LIBS="$work/lib${R_LIBS:+:$R_LIBS}" BNSL_DATASETS="$repo/datasets" Rscript --vanilla - <<'R'
suppressMessages({ library(bnlearn); library(bnsl) })
dir <- Sys.getenv("BNSL_DATASETS")
alarm <- read.csv(file.path(dir, "alarm-5000.csv"), colClasses = "character", check.names = FALSE)
wine <- read.csv(file.path(dir, "wine.csv"), header = FALSE, colClasses = "character")
names(wine) <- paste0("V", seq_along(wine) - 1L)
runs <- list(
  list(name = "alarm-5000, bnsl_learn(time = 20)", data = alarm,
       run = function(d) bnsl_learn(d, time = 20, threads = 2, quiet = TRUE)),
  list(name = "wine, bnsl_exact()", data = wine,
       run = function(d) bnsl_exact(d, threads = 2, quiet = TRUE)))
bad <- FALSE
for (x in runs) {
  d <- as.data.frame(lapply(x$data, factor), check.names = FALSE)
  r <- x$run(d)
  theirs <- bnlearn::score(r$best, d, type = "bic")
  avg <- averaged.network(r$strength)
  cp <- cpdag(r$best)
  cat(sprintf("%s: bnsl %.6f, bnlearn score() %.6f, difference %.2e; %d arcs, %d classes; ",
              x$name, r$score, theirs, r$score - theirs, nrow(r$arcs), nrow(r$classes)))
  cat(sprintf("averaged.network: %d arcs (%d undirected); cpdag: %d arcs (%d undirected)\n",
              narcs(avg), nrow(undirected.arcs(avg)) / 2, narcs(cp),
              nrow(undirected.arcs(cp)) / 2))
  bad <- bad || abs(r$score - theirs) > 1e-6
}
quit(status = bad)
R
