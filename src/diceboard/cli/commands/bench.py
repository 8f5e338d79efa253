"""``diceboard bench TARGET``: benchmarks. The targets come from the modules listed in
:data:`diceboard.cli.bench.TARGETS`."""

from __future__ import annotations

import importlib
from typing import cast

from diceboard.cli.bench import TARGETS
from diceboard.cli.bench.busy import add_busy
from diceboard.cli.parsing import CommandModule, Subparsers, add_subparsers, new_command


def register(subparsers: Subparsers) -> None:
    """Add the ``bench`` command and its targets."""
    parser = new_command(
        subparsers,
        "bench",
        "measure engine speed (random games, compile and start-up time)",
        "Benchmarks. 'diceboard bench TARGET -h' describes a target.",
        "examples:\n  diceboard bench custodian\n  diceboard bench all --seconds 1\n",
    )
    targets = add_subparsers(parser, "targets", "TARGET")
    for name in TARGETS:
        module = cast(CommandModule, importlib.import_module(f"diceboard.cli.bench.{name}"))
        module.register(targets)
    # every target measures beside other work too, the same way
    for target in dict.fromkeys(targets.choices.values()):
        add_busy(target)
