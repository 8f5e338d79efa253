"""Bad records get a RecordError (a ValueError) that says what is wrong and where."""

from __future__ import annotations

import re

import pytest

import diceboard
from diceboard import Outcome, RecordError
from diceboard.records import GameRecord, read_pgn

SETUP = "=3 =1 =6 =4 =2 =5 =2 =6 =2 =6 3@a1 1@b1 6@c1 4@d1 2@e1 5@a5 2@b5 6@c5 2@d5 6@e5"
CAPTURE_POSITION = "....B4/...../..W2../B6..../W5.... W 0 20"


def pgn(*tags: str, moves: str = SETUP + " *") -> str:
    return "\n".join(['[Game "Custodian Dice"]', *tags, "", moves, ""])


def fails(text: str, message: str) -> RecordError:
    with pytest.raises(RecordError, match=message) as info:
        read_pgn(text)
    assert isinstance(info.value, ValueError)
    return info.value


def test_illegal_move_names_game_line_move_and_engine_reason() -> None:
    good = pgn()
    bad = pgn('[White "A"]', moves=SETUP + "\n2. b1-b3=2 *")
    # game 2 starts on line 5 of the text; its movetext line 2 is line 5 + 3
    error = fails(
        good + "\n" + bad,
        re.escape(
            "game 2, line 9, move 21 'b1-b3=2': the die on b1 shows 1: no walk of exactly "
            "1 step through empty squares (never straight back) ends on b3"
        ),
    )
    assert str(error).startswith("game 2, line 9, move 21 'b1-b3=2': ")


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("=7 *", r"game 1, line 3, move 1 '=7': a roll is pending"),
        ("=1 =1 =1 =1 =1 =1 =1 =1 =1 =1 6@a1 *", r"move 11 '6@a1': White has no rolled 6"),
        (SETUP + " 2. b1-b2 *", r"move 21 'b1-b2': a step names the new face"),
        (SETUP + " 2. b1-b2=1 *", r"move 21 'b1-b2=1': a die turning from 1 must show"),
        (SETUP + " 2. pass *", r"move 21 'pass': pass is legal only when White has no"),
        (SETUP + " 2. zz9 *", r"move 21 'zz9': 'zz9' is not Custodian Dice notation"),
        # annotation glyphs are read ($1, b1-b2=2!); a wrong one still fails
        (SETUP + " 2. b1-b2=2!!! *", r"move 21 'b1-b2=2!': "),
    ],
)
def test_bad_moves(moves: str, message: str) -> None:
    fails(pgn(moves=moves), message)


def test_bad_glyphs() -> None:
    fails(pgn(moves=SETUP + " 2. b1-b2=2 $99 *"), r"unknown numeric annotation glyph '\$99'")
    fails(pgn(moves="$1 " + SETUP + " *"), r"the annotation glyph ! follows no move")


def test_move_after_the_end_of_the_game() -> None:
    text = pgn(f'[Position "{CAPTURE_POSITION}"]', moves="1. c3-a3=1 e5-e1=1 1-0")
    fails(text, r"game 1, line 4, move 2 'e5-e1=1': the game is over \(1-0 \(elimination\)\)")


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ("[White A]", r'line 2: malformed tag .*\[Name "value"\]'),
        ('[White "A', r"line 2: malformed tag"),
        ('[1White "A"]', r"line 2: bad tag name '1White'"),
        ('[Date "2024-05-01"]', r"line 2: the Date tag must be YYYY.MM.DD"),
        ('[Date "2023.02.29"]', r"line 2: the Date tag '2023.02.29' is not a calendar date"),
        ('[Date "2024.00.??"]', r"line 2: the Date tag '2024.00.\?\?' has month 00"),
        ('[Date "????.??.32"]', r"line 2: the Date tag '\?\?\?\?.\?\?.32' has day 32"),
        ('[Seed "seven"]', r"line 2: the Seed tag must be a whole number, not 'seven'"),
        ('[Result "2-0"]', r"line 2: the Result tag must be one of 1-0, 0-1, 1/2-1/2, \*"),
        ('[Termination "checkmate"]', r"line 2: the Termination tag must be one of"),
        ('[Placement "random"]', r"line 2: option placement must be one of chosen, rolled"),
        ('[NoCaptureLimit "-3"]', r"line 2: option no_capture_limit must be 0 or more"),
        ('[Variant "chess"]', r"line 2: unknown Custodian Dice variant 'chess'"),
        ('[Position "W1/B1 W 0 0"]', r"line 2: the start position 'W1/B1 W 0 0' is not valid: "),
        ('[Tab "a\tb"]', r"line 2: the Tab tag must be one line without control characters"),
    ],
)
def test_bad_tags(tag: str, message: str) -> None:
    fails(pgn(tag), "game 1, " + message)


def test_duplicate_tag() -> None:
    fails(pgn('[White "A"]', '[White "B"]'), r"game 1, line 3: the tag White appears twice \(first")


def test_unknown_game_and_missing_game_tag() -> None:
    fails('[Game "Go"]\n\n*', r"game 1, line 1: the Game tag names an unknown game 'Go'; games:")
    fails('[White "A"]\n\n=1 *', r"game 1, line 1: the game has no Game tag")
    fails(pgn() + '\n[Event "x"]\n\n*', r"game 2, line 5: the game has no Game tag")


def test_lexical_errors() -> None:
    fails(pgn(moves="=1 {never closed"), r"game 1, line 3: a comment opened with '\{' is never")
    fails(pgn(moves="=1 (=2) *"), r"game 1, line 3: variations in parentheses .* not supported")
    fails(pgn(moves="=1 } *"), r"game 1, line 3: unexpected '}'")
    fails(pgn() + "\n]", r"game 2, line 5: unexpected '\]'")


def test_result_disagreeing_with_the_replay() -> None:
    over = f'[Position "{CAPTURE_POSITION}"]'
    fails(
        pgn(over, moves="1. c3-a3=1 0-1"),
        r"game 1, line 4: the result token 0-1 disagrees with the replayed game, which ended "
        r"1-0 by elimination",
    )
    fails(
        pgn(over, '[Result "1/2-1/2"]', moves="1. c3-a3=1 *"),
        r"game 1, line 3: the Result tag says 1/2-1/2, but the replayed game ended 1-0 by "
        r"elimination",
    )
    fails(
        pgn(over, '[Termination "repetition"]', moves="1. c3-a3=1"),
        r"the Termination tag says repetition, but the replayed game ended 1-0 by elimination",
    )


def test_result_of_a_game_still_in_play() -> None:
    fails(
        pgn('[Result "1-0"]', '[Termination "resignation"]', moves=SETUP + " 0-1"),
        r"game 1, line 5: the result token 0-1 disagrees with the Result tag 1-0",
    )
    fails(pgn('[Result "1-0"]'), r"line 2: the Result is 1-0 but the replayed game has not ended")
    fails(pgn(moves=SETUP + " 1-0"), r"line 3: the Result is 1-0 but .* needs a Termination")
    fails(
        pgn('[Result "1-0"]', '[Termination "blocked"]'),
        r"line 3: the Termination tag says blocked, but the replayed game has not ended",
    )
    fails(
        pgn('[Termination "timeout"]'),
        r"line 2: the Termination tag says timeout, but the Result is \*",
    )
    fails(
        pgn('[Result "1/2-1/2"]', '[Termination "resignation"]'),
        r"line 2: a resignation has a winner",
    )
    fails(
        pgn('[Result "0-1"]', '[Termination "agreement"]'),
        r"line 2: a game ended by agreement is drawn",
    )


def test_from_pgn_wants_exactly_one_game() -> None:
    with pytest.raises(RecordError, match="the text holds 0 games"):
        GameRecord.from_pgn("")
    with pytest.raises(RecordError, match="the text holds 2 games"):
        GameRecord.from_pgn(pgn() + "\n" + pgn())
    with pytest.raises(RecordError, match="takes the PGN text as a string"):
        GameRecord.from_pgn(b"[Game]")  # type: ignore[arg-type]


def test_from_state_parameter_errors() -> None:
    game = diceboard.game("custodian")
    state = game.parse(CAPTURE_POSITION)
    ended = state.play("c3-a3=1")
    cases: list[tuple[dict[str, object], str]] = [
        ({"players": ("A",)}, r"players are the two players' names"),
        ({"players": "AB"}, r"players are the two players' names"),
        ({"players": ("A", "B"), "tags": {"White": "C"}}, r"the White tag 'C' disagrees with"),
        ({"seed": "7"}, r"seed must be a whole number"),
        ({"seed": True}, r"seed must be a whole number"),
        ({"date": "01/05/2024"}, r"the Date tag must be YYYY.MM.DD"),
        ({"outcome": "1-0"}, r"outcome must be an Outcome"),
        ({"outcome": Outcome("B", "resignation", "1-0")}, r"names 'B' as the winner"),
        ({"tags": {"Game": "Chase"}}, r"the Game tag says 'Chase', but the record is a game of"),
        ({"tags": {"Placement": "rolled"}}, r"the option tags \(Placement \"rolled\"\) describe"),
        ({"tags": {"Position": "...../...../...../B1B1.../W1W1... W 0 3"}}, r"is not the record"),
        ({"tags": {"Event": 5}}, r"the Event tag must be a string, not int"),
        ({"tags": {"Two words": "x"}}, r"bad tag name 'Two words'"),
        ({"comments": {9: "x"}}, r"a comment is placed after a number of moves from 0 to 0"),
        ({"comments": {0: "a}\nb"}}, r"cannot hold both '}' and a line break"),
        ({"comments": {0: [3]}}, r"the comment after move 0 must be text, not int"),
    ]
    for kwargs, message in cases:
        with pytest.raises(RecordError, match=message):
            GameRecord.from_state(state, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"the Result tag says 0-1, but the replayed game ended"):
        GameRecord.from_state(ended, outcome=Outcome("B", "resignation", "0-1"))
    with pytest.raises(RecordError, match="from_state takes a State"):
        GameRecord.from_state("W1 W 0 0")  # type: ignore[arg-type]


def test_constructor_errors() -> None:
    game = diceboard.game("custodian")
    start = game.parse(CAPTURE_POSITION)
    with pytest.raises(RecordError, match=r"^move 2 'c3-c1=1': the game is over"):
        GameRecord(start, ["c3-a3=1", "c3-c1=1"])
    with pytest.raises(RecordError, match=r"^move 1: a move is a Move or its notation, not int"):
        GameRecord(start, [17])  # type: ignore[list-item]
    with pytest.raises(RecordError, match="moves must be a list of moves, not one string"):
        GameRecord(start, "c3-a3=1")
    with pytest.raises(RecordError, match="a record starts from a State"):
        GameRecord(CAPTURE_POSITION, [])  # type: ignore[arg-type]
    legal = start.legal_moves()
    forged = diceboard.Move(legal[0].notation, legal[1].actions)
    with pytest.raises(RecordError, match=r"but the Move holds"):
        GameRecord(start, [forged])
