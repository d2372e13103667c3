test_that("learn on the bundled ALARM sample returns a DAG over its variables", {
  d <- read_alarm()
  r <- bnsl_learn(d, time = 5, threads = 2, quiet = TRUE)
  expect_s3_class(r, "bnsl")
  expect_equal(r$variables, names(d))
  expect_true(all(r$arcs$from %in% names(d)) && all(r$arcs$to %in% names(d)))
  expect_true(is_dag(names(d), r$arcs))
  expect_gt(nrow(r$arcs), 30)
  expect_gte(nrow(r$classes), 1)
  expect_equal(r$classes$score[1], r$score)
  expect_equal(r$score, bic(d, r$arcs), tolerance = 1e-9)
  s <- r$strength
  expect_s3_class(s, "bn.strength")
  expect_equal(names(s), c("from", "to", "strength", "direction"))
  expect_equal(nrow(s), length(r$variables) * (length(r$variables) - 1))
  expect_true(all(s$strength >= 0 & s$strength <= 1 + 1e-12))
  expect_true(all(s$direction >= 0 & s$direction <= 1 + 1e-12))
})

test_that("factors, logicals and integer columns are states, as in a CSV file", {
  d <- asia_frame()
  as_text <- as.data.frame(lapply(d, as.character), stringsAsFactors = FALSE)
  logical <- d
  logical$asia <- d$asia == "yes"
  coded <- as.data.frame(lapply(d, as.integer))  # integers: read as categories
  scores <- vapply(list(d, as_text, logical, coded), function(x)
    bnsl_exact(x, threads = 1, quiet = TRUE)$score, 1)
  expect_equal(scores, rep(scores[1], 4), tolerance = 1e-9)
})

test_that("exact on wine gives the command line's optimum, classes and edges", {
  d <- read_wine()
  r <- bnsl_exact(d, threads = 2, quiet = TRUE)
  expect_true(r$optimal && r$complete)
  expect_true(is_dag(names(d), r$arcs))
  expect_equal(r$score, bic(d, r$arcs), tolerance = 1e-9)

  out <- file.path(tempfile("wine"))
  status <- system2(cli(), c("exact", shQuote(dataset("wine.csv")), "--no-header", "-q",
                             "--threads", "2", "-o", shQuote(out)))
  expect_equal(status, 0)
  classes <- utils::read.csv(paste0(out, ".classes.csv"))
  expect_equal(nrow(r$classes), nrow(classes))
  expect_equal(r$classes$score, classes$score, tolerance = 1e-9)
  expect_equal(r$classes$size, as.character(classes$size))
  expect_equal(r$classes$differs, classes$differs)
  edges <- utils::read.csv(paste0(out, ".edges.csv"), stringsAsFactors = FALSE)
  key <- function(e) paste(e$from, e$to)
  expect_setequal(key(r$edges), key(edges))
  expect_equal(r$edges$p[match(key(edges), key(r$edges))], edges$p, tolerance = 1e-12)

  pool <- bnsl_read_pool(paste0(out, ".pool.json"))
  expect_equal(pool$score, r$score, tolerance = 1e-9)
  expect_equal(pool$variables, names(d))
  expect_equal(nrow(pool$classes), nrow(r$classes))
  expect_equal(pool$strength$strength, r$strength$strength, tolerance = 1e-12)
  # The arcs each class adds, removes and reverses against the best, as classes.csv lists them.
  blank <- function(x) ifelse(is.na(x), "", as.character(x))
  for (column in c("added", "removed", "reversed"))
    expect_equal(pool$classes[[column]], blank(classes[[column]]))
})

test_that("whitelist, blacklist and tiers hold in every network", {
  d <- asia_frame()
  free <- bnsl_exact(d, threads = 1, quiet = TRUE)
  banned <- free$arcs[1, ]
  black <- data.frame(from = c(banned$from, banned$to), to = c(banned$to, banned$from))
  r <- bnsl_exact(d, threads = 1, quiet = TRUE, blacklist = black)
  expect_false(any(paste(r$arcs$from, r$arcs$to) %in% paste(black$from, black$to)))
  expect_true(all(r$edges$p_edge[paste(r$edges$from, r$edges$to) %in%
                                   paste(black$from, black$to)] == 0))
  expect_lt(r$score, free$score)

  white <- data.frame(from = "asia", to = "dysp")
  r <- bnsl_exact(d, threads = 1, quiet = TRUE, whitelist = white)
  expect_true("asia dysp" %in% paste(r$arcs$from, r$arcs$to))
  p <- r$edges$p[r$edges$from == "asia" & r$edges$to == "dysp"]
  expect_equal(p, 1, tolerance = 1e-12)

  r <- bnsl_exact(d, threads = 1, quiet = TRUE, maxp = 1)
  expect_true(all(table(r$arcs$to) <= 1))
  expect_lt(r$score, free$score)

  tiers <- list(c("dysp", "xray"), c("asia", "tub", "smoke", "lung", "bronc", "either"))
  r <- bnsl_learn(d, time = 5, threads = 1, quiet = TRUE, tiers = tiers)
  expect_false(any(r$arcs$from %in% tiers[[2]] & r$arcs$to %in% tiers[[1]]))
  expect_false(any(r$edges$from %in% tiers[[2]] & r$edges$to %in% tiers[[1]]))
})

# The message the command line gives for `frame` written as a CSV file, less its file name.
cli_message <- function(frame) {
  path <- tempfile(fileext = ".csv")
  utils::write.csv(frame, path, row.names = FALSE, na = "NA")
  err <- suppressWarnings(system2(cli(), c("learn", shQuote(path), "-o",
                                           shQuote(tempfile()), "-q", "--time", "5"),
                                  stdout = FALSE, stderr = TRUE))
  sub(paste0("^bnsl: error: ", path), "", err[1], fixed = FALSE)
}

test_that("bad input raises the command line's message", {
  set.seed(1)
  numeric <- data.frame(a = factor(rep(c("x", "y"), 50)), b = stats::rnorm(100))
  expect_error(bnsl_learn(numeric, time = 5, quiet = TRUE),
               "data.frame:1:5: column 'b' holds 100 distinct numbers", fixed = TRUE)
  missing <- data.frame(a = c("x", NA, "y"), b = c("u", "v", "u"))
  expect_error(bnsl_learn(missing, time = 5, quiet = TRUE), "data.frame:3:", fixed = TRUE)
  expect_error(bnsl_learn(data.frame(), time = 5, quiet = TRUE), "empty file", fixed = TRUE)
  expect_error(bnsl_learn(data.frame(a = character()), time = 5, quiet = TRUE),
               "no data rows after the header", fixed = TRUE)
  d <- asia_frame(200)
  expect_error(bnsl_learn(d, time = 5, quiet = TRUE, whitelist = data.frame(from = "asia",
                                                                            to = "nope")),
               "whitelist: unknown variable 'nope'", fixed = TRUE)
  expect_error(bnsl_learn(d, score = "aic", quiet = TRUE), "score", fixed = TRUE)
  expect_error(bnsl_exact(d, maxp = -1, quiet = TRUE), "maxp", fixed = TRUE)

  for (frame in list(numeric, missing)) {
    mine <- tryCatch(bnsl_learn(frame, time = 5, quiet = TRUE), error = conditionMessage)
    expect_equal(sub("^data.frame", "", mine), cli_message(frame))
  }
})

test_that("an interrupt ends a run with the best network found so far", {
  skip_on_os("windows")
  d <- read_alarm()
  # A non-interactive R session quits on an interrupt unless an error handler is set; an
  # interactive one (Ctrl-C at the console) needs none.
  old <- options(error = function() invisible())
  on.exit(options(old))
  system(sprintf("(sleep 3; kill -INT %d)", Sys.getpid()), wait = FALSE)
  r <- bnsl_learn(d, time = 120, threads = 2, quiet = TRUE)
  expect_true(r$interrupted)
  expect_true(is_dag(names(d), r$arcs))
  expect_equal(r$score, bic(d, r$arcs), tolerance = 1e-9)
})

test_that("the best network is a bnlearn bn that bnlearn scores alike", {
  skip_if_not_installed("bnlearn")
  d <- as.data.frame(lapply(read_wine(), factor))
  r <- bnsl_exact(d, threads = 1, quiet = TRUE)
  expect_s3_class(r$best, "bn")
  expect_equal(bnlearn::score(r$best, d, type = "bic"), r$score, tolerance = 1e-6)
  expect_true(isTRUE(all.equal(r$best, bnlearn::model2network(r$model))))
  avg <- bnlearn::averaged.network(r$strength)
  expect_s3_class(avg, "bn")
  expect_s3_class(bnlearn::cpdag(r$best), "bn")
})

test_that("sample draws a data frame of factors with the network's states", {
  d <- asia_frame(500)
  expect_equal(dim(d), c(500L, 8L))
  expect_true(all(vapply(d, is.factor, TRUE)))
  expect_equal(levels(d$asia), c("yes", "no"))  # the BIF's order
  expect_identical(asia_frame(500), d)           # the same seed, the same rows
})

test_that("strength and direction come from the edge probabilities, as boot.strength's", {
  edges <- data.frame(from = c("A", "B", "C"), to = c("B", "A", "B"), p = c(0.6, 0.2, 0.5),
                      p_edge = c(0.8, 0.8, 0.5))
  s <- bnsl:::.strength(c("A", "B", "C"), edges)
  expect_equal(paste(s$from, s$to), c("A B", "A C", "B A", "B C", "C A", "C B"))
  expect_equal(s$strength, c(0.8, 0, 0.8, 0.5, 0, 0.5))
  expect_equal(s$direction, c(0.75, 0, 0.25, 0, 0, 1))
  expect_equal(attr(s, "threshold"), 0.5)
  many <- paste0("V", 1:1001)  # past 1,000 variables: the pairs of an edge only
  s <- bnsl:::.strength(many, data.frame(from = "V1", to = "V9", p = 1, p_edge = 1))
  expect_equal(paste(s$from, s$to, s$strength, s$direction), c("V1 V9 1 1", "V9 V1 1 0"))
})
