"""Arguments shared by several commands: the game and its options, the POSITION argument,
square lists and numbers."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import diceboard
from diceboard import games
from diceboard.cli.errors import UsageError
from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State

#: POSITION keywords besides a position string
START = "start"
INITIAL = "initial"


def _listing(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def game_help() -> str:
    """The help of a GAME argument: the registered games, each with its title."""
    named = [
        info.name if info.title.lower() == info.name else f"{info.name} ({info.title})"
        for info in games.infos()
    ]
    return f"the game: {_listing(named)}"


def variant_help() -> str:
    """The help of ``--variant``: each registered game's variants."""
    listed = "; ".join(f"{info.title}: {', '.join(info.variant_names)}" for info in games.infos())
    return f"a variant preset ({listed})"


GAME_HELP = game_help()
POSITION_HELP = (
    f"'{START}' (the first decision, setup rolls made with --seed), '{INITIAL}' (before any "
    "roll), or a position string in quotes"
)


def game_name(text: str) -> str:
    """An argparse type: a registered game's name, or an alias (any case), as its name."""
    try:
        return games.canonical_name(text)
    except OptionError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_game_argument(
    parser: argparse.ArgumentParser, flag: str | None = None, metavar: str = "GAME"
) -> None:
    """The game argument: positional ``GAME``, or the required option ``flag`` (``--game``);
    its choices are the registered games (aliases accepted, in any case)."""
    if flag is None:
        parser.add_argument(
            "game", metavar=metavar, type=game_name, choices=games.names(), help=GAME_HELP
        )
    else:
        parser.add_argument(
            flag,
            dest="game",
            required=True,
            metavar=metavar,
            type=game_name,
            choices=games.names(),
            help=GAME_HELP,
        )


def add_game_arguments(parser: argparse.ArgumentParser, positional: bool = True) -> None:
    """GAME (unless ``positional`` is false), ``--variant V`` and repeated ``--option k=v``."""
    if positional:
        add_game_argument(parser)
    parser.add_argument("--variant", metavar="V", help=variant_help())
    parser.add_argument(
        "--option",
        metavar="K=V",
        action="append",
        default=[],
        help="a game option, e.g. --option capture=single (repeatable)",
    )


def parse_options(items: list[str]) -> dict[str, str]:
    """``["k=v", …]`` as a dict; a malformed or repeated item raises :class:`UsageError`."""
    options: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key or not value.strip():
            raise UsageError(f"--option takes NAME=VALUE (like capture=single), not {item!r}")
        if key in options:
            raise UsageError(f"--option {key} is given twice")
        options[key] = value.strip()
    return options


def make_game(name: str, variant: str | None, options: dict[str, str]) -> Game:
    """The game ``name`` with its options; says so clearly where an engine is missing."""
    try:
        return diceboard.game(name, variant=variant, **options)
    except ImportError as error:
        raise UsageError(
            f"the {name} engine is not available in this installation ({error})"
        ) from None


def game_from_args(args: argparse.Namespace) -> Game:
    """The game that GAME, ``--variant`` and ``--option`` describe."""
    return make_game(args.game, args.variant, parse_options(args.option))


def add_position_arguments(parser: argparse.ArgumentParser) -> None:
    """POSITION and ``--seed N`` (for ``start``)."""
    parser.add_argument("position", metavar="POSITION", help=POSITION_HELP)
    add_seed_argument(parser, f"seed of the setup rolls when POSITION is '{START}'")


def add_seed_argument(parser: argparse.ArgumentParser, text: str) -> None:
    """``--seed N``."""
    parser.add_argument("--seed", metavar="N", type=int, help=text)


def resolve_position(game: Game, text: str, seed: int | None) -> State:
    """The state that a POSITION argument names."""
    keyword = text.strip().lower()
    if keyword == START:
        return game.start(seed)
    if keyword == INITIAL:
        return game.initial_state()
    try:
        return game.parse(text)
    except ValueError as error:
        if len(text.split()) == 1:
            # the usual cause: a position string without quotes reaches us as its first field
            raise UsageError(
                f"{error} (a position string contains spaces: put it in quotes; "
                f"or use '{START}' or '{INITIAL}')"
            ) from None
        raise


def state_from_args(game: Game, args: argparse.Namespace) -> State:
    """The state of the POSITION argument (with ``--seed``)."""
    return resolve_position(game, args.position, args.seed)


def parse_squares(game: Game, text: str) -> tuple[str, ...]:
    """A comma-separated list of square (hex) names of ``game``, checked."""
    names = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    known = set(game.squares)
    for name in names:
        if name not in known:
            raise UsageError(
                f"{name!r} is not a square of {game.title} ({game.squares[0]}…{game.squares[-1]})"
            )
    return names


def bounded(
    kind: type[int] | type[float], low: float, high: float, rule: str
) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` from ``low`` to ``high``; ``rule`` is the
    sentence an out-of-range value is refused with (``"a port is between 1 and 65535"``)."""

    def convert(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            noun = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"expected {noun}, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{rule}, not {value:g}")
        return value

    return convert


def positive_float(text: str) -> float:
    """An argparse type: a number greater than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number greater than 0, not {text!r}")
    return value


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number of 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {value}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number of 1 or more."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {value}")
    return value
