# bnsl from R: the command line's learn, exact and sample on data frames, and its pool files,
# with bnlearn's objects for the results (src/bnsl.cpp calls the library).

.arcs_arg <- function(arcs, what) {
  if (is.null(arcs)) return(list(from = character(), to = character()))
  if (is.matrix(arcs)) arcs <- as.data.frame(arcs, stringsAsFactors = FALSE)
  if (!is.data.frame(arcs) || !all(c("from", "to") %in% names(arcs)))
    stop(what, ": expected a data frame or matrix with columns from and to", call. = FALSE)
  list(from = as.character(arcs$from), to = as.character(arcs$to))
}

# Tiers: a list of character vectors (tier 1 first), or a named vector of tier numbers.
.tiers_arg <- function(tiers) {
  if (is.null(tiers)) return(list(variable = character(), tier = integer()))
  if (is.list(tiers))
    return(list(variable = as.character(unlist(tiers)),
                tier = rep(seq_along(tiers) - 1L, lengths(tiers))))
  if (is.null(names(tiers)) || !is.numeric(tiers) || any(tiers < 0))
    stop("tiers: expected a list of character vectors (first tier first) or a named vector ",
         "of tier numbers >= 0", call. = FALSE)
  list(variable = names(tiers), tier = as.integer(tiers))
}

.constraints <- function(whitelist, blacklist, tiers) {
  list(whitelist = .arcs_arg(whitelist, "whitelist"),
       blacklist = .arcs_arg(blacklist, "blacklist"), tiers = .tiers_arg(tiers))
}

.check_common <- function(score, time, threads) {
  if (!is.character(score) || length(score) != 1 || !score %in% c("bic", "bdeu"))
    stop("score: \"bic\" or \"bdeu\"", call. = FALSE)
  if (!is.numeric(time) || length(time) != 1 || is.na(time))
    stop("time: a number of seconds", call. = FALSE)
  if (!is.numeric(threads) || threads < 0) stop("threads: 0 (all cores) or more", call. = FALSE)
}

# maxp as the library takes it: -1 for none.
.maxp <- function(maxp) {
  if (is.null(maxp)) return(-1L)
  if (!is.numeric(maxp) || length(maxp) != 1 || is.na(maxp) || maxp < 0)
    stop("maxp: NULL or a number of parents >= 0", call. = FALSE)
  as.integer(maxp)
}

# What is left of a budget counted from `start`: preparing the data counts, as the command
# line's reading does.
.left <- function(budget, start) {
  if (budget <= 0) return(budget)
  max(budget - as.numeric(difftime(Sys.time(), start, units = "secs")), 1e-3)
}

#' Learn Bayesian networks from a data frame (`bnsl learn`)
#'
#' Explores parent sets, then searches orderings, within `time` seconds, and keeps every
#' network within a Bayes factor `bayes_factor` of the best (each equivalence class once).
#'
#' @param data a data frame: factors, logicals or character columns (see Details).
#' @param time the budget of the whole call in seconds (0: none).
#' @param score "bic" or "bdeu".
#' @param bayes_factor the width of the pool: networks within this factor of the best.
#' @param threads threads (0: all cores).
#' @param seed the search's seed (the same seed and threads give the same result).
#' @param whitelist,blacklist arcs every network holds, or none holds: a data frame or
#'   matrix with columns from and to.
#' @param tiers a list of character vectors, first tier first, or a named vector of tiers:
#'   no arc from a later tier into an earlier one.
#' @param iss BDeu's imaginary sample size.
#' @param maxp the most parents a variable may have (NULL: no limit).
#' @param quiet FALSE prints progress on stderr.
#' @param epsilon the width of the pool in score units (replaces bayes_factor).
#' @param missing_as_state TRUE reads NA (and "", "?") as a state of its own.
#' @details A factor's levels are its states, in their order (levels no row holds are
#'   dropped); logicals and character columns take their values as states. A frame with other
#'   columns is read as the CSV file it stands for, by the command line's rules: numbers are
#'   categories unless they are not all integers and take more than 20 values (an error).
#'   Ctrl-C ends a run as its deadline would and returns what it found (`interrupted`).
#' @return an object of class "bnsl": `best` (a bnlearn "bn", when bnlearn is installed),
#'   `arcs` (the best network's arcs), `model` (its model string), `score` (its score),
#'   `classes`, `strength` (bnlearn's "bn.strength"), `edges`, and the run's flags.
#' @examples
#' d <- bnsl_sample(system.file("extdata", "asia.bif", package = "bnsl"), 2000, seed = 1)
#' r <- bnsl_learn(d, time = 5, threads = 1, quiet = TRUE)
#' r$model
#' @export
bnsl_learn <- function(data, time = 60, score = "bic", bayes_factor = 20, threads = 0,
                       seed = 1, whitelist = NULL, blacklist = NULL, tiers = NULL, iss = 1,
                       maxp = NULL, quiet = FALSE, epsilon = NULL, missing_as_state = FALSE) {
  start <- Sys.time()
  .check_common(score, time, threads)
  d <- .prepare_data(data, missing_as_state)
  r <- .bnsl_learn(d, .left(time, start), score, iss, if (is.null(epsilon)) NA_real_ else epsilon,
                   bayes_factor, as.integer(threads), seed,
                   .constraints(whitelist, blacklist, tiers), quiet,
                   .maxp(maxp))
  .result(r)
}

#' Prove the optimum and list every network within a factor of it (`bnsl exact`)
#'
#' @inheritParams bnsl_learn
#' @param time the budget in seconds (0: none).
#' @param method "auto", "dp" or "ilp".
#' @param max_solutions the most DAGs (or classes) listed.
#' @param classes TRUE lists each equivalence class once.
#' @return an object of class "bnsl", as [bnsl_learn()]; `optimal` and `complete` say
#'   whether the optimum was proven and the list is whole.
#' @examples
#' d <- bnsl_sample(system.file("extdata", "asia.bif", package = "bnsl"), 2000, seed = 1)
#' r <- bnsl_exact(d, threads = 1, quiet = TRUE)
#' r$score; nrow(r$classes)
#' @export
bnsl_exact <- function(data, time = 0, score = "bic", bayes_factor = 20, threads = 0,
                       whitelist = NULL, blacklist = NULL, tiers = NULL, iss = 1, maxp = NULL,
                       quiet = FALSE, epsilon = NULL, method = "auto", max_solutions = 1e6,
                       classes = FALSE, missing_as_state = FALSE) {
  start <- Sys.time()
  .check_common(score, time, threads)
  d <- .prepare_data(data, missing_as_state)
  r <- .bnsl_exact(d, .left(time, start), score, iss, if (is.null(epsilon)) NA_real_ else epsilon,
                   bayes_factor, as.integer(threads), .constraints(whitelist, blacklist, tiers),
                   quiet, .maxp(maxp), method, max_solutions,
                   classes)
  .result(r)
}

#' Read a pool file written by the command line (`PREFIX.pool.json`)
#'
#' @param path the pool file.
#' @return an object of class "bnsl", as [bnsl_learn()], with variables named.
#' @export
bnsl_read_pool <- function(path) {
  .result(.bnsl_read_pool(path.expand(path)))
}

#' Draw data from a network by forward sampling (`bnsl sample`)
#'
#' @param network the path of a BIF file.
#' @param n the number of rows.
#' @param seed the seed (the same seed gives the same rows).
#' @return a data frame of factors, levels in the network's order of states.
#' @examples
#' head(bnsl_sample(system.file("extdata", "asia.bif", package = "bnsl"), 10, seed = 1))
#' @export
bnsl_sample <- function(network, n, seed = 1) {
  columns <- .bnsl_sample(path.expand(network), n, seed)
  as.data.frame(columns, stringsAsFactors = FALSE, optional = TRUE)
}

# The model string of bnlearn: [A][B|A:C], each node once, in the data's order.
.model_string <- function(nodes, arcs) {
  parts <- vapply(nodes, function(v) {
    parents <- arcs$from[arcs$to == v]
    if (length(parents) == 0) sprintf("[%s]", v)
    else sprintf("[%s|%s]", v, paste(parents, collapse = ":"))
  }, "")
  paste(parts, collapse = "")
}

# bnlearn's bn.strength: every ordered pair of variables, as boot.strength() lists them (past
# .all_pairs_max variables, only the pairs of an edge of the pool: n (n - 1) rows would take
# gigabytes), strength = the probability of the edge in either direction, direction = the
# probability of this direction given the edge; threshold 0.5.
.all_pairs_max <- 1000
.strength <- function(nodes, edges) {
  n <- length(nodes)
  key <- function(a, b) paste(a, b, sep = "\r")
  p_arc <- stats::setNames(edges$p, key(edges$from, edges$to))
  p_edge <- stats::setNames(c(edges$p_edge, edges$p_edge),
                            c(key(edges$from, edges$to), key(edges$to, edges$from)))
  if (n <= .all_pairs_max) {
    from <- rep(nodes, each = n)
    to <- rep(nodes, times = n)
    keep <- from != to
    from <- from[keep]
    to <- to[keep]
  } else {
    from <- c(edges$from, edges$to)
    to <- c(edges$to, edges$from)
    unique_pair <- !duplicated(key(from, to))
    from <- from[unique_pair]
    to <- to[unique_pair]
  }
  k <- key(from, to)
  strength <- unname(p_edge[k])
  strength[is.na(strength)] <- 0
  arc <- unname(p_arc[k])
  arc[is.na(arc)] <- 0
  direction <- ifelse(strength > 0, pmin(arc / strength, 1), 0)
  structure(data.frame(from = from, to = to, strength = strength, direction = direction,
                       stringsAsFactors = FALSE),
            nodes = nodes, method = "bootstrap", threshold = 0.5,
            class = c("bn.strength", "data.frame"))
}

.bn <- function(nodes, arcs) {
  if (!requireNamespace("bnlearn", quietly = TRUE)) return(NULL)
  g <- bnlearn::empty.graph(nodes)
  if (nrow(arcs) > 0) bnlearn::arcs(g) <- as.matrix(arcs[, c("from", "to")])
  g
}

.result <- function(r) {
  nodes <- r$variables
  structure(list(
    best = .bn(nodes, r$arcs), arcs = r$arcs, model = .model_string(nodes, r$arcs),
    score = r$best_score, classes = r$classes, strength = .strength(nodes, r$edges),
    edges = r$edges, variables = nodes, rows = r$rows, score_type = r$score_type,
    epsilon = r$epsilon, optimal = r$optimal, complete = r$complete, n_dags = r$n_dags,
    interrupted = r$interrupted, stats = r$stats), class = "bnsl")
}

#' @export
print.bnsl <- function(x, ...) {
  cat(sprintf("bnsl: %d variables, %s rows, %s; best score %.6f (%s)%s\n",
              length(x$variables), format(x$rows), x$score_type, x$score,
              if (x$optimal) "optimal" else "not proven optimal",
              if (x$interrupted) ", interrupted" else ""))
  cat(sprintf("%d arcs: %s\n", nrow(x$arcs), x$model))
  cat(sprintf("%d classes within %.4g of the best%s\n", nrow(x$classes), x$epsilon,
              if (x$complete) " (every one)" else ""))
  invisible(x)
}
