"""One game between two computer players, with its chance events drawn from a seeded stream.

A :class:`GameTask` says everything that decides a game (the game and options, the two agent
specs, the seeds) in plain picklable values, so that any worker process, local or on a Ray
cluster, plays exactly the same game from it. :func:`play_game` plays it and returns a
:class:`GameResult`: the outcome, the moves, what balance reports need (setup rolls, dice on the
board over time) and, if asked, the game's record as PGN text.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import diceboard
from diceboard.ai import Agent
from diceboard.core.game import Game, State
from diceboard.core.move import MoveKind
from diceboard.games import info


@dataclass(frozen=True)
class GameSetup:
    """A game and its options as plain values (picklable; rebuilt in each worker).

    >>> import diceboard
    >>> GameSetup.of(diceboard.game("custodian", variant="chaos")).make()
    diceboard.game('custodian', variant='chaos')
    """

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, game: Game) -> GameSetup:
        """The setup that rebuilds ``game``."""
        return cls(game.name, tuple(sorted(game.non_default_options().items())))

    def make(self) -> Game:
        """The game (built once per process and setup)."""
        return _make_game(self)

    @property
    def label(self) -> str:
        """A short human name: the variant and any other non-default options.

        >>> GameSetup("custodian", (("capture", "single"), ("variant", "chaos"))).label
        'chaos, capture=single'
        """
        opts = dict(self.options)
        variant = str(opts.pop("variant", info(self.name).default_variant))
        return ", ".join([variant, *(f"{k}={v}" for k, v in opts.items())])


@lru_cache(maxsize=64)
def _make_game(setup: GameSetup) -> Game:
    return diceboard.game(setup.name, **dict(setup.options))


@dataclass(frozen=True)
class GameTask:
    """Everything that decides one game of a run.

    ``players`` are agent specs, first player (White in Custodian Dice, Blue in Chase) first;
    ``agent_seeds`` seed them in the same order; ``chance_seed`` seeds the stream from which
    every chance event (setup roll, Chaos roll) is drawn, in order. ``tags`` go into the record.
    """

    index: int
    setup: GameSetup
    players: tuple[str, str]
    chance_seed: int
    agent_seeds: tuple[int, int]
    record: bool = False
    tags: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class GameResult:
    """How one game went.

    ``winner`` is the winning seat (0: the first player, 1: the second) or ``None`` for a
    draw; ``plies`` is the final position's ply counter (placements count in Custodian Dice's
    chosen placement); ``moves`` every move in notation, chance outcomes included;
    ``setup_rolls`` the faces rolled before the first decision; ``dice`` the points where the
    number of dice on the board changed, as ``(ply, first player's dice, second player's)``,
    starting with the first decision state; ``pgn`` the record when the task asked for one.
    """

    index: int
    players: tuple[str, str]
    chance_seed: int
    agent_seeds: tuple[int, int]
    result: str
    winner: int | None
    reason: str
    plies: int
    moves: tuple[str, ...]
    setup_rolls: tuple[int, ...] = ()
    dice: tuple[tuple[int, int, int], ...] = ()
    pgn: str | None = field(default=None, repr=False)

    @property
    def first_score(self) -> float:
        """The first player's points: 1, ½ or 0."""
        return 0.5 if self.winner is None else 1.0 - self.winner

    def score_of(self, seat: int) -> float:
        """The points of the player in ``seat`` (0 or 1)."""
        return self.first_score if seat == 0 else 1.0 - self.first_score

    def dice_lost(self, seat: int) -> list[int]:
        """The plies at which the player in ``seat`` lost a die, one entry per die."""
        plies: list[int] = []
        for (_, *before), (ply, *after) in zip(self.dice, self.dice[1:], strict=False):
            plies.extend([ply] * max(0, before[seat] - after[seat]))
        return plies


def _dice_counts(state: State) -> tuple[int, int]:
    owners = [owner for owner, _ in state.board().values()]
    first, second = state.game.players
    return owners.count(first), owners.count(second)


def play_out(state: State, agents: Sequence[Agent], chance: random.Random) -> State:
    """Play ``state`` to the end: ``agents[0]`` moves for the first player and ``agents[1]``
    for the second; each chance event takes the outcome ``chance.randrange(count)`` in the
    order of the legal outcomes, so two games drawing from equal streams get equal rolls."""
    players = state.game.players
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.legal_action_ids()
            state = state.play(outcomes[chance.randrange(len(outcomes))])
        else:
            state = state.play(agents[players.index(state.to_move)].choose(state))
    return state


def _setup_rolls(final: State) -> tuple[int, ...]:
    """The faces of the chance outcomes played before the first decision."""
    rolls: list[int] = []
    for node in final.path():
        parent = node.parent
        if parent is None:
            continue
        if not parent.is_chance():
            break
        move = node.last_move
        if move is not None and move.kind is MoveKind.ROLL and move.face is not None:
            rolls.append(move.face)
    return tuple(rolls)


def _dice_timeline(final: State) -> tuple[tuple[int, int, int], ...]:
    """``(ply, first player's dice, second player's)`` at the first decision state and
    wherever the counts change after it."""
    timeline: list[tuple[int, int, int]] = []
    for node in final.path():
        if not timeline and node.is_chance():
            continue
        first, second = _dice_counts(node)
        if not timeline or timeline[-1][1:] != (first, second):
            timeline.append((node.ply, first, second))
    return tuple(timeline)


def _record_pgn(final: State, task: GameTask) -> str:
    from diceboard.records import GameRecord  # records sit below the arena; loaded on demand

    record = GameRecord.from_state(
        final, players=task.players, seed=task.chance_seed, tags=dict(task.tags)
    )
    return record.to_pgn()


def play_game(task: GameTask) -> GameResult:
    """Play the game that ``task`` describes (deterministic for deterministic agents).

    >>> setup = GameSetup("custodian")
    >>> task = GameTask(0, setup, ("random", "random"), chance_seed=1, agent_seeds=(2, 3))
    >>> result = play_game(task)
    >>> result == play_game(task), len(result.setup_rolls), result.dice[0]
    (True, 10, (0, 0, 0))
    """
    game = task.setup.make()
    agents = [
        diceboard.agent(spec, seed=seed)
        for spec, seed in zip(task.players, task.agent_seeds, strict=True)
    ]
    final = play_out(game.initial_state(), agents, random.Random(task.chance_seed))
    outcome = final.outcome()
    assert outcome is not None  # play_out only returns finished games
    return GameResult(
        index=task.index,
        players=task.players,
        chance_seed=task.chance_seed,
        agent_seeds=task.agent_seeds,
        result=outcome.result,
        winner=None if outcome.winner is None else game.players.index(outcome.winner),
        reason=outcome.reason,
        plies=final.ply,
        moves=tuple(str(m) for m in final.move_stack()),
        setup_rolls=_setup_rolls(final),
        dice=_dice_timeline(final),
        pgn=_record_pgn(final, task) if task.record else None,
    )


def play_batch(tasks: Sequence[GameTask]) -> list[GameResult]:
    """Play several games in a row (the unit of work sent to a worker process)."""
    return [play_game(task) for task in tasks]


def task_tags(tags: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """Record tags in the hashable form that :class:`GameTask` holds."""
    return tuple((str(k), str(v)) for k, v in tags.items())
