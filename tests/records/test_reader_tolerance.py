"""The reader takes what PGN readers take: comments, odd move numbers, CRLF, many games."""

from __future__ import annotations

import diceboard
from diceboard.records import GameRecord, read_pgn
from tests.records.helpers import assert_round_trips

SETUP = "=3 =1 =6 =4 =2 =5 =2 =6 =2 =6 3@a1 1@b1 6@c1 4@d1 2@e1 5@a5 2@b5 6@c5 2@d5 6@e5"
PLAY = "b1-b2=2 a5-a4=1 b2-b4=1"


def canonical() -> GameRecord:
    game = diceboard.game("custodian")
    return GameRecord(game.initial_state(), [*SETUP.split(), *PLAY.split()])


def test_plain_canonical_text() -> None:
    rec = canonical()
    assert str(rec.final_state()) == ".B2B6B2B6/B1W1.../...../...../W3.W6W4W2 B 3 13"
    assert_round_trips(rec)


ODD = """\ufeff% an escaped line that readers ignore
; a line comment before the tags
[Game   "Custodian Dice"]
[Event "Odd spacing"]  [White "Ann"]
{a comment between tags}
[Black "Bob"]

=3 =1 =6 {rolls
over two lines} =4 =2 =5 =2 =6 =2 =6 ; the rolls are done
7. 3@a1 1@b1 6@c1 4@d1 2@e1 99... 5@a5 2@b5 6@c5 2@d5 6@e5
1.B1-B2=2 ; upper case is read too
a5-a4=1 3... 3. b2-b4=1 { after the last move }
*
"""


def test_comments_and_move_numbers_in_odd_places() -> None:
    rec = GameRecord.from_pgn(ODD)
    assert rec.moves == canonical().moves
    assert rec.players == ("Ann", "Bob")
    assert rec.tags["Event"] == "Odd spacing"
    assert rec.comments == {
        0: ("a line comment before the tags", "a comment between tags"),
        3: ("rolls\nover two lines",),
        10: ("the rolls are done",),
        21: ("upper case is read too",),
        23: ("after the last move",),
    }
    assert_round_trips(rec)


def test_crlf_and_cr_line_ends() -> None:
    text = canonical().to_pgn()
    assert GameRecord.from_pgn(text.replace("\n", "\r\n")) == canonical()
    assert GameRecord.from_pgn(text.replace("\n", "\r")) == canonical()
    crlf_comment = ODD.replace("\n", "\r\n")
    rec = GameRecord.from_pgn(crlf_comment)
    assert rec.comments[3] == ("rolls\nover two lines",)


def test_no_move_numbers_and_no_result_token() -> None:
    rec = GameRecord.from_pgn(f'[Game "Custodian Dice"]\n{SETUP} {PLAY}')
    assert rec == canonical()


def test_moves_written_apart_from_their_rolls_are_joined() -> None:
    text = '[Game "Custodian Dice"]\n[Variant "chaos"]\n[Placement "rolled"]\n\n'
    rolls = "=3 =1 =6 =4 =2 =5 =2 =6 =2 =6"
    apart = GameRecord.from_pgn(text + rolls + " 1. b1-b2 {rolled} =5 *")
    assert apart.moves[-1].notation == "b1-b2=5"
    assert apart.comments == {11: ("rolled",)}
    assert apart == GameRecord.from_pgn(text + rolls + " 1. b1-b2=5 {rolled} *")


def test_option_tags_are_read_in_any_spelling_the_game_takes() -> None:
    text = (
        '[Game "custodian"]\n[Faces "roll"]\n[Jumping "off"]\n[Path "no-reversal"]\n\n'
        "=3 =1 =6 =4 =2 =5 =2 =6 =2 =6 *"
    )
    rec = GameRecord.from_pgn(text)
    assert rec.game == diceboard.game("custodian", variant="chaos-no-jumping")
    assert list(rec.tags)[:2] == ["Game", "Variant"]
    assert rec.tags["Game"] == "Custodian Dice"
    assert rec.tags["Variant"] == "chaos-no-jumping"
    assert "Path" not in rec.tags  # a default value is left out


def test_several_games_with_and_without_result_tokens() -> None:
    first = canonical().to_pgn()
    second = '[Game "Custodian Dice"]\n[White "X"]\n=3 =3'
    third = '[Game "Custodian Dice"]\n[White "Y"]\n\n=1 *'
    games = read_pgn(first + "\n" + second + "\n" + third + "\n{after all}\n")
    assert [g.players[0] for g in games] == ["?", "X", "Y"]
    assert [len(g.moves) for g in games] == [23, 2, 1]
    assert games[2].comments == {1: ("after all",)}


def test_comment_between_games_goes_with_the_next_game() -> None:
    text = '[Game "Custodian Dice"]\n\n=1 *\n{for the second}\n[Game "Custodian Dice"]\n\n=2 *'
    first, second = read_pgn(text)
    assert first.comments == {}
    assert second.comments == {0: ("for the second",)}


def test_empty_text_holds_no_games() -> None:
    assert read_pgn("") == []
    assert read_pgn("\n\n  \r\n% nothing\n") == []


def test_unknown_tags_are_kept_in_order() -> None:
    text = '[Zeta "z"]\n[Game "Custodian Dice"]\n[Alpha "a"]\n[Annotator "me"]\n\n*'
    rec = GameRecord.from_pgn(text)
    assert list(rec.tags)[-3:] == ["Zeta", "Alpha", "Annotator"]


def test_result_token_stands_in_for_a_missing_result_tag() -> None:
    text = f'[Game "Custodian Dice"]\n[Termination "resignation"]\n\n{SETUP} 0-1'
    rec = GameRecord.from_pgn(text)
    assert (rec.result, rec.termination) == ("0-1", "resignation")


def test_star_tags_of_a_finished_game_take_the_replayed_end() -> None:
    game = diceboard.game("custodian")
    position = "....B4/...../..W2../B6..../W5.... W 0 20"
    text = (
        f'[Game "Custodian Dice"]\n[Result "*"]\n[Termination "unterminated"]\n'
        f'[Position "{position}"]\n\n1. c3-a3=1 *'
    )
    rec = GameRecord.from_pgn(text)
    assert (rec.result, rec.termination) == ("1-0", "elimination")
    assert rec.start == game.parse(position)
