"""bnsl: Bayesian network structure learning for thousands of variables, from Python.

    import pandas as pd, bnsl
    df = pd.read_csv("datasets/alarm-5000.csv")
    r = bnsl.learn(df, time=30, threads=2, seed=1)
    print(r.best_score, r.best.number_of_edges())   # r.best: a networkx.DiGraph
    print(r.edges.head())                             # from, to, p, p_edge (a DataFrame)

The same pipeline as the command line (`bnsl learn`, `bnsl exact`, `bnsl score`, `bnsl
sample`): data are a pandas DataFrame (each column's distinct values are its states, in order of
first appearance, whatever the dtype), a 2-D numpy array (columns V0..V(n-1)) or the path of a
CSV file. Runs release the GIL; Ctrl-C ends a run as its deadline would and returns what was
found (`result.interrupted` is then True). Progress goes to stderr unless quiet=True.
"""
from __future__ import annotations

import csv
import json
import os
from dataclasses import dataclass
from typing import Sequence

import networkx as nx
import numpy as np
import pandas as pd

from . import _bnsl

__all__ = ["learn", "exact", "score_cache", "sample", "Result", "Class", "InputError"]

InputError = _bnsl.InputError


def _data(data, header: bool = True, delimiter: str = ",", missing_as_state: bool = False):
    """A _bnsl.Data from a DataFrame, a 2-D array, a CSV path or a _bnsl.Data."""
    if isinstance(data, _bnsl.Data):
        return data
    if isinstance(data, (str, os.PathLike)):
        return _bnsl.read_csv(os.fspath(data), header, delimiter, missing_as_state)
    if isinstance(data, np.ndarray):
        if data.ndim != 2:
            raise ValueError("data: expected a 2-D array (rows x variables)")
        data = pd.DataFrame(data, columns=[f"V{v}" for v in range(data.shape[1])])
    if not isinstance(data, pd.DataFrame):
        raise TypeError("data: expected a pandas DataFrame, a 2-D numpy array or a CSV path")
    names, states, codes = [], [], []
    for name in data.columns:
        column = data[name]
        if column.isna().any() and not missing_as_state:
            row = int(np.flatnonzero(column.isna().to_numpy())[0])
            raise ValueError(f"data: column '{name}' has a missing value in row {row} "
                             "(missing_as_state=True makes it a state)")
        values = column.astype(object).where(column.notna(), "NA")
        uniques = pd.unique(values)  # order of first appearance
        index = {v: k for k, v in enumerate(uniques)}
        names.append(str(name))
        states.append([str(v) for v in uniques])
        codes.append(values.map(index).to_numpy(dtype=np.uint32).tolist())
    return _bnsl.make_data(names, states, codes)


def _arcs(arcs, names: Sequence[str]) -> list[tuple[str, str]]:
    """Required or forbidden arcs: None, (from, to) pairs, a DataFrame with from and to, or a
    CSV path."""
    if arcs is None:
        return []
    if isinstance(arcs, (str, os.PathLike)):
        with open(arcs, newline="") as f:
            return [(r["from"], r["to"]) for r in csv.DictReader(f)]
    if isinstance(arcs, pd.DataFrame):
        return [(str(a), str(b)) for a, b in zip(arcs["from"], arcs["to"])]
    return [(str(a), str(b)) for a, b in arcs]


def _tiers(tiers) -> list[tuple[str, int]]:
    """Tiers: None, {variable: tier}, a list of lists (tier 0 first), or a CSV path."""
    if tiers is None:
        return []
    if isinstance(tiers, (str, os.PathLike)):
        with open(tiers, newline="") as f:
            return [(r["variable"], int(r["tier"])) for r in csv.DictReader(f)]
    if isinstance(tiers, dict):
        return [(str(v), int(t)) for v, t in tiers.items()]
    return [(str(v), t) for t, level in enumerate(tiers) for v in level]


def _graph(parents: Sequence[Sequence[int]], names: Sequence[str], **attrs) -> nx.DiGraph:
    g = nx.DiGraph(**attrs)
    g.add_nodes_from(names)
    for v, ps in enumerate(parents):
        g.add_edges_from((names[p], names[v]) for p in ps)
    return g


@dataclass
class Class:
    """One Markov equivalence class of the pool: its score, its number of DAGs (exact, as an
    int), one of its DAGs, and its essential graph (compelled arcs, reversible edges)."""

    score: float
    size: int
    log10_size: float
    dag: nx.DiGraph
    compelled: list
    reversible: list


class Result:
    """What a run found: the best network, the pool of networks within epsilon of it grouped
    into equivalence classes, and edge probabilities."""

    def __init__(self, report, data):
        self._report, self._data = report, data
        names = list(report.variables)
        self.variables = names
        self.score = report.score
        self.epsilon = report.epsilon
        self.optimal = report.optimal
        self.complete = report.complete
        # past max_solutions (exact): every DAG scoring above this is listed (else None)
        self.listed_above = report.listed_above
        # exact: how many DAGs lie within epsilon when known (the complete list's size, or
        # count=True's count past max_solutions; dags_within_exact False: a lower bound)
        self.dags_within = report.dags_within
        self.dags_within_exact = report.dags_within_exact
        self.interrupted = report.interrupted
        self.stats = json.loads(report.stats)
        self.best = _graph(report.best, names)
        self.dags = [_graph(p, names, score=s, class_id=c) for s, c, p in report.dags]
        self.classes = [
            Class(k.score, int(k.size), k.log10_size, _graph(k.dag, names),
                  [(names[a], names[b]) for a, b in k.arcs],
                  [(names[a], names[b]) for a, b in k.edges])
            for k in report.classes
        ]
        self.best_score = self.classes[0].score if self.classes else (
            self.dags[0].graph["score"] if self.dags else float("nan"))
        self.edges = pd.DataFrame(
            [(names[a], names[b], p, pe) for a, b, p, pe in report.edges],
            columns=["from", "to", "p", "p_edge"])

    def write(self, prefix: str) -> None:
        """PREFIX.pool.json, .best.bif, .best.dot, .consensus.dot, as the command line."""
        self._report.write(prefix, self._data)

    def to_bif(self) -> str:
        """The best network with parameters estimated from the data, as BIF text."""
        return self._report.bif(self._data)

    def __repr__(self) -> str:
        return (f"<bnsl.Result best {self.best_score:.4f}, {len(self.classes)} classes, "
                f"{len(self.dags)} DAGs listed>")


def _common(data, header, delimiter, missing_as_state, score, bayes_factor, epsilon, require,
            forbid, tiers):
    if score not in ("bic", "bdeu"):
        raise ValueError("score: 'bic' or 'bdeu'")
    d = _data(data, header, delimiter, missing_as_state)
    return d, _arcs(require, d.names), _arcs(forbid, d.names), _tiers(tiers)


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
    d, r, f, t = _common(data, header, delimiter, missing_as_state, score, bayes_factor,
                         epsilon, require, forbid, tiers)
    report = _bnsl.learn(d, time, score, ess, epsilon, bayes_factor, threads, seed, r, f, t,
                         quiet, pool_max, max_dags, exact_max_vars)
    return Result(report, d)


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
    d, r, f, t = _common(data, header, delimiter, missing_as_state, score, bayes_factor,
                         epsilon, require, forbid, tiers)
    report = _bnsl.exact(d, time, score, ess, epsilon, bayes_factor, threads, r, f, t, quiet,
                         method, max_solutions, classes, max_parents, count)
    return Result(report, d)


def score_cache(data, time: float = 0, score: str = "bic", bayes_factor: float = 20,
                epsilon: float | None = None, ess: float = 1.0, threads: int = 0, require=None,
                forbid=None, tiers=None, quiet: bool = False, header: bool = True,
                delimiter: str = ",", missing_as_state: bool = False):
    """The pruned parent-set score cache (`bnsl score`): .families(v) lists (score, parent
    indices) best first, .write_jkl(path) writes it for `bnsl search` or GOBNILP."""
    d, r, f, t = _common(data, header, delimiter, missing_as_state, score, bayes_factor,
                         epsilon, require, forbid, tiers)
    return _bnsl.score_cache(d, time, score, ess, epsilon, bayes_factor, threads, r, f, t,
                             quiet)


def sample(network: str, n: int, seed: int = 1) -> pd.DataFrame:
    """n rows drawn from a network (a BIF path, or BIF text) by forward sampling."""
    is_text = "network" in network and "{" in network and not os.path.exists(network)
    d = _bnsl.sample(network, n, seed, is_text)
    columns = {}
    for v, name in enumerate(d.names):
        states = np.asarray(d.states(v), dtype=object)
        columns[name] = states[np.asarray(_bnsl.codes(d, v), dtype=np.intp)]
    return pd.DataFrame(columns)
