"""Single games: determinism, the shared chance stream of a pair, what a result holds."""

from __future__ import annotations

import diceboard
from diceboard.arena import seeding
from diceboard.arena.match import match_tasks
from diceboard.arena.play import GameResult, GameSetup, GameTask, play_game
from diceboard.core.game import Game


def _task(setup: GameSetup, chance: int = 11, seeds: tuple[int, int] = (1, 2)) -> GameTask:
    return GameTask(0, setup, ("random", "random"), chance_seed=chance, agent_seeds=seeds)


def test_setup_rebuilds_the_game() -> None:
    for game in (
        diceboard.game("custodian"),
        diceboard.game("custodian", variant="chaos", capture="single"),
        diceboard.game("custodian", placement="rolled", no_capture_limit=40),
    ):
        assert GameSetup.of(game).make() == game
    assert GameSetup.of(diceboard.game("custodian", variant="chaos", capture="single")).label == (
        "chaos, capture=single"
    )


def test_a_game_is_determined_by_its_task(custodian: Game) -> None:
    setup = GameSetup.of(custodian)
    first = play_game(_task(setup))
    assert play_game(_task(setup)) == first
    assert play_game(_task(setup, chance=12)).moves != first.moves
    assert play_game(_task(setup, seeds=(1, 3))).moves != first.moves


def test_the_result_replays_to_its_outcome(custodian: Game) -> None:
    result = play_game(_task(GameSetup.of(custodian)))
    state = custodian.initial_state()
    for move in result.moves:
        state = state.play(move)
    outcome = state.outcome()
    assert outcome is not None
    assert (outcome.result, outcome.reason, state.ply) == (
        result.result,
        result.reason,
        result.plies,
    )
    assert result.winner == (None if outcome.winner is None else "WB".index(outcome.winner))
    # the setup rolls are the first ten chance outcomes
    assert result.moves[:10] == tuple(f"={face}" for face in result.setup_rolls)


def test_dice_timeline_and_losses(custodian: Game) -> None:
    result = play_game(
        _task(
            GameSetup.of(
                custodian,
            ),
            chance=5,
        )
    )
    # chosen placement: the first decision has no die on the board, then ten placements
    assert result.dice[0] == (0, 0, 0)
    assert result.dice[10] == (10, 5, 5)
    final_white, final_black = result.dice[-1][1:]
    assert len(result.dice_lost(0)) == 5 - final_white
    assert len(result.dice_lost(1)) == 5 - final_black
    if result.reason == "elimination":
        assert min(final_white, final_black) == 1


def test_dice_lost_by_hand() -> None:
    result = GameResult(
        index=0,
        players=("a", "b"),
        chance_seed=0,
        agent_seeds=(0, 0),
        result="1-0",
        winner=0,
        reason="elimination",
        plies=40,
        moves=(),
        dice=((0, 5, 5), (12, 5, 4), (20, 3, 4), (40, 3, 1)),
    )
    assert result.dice_lost(0) == [20, 20]
    assert result.dice_lost(1) == [12, 40, 40, 40]
    assert (result.first_score, result.score_of(1)) == (1.0, 0.0)


def test_the_two_games_of_a_pair_share_their_dice(custodian: Game) -> None:
    tasks = match_tasks(GameSetup.of(custodian), "random", "random", 6, seed=21, record=False)
    assert [t.players for t in tasks[:2]] == [("random", "random")] * 2
    results = [play_game(t) for t in tasks]
    for k in range(3):
        a, b = results[2 * k], results[2 * k + 1]
        assert a.chance_seed == b.chance_seed == seeding.chance_seed(21, k)
        assert a.setup_rolls == b.setup_rolls
        assert len(a.setup_rolls) == 10
    assert results[0].setup_rolls != results[2].setup_rolls


def test_chaos_pairs_draw_rolls_from_one_stream() -> None:
    # in Chaos every roll is one draw from the pair's stream: until the games' rolls diverge
    # with their moves, the k-th chance outcome is the same in both games
    chaos = diceboard.game("custodian", variant="chaos")
    tasks = match_tasks(GameSetup.of(chaos), "random", "random", 2, seed=3, record=False)
    a, b = (play_game(t) for t in tasks)
    rolls_a = [m[-2:] for m in a.moves if "=" in m]
    rolls_b = [m[-2:] for m in b.moves if "=" in m]
    shared = min(len(rolls_a), len(rolls_b))
    assert rolls_a[:shared] == rolls_b[:shared]
    assert shared > 20


def test_agent_seeds_differ_per_game_and_seat(custodian: Game) -> None:
    tasks = match_tasks(GameSetup.of(custodian), "random", "random", 4, seed=9, record=False)
    seeds = [s for t in tasks for s in t.agent_seeds]
    assert len(set(seeds)) == len(seeds)


def test_chase_games_play(chase: Game) -> None:
    result = play_game(_task(GameSetup.of(chase)))
    assert result.setup_rolls == ()
    assert result.result in ("1-0", "0-1", "1/2-1/2")
    assert result.dice[0][1:] == (9, 9)
