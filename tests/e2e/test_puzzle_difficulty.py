"""The puzzles page in Chromium: puzzles come easiest first, a chosen difficulty serves only
its puzzles one after another, and the choice is kept after a reload."""

from __future__ import annotations

from typing import Any

import pytest

from diceboard.analysis.puzzles import shipped
from tests.e2e.conftest import Server, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def test_a_chosen_difficulty_is_served_and_kept(page: Any, server: Server) -> None:
    document = shipped("chase")
    counts = document["difficulties"]
    page.goto(f"{server.base}/puzzles#chase")
    page.wait_for_selector("body[data-puzzle]")
    # easiest first
    assert page.evaluate("document.body.dataset.difficulty") == "1"
    options = page.locator("#difficulty option").all_inner_texts()
    assert len(options) == 6 and options[0].startswith("All, easiest first")
    assert options[5].startswith("5") and f"({counts['5']})" in options[5]
    page.select_option("#difficulty", "4")
    page.wait_for_selector('body[data-difficulty="4"]')
    fours = [p["id"] for p in document["puzzles"] if p["difficulty"] == 4]
    first = page.evaluate("document.body.dataset.puzzle")
    assert first == fours[0]
    title = page.locator("#puzzle-title").inner_text()
    assert title == f"Puzzle 1 of {len(fours)} · difficulty 4 of 5"
    page.click("#next")
    page.wait_for_function(f"document.body.dataset.puzzle !== {first!r}")
    assert page.evaluate("document.body.dataset.puzzle") == fours[1]
    assert page.evaluate("document.body.dataset.difficulty") == "4"
    screenshot(page, "puzzle-chase-difficulty-4")
    # the choice is kept in the browser with the progress
    page.reload()
    page.wait_for_selector(f'body[data-puzzle="{fours[1]}"]')
    assert page.locator("#difficulty").input_value() == "4"
    # back to all of them: still easiest first, the next unsolved of the whole set
    page.select_option("#difficulty", "")
    page.wait_for_selector('body[data-difficulty="1"]')
