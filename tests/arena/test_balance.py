"""Balance analysis and its HTML/CSV report."""

from __future__ import annotations

import csv
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

import diceboard
from diceboard.arena import analyse, render_html, write_report
from diceboard.arena.balance import BalanceResult, split_setup
from diceboard.core.errors import OptionError
from diceboard.core.game import Game


@pytest.fixture(scope="module")
def two_variants() -> BalanceResult:
    games = [diceboard.game("custodian"), diceboard.game("custodian", variant="chaos")]
    return analyse(games, "random", 12, seed=4)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: list[str] = []
        self.external: list[str] = []
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "section":
            self.sections.append(values["id"] or "")
        if tag == "svg":
            self.svgs += 1
        for key in ("src", "href"):
            if key in values and not (values[key] or "").startswith("#"):
                self.external.append(f"{tag} {key}={values[key]}")
        if tag in ("script", "link", "img", "iframe"):
            self.external.append(tag)


def test_report_has_every_section_and_no_external_resource(
    two_variants: BalanceResult, tmp_path: Path
) -> None:
    paths = write_report(two_variants, tmp_path)
    assert [p.name for p in paths] == ["report.html", "games.csv"]
    page = (tmp_path / "report.html").read_text()
    parser = _Collector()
    parser.feed(page)
    assert parser.sections == [
        "summary",
        "seats",
        "endings",
        "length",
        "captures",
        "setup",
        "comparison",
    ]
    assert parser.external == []
    assert parser.svgs == 4  # seats, length, captures, setup
    for heading in (
        "Win rate by seat",
        "Draws and how games end",
        "Game length",
        "Captures over time",
        "Setup rolls and the result",
        "Variants side by side",
    ):
        assert f">{heading}</h2>" in page


def test_csv_has_one_row_per_game(two_variants: BalanceResult, tmp_path: Path) -> None:
    write_report(two_variants, tmp_path)
    with open(tmp_path / "games.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 24
    assert [r["variant"] for r in rows] == ["standard"] * 12 + ["chaos"] * 12
    for row in rows:
        first, second = row["first_setup"], row["second_setup"]
        assert re.fullmatch(r"[1-6]{5}", first) and re.fullmatch(r"[1-6]{5}", second)
        assert int(row["setup_sum_difference"]) == sum(map(int, first)) - sum(map(int, second))
        assert row["winner"] in ("W", "B", "draw")
        assert int(row["first_dice_lost"]) == len(row["first_loss_plies"].split())
    # common random numbers: game g of each variant starts from the same rolls
    for g in range(12):
        assert rows[g]["first_setup"] == rows[12 + g]["first_setup"]
        assert rows[g]["chance_seed"] == rows[12 + g]["chance_seed"]


def test_numbers_agree_with_the_games(two_variants: BalanceResult) -> None:
    for variant in two_variants.variants:
        assert variant.wins(0).count + variant.wins(1).count + variant.draws().count == 12
        endings = variant.endings()
        assert sum(endings.values()) == 12
        assert sum(n for (who, _), n in endings.items() if who == "draw") == variant.draws().count
        groups = variant.by_sum_difference()
        assert sum(g.n for g in groups) == 12
        for face in range(1, 7):
            assert sum(g.n for g in variant.by_face(face)) == 12
        dice = variant.dice_by_ply
        assert dice.shape[1] == 2 and dice.max() <= 5.0
        lost = [len(g.dice_lost(0)) for g in variant.games]
        assert variant.dice_lost(0).value == pytest.approx(sum(lost) / 12)


def test_the_report_is_deterministic_for_a_seed(two_variants: BalanceResult) -> None:
    games = [diceboard.game("custodian"), diceboard.game("custodian", variant="chaos")]
    again = analyse(games, "random", 12, seed=4)
    assert again.games == two_variants.games
    assert render_html(again) == render_html(two_variants)


def test_one_variant_has_no_comparison(custodian: Game) -> None:
    page = render_html(analyse([custodian], "random", 3, seed=1))
    assert 'id="comparison"' not in page and 'id="setup"' in page


def test_split_setup() -> None:
    assert split_setup((1, 2, 3, 4, 5, 6, 6, 6, 6, 6)) == ((1, 2, 3, 4, 5), (6, 6, 6, 6, 6))
    assert split_setup(()) == ((), ())


def test_bad_analyses(custodian: Game) -> None:
    with pytest.raises(OptionError, match="given twice"):
        analyse([custodian, diceboard.game("custodian")], "random", 2)
    with pytest.raises(OptionError, match="unknown agent"):
        analyse([custodian], "oracle", 2)
    with pytest.raises(OptionError, match="at least 1"):
        analyse([custodian], "random", 0)
    with pytest.raises(OptionError, match="at least one"):
        analyse([], "random", 2)


def test_chase_report(chase: Game, tmp_path: Path) -> None:
    result = analyse([chase], "random", 3, seed=2)
    write_report(result, tmp_path)
    page = (tmp_path / "report.html").read_text()
    assert 'id="setup"' not in page and 'id="captures"' in page
    with open(tmp_path / "games.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 and rows[0]["first_setup"] == ""


def test_reports_without_matplotlib_say_how_to_install(
    two_variants: BalanceResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # makes the import fail
    with pytest.raises(OptionError, match=r"pip install 'diceboard\[report\]'"):
        write_report(two_variants, tmp_path / "r")
    assert not (tmp_path / "r").exists()
