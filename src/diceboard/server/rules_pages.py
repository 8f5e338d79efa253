"""The rules of each game in the app: ``/rules/<game>`` renders the game's rules page (the
markdown file its :class:`~diceboard.core.info.GameInfo` names in ``docs``) with its diagrams,
served from ``/rules/images/<file>.svg``.

The pages come from the package's docs: a wheel carries a copy of ``docs/`` in
``diceboard/server/rules_docs/`` (copied at build time by ``setup.py``), and a source checkout
(an editable install) reads the repository's ``docs/`` folder itself. The markdown is rendered
by markdown-it-py with raw HTML switched off, so a page holds only what markdown can say.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

from diceboard import games
from diceboard.core.errors import OptionError
from diceboard.server.errors import NotFound

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

router = APIRouter(include_in_schema=False)

_HERE = Path(__file__).resolve().parent
#: where a wheel carries the docs, and where a source checkout has them
PACKAGED_DOCS = _HERE / "rules_docs"
CHECKOUT_DOCS = _HERE.parents[2] / "docs"
#: a diagram's file name: letters, digits and dashes, then .svg (nothing else is served)
_IMAGE = re.compile(r"^[a-z0-9][a-z0-9-]{0,80}\.svg$")


def docs_folder() -> Path:
    """The folder that holds the rules pages: the packaged copy, else the checkout's docs."""
    for folder in (PACKAGED_DOCS, CHECKOUT_DOCS):
        if folder.is_dir():
            return folder
    raise NotFound("the rules pages are not installed with this copy of diceboard")


def rules_file(game: str) -> Path:
    """The markdown file of ``game``'s rules (a registered name or alias)."""
    try:
        info = games.info(game)
    except OptionError:
        raise NotFound(f"no rules page for {game!r}; games: {', '.join(games.names())}") from None
    # GameInfo.docs is relative to the repository root ("docs/chase.md")
    relative = PurePosixPath(info.docs)
    if relative.parts and relative.parts[0] == "docs":
        relative = PurePosixPath(*relative.parts[1:])
    path = docs_folder() / relative
    if not path.is_file():
        raise NotFound(f"the rules page of {info.title} ({info.docs}) is not installed")
    return path


@functools.cache
def _renderer() -> MarkdownIt:
    # imported on the first rules page, not as the server starts (a tenth of a second of
    # the imports before it answers)
    from markdown_it import MarkdownIt

    # raw HTML off: the page holds markdown's own elements only
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str) -> str:
    """``text`` (markdown) as HTML, diagrams pointing at ``/rules/images/``.

    >>> print(render_markdown("**Jump** <b>it</b> ![a](images/x-y.svg)"))
    <p><strong>Jump</strong> &lt;b&gt;it&lt;/b&gt; <img src="/rules/images/x-y.svg" alt="a" /></p>
    <BLANKLINE>
    """
    body: str = _renderer().render(text)
    return body.replace('src="images/', 'src="/rules/images/')


PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} — rules — diceboard</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/css/app.css">
</head>
<body class="rules-page" data-game="{name}">
  <header class="topbar">
    <a class="brand" href="/">⚀ diceboard</a>
    <span class="tagline">Rules of {title}</span>
    <nav class="rules-nav" aria-label="Rules">{others}</nav>
  </header>
  <nav class="rules-actions" aria-label="Next steps">
    <a class="button primary" id="learn" href="/learn/{name}">Learn to play</a>
    <a class="button" id="play" href="/">Play {title}</a>
  </nav>
  <main class="rules card">
{body}
  </main>
</body>
</html>
"""


@functools.cache
def rules_page(game: str) -> str:
    """The whole HTML page of ``game``'s rules (built once per game)."""
    path = rules_file(game)
    info = games.info(game)
    body = render_markdown(path.read_text(encoding="utf-8"))
    others = " · ".join(
        f'<a href="/rules/{html.escape(o.name)}">{html.escape(o.title)}</a>'
        for o in games.infos()
        if o.name != info.name
    )
    return PAGE.format(
        title=html.escape(info.title),
        name=html.escape(info.name),
        others=f"Also: {others}" if others else "",
        body=body,
    )


@router.get("/rules/images/{name}")
async def rules_image(name: str) -> FileResponse:
    """A diagram of a rules page."""
    if not _IMAGE.match(name):
        raise NotFound(f"no diagram named {name!r}")
    path = docs_folder() / "images" / name
    if not path.is_file():
        raise NotFound(f"no diagram named {name!r}")
    return FileResponse(path, media_type="image/svg+xml")


@router.get("/rules/{game}")
async def rules(game: str) -> HTMLResponse:
    """The rules page of ``game``."""
    if not re.match(r"^[A-Za-z0-9_-]{1,32}$", game):
        raise NotFound(f"no rules page for {game!r}; games: {', '.join(games.names())}")
    return HTMLResponse(rules_page(game))
