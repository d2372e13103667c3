"""bnsl: Bayesian network structure learning for thousands of variables, from Python.

    import bnsl
    r = bnsl.learn("datasets/alarm-5000.csv", time=30, threads=2, seed=1)
    print(r.best_score, r.best.number_of_edges())   # r.best: a networkx.DiGraph
    print(r.edges.head())                             # from, to, p, p_edge (a DataFrame)
    r.dags[0], r.classes[0]                           # built when asked for
    same = bnsl.read_pool("out/alarm.pool.json")     # a pool the command line wrote

The same pipeline as the command line (`bnsl learn`, `bnsl exact`, `bnsl score`, `bnsl
sample`), with its rules: data are the path of a CSV file (read by bnsl's reader), a pandas
DataFrame or a 2-D numpy array (columns V0..V(n-1)), read as the CSV file they stand for
(bnsl._data); bad input raises bnsl.InputError (a ValueError) with the command line's message.
`time` is the budget of the whole call, result included. Runs release the GIL; Ctrl-C ends a
run as its deadline would and returns what was found (`result.interrupted` is then True).
Progress goes to stderr unless quiet=True.

Names (variables, states) are the CSV's bytes, which need not be UTF-8: they come back as str
decoded from UTF-8 with the 'surrogateescape' error handler, as Python's file names do
(os.fsdecode), so that name.encode("utf-8", "surrogateescape") gives the bytes back; names given
(constraints, a DataFrame's columns) are encoded so, and may be bytes. Constraint CSV files are
read the same way.
"""
from __future__ import annotations

import csv
import os
import time as _time

import pandas as pd

from . import _bnsl
from ._data import name_bytes as _name, to_data, to_frame
from ._result import Class, Result

__all__ = ["learn", "exact", "score_cache", "sample", "read_csv", "read_pool", "Result",
           "Class", "InputError", "__version__"]

__version__ = _bnsl.__version__
InputError = _bnsl.InputError


def _rows(path):
    """The rows of a constraint CSV file, its names decoded as the data's are."""
    with open(path, newline="", encoding="utf-8-sig", errors="surrogateescape") as f:
        return list(csv.DictReader(f))


def _arcs(arcs) -> list[tuple[bytes, bytes]]:
    """Required or forbidden arcs: None, (from, to) pairs, a DataFrame with from and to, or a
    CSV path."""
    if arcs is None:
        return []
    if isinstance(arcs, (str, os.PathLike)):
        return [(_name(r["from"]), _name(r["to"])) for r in _rows(arcs)]
    if isinstance(arcs, pd.DataFrame):
        return [(_name(a), _name(b)) for a, b in zip(arcs["from"], arcs["to"])]
    return [(_name(a), _name(b)) for a, b in arcs]


def _tiers(tiers) -> list[tuple[bytes, int]]:
    """Tiers: None, {variable: tier}, a list of lists (tier 0 first), or a CSV path."""
    if tiers is None:
        return []
    if isinstance(tiers, (str, os.PathLike)):
        return [(_name(r["variable"]), int(r["tier"])) for r in _rows(tiers)]
    if isinstance(tiers, dict):
        return [(_name(v), int(t)) for v, t in tiers.items()]
    return [(_name(v), t) for t, level in enumerate(tiers) for v in level]


def _left(budget: float, start: float) -> float:
    """What is left of a budget (seconds; 0: none) counted from start: reading and converting
    the data count, as the command line's reading does."""
    if budget <= 0:
        return budget
    return max(budget - (_time.monotonic() - start), 1e-3)


def _common(data, header, delimiter, missing_as_state, score, bayes_factor, epsilon, require,
            forbid, tiers):
    if score not in ("bic", "bdeu"):
        raise ValueError("score: 'bic' or 'bdeu'")
    d = to_data(data, header, delimiter, missing_as_state)
    return d, _arcs(require), _arcs(forbid), _tiers(tiers)


def learn(data, time: float = 60, score: str = "bic", bayes_factor: float = 20,
          epsilon: float | None = None, ess: float = 1.0, threads: int = 0, seed: int = 1,
          require=None, forbid=None, tiers=None, quiet: bool = False,
          pool_max: int | None = None, max_dags: int | None = None,
          exact_max_vars: int | None = None, header: bool = True, delimiter: str = ",",
          missing_as_state: bool = False) -> Result:
    """Explore parent sets, then search orders, within `time` seconds (`bnsl learn`).

    Keeps every network within a Bayes factor `bayes_factor` (or `epsilon` in score units) of
    the best. require, forbid: arcs every network must hold, or none may hold ((from, to)
    pairs, a DataFrame with columns from and to, or a CSV path); tiers: {variable: tier},
    [[tier 0 variables], [tier 1], ...] or a CSV path (no arc from a later tier into an
    earlier one)."""
    start = _time.monotonic()
    d, r, f, t = _common(data, header, delimiter, missing_as_state, score, bayes_factor,
                         epsilon, require, forbid, tiers)
    report = _bnsl.learn(d, _left(time, start), score, ess, epsilon, bayes_factor, threads,
                         seed, r, f, t, quiet, pool_max, max_dags, exact_max_vars)
    return Result(report, d, quiet)


def exact(data, time: float = 0, score: str = "bic", bayes_factor: float = 20,
          epsilon: float | None = None, ess: float = 1.0, threads: int = 0, require=None,
          forbid=None, tiers=None, quiet: bool = False, method: str = "auto",
          max_solutions: int = 1_000_000, classes: bool = False, header: bool = True,
          delimiter: str = ",", missing_as_state: bool = False,
          max_parents: int | None = None, count: bool = False) -> Result:
    """Prove the optimum and list every network within epsilon of it (`bnsl exact`); time 0:
    no limit. classes=True lists each equivalence class once. max_parents=K: among the
    networks with at most K parents per variable (`--max-parents`). count=True: past
    max_solutions, count every DAG within epsilon until `time` (`--count`; dags_within)."""
    start = _time.monotonic()
    d, r, f, t = _common(data, header, delimiter, missing_as_state, score, bayes_factor,
                         epsilon, require, forbid, tiers)
    report = _bnsl.exact(d, _left(time, start), score, ess, epsilon, bayes_factor, threads, r,
                         f, t, quiet, method, max_solutions, classes, max_parents, count)
    return Result(report, d, quiet)


def score_cache(data, time: float = 0, score: str = "bic", bayes_factor: float = 20,
                epsilon: float | None = None, ess: float = 1.0, threads: int = 0, require=None,
                forbid=None, tiers=None, quiet: bool = False, header: bool = True,
                delimiter: str = ",", missing_as_state: bool = False):
    """The pruned parent-set score cache (`bnsl score`): .families(v) lists (score, parent
    indices) best first, .write_jkl(path) writes it for `bnsl search` or GOBNILP."""
    start = _time.monotonic()
    d, r, f, t = _common(data, header, delimiter, missing_as_state, score, bayes_factor,
                         epsilon, require, forbid, tiers)
    return _bnsl.score_cache(d, _left(time, start), score, ess, epsilon, bayes_factor, threads, r, f, t,
                             quiet)


def sample(network: str, n: int, seed: int = 1) -> pd.DataFrame:
    """n rows drawn from a network (a BIF path, or BIF text) by forward sampling."""
    is_text = "network" in network and "{" in network and not os.path.exists(network)
    return to_frame(_bnsl.sample(network, n, seed, is_text))


def read_csv(path, header: bool = True, delimiter: str = ",",
             missing_as_state: bool = False) -> pd.DataFrame:
    """A CSV file as the command line reads it: a DataFrame of strings, each value as written
    in the file (TRUE stays TRUE, 01 stays 01; pandas.read_csv would make them True and 1)."""
    return to_frame(_bnsl.read_csv(os.fspath(path), header, delimiter, missing_as_state))


def read_pool(path, data=None) -> Result:
    """A pool file written by the command line (PREFIX.pool.json) as the Result of the run
    that wrote it. data (a CSV path, a DataFrame, ...: the run's data) makes to_bif() and the
    BIF of write() available."""
    report = _bnsl.read_pool(os.fspath(path))
    return Result(report, None if data is None else to_data(data))
