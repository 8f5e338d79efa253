"""MCTS: budgets, statistics, and the tree kept between moves."""

from __future__ import annotations

import diceboard
from diceboard.ai import MCTSAgent
from diceboard.core.game import State


def test_visits_add_up_to_the_iterations(custodian_play: State) -> None:
    analysis = diceboard.agent("mcts:iterations=500", seed=1).analyse(custodian_play)
    assert sum(m.visits for m in analysis.moves) == 500 == analysis.nodes
    visits = [m.visits for m in analysis.moves]
    assert visits[0] == max(visits)  # the best move is the most visited
    assert all(-1.0 <= m.value <= 1.0 for m in analysis.moves)


def test_tree_is_reused_after_the_reply(custodian_play: State) -> None:
    """The reply the tree expects (its principal variation) keeps that subtree's visits."""
    player = MCTSAgent(iterations=3000, seed=4)
    analysis = player.analyse(custodian_play)
    assert player.reused_visits == 0 and len(analysis.pv) >= 2
    mine_again = custodian_play.play(analysis.pv[0]).play(analysis.pv[1])
    player.choose(mine_again)
    assert player.reused_visits >= 2
    # the budget counts new simulations: the kept visits come on top
    again = player.analyse(mine_again)
    assert sum(m.visits for m in again.moves) >= 6000


def test_tree_reuse_through_chaos_rolls(chaos_play: State) -> None:
    """One agent plays both sides: after its move and the roll, the subtree is kept."""
    player = MCTSAgent(iterations=3000, seed=4)
    state = chaos_play.play(player.choose(chaos_play))
    assert state.is_chance()
    state = state.play(state.legal_action_ids()[2])
    player.choose(state)
    assert player.reused_visits > 0


def test_no_reuse_for_an_unrelated_position(custodian_play: State, chase_start: State) -> None:
    player = MCTSAgent(iterations=200, seed=4)
    player.choose(custodian_play)
    player.choose(diceboard.game("custodian").start(seed=5))
    assert player.reused_visits == 0
    player.choose(chase_start)
    assert player.reused_visits == 0


def test_reuse_off_and_reset(custodian_play: State) -> None:
    player = MCTSAgent(iterations=500, seed=4, reuse=False)
    after = custodian_play.play(player.choose(custodian_play))
    player.choose(after.play(after.legal_moves()[0]))
    assert player.reused_visits == 0
    keeper = MCTSAgent(iterations=500, seed=4)
    first = keeper.choose(custodian_play)
    keeper.reset()
    assert keeper.choose(custodian_play) == first  # a reset agent replays its seed


def test_tree_grows_past_its_first_size(chase_start: State) -> None:
    player = MCTSAgent(iterations=40_000, seed=1, playout="random", cutoff=0)
    analysis = player.analyse(chase_start)
    assert analysis.info["tree_nodes"] > 32_768
