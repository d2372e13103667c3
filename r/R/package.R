#' bnsl: Bayesian network structure learning for thousands of variables
#'
#' The command line's `learn`, `exact` and `sample` on data frames, and its pool files, with
#' bnlearn's objects for the results: [bnsl_learn()], [bnsl_exact()], [bnsl_read_pool()],
#' [bnsl_sample()].
#' @keywords internal
#' @useDynLib bnsl, .registration = TRUE
#' @importFrom Rcpp sourceCpp
"_PACKAGE"
