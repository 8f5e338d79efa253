"""The layers of docs/architecture.md hold in the code: no module imports a higher layer."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.architecture.layers import (
    LAYERS,
    PACKAGE_ROOT,
    check_package,
    check_source,
    import_cycles,
    import_graph,
    layer_of,
    module_name,
)


def test_no_import_points_up_the_layers() -> None:
    violations = check_package()
    assert not violations, "imports against the layers:\n" + "\n".join(map(str, violations))


def test_no_modules_import_each_other() -> None:
    cycles = import_cycles(import_graph())
    assert not cycles, "modules that import each other (round a circle):\n" + "\n".join(
        " <-> ".join(group) for group in cycles
    )


def test_the_cycle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_every_module_has_a_layer() -> None:
    for path in PACKAGE_ROOT.rglob("*.py"):
        layer_of(module_name(path))  # raises for a module in no layer


@pytest.mark.parametrize(
    ("module", "source"),
    [
        # a kernel that reaches for the AI, at the top of a file or inside a function
        ("diceboard.games.chase.kernel.play", "from diceboard.ai import agent\n"),
        ("diceboard.kernel.jit", "def f():\n    import diceboard.server.app\n"),
        # the game API importing rendering, a relative import, and a dynamic import
        ("diceboard.core.game", "from diceboard.rendering.svg import render\n"),
        ("diceboard.games.custodian.notation", "from .ai import FEATURE_NAMES\n"),
        ("diceboard.vector.api", "import importlib\nimportlib.import_module('diceboard.cli')\n"),
        # the encoding layer importing envs
        ("diceboard.encoding", "from diceboard.envs.common import x\n"),
    ],
)
def test_the_checker_finds_a_wrong_import(module: str, source: str) -> None:
    assert check_source(source, module, is_package=module == "diceboard.encoding")


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("diceboard.ai.specs", "from diceboard.games.custodian.kernel import step\n"),
        ("diceboard.server.app", "from diceboard.ai import agent\n"),
        ("diceboard.games.chase.ai", "from diceboard.ai.engine.contract import STATE_LEN\n"),
        ("diceboard.games.chase.rendering", "from ..chase.kernel.geometry import HEX_NAMES\n"),
    ],
)
def test_the_checker_allows_imports_down_the_layers(module: str, source: str) -> None:
    assert not check_source(source, module)


def test_layers_are_listed_lowest_first() -> None:
    names = [name for name, _ in LAYERS]
    assert (names[0], names[-1]) == ("kernel", "interfaces")


def test_importing_a_kernel_loads_neither_the_ai_nor_rendering() -> None:
    code = (
        "import sys, diceboard.games.custodian.kernel, diceboard.games.chase.kernel\n"
        "print(sorted(m for m in ('diceboard.ai', 'diceboard.rendering', 'diceboard.server',"
        " 'diceboard.envs') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_package_root_gives_agents_on_demand() -> None:
    code = (
        "import sys, diceboard\n"
        "before = 'diceboard.ai' in sys.modules\n"
        "agent = diceboard.agent('random', seed=1)\n"
        "print(before, 'diceboard.ai' in sys.modules, callable(diceboard.agent))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]
