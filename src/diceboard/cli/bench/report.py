"""The figures of an engine benchmark, their targets, and how they are printed."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from diceboard import games
from diceboard.cli.bench.measure import Throughput, median
from diceboard.core.game import Game


@dataclass(frozen=True)
class Targets:
    """The speeds a game's engine should reach (``None``: no target)."""

    compiled_plies: float | None = None
    api_plies: float | None = None
    moves_seconds: float | None = None


def targets_of(game_name: str) -> Targets | None:
    """The engine targets that the game declares (``GameInfo.targets``: ``compiled_plies``,
    ``api_plies``, ``moves_seconds``), or ``None`` where it declares none of them."""
    declared = games.info(game_name).targets
    found = Targets(
        compiled_plies=declared.get("compiled_plies"),
        api_plies=declared.get("api_plies"),
        moves_seconds=declared.get("moves_seconds"),
    )
    return None if found == Targets() else found


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
        return targets_of(self.game.name)

    def checks(self) -> dict[str, bool]:
        """Each target that applies, and whether it was met."""
        targets = self.targets
        if targets is None:
            return {}
        met: dict[str, bool] = {}
        if targets.compiled_plies is not None:
            met["compiled"] = self.compiled.plies_per_second >= targets.compiled_plies
        if targets.api_plies is not None:
            met["api"] = self.api.plies_per_second >= targets.api_plies
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


#: width of the label column
LABEL = 30
RATIO_NAMES = {
    "compiled/api": "compiled / Python API",
    "compiled/nojit": "compiled / without JIT",
    "api/nojit": "Python API / without JIT",
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

    def verdict(key: str, goal: str) -> str:
        if key not in checks:
            return goal
        return f"{goal:<22}{yes if checks[key] else no}"

    core = f"core {figures.core}" if figures.core is not None else "one process"
    lines = [
        f"{_description(figures.game)}: random games from the initial state, on {core}, "
        f"{figures.seconds:g} s per measurement",
        f"  {'':<{LABEL}}{'plies/s':>12}{'games/s':>11}{'plies':>12}  target",
    ]

    def row(label: str, result: Throughput, target: float | None, key: str) -> str:
        goal = "" if target is None else verdict(key, f"{at_least} {target:,.0f} plies/s")
        return (
            f"  {label:<{LABEL}}{result.plies_per_second:>12,.0f}"
            f"{result.games_per_second:>11,.1f}{result.plies:>12,}  {goal}"
        ).rstrip()

    compiled_goal = None if targets is None else targets.compiled_plies
    api_goal = None if targets is None else targets.api_plies
    lines.append(row("compiled kernel", figures.compiled, compiled_goal, "compiled"))
    lines.append(row("Python API", figures.api, api_goal, "api"))
    if figures.nojit is not None:
        lines.append(row("kernel without JIT", figures.nojit, None, "nojit"))
    for key, value in figures.ratios().items():
        if value is not None:
            lines.append(f"  {'ratio ' + RATIO_NAMES[key]:<{LABEL}}{times + f'{value:,.1f}':>12}")
    if figures.compile_seconds is not None:
        imported = figures.import_seconds or 0.0
        lines.append(
            f"  {'compile time, cold cache':<{LABEL}}{figures.compile_seconds:>10.2f} s"
            f"  (import {imported:.2f} s, first calls {figures.compile_seconds - imported:.2f} s)"
        )
    if figures.moves_times:
        limit = None if targets is None else targets.moves_seconds
        goal = "" if limit is None else verdict("moves", f"< {limit:g} s")
        runs = f"median of {len(figures.moves_times)}"
        lines.append(
            f"  {'moves command, warm cache':<{LABEL}}{median(figures.moves_times):>10.2f} s"
            f"{'':>23}  {goal}".rstrip()
        )
        lines.append(f"    ({' '.join(_short_command(figures.moves_command))}, {runs})")
    return lines


def _short_command(argv: list[str]) -> list[str]:
    """``argv`` with the console script's folder left out."""
    if argv and argv[0].endswith(("diceboard", "diceboard.exe")):
        return ["diceboard", *argv[1:]]
    return argv
