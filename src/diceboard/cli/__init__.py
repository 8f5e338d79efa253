"""The ``diceboard`` command line: one module per command in :mod:`diceboard.cli.commands`,
assembled into one argparse parser by :mod:`diceboard.cli.main`."""

from diceboard.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
