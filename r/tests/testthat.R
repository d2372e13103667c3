library(testthat)
library(bnsl)

test_check("bnsl")
