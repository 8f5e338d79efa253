"""The compiled copies that replace numba's slice assignment (:mod:`diceboard.kernel.arrays`),
and that compiled code uses them: a slice assignment from an array makes numba compile its
string-formatting error message (seconds of every cold start)."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from diceboard.kernel.arrays import copy_into, copy_whole
from diceboard.kernel.cachedir import PACKAGE_DIR, compiled_files


def test_copy_into_copies_the_first_n_and_leaves_the_rest() -> None:
    dst = np.full(6, -1, dtype=np.int64)
    copy_into(dst, np.arange(10, 15, dtype=np.int64), 3)
    assert dst.tolist() == [10, 11, 12, -1, -1, -1]


def test_copy_into_writes_through_a_view_of_a_row() -> None:
    rows = np.zeros((3, 4), dtype=np.int64)
    copy_into(rows[1], np.array([7, 8, 9], dtype=np.int64), 2)
    copy_into(rows[2][1:], rows[1], 4 - 1)
    assert rows.tolist() == [[0, 0, 0, 0], [7, 8, 0, 0], [0, 7, 8, 0]]


def test_copy_into_of_nothing_changes_nothing() -> None:
    dst = np.arange(3, dtype=np.int64)
    copy_into(dst, np.empty(0, dtype=np.int64), 0)
    assert dst.tolist() == [0, 1, 2]


@pytest.mark.parametrize(("dst_len", "src_len", "n"), [(2, 5, 3), (5, 2, 3), (4, 4, -1)])
def test_copy_into_refuses_a_count_beyond_an_end(dst_len: int, src_len: int, n: int) -> None:
    dst = np.zeros(dst_len, dtype=np.int64)
    with pytest.raises(ValueError, match="shorter than the count"):
        copy_into(dst, np.ones(src_len, dtype=np.int64), n)
    assert not dst.any()  # nothing was written before the refusal


def test_copy_whole_copies_every_entry_of_floats_too() -> None:
    dst = np.zeros(4)
    copy_whole(dst, np.array([0.5, 1.5, 2.5, 3.5]))
    assert dst.tolist() == [0.5, 1.5, 2.5, 3.5]


def test_copy_whole_refuses_arrays_of_different_lengths() -> None:
    with pytest.raises(ValueError, match="lengths differ"):
        copy_whole(np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64))


#: folders and files whose compiled functions must not assign to slices
_CHECKED = ("kernel", "games", "ai/engine", "vector")


def _slice_assignments(source: str, name: str) -> list[str]:
    """``name:line`` of each assignment to a slice inside a function of ``source`` decorated
    with ``njit`` or ``template`` (module-level code runs in Python, at import)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef):
            continue
        names = {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
        if not names & {"njit", "template"}:
            continue
        for inner in ast.walk(node):
            targets = inner.targets if isinstance(inner, ast.Assign) else []
            if isinstance(inner, ast.AugAssign):
                targets = [inner.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and any(
                    isinstance(part, ast.Slice) for part in ast.walk(target.slice)
                ):
                    found.append(f"{name}:{inner.lineno}")
    return found


def test_compiled_functions_assign_no_slices() -> None:
    files = [
        p for p in compiled_files() if p.relative_to(PACKAGE_DIR).as_posix().startswith(_CHECKED)
    ]
    assert any(p.name == "alphabeta.py" for p in files)  # the check sees the search
    offenders = [
        where
        for path in files
        for where in _slice_assignments(path.read_text(), str(path.relative_to(PACKAGE_DIR)))
    ]
    assert offenders == [], "use diceboard.kernel.arrays.copy_into / copy_whole"


def test_the_check_finds_a_slice_assignment() -> None:
    source = (
        "@njit\ndef f(a, b):\n    a[1:3] = b\n    a[0] = 1\n    a[2, :] += b\n"
        "def g(a, b):\n    a[:] = b\n"
    )
    assert _slice_assignments(source, "sample.py") == ["sample.py:3", "sample.py:5"]
