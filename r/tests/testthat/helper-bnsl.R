# The repository's data (BNSL_DATASETS, set by ctest) and the command line (BNSL_BINARY): tests
# that need them skip without them (R CMD check on a built package).
dataset <- function(name) {
  dir <- Sys.getenv("BNSL_DATASETS")
  path <- file.path(dir, name)
  if (!nzchar(dir) || !file.exists(path)) testthat::skip(paste("no", name, "(BNSL_DATASETS)"))
  path
}

cli <- function() {
  binary <- Sys.getenv("BNSL_BINARY")
  if (!nzchar(binary) || !file.exists(binary)) testthat::skip("no bnsl binary (BNSL_BINARY)")
  binary
}

# wine.csv has no header: the command line names its columns V0..V13 (--no-header).
read_wine <- function() {
  d <- utils::read.csv(dataset("wine.csv"), header = FALSE, colClasses = "character")
  names(d) <- paste0("V", seq_along(d) - 1L)
  d
}

read_alarm <- function() {
  utils::read.csv(dataset("alarm-5000.csv"), colClasses = "character", check.names = FALSE)
}

asia_frame <- function(n = 2000) {
  bnsl_sample(system.file("extdata", "asia.bif", package = "bnsl"), n, seed = 1)
}

# Whether arcs (from, to) over `nodes` form a DAG: repeatedly remove the nodes without parents.
is_dag <- function(nodes, arcs) {
  left <- nodes
  while (length(left) > 0) {
    inner <- arcs$from %in% left & arcs$to %in% left
    roots <- setdiff(left, arcs$to[inner])
    if (length(roots) == 0) return(FALSE)
    left <- setdiff(left, roots)
  }
  TRUE
}

# BIC of a DAG from the data's counts, written out here as an independent re-scorer:
# sum over families of sum N_jk log(N_jk / N_j) - log(N) / 2 * (r - 1) * q, with q the number
# of parent configurations (every combination of the parents' states, seen or not).
bic <- function(data, arcs) {
  n <- nrow(data)
  total <- 0
  for (v in names(data)) {
    parents <- arcs$from[arcs$to == v]
    r <- length(unique(data[[v]]))
    q <- prod(vapply(parents, function(p) length(unique(data[[p]])), 1))
    config <- if (length(parents)) do.call(paste, c(data[parents], sep = "\r")) else rep("", n)
    joint <- table(config, data[[v]])
    margin <- rowSums(joint)
    nz <- joint > 0
    total <- total + sum(joint[nz] * log((joint / margin)[nz])) - log(n) / 2 * (r - 1) * q
  }
  total
}
