"""Fitting the evaluation: the regression itself, self-play data, the weights files and the
``diceboard fit-eval`` command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import diceboard
from diceboard.ai.engine import engine_for
from diceboard.ai.fitting import fit_logistic, log_loss, self_play
from diceboard.ai.weights import weights_for, weights_record
from diceboard.cli.main import main
from diceboard.core.errors import OptionError


def test_logistic_regression_recovers_known_weights() -> None:
    rng = np.random.default_rng(3)
    x = np.column_stack([rng.normal(size=20_000), np.ones(20_000), rng.normal(size=20_000)])
    true = np.array([1.5, -0.4, 0.7])
    y = (rng.random(20_000) < 1.0 / (1.0 + np.exp(-(x @ true)))).astype(float)
    fitted = fit_logistic(x, y, l2=0.0)
    assert fitted == pytest.approx(true, abs=0.08)
    assert log_loss(x, y, fitted) < log_loss(x, y, np.zeros(3))


def test_draws_count_as_half_a_win() -> None:
    """With every result a draw the best model says 50 %: all weights zero."""
    x = np.column_stack([np.arange(100.0) % 7 - 3, np.ones(100)])
    fitted = fit_logistic(x, np.full(100, 0.5), l2=0.0)
    assert fitted == pytest.approx(np.zeros(2), abs=1e-9)


@pytest.mark.parametrize("name", ["custodian", "chase"])
def test_self_play_is_seeded(name: str) -> None:
    game = diceboard.game(name)
    weights = np.zeros(engine_for(name).num_features)
    weights[engine_for(name).binding.MATERIAL_FEATURE] = 1.0
    first = self_play(game, 12, 5, weights)
    again = self_play(game, 12, 5, weights)
    assert first.finished == 12 and len(first.results) > 50
    assert np.array_equal(first.features, again.features)
    assert np.array_equal(first.results, again.results)
    assert set(np.unique(first.results)) <= {0.0, 0.5, 1.0}
    other = self_play(game, 12, 6, weights)
    assert not np.array_equal(first.results, other.results)


@pytest.mark.parametrize("name", ["custodian", "chase"])
def test_committed_weights_match_the_features(name: str) -> None:
    record = weights_record(name)
    assert record["features"] == list(engine_for(name).feature_names)
    assert record["command"].startswith(f"diceboard fit-eval {name} ")
    full = weights_for(name)
    material = weights_for(name, "material")
    assert full.shape == material.shape == (engine_for(name).num_features,)
    # more material is better, and the material model uses nothing else
    assert full[0] > 0 and material[0] > 0 and not material[1:].any()
    # the fitted model beats the material one out of sample
    for info in record["rounds"]:
        loss = info["validation_log_loss"]
        assert loss["fitted"] <= loss["material"] < loss["coin"]


def test_unknown_evaluation() -> None:
    with pytest.raises(OptionError, match="unknown evaluation 'neural'"):
        weights_for("custodian", "neural")


def test_fit_eval_command_prints_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        ["fit-eval", "chase", "--games", "60", "--rounds", "1", "--seed", "3", "--out", "-"]
    )
    assert status == 0
    out, err = capsys.readouterr()
    record = json.loads(out)
    assert record["command"] == "diceboard fit-eval chase --games 60 --seed 3 --rounds 1"
    assert len(record["full"]) == len(record["features"]) == 10
    assert "round 1: 60/60 games finished" in err


def test_fit_eval_command_writes_the_same_file_twice(tmp_path: Path) -> None:
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in paths:
        assert (
            main(["fit-eval", "custodian", "--games", "40", "--rounds", "2", "--out", str(path)])
            == 0
        )
    assert paths[0].read_text() == paths[1].read_text()
    record = json.loads(paths[0].read_text())
    assert [r["round"] for r in record["rounds"]] == [1, 2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fit-eval", "custodian", "--games", "0"], "expected 1 or more"),
        (["fit-eval", "custodian", "--rounds", "x"], "expected a whole number"),
        (["fit-eval", "go"], "unknown game 'go'"),
        (
            [
                "fit-eval",
                "chase",
                "--games",
                "40",
                "--rounds",
                "1",
                "--out",
                "/nonexistent/dir/w.json",
            ],
            "no such folder",
        ),
        (["fit-eval", "chase", "--out", "/"], "is a folder, not a file"),
        (
            ["fit-eval", "custodian", "--games", "1", "--rounds", "1", "--out", "-"],
            "play more games",
        ),
    ],
)
def test_fit_eval_bad_input(argv: list[str], message: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "diceboard.cli", *argv], capture_output=True, text=True
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("diceboard: error:")
    assert message in lines[0]
    assert "Traceback" not in done.stderr
