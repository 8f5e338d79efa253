"""The balance report: one self-contained HTML file (plots inline as SVG) and the raw CSV.

The HTML has no external resources (no scripts, fonts or style sheets from elsewhere), so it
can be mailed or archived as it is, and it is byte-for-byte the same for the same seed.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import diceboard
from diceboard.arena.balance import CSV_HEADER, BalanceResult, Rate, SetupGroup, VariantAnalysis
from diceboard.arena.output import csv_text, prepare_out_dir, write_text
from diceboard.arena.plotting import PALETTE, figure_svg, new_figure

#: the files that :func:`write_report` writes
REPORT_FILES = ("report.html", "games.csv")

#: section id -> heading, in report order (the setup and comparison sections are conditional)
SECTIONS = {
    "summary": "Summary",
    "seats": "Win rate by seat",
    "endings": "Draws and how games end",
    "length": "Game length",
    "captures": "Captures over time",
    "setup": "Setup rolls and the result",
    "comparison": "Variants side by side",
}

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222;
       line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .8em 0; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f2f2f2; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
figcaption, .note { color: #555; font-size: .9em; }
code { background: #f4f4f4; padding: 0 .2em; }
"""


def _e(value: Any) -> str:
    return html.escape(str(value))


def _pct(rate: Rate) -> str:
    return f"{100 * rate.value:.1f} % [{100 * rate.low:.1f}, {100 * rate.high:.1f}]"


def _num(value: float, digits: int = 1) -> str:
    return "–" if math.isnan(value) else f"{value:.{digits}f}"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _figure(fig: Any, caption: str) -> str:
    return f"<figure>{figure_svg(fig)}<figcaption>{_e(caption)}</figcaption></figure>"


def _section(key: str, body: str) -> str:
    return f'<section id="{key}"><h2>{_e(SECTIONS[key])}</h2>{body}</section>'


# --- sections ------------------------------------------------------------------------------------
def _summary(result: BalanceResult) -> str:
    variants = result.variants
    names = variants[0].game.player_names
    header = ["", *(v.label for v in variants)]
    rows: list[list[Any]] = [
        ["games", *(v.n for v in variants)],
        [f"{names[0]} (first) wins", *(_pct(v.wins(0)) for v in variants)],
        [f"{names[1]} (second) wins", *(_pct(v.wins(1)) for v in variants)],
        ["draws", *(_pct(v.draws()) for v in variants)],
        [f"{names[0]}'s score", *(_num(v.first_score().value, 3) for v in variants)],
        ["mean length (plies)", *(_num(v.length_summary()["mean"]) for v in variants)],
        [f"dice {names[0]} lost", *(_num(v.dice_lost(0).value, 2) for v in variants)],
        [f"dice {names[1]} lost", *(_num(v.dice_lost(1).value, 2) for v in variants)],
    ]
    note = (
        '<p class="note">Rates with 95 % Wilson intervals. A score counts a win as 1 and a '
        "draw as ½.</p>"
    )
    return _section("summary", _table(header, rows) + note)


def _seats(result: BalanceResult) -> str:
    variants = result.variants
    names = variants[0].game.player_names
    fig = new_figure(7.0, 3.4)
    ax = fig.add_subplot()
    series = [(f"{names[0]} wins", 0), (f"{names[1]} wins", 1), ("draws", None)]
    width = 0.8 / len(series)
    xs = np.arange(len(variants))
    for k, (label, seat) in enumerate(series):
        rates = [v.draws() if seat is None else v.wins(seat) for v in variants]
        values = [100 * r.value for r in rates]
        errors = [
            [100 * (r.value - r.low) for r in rates],
            [100 * (r.high - r.value) for r in rates],
        ]
        ax.bar(
            xs + (k - 1) * width,
            values,
            width,
            yerr=errors,
            capsize=3,
            label=label,
            color=PALETTE[k],
        )
    ax.axhline(50, color="#999999", linewidth=0.8, zorder=0)
    ax.set_xticks(xs, [v.label for v in variants])
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.legend(loc="upper right", frameon=False)
    body = _figure(fig, "Share of games won by each seat, and drawn, with 95 % Wilson intervals.")
    rows = []
    for v in variants:
        score = v.first_score()
        rows.append(
            [
                v.label,
                v.n,
                _pct(v.wins(0)),
                _pct(v.wins(1)),
                _pct(v.draws()),
                f"{_num(score.value, 3)} [{_num(score.low, 3)}, {_num(score.high, 3)}]",
            ]
        )
    header = [
        "variant",
        "games",
        f"{names[0]} wins",
        f"{names[1]} wins",
        "draws",
        f"{names[0]}'s score",
    ]
    return _section("seats", body + _table(header, rows))


def _endings(result: BalanceResult) -> str:
    variants = result.variants
    keys = sorted({key for v in variants for key in v.endings()}, key=lambda k: (k[0] != "draw", k))
    rows = [
        [
            f"{who} by {reason}" if who != "draw" else f"draw by {reason}",
            *(v.endings().get((who, reason), 0) for v in variants),
        ]
        for who, reason in keys
    ]
    draws = [v.draws() for v in variants]
    text = "; ".join(
        f"{v.label}: {int(d.count)} of {d.n} drawn" for v, d in zip(variants, draws, strict=True)
    )
    body = f"<p>{_e(text)}.</p>" + _table(["ending", *(v.label for v in variants)], rows)
    return _section("endings", body)


def _length(result: BalanceResult) -> str:
    variants = result.variants
    fig = new_figure(7.0, 3.4)
    ax = fig.add_subplot()
    longest = max(max(v.lengths()) for v in variants)
    bins = np.linspace(0, longest + 1, min(40, longest + 2))
    for k, v in enumerate(variants):
        ax.hist(
            v.lengths(), bins=bins, histtype="step", linewidth=1.6, color=PALETTE[k], label=v.label
        )
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.legend(frameon=False)
    keys = ("mean", "median", "p10", "p90", "min", "max")
    rows = [[v.label, *(_num(v.length_summary()[key]) for key in keys)] for v in variants]
    body = _figure(fig, "Distribution of game length (the final position's ply counter).")
    return _section("length", body + _table(["variant", *keys], rows))


def _captures(result: BalanceResult) -> str:
    variants = result.variants
    names = variants[0].game.player_names
    fig = new_figure(7.0, 3.6)
    ax = fig.add_subplot()
    for k, v in enumerate(variants):
        dice = v.dice_by_ply
        plies = np.arange(len(dice))
        ax.plot(plies, dice[:, 0], color=PALETTE[k], label=f"{v.label}: {names[0]}")
        ax.plot(plies, dice[:, 1], color=PALETTE[k], linestyle="--", label=f"{v.label}: {names[1]}")
    ax.set_xlabel("ply")
    ax.set_ylabel("mean dice on the board")
    ax.legend(frameon=False, fontsize="small")
    rows = []
    for v in variants:
        lost = [v.dice_lost(0), v.dice_lost(1)]
        rows.append(
            [v.label, *(f"{_num(e.value, 2)} [{_num(e.low, 2)}, {_num(e.high, 2)}]" for e in lost)]
        )
    body = _figure(
        fig,
        "Mean number of dice on the board by ply (solid: first player, dashed: second); a "
        "finished game keeps its final counts.",
    )
    header = ["variant", f"dice {names[0]} lost per game", f"dice {names[1]} lost per game"]
    return _section("captures", body + _table(header, rows))


def _group_rows(groups: Sequence[SetupGroup]) -> list[list[Any]]:
    return [
        [g.label, g.n, _pct(g.first_wins) if g.n else "–", g.draws, _num(g.first_score, 3)]
        for g in groups
    ]


def _setup(result: BalanceResult) -> str:
    variants = [v for v in result.variants if v.has_setup_rolls]
    names = variants[0].game.player_names
    fig = new_figure(7.0, 3.4)
    ax = fig.add_subplot()
    for k, v in enumerate(variants):
        groups = v.by_sum_difference()
        xs = [i for i, g in enumerate(groups) if g.n]
        rates = [groups[i].first_wins for i in xs]
        ax.errorbar(
            np.array(xs) + 0.08 * (k - (len(variants) - 1) / 2),
            [100 * r.value for r in rates],
            yerr=[
                [100 * (r.value - r.low) for r in rates],
                [100 * (r.high - r.value) for r in rates],
            ],
            fmt="o-",
            capsize=3,
            color=PALETTE[k],
            label=v.label,
        )
    groups0 = variants[0].by_sum_difference()
    ax.set_xticks(range(len(groups0)), [g.label for g in groups0])
    ax.set_xlabel(f"setup face sum, {names[0]} minus {names[1]}")
    ax.set_ylabel(f"% won by {names[0]}")
    ax.set_ylim(0, 100)
    ax.legend(frameon=False)
    parts = [
        "<p>Each player's five dice are rolled before the game; these tables group the games "
        f"by how the rolls compare and show {names[0]}'s results in each group (win rates "
        "with 95 % Wilson intervals).</p>",
        _figure(fig, f"{names[0]}'s win rate by the difference of the rolled face sums."),
    ]
    header = ["group", "games", f"{names[0]} wins", "draws", f"{names[0]}'s score"]
    for v in variants:
        slope = v.sum_difference_slope()
        parts.append(f"<h3>{_e(v.label)}</h3>")
        parts.append(
            f"<p>{_e(names[0])}'s score changes by {_num(slope.value, 4)} "
            f"[{_num(slope.low, 4)}, {_num(slope.high, 4)}] per point of face-sum difference "
            "(least squares, 95 % interval).</p>"
        )
        parts.append(_table(header, _group_rows(v.by_sum_difference())))
        rows = []
        for face in range(1, 7):
            for g in v.by_face(face):
                rows.append(
                    [
                        f"{face}s: {g.label}",
                        g.n,
                        _pct(g.first_wins) if g.n else "–",
                        g.draws,
                        _num(g.first_score, 3),
                    ]
                )
        parts.append("<p>By the rolled dice: who rolled more dice showing each face.</p>")
        parts.append(_table(header, rows))
    return _section("setup", "".join(parts))


def _comparison(result: BalanceResult) -> str:
    variants = result.variants
    names = variants[0].game.player_names
    rows = []
    for i, v in enumerate(variants[1:], start=1):
        diff = result.score_difference(i)
        rows.append(
            [
                v.label,
                variants[0].label,
                f"{_num(diff.value, 3)} [{_num(diff.low, 3)}, {_num(diff.high, 3)}]",
                _num(v.length_summary()["mean"] - variants[0].length_summary()["mean"]),
                f"{100 * (v.draws().value - variants[0].draws().value):+.1f}",
            ]
        )
    body = (
        "<p>Game <i>g</i> of every variant uses the same dice and agent seeds, so each "
        "difference below is taken game by game (paired), with a 95 % interval.</p>"
        + _table(
            [
                "variant",
                "against",
                f"{names[0]}'s score difference",
                "length difference (plies)",
                "draw rate difference (points)",
            ],
            rows,
        )
    )
    return _section("comparison", body)


def render_html(result: BalanceResult, command: str | None = None) -> str:
    """The report as one HTML document."""
    variants = result.variants
    game = variants[0].game
    title = f"Balance report: {game.title}"
    intro = (
        f"<p>{result.games_per_variant} games per variant, agent <code>{_e(result.agent)}</code> "
        f"on both sides, seed {result.seed}; variants: "
        + ", ".join(f"<b>{_e(v.label)}</b>" for v in variants)
        + f". diceboard {diceboard.__version__}.</p>"
    )
    if command:
        intro += f'<p class="note">Made by <code>{_e(command)}</code></p>'
    sections = [
        _summary(result),
        _seats(result),
        _endings(result),
        _length(result),
        _captures(result),
    ]
    if any(v.has_setup_rolls for v in variants):
        sections.append(_setup(result))
    if len(variants) > 1:
        sections.append(_comparison(result))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{_e(title)}</h1>{intro}{''.join(sections)}</body></html>\n"
    )


def write_report(
    result: BalanceResult, out_dir: str | Path, overwrite: bool = False, command: str | None = None
) -> list[Path]:
    """Write ``report.html`` and ``games.csv`` (one row per game) into ``out_dir``."""
    page = render_html(result, command)  # before touching the folder: may need matplotlib
    folder = prepare_out_dir(out_dir, REPORT_FILES, overwrite)
    return [
        write_text(folder / "report.html", page),
        write_text(folder / "games.csv", csv_text(CSV_HEADER, result.rows())),
    ]


def variant_summary(variant: VariantAnalysis) -> str:
    """One line for the terminal: seat win rates and draws."""
    names = variant.game.player_names
    return (
        f"{variant.label}: {variant.n} games; {names[0]} wins {_pct(variant.wins(0))}, "
        f"{names[1]} wins {_pct(variant.wins(1))}, draws {_pct(variant.draws())}"
    )
