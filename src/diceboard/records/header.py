"""The tags that describe a game, checked against the game, its start and its replay.

:func:`game_of` makes the game that a Game tag and the option tags name; :func:`settle_tags`
turns any given tags into a record's canonical tag list: the tags that the game, its start
position and its end decide come first (and must agree with them where they were given),
then every other tag in the order given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from diceboard.core.errors import OptionError, PositionError, RecordError
from diceboard.core.game import Game, State
from diceboard.core.outcome import Outcome
from diceboard.games import by_title, infos, names
from diceboard.games import game as make_game
from diceboard.records.tags import (
    DATE_TAG,
    EXTERNAL_TERMINATIONS,
    GAME_TAG,
    POSITION_TAG,
    RESULT_TAG,
    RULE_TERMINATIONS,
    SEED_TAG,
    TERMINATION_TAG,
    UNKNOWN_DATE,
    UNKNOWN_PLAYER,
    UNKNOWN_RESULT,
    UNTERMINATED,
    VARIANT_TAG,
    check_date,
    check_result,
    check_seed,
    check_tag_name,
    check_tag_value,
    check_termination,
    option_tag,
)

#: tag name (or ``None`` for the game as a whole) -> the prefix that locates it in the
#: input, such as ``"game 2, line 5: "``; ``""`` where there is no text to point into
TagLocator = Callable[[str | None], str]


def no_location(tag: str | None) -> str:
    """The locator of tags given through the API: no prefix."""
    return ""


def game_name(title: str) -> str | None:
    """The registered game name of a Game tag, which holds the game's title or one of its
    names (any case; spaces may stand for hyphens); ``None`` for an unknown game.

    >>> game_name("Custodian Dice"), game_name("custodian dice"), game_name("go")
    ('custodian', 'custodian', None)
    """
    key = title.strip()
    found = by_title(key) or by_title(key.replace(" ", "-"))
    return None if found is None else found.name


def known_games() -> str:
    """The games a Game tag can name, for error messages."""
    return ", ".join(sorted(names()))


def build_game(name: str, options: Mapping[str, Any], where: str) -> Game:
    """The game ``name`` with ``options`` (``variant`` among them), or a RecordError that
    starts with ``where``."""
    opts = dict(options)
    variant = opts.pop("variant", None)
    try:
        return make_game(name, None if variant is None else str(variant), **opts)
    except OptionError as exc:
        raise RecordError(f"{where}{exc}") from None
    except ImportError as exc:
        raise RecordError(f"{where}{name} is not available in this installation: {exc}") from None


def option_tags(game: Game) -> dict[str, str]:
    """Tag name -> option name, for every option of ``game`` and ``Variant``."""
    tags = {option_tag(name): name for name in game.options}
    tags[VARIANT_TAG] = "variant"
    return tags


def option_text(value: object) -> str:
    """An option value as a tag writes it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def game_of(tags: Mapping[str, str], locate: TagLocator) -> Game:
    """The game that the Game tag and the option tags of ``tags`` name."""
    title = tags.get(GAME_TAG)
    if title is None:
        raise RecordError(
            f"{locate(None)}the game has no Game tag; a record names its game first, like "
            f'[Game "{infos()[0].title}"] (games: {known_games()})'
        )
    name = game_name(title)
    if name is None:
        raise RecordError(
            f"{locate(GAME_TAG)}the Game tag names an unknown game {title!r}; "
            f"games: {known_games()}"
        )
    by_tag = option_tags(build_game(name, {}, locate(GAME_TAG)))
    given = [tag for tag in tags if tag in by_tag]
    options = {by_tag[tag]: tags[tag] for tag in given}
    return build_game(name, options, locate(given[0] if given else GAME_TAG))


def parse_start(game: Game, position: str, where: str) -> State:
    """The start state that a Position tag (or a JSON record's start) describes."""
    try:
        return game.parse(position)
    except PositionError as exc:
        raise RecordError(f"{where}the start position {position!r} is not valid: {exc}") from None


def winner_of(game: Game, result: str) -> str | None:
    """The letter of the player that ``result`` (not ``*``) names as the winner."""
    if result == "1/2-1/2":
        return None
    return game.players[0] if result == "1-0" else game.players[1]


def settle_outcome(
    final: State, result: str | None, termination: str | None, locate: TagLocator
) -> tuple[str, str]:
    """The Result and Termination of a record whose replay ends in ``final``.

    A game that the rules ended takes its result and reason from the replay (tags that say
    ``*`` or ``unterminated`` just did not know). A game still in play in ``final`` ends as
    the tags say: ``*`` / ``unterminated``, or a result with an ending outside the rules
    (``timeout``, ``resignation``: a win; ``agreement``: a draw).
    """
    if result is not None:
        result = _checked(locate, RESULT_TAG, check_result, result)
    if termination is not None:
        termination = _checked(locate, TERMINATION_TAG, check_termination, termination)
    ended = final.outcome()
    if ended is not None:
        if result not in (None, UNKNOWN_RESULT, ended.result):
            raise RecordError(
                f"{locate(RESULT_TAG)}the Result tag says {result}, but the replayed game "
                f"ended {ended.result} by {ended.reason}"
            )
        if termination not in (None, UNTERMINATED, ended.reason):
            raise RecordError(
                f"{locate(TERMINATION_TAG)}the Termination tag says {termination}, but the "
                f"replayed game ended {ended.result} by {ended.reason}"
            )
        return ended.result, ended.reason
    external = ", ".join(EXTERNAL_TERMINATIONS)
    if result is None or result == UNKNOWN_RESULT:
        if termination not in (None, UNTERMINATED):
            raise RecordError(
                f"{locate(TERMINATION_TAG)}the Termination tag says {termination}, but the "
                "Result is * (the game goes on): give the result it ended with"
            )
        return UNKNOWN_RESULT, UNTERMINATED
    if termination is None or termination == UNTERMINATED:
        raise RecordError(
            f"{locate(RESULT_TAG)}the Result is {result} but the replayed game has not ended "
            f"({final}): a game stopped before the rules end it needs a Termination tag "
            f"({external})"
        )
    if termination in RULE_TERMINATIONS:
        raise RecordError(
            f"{locate(TERMINATION_TAG)}the Termination tag says {termination}, but the "
            f"replayed game has not ended ({final}); a game stopped before the rules end it "
            f"ends by {external}"
        )
    if termination == "resignation" and result == "1/2-1/2":
        raise RecordError(
            f"{locate(RESULT_TAG)}a resignation has a winner: the Result must be 1-0 or 0-1, "
            "not 1/2-1/2"
        )
    if termination == "agreement" and result != "1/2-1/2":
        raise RecordError(
            f"{locate(RESULT_TAG)}a game ended by agreement is drawn: the Result must be "
            f"1/2-1/2, not {result}"
        )
    return result, termination


@dataclass(frozen=True, slots=True)
class ResultToken:
    """The result token that ends a PGN movetext, and where it stands (``"game 1, line 9: "``)."""

    text: str
    where: str


def agree_result_token(
    final: State, tags: Mapping[str, str], token: ResultToken
) -> Mapping[str, str]:
    """``tags``, checked against a result token: the token must agree with the replay and
    with a Result tag that says something; where the Result tag says nothing (missing or
    ``*``) and the rules have not ended the game, the token takes its place."""
    if token.text == UNKNOWN_RESULT:
        return tags
    ended = final.outcome()
    if ended is not None and token.text != ended.result:
        raise RecordError(
            f"{token.where}the result token {token.text} disagrees with the replayed game, "
            f"which ended {ended.result} by {ended.reason}"
        )
    tagged = tags.get(RESULT_TAG)
    if tagged not in (None, UNKNOWN_RESULT, token.text):
        raise RecordError(
            f"{token.where}the result token {token.text} disagrees with the Result tag {tagged}"
        )
    if ended is not None or tagged == token.text:
        return tags
    return {**tags, RESULT_TAG: token.text}


def outcome_of(game: Game, result: str, termination: str) -> Outcome | None:
    """The :class:`Outcome` that a Result and a Termination make (``None`` for ``*``)."""
    if result == UNKNOWN_RESULT:
        return None
    return Outcome(winner_of(game, result), termination, result)


def settle_tags(
    start: State, final: State, given: Mapping[str, str], locate: TagLocator
) -> dict[str, str]:
    """The canonical tags of a record from ``start`` to ``final``, given ``given``.

    Order: Game, the option tags (``game.non_default_options()``), the two players, Date,
    Result, Termination, Position (only for a start other than the standard one), Seed, then
    every other tag of ``given`` in its order. Where ``given`` has one of the first kind it
    must agree with the game, start and replay.
    """
    game = start.game
    tags: dict[str, str] = {}
    for name, value in given.items():
        where = locate(name) if isinstance(name, str) else locate(None)
        try:
            tags[check_tag_name(name)] = check_tag_value(name, value)
        except RecordError as exc:
            raise RecordError(f"{where}{exc}") from None
    _check_game_tags(game, tags, locate)
    out: dict[str, str] = {GAME_TAG: game.title}
    for name, value in game.non_default_options().items():
        out[option_tag(name)] = option_text(value)
    for colour in game.player_names:
        out[colour] = tags.get(colour, UNKNOWN_PLAYER)
    date = tags.get(DATE_TAG)
    out[DATE_TAG] = UNKNOWN_DATE if date is None else _checked(locate, DATE_TAG, check_date, date)
    out[RESULT_TAG], out[TERMINATION_TAG] = settle_outcome(
        final, tags.get(RESULT_TAG), tags.get(TERMINATION_TAG), locate
    )
    position = _start_position(start, tags.get(POSITION_TAG), locate)
    if position is not None:
        out[POSITION_TAG] = position
    if SEED_TAG in tags:
        out[SEED_TAG] = str(_checked(locate, SEED_TAG, check_seed, tags[SEED_TAG]))
    reserved = {*out, *option_tags(game), POSITION_TAG, SEED_TAG}
    out.update((name, value) for name, value in tags.items() if name not in reserved)
    return out


def _checked(locate: TagLocator, tag: str, check: Callable[[str], Any], value: str) -> Any:
    """``check(value)``, with a failure located at ``tag``."""
    try:
        return check(value)
    except RecordError as exc:
        raise RecordError(f"{locate(tag)}{exc}") from None


def _check_game_tags(game: Game, tags: Mapping[str, str], locate: TagLocator) -> None:
    """Given Game and option tags must describe ``game``."""
    title = tags.get(GAME_TAG)
    if title is not None and game_name(title) != game.name:
        raise RecordError(
            f"{locate(GAME_TAG)}the Game tag says {title!r}, but the record is a game of "
            f"{game.title}"
        )
    by_tag = option_tags(game)
    given = [tag for tag in tags if tag in by_tag]
    if given:
        options = {by_tag[tag]: tags[tag] for tag in given}
        described = build_game(game.name, options, locate(given[0]))
        if described != game:
            listed = ", ".join(f'{tag} "{tags[tag]}"' for tag in given)
            raise RecordError(
                f"{locate(given[0])}the option tags ({listed}) describe {described!r}, "
                f"but the record's game is {game!r}"
            )


def _start_position(start: State, given: str | None, locate: TagLocator) -> str | None:
    """The Position tag of a record that starts at ``start`` (``None`` for the standard
    start), checked against a given Position tag."""
    game = start.game
    if given is not None and parse_start(game, given, locate(POSITION_TAG)) != start:
        raise RecordError(
            f"{locate(POSITION_TAG)}the Position tag {given!r} is not the record's start "
            f"position {str(start)!r}"
        )
    if start == game.initial_state():
        return None
    position = str(start)
    try:
        same = game.parse(position) == start
    except PositionError:
        same = False
    if not same:
        raise RecordError(
            f"the start position {position!r} reads back as a different state, so a record "
            "cannot hold it (was the start state made by parse() or initial_state()?)"
        )
    return position
