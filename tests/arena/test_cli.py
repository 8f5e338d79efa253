"""The real ``diceboard match``, ``tournament`` and ``analyse`` commands, end to end."""

from __future__ import annotations

import csv
import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from diceboard.records import read_pgn
from tests.arena.conftest import assert_usage_error

Cli = Callable[..., subprocess.CompletedProcess[str]]


def test_match_prints_a_summary_and_saves_the_games(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = cli(
        "match",
        "random",
        "random",
        "--game",
        "custodian",
        "--games",
        "4",
        "--seed",
        "3",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Custodian Dice (standard): random vs random, 4 games, seed 3"
    assert any(line.strip().startswith("Elo difference:") for line in lines)
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["match.csv", "match.json", "match.pgn"]
    records = read_pgn((out / "match.pgn").read_text())
    summary = json.loads((out / "match.json").read_text())
    assert len(records) == summary["games_played"] == 4
    assert [r.result for r in records] == [g["result"] for g in summary["games"]]
    # stdout states the same counts as the JSON
    assert (
        f"{summary['wins']} wins, {summary['draws']} draws, {summary['losses']} losses"
        in done.stdout
    )


def test_match_results_do_not_depend_on_workers(cli: Cli, tmp_path: Path) -> None:
    for workers in ("1", "2"):
        done = cli(
            "match",
            "random",
            "random",
            "--game",
            "custodian",
            "--variant",
            "chaos",
            "--games",
            "4",
            "--seed",
            "8",
            "--workers",
            workers,
            "--out",
            str(tmp_path / workers),
        )
        assert done.returncode == 0, done.stderr
    for name in ("match.pgn", "match.csv", "match.json"):
        assert (tmp_path / "1" / name).read_text() == (tmp_path / "2" / name).read_text()


def test_match_with_sprt_stops_early(cli: Cli) -> None:
    done = cli(
        "match",
        "random",
        "random",
        "--game",
        "custodian",
        "--games",
        "400",
        "--seed",
        "2",
        "--sprt",
        "--elo0",
        "-500",
        "--elo1",
        "-400",
    )
    assert done.returncode == 0, done.stderr
    assert "H1 accepted" in done.stdout
    games = int(done.stdout.splitlines()[0].split(", ")[1].split()[0])
    assert games < 400


def test_tournament_prints_standings_and_plots(cli: Cli, tmp_path: Path) -> None:
    plot = tmp_path / "ratings.png"
    done = cli(
        "tournament",
        "random",
        "random:",
        "--game",
        "custodian",
        "--games-per-pair",
        "4",
        "--seed",
        "1",
        "--format",
        "csv",
        "--plot",
        str(plot),
        "--out",
        str(tmp_path / "t"),
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(done.stdout.splitlines()))
    assert sorted(r["agent"] for r in rows) == ["random", "random:"]
    assert sum(int(r["games"]) for r in rows) == 8
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert len(read_pgn((tmp_path / "t" / "tournament.pgn").read_text())) == 4
    text = cli(
        "tournament",
        "random",
        "random:",
        "--game",
        "custodian",
        "--games-per-pair",
        "4",
        "--seed",
        "1",
        "--anchor",
        "mean",
    )
    assert "Bradley-Terry Elo (mean = 0)" in text.stdout


def test_analyse_writes_report_and_csv(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "balance"
    done = cli(
        "analyse",
        "custodian",
        "--variant",
        "standard",
        "--variant",
        "no-jumping",
        "--games",
        "5",
        "--agent",
        "random",
        "--seed",
        "6",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.splitlines()[0] == "Custodian Dice: 5 games per variant, agent random, seed 6"
    )
    page = (out / "report.html").read_text()
    for section in ("summary", "seats", "endings", "length", "captures", "setup", "comparison"):
        assert f'<section id="{section}">' in page
    with open(out / "games.csv", newline="") as handle:
        assert len(list(csv.DictReader(handle))) == 10


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["match", "random", "wizard", "--game", "custodian", "--games", "2"],
            ["unknown agent 'wizard'"],
        ),
        (
            ["match", "random", "random", "--game", "custodian", "--games", "0"],
            ["--games", "1 or more"],
        ),
        (["match", "random", "random", "--game", "custodian", "--games", "x"], ["--games"]),
        (
            [
                "match",
                "random",
                "random",
                "--game",
                "custodian",
                "--games",
                "2",
                "--backend",
                "gpu",
            ],
            ["--backend", "gpu"],
        ),
        (
            ["match", "random", "random", "--game", "custodian", "--games", "2", "--workers", "0"],
            ["--workers"],
        ),
        (["match", "random", "random", "--game", "go", "--games", "2"], ["unknown game 'go'"]),
        (
            [
                "match",
                "random",
                "random",
                "--game",
                "custodian",
                "--games",
                "2",
                "--option",
                "faces=6",
            ],
            ["faces"],
        ),
        (
            ["match", "random", "random", "--game", "custodian", "--games", "2", "--elo1", "5"],
            ["--elo1 needs --sprt"],
        ),
        (
            [
                "match",
                "random",
                "random",
                "--game",
                "custodian",
                "--games",
                "2",
                "--sprt",
                "--alpha",
                "2",
            ],
            ["alpha"],
        ),
        (
            [
                "match",
                "random",
                "random",
                "--game",
                "custodian",
                "--games",
                "2",
                "--ray-address",
                "auto",
            ],
            ["--backend ray"],
        ),
        (["match", "random", "random", "--games", "2"], ["--game"]),
        (
            ["tournament", "random", "--game", "custodian", "--games-per-pair", "2"],
            ["at least two agents"],
        ),
        (
            ["tournament", "random", "random:", "--game", "custodian", "--games-per-pair", "-1"],
            ["--games-per-pair"],
        ),
        (
            [
                "tournament",
                "random",
                "random:",
                "--game",
                "custodian",
                "--games-per-pair",
                "2",
                "--anchor",
                "x",
            ],
            ["--anchor"],
        ),
        (
            [
                "tournament",
                "random",
                "random:",
                "--game",
                "custodian",
                "--games-per-pair",
                "2",
                "--format",
                "xml",
            ],
            ["--format"],
        ),
        (
            ["match", "random", "wizard", "--game", "custodian", "--games", "2", "--out", "x"],
            ["unknown agent 'wizard'"],
        ),
        (
            [
                "tournament",
                "random",
                "wizard",
                "--game",
                "custodian",
                "--games-per-pair",
                "2",
                "--out",
                "x",
            ],
            ["unknown agent 'wizard'"],
        ),
        (["analyse", "custodian", "--games", "2", "--agent", "random"], ["--out"]),
        (
            ["analyse", "custodian", "--games", "2", "--agent", "nobody", "--out", "x"],
            ["unknown agent"],
        ),
        (
            [
                "analyse",
                "custodian",
                "--variant",
                "fast",
                "--games",
                "2",
                "--agent",
                "random",
                "--out",
                "x",
            ],
            ["variant"],
        ),
    ],
)
def test_bad_input_exits_2_with_one_line(
    cli: Cli, tmp_path: Path, args: list[str], words: list[str]
) -> None:
    assert_usage_error(cli(*args, cwd=tmp_path), *words)
    assert not (tmp_path / "x").exists()


def test_existing_results_are_kept(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "match.pgn").write_text("precious")
    done = cli(
        "match", "random", "random", "--game", "custodian", "--games", "2", "--out", str(tmp_path)
    )
    assert_usage_error(done, "already exists", "--overwrite")
    assert (tmp_path / "match.pgn").read_text() == "precious"


def test_chase_match_on_the_command_line(cli: Cli, chase: object) -> None:
    done = cli("match", "random", "random", "--game", "chase", "--games", "2", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Chase")
