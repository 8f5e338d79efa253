"""The C reference of ``diceboard bench custodian --against-c`` (``benchmarks/c/``) plays by
the same rules as the kernel: its perft agrees with the kernel's from the fixture positions
and from positions of random games, in every option it supports."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import diceboard
from diceboard.games.custodian.kernel.hashing import KEYS

SOURCE = Path(__file__).resolve().parents[2] / "benchmarks" / "c" / "custodian_ref.c"
START = "B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10"
MIDDLE = "B5.B6../..B2.W3/.W1.B4./W6..B2./W3...W2 B 14 31"

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = tmp_path_factory.mktemp("cref") / "custodian_ref"
    subprocess.run(["gcc", "-O2", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def kernel_perft(state: diceboard.State, depth: int) -> int:
    game = state.game
    hist = state.kernel_history()
    return int(game.kernel.perft(state.kernel_state(), game.opts, depth, hist, len(hist)))


def c_perft(binary: Path, state: diceboard.State, depth: int) -> int:
    hist = state.kernel_history()
    numbers = [
        *state.game.opts.tolist(),
        *KEYS.tolist(),
        *state.kernel_state().tolist(),
        len(hist),
        *hist.tolist(),
    ]
    done = subprocess.run(
        [str(binary), "perft", str(depth)],
        input=" ".join(map(str, numbers)),
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


def positions(options: dict[str, str], seed: int) -> list[diceboard.State]:
    """The initial state, a few setup and placement states and play positions of random
    games (some near their end, where captures, repetitions and passes happen)."""
    game = diceboard.game("custodian", **options)
    rng = random.Random(seed)
    found = [game.initial_state()]
    for _ in range(3):
        state = game.initial_state()
        plies = 0
        while not state.is_terminal():
            if plies in (3, 11, 40, 90) or (plies > 12 and rng.random() < 0.03):
                found.append(state)
            state = state.play(rng.choice(state.legal_action_ids()))
            plies += 1
    return found


@pytest.mark.parametrize(
    ("options", "text", "depth", "count"),
    [({}, START, 3, 660808), ({"variant": "no-jumping"}, START, 3, 643216)],
)
def test_the_fixture_counts(
    reference: Path, options: dict[str, str], text: str, depth: int, count: int
) -> None:
    state = diceboard.game("custodian", **options).parse(text)
    assert c_perft(reference, state, depth) == count


#: the option sets the reference plays, each test run over all of them
OPTION_SETS = pytest.mark.parametrize(
    "options",
    [
        {},
        {"variant": "no-jumping"},
        {"capture": "single"},
        {"placement": "rolled"},
        {"no_capture_limit": "6"},
    ],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "standard",
)


def test_capture_single_from_the_middle_position(reference: Path) -> None:
    state = diceboard.game("custodian", capture="single").parse(MIDDLE)
    assert c_perft(reference, state, 3) == kernel_perft(state, 3) == 206822


@OPTION_SETS
def test_perft_agrees_along_random_games(reference: Path, options: dict[str, str]) -> None:
    checked = 0
    for state in positions(options, seed=len(options) + 7):
        depth = 3 if len(state.legal_action_ids()) <= 40 else 2
        assert c_perft(reference, state, depth) == kernel_perft(state, depth), str(state)
        checked += 1
    assert checked >= 5


def test_playouts_print_their_counts(reference: Path) -> None:
    done = subprocess.run(
        [str(reference), "playouts", "0.01", "3"], capture_output=True, text=True, check=True
    )
    plies, chance, games, first, second, draws, seconds = done.stdout.split()
    assert int(games) == int(first) + int(second) + int(draws) > 0
    assert int(chance) == 10 * int(games)  # the ten setup rolls of each game
    assert int(plies) > 0 and float(seconds) > 0


@OPTION_SETS
def test_the_same_random_games_as_the_kernel(reference: Path, options: dict[str, str]) -> None:
    """--against-c compares the same work: with one seed the C program and the kernel's
    random_playouts draw the same actions and so play the very same games."""
    game = diceboard.game("custodian", **options)
    opts = game.opts
    flags = [str(int(opts[i])) for i in (0, 3, 4, 5)]
    for seed in (1, 2024):
        done = subprocess.run(
            [str(reference), "games", "40", str(seed), *flags],
            capture_output=True,
            text=True,
            check=True,
        )
        c_counts = [int(x) for x in done.stdout.split()[:6]]
        kernel_counts = game.kernel.random_playouts(
            game.initial_state().kernel_state(), opts, 40, seed, 100_000
        )
        assert c_counts == kernel_counts.tolist()
        assert c_counts[2] == 40


def test_unsupported_options_are_refused(reference: Path) -> None:
    state = diceboard.game("custodian", variant="chaos").parse(START)
    with pytest.raises(subprocess.CalledProcessError):
        c_perft(reference, state, 1)
    assert np.asarray(state.game.opts)[1] == 1
