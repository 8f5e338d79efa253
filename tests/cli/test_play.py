"""``diceboard play`` driven through pipes (and once through a terminal): whole games, the
prompt's commands, saving and reading back the record."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pexpect
import pexpect.popen_spawn
import pytest

import diceboard
from diceboard.records import read_pgn
from tests.cli.helpers import EXAMPLE, environment, ok, run, script, usage_error

pytestmark = pytest.mark.e2e

#: a game of the example position where White to move is the human
PLAY_EXAMPLE = ("play", "custodian", "--position", EXAMPLE, "--seed", "1")


def _session(lines: list[str], *args: str) -> str:
    return ok(*args, stdin="".join(line + "\n" for line in lines))


def test_end_of_input_leaves_cleanly() -> None:
    out = _session([], *PLAY_EXAMPLE)
    assert "White> " in out
    assert out.rstrip().endswith("End of input: the game is left unfinished.")
    assert "\x1b[" not in out  # piped: plain text


def test_question_mark_lists_the_legal_moves() -> None:
    out = _session(["?"], *PLAY_EXAMPLE)
    listing = out.split("White> ?\n", 1)[1].split("White> ", 1)[0]
    header, *rows = listing.splitlines()
    assert header == "84 legal moves:"
    moves = " ".join(rows).split()
    expected = [m.notation for m in diceboard.game("custodian").parse(EXAMPLE).legal_moves()]
    assert moves == expected


def test_bad_move_prints_the_engines_message_and_prompts_again() -> None:
    state = diceboard.game("custodian").parse(EXAMPLE)
    with pytest.raises(ValueError) as caught:
        state.parse_move("b1-c2=3")
    out = _session(["b1-c2=3", "zz9", "quit"], *PLAY_EXAMPLE)
    assert str(caught.value) in out
    assert "not Custodian Dice notation" in out
    assert out.count("White> ") == 3
    assert "The game is left unfinished." in out


def test_a_square_shows_where_its_die_can_go() -> None:
    out = _session(["b1", "c5", "c3", "quit"], *PLAY_EXAMPLE)
    assert "moves of the die on b1, by the square where it lands:" in out
    assert re.search(r"^  b2  b1-b2=2 b1-b2=3 b1-b2=4 b1-b2=5$", out, re.M)
    # the board is shown again with the die and its destination marked
    assert out.count("*") >= 2
    assert "the die on c5 is Black's; White is to move" in out
    assert "c3 is empty and no move starts there" in out


def test_a_square_the_shown_die_reaches_plays_it_there() -> None:
    # as a click on a die and then on where it goes: b1's die reaches b2 with four faces
    out = _session(["b1", "b2", "3", "quit"], *PLAY_EXAMPLE)
    assert "b2 fits 4 moves that end differently:" in out
    after = out.split("Black (random) plays ", 1)[1]
    assert re.search(r"^ 2 +\. +W4 ", after, re.M)  # the third choice: b1-b2=4
    # one move to the square: played at once; a square asked about later is shown afresh
    out = _session(["a5", "f3", "a4", "quit"], "play", "chase", "--seed", "5")
    assert "playing a5-f3NW" in out and "Red (random) plays " in out
    assert "moves of the die on a4, by the square where it lands:" in out


def test_a_square_the_shown_die_cannot_reach_is_shown_as_a_square() -> None:
    out = _session(["b1", "d3", "quit"], *PLAY_EXAMPLE)
    assert "d3 is empty and no move starts there" in out
    assert "plays " not in out


def test_a_step_without_its_face_asks_which_face() -> None:
    out = _session(["b1-b2", "3", "quit"], *PLAY_EXAMPLE)
    assert "b1-b2 fits 4 moves that end differently:" in out
    for number, face in enumerate((2, 3, 4, 5), start=1):
        assert f"  {number}. b1-b2={face}" in out
    # the choice was played: Black (random) answered it
    assert "Black (random) plays " in out
    after = out.split("Black (random) plays ", 1)[1]
    assert re.search(r"^ 2 +\. +W4 ", after, re.M)


def test_undo_takes_back_to_the_humans_last_decision() -> None:
    out = _session(["b1-b2=2", "undo", "undo", "quit"], *PLAY_EXAMPLE)
    reply = re.search(r"Black \(random\) plays (\S+)", out)
    assert reply is not None
    assert f"took back: b1-b2=2 {reply.group(1)}" in out
    assert "nothing to undo" in out


def test_save_writes_a_record_that_reads_back(tmp_path: Path) -> None:
    target = tmp_path / "game.pgn"
    out = _session(["b1-b2=2", f"save {target}", "quit"], *PLAY_EXAMPLE)
    assert f"saved 2 moves to {target}" in out
    (record,) = read_pgn(target.read_text())
    assert record.moves[0].notation == "b1-b2=2"
    assert len(record.moves) == 2
    assert str(record.start) == EXAMPLE
    assert record.players == ("human", "random")
    assert record.seed == 1
    assert record.result == "*"


def test_save_failure_keeps_the_game_going(tmp_path: Path) -> None:
    out = _session([f"save {tmp_path}/missing/x.pgn", "save", "?", "quit"], *PLAY_EXAMPLE)
    assert "could not save: " in out
    assert "save needs a file name" in out
    assert "84 legal moves:" in out


def test_chaos_rolls_are_made_for_the_player() -> None:
    args = (*PLAY_EXAMPLE, "--variant", "chaos")
    out = _session(["b1-b2=4", "b1-b2", "quit"], *args)
    assert "the dice are rolled for you: enter b1-b2 and the roll follows" in out
    assert re.search(r"^roll =[1-6]  \(White's die on b2 awaits its roll\)$", out, re.M)


@pytest.mark.parametrize("choice", [(), ("--hint", "random")])
def test_hint_names_a_legal_move(choice: tuple[str, ...]) -> None:
    out = _session(["hint", "quit"], *PLAY_EXAMPLE, *choice)
    found = re.search(r"^hint \((\S+)\): (\S+)", out, re.M)
    assert found is not None, out[-500:]
    if choice:
        assert found.group(1) == "random"
    legal = {m.notation for m in diceboard.game("custodian").parse(EXAMPLE).legal_moves()}
    assert found.group(2) in legal


def test_resign_ends_the_game_and_records_it(tmp_path: Path) -> None:
    target = tmp_path / "resigned.pgn"
    out = _session(["resign"], *PLAY_EXAMPLE, "--save", str(target))
    assert "White resigns. Game over: 0-1: Black wins by resignation" in out
    (record,) = read_pgn(target.read_text())
    assert record.result == "0-1"
    assert record.termination == "resignation"


def test_computer_against_computer_is_reproducible(tmp_path: Path) -> None:
    args = ("play", "custodian", "--white", "random", "--black", "random", "--seed", "4")
    first = ok(*args, "--save", str(tmp_path / "a.pgn"))
    second = ok(*args, "--save", str(tmp_path / "b.pgn"))
    assert first.replace("a.pgn", "b.pgn") == second
    assert re.search(r"^Game over: (1-0|0-1|1/2-1/2): ", first, re.M)
    (record,) = read_pgn((tmp_path / "a.pgn").read_text())
    assert record.final_state().is_terminal()
    # the setup rolls were shown, one line each
    assert len(re.findall(r"^roll =[1-6]  \(rolling", first, re.M)) == 10


def _drive_to_the_end(child: pexpect.spawnbase.SpawnBase, prompt: str) -> str:
    """Answer every prompt with the first legal move that ``?`` lists; the result line."""
    for _ in range(2000):
        index = child.expect([re.escape(prompt), r"Game over: ([^\r\n]*)\r?\n"])
        if index == 1:
            return str(child.match.group(1))
        child.sendline("?")
        child.expect(r"legal moves?:\r?\n(.*?)\r?\n" + re.escape(prompt))
        moves = child.match.group(1).split()
        child.sendline(moves[0])
    raise AssertionError("the game did not end in 2000 moves")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pexpect's reader thread
def test_a_human_plays_a_whole_game_against_random(tmp_path: Path) -> None:
    target = tmp_path / "whole.pgn"
    child = pexpect.popen_spawn.PopenSpawn(
        [script(), "play", "custodian", "--seed", "5", "--save", str(target)],
        encoding="utf-8",
        timeout=120,
        env=environment(),
    )
    result = _drive_to_the_end(child, "White> ")
    child.expect(pexpect.EOF)
    assert child.wait() == 0
    (record,) = read_pgn(target.read_text())
    final = record.final_state()
    outcome = final.outcome()
    assert outcome is not None
    who = {"W": "White wins", "B": "Black wins", None: "draw"}[outcome.winner]
    assert result == f"{outcome.result}: {who} by {outcome.reason.replace('-', ' ')}"
    assert record.players == ("human", "random")
    # the ten setup rolls, then five placements each, then play
    assert [m.notation[0] for m in record.moves[:10]] == ["="] * 10
    assert all("@" in m.notation for m in record.moves[10:20])


def test_a_terminal_session_has_colour() -> None:
    env = environment()
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"
    child = pexpect.spawn(
        script(), list(PLAY_EXAMPLE), encoding="utf-8", timeout=60, env=env, dimensions=(40, 120)
    )
    child.expect("White> ")
    assert "\x1b[" in child.before
    child.sendline("?")
    child.expect("84 legal moves")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.parametrize(("stop", "status"), [("ctrl-c", 130), ("sigterm", 143)])
def test_interrupt_exits_quietly_and_keeps_the_game(tmp_path: Path, stop: str, status: int) -> None:
    """Ctrl-C, or SIGTERM (``kill``, ``timeout``; it ended the game unsaved), at the prompt."""
    target = tmp_path / "interrupted.pgn"
    child = pexpect.spawn(
        script(),
        [*PLAY_EXAMPLE, "--save", str(target)],
        encoding="utf-8",
        timeout=60,
        env=environment(),
    )
    child.expect("White> ")
    child.sendline("b1-b2=2")
    child.expect("White> ")
    if stop == "ctrl-c":
        child.sendintr()
    else:
        child.kill(signal.SIGTERM)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == status
    assert "Traceback" not in (child.before or "")
    (record,) = read_pgn(target.read_text())
    assert record.moves[0].notation == "b1-b2=2"
    assert len(record.moves) == 2


def test_no_color_in_a_terminal() -> None:
    env = environment()
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"
    child = pexpect.spawn(
        script(), [*PLAY_EXAMPLE, "--no-color"], encoding="utf-8", timeout=60, env=env
    )
    child.expect("White> ")
    assert "\x1b[3" not in child.before and "\x1b[4" not in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--blue", "random"), "--blue is not a side in Custodian Dice"),
        (("--black", "nosuchagent"), "unknown agent"),
        (("--hint", "nosuchagent"), "unknown agent"),
        (("--position", "W9/...."), "position"),
        (("--variant", "wild"), "unknown Custodian Dice variant"),
        (("--seed", "x"), "--seed"),
    ],
)
def test_bad_play_arguments(args: tuple[str, ...], needle: str) -> None:
    assert needle in usage_error("play", "custodian", *args)


def test_play_without_input_against_a_computer_white() -> None:
    # the computer moves first, then the human's prompt meets the end of input
    done = run(
        "play",
        "custodian",
        "--position",
        EXAMPLE,
        "--white",
        "random",
        "--black",
        "human",
        "--seed",
        "3",
    )
    assert done.returncode == 0
    assert re.search(r"^White \(random\) plays \S+$", done.stdout, re.M)
    assert "Black> " in done.stdout
