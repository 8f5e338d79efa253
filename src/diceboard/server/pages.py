"""The web app's pages (home, game, analysis board, lessons, puzzles), put together once when
the server starts from what they share and what is their own.

A page file, ``static/<name>.html``, holds the page's own body. Its first line names what the
page's head needs, ``<!-- page title="…" script="game" styles="analysis" body="game-page" -->``
(``script``: its module under ``/static/js/``; ``styles``: its stylesheets under
``/static/css/`` beside ``app.css``, space-separated, optional; ``body``: the body's class);
``static/parts/layout.html`` is the document around it. A line
``<!-- include NAME key="value" … -->`` in a page stands for ``static/parts/NAME.html``, its
``$key`` placeholders filled from the line (a part includes no other part). Values are plain
text (escaped on the way in). A page or part that names something missing fails the server's
start with :class:`PageError`, not a request.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from string import Template

from fastapi.responses import HTMLResponse

STATIC = Path(__file__).resolve().parent / "static"
#: the pages, each served from its own routes (app.py, analysis_api.py, learning_api.py)
PAGES = ("index", "game", "analysis", "learn", "puzzles")

_ATTRIBUTE = re.compile(r'\s+([a-z_]+)="([^"]*)"')
_ATTRIBUTES = r'((?:\s+[a-z_]+="[^"]*")*)'
_PAGE_LINE = re.compile(rf"^<!-- page{_ATTRIBUTES}\s*-->$")
_INCLUDE_LINE = re.compile(rf"^(\s*)<!-- include ([a-z][a-z-]*){_ATTRIBUTES}\s*-->$")
_PAGE_KEYS = {"title", "script", "styles", "body"}
_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


class PageError(Exception):
    """A page or part names a part, placeholder or field that is not there."""


def _attributes(text: str) -> dict[str, str]:
    return {key: html.escape(value) for key, value in _ATTRIBUTE.findall(text)}


def _part(parts: Path, name: str, values: dict[str, str], indent: str, page: str) -> str:
    path = parts / f"{name}.html"
    if not path.is_file():
        raise PageError(f"{page}.html includes {name!r}, which is not in {parts}")
    try:
        text = Template(path.read_text(encoding="utf-8")).substitute(values)
    except (KeyError, ValueError) as error:
        raise PageError(f"{page}.html: part {name!r} wants a value for {error}") from None
    return "".join(f"{indent}{line}" if line.strip() else line for line in text.splitlines(True))


def build(name: str, static: Path = STATIC) -> str:
    """The whole document of page `name` (from the page and parts files under `static`)."""
    parts = static / "parts"
    lines = (static / f"{name}.html").read_text(encoding="utf-8").splitlines(True)
    head = _PAGE_LINE.match(lines[0].strip()) if lines else None
    if head is None:
        raise PageError(f'{name}.html must begin with <!-- page title="…" script="…" … -->')
    fields = _attributes(head.group(1))
    if missing := {"title", "script", "body"} - fields.keys():
        raise PageError(f"{name}.html: the page line lacks {', '.join(sorted(missing))}")
    if unknown := fields.keys() - _PAGE_KEYS:
        raise PageError(f"{name}.html: the page line has unknown {', '.join(sorted(unknown))}")
    body = []
    for line in lines[1:]:
        include = _INCLUDE_LINE.match(line.rstrip("\n"))
        if include is None:
            body.append(line)
            continue
        indent, part, attributes = include.groups()
        body.append(_part(parts, part, _attributes(attributes), indent, name))
    styles = fields.get("styles", "").split()
    for sheet in [fields["script"], *styles]:
        if not _NAME.match(sheet):
            raise PageError(f"{name}.html: {sheet!r} is not a file name")
    layout = Template((parts / "layout.html").read_text(encoding="utf-8"))
    return layout.substitute(
        title=fields["title"],
        script=fields["script"],
        body=fields["body"],
        styles="".join(
            f'  <link rel="stylesheet" href="/static/css/{sheet}.css">\n' for sheet in styles
        ),
        content="".join(body).rstrip("\n"),
    )


#: every page, built once (a page that cannot be built stops the server from starting)
_BUILT = {name: build(name) for name in PAGES}


def page_response(name: str) -> HTMLResponse:
    """Page `name` (one of :data:`PAGES`) as an HTTP response."""
    return HTMLResponse(_BUILT[name])
