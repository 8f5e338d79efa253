"""The game record: a game's start, moves, tags and comments, checked by replaying it."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from diceboard.core.errors import RecordError
from diceboard.core.game import Game, State
from diceboard.core.move import Move
from diceboard.core.outcome import Outcome
from diceboard.records.assemble import CommentsInput, Parts, assemble
from diceboard.records.decode import JSON_FORMAT, JSON_VERSION, parts_from_dict, parts_from_pgn
from diceboard.records.header import no_location, option_tags, outcome_of, winner_of
from diceboard.records.pgn import MovetextItem, format_game, movetext_tokens, split_games
from diceboard.records.replay import plain_locator
from diceboard.records.tags import (
    DATE_TAG,
    GAME_TAG,
    POSITION_TAG,
    RESULT_TAG,
    SEED_TAG,
    TERMINATION_TAG,
    format_date,
)


class GameRecord:
    """A recorded game: start state, moves, tags and comments, replayed and checked.

    A record holds only what the engine accepts: every move is replayed from the start when
    the record is made, and the tags are checked against the game, the start and the end.
    Moves are in canonical form: a Chaos move and its roll are one move (``b1-d2=4``).

    >>> import diceboard
    >>> game = diceboard.game("custodian", variant="chaos", placement="rolled")
    >>> state = game.start(seed=5).play("a1-a2").play("=6")
    >>> rec = GameRecord.from_state(state, players=("Alice", "Bob"))
    >>> rec.moves[-1], rec.result, rec.termination
    (Move('a1-a2=6'), '*', 'unterminated')
    >>> GameRecord.from_pgn(rec.to_pgn()) == rec
    True
    """

    __slots__ = ("_parts",)

    def __init__(
        self,
        start: State,
        moves: Iterable[Move | str] = (),
        *,
        tags: Mapping[str, str] | None = None,
        comments: CommentsInput | None = None,
        glyphs: Mapping[int, str] | None = None,
    ) -> None:
        """Replay ``moves`` (Moves or their notation) from ``start``.

        ``tags`` may hold any tags; the ones the game decides (Game, the option tags,
        Position, and Result and Termination of a game the rules ended) must agree with it.
        ``comments`` maps the number of moves a comment follows (0: before the first move)
        to one comment or a list of them; ``glyphs`` maps the number of a move (1 for the
        first) to its annotation glyph (``?!``, ``?``, ``??``, ``!``, ``!!``, ``!?``).
        Raises :class:`RecordError`.
        """
        if not isinstance(start, State):
            raise RecordError(f"a record starts from a State, not {type(start).__name__}")
        if isinstance(moves, str):
            raise RecordError("moves must be a list of moves, not one string")
        self._parts = assemble(
            start,
            list(moves),
            tags or {},
            comments,
            plain_locator,
            no_location,
            glyphs=glyphs,
        )

    @classmethod
    def _of(cls, parts: Parts) -> GameRecord:
        record = cls.__new__(cls)
        record._parts = parts
        return record

    @classmethod
    def from_state(
        cls,
        state: State,
        players: Sequence[str | None] | None = None,
        date: datetime.date | str | None = None,
        seed: int | None = None,
        tags: Mapping[str, str] | None = None,
        outcome: Outcome | None = None,
        comments: CommentsInput | None = None,
        glyphs: Mapping[int, str] | None = None,
    ) -> GameRecord:
        """The record of the game that led to ``state``: ``state.move_stack()`` played from
        ``state.root()``.

        ``players`` are the two players' names, first player first (``None`` for unknown);
        ``date`` a date or a ``YYYY.MM.DD`` string; ``seed`` the seed the game was played
        with; ``tags`` any further tags. ``outcome`` ends a game that the rules have not ended
        (``Outcome("W", "resignation", "1-0")``); the Result and Termination tags may do the
        same. A value given both ways must agree.
        """
        if not isinstance(state, State):
            raise RecordError(f"from_state takes a State, not {type(state).__name__}")
        game = state.game
        merged = dict(tags or {})
        if players is not None:
            if isinstance(players, str) or len(players) != 2:
                raise RecordError(
                    f"players are the two players' names (first player first), not {players!r}"
                )
            for colour, player in zip(game.player_names, players, strict=True):
                if player is not None:
                    _merge(merged, colour, player, "players")
        if date is not None:
            _merge(merged, DATE_TAG, format_date(date), "date")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise RecordError(f"seed must be a whole number, not {seed!r}")
            _merge(merged, SEED_TAG, str(seed), "seed")
        if outcome is not None:
            _merge_outcome(game, merged, outcome)
        return cls(state.root(), state.move_stack(), tags=merged, comments=comments, glyphs=glyphs)

    # --- contents ----------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game (rules and options) that was played."""
        return self._parts.states[0].game

    @property
    def tags(self) -> dict[str, str]:
        """Every tag, in canonical order (a copy)."""
        return dict(self._parts.tags)

    @property
    def start(self) -> State:
        """The state the game started from."""
        return self._parts.states[0]

    @property
    def moves(self) -> list[Move]:
        """The moves, in canonical notation, from the start on."""
        return list(self._parts.moves)

    @property
    def comments(self) -> dict[int, tuple[str, ...]]:
        """Comments by the number of moves they follow (0: before the first move)."""
        return dict(self._parts.comments)

    @property
    def glyphs(self) -> dict[int, str]:
        """Annotation glyphs by the number of the move they mark (1 for the first move)."""
        return dict(self._parts.glyphs)

    @property
    def result(self) -> str:
        """``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unknown or still in play)."""
        return self._parts.tags[RESULT_TAG]

    @property
    def termination(self) -> str:
        """How the game ended: an outcome reason, or ``unterminated``."""
        return self._parts.tags[TERMINATION_TAG]

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (by the rules or not), or ``None`` for a result of ``*``."""
        return outcome_of(self.game, self.result, self.termination)

    @property
    def players(self) -> tuple[str, str]:
        """The two players' names, first player first (``?`` for unknown)."""
        first, second = self.game.player_names
        return self._parts.tags[first], self._parts.tags[second]

    @property
    def date(self) -> str:
        """The Date tag: ``YYYY.MM.DD``, with ``?`` for unknown parts."""
        return self._parts.tags[DATE_TAG]

    @property
    def seed(self) -> int | None:
        """The seed the game was played with, if known."""
        seed = self._parts.tags.get(SEED_TAG)
        return None if seed is None else int(seed)

    def states(self) -> list[State]:
        """Every state from the start to the end: one more than there are moves."""
        return list(self._parts.states)

    def final_state(self) -> State:
        """The state after the last move (its ``move_stack()`` is :attr:`moves`)."""
        return self._parts.states[-1]

    # --- PGN ---------------------------------------------------------------------------------
    def to_pgn(self) -> str:
        """The record as PGN-style text (tag pairs, a blank line, the movetext)."""
        players = self.game.players
        glyphs = self._parts.glyphs
        items = [
            MovetextItem(
                move.notation,
                None if state.is_chance() else players.index(state.to_move),
                glyphs.get(i + 1, ""),
            )
            for i, (move, state) in enumerate(
                zip(self._parts.moves, self._parts.states, strict=False)
            )
        ]
        tokens = movetext_tokens(items, self._parts.comments, self.result)
        return format_game(self._parts.tags, tokens)

    @classmethod
    def from_pgn(cls, text: str) -> GameRecord:
        """The one game in PGN-style ``text`` (:func:`read_pgn` reads several)."""
        if not isinstance(text, str):
            raise RecordError(f"from_pgn takes the PGN text as a string, not {type(text).__name__}")
        games = split_games(text)
        if len(games) != 1:
            raise RecordError(
                f"the text holds {len(games)} games, not exactly one; read_pgn reads several"
            )
        return cls._of(parts_from_pgn(games[0]))

    # --- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (the ``diceboard-record`` format, version 1)."""
        game = self.game
        glyphs = self._parts.glyphs
        own_field = {GAME_TAG, POSITION_TAG, RESULT_TAG, TERMINATION_TAG, *option_tags(game)}
        return {
            "format": JSON_FORMAT,
            "version": JSON_VERSION,
            "game": game.name,
            "options": game.non_default_options(),
            "tags": {k: v for k, v in self._parts.tags.items() if k not in own_field},
            "start": self._parts.tags.get(POSITION_TAG),
            "moves": [move.notation for move in self._parts.moves],
            "result": self.result,
            "termination": self.termination,
            "comments": {str(k): list(v) for k, v in self._parts.comments.items()},
            **({"glyphs": {str(k): v for k, v in glyphs.items()}} if glyphs else {}),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The record as JSON text (see :meth:`to_dict`): one line with ``indent=None``,
        else one top-level field a line (the moves on one line), indented by ``indent``."""
        doc = self.to_dict()
        if indent is None:
            return json.dumps(doc, ensure_ascii=False)
        pad = " " * indent
        fields = (
            f"{pad}{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in doc.items()
        )
        return "{\n" + ",\n".join(fields) + "\n}\n"

    @classmethod
    def from_dict(cls, doc: Mapping[str, Any]) -> GameRecord:
        """The record that a ``diceboard-record`` dict describes, or an Abstract Play export
        (see :mod:`diceboard.records.abstractplay`)."""
        from diceboard.records.abstractplay import is_abstractplay, parts_from_abstractplay

        if is_abstractplay(doc):
            return cls._of(parts_from_abstractplay(doc))
        return cls._of(parts_from_dict(doc))

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """The record that ``diceboard-record`` JSON text describes."""
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc}") from None
        except (TypeError, UnicodeDecodeError) as exc:
            raise RecordError(f"the record is not JSON text: {exc}") from None
        return cls.from_dict(doc)

    # --- comparison --------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        mine, theirs = self._parts, other._parts
        return (
            mine.states[0] == theirs.states[0]
            and mine.moves == theirs.moves
            and mine.tags == theirs.tags
            and mine.comments == theirs.comments
            and mine.glyphs == theirs.glyphs
        )

    __hash__ = None  # type: ignore[assignment]  # records compare by value but are not frozen

    def __repr__(self) -> str:
        first, second = self.game.player_names
        white, black = self.players
        return (
            f"<GameRecord {self.game.title}: {first} {white!r} vs {second} {black!r}, "
            f"{self.result} ({self.termination}), {len(self._parts.moves)} moves>"
        )


def _merge(tags: dict[str, str], name: str, value: str, source: str) -> None:
    """Set tag ``name`` from the parameter ``source``; a tag already given must agree."""
    if name in tags and tags[name] != value:
        raise RecordError(f"the {name} tag {tags[name]!r} disagrees with {source} ({value!r})")
    tags[name] = value


def _merge_outcome(game: Game, tags: dict[str, str], outcome: Outcome) -> None:
    if not isinstance(outcome, Outcome):
        raise RecordError(f"outcome must be an Outcome, not {type(outcome).__name__}")
    if outcome.result in ("1-0", "0-1", "1/2-1/2") and winner_of(game, outcome.result) != (
        outcome.winner
    ):
        raise RecordError(
            f"the outcome {outcome} names {outcome.winner!r} as the winner, which a result of "
            f"{outcome.result} does not"
        )
    _merge(tags, RESULT_TAG, outcome.result, "outcome")
    _merge(tags, TERMINATION_TAG, outcome.reason, "outcome")
