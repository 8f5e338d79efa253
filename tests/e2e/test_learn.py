"""Lessons and puzzles in Chromium: every lesson completed by playing its intended move with
the mouse, a wrong move explained, a puzzle solved and one failed, progress kept."""

from __future__ import annotations

from typing import Any

import pytest

import diceboard
from diceboard.analysis import lessons as L
from diceboard.analysis.puzzles import shipped
from tests.e2e.conftest import Server, screenshot
from tests.e2e.driver import play_by_clicks

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def _described(legal: list[dict[str, Any]], notation: str) -> dict[str, Any]:
    return next(m for m in legal if m["notation"] == notation)


def _open_lesson(page: Any, server: Server, name: str, lesson_id: str) -> dict[str, Any]:
    page.goto(f"{server.base}/learn/{name}#{lesson_id}")
    page.wait_for_selector(f'body[data-lesson="{lesson_id}"]')
    page.wait_for_selector("#board svg")
    return dict(server.api("GET", f"/api/learn/{name}/{lesson_id}"))


@pytest.mark.parametrize("name", L.lesson_names())
def test_every_lesson_is_completed_by_its_intended_move(
    page: Any, server: Server, name: str
) -> None:
    items = L.lessons(name)["lessons"]
    for n, item in enumerate(items):
        shown = _open_lesson(page, server, name, item["id"])
        assert page.locator("#lesson-text").inner_text() == item["text"]
        # the board marks what matters
        assert page.locator("#board .mark-focus, #board .mark-target, #board .mark-capture").count()
        canonical = L.start_of(name, item).parse_move(item["play"]).notation
        play_by_clicks(page, _described(shown["legal"], canonical))
        page.wait_for_selector('body[data-result="correct"]')
        assert item["success"] in page.locator("#message").inner_text()
        assert page.locator(f'#lessons li.done a[data-lesson="{item["id"]}"]').count() == 1
        if n in (0, len(items) - 1) or item["id"] in ("absorb", "placement", "chamber"):
            screenshot(page, f"learn-{name}-{item['id']}")
    # progress is kept in the browser: every lesson ticked after a reload
    page.reload()
    page.wait_for_selector("#lessons li")
    assert page.locator("#lessons li.done").count() == len(items)
    assert page.locator("#rules-link").get_attribute("href") == f"/rules/{name}"


def test_a_wrong_move_is_explained_and_can_be_tried_again(page: Any, server: Server) -> None:
    shown = _open_lesson(page, server, "custodian", "capture")
    wrong = next(m for m in shown["legal"] if m.get("from") == "c4")
    play_by_clicks(page, wrong)
    page.wait_for_selector('body[data-result="wrong"]')
    assert "slice of the sandwich" in page.locator("#message").inner_text()
    screenshot(page, "learn-custodian-wrong")
    page.click("#retry")
    page.wait_for_selector('body[data-result=""]')
    # typed notation that the engine refuses gets the engine's reason
    page.fill("#notation-input", "a2-e4=1")
    page.press("#notation-input", "Enter")
    page.wait_for_selector('body[data-result="wrong"]')
    assert "no walk of exactly 2 steps" in page.locator("#message").inner_text()


def _puzzle_games() -> list[str]:
    names = []
    for name in diceboard.games.names():
        try:
            shipped(name)
        except diceboard.OptionError:
            continue
        names.append(name)
    return names


@pytest.mark.parametrize("name", _puzzle_games())
def test_a_puzzle_solved_and_one_failed(page: Any, server: Server, name: str) -> None:
    by_id = {p["id"]: p for p in shipped(name)["puzzles"]}
    page.goto(f"{server.base}/puzzles#{name}")
    page.wait_for_selector("body[data-puzzle]")
    first = page.evaluate("document.body.dataset.puzzle")
    shown = server.api("GET", f"/api/puzzles/{name}/{first}")
    play_by_clicks(page, _described(shown["legal"], by_id[first]["solution"]))
    page.wait_for_selector('body[data-result="correct"]')
    assert page.locator("#progress").get_attribute("data-solved") == "1"
    solved = page.locator("#message").inner_text()
    # what the move does is said once, in the server's sentence (the page once added its
    # own "(the move wins the game)" after it)
    assert solved.startswith("✓ Solved: ") and solved.endswith(")."), solved
    screenshot(page, f"puzzle-{name}-solved")
    page.click("#next")
    page.wait_for_function(f"document.body.dataset.puzzle !== {first!r}")
    second = page.evaluate("document.body.dataset.puzzle")
    shown = server.api("GET", f"/api/puzzles/{name}/{second}")
    solution = _described(shown["legal"], by_id[second]["solution"])
    squares = (solution.get("from"), solution.get("to"))
    wrong = next(m for m in shown["legal"] if (m.get("from"), m.get("to")) != squares)
    play_by_clicks(page, wrong)
    page.wait_for_selector('body[data-result="wrong"]')
    explained = page.locator("#message").inner_text()
    assert explained.startswith(f"{wrong['notation']} ")
    assert "is not the answer" in explained or "ends the game" in explained
    assert page.locator("#progress").get_attribute("data-failed") == "1"
    page.click("#show-solution")
    page.wait_for_selector("#solution:not([hidden]) #line button.move")
    assert page.evaluate("document.body.dataset.solution") == by_id[second]["solution"]
    screenshot(page, f"puzzle-{name}-failed")
    # the progress is remembered: after a reload the same puzzle and the same score
    page.reload()
    page.wait_for_selector(f'body[data-puzzle="{second}"]')
    page.wait_for_selector('#progress[data-solved="1"][data-failed="1"]')
