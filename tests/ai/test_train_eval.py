"""``diceboard train-eval``: a few seconds of training (a smoke test of the whole loop), its
determinism, the exported network's agreement with PyTorch, and a short match of the
network against the linear evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import diceboard
from diceboard.ai import netdata
from diceboard.ai.weights import net_size, weights_for
from diceboard.cli.main import main

torch = pytest.importorskip("torch")


def _train(tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    out = tmp_path / f"{name}.json"
    args = ["train-eval", "chase", "--seed", "3", "--rounds", "2", "--games", "3"]
    assert main([*args, "--epochs", "1", "--depth", "1", "--out", str(out)]) == 0
    assert "round 2:" in capsys.readouterr().err
    record: dict[str, object] = json.loads(out.read_text())
    return record


def test_training_runs_and_is_deterministic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _train(tmp_path, "a", capsys)
    again = _train(tmp_path, "b", capsys)
    assert first["weights"] == again["weights"]
    assert len(first["weights"]) == net_size("chase")  # type: ignore[arg-type]
    assert first["command"] == (
        "diceboard train-eval chase --seed 3 --rounds 2 --games 3 --depth 1 --epochs 1"
    )
    rounds = first["rounds"]
    assert isinstance(rounds, list) and len(rounds) == 2


def test_an_untrained_network_is_the_linear_model() -> None:
    """Before training the network's logit is the linear model's, position for position."""
    from diceboard.ai.training import Scale, export, new_net

    game = diceboard.game("custodian")
    positions = netdata.self_play(game, weights_for("custodian"), 1, 1, depth=1)
    encoded = netdata.encode(game, positions.states)
    linear = weights_for("custodian")
    net = new_net(game, linear, Scale.of(encoded.features))
    vector = export(game, net, Scale.of(encoded.features))
    got = netdata.reference_logit(game, vector, encoded)
    assert got == pytest.approx(encoded.features @ linear, abs=1e-4)


def test_export_matches_pytorch() -> None:
    """The exported vector computes what the PyTorch module computes."""
    from diceboard.ai.training import Scale, export, new_net

    game = diceboard.game("chase")
    positions = netdata.self_play(game, weights_for("chase"), 1, 2, depth=1)
    encoded = netdata.encode(game, positions.states)
    scale = Scale.of(encoded.features)
    torch.manual_seed(0)
    net = new_net(game, weights_for("chase"), scale)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(0.2 * torch.randn_like(p))
        want = net(
            torch.tensor(encoded.active),
            torch.tensor(scale.apply(encoded.features), dtype=torch.float32),
        ).numpy()
    got = netdata.reference_logit(game, export(game, net, scale), encoded)
    assert np.std(want) > 0.1
    assert got == pytest.approx(want.astype(np.float64), abs=1e-3)


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["train-eval", "chase", "--games", "0"]) == 2
    assert main(["train-eval", "chase", "--out", str(tmp_path / "missing" / "x.json")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_a_short_match_of_the_network_against_the_linear_evaluation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two colour-swapped games at depth 1 through ``diceboard match``."""
    spec_a, spec_b = "alphabeta:depth=1,eval=net", "alphabeta:depth=1,eval=linear"
    args = ["match", spec_a, spec_b, "--game", "chase", "--games", "2", "--seed", "1"]
    assert main([*args, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "2 games" in out
