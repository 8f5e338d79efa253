"""The rules pages: /rules/<game> renders the game's docs page (no raw HTML through), with
its diagrams served from /rules/images/, a "Learn to play" link, and clear 404s; a wheel
carries the docs the pages are made from."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from diceboard import games
from diceboard.server import create_app, rules_pages
from tests.server.conftest import make_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("rules") / "games.sqlite3"
    with TestClient(create_app(make_settings(f"sqlite:///{db}"))) as test_client:
        yield test_client


@pytest.mark.parametrize("name", games.names())
def test_each_game_has_its_rules_page_with_its_diagrams(client: TestClient, name: str) -> None:
    info = games.info(name)
    page = client.get(f"/rules/{name}")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    assert f"<h1>{info.title}</h1>" in text
    assert f'href="/learn/{info.name}"' in text and "Learn to play" in text
    # every diagram of the docs page is on the rules page and is served
    source = (ROOT / info.docs).read_text(encoding="utf-8")
    diagrams = re.findall(r"\]\(images/([a-z0-9-]+\.svg)\)", source)
    assert diagrams
    for diagram in diagrams:
        assert f'src="/rules/images/{diagram}"' in text
        image = client.get(f"/rules/images/{diagram}")
        assert image.status_code == 200
        assert image.headers["content-type"].startswith("image/svg+xml")
        assert image.text.lstrip().startswith("<")
    # the other games' rules are linked
    for other in games.names():
        if other != name:
            assert f'href="/rules/{other}"' in text


def test_tables_render_and_aliases_work(client: TestClient) -> None:
    chase = client.get("/rules/chase").text
    assert "<table>" in chase and "<th>" in chase
    for alias in games.info("custodian").aliases:
        assert client.get(f"/rules/{alias}").status_code == 200


def test_unknown_pages_are_a_clear_404(client: TestClient) -> None:
    missing = client.get("/rules/checkers")
    assert missing.status_code == 404
    assert "no rules page for 'checkers'" in missing.json()["detail"]
    for bad in ("../pyproject.toml", "..%2F..%2Fsetup.py", "web-chase.png", "x.svg"):
        answer = client.get(f"/rules/images/{bad}")
        assert answer.status_code == 404, bad


def test_raw_html_in_the_docs_is_shown_as_text() -> None:
    html = rules_pages.render_markdown('Text <script>alert(1)</script> <img src=x onerror="y">')
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<img src=x" not in html


def test_a_packaged_copy_of_the_docs_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "chase.md").write_text("# Packaged Chase\n", encoding="utf-8")
    monkeypatch.setattr(rules_pages, "PACKAGED_DOCS", tmp_path)
    rules_pages.rules_page.cache_clear()
    try:
        assert "<h1>Packaged Chase</h1>" in rules_pages.rules_page("chase")
        assert rules_pages.docs_folder() == tmp_path
    finally:
        rules_pages.rules_page.cache_clear()


@pytest.mark.slow
def test_a_wheel_carries_the_rules_docs(tmp_path: Path) -> None:
    # a copy of the committed tree (git's files), so that the build writes nothing here
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    tree = tmp_path / "tree"
    for name in files:
        source = ROOT / name
        if source.is_file():
            (tree / name).parent.mkdir(parents=True, exist_ok=True)
            (tree / name).write_bytes(source.read_bytes())
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run(
        [*pip, "-w", str(tmp_path / "dist"), str(tree)],
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("diceboard-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in games.names():
        doc = Path(games.info(name).docs).name
        assert f"diceboard/server/rules_docs/{doc}" in names
    assert "diceboard/server/rules_docs/images/chase-bump.svg" in names


def test_the_markdown_renderer_is_imported_with_the_first_page_not_with_the_server() -> None:
    """The server's imports come before it answers anything: markdown-it (a tenth of a
    second of them) waits for the first rules page."""
    script = (
        "import sys\n"
        "import diceboard.server.app\n"
        "from diceboard.server import rules_pages\n"
        "before = 'markdown_it' in sys.modules\n"
        "html = rules_pages.render_markdown('**x**')\n"
        "print(before, 'markdown_it' in sys.modules, html.strip())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.split()
    assert out == ["False", "True", "<p><strong>x</strong></p>"]
