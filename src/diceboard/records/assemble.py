"""Putting a record together: replay its moves, settle its tags, place its comments.

Every way of making a record (from a state, from PGN text, from JSON) ends here, so every
record is checked the same way and holds the same canonical form.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from diceboard.core.errors import RecordError
from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.records.header import ResultToken, TagLocator, agree_result_token, settle_tags
from diceboard.records.pgn import GLYPHS, comment_token, normalise_newlines
from diceboard.records.replay import MoveLocator, replay

#: comments as given: the number of moves they follow -> one comment or several
CommentsInput = Mapping[int, str | Iterable[str]]


@dataclass(frozen=True, slots=True)
class Parts:
    """A checked record: its moves, every state (``states[0]`` the start), its canonical
    tags, and its comments by the number of moves they follow."""

    moves: tuple[Move, ...]
    states: tuple[State, ...]
    tags: dict[str, str]
    comments: dict[int, tuple[str, ...]]
    #: annotation glyphs by the number of moves up to and including the move they mark
    glyphs: dict[int, str] = field(default_factory=dict)


def assemble(
    start: State,
    moves: Sequence[Move | str],
    tags: Mapping[str, str],
    comments: CommentsInput | None,
    locate_move: MoveLocator,
    locate_tag: TagLocator,
    result_token: ResultToken | None = None,
    glyphs: Mapping[int, str] | None = None,
) -> Parts:
    """Check and canonicalise a record (:class:`RecordError` says what is wrong, and where).

    ``result_token`` is the result token that ended the movetext of a PGN game, if any."""
    played = replay(start, moves, locate_move)
    final = played.states[-1]
    if result_token is not None:
        tags = agree_result_token(final, tags, result_token)
    settled = settle_tags(start, final, tags, locate_tag)
    notes = place_comments(comments or {}, played.index, len(moves))
    marks = place_glyphs(glyphs or {}, played.index, len(moves))
    return Parts(played.moves, played.states, settled, notes, marks)


def place_glyphs(glyphs: Mapping[int, str], index: Sequence[int], given: int) -> dict[int, str]:
    """Glyphs keyed by the given move they mark (1 for the first), re-keyed by record moves
    (a glyph on either half of a joined move marks the joined move)."""
    placed: dict[int, str] = {}
    for after, glyph in glyphs.items():
        if isinstance(after, bool) or not isinstance(after, int) or not 1 <= after <= given:
            raise RecordError(f"an annotation glyph marks a move from 1 to {given}, not {after!r}")
        if glyph not in GLYPHS:
            raise RecordError(
                f"the annotation glyph of move {after} must be one of {' '.join(GLYPHS)}, "
                f"not {glyph!r}"
            )
        placed[index[after - 1] + 1] = glyph
    return {key: placed[key] for key in sorted(placed)}


def place_comments(
    comments: CommentsInput, index: Sequence[int], given: int
) -> dict[int, tuple[str, ...]]:
    """Comments keyed by the number of given moves they follow, re-keyed by the number of
    record moves (joined moves count once), with ``\n`` line ends and their outer whitespace
    stripped, as a reader would see them."""
    placed: dict[int, list[str]] = {}
    for after, texts in comments.items():
        if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after <= given:
            raise RecordError(
                f"a comment is placed after a number of moves from 0 to {given}, not {after!r}"
            )
        if isinstance(texts, str):
            texts = [texts]
        for text in texts:
            if not isinstance(text, str):
                raise RecordError(
                    f"the comment after move {after} must be text, not {type(text).__name__}"
                )
            text = normalise_newlines(text).strip()
            try:
                comment_token(text)
            except RecordError as exc:
                raise RecordError(f"the comment after move {after}: {exc}") from None
            key = 0 if after == 0 else index[after - 1] + 1
            placed.setdefault(key, []).append(text)
    return {key: tuple(placed[key]) for key in sorted(placed)}
