"""The rendering layer plugs itself in: ``import diceboard`` alone makes states draw
themselves in Jupyter, in a fresh interpreter."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import diceboard
from tests.rendering.conftest import CUSTODIAN_EXAMPLE

PACKAGE = Path(diceboard.__file__).parent


def test_import_diceboard_registers_the_svg_renderer() -> None:
    code = (
        "import diceboard, xml.etree.ElementTree as ET\n"
        "from diceboard.core.game import State\n"
        "assert State.svg_renderer is not None\n"
        f"state = diceboard.game('custodian').parse({CUSTODIAN_EXAMPLE!r})\n"
        "picture = state._repr_svg_()\n"
        "ET.fromstring(picture)\n"
        "print(picture.count('class=\"die\"'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "10"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


#: the files of a game's folder that sit at the rendering layer or above it
_GAME_PARTS_ABOVE = ("rendering.py", "ai.py")


def test_layers_point_one_way() -> None:
    """The rendering layer (with each game's rendering component) uses only the layers below
    it; those never import it."""
    allowed = ("diceboard.core", "diceboard.kernel", "diceboard.games", "diceboard.rendering")
    looks = sorted((PACKAGE / "games").glob("*/rendering.py"))
    assert len(looks) == len(diceboard.games.names())
    for path in [*sorted((PACKAGE / "rendering").rglob("*.py")), *looks]:
        for module in _imported_modules(path):
            if module.startswith("diceboard"):
                assert module.startswith(allowed), f"{path.name} imports {module}"
                if module.startswith("diceboard.games."):
                    # generic code reaches a game through the registry; a game's look only
                    # its own folder
                    own = f"diceboard.games.{path.parent.name}"
                    assert path in looks and module.startswith(own), f"{path} imports {module}"
    for layer in ("core", "kernel", "games"):
        for path in sorted((PACKAGE / layer).rglob("*.py")):
            if layer == "games" and path.name in _GAME_PARTS_ABOVE:
                continue
            for module in _imported_modules(path):
                assert not module.startswith("diceboard.rendering"), f"{path} imports {module}"


def test_the_command_line_prints_the_terminal_board() -> None:
    """End to end: ``diceboard render`` in a fresh process prints exactly this layer's board."""
    from diceboard.rendering import terminal

    state = diceboard.game("custodian").parse(CUSTODIAN_EXAMPLE)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "diceboard.cli",
            "render",
            "custodian",
            CUSTODIAN_EXAMPLE,
            "--format",
            "txt",
            "--highlight",
            "b2,c3",
            "--flip",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    expected = terminal.render(state, color=False, highlight=["b2", "c3"], flipped=True)
    assert done.stdout == expected + "\n"
