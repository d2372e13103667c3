"""What a run returns: the best network and the edge probabilities at once, the pool's DAGs and
equivalence classes on demand.

The report stays in C++ (bnsl._bnsl.Report). A Result reads from it, when it is made, only
what is cheap whatever the pool's size: the best network (one networkx graph), the edge table
(numpy arrays into a DataFrame) and the scores. Result.dags and Result.classes are sequences
that build a networkx graph, or a Class, when an item is asked for, so a pool of 100,000 DAGs
of 2,000 variables is returned as fast as one of ten. Going through many of them takes time:
iterating prints a progress line on stderr every few seconds unless the run was quiet.
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx
import numpy as np
import pandas as pd

_PROGRESS_AFTER = 2.0  # s: iterating a sequence longer than this prints progress


def _graph(parents, names, **attrs) -> nx.DiGraph:
    g = nx.DiGraph(**attrs)
    g.add_nodes_from(names)
    for v, ps in enumerate(parents):
        g.add_edges_from((names[p], names[v]) for p in ps)
    return g


class _Lazy(Sequence):
    """A read-only sequence whose items are built by make(i) when asked for."""

    def __init__(self, length: int, make, what: str, quiet: bool):
        self._length, self._make, self._what, self._quiet = length, make, what, quiet

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._make(k) for k in range(*i.indices(self._length))]
        if i < 0:
            i += self._length
        if not 0 <= i < self._length:
            raise IndexError(f"{self._what} index out of range")
        return self._make(i)

    def __iter__(self):
        start = last = time.monotonic()
        for i in range(self._length):
            yield self._make(i)
            now = time.monotonic()
            if not self._quiet and now - last >= _PROGRESS_AFTER:
                last = now
                print(f"bnsl: {i + 1:,} of {self._length:,} {self._what}s built "
                      f"({now - start:.0f} s)", file=sys.stderr, flush=True)

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __repr__(self) -> str:
        return f"<{self._length:,} {self._what}s, built on demand>"


@dataclass
class Class:
    """One Markov equivalence class of the pool: its score, its number of DAGs (exact, as an
    int), one of its DAGs, and its essential graph (compelled arcs, reversible edges); members:
    how many of its DAGs are listed in Result.dags, from index first."""

    score: float
    size: int
    log10_size: float
    dag: nx.DiGraph
    compelled: list
    reversible: list
    members: int
    first: int


class Result:
    """What a run found: the best network, the pool of networks within epsilon of it grouped
    into equivalence classes, and edge probabilities.

    best: networkx.DiGraph; best_score; edges: DataFrame (from, to, p, p_edge);
    dags: sequence of networkx.DiGraph (graph attributes score, class_id), dag_scores and
    dag_classes as numpy arrays; classes: sequence of Class, class_scores and
    class_log10_sizes as numpy arrays."""

    def __init__(self, report, data, quiet: bool = True):
        self._report, self._data = report, data
        names = list(report.variables)
        self.variables = names
        self.score = report.score
        self.rows = report.rows
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
        self.dag_scores = report.dag_scores()
        self.dag_classes = report.dag_classes()
        self.class_scores = report.class_scores()
        self.class_log10_sizes = report.class_log10_sizes()
        self.best = _graph(report.best, names)
        if len(self.class_scores):
            self.best_score = float(self.class_scores[0])
        elif len(self.dag_scores):
            self.best_score = float(self.dag_scores[0])
        else:
            self.best_score = float("nan")
        e = report.edges()
        labels = np.asarray(names, dtype=object)
        self.edges = pd.DataFrame({"from": labels[e["from"]], "to": labels[e["to"]],
                                   "p": e["p"], "p_edge": e["p_edge"]})
        if not report.has_p_edge:
            self.edges["p_edge"] = np.nan  # a pool file written before p_edge existed
        self.dags = _Lazy(report.n_dags, self._dag, "DAG", quiet)
        self.classes = _Lazy(report.n_classes, self._class, "class", quiet)

    def _dag(self, i: int) -> nx.DiGraph:
        return _graph(self._report.dag(i), self.variables, score=float(self.dag_scores[i]),
                      class_id=int(self.dag_classes[i]))

    def _class(self, i: int) -> Class:
        score, size, log10_size, dag, arcs, edges, members, first = self._report.class_info(i)
        names = self.variables
        return Class(score, int(size), log10_size, _graph(dag, names),
                     [(names[a], names[b]) for a, b in arcs],
                     [(names[a], names[b]) for a, b in edges], members, first)

    def write(self, prefix: str) -> None:
        """PREFIX.pool.json, .best.dot, .consensus.dot, and .best.bif when the data are known,
        as the command line writes them."""
        self._report.write(prefix, self._data)

    def to_bif(self) -> str:
        """The best network with parameters estimated from the data, as BIF text."""
        if self._data is None:
            raise ValueError("to_bif: no data (read_pool(path, data=...) gives them)")
        return self._report.bif(self._data)

    def __repr__(self) -> str:
        return (f"<bnsl.Result best {self.best_score:.4f}, {len(self.classes):,} classes, "
                f"{len(self.dags):,} DAGs listed>")
