"""The standard research tools on the environments as shipped (issue 16): loading in a fresh
process (Gymnasium's ``module:id``, one import for OpenSpiel), PettingZoo's whole test suite
called as a user calls it,
both ``check_env``s silent under ``-W error``, true game-length bounds, one mask dtype, and the
environment versions pinned to a digest of what they hand out."""

from __future__ import annotations

import logging
import subprocess
import sys
import warnings
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import diceboard
from diceboard.envs.common import LENGTH_CAP, MASK_DTYPE
from tests.envs.versions import INTERFACES, layout_digest, version_of

ROOT = Path(__file__).resolve().parents[2]
NAMES = diceboard.games.names()

#: (game, interface) -> (digest of the observation layout and action space, version). A change
#: to either changes the digest: bump the version in the game's ``info.environments`` (a new
#: id) and write the new digest here (``python -m tests.envs.versions`` prints both).
PINNED = {
    ("custodian", "pettingzoo"): ("e1a9273eb58eebe2", 0),
    ("custodian", "gymnasium"): ("9363b562f15950f8", 1),
    ("custodian", "openspiel"): ("d6dd123e505c54bd", 0),
    ("chase", "pettingzoo"): ("f8cf285503edfd3e", 0),
    ("chase", "gymnasium"): ("ca0de12b02805a2b", 1),
    ("chase", "openspiel"): ("737ede85027e0886", 0),
}


def _fresh(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


# --- (8) versions -------------------------------------------------------------------------
@pytest.mark.parametrize("interface", INTERFACES)
@pytest.mark.parametrize("name", NAMES)
def test_the_version_in_the_id_is_pinned_to_the_layout(name: str, interface: str) -> None:
    pytest.importorskip("pettingzoo")
    env_name = diceboard.games.info(name).environments[interface]
    digest, version = PINNED[(name, interface)]
    assert version_of(env_name) == version, f"{env_name}: the pinned version is {version}"
    assert layout_digest(name, interface) == digest, (
        f"the observation layout or action space of {env_name} changed: bump its version "
        "and pin the new digest (python -m tests.envs.versions)"
    )


# --- (1) loading without ceremony ----------------------------------------------------------
def test_gymnasium_makes_every_env_in_a_fresh_process_from_module_and_id() -> None:
    # Gymnasium 1.x reads no plugin entry points; "module:id" makes it import the module
    pytest.importorskip("gymnasium")
    ids = [diceboard.games.info(n).environments["gymnasium"] for n in NAMES]
    done = _fresh(
        "import sys, gymnasium\n"
        f"for env_id in {ids!r}:\n"
        "    env = gymnasium.make(f'diceboard.envs.gymnasium:{env_id}')\n"
        "    obs, info = env.reset(seed=0)\n"
        "    space = env.observation_space['observation']\n"
        "    print(env.spec.id, obs['observation'].shape == space.shape)\n"
        f"vec = gymnasium.make_vec('diceboard.envs.gymnasium:{ids[-1]}', num_envs=2,\n"
        "                         vectorization_mode='async', no_capture_limit=20)\n"
        "print(vec.reset(seed=0)[0]['action_mask'].shape[0])\n"
        "vec.close()\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [x for i in ids for x in (i, "True")] + ["2"]


def test_gymnasium_needs_the_import_without_the_module_part() -> None:
    # what docs/research.md says: one import (register_envs is Gymnasium's idiom for it,
    # a no-op that keeps linters from calling the import unused), and no import no id
    pytest.importorskip("gymnasium")
    env_id = diceboard.games.info("chase").environments["gymnasium"]
    done = _fresh(
        "import gymnasium\n"
        "import diceboard.envs.gymnasium\n"
        "gymnasium.register_envs(diceboard.envs.gymnasium)\n"
        f"print(gymnasium.make({env_id!r}).spec.max_episode_steps)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(LENGTH_CAP)]
    bare = _fresh(f"import gymnasium\ngymnasium.make({env_id!r})\n")
    assert bare.returncode == 1 and "NamespaceNotFound" in bare.stderr


def test_openspiel_loads_after_one_import() -> None:
    pytest.importorskip("pyspiel")
    done = _fresh(
        "import pyspiel\n"
        "import diceboard.envs.openspiel  # noqa: F401\n"
        "game = pyspiel.load_game('python_custodian_dice', {'variant': 'chaos'})\n"
        "again = pyspiel.load_game(str(game))\n"
        "print(again.get_parameters()['variant'], again.max_chance_outcomes(),\n"
        "      pyspiel.load_game('python_chase(no_capture_limit=40)').num_distinct_actions())\n"
        "from diceboard.envs.openspiel import load_game\n"
        "print(load_game('chase').num_distinct_actions())\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["chaos", "6", "2025", "2025"]


# --- (2) PettingZoo's whole suite, as a user calls it ----------------------------------------
def _module_variants() -> list[tuple[str, dict[str, str]]]:
    """Every registered game's every variant, and Custodian's two ways of placing."""
    cases = [
        (name, {"variant": v.name} if len(diceboard.games.info(name).variants) > 1 else {})
        for name in NAMES
        for v in diceboard.games.info(name).variants
    ]
    return cases + [("custodian", {"placement": p}) for p in ("chosen", "rolled")]


@pytest.mark.parametrize("cycles", [None, 30], ids=["decisions", "max_cycles=30"])
@pytest.mark.parametrize("name", NAMES)
def test_the_pettingzoo_suite_passes_as_shipped(name: str, cycles: int | None) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import (
        api_test,
        max_cycles_test,
        parallel_api_test,
        parallel_seed_test,
        render_test,
        seed_test,
        state_test,
    )

    from diceboard.envs.pettingzoo import env_module

    mod = env_module(name)
    extra = {} if cycles is None else {"max_cycles": cycles}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning, ours above all, fails the test, but
        # PettingZoo's api_test warns about dict observations (its own board games have them)
        warnings.filterwarnings("ignore", message=".*(NumPy array|gymnasium.spaces.box).*")
        api_test(mod.env(**extra), num_cycles=100)
        parallel_api_test(mod.parallel_env(**extra), num_cycles=100)
        seed_test(partial(mod.env, **extra), num_cycles=50)
        parallel_seed_test(partial(mod.parallel_env, **extra), num_cycles=50)
        state_test(mod.env(**extra), mod.parallel_env(**extra), num_cycles=20)
        render_test(partial(mod.env, **extra))
        max_cycles_test(mod)


@pytest.mark.parametrize(("name", "options"), _module_variants(), ids=str)
def test_max_cycles_test_passes_on_every_variant(name: str, options: dict[str, str]) -> None:
    # Without a shim for illegal actions: the module's own env and parallel_env, with the
    # variant's options bound (max_cycles_test passes only max_cycles)
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import max_cycles_test

    from diceboard.envs.pettingzoo import env_module

    mod = env_module(name)
    for _ in range(10):
        max_cycles_test(
            SimpleNamespace(
                env=partial(mod.env, **options), parallel_env=partial(mod.parallel_env, **options)
            )
        )


def test_max_cycles_test_counts_a_chase_turn_of_several_decisions() -> None:
    # The cause of the old 1-in-75 failure: a capture in the test's first decisions makes
    # the captured side absorb, several decisions in a row. In cycles the other agent waits,
    # so each agent is still selected max_cycles times.
    pytest.importorskip("pettingzoo")
    from diceboard.envs.pettingzoo import chase_v0

    for seed in range(200):
        env = chase_v0.env(max_cycles=4)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        selected, waits = [], 0
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            selected.append(agent)
            waits += bool(info.get("waiting"))
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated or not len(legal) else rng.choice(legal))
        if waits:
            break
    assert waits, "no game of the first 200 seeds has a turn of several decisions"
    assert selected == ["player_0", "player_1"] * 5  # four live steps each, then one dead


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_max_cycles_test_passes_300_times_in_a_row(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import max_cycles_test

    from diceboard.envs.pettingzoo import env_module

    for _ in range(300):
        max_cycles_test(env_module(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_the_pettingzoo_performance_benchmark_runs(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import performance_benchmark

    from diceboard.envs.pettingzoo import env_module

    performance_benchmark(env_module(name).env())
    assert "turns per second" in capsys.readouterr().out


def test_max_cycles_means_cycles_in_both_views() -> None:
    pytest.importorskip("pettingzoo")
    from diceboard.envs.pettingzoo import chase_v0

    aec = chase_v0.raw_env(max_cycles=5)
    aec.reset(seed=1)
    selected = []
    while not any(aec.truncations.values()):
        selected.append(aec.agent_selection)
        obs = aec.observe(aec.agent_selection)
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]) if obs["action_mask"].any() else None)
    assert selected == ["player_0", "player_1"] * 5  # five steps by each agent
    par = chase_v0.parallel_env(max_cycles=5)
    par.reset(seed=1)
    steps = 0
    while par.agents:
        par.step(dict.fromkeys(par.agents, 0))
        steps += 1
    assert steps == 5  # five parallel steps


# --- (3), (4), (6) Gymnasium --------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_gymnasium_defaults_checkers_and_masks(name: str, caplog: pytest.LogCaptureFixture) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import diceboard.envs.gymnasium

    env_id = diceboard.games.info(name).environments["gymnasium"]
    env = gymnasium.make(env_id)
    assert env.spec is not None and env.spec.max_episode_steps is not None
    raw = env.unwrapped
    assert raw.seat_choice == "random"
    seats = {raw.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == set(raw.game.players)
    obs, _ = raw.reset(seed=0)
    assert obs["action_mask"].dtype == MASK_DTYPE == raw.action_masks().dtype
    assert raw.observation_space["action_mask"].dtype == MASK_DTYPE
    np.testing.assert_array_equal(obs["action_mask"], raw.action_masks())
    assert obs["observation"].reshape(raw.observation_shape).shape[0] == len(
        diceboard.encoding.encoding_for(name).planes
    )
    with caplog.at_level(logging.WARNING, logger="diceboard.envs"), warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(raw)  # plays unmasked random actions: illegal, so the learner loses
        sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
        sb3_checker.check_env(raw, warn=True)
    reports = [r for r in caplog.records if "the learner loses" in r.getMessage()]
    assert len(reports) == 1


def test_the_planes_layout_is_channels_first() -> None:
    pytest.importorskip("gymnasium")
    from diceboard.envs.gymnasium import ChaseEnv

    env = ChaseEnv(layout="planes", no_capture_limit=20)
    obs, _ = env.reset(seed=0)
    assert obs["observation"].shape == env.observation_shape == (24, 9, 9)


# --- (5) OpenSpiel's bound ----------------------------------------------------------------
def test_openspiel_max_game_length_is_a_true_bound() -> None:
    pytest.importorskip("pyspiel")
    from diceboard.envs.openspiel import load_game

    assert load_game("custodian").max_game_length() == 818
    assert load_game("custodian", no_capture_limit=0).max_game_length() == LENGTH_CAP
    game = load_game("chase", no_capture_limit=100)
    assert game.max_game_length() == LENGTH_CAP
    # the cap is enforced: a game that reaches it is over, a draw
    state = game.new_initial_state()
    state._spiel_game.max_length = lambda: 6  # type: ignore[method-assign]
    for _ in range(6):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


# --- (7) the example ----------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_the_masked_ppo_example_runs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("torch")
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import train_ppo
    finally:
        sys.path.remove(str(ROOT / "examples"))
    train_ppo.main(
        [
            "--game",
            name,
            "--seconds",
            "2",
            "--envs",
            "2",
            "--eval-games",
            "2",
            "--no-capture-limit",
            "10",
        ]
    )
    out = capsys.readouterr().out
    assert "vs random:" in out and "vs level:1:" in out
