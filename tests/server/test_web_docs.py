"""The web app's install instructions name a command that works (issue 11, bug 8): the
package is installed from its source folder, not from a package index that lacks it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FROM_AN_INDEX = re.compile(r"pip install\s+['\"]?diceboard\[")


def test_the_web_docs_install_from_the_source_folder() -> None:
    for path in (ROOT / "docs" / "web.md", ROOT / "README.md"):
        text = path.read_text(encoding="utf-8")
        assert not FROM_AN_INDEX.search(text), path
    assert "pip install '.[web]'" in (ROOT / "docs" / "web.md").read_text(encoding="utf-8")


def test_serve_without_the_web_extra_names_the_right_command() -> None:
    source = (ROOT / "src" / "diceboard" / "cli" / "commands" / "serve.py").read_text("utf-8")
    assert not FROM_AN_INDEX.search(source)
    assert "pip install '.[web]'" in source
