"""The pages put together from their own body and the shared parts (server/pages.py): each
address serves a whole, well-formed document with its own head, the shared board, chooser
and notation form, and a page that names something missing is refused when it is built."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from diceboard.server import pages

#: elements that have no end tag
VOID = {"meta", "link", "input", "br", "img", "hr", "source", "wbr"}


class Checker(HTMLParser):
    """Reads a document: its element ids (each must be unique), the tags left open or closed
    out of turn, and what the head loads."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.problems: list[str] = []
        self.ids: list[str] = []
        self.scripts: list[str] = []
        self.sheets: list[str] = []
        self.comments: list[str] = []
        self.body_class: str | None = None
        self.title = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.append(str(found["id"]))
        if tag == "script":
            self.scripts.append(str(found.get("src")))
        if tag == "link" and found.get("rel") == "stylesheet":
            self.sheets.append(str(found.get("href")))
        if tag == "body":
            self.body_class = found.get("class")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1] == "title":
            self.title += data

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)


def read(document: str) -> Checker:
    checker = Checker()
    checker.feed(document)
    checker.close()
    return checker


#: address, the page's script, its stylesheets, body class, and whether it has a board
ADDRESSES = [
    ("/", "home", [], "home", False),
    ("/game/abc", "game", [], "game-page", True),
    ("/game/abc/join", "game", [], "game-page", True),
    ("/analysis", "analysis", ["analysis"], "game-page analysis-page", True),
    ("/learn", "learn", ["learn"], "learn-page", True),
    ("/learn/chase", "learn", ["learn"], "learn-page", True),
    ("/puzzles", "puzzles", ["learn"], "puzzles-page", True),
]


@pytest.mark.parametrize(("address", "script", "styles", "body", "board"), ADDRESSES)
def test_every_address_serves_its_whole_page(
    client: TestClient, address: str, script: str, styles: list[str], body: str, board: bool
) -> None:
    response = client.get(address)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "Content-Security-Policy" in response.headers
    document = response.text
    assert document.startswith('<!doctype html>\n<html lang="en">\n<head>\n')
    page = read(document)
    assert page.problems == [] and page.stack == []
    assert len(page.ids) == len(set(page.ids)), "an id stands twice"
    assert page.scripts == [f"/static/js/{script}.js"]
    assert page.sheets == ["/static/css/app.css", *[f"/static/css/{s}.css" for s in styles]]
    assert page.body_class == body
    assert "diceboard" in page.title
    # nothing of the put-together step is left in the page
    assert not any(c.strip().startswith(("page ", "include ")) for c in page.comments)
    assert "$" not in document
    for part in ("board", "chooser", "chooser-title", "chooser-options", "chooser-cancel"):
        assert (part in page.ids) is board


@pytest.mark.parametrize(
    ("page", "described"),
    [
        ("game", "status"),
        ("analysis", "status"),
        ("learn", "lesson-text"),
        ("puzzles", "task"),
    ],
)
def test_the_shared_board_keeps_each_pages_description(page: str, described: str) -> None:
    document = pages.build(page)
    assert f'aria-describedby="{described}"></div>' in document
    # the part's lines stand at the indentation of the line that includes it
    assert '\n      <div id="board" class="board" tabindex="0" role="application"\n' in document


def test_the_lessons_and_puzzles_share_one_notation_form() -> None:
    for page in ("learn", "puzzles"):
        form = read(pages.build(page))
        assert "notation" in form.ids and "notation-input" in form.ids
        assert "Or type the move" in pages.build(page)


def test_a_built_page_is_served_as_built(client: TestClient) -> None:
    assert client.get("/puzzles").text == pages.build("puzzles")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the shipped parts beside a page of the test's own."""
    shutil.copytree(pages.STATIC / "parts", tmp_path / "parts")
    return tmp_path


def write(folder: Path, text: str) -> None:
    (folder / "page.html").write_text(text, encoding="utf-8")


def test_a_page_is_its_layout_around_its_body(folder: Path) -> None:
    write(
        folder,
        '<!-- page title="Q & A" script="x" styles="a b" body="p" -->\n  <main>\n'
        '    <!-- include board describedby="s" -->\n  </main>\n',
    )
    document = pages.build("page", folder)
    page = read(document)
    assert page.problems == [] and page.stack == []
    assert page.title == "Q & A" and "<title>Q &amp; A</title>" in document  # plain text
    assert page.sheets == ["/static/css/app.css", "/static/css/a.css", "/static/css/b.css"]
    assert page.ids == ["board"]
    assert '  <main>\n    <div id="board"' in document
    assert document.endswith("  </main>\n</body>\n</html>\n")


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("  <main></main>\n", "must begin with"),
        ('<!-- page title="t" body="b" -->\n', "lacks script"),
        ('<!-- page title="t" script="s" body="b" colour="red" -->\n', "unknown colour"),
        ('<!-- page title="t" script="../s" body="b" -->\n', "not a file name"),
        ('<!-- page title="t" script="s" styles="a /b" body="b" -->\n', "not a file name"),
        ('<!-- page title="t" script="s" body="b" -->\n<!-- include nowhere -->\n', "'nowhere'"),
        ('<!-- page title="t" script="s" body="b" -->\n<!-- include board -->\n', "describedby"),
    ],
)
def test_a_page_naming_what_is_not_there_is_refused(folder: Path, text: str, needle: str) -> None:
    write(folder, text)
    with pytest.raises(pages.PageError, match=needle):
        pages.build("page", folder)
