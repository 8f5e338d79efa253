"""How hard a puzzle is: a difficulty from 1 (seen at a glance) to 5 (a hard find), made from
several signals a solver meets, each measured by the engine and kept with the puzzle.

The signals (:class:`Signals`):

- ``level``: the weakest computer level (``level:N``, 1 to 8) that plays an accepted move
  at least half the time. A level below 8 plays a uniformly random move one time in so many
  (its ``epsilon``) and its search's move otherwise, so the chance is exact, not sampled:
  ``(1 - epsilon) * [the search's move is accepted] + epsilon * accepted / legal``. The
  searches of levels 1-3 look one move ahead, level 4 two, level 5 three; levels 6-8 search
  by time, which is not repeatable, so they are taken at the proof's depth (4), which finds
  every puzzle by construction. A puzzle no level solves that often is rated as level 6.
- ``depth``: the shallowest search depth (1-4) whose best move is accepted.
- ``horizon``: how many plies ahead the solver must see to know why the move works: for a
  win, the plies to the end of the solution line; for material, the plies until the mover has
  more dice than now; for a save, the plies until the best other move has lost a die.
- ``glance_gap``: at a glance (a depth-1 search) how much more win probability the solution
  seems to give than the best other move; compared with the real (deep) gap it says how much
  the solution hides (``temptation``: 0 when it looks as good as it is, 1 when it looks no
  better than another move).
- ``rivals``: the other moves that at a glance look nearly as good as the solution (closer
  to it than half of what it really gains over the best of them): the candidates a solver
  must see through.
- ``families``: the moves to choose from (moves differing only in a face counted once).
- ``steps``: how far the solution's dice travel (the steps of the paths the game draws for
  it, :meth:`~diceboard.core.game.State.move_segments`): a long walk or a chain of bumps is
  harder to see than a step next door.

The score adds points (:data:`WEIGHTS`): the depth beyond 1, half a point a ply of horizon
beyond the first, one and a half points of temptation, half a point a rival (at most four),
half a point for each doubling of the choice beyond 16 moves (at most one point), and a
quarter point a step of the solution's path beyond two (at most one point). The
difficulty is 1 plus the number of whole points reached, at most 5: a capture or win in one
with nothing else close is 1; a move whose point shows three plies later, or that the glance
prefers another move to, is 3 or more. Everything is deterministic: the searches are
depth-limited and seeded.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from diceboard.ai.levels import LEVELS, level_specs
from diceboard.ai.specs import parse_spec
from diceboard.analysis.calibration import win_probability
from diceboard.analysis.puzzle_terms import family
from diceboard.core.game import Game, State

#: the deepest search a rating runs: the puzzles' proof depth (levels 6-8 are taken at it)
RATING_DEPTH = 4
#: the search that stands for a solver's first look: the position after the move, judged by
#: the evaluation alone (a depth-2 look, which reads the reply too, already finds nearly every
#: shipped solution clearly: 189 of 200 Custodian puzzles would rate 1, and it says nothing)
GLANCE_DEPTH = 1
#: the highest difficulty
TOP = 5
#: points a signal adds to the score (see the module's description)
WEIGHTS = {
    "depth": 1.0,
    "horizon": 0.5,
    "temptation": 1.5,
    "rivals": 0.5,
    "choice": 0.5,
    "steps": 0.25,
}
#: path steps that add nothing (a step or two next door), and the most that count
SHORT_PATH = 2
MAX_STEPS = 6
MAX_RIVALS = 4
#: moves to choose from below which the choice adds nothing; each doubling adds a point's half
FEW_MOVES = 16
MAX_CHOICE_DOUBLINGS = 2.0


@dataclass(frozen=True)
class Signals:
    """What the rating is made from (see the module's description)."""

    level: int
    depth: int
    horizon: int
    glance_gap: float
    temptation: float
    rivals: int
    families: int
    steps: int


@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty (1-5), its score in points and the signals behind it."""

    difficulty: int
    score: float
    signals: Signals

    def as_json(self) -> dict[str, Any]:
        """The rating as a puzzle stores it (``signals`` with ``score``)."""
        return {"score": self.score, **asdict(self.signals)}


def score_of(signals: Signals) -> float:
    """The points of ``signals`` (:data:`WEIGHTS`), rounded to a hundredth."""
    choice = min(MAX_CHOICE_DOUBLINGS, max(0.0, math.log2(max(signals.families, 1) / FEW_MOVES)))
    points = (
        WEIGHTS["depth"] * (signals.depth - 1)
        + WEIGHTS["horizon"] * max(0, signals.horizon - 1)
        + WEIGHTS["temptation"] * signals.temptation
        + WEIGHTS["rivals"] * min(signals.rivals, MAX_RIVALS)
        + WEIGHTS["choice"] * choice
        + WEIGHTS["steps"] * max(0, min(signals.steps, MAX_STEPS) - SHORT_PATH)
    )
    return round(points, 2)


def difficulty_of(score: float) -> int:
    """1 plus the whole points reached, at most :data:`TOP`."""
    return max(1, min(TOP, 1 + math.floor(score + 1e-9)))


def _balance(state: State, player: str) -> int:
    counts = state.dice_counts()
    return 2 * counts[player] - sum(counts.values())


def horizon(state: State, theme: str, line: Sequence[str], refutation: Sequence[str]) -> int:
    """The plies to see ahead (see the module's description): along ``line`` for a win or
    material, along ``refutation`` (the best other move's line) for a save; the whole line
    where the point never shows on it."""
    me = state.to_move
    now = _balance(state, me)
    moves = refutation if theme == "save" else line
    current = state
    for ply, text in enumerate(moves, 1):
        if current.is_terminal() or current.is_chance():
            break
        current = current.play(text)
        if theme == "win" and current.is_terminal():
            return ply
        if theme == "material" and _balance(current, me) > now:
            return ply
        if theme == "save" and _balance(current, me) < now:
            return ply
    return max(1, len(moves))


def _level_of(
    name: str,
    solved_at: dict[int, bool],
    share: float,
) -> int:
    """The weakest level that plays an accepted move at least half the time (``solved_at``:
    depth -> whether that depth's search finds it; ``share``: accepted / legal moves)."""
    for level in sorted(LEVELS):
        kind, params = parse_spec(level_specs(name)[level])
        epsilon = float(params.get("epsilon", 0.0))
        depth = 1 if kind == "greedy" else int(params.get("depth", RATING_DEPTH))
        found = solved_at.get(min(depth, RATING_DEPTH), True)
        if (1.0 - epsilon) * found + epsilon * share >= 0.5:
            return level
    return 6


def rate(puzzle: dict[str, Any], game: Game) -> Rating:
    """The rating of ``puzzle`` (a puzzle's JSON fields: ``position``, ``accepted``,
    ``theme``, ``line``, ``refutation``, ``solved``, ``second``) in ``game``."""
    from diceboard.ai import agent

    name = game.name
    state = game.parse(puzzle["position"])
    legal = state.legal_moves()
    accepted_moves = [state.parse_move(t) for t in puzzle.get("accepted") or [puzzle["solution"]]]
    solutions: set[Hashable] = {family(m) for m in accepted_moves}
    accepted_set = set(accepted_moves)
    share = sum(1 for m in legal if m in accepted_set) / len(legal)

    solved_at: dict[int, bool] = {}
    glance = None
    for depth in range(1, RATING_DEPTH):
        seen = agent(f"alphabeta:depth={depth},contempt=0", seed=1).analyse(state)
        if depth == GLANCE_DEPTH:
            glance = seen
        solved_at[depth] = seen.best in accepted_set
    solved_at[RATING_DEPTH] = True
    depth_needed = next(d for d in sorted(solved_at) if solved_at[d])
    assert glance is not None

    # the solution's faces count as the solution; another face of its walk is no rival
    mine = 0.0
    by_family: dict[Hashable, float] = {}
    for stats in glance.moves:
        key = family(stats.move)
        p = win_probability(name, stats.value)
        by_family[key] = max(p, by_family.get(key, 0.0))
        if stats.move in accepted_set:
            mine = max(mine, p)
    others = [p for key, p in by_family.items() if key not in solutions]
    best_other = max(others) if others else 0.0
    glance_gap = mine - best_other
    deep_gap = max(float(puzzle["solved"]) - float(puzzle["second"]), 1e-9)
    temptation = min(1.0, max(0.0, 1.0 - glance_gap / deep_gap))
    # a rival looks, at a glance, closer to the solution than half of what it really gains
    rivals = sum(1 for p in others if p >= mine - deep_gap / 2.0)

    signals = Signals(
        level=_level_of(name, solved_at, share),
        depth=depth_needed,
        horizon=horizon(state, puzzle["theme"], puzzle["line"], puzzle.get("refutation", [])),
        glance_gap=round(glance_gap, 3),
        temptation=round(temptation, 3),
        rivals=rivals,
        families=len(by_family),
        steps=sum(max(0, len(piece) - 1) for piece in state.move_segments(accepted_moves[0])),
    )
    score = score_of(signals)
    return Rating(difficulty_of(score), score, signals)
