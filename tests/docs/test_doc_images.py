"""The diagrams in docs/ are made by the package's renderer and must match what it draws now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_doc_diagrams_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "doc_images.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_diagram_the_docs_show_exists() -> None:
    for page in (ROOT / "docs").glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if "](images/" in line:
                name = line.split("](images/", 1)[1].split(")", 1)[0]
                assert (ROOT / "docs" / "images" / name).exists(), f"{page.name}: {name}"
