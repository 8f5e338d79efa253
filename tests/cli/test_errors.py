"""Bad input of every kind: exit status 2, one line on stderr, no traceback, no output."""

from __future__ import annotations

import pytest

from tests.cli.helpers import EXAMPLE, usage_error

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # the command line itself
        ((), "COMMAND"),
        (("fly",), "invalid choice: 'fly'"),
        (("moves",), "the following arguments are required: GAME, POSITION"),
        (("moves", "custodian", "start", "--frobnicate"), "unrecognized arguments: --frobnicate"),
        # games and options
        (("moves", "checkers", "start"), "unknown game 'checkers'"),
        (("moves", "custodian", "start", "--variant", "wild"), "unknown Custodian Dice variant"),
        (("moves", "custodian", "start", "--option", "jumping"), "NAME=VALUE"),
        (("moves", "custodian", "start", "--option", "=on"), "NAME=VALUE"),
        (
            ("moves", "custodian", "start", "--option", "colour=red"),
            "unknown Custodian Dice option",
        ),
        (("moves", "custodian", "start", "--option", "jumping=maybe"), "option jumping must be"),
        (
            ("moves", "custodian", "start", "--option", "faces=roll", "--option", "faces=turn"),
            "--option faces is given twice",
        ),
        (("moves", "custodian", "start", "--seed", "x"), "--seed"),
        # positions
        (("moves", "custodian", "B5B2B6B2B6/...../...../...../W3W1W6W4W2"), "put it in quotes"),
        (("moves", "custodian", "B5B2B6B2B6/...../...../W3W1W6W4W2 W 0 10"), "5 ranks"),
        (("moves", "custodian", "B5B2B6B2B6/...../...../...../W3W1W7W4W2 W 0 10"), "unknown token"),
        (("moves", "custodian", "B5B2B6B2B6/...../...../...../W3W1W6W4W2 X 0 10"), "to-move"),
        (("moves", "custodian", "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W -1 10"), "clock"),
        (
            ("perft", "custodian", "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10 x y", "1"),
            "fields",
        ),
        # moves
        (("apply", "custodian", EXAMPLE, "b1-b3=2"), "move 1 (b1-b3=2): the die on b1 shows 1"),
        (("apply", "custodian", EXAMPLE, "b1-b2=2", "hello"), "move 2 (hello): 'hello' is not"),
        (("apply", "custodian", EXAMPLE, "=4"), "no roll is pending"),
        (("apply", "custodian", "initial", "b1-b2=2"), "a roll is pending"),
        (("apply", "custodian", EXAMPLE), "MOVE"),
        # numbers
        (("perft", "custodian", EXAMPLE, "1.5"), "DEPTH"),
        (("perft", "custodian", EXAMPLE, "1", "--unit", "plies"), "--unit"),
        (("replay", "game.pgn", "--game", "first"), "--game"),
    ],
)
def test_bad_input(args: tuple[str, ...], needle: str) -> None:
    assert needle in usage_error(*args)


def test_messages_say_how_to_get_help() -> None:
    assert usage_error("perft", "custodian", EXAMPLE, "x").endswith("(see 'diceboard perft -h')")


def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ("perft", "custodian", "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10", "10000000"),
            "expected at most 40",
        ),
        (
            ("perft", "custodian", "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 ²", "1"),
            "ply field",
        ),
        (("play", "custodian", "--save", "/no/such/folder/game.pgn"), "does not exist"),
    ],
)
def test_absurd_input_at_the_command_line(args: tuple[str, ...], needle: str) -> None:
    """Issue 12, item 8: each was a traceback, a MemoryError or a silent exit 0 before."""
    assert needle in usage_error(*args)


def test_bench_server_to_a_closed_port_is_a_usage_error() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    message = usage_error("bench", "server", "--url", url, "--games", "1", "--seconds", "2")
    assert "no diceboard server answered" in message


def test_ray_at_an_address_where_nothing_listens_fails_fast() -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{_closed_port()}"
    args = ("match", "random", "random", "--game", "custodian", "--games", "2")
    message = usage_error(*args, "--backend", "ray", "--ray-address", address)
    assert "no Ray cluster answers" in message
