"""What ``diceboard fit-eval`` and ``diceboard train-eval`` share: their counted arguments,
the ``--out`` file they write an evaluation's JSON to (by default the package's own file in
:mod:`diceboard.ai.weights`), and how they write it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from diceboard.cli.arguments import positive_int
from diceboard.cli.files import write_text_atomic


def add_count(
    parser: argparse.ArgumentParser, flag: str, metavar: str, default: int, what: str
) -> None:
    """A positive whole-number option ``flag`` whose help says ``what`` and the default."""
    parser.add_argument(
        flag,
        metavar=metavar,
        type=positive_int,
        default=default,
        help=f"{what} (default {default})",
    )


def add_seed(parser: argparse.ArgumentParser) -> None:
    """``--seed S`` (default 1)."""
    parser.add_argument("--seed", metavar="S", type=int, default=1, help="random seed (default 1)")


def add_out(parser: argparse.ArgumentParser, what: str) -> None:
    """``--out PATH``: where the ``what`` JSON goes ('-' prints it)."""
    parser.add_argument(
        "--out",
        metavar="PATH",
        help=f"where to write the {what} JSON ('-' for stdout; default: the package's file)",
    )


def output_path(out: str | None, package_file: str) -> str | None:
    """Where to write: ``None`` for stdout (``--out -``), ``out``, or the package's file
    ``package_file`` in :mod:`diceboard.ai.weights`. Checked now, as writing would later
    fail (a folder, or a missing folder), so that minutes of self-play are not lost."""
    if out == "-":
        return None
    from diceboard.ai import weights

    path = out or str(Path(weights.__file__).parent / package_file)
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(target))
    if not target.parent.is_dir():
        raise FileNotFoundError(2, "no such folder", str(target.parent))
    return path


def option_flags(options: dict[str, str]) -> str:
    """The ``--option K=V`` flags that remake a game with ``options`` (for a record's
    command)."""
    return "".join(f" --option {k}={v}" for k, v in options.items())


def write_output(path: str | None, text: str) -> int:
    """Print ``text`` (``path`` ``None``) or write it to ``path`` atomically and say so on
    stderr; the command's exit status (0)."""
    if path is None:
        sys.stdout.write(text)
        return 0
    write_text_atomic(path, text)
    print(f"wrote {path}", file=sys.stderr)
    return 0
