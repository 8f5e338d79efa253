"""The argparse parser class every command uses, and the command-module protocol."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, NoReturn, Protocol, TypeAlias

from diceboard.cli.errors import UsageError


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose errors raise :class:`UsageError` instead of printing the usage
    and exiting, so that ``main`` reports every bad input the same way: one line on stderr,
    exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} -h')")


if TYPE_CHECKING:
    #: what ``add_subparsers`` returns: the object a command module registers itself with
    Subparsers: TypeAlias = argparse._SubParsersAction[ArgumentParser]
else:  # the class is not subscriptable at run time, and argparse has no public name for it
    Subparsers = argparse._SubParsersAction


class CommandModule(Protocol):
    """A command (or bench target) module: it adds its subparser to ``subparsers`` and sets
    ``handler`` (a function of the parsed arguments returning the exit status) as a default."""

    def register(self, subparsers: Subparsers) -> None:
        """Add this command's subparser."""


def add_subparsers(parser: ArgumentParser, title: str, metavar: str) -> Subparsers:
    """The subparsers object of ``parser``; a choice is required."""
    subparsers = parser.add_subparsers(title=title, metavar=metavar, dest=f"_{metavar.lower()}")
    subparsers.required = True
    return subparsers


def new_command(
    subparsers: Subparsers, name: str, summary: str, description: str, epilog: str | None = None
) -> ArgumentParser:
    """A subparser for command ``name`` with a one-line ``summary`` (listed by the parent's
    help) and a longer ``description`` and examples (``epilog``) for its own ``-h``."""
    parser: ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser
