"""Column names whose bytes are not UTF-8 (issue 61): a Latin-1 header made the package raise
UnicodeDecodeError. Names come back as str decoded with 'surrogateescape' and names given are
encoded so (or given as bytes); the oracle is the header's bytes as written here.
(Run by ctest as python.pytest; see test_bnsl.py for the environment.)"""
import os
import subprocess

import pandas as pd
import pytest

import bnsl

BINARY = os.environ.get("BNSL_BINARY", "bnsl")
DATASETS = os.environ.get("BNSL_DATASETS", os.path.join(os.path.dirname(__file__), "..", "..",
                                                        "datasets"))
ALARM = os.path.join(DATASETS, "alarm-5000.csv")

# "caf\xe9" and "na\xefve" are Latin-1 (not UTF-8), "ok\xc3\xa9" is UTF-8 ("oké").
HEADER = [b"caf\xe9", b"na\xefve", b"ok\xc3\xa9", b"plain"]
CAFE, NAIVE, OK, PLAIN = (n.decode("utf-8", "surrogateescape") for n in HEADER)


def raw(names):
    return [n.encode("utf-8", "surrogateescape") for n in names]


@pytest.fixture
def latin1_csv(tmp_path):
    """ALARM's first 4 columns and 300 rows under HEADER."""
    rows = open(ALARM, "rb").read().splitlines()[1:301]
    path = tmp_path / "latin1.csv"
    path.write_bytes(b"\n".join([b",".join(HEADER)] + [b",".join(r.split(b",")[:4])
                                                       for r in rows]) + b"\n")
    return str(path)


def test_names_that_are_not_utf8_come_back_byte_for_byte(tmp_path, latin1_csv):
    assert raw(bnsl.read_csv(latin1_csv).columns) == HEADER
    r = bnsl.learn(latin1_csv, time=2, threads=1, quiet=True)
    assert all(isinstance(v, str) for v in r.variables)
    assert raw(r.variables) == HEADER
    assert sorted(raw(r.best.nodes)) == sorted(HEADER)
    assert r.best.number_of_edges() > 0 and len(r.edges) > 0
    assert set(raw(r.edges["from"])) | set(raw(r.edges["to"])) <= set(HEADER)
    for c in r.classes:
        assert set(raw(n for arc in c.compelled + c.reversible for n in arc)) <= set(HEADER)
    for g in r.dags:
        assert sorted(raw(g.nodes)) == sorted(HEADER)
    # The BIF text names them so too, and sampling from it gives the header back.
    assert raw(bnsl.sample(r.to_bif(), 5).columns) == HEADER
    r.write(str(tmp_path / "py"))
    assert bnsl.read_pool(str(tmp_path / "py.pool.json")).variables == r.variables
    # The command line's pool on the same file: the same names and best score.
    subprocess.run([BINARY, "learn", latin1_csv, "--time", "2", "--threads", "1", "-o",
                    str(tmp_path / "cli"), "-q"], check=True)
    cli = bnsl.read_pool(str(tmp_path / "cli.pool.json"))
    assert raw(cli.variables) == HEADER
    assert r.best_score == pytest.approx(cli.best_score, rel=1e-12)


def test_a_frame_with_such_names_gives_the_same_run(latin1_csv):
    by_path = bnsl.exact(latin1_csv, quiet=True)
    frame = pd.read_csv(latin1_csv, dtype=str, encoding_errors="surrogateescape")
    assert raw(frame.columns) == HEADER
    frame_bytes = frame.copy()
    frame_bytes.columns = HEADER  # bytes column names are taken as they are
    for data in (frame, frame_bytes):
        r = bnsl.exact(data, quiet=True)
        assert r.variables == by_path.variables
        assert r.best_score == pytest.approx(by_path.best_score, rel=1e-12)


def test_constraints_name_such_variables(tmp_path, latin1_csv):
    free = bnsl.exact(latin1_csv, quiet=True)
    # The constraints below change the pool.
    assert not free.best.has_edge(PLAIN, CAFE)
    assert any(g.has_edge(CAFE, NAIVE) for g in free.dags)
    a, b = next((a, b) for a, b in free.best.edges if {a, b} & {CAFE, NAIVE})
    # Required by str, forbidden by bytes.
    forbid = [(a.encode("utf-8", "surrogateescape"), b.encode("utf-8", "surrogateescape"))]
    forbid += [(y, x) for x, y in forbid]
    r = bnsl.exact(latin1_csv, quiet=True, require=[(PLAIN, CAFE)], forbid=forbid)
    dags = [r.best] + list(r.dags)
    assert all(g.has_edge(PLAIN, CAFE) and not g.has_edge(a, b) and not g.has_edge(b, a)
               for g in dags)
    # The same from CSV files in the data's encoding.
    (tmp_path / "require.csv").write_bytes(b"from,to\nplain,caf\xe9\n")
    (tmp_path / "tiers.csv").write_bytes(b"variable,tier\ncaf\xe9,1\nna\xefve,0\n")
    r = bnsl.exact(latin1_csv, quiet=True, require=str(tmp_path / "require.csv"),
                   tiers=str(tmp_path / "tiers.csv"))
    assert all(g.has_edge(PLAIN, CAFE) and not g.has_edge(CAFE, NAIVE)
               for g in [r.best] + list(r.dags))
    # An unknown name: the message quotes its bytes.
    with pytest.raises(bnsl.InputError) as e:
        bnsl.exact(latin1_csv, quiet=True, require=[(CAFE + "x", PLAIN)])
    assert raw([str(e.value)]) == [b"require: unknown variable 'caf\xe9x'"]
