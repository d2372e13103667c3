"""Tests of the Python package against the command line (run by ctest as python.pytest, with
PYTHONPATH at the build's python/ folder, BNSL_BINARY the command-line binary and BNSL_DATASETS
the bundled data sets)."""
import math
import os
import signal
import subprocess
import sys
import time

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import bnsl

BINARY = os.environ.get("BNSL_BINARY", "bnsl")
DATASETS = os.environ.get("BNSL_DATASETS", os.path.join(os.path.dirname(__file__), "..", "..",
                                                        "datasets"))
WINE = os.path.join(DATASETS, "wine.csv")


def cli_pool(tmp_path, *args):
    """Runs the command line; returns its pool file as read by bnsl.read_pool (the library's
    reader, whatever the file's format)."""
    prefix = str(tmp_path / "cli")
    subprocess.run([BINARY, *args, "-o", prefix, "-q"], check=True)
    return bnsl.read_pool(prefix + ".pool.json")


def test_exact_equals_the_command_line(tmp_path):
    """Exact mode on wine depends on no timing: the Python result and the command line's pool
    file (read by the library's reader) hold the same classes, scores and edge
    probabilities."""
    r = bnsl.exact(WINE, header=False, bayes_factor=3, threads=2, quiet=True)
    prefix = str(tmp_path / "cli")
    subprocess.run([BINARY, "exact", WINE, "--no-header", "--bayes-factor", "3", "--threads",
                    "2", "-o", prefix, "-q"], check=True)
    pool = bnsl.read_pool(prefix + ".pool.json")
    assert r.optimal and r.complete and pool.optimal and pool.complete
    assert r.best_score == pytest.approx(pool.best_score, rel=1e-12)
    assert len(r.dags) == len(pool.dags) == 308  # every DAG within ln 3 (bench/results/exact-grid.md)
    assert len(r.classes) == len(pool.classes)
    assert sum(c.size for c in r.classes) == 308
    for mine, theirs in zip(r.classes, pool.classes):
        assert mine.score == pytest.approx(theirs.score, rel=1e-12)
        assert mine.size == theirs.size
        assert sorted(mine.compelled) == sorted(theirs.compelled)
        assert sorted(mine.reversible) == sorted(theirs.reversible)
    np.testing.assert_allclose(r.class_scores, pool.class_scores, rtol=1e-12)
    np.testing.assert_allclose(r.dag_scores, pool.dag_scores, rtol=1e-12)
    mine = r.edges.set_index(["from", "to"]).sort_index()
    theirs = pool.edges.set_index(["from", "to"]).sort_index()
    assert list(mine.index) == list(theirs.index)
    np.testing.assert_allclose(mine["p"], theirs["p"], atol=1e-12)
    np.testing.assert_allclose(mine["p_edge"], theirs["p_edge"], atol=1e-12)
    assert set(pool.best.edges) == set(r.best.edges)


def test_read_pool_gives_the_result_of_the_run_that_wrote_it(tmp_path):
    r = bnsl.exact(WINE, header=False, bayes_factor=3, threads=2, quiet=True, classes=True)
    r.write(str(tmp_path / "py"))
    back = bnsl.read_pool(tmp_path / "py.pool.json", data=bnsl.read_csv(WINE, header=False))
    assert back.variables == r.variables and back.optimal == r.optimal
    assert len(back.classes) == len(r.classes) and len(back.dags) == len(r.dags)
    assert back.best_score == pytest.approx(r.best_score, rel=1e-12)
    assert [c.size for c in back.classes] == [c.size for c in r.classes]
    assert set(back.classes[-1].dag.edges) == set(r.classes[-1].dag.edges)
    assert back.to_bif() == r.to_bif()
    with pytest.raises(bnsl.InputError, match="nope.pool.json"):
        bnsl.read_pool(tmp_path / "nope.pool.json")


def test_the_pool_is_built_on_demand():
    r = bnsl.exact(WINE, header=False, bayes_factor=20, threads=2, quiet=True)
    assert len(r.dags) == 3449 and len(r.dag_scores) == 3449
    assert isinstance(r.dags[0], nx.DiGraph) and r.dags[0].graph["score"] == r.best_score
    assert r.dags[-1].graph["score"] == pytest.approx(r.dag_scores[-1])
    assert [g.graph["score"] for g in r.dags[10:13]] == list(r.dag_scores[10:13])
    assert sum(1 for _ in r.dags) == 3449
    with pytest.raises(IndexError):
        r.dags[3449]
    k = r.classes[1]
    assert k.members == k.size and r.dags[k.first].graph["class_id"] == 1
    assert list(r.dag_classes[:1]) == [0]


def test_exact_with_an_in_degree_limit_equals_the_command_line(tmp_path):
    r = bnsl.exact(WINE, header=False, bayes_factor=3, threads=2, max_parents=1, quiet=True)
    pool = cli_pool(tmp_path, "exact", WINE, "--no-header", "--bayes-factor", "3",
                    "--threads", "2", "--max-parents", "1")
    assert r.optimal and r.complete and pool.optimal
    assert r.best_score == pytest.approx(pool.best_score, rel=1e-12)
    assert len(r.dags) == len(pool.dags)
    assert all(g.in_degree(v) <= 1 for g in pool.dags for v in g)
    assert all(g.in_degree(v) <= 1 for g in r.dags for v in g)
    with pytest.raises(ValueError):
        bnsl.exact(WINE, header=False, max_parents=-1, quiet=True)


def test_exact_past_max_solutions_keeps_the_best(tmp_path):
    r = bnsl.exact(WINE, header=False, bayes_factor=20, threads=2, max_solutions=100, quiet=True)
    pool = cli_pool(tmp_path, "exact", WINE, "--no-header", "--bayes-factor", "20",
                    "--threads", "2", "--max-solutions", "100")
    full = bnsl.exact(WINE, header=False, bayes_factor=20, threads=2, quiet=True)
    assert r.optimal and not r.complete and full.complete
    assert len(r.dags) == len(pool.dags) == 100
    # the best 100 of the complete list (3,449 DAGs), every DAG above listed_above
    best = sorted((d.graph["score"] for d in full.dags), reverse=True)
    assert [d.graph["score"] for d in r.dags] == pytest.approx(best[:100], rel=1e-12)
    assert r.listed_above == pytest.approx(best[99], rel=1e-12)
    assert pool.listed_above == pytest.approx(r.listed_above, rel=1e-12)
    assert full.listed_above is None
    # the count: unknown past max_solutions unless asked for; a complete list's size
    assert r.dags_within is None and pool.dags_within is None
    assert full.dags_within == len(full.dags) and full.dags_within_exact
    counted = bnsl.exact(WINE, header=False, bayes_factor=20, threads=2, max_solutions=100,
                         count=True, quiet=True)
    assert counted.dags_within == len(full.dags) and counted.dags_within_exact
    assert len(counted.dags) == 100


def test_learn_a_dataframe_of_strings_round_trips_names_and_states(tmp_path):
    rng = np.random.default_rng(1)
    smoker = rng.choice(["yes", "no"], 800)
    cancer = np.where(rng.random(800) < np.where(smoker == "yes", 0.7, 0.1), "ill", "well")
    cough = np.where(rng.random(800) < np.where(cancer == "ill", 0.8, 0.2), "cough", "none")
    age = pd.Categorical(rng.choice(["young", "old"], 800))
    df = pd.DataFrame({"smoker": smoker, "cancer": cancer, "cough": cough, "age group": age})
    r = bnsl.learn(df, time=5, threads=1, quiet=True)
    assert isinstance(r.best, nx.DiGraph)
    assert set(r.best.nodes) == {"smoker", "cancer", "cough", "age group"}
    assert r.best.has_edge("smoker", "cancer") or r.best.has_edge("cancer", "smoker")
    assert r.optimal  # four variables: the subset DP proves it
    bif = r.to_bif()
    for state in ("yes", "no", "ill", "well", "cough", "none", "young", "old"):
        assert state in bif
    r.write(str(tmp_path / "py"))
    assert (tmp_path / "py.pool.json").exists() and (tmp_path / "py.best.bif").exists()
    # The same data through the command line: the same best score.
    df.to_csv(tmp_path / "data.csv", index=False)
    pool = cli_pool(tmp_path, "learn", str(tmp_path / "data.csv"), "--time", "5",
                    "--threads", "1")
    assert r.best_score == pytest.approx(pool.best_score, rel=1e-12)
    # Edge probabilities: a frame of from, to, p, p_edge, by name.
    assert list(r.edges.columns) == ["from", "to", "p", "p_edge"]
    assert set(r.edges["from"]) <= set(df.columns)
    assert math.isclose(sum(d.graph["score"] == r.best_score for d in r.dags[:1]), 1)


def test_required_and_forbidden_arcs_and_tiers_are_honoured():
    data = pd.read_csv(WINE, header=None, dtype=str)
    data.columns = [f"V{v}" for v in range(data.shape[1])]
    free = bnsl.learn(data, time=4, threads=2, quiet=True)
    forbid = list(free.best.edges)[:5]
    tiers = {"V0": 1, "V1": 0, "V2": 0}
    r = bnsl.learn(data, time=4, threads=2, quiet=True, forbid=forbid, tiers=tiers)
    for g in [r.best] + list(r.dags) + [c.dag for c in r.classes]:
        for a, b in forbid:
            assert not g.has_edge(a, b)
        assert not g.has_edge("V0", "V1") and not g.has_edge("V0", "V2")
    assert r.best_score <= free.best_score + 1e-9
    assert not any((row[1], row.to) in set(forbid) for row in r.edges.itertuples())
    with pytest.raises(ValueError, match="unknown variable 'nope'"):
        bnsl.learn(data, time=1, quiet=True, forbid=[("V0", "nope")])
    # Required arcs: two arcs of the free network reversed, held by every DAG (p = 1).
    require = [(b, a) for a, b in list(free.best.edges)[:2]]
    r = bnsl.learn(data, time=4, threads=2, quiet=True, require=require)
    for g in [r.best] + r.dags + [c.dag for c in r.classes]:
        for a, b in require:
            assert g.has_edge(a, b)
    assert r.best_score <= free.best_score + 1e-9
    p = {(row[1], row.to): row.p for row in r.edges.itertuples()}
    assert all(math.isclose(p[arc], 1.0) for arc in require)
    with pytest.raises(ValueError, match="closes the cycle"):
        bnsl.learn(data, time=1, quiet=True, require=[("V0", "V1"), ("V1", "V0")])


def test_numpy_input_score_cache_and_sample(tmp_path):
    codes = np.loadtxt(WINE, delimiter=",", dtype=int)
    r = bnsl.learn(codes, time=3, threads=2, quiet=True)
    assert r.variables == [f"V{v}" for v in range(14)]
    cache = bnsl.score_cache(WINE, header=False, threads=2, quiet=True, time=10)
    assert cache.n_vars == 14 and cache.entries > 14
    assert cache.families(0)[0][0] >= cache.families(0)[-1][0]  # best first
    cache.write_jkl(str(tmp_path / "wine.jkl"))
    assert (tmp_path / "wine.jkl").read_text().startswith("14")
    df = bnsl.sample(os.path.join(DATASETS, "asia.bif"), 300, seed=2)
    assert df.shape == (300, 8)
    assert set(df["smoke"]) <= {"yes", "no"}
    assert df.equals(bnsl.sample(os.path.join(DATASETS, "asia.bif"), 300, seed=2))


def test_ctrl_c_returns_what_was_found():
    script = ("import bnsl, sys\n"
              "print('ready', flush=True)\n"
              f"r = bnsl.learn({os.path.join(DATASETS, 'alarm-5000.csv')!r}, time=120, threads=2,"
              " quiet=True)\n"
              "print(r.interrupted, len(r.dags) > 0, r.best_score)\n"
              "r2 = bnsl.learn(r._data, time=2, threads=2, quiet=True)\n"
              "print(r2.interrupted)\n")
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ))
    assert p.stdout.readline() == "ready\n"  # imported: SIGINT now reaches the run
    time.sleep(3)
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 0
    first, second = out.splitlines()
    assert first.startswith("True True -")  # stopped, with networks and a score
    assert second == "False"  # the next run is not stopped by the earlier Ctrl-C
    assert time.monotonic() - start < 30  # not the 120 s budget
