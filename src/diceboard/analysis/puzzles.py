"""Puzzles: positions from engine self-play where exactly one move wins.

:func:`generate` plays self-play games (``SELF_PLAY_AGENT``, with ``EPSILON`` of its moves
random, so that there are slips to punish) and looks at every decision. A position is a
candidate when the self-play search's best move beats every *other* move by the game's
:func:`margin`; it becomes a puzzle when a deeper search (``PROOF_AGENT``, on the position
string alone, as a solver will see it) agrees on the move, keeps the margin, and the move has
a theme:

- ``win``: the move wins the game by force (a proven value of 1),
- ``material``: along the deeper search's line the mover ends with more dice than now, and
  with more than along the line of the best other move (the move wins a die or more),
- ``save``: the line keeps the material balance while the best other move's line loses a die.

**Other moves.** Moves that differ only in the face the die is turned to (a Custodian step
``b1-b3=2`` or ``b1-b3=5``) are one answer, a move's *family*: the puzzle is to find the die
and where it goes, and the families are compared, best move of each. Every face of the
solution's family that also keeps the margin is accepted (``accepted``).

**The margin** is three quarters of a die, in calibrated win probability, capped at
:data:`MARGIN` (20 points): a die is worth 24 points of win probability in Chase but only 9
in Custodian Dice, a drawish game (its calibration slope is a third of Chase's), so that a
fixed 20 points let through only forced wins, which a depth-4 search rarely finds there.

**Duplicates.** A position is looked at once (the board, the side to move and the dice in
hand: move counters do not make a new puzzle), and within one self-play game a solution seen
in an earlier puzzle is not asked again (the same motif, a move later).

**Difficulty** (1-5) is rated by :mod:`diceboard.analysis.puzzle_rating` from what a solver
meets: the weakest computer level that finds the move, how far ahead its point lies, how much
better another move looks at a glance, how many moves look as good, how many moves there are.
:func:`rate_set` re-rates a set in place (``diceboard puzzles rate``). Everything is seeded.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from dataclasses import asdict, dataclass, field
from typing import Any

from diceboard.analysis.calibration import EPSILON, roll_chance, win_probability
from diceboard.analysis.puzzle_rating import RATING_DEPTH, TOP, rate
from diceboard.analysis.puzzle_terms import MARGIN, MARGIN_DICE, die_worth, family, margin
from diceboard.core.game import Game, State
from diceboard.core.move import Move

__all__ = [
    "MARGIN",
    "MARGIN_DICE",
    "Puzzle",
    "answer",
    "die_worth",
    "family",
    "generate",
    "histogram",
    "margin",
    "position_key",
    "puzzle_document",
    "rate_set",
    "shipped",
    "verify",
]

SELF_PLAY_AGENT = "alphabeta:depth=2"
PROOF_DEPTH = RATING_DEPTH
PROOF_AGENT = f"alphabeta:depth={PROOF_DEPTH},contempt=0"
MAX_DECISIONS = 400
#: the puzzle set format: 3 rates difficulty 1-5 from several signals (2 rated it 1-4 by depth)
VERSION = 3


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: a position string, the one move that solves it, the line after it."""

    id: str
    game: str
    options: dict[str, Any]
    position: str
    to_move: str
    solution: str
    line: list[str]
    theme: str
    difficulty: int
    #: win probability of the solution, and of the best other move, for the solver
    solved: float
    second: float
    #: the best other move (what a solver most likely plays instead) and its line
    refutation: list[str] = field(default_factory=list)
    #: every move that solves it: the solution and its other faces that keep the margin
    accepted: list[str] = field(default_factory=list)
    #: the signals behind ``difficulty`` and their score (:mod:`~diceboard.analysis.puzzle_rating`)
    rating: dict[str, Any] = field(default_factory=dict)


def position_key(state: State) -> Hashable:
    """A position as a puzzle: board, side to move and hand, without the move counters."""
    hand = tuple(sorted((p, tuple(f or 0 for f in faces)) for p, faces in state.hand().items()))
    return (state.to_move, tuple(sorted(state.board().items())), hand)


def _balance(state: State, player: str) -> int:
    counts = state.dice_counts()
    return 2 * counts[player] - sum(counts.values())


def _line_balance(state: State, line: tuple[Move, ...], player: str) -> int:
    for move in line:
        if state.is_terminal() or state.is_chance():
            break
        state = state.play(move)
    return _balance(state, player)


def _ranked(name: str, moves: tuple[Any, ...]) -> tuple[Any, Any | None, list[Move]]:
    """The best move, the best move of another family, and the best move's family members
    that beat that one by the margin (the accepted answers)."""
    best = moves[0]
    key = family(best.move)
    other = next((m for m in moves if family(m.move) != key), None)
    if other is None:
        return best, None, [best.move]
    floor = win_probability(name, other.value) + margin(name)
    accepted = [
        m.move for m in moves if family(m.move) == key and win_probability(name, m.value) >= floor
    ]
    return best, other, accepted


def family_gap(name: str, moves: tuple[Any, ...]) -> float:
    """How much more win probability the best move gives than the best of another family
    (0 when every move is of one family)."""
    best, other, _ = _ranked(name, moves)
    if other is None:
        return 0.0
    return win_probability(name, best.value) - win_probability(name, other.value)


def prove(state: State, proof: object) -> dict[str, Any] | None:
    """The puzzle fields of ``state`` (a decision position) if it is one, else ``None``.
    ``proof`` is the deep agent (anything with ``analyse``)."""
    name = state.game.name
    deep = proof.analyse(state)  # type: ignore[attr-defined]
    best, second, accepted = _ranked(name, deep.moves)
    if second is None:
        return None
    p_best = win_probability(name, best.value)
    p_second = win_probability(name, second.value)
    if p_best - p_second < margin(name):
        return None
    me = state.to_move
    now = _balance(state, me)
    after = state.play(second.move)
    refutation: tuple[Move, ...] = (second.move,)
    if not (after.is_terminal() or after.is_chance()):
        refutation += proof.analyse(after).pv  # type: ignore[attr-defined]
    kept = _line_balance(state, deep.pv, me)
    other = _line_balance(state, refutation, me)
    if best.value >= 1.0:
        theme = "win"
    elif kept > now and kept > other:
        theme = "material"
    elif kept >= now > other:
        theme = "save"
    else:
        return None
    fields: dict[str, Any] = {
        "position": str(state),
        "solution": best.move.notation,
        "line": [m.notation for m in deep.pv],
        "theme": theme,
        "solved": round(p_best, 3),
        "second": round(p_second, 3),
        "refutation": [m.notation for m in refutation],
        "accepted": [m.notation for m in accepted],
    }
    rating = rate(fields, state.game)
    del fields["position"]
    return {**fields, "difficulty": rating.difficulty, "rating": rating.as_json()}


def generate(
    game: Game,
    count: int,
    seed: int,
    log: Callable[[int, int, int], None] | None = None,
    max_games: int = 10_000,
) -> tuple[list[Puzzle], dict[str, float]]:
    """``count`` puzzles of ``game`` (fewer if ``max_games`` self-play games do not give
    them), and the figures of the run (games, candidates, seconds, puzzles per minute)."""
    from diceboard.ai import agent

    proof = agent(PROOF_AGENT, seed=1)
    name = game.name
    found: list[Puzzle] = []
    seen: set[Hashable] = set()
    candidates = 0
    began = time.perf_counter()
    games = 0
    while len(found) < count and games < max_games:
        rng = random.Random(seed * 1_000_003 + games)
        games += 1
        player = agent(SELF_PLAY_AGENT, seed=rng.randrange(2**31))
        state = game.start(seed=rng.randrange(2**31))
        decisions = 0
        solved_here: set[Hashable] = set()
        while state.outcome() is None and decisions < MAX_DECISIONS and len(found) < count:
            if state.is_chance():
                state = roll_chance(state, rng)
                continue
            analysis = player.analyse(state)
            decisions += 1
            key = position_key(state)
            if (
                len(analysis.moves) >= 2
                and key not in seen
                and family_gap(name, analysis.moves) >= margin(name)
            ):
                candidates += 1
                seen.add(key)
                text = str(state)
                fields = prove(game.parse(text), proof)
                if fields is not None:
                    motif = family(state.parse_move(fields["solution"]))
                    if motif not in solved_here:
                        solved_here.add(motif)
                        found.append(
                            Puzzle(
                                id=f"{name}-{seed}-{len(found) + 1}",
                                game=name,
                                options=game.non_default_options(),
                                position=text,
                                to_move=state.to_move,
                                **fields,
                            )
                        )
            move = analysis.best
            if rng.random() < EPSILON:
                move = rng.choice(state.legal_moves())
            state = state.play(move)
        if log is not None:
            log(games, candidates, len(found))
    seconds = time.perf_counter() - began
    figures = {
        "games": games,
        "candidates": candidates,
        "puzzles": len(found),
        "seconds": round(seconds, 1),
        "per_minute": round(60.0 * len(found) / seconds, 1) if seconds > 0 else 0.0,
    }
    return found, figures


def puzzle_document(
    game: Game, puzzles: list[Puzzle], command: str, figures: dict[str, float] | None = None
) -> dict[str, Any]:
    """The JSON document of a puzzle set (with the generation figures, where given)."""
    document: dict[str, Any] = {
        "format": "diceboard-puzzles",
        "version": VERSION,
        "game": game.name,
        "command": command,
        "proof": {
            "agent": PROOF_AGENT,
            "margin": round(margin(game.name), 4),
            "margin_dice": MARGIN_DICE,
        },
    }
    if figures is not None:
        document["generation"] = figures
    document["puzzles"] = [asdict(p) for p in puzzles]
    document["difficulties"] = histogram(document["puzzles"])
    return document


def rate_set(
    document: dict[str, Any], log: Callable[[int, int], None] | None = None
) -> dict[str, int]:
    """Rate every puzzle of the set ``document`` again, in place (``difficulty`` and
    ``rating``; the version is brought to this module's), and return how many puzzles each
    difficulty has. ``log(done, total)`` is told after each puzzle."""
    import diceboard

    puzzles = document["puzzles"]
    for done, puzzle in enumerate(puzzles, 1):
        game = diceboard.game(puzzle["game"], **puzzle.get("options", {}))
        rating = rate(puzzle, game)
        puzzle["difficulty"] = rating.difficulty
        puzzle["rating"] = rating.as_json()
        if log is not None:
            log(done, len(puzzles))
    counts = histogram(puzzles)
    document["version"] = VERSION
    document["difficulties"] = counts
    return counts


def histogram(puzzles: list[dict[str, Any]]) -> dict[str, int]:
    """How many of ``puzzles`` each difficulty 1-5 has (every difficulty named, in order)."""
    counts = {str(d): 0 for d in range(1, TOP + 1)}
    for puzzle in puzzles:
        counts[str(puzzle["difficulty"])] += 1
    return counts


def verify(puzzle: dict[str, Any], game: Game) -> bool:
    """Whether ``puzzle``'s solution is still the one answer: the deeper search's best move
    is one of its accepted moves, ahead of every other family by the game's margin."""
    from diceboard.ai import agent

    state = game.parse(puzzle["position"])
    deep = agent(PROOF_AGENT, seed=1).analyse(state)
    accepted = set(puzzle.get("accepted") or [puzzle["solution"]])
    return deep.best.notation in accepted and family_gap(game.name, deep.moves) >= margin(game.name)


def shipped(name: str) -> dict[str, Any]:
    """The puzzle set shipped with the package for the game ``name`` (``puzzle_sets/``,
    made by the command recorded in its ``command`` field)."""
    from importlib import resources

    from diceboard.core.errors import OptionError
    from diceboard.games import canonical_name

    key = canonical_name(name)
    source = resources.files("diceboard.analysis").joinpath("puzzle_sets", f"{key}.json")
    if not source.is_file():
        raise OptionError(f"no puzzle set is shipped for {key}")
    import json

    document: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    return document


#: the quick search that finds the reply to a wrong answer (a few milliseconds to a tenth of
#: a second: it runs while the solver waits)
REPLY_AGENT = "alphabeta:depth=3,contempt=0"

_THEME_WORDS = {
    "win": "it wins the game",
    "material": "it wins material",
    "save": "it saves your die",
}


@dataclass(frozen=True)
class Answer:
    """A solver's move judged: right or wrong, what to tell them, the position after the
    move, and (for a wrong move) the opponent's best reply line."""

    correct: bool
    text: str
    move: Move
    after: State
    reply: list[str]


def _dice(n: int) -> str:
    return "a die" if n == 1 else f"{n} dice"


def answer(puzzle: dict[str, Any], game: Game, text: str) -> Answer:
    """Judge the move ``text`` as an answer to ``puzzle``: the engine reads it (an illegal or
    unreadable move raises the engine's error, which says why), compares it with the accepted
    moves and, for a wrong one, searches the opponent's reply (``REPLY_AGENT``) to say what
    goes wrong."""
    from diceboard.ai import agent

    state = game.parse(puzzle["position"])
    move = state.parse_move(text)
    after = state.play(move)
    accepted = [state.parse_move(t) for t in puzzle.get("accepted") or [puzzle["solution"]]]
    why = _THEME_WORDS.get(puzzle["theme"], "it is the one move")
    if move in accepted:
        line = " ".join(puzzle["line"])
        return Answer(True, f"Solved: {move.notation}, {why} (the line: {line}).", move, after, [])
    solution = accepted[0]
    if family(move) == family(solution):
        face = "" if move.face is None else f" turned to {move.face}"
        return Answer(
            False,
            f"The right die and square, but{face} it does not work: another face does.",
            move,
            after,
            [],
        )
    me = state.to_move
    name = game.name
    outcome = after.outcome()
    if outcome is not None:
        result = "a draw" if outcome.winner is None else f"a win for {outcome.winner}"
        return Answer(False, f"{move.notation} ends the game in {result}.", move, after, [])
    if after.is_chance():
        return Answer(False, f"{move.notation} is not the answer.", move, after, [])
    reply = agent(REPLY_AGENT, seed=1).analyse(after)
    now = _balance(state, me)
    then = _line_balance(after, reply.pv, me)
    first = reply.pv[0].notation if reply.pv else reply.best.notation
    if then < now:
        what = f"the reply {first} costs you {_dice((now - then) // 2)}"
    elif puzzle["theme"] == "win":
        what = f"it does not win: the game goes on after {first}"
    elif puzzle["theme"] == "material":
        what = f"it wins no material: {first} holds everything"
    else:
        what = f"it is answered by {first}"
    chance = win_probability(name, -reply.value)
    text_out = (
        f"{move.notation} is not the answer: {what}. The engine gives you "
        f"{chance:.0%} after it; the best move gives {puzzle['solved']:.0%}."
    )
    return Answer(False, text_out, move, after, [m.notation for m in reply.pv])
