"""The numba cache directory follows the compiled sources, and only them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from diceboard.kernel.cachedir import PACKAGE_DIR, compiled_files, compiled_sources_digest


def _names() -> set[str]:
    return {path.relative_to(PACKAGE_DIR).as_posix() for path in compiled_files()}


def test_the_compiled_sources_are_the_kernels_and_what_they_compile_in() -> None:
    names = _names()
    for name in (
        "kernel/jit.py",
        "kernel/drivers.py",
        "games/custodian/kernel/movegen.py",
        "games/custodian/kernel/layout.py",  # constants numba freezes into the kernels
        "games/chase/kernel/geometry.py",
        "ai/engine/alphabeta.py",
        "vector/kernels.py",
    ):
        assert name in names
    assert not any(name.startswith(("server/", "cli/", "rendering/", "records/")) for name in names)
    assert "games/custodian/notation.py" not in names
    assert os.environ["NUMBA_CACHE_DIR"].endswith(compiled_sources_digest())


def test_the_digest_changes_with_a_kernel_only(tmp_path: Path) -> None:
    package = tmp_path / "diceboard"
    shutil.copytree(PACKAGE_DIR, package, ignore=shutil.ignore_patterns("__pycache__"))
    first = compiled_sources_digest(package)
    app = package / "server" / "app.py"
    app.write_text(app.read_text() + "\n# a comment\n")
    assert compiled_sources_digest(package) == first
    layout = package / "games" / "custodian" / "kernel" / "layout.py"
    layout.write_text(layout.read_text() + "\n# a comment\n")
    assert compiled_sources_digest(package) != first


def test_the_simulators_atomics_are_a_compiled_source() -> None:
    # numba's intrinsics there are compiled into the crew's loops
    assert PACKAGE_DIR / "vector" / "atomics.py" in compiled_files(PACKAGE_DIR)


def test_a_file_naming_njit_borrowing_is_a_compiled_source(tmp_path: Path) -> None:
    package = tmp_path / "diceboard"
    shutil.copytree(PACKAGE_DIR, package, ignore=shutil.ignore_patterns("__pycache__"))
    first = compiled_sources_digest(package)
    helper = package / "ai" / "a_helper.py"
    helper.write_text("from diceboard.kernel import njit_borrowing\n")
    assert helper in compiled_files(package)
    assert compiled_sources_digest(package) != first
