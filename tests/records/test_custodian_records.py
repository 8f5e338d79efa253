"""Custodian Dice records: hand-checked games, exact text, and round trips for every option set."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceboard
from diceboard import Outcome
from diceboard.records import GameRecord, read_pgn
from tests.records.helpers import assert_round_trips, play_random

SPEC_SETUP = "=3 =1 =6 =4 =2 =5 =2 =6 =2 =6 3@a1 1@b1 6@c1 4@d1 2@e1 5@a5 2@b5 6@c5 2@d5 6@e5"
#: the spec's "first move" example position
SPEC_FIRST_MOVE = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"

#: White steps c3 -> b3 -> a3 and sandwiches a2 against a1: Black is left with one die
CAPTURE_POSITION = "....B4/...../..W2../B6..../W5.... W 0 20"


def test_spec_setup_replays_to_the_spec_position() -> None:
    text = f'[Game "Custodian Dice"]\n\n{SPEC_SETUP} *\n'
    rec = GameRecord.from_pgn(text)
    assert str(rec.final_state()) == SPEC_FIRST_MOVE
    assert [m.notation for m in rec.moves] == SPEC_SETUP.split()
    assert len(rec.states()) == 21
    assert str(rec.start) == "...../...../...../...../..... W 0 0 W?????,B?????"
    assert "Position" not in rec.tags
    # a step: b1 (a 1) to b2, turning to 2; no capture, clock 1, ply 11
    rec = GameRecord.from_pgn(f'[Game "Custodian Dice"]\n\n{SPEC_SETUP} 2. b1-b2=2 *')
    assert str(rec.final_state()) == "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11"


def test_written_text_is_exact() -> None:
    state = diceboard.game("custodian").parse(CAPTURE_POSITION).play("c3-a3=1")
    rec = GameRecord.from_state(state)
    assert rec.to_pgn() == (
        '[Game "Custodian Dice"]\n'
        '[White "?"]\n'
        '[Black "?"]\n'
        '[Date "????.??.??"]\n'
        '[Result "1-0"]\n'
        '[Termination "elimination"]\n'
        f'[Position "{CAPTURE_POSITION}"]\n'
        "\n"
        "1. c3-a3=1 1-0\n"
    )
    assert str(rec.final_state()) == "....B4/...../W1..../...../W5.... B 0 21"
    assert rec.outcome == Outcome("W", "elimination", "1-0")
    assert_round_trips(rec)


def test_chaos_rolled_placement_joins_moves_with_their_rolls() -> None:
    game = diceboard.game("custodian", variant="chaos", placement="rolled")
    state = game.initial_state()
    for token in ["=3", "=1", "=6", "=4", "=2", "=5", "=2", "=6", "=2", "=6", "b1-b2", "=5"]:
        state = state.play(token)
    rec = GameRecord.from_state(state)
    assert [m.notation for m in rec.moves][-2:] == ["=6", "b1-b2=5"]
    assert len(rec.moves) == 11 and len(rec.moves[-1].actions) == 2
    assert str(rec.final_state()) == "B5B2B6B2B6/...../...../.W5.../W3.W6W4W2 B 1 1"
    assert rec.to_pgn().endswith("\n=3 =1 =6 =4 =2 =5 =2 =6 =2 =6 1. b1-b2=5 *\n")
    assert rec.tags["Variant"] == "chaos" and rec.tags["Placement"] == "rolled"
    assert_round_trips(rec)


def test_a_pending_roll_at_the_end_stays_unjoined() -> None:
    game = diceboard.game("custodian", variant="chaos", placement="rolled")
    state = game.start(seed=5).play("a1-a2")
    rec = GameRecord.from_state(state)
    assert rec.moves[-1].notation == "a1-a2"
    assert rec.final_state().is_chance()
    assert_round_trips(rec)


def test_moves_given_apart_are_joined() -> None:
    game = diceboard.game("custodian", variant="chaos", placement="rolled")
    start = game.initial_state()
    rolls = ["=3", "=1", "=6", "=4", "=2", "=5", "=2", "=6", "=2", "=6"]
    rec = GameRecord(start, [*rolls, "b1-b2", "=5"])
    joined = GameRecord(start, [*rolls, "b1-b2=5"])
    assert rec == joined
    assert rec.moves[-1].notation == "b1-b2=5"


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "chaos", "placement": "rolled"},
        {"path": "self-avoiding", "capture": "single", "no_capture_limit": 40},
        {"variant": "no-jumping", "placement": "rolled", "no_capture_limit": 0},
        {"variant": "chaos-no-jumping", "path": "self-avoiding", "capture": "single"},
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_full_random_games_round_trip(options: dict[str, Any], seed: int) -> None:
    game = diceboard.game("custodian", **options)
    state = play_random(game.initial_state(), seed, max_moves=2000)
    rec = GameRecord.from_state(state, players=("Alice", "random"), seed=seed)
    assert rec.game == game
    assert rec.start == game.initial_state()
    assert rec.final_state() == state
    assert rec.final_state().move_stack() == rec.moves
    if state.is_terminal():
        outcome = state.outcome()
        assert outcome is not None
        assert (rec.result, rec.termination) == (outcome.result, outcome.reason)
    for name, value in game.non_default_options().items():
        tag = "".join(word.capitalize() for word in name.split("_"))
        assert rec.tags[tag] == str(value)
    assert_round_trips(rec)


def test_standard_game_numbers_setup_rolls_placements_and_play() -> None:
    game = diceboard.game("custodian")
    state = play_random(game.initial_state(), 4, max_moves=26)
    movetext = GameRecord.from_state(state).to_pgn().split("\n\n")[1]
    tokens = movetext.split()
    assert all(t.startswith("=") for t in tokens[:10])
    assert tokens[10] == "1."
    assert all("@" in t for t in tokens[11:21])
    assert tokens[21] == "2."
    assert tokens[-1] == "*"


def test_game_from_a_parsed_position_has_a_position_tag() -> None:
    game = diceboard.game("custodian")
    state = play_random(game.parse(SPEC_FIRST_MOVE), 9, max_moves=40)
    rec = GameRecord.from_state(state)
    assert rec.tags["Position"] == SPEC_FIRST_MOVE
    assert rec.start == game.parse(SPEC_FIRST_MOVE)
    assert rec.to_dict()["start"] == SPEC_FIRST_MOVE
    assert_round_trips(rec)


def test_second_player_to_move_starts_with_ellipsis() -> None:
    game = diceboard.game("custodian")
    position = "B5B2B6B2B6/...../...../.W2.../W3.W6W4W2 B 1 11"
    state = game.parse(position).play("a5-a4=1").play("b2-b4=1")
    rec = GameRecord.from_state(state, comments={1: "a quiet move"})
    assert rec.to_pgn().split("\n\n")[1] == "1... a5-a4=1 {a quiet move} 2. b2-b4=1 *\n"
    assert_round_trips(rec)


def test_comment_before_a_second_player_move_renumbers() -> None:
    game = diceboard.game("custodian")
    state = game.parse(SPEC_FIRST_MOVE).play("b1-b2=2").play("a5-a4=1")
    rec = GameRecord.from_state(state, comments={0: "from the spec", 1: "White starts"})
    movetext = rec.to_pgn().split("\n\n")[1]
    assert movetext == "{from the spec} 1. b1-b2=2 {White starts} 1... a5-a4=1 *\n"
    assert_round_trips(rec)


def test_unfinished_and_resigned_games() -> None:
    game = diceboard.game("custodian")
    state = game.parse(SPEC_FIRST_MOVE).play("b1-b2=2")
    open_game = GameRecord.from_state(state)
    assert (open_game.result, open_game.termination, open_game.outcome) == (
        "*",
        "unterminated",
        None,
    )
    resigned = GameRecord.from_state(state, outcome=Outcome("W", "resignation", "1-0"))
    assert (resigned.result, resigned.termination) == ("1-0", "resignation")
    assert resigned.outcome == Outcome("W", "resignation", "1-0")
    assert not resigned.final_state().is_terminal()
    assert resigned.to_pgn().endswith("1. b1-b2=2 1-0\n")
    assert_round_trips(resigned)
    timeout = GameRecord.from_state(state, tags={"Result": "0-1", "Termination": "timeout"})
    assert timeout.outcome == Outcome("B", "timeout", "0-1")
    assert_round_trips(timeout)
    agreed = GameRecord.from_state(state, outcome=Outcome(None, "agreement", "1/2-1/2"))
    assert agreed.result == "1/2-1/2"
    assert_round_trips(agreed)


def test_tags_in_canonical_order_with_extras_kept_in_order() -> None:
    state = diceboard.game("custodian", placement="rolled").start(seed=2)
    rec = GameRecord.from_state(
        state,
        players=('Ann "the hammer" O\'Neil', None),
        date=datetime.date(2024, 2, 29),
        seed=2,
        tags={"Site": "C:\\clubs\\home", "Event": "Spring", "Round": "3"},
    )
    assert list(rec.tags) == [
        "Game",
        "Placement",
        "White",
        "Black",
        "Date",
        "Result",
        "Termination",
        "Seed",
        "Site",
        "Event",
        "Round",
    ]
    assert rec.players == ('Ann "the hammer" O\'Neil', "?")
    assert rec.date == "2024.02.29" and rec.seed == 2
    text = rec.to_pgn()
    assert '[White "Ann \\"the hammer\\" O\'Neil"]' in text
    assert '[Site "C:\\\\clubs\\\\home"]' in text
    assert_round_trips(rec)


def test_from_state_accepts_its_own_tags_back() -> None:
    state = play_random(diceboard.game("custodian", variant="chaos").initial_state(), 3)
    rec = GameRecord.from_state(state, players=("A", "B"), tags={"Event": "x"})
    again = GameRecord.from_state(rec.final_state(), tags=rec.tags)
    assert again == rec


def test_record_lines_are_at_most_79_characters() -> None:
    state = play_random(diceboard.game("custodian").initial_state(), 12)
    rec = GameRecord.from_state(state)
    movetext = rec.to_pgn().split("\n\n")[1]
    assert max(len(line) for line in movetext.splitlines()) <= 79


def test_several_games_in_one_file() -> None:
    records = [
        GameRecord.from_state(
            play_random(diceboard.game("custodian", **opts).initial_state(), seed, 300),
            seed=seed,
        )
        for seed, opts in enumerate(
            [{}, {"variant": "chaos"}, {"placement": "rolled", "capture": "single"}]
        )
    ]
    text = "\n".join(r.to_pgn() for r in records)
    assert read_pgn(text) == records


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(["standard", "no-jumping", "chaos", "chaos-no-jumping"]),
    path=st.sampled_from(["no-reversal", "self-avoiding"]),
    capture=st.sampled_from(["line", "single"]),
    placement=st.sampled_from(["chosen", "rolled"]),
    limit=st.sampled_from([100, 30, 0]),
    length=st.one_of(st.none(), st.integers(0, 120)),
    data=st.data(),
)
def test_random_games_round_trip(
    seed: int,
    variant: str,
    path: str,
    capture: str,
    placement: str,
    limit: int,
    length: int | None,
    data: st.DataObject,
) -> None:
    game = diceboard.game(
        "custodian",
        variant=variant,
        path=path,
        capture=capture,
        placement=placement,
        no_capture_limit=limit,
    )
    state = play_random(game.initial_state(), seed, length if length is not None else 3000)
    n = len(state.move_stack())
    comments = data.draw(
        st.dictionaries(
            st.integers(0, n),
            st.text(
                st.characters(blacklist_categories=["Cs"], blacklist_characters="}"), max_size=20
            ),
            max_size=4,
        )
    )
    event = data.draw(
        st.text(
            # a tag value holds no control character (Cc) nor line separator (Zl, Zp)
            st.characters(blacklist_categories=["Cs", "Cc", "Zl", "Zp"]),
            max_size=30,
        )
    )
    rec = GameRecord.from_state(state, seed=seed, tags={"Event": event}, comments=comments)
    assert rec.final_state() == state
    assert_round_trips(rec)
