# Data for a run: a data frame's columns as bnsl's reader would make them.
#
# Factors, logicals and character columns are the states: a factor's levels in their order
# (levels no row holds are dropped, as a CSV file of the same values has no such state), a
# logical's TRUE and FALSE and a character column's values in order of first appearance. Any
# other frame (a column of numbers, a missing value, no rows or no columns, a value the reader
# takes for missing, an empty or repeated name) is written as the CSV text it stands for and
# read by bnsl's CSV reader, so that the command line's rules and messages hold: numbers are
# categories unless they are not integers and take more than 20 values, which is an error;
# a missing value is an error unless missing_as_state = TRUE.

.missing_values <- c("", "NA", "?")  # what the CSV reader takes for a missing value
.source <- "data.frame"               # the "file" the reader's messages name

.column_states <- function(x) {
  if (is.factor(x)) {
    x <- droplevels(x)
    return(list(states = levels(x), codes = as.integer(x) - 1L))
  }
  text <- if (is.logical(x)) ifelse(x, "TRUE", "FALSE") else x
  states <- unique(text)
  list(states = states, codes = match(text, states) - 1L)
}

.clean_frame <- function(data) {
  names <- names(data)
  kinds <- vapply(data, function(x) is.factor(x) || is.logical(x) || is.character(x), TRUE)
  nrow(data) > 0 && ncol(data) > 0 && all(kinds) && !anyNA(data) &&
    all(nzchar(names)) && !anyDuplicated(names)
}

.frame_text <- function(data) {
  if (ncol(data) == 0) return("")
  con <- textConnection(NULL, "w", local = TRUE)
  on.exit(close(con))
  utils::write.csv(data, con, row.names = FALSE, na = "NA")
  paste0(paste(textConnectionValue(con), collapse = "\n"), "\n")
}

# The list make_data() in src/bnsl.cpp reads.
.prepare_data <- function(data, missing_as_state = FALSE) {
  if (!is.data.frame(data))
    stop("data: expected a data frame (factors, logicals or character columns)", call. = FALSE)
  out <- list(text = "", source = .source, missing_as_state = isTRUE(missing_as_state),
              names = NULL, states = NULL, codes = NULL)
  if (.clean_frame(data)) {
    columns <- lapply(data, .column_states)
    states <- lapply(columns, `[[`, "states")
    clean <- all(vapply(states, function(s) length(s) <= 65535L, TRUE))
    if (!isTRUE(missing_as_state))
      clean <- clean && !any(vapply(states, function(s) any(s %in% .missing_values), TRUE))
    if (clean) {
      out$names <- names(data)
      out$states <- unname(states)
      out$codes <- unname(lapply(columns, `[[`, "codes"))
      return(out)
    }
  }
  out$text <- .frame_text(data)
  out
}
