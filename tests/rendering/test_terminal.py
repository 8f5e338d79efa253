"""Terminal boards: exact plain text for known positions, ANSI colour that strips back to
the plain text, and the colour decision."""

from __future__ import annotations

import io
import re

import pytest

from diceboard.core.errors import NotationError, OptionError
from diceboard.core.game import Game
from diceboard.rendering import terminal
from tests.rendering.conftest import CHASE_START, CUSTODIAN_EXAMPLE, strip_ansi

EXAMPLE_PLAIN = """\
     a   b   c   d   e
 5   B5  B2  B6  B2  B6   5
 4   .   .   .   .   .    4
 3   .   .   .   .   .    3
 2   .   .   .   .   .    2
 1   W3  W1  W6  W4  W2   1
     a   b   c   d   e
Custodian Dice: White to move
clock 0, ply 10
W = White: 5 dice   B = Black: 5 dice"""

AFTER_MOVE_FLIPPED = """\
     e   d   c   b   a
 1   W2  W4  W6  .   W3   1
 2   .   .   .  *W2  .    2
 3   .   .  *.   .   .    3
 4   .   .   .   .   .    4
 5   B6  B2  B6  B2  B5   5
     e   d   c   b   a
Custodian Dice: Black to move
clock 1, ply 11; last move b1-b2=2
W = White: 5 dice   B = Black: 5 dice"""

SETUP = """\
     a   b   c   d   e
 5   .   .   .   .   .    5
 4   .   .   .   .   .    4
 3   .   .   .   .   .    3
 2   .   .   .   .   .    2
 1   .   .   .   .   .    1
     a   b   c   d   e
Custodian Dice: rolling White's dice (4 to roll)
clock 0, ply 0
White's hand: 3 ? ? ? ?
Black's hand: ? ? ? ? ?
W = White: 0 dice   B = Black: 0 dice"""

# even rows (a c e g i) are drawn half a square in: rows b d f h lie half a hex west of
# them, so each of those rows shows its split hex (b1 ...) at both ends
CHASE_START_PLAIN = """\
       1   2   3   4   5   6   7   8   9
 i     R1  R2  R3  R4  R5  R4  R3  R2  R1     i
 h   .   .   .   .   .   .   .   .   .   .    h
 g     .   .   .   .   .   .   .   .   .      g
 f   .   .   .   .   .   .   .   .   .   .    f
 e     .   .   .   .   ()  .   .   .   .      e
 d   .   .   .   .   .   .   .   .   .   .    d
 c     .   .   .   .   .   .   .   .   .      c
 b   .   .   .   .   .   .   .   .   .   .    b
 a     B1  B2  B3  B4  B5  B4  B3  B2  B1     a
       1   2   3   4   5   6   7   8   9
Chase: Blue to move
clock 0, ply 0
B = Blue: 9 dice, total 25, 1 spare   R = Red: 9 dice, total 25, 1 spare"""

CHASE_FLIPPED_MARKED = """\
       9   8   7   6   5   4   3   2   1
 a     B1  B2  B3  B4  B5  B4  B3  B2  B1     a
 b  *.   .   .   .   .   .   .   .   .  *.    b
 c     .   .   .   .   .   .   .   .   .      c
 d   .   .   .   .   .   .   .   .   .   .    d
 e     .   .   .   .  *()  .   .   .   .      e
 f   .   .   .   .   .   .   .   .   .   .    f
 g     .   .   .   .   .   .   .   .   .      g
 h   .   .   .   .   .   .   .   .   .   .    h
 i     R1  R2  R3  R4  R5  R4  R3  R2  R1     i
       9   8   7   6   5   4   3   2   1
Chase: Blue to move
clock 0, ply 0
B = Blue: 9 dice, total 25, 1 spare   R = Red: 9 dice, total 25, 1 spare"""


def test_plain_known_position(custodian: Game) -> None:
    assert terminal.render(custodian.parse(CUSTODIAN_EXAMPLE), color=False) == EXAMPLE_PLAIN


def test_plain_flipped_with_highlights_and_last_move(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE).play("b1-b2=2")
    text = terminal.render(state, color=False, flipped=True, highlight=["c3", "b2"])
    assert text == AFTER_MOVE_FLIPPED


def test_plain_setup_shows_the_hands(custodian: Game) -> None:
    assert terminal.render(custodian.initial_state().play("=3"), color=False) == SETUP


def test_pending_roll_and_result(custodian: Game, chaos: Game) -> None:
    pending = terminal.render(
        chaos.parse("B5B2B6B2B6/...../...../.W?.../W3W1.W4W2 W 1 11"), color=False
    )
    assert " 2   .   W?  .   .   .    2" in pending.splitlines()
    assert "Custodian Dice: White's die on b2 awaits its roll" in pending
    over = terminal.render(
        custodian.parse("...../.B3.../...../.B2.B1./....W3 W 0 180"), color=False
    )
    assert "Custodian Dice: 0-1, Black wins by elimination" in over.splitlines()
    assert "W = White: 1 die   B = Black: 3 dice" in over.splitlines()


def test_chase_start_plain(chase: Game) -> None:
    assert terminal.render(chase.parse(CHASE_START), color=False) == CHASE_START_PLAIN


def test_chase_flipped_highlights_both_halves_of_a_split_hex(chase: Game) -> None:
    text = terminal.render(
        chase.parse(CHASE_START), color=False, flipped=True, highlight=["b1", "e5"]
    )
    assert text == CHASE_FLIPPED_MARKED


@pytest.mark.parametrize("color", [True, "256", "basic"])
def test_ansi_strips_to_the_plain_text(custodian: Game, color: bool | str) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE).play("b1-b2=2")
    for flipped in (False, True):
        plain = terminal.render(state, color=False, flipped=flipped, highlight=["c3", "b2"])
        coloured = terminal.render(state, color=color, flipped=flipped, highlight=["c3", "b2"])
        assert coloured != plain
        assert strip_ansi(coloured) == plain
        if color == "basic":
            assert "38;5;" not in coloured and "\x1b[" in coloured
        else:
            assert "\x1b[" in coloured and "38;5;" in coloured and "48;5;" in coloured


def _token_colours(coloured: str, owner: str) -> set[str]:
    """The SGR sequences that open each die token of ``owner`` (on the board lines)."""
    board = "\n".join(coloured.splitlines()[1:6])
    return set(re.findall(rf"(\x1b\[[0-9;]*m){owner}[1-6?]", board))


@pytest.mark.parametrize("color", [True, "basic"])
def test_dice_are_coloured_by_owner(custodian: Game, color: bool | str) -> None:
    coloured = terminal.render(custodian.parse(CUSTODIAN_EXAMPLE), color=color)
    white, black = _token_colours(coloured, "W"), _token_colours(coloured, "B")
    assert len(white) == 1 and len(black) == 1 and white != black


def test_highlight_is_coloured_too(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    plain = terminal.render(state, color=True)
    marked = terminal.render(state, color=True, highlight=["c3"])
    line = marked.splitlines()[3]
    assert "*" in strip_ansi(line)
    assert line != plain.splitlines()[3].replace(" .", "*.", 1)  # more than the marker changed
    assert re.search(r"\x1b\[[0-9;]*m\*", line)


def test_chase_ansi(chase: Game) -> None:
    state = chase.parse(CHASE_START)
    coloured = terminal.render(state, color=True, highlight=["e5", "b1"])
    assert strip_ansi(coloured) == terminal.render(state, color=False, highlight=["e5", "b1"])
    assert _token_colours(coloured, "B") != _token_colours(coloured, "R")


def test_auto_colour_follows_the_environment(
    custodian: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    # pytest captures stdout: not a terminal, so plain text
    assert terminal.render(state) == EXAMPLE_PLAIN
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm-256color")
    assert "38;5;" in terminal.render(state)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("COLORTERM", raising=False)
    basic = terminal.render(state)
    assert "\x1b[" in basic and "38;5;" not in basic
    monkeypatch.setenv("NO_COLOR", "1")
    assert terminal.render(state) == EXAMPLE_PLAIN


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def test_supports_color(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert terminal.supports_color(_Stream(True))
    assert not terminal.supports_color(_Stream(False))
    assert not terminal.supports_color(io.StringIO())
    assert not terminal.supports_color(object())
    closed = io.StringIO()
    closed.close()
    with pytest.raises(ValueError):
        closed.isatty()
    assert not terminal.supports_color(closed)
    monkeypatch.setenv("TERM", "dumb")
    assert not terminal.supports_color(_Stream(True))
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert terminal.supports_color(_Stream(False))
    monkeypatch.setenv("FORCE_COLOR", "0")
    assert not terminal.supports_color(_Stream(False))
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("NO_COLOR", "yes")  # NO_COLOR wins
    assert not terminal.supports_color(_Stream(True))
    monkeypatch.setenv("NO_COLOR", "")  # an empty NO_COLOR is no request
    assert terminal.supports_color(_Stream(False))


def test_bad_input(custodian: Game) -> None:
    state = custodian.parse(CUSTODIAN_EXAMPLE)
    with pytest.raises(OptionError, match="color must be None"):
        terminal.render(state, color="rainbow")
    with pytest.raises(OptionError, match="color must be None"):
        terminal.render(state, color=1)  # type: ignore[arg-type]
    with pytest.raises(NotationError, match=r"highlight: 'a6' is not a square"):
        terminal.render(state, highlight=["a6"])
    with pytest.raises(TypeError, match="draws a diceboard State"):
        terminal.render(None)  # type: ignore[arg-type]
