"""The ``diceboard`` program: builds the parser from the command modules and runs a command,
turning every bad input into one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import cast

from diceboard.cli.errors import describe_os_error, one_line
from diceboard.cli.parsing import ArgumentParser, CommandModule, add_subparsers

#: the command modules in ``diceboard.cli.commands``, in the order ``--help`` lists them;
#: a new command is a new module there and one name here. A module is named after its
#: command, with ``_`` for ``-`` (``fit_eval`` registers ``fit-eval``): a run imports only
#: the module of the command it names.
COMMANDS: tuple[str, ...] = (
    "moves",
    "apply",
    "perft",
    "render",
    "play",
    "replay",
    "bench",
    "match",
    "tournament",
    "analyse",
    "fit_eval",
    "train_eval",
    "calibrate",
    "review",
    "puzzles",
    "serve",
)

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
#: 128 + SIGTERM, what a shell reports for a process that SIGTERM ended
EXIT_TERMINATED = 143

PROG = "diceboard"


def build_parser(commands: Sequence[str] = COMMANDS) -> ArgumentParser:
    """The parser with the subcommands of the modules ``commands`` (default: all of them)."""
    from diceboard import __version__, games

    titles = [info.title for info in games.infos()]
    played = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"
    parser = ArgumentParser(
        prog=PROG,
        description=f"{played}: legal moves, perft, boards, games in the terminal, replays "
        "and engine benchmarks.",
        epilog="Run 'diceboard COMMAND -h' for a command's options and examples.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    subparsers = add_subparsers(parser, "commands", "COMMAND")
    for name in commands:
        module = cast(CommandModule, importlib.import_module(f"diceboard.cli.commands.{name}"))
        module.register(subparsers)
    return parser


def _error(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so that the interpreter's final flush
    does not fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _commands_needed(argv: Sequence[str]) -> Sequence[str]:
    """The command modules a run with ``argv`` needs: only the named command's, so that one
    command does not pay for importing every other (their modules may import much); all of
    them for ``--help``, a missing or an unknown command."""
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    module = None if first is None else first.replace("-", "_")
    return (module,) if module in COMMANDS else COMMANDS


class Terminated(KeyboardInterrupt):
    """SIGTERM came (``kill``, ``timeout``, a service manager's stop): raised where the program
    is, as Ctrl-C raises :class:`KeyboardInterrupt`, so that what a command does on Ctrl-C
    (its ``finally`` blocks: a terminal game saved, a pool's workers stopped) it does on SIGTERM
    too. Python's own SIGTERM ends the process at once, with none of that: a match's workers
    were left for ever, waiting for work."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` meanwhile (only the main thread may set handlers:
    a ``main()`` called from another thread keeps the handler it has)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``diceboard`` with ``argv`` (default: the command line); return the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        with _terminate_as_interrupt():
            parser = build_parser(_commands_needed(arguments))
            args: argparse.Namespace = parser.parse_args(arguments)
            status: int = args.handler(args)
        sys.stdout.flush()
        return status
    except SystemExit as exit_:  # --help and --version
        return exit_.code if isinstance(exit_.code, int) else EXIT_OK
    except Terminated:
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        return _error(describe_os_error(error))
    except ValueError as error:  # DiceboardError and UsageError included
        return _error(one_line(error))
