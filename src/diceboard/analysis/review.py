"""Game review: every decision of a record weighed by the engine.

For each decision (a state where a player chose among two or more legal moves) one search
(``analyse``, every root move searched to the same budget) gives the value of the best move
and of the move played; the calibration (:mod:`.calibration`) turns both into the mover's
win probability, *before* (what the position was worth with best play) and *after* (what it
is worth after the move played). Their difference is the move's **loss**:

- inaccuracy ``?!``: a loss of at least :data:`INACCURACY` (5 points of win probability),
- mistake ``?``: at least :data:`MISTAKE` (10 points),
- blunder ``??``: at least :data:`BLUNDER` (20 points).

A side's **accuracy** is ``100 · (1 - mean loss)`` over its decisions: 100 for a game of
best moves (by the reviewing engine's lights), lower by a point for every point of win
probability given away on average. Chance outcomes and forced moves are not reviewed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from diceboard.analysis.calibration import win_probability
from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.records.record import GameRecord

#: the agent a review uses unless told otherwise (a draw is worth exactly half to it)
DEFAULT_AGENT = "alphabeta:depth=3,contempt=0"
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.20
#: glyph -> its name, worst last
KINDS = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}


def glyph_of(loss: float) -> str:
    """The annotation glyph of a move that loses ``loss`` of win probability ("" if none)."""
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    if loss >= INACCURACY:
        return "?!"
    return ""


@dataclass(frozen=True)
class Decision:
    """One reviewed move: ``index`` is its place in the record (0 for the first move)."""

    index: int
    player: str
    played: Move
    best: Move
    value_played: float
    value_best: float
    #: the mover's win probability before the move (best play) and after the move played
    before: float
    after: float

    @property
    def loss(self) -> float:
        """Win probability the move gave away (never below 0)."""
        return max(0.0, self.before - self.after)

    @property
    def glyph(self) -> str:
        """``?!``, ``?``, ``??`` or ""."""
        return "" if self.played_best else glyph_of(self.loss)

    @property
    def played_best(self) -> bool:
        """Whether the move played was the engine's choice."""
        return self.played.actions[: len(self.best.actions)] == self.best.actions

    def comment(self) -> str:
        """The comment written after a marked move."""
        return (
            f"{KINDS[self.glyph]}: {self.best} was better; win probability "
            f"{self.before:.0%} before, {self.after:.0%} after"
        )


@dataclass(frozen=True)
class SideSummary:
    """One player's figures in a review."""

    player: str
    decisions: int
    mean_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int

    @property
    def accuracy(self) -> float:
        """``100 · (1 - mean loss)``."""
        return 100.0 * (1.0 - self.mean_loss)


@dataclass(frozen=True)
class Review:
    """A reviewed record: its decisions, the agent that weighed them and the time taken."""

    record: GameRecord
    agent: str
    decisions: tuple[Decision, ...]
    seconds: float

    def side(self, player: str) -> SideSummary:
        """The figures of ``player`` (a player letter)."""
        mine = [d for d in self.decisions if d.player == player]
        glyphs = [d.glyph for d in mine]
        return SideSummary(
            player,
            len(mine),
            sum(d.loss for d in mine) / len(mine) if mine else 0.0,
            glyphs.count("?!"),
            glyphs.count("?"),
            glyphs.count("??"),
        )

    def annotated(self) -> GameRecord:
        """The record with a glyph and a comment on every marked move (its own comments
        and glyphs kept where the review has nothing to say)."""
        rec = self.record
        comments: dict[int, list[str]] = {k: list(v) for k, v in rec.comments.items()}
        glyphs = rec.glyphs
        for d in self.decisions:
            if d.glyph:
                glyphs[d.index + 1] = d.glyph
                comments.setdefault(d.index + 1, []).append(d.comment())
        return GameRecord(rec.start, rec.moves, tags=rec.tags, comments=comments, glyphs=glyphs)


def review_decision(state: State, played: Move, analyser: object, index: int) -> Decision | None:
    """The review of ``played`` in ``state`` (``None`` for a chance outcome or a forced
    move). ``analyser`` is an agent (anything with ``analyse(state)``)."""
    if state.is_chance() or len(state.legal_moves()) < 2:
        return None
    analysis = analyser.analyse(state)  # type: ignore[attr-defined]
    values = {stats.move.actions: stats.value for stats in analysis.moves}
    own = next(
        (a for a in values if played.actions[: len(a)] == a),
        None,
    )
    if own is None:
        raise ValueError(f"move {index + 1} {played} is not among the searched moves")
    name = state.game.name
    before = win_probability(name, analysis.value)
    after = win_probability(name, values[own])
    return Decision(
        index, state.to_move, played, analysis.best, values[own], analysis.value, before, after
    )


def review(
    record: GameRecord,
    agent_spec: str = DEFAULT_AGENT,
    seed: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every decision of ``record`` with ``agent_spec`` (seeded: the same answer
    every time for a depth-limited agent)."""
    from diceboard.ai import agent

    analyser = agent(agent_spec, seed=seed)
    began = time.perf_counter()
    states = record.states()
    moves = record.moves
    found: list[Decision] = []
    for i, move in enumerate(moves):
        decision = review_decision(states[i], move, analyser, i)
        if decision is not None:
            found.append(decision)
        if progress is not None:
            progress(i + 1, len(moves))
    return Review(record, agent_spec, tuple(found), time.perf_counter() - began)


def summary_text(result: Review) -> str:
    """The review's figures as text: one line a side, then the marked moves."""
    rec = result.record
    game = rec.game
    lines = [
        f"{game.title}: {len(result.decisions)} decisions reviewed by {result.agent} "
        f"in {result.seconds:.1f} s"
    ]
    for letter, colour, name in zip(game.players, game.player_names, rec.players, strict=True):
        side = result.side(letter)
        lines.append(
            f"{colour} ({name}): accuracy {side.accuracy:.1f} (mean win-probability loss "
            f"{side.mean_loss:.3f} over {side.decisions} moves); {side.inaccuracies} "
            f"inaccuracies, {side.mistakes} mistakes, {side.blunders} blunders"
        )
    for d in result.decisions:
        if d.glyph:
            lines.append(f"  move {d.index + 1} {d.played}{d.glyph}  {d.comment()}")
    return "\n".join(lines)
