"""The command line's input rules through Python (issue 57): the same bad data, as a CSV path or
as a DataFrame, raise bnsl.InputError with the command line's message and write nothing; the
same CSV gives the same variables and states through pandas as through the command line.
(Run by ctest as python.pytest; see test_bnsl.py for the environment.)"""
import os
import subprocess

import numpy as np
import pandas as pd
import pytest

import bnsl
from bnsl import _bnsl
from bnsl._data import to_data

BINARY = os.environ.get("BNSL_BINARY", "bnsl")
DATASETS = os.environ.get("BNSL_DATASETS", os.path.join(os.path.dirname(__file__), "..", "..",
                                                        "datasets"))
ALARM = os.path.join(DATASETS, "alarm-5000.csv")

BAD = {  # CSV text the command line refuses
    "zero_rows": "a,b\n",
    "ragged": "a,b\n1,2\n1\n",
    "empty_field": "a,b\n1,2\n,3\n",
    "NA": "a,b\n1,2\nNA,3\n",
    "question_mark": "a,b\n1,2\n2,?\n",
    "empty_file": "",
    "repeated_name": "a,a\n1,2\n",
}


def cli_error(path, cwd):
    """The command line's message for a bad file, without its 'bnsl: error: ' prefix."""
    p = subprocess.run([BINARY, "learn", path, "-o", "out", "--time", "1", "-q"], cwd=cwd,
                       stderr=subprocess.PIPE, text=True)
    assert p.returncode == 2
    line = p.stderr.strip().splitlines()[-1]
    assert line.startswith("bnsl: error: ")
    return line[len("bnsl: error: "):]


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_csv_raises_the_command_lines_error_and_writes_nothing(tmp_path, case,
                                                                     monkeypatch):
    path = tmp_path / "data.csv"
    path.write_text(BAD[case])
    expected = cli_error(str(path), tmp_path)
    monkeypatch.chdir(tmp_path)
    for call in (lambda: bnsl.learn(str(path), time=1, quiet=True),
                 lambda: bnsl.exact(str(path), quiet=True),
                 lambda: bnsl.score_cache(str(path), time=1, quiet=True)):
        with pytest.raises(bnsl.InputError) as e:
            call()
        assert str(e.value) == expected
    assert sorted(os.listdir(tmp_path)) == ["data.csv"]  # nothing written, by either


FRAMES = {  # the same bad data as DataFrames, and the CSV text the command line is given
    "zero_rows": (pd.DataFrame({"a": [], "b": []}), "a,b\n"),
    "NaN": (pd.DataFrame({"a": [1, np.nan], "b": [2, 3]}), "a,b\n1,2\nNA,3\n"),
    "None": (pd.DataFrame({"a": ["x", "y"], "b": ["u", None]}), "a,b\nx,u\ny,NA\n"),
    "empty_string": (pd.DataFrame({"a": ["x", ""], "b": ["u", "v"]}), "a,b\nx,u\n,v\n"),
    "question_mark": (pd.DataFrame({"a": ["x", "y"], "b": ["?", "v"]}), "a,b\nx,?\ny,v\n"),
    "repeated_name": (pd.DataFrame([[1, 2]], columns=["a", "a"]), "a,a\n1,2\n"),
}


@pytest.mark.parametrize("case", sorted(FRAMES))
def test_a_bad_frame_raises_the_same_error_as_its_csv(tmp_path, case, monkeypatch):
    frame, text = FRAMES[case]
    path = tmp_path / "DataFrame"  # the name a frame's messages give
    path.write_text(text)
    expected = cli_error("DataFrame", tmp_path)
    path.unlink()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(bnsl.InputError) as e:
        bnsl.learn(frame, time=1, quiet=True)
    assert str(e.value) == expected
    assert os.listdir(tmp_path) == []


def test_zero_rows_are_refused_not_proven_optimal():
    with pytest.raises(bnsl.InputError, match="no data rows"):
        bnsl.learn(pd.DataFrame({"a": pd.Series([], dtype=str)}), time=1, quiet=True)
    with pytest.raises(bnsl.InputError, match="no data rows"):
        bnsl.exact(np.zeros((0, 3), dtype=int), quiet=True)


def test_a_single_state_is_accepted_as_by_the_command_line(tmp_path):
    (tmp_path / "one.csv").write_text("a,b\n1,2\n1,3\n1,2\n")
    prefix = str(tmp_path / "cli")
    subprocess.run([BINARY, "exact", str(tmp_path / "one.csv"), "-o", prefix, "-q"],
                   check=True)
    pool = bnsl.read_pool(prefix + ".pool.json")
    for data in (str(tmp_path / "one.csv"), pd.DataFrame({"a": [1, 1, 1], "b": [2, 3, 2]})):
        r = bnsl.exact(data, quiet=True)
        assert r.best_score == pytest.approx(pool.best_score, rel=1e-12)
        assert r.best.number_of_edges() == 0
        assert "discrete [ 1 ] { 1 }" in r.to_bif()


def test_missing_as_state_matches_the_command_line(tmp_path):
    """pandas reads 1,NA,1,2 as floats with a NaN: the states are still 1, NA and 2."""
    (tmp_path / "m.csv").write_text("a,b\n1,2\nNA,3\n1,3\n2,2\n")
    theirs = states(_bnsl.read_csv(str(tmp_path / "m.csv"), missing_as_state=True))
    frame = pd.read_csv(tmp_path / "m.csv")
    assert frame["a"].dtype == float
    assert states(to_data(frame, missing_as_state=True)) == theirs
    assert theirs["a"] == ["1", "NA", "2"]


def states(data):
    return {name: data.states(v) for v, name in enumerate(data.names)}


def test_the_same_csv_gives_the_same_states_through_pandas():
    """pandas reads ALARM's TRUE and FALSE as booleans; bnsl writes them back as the file
    spells them (and bnsl.read_csv keeps every value's spelling)."""
    cli = states(_bnsl.read_csv(ALARM))
    frame = pd.read_csv(ALARM)
    assert frame["HISTORY"].dtype == bool
    assert states(to_data(frame)) == cli
    assert states(to_data(bnsl.read_csv(ALARM))) == cli
    assert cli["HISTORY"] == ["FALSE", "TRUE"]


def test_values_that_read_alike_are_one_state():
    frame = pd.DataFrame({"a": pd.Series([1, "1", 2, "x"], dtype=object), "b": [1, 2, 1, 2]})
    data = to_data(frame)
    assert data.states(0) == ["1", "2", "x"]
    assert list(_bnsl.codes(data, 0)) == [0, 0, 1, 2]
