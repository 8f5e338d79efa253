"""Build step beyond pyproject.toml: the web app's rules pages (``/rules/<game>``) are rendered
from the docs (``docs/*.md`` and their diagrams ``docs/images/*.svg``), so a wheel carries a
copy of them as package data in ``diceboard/server/rules_docs/``. A source checkout (an
editable install) reads ``docs/`` itself and needs no copy."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DOCS = ROOT / "docs"


class BuildWithRules(build_py):
    """``build_py`` that also copies the docs the rules pages are made from."""

    def run(self) -> None:
        super().run()
        if self.dry_run or getattr(self, "editable_mode", False) or not DOCS.is_dir():
            return
        target = Path(self.build_lib) / "diceboard" / "server" / "rules_docs"
        (target / "images").mkdir(parents=True, exist_ok=True)
        for page in DOCS.glob("*.md"):
            shutil.copy2(page, target / page.name)
        for image in (DOCS / "images").glob("*.svg"):
            shutil.copy2(image, target / "images" / image.name)


setup(cmdclass={"build_py": BuildWithRules})
