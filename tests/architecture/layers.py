"""The package's layers, and a checker that finds imports against them.

Layers point one way: a module may import from its own layer or a lower one, never a higher
one. The checker reads every import statement of a source file with :mod:`ast` — inside
functions and ``TYPE_CHECKING`` blocks too — and every ``importlib.import_module`` call
with a literal name.
"""

from __future__ import annotations

import ast
import fnmatch
from dataclasses import dataclass
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[2] / "src" / "diceboard"

#: lowest first; each entry: the layer's name and the module patterns that belong to it
#: (``*`` matches one game's folder name). The most specific pattern decides.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("kernel", ("diceboard.kernel", "diceboard.games.*.kernel")),
    ("game API", ("diceboard", "diceboard.core", "diceboard.games")),
    (
        "records, rendering, encoding",
        (
            "diceboard.records",
            "diceboard.rendering",
            "diceboard.encoding",
            "diceboard.games.*.rendering",
            "diceboard.games.*.encoding",
        ),
    ),
    ("ai", ("diceboard.ai", "diceboard.games.*.ai")),
    (
        "arena, envs, vector, analysis",
        ("diceboard.arena", "diceboard.envs", "diceboard.vector", "diceboard.analysis"),
    ),
    ("interfaces", ("diceboard.cli", "diceboard.server")),
)


def _matches(module: str, pattern: str) -> bool:
    parts, want = module.split("."), pattern.split(".")
    if len(parts) < len(want):
        return False
    return all(fnmatch.fnmatchcase(p, w) for p, w in zip(parts, want, strict=False))


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module`` (a dotted name inside ``diceboard``)."""
    best: tuple[int, int] | None = None  # (pattern length, layer)
    for index, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if _matches(module, pattern):
                size = pattern.count(".") + 1
                if best is None or size > best[0]:
                    best = (size, index)
    if best is None:
        raise ValueError(f"{module} is in no layer")
    return best[1]


def module_name(path: Path, root: Path = PACKAGE_ROOT) -> str:
    """The dotted module name of a source file under the package root."""
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True)
class Violation:
    """An import of a higher layer's module."""

    importer: str
    line: int
    imported: str

    def __str__(self) -> str:
        low, high = LAYERS[layer_of(self.importer)][0], LAYERS[layer_of(self.imported)][0]
        return f"{self.importer}:{self.line} ({low}) imports {self.imported} ({high})"


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every ``diceboard`` module that ``source`` (the text of ``module``) imports, with the
    line: ``import x``, ``from x import y`` (``x.y`` where ``y`` is a submodule), relative
    imports resolved, and literal ``importlib.import_module("x")`` calls."""
    tree = ast.parse(source)
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            # "from diceboard.games import custodian" imports the submodule; where every
            # name is a submodule, the package itself is only a namespace
            submodules = [
                f"{target}.{a.name}" for a in node.names if _is_module(f"{target}.{a.name}")
            ]
            if len(submodules) < len(node.names):
                found.append((node.lineno, target))
            found.extend((node.lineno, name) for name in submodules)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return [(line, name) for line, name in found if name.split(".")[0] == "diceboard"]


def _is_module(name: str) -> bool:
    parts = name.split(".")
    if parts[0] != "diceboard":
        return False
    path = PACKAGE_ROOT.joinpath(*parts[1:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def check_source(source: str, module: str, is_package: bool = False) -> list[Violation]:
    """The imports of ``source`` (the text of ``module``) that point up the layers."""
    own = layer_of(module)
    return [
        Violation(module, line, imported)
        for line, imported in imports_of(source, module, is_package)
        if layer_of(imported) > own
    ]


def check_package(root: Path = PACKAGE_ROOT) -> list[Violation]:
    """Every import against the layers in the package's source."""
    violations: list[Violation] = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        if module == "diceboard":
            continue  # the package root is the facade: it may load any layer, lazily
        violations.extend(
            check_source(path.read_text(encoding="utf-8"), module, path.name == "__init__.py")
        )
    return violations


def import_graph(root: Path = PACKAGE_ROOT) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (anywhere in its source)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        source = path.read_text(encoding="utf-8")
        graph[module] = {
            name for _, name in imports_of(source, module, path.name == "__init__.py")
        } - {module}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of two or more modules (Tarjan's algorithm, with an
    explicit stack): modules that import each other, directly or round a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next((c for c in children if c in graph), None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    cycles.append(sorted(group))
    return cycles
