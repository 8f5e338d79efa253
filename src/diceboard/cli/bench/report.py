"""The figures of an engine benchmark, their targets, and how they are printed."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from diceboard.cli.bench.measure import Throughput, median
from diceboard.core.game import Game


@dataclass(frozen=True)
class Targets:
    """The speeds a game's engine should reach (``None``: no target)."""

    compiled_plies: float
    api_plies: float
    moves_seconds: float | None = None


#: the targets by game name
TARGETS: dict[str, Targets] = {
    "custodian": Targets(compiled_plies=1_000_000, api_plies=20_000, moves_seconds=1.5),
    "chase": Targets(compiled_plies=500_000, api_plies=10_000),
}


@dataclass
class EngineFigures:
    """Everything one ``bench GAME`` run measured (``None``: a measurement that was skipped)."""

    game: Game
    core: int | None
    seconds: float
    compiled: Throughput
    api: Throughput
    nojit: Throughput | None = None
    compile_seconds: float | None = None
    import_seconds: float | None = None
    moves_command: list[str] = field(default_factory=list)
    moves_times: list[float] | None = None

    @property
    def targets(self) -> Targets | None:
        """This game's targets, if it has any."""
        return TARGETS.get(self.game.name)

    def checks(self) -> dict[str, bool]:
        """Each target that applies, and whether it was met."""
        targets = self.targets
        if targets is None:
            return {}
        met = {
            "compiled": self.compiled.plies_per_second >= targets.compiled_plies,
            "api": self.api.plies_per_second >= targets.api_plies,
        }
        if targets.moves_seconds is not None and self.moves_times:
            met["moves"] = median(self.moves_times) < targets.moves_seconds
        return met

    def as_dict(self) -> dict[str, Any]:
        """The figures for JSON output."""
        data: dict[str, Any] = {
            "game": self.game.name,
            "options": self.game.non_default_options(),
            "core": self.core,
            "seconds_per_measurement": self.seconds,
            "compiled_kernel": self.compiled.as_dict(),
            "python_api": self.api.as_dict(),
            "kernel_without_jit": None if self.nojit is None else self.nojit.as_dict(),
            "ratios": self.ratios(),
            "compile_seconds": self.compile_seconds,
            "compile_import_seconds": self.import_seconds,
            "moves_command": self.moves_command or None,
            "moves_seconds": self.moves_times,
            "moves_median_seconds": median(self.moves_times) if self.moves_times else None,
            "targets_met": self.checks(),
        }
        return data

    def ratios(self) -> dict[str, float | None]:
        """Speed ratios between the three ways of playing random games (plies/s over plies/s)."""

        def ratio(a: Throughput | None, b: Throughput | None) -> float | None:
            if a is None or b is None or b.plies_per_second == 0:
                return None
            return a.plies_per_second / b.plies_per_second

        return {
            "compiled/api": ratio(self.compiled, self.api),
            "compiled/nojit": ratio(self.compiled, self.nojit),
            "api/nojit": ratio(self.api, self.nojit),
        }


def _marks() -> tuple[str, str]:
    """✓ and ✗, or ASCII words where stdout cannot print them."""
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "✓✗≥×".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return "ok", "MISSED"
    return "✓", "✗"


def _symbols() -> tuple[str, str]:
    return ("≥", "×") if _marks()[0] == "✓" else (">=", "x")


def _description(game: Game) -> str:
    options = game.non_default_options()
    extra = ", ".join(f"{k}={v}" for k, v in options.items())
    return f"{game.title} ({extra})" if extra else game.title


def format_figures(figures: EngineFigures) -> list[str]:
    """The report lines of one game's benchmark."""
    yes, no = _marks()
    at_least, times = _symbols()
    checks = figures.checks()
    targets = figures.targets

    def mark(key: str) -> str:
        return "" if key not in checks else f"  {yes if checks[key] else no}"

    core = f"core {figures.core}" if figures.core is not None else "one process"
    lines = [
        f"{_description(figures.game)}: random games from the initial state, on {core}, "
        f"{figures.seconds:g} s per measurement",
        f"  {'':<26}{'plies/s':>12}{'games/s':>11}  {'plies':>10}  target",
    ]

    def row(label: str, result: Throughput, target: float | None, key: str) -> str:
        goal = "" if target is None else f"{at_least} {target:,.0f} plies/s"
        return (
            f"  {label:<26}{result.plies_per_second:>12,.0f}{result.games_per_second:>11,.1f}"
            f"  {result.plies:>10,}  {goal}{mark(key)}"
        ).rstrip()

    lines.append(row("compiled kernel", figures.compiled, targets and targets.compiled_plies, "compiled"))
    lines.append(row("Python API", figures.api, targets and targets.api_plies, "api"))
    if figures.nojit is not None:
        lines.append(row("kernel without JIT", figures.nojit, None, "nojit"))
    names = {"compiled/api": "compiled / Python API", "compiled/nojit": "compiled / without JIT",
             "api/nojit": "Python API / without JIT"}
    for key, value in figures.ratios().items():
        if value is not None:
            lines.append(f"  ratio {names[key]:<26}{times}{value:,.1f}")
    if figures.compile_seconds is not None:
        lines.append(
            f"  compile time, cold cache        {figures.compile_seconds:.2f} s "
            f"(import {figures.import_seconds or 0.0:.2f} s, first calls "
            f"{figures.compile_seconds - (figures.import_seconds or 0.0):.2f} s)"
        )
    if figures.moves_times:
        command = f"diceboard moves {figures.game.name} start"
        limit = targets.moves_seconds if targets is not None else None
        goal = "" if limit is None else f"   < {limit:g} s{mark('moves')}"
        lines.append(
            f"  '{command}', warm cache   {median(figures.moves_times):.2f} s "
            f"(median of {len(figures.moves_times)}){goal}"
        )
    return lines
