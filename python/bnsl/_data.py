"""Data for a run: a CSV path, a pandas DataFrame, a 2-D numpy array, or bnsl's own Data.

A CSV path is read by bnsl's CSV reader, as on the command line. A frame follows the same
rules: its values become the strings a CSV file would hold (booleans as TRUE and FALSE, the
spelling of R and of the bundled ALARM data, since pandas reads TRUE, True and true alike as
True; whole floats as integers, since pandas reads a column of integers with a missing value
as floats; everything else as str()), each column's states in order of first appearance.
bnsl.read_csv(path) gives a frame of the file's own strings, for any other spelling. When the
frame breaks one of the reader's rules (no rows, a missing value, more than 65,535 states, an
empty or repeated column name), it is parsed as the CSV text it stands for, so that the reader
raises its own error (bnsl.InputError, a ValueError) with the row and column: the same message
as the command line's for the same file, line 2 being the first data row.

Column names are bytes to the reader: a str column is encoded to UTF-8 with 'surrogateescape'
(name_bytes), so that the names a run returns, decoded so, name the same columns; a bytes
column is taken as it is.
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from . import _bnsl

_MISSING = ("", "NA", "?")  # what the CSV reader takes for a missing value
_FRAME = "DataFrame"  # the "file" the reader's messages name for a frame


def name_bytes(name) -> bytes:
    """A column's or variable's name as the library has it: bytes as they are, anything else as
    str(name) encoded to UTF-8 with 'surrogateescape' (the inverse of the names returned)."""
    if isinstance(name, bytes):
        return name
    return str(name).encode("utf-8", "surrogateescape")


def _text(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (float, np.floating)) and value.is_integer():
        return str(int(value))  # pandas reads 1,NA,2 as floats
    return str(value)


def _column(column: pd.Series, missing_as_state: bool):
    """(states, codes) of one column as the CSV reader would make them, or None when the
    reader would refuse it."""
    # In order of first appearance, a missing value (NaN, None) too: it reads as NA.
    codes, uniques = pd.factorize(column, sort=False, use_na_sentinel=False)
    names = ["NA" if pd.isna(u) else _text(u) for u in uniques]
    if not missing_as_state and any(n in _MISSING for n in names):
        return None
    # Distinct values that read alike (1 and "1") are one state, as in a CSV file.
    index: dict[str, int] = {}
    remap = np.fromiter((index.setdefault(n, len(index)) for n in names), dtype=np.int64,
                        count=len(names))
    if len(index) > 65535:
        return None
    return list(index), remap[codes].astype(np.uint16)


def _frame_as_text(frame: pd.DataFrame) -> str:
    """The CSV text the frame stands for (values written as _text writes them)."""
    out = pd.DataFrame({i: frame.iloc[:, i].map(_text, na_action="ignore")
                        for i in range(frame.shape[1])})
    out.columns = [name_bytes(c).decode("utf-8", "surrogateescape") for c in frame.columns]
    return out.to_csv(index=False, na_rep="NA", lineterminator="\n")


def from_frame(frame: pd.DataFrame, missing_as_state: bool = False):
    """A _bnsl.Data from a DataFrame, by the CSV reader's rules (see the module's text)."""
    names = [name_bytes(c) for c in frame.columns]
    columns = [_column(frame.iloc[:, i], missing_as_state) for i in range(frame.shape[1])]
    clean = (len(frame) > 0 and len(names) > 0 and all(c is not None for c in columns)
             and all(names) and len(set(names)) == len(names))
    if not clean:
        return _bnsl.parse_csv(_frame_as_text(frame), _FRAME, missing_as_state)
    return _bnsl.make_data(names, [c[0] for c in columns], [c[1] for c in columns])


def to_data(data, header: bool = True, delimiter: str = ",", missing_as_state: bool = False):
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
    return from_frame(data, missing_as_state)


def to_frame(data) -> pd.DataFrame:
    """A _bnsl.Data as a DataFrame of its state names (strings)."""
    columns = {}
    for v, name in enumerate(data.names):
        states = np.asarray(data.states(v), dtype=object)
        columns[name] = states[np.asarray(_bnsl.codes(data, v), dtype=np.intp)]
    return pd.DataFrame(columns)
