"""The OpenAPI document is true: schemathesis runs every check it has (``--checks all``: status
codes, content types, headers and bodies as declared, schema-valid input accepted and invalid
input refused, the links between operations, unsupported methods …) against a live server,
over every operation of the document, and finds nothing."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("schemathesis")
pytest.importorskip("uvicorn")
pytest.importorskip("fastapi")

import uvicorn
from fastapi.routing import APIRoute

from diceboard.server import api, create_app
from diceboard.server.errors import responses
from diceboard.server.loadtest import free_port
from diceboard.server.schemas import ONE_LINE, ErrorBody
from tests.server.conftest import make_settings

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("schemathesis.toml")
#: examples per operation and phase: about a minute on two busy cores
EXAMPLES = 8


@contextlib.contextmanager
def live_server(database_url: str) -> Iterator[str]:
    """The app served by uvicorn on a free loopback port (in a thread of this process), with
    the rate limits off so that the run reaches past them; yields the base URL."""
    settings = make_settings(
        database_url,
        create_rate=None,
        move_rate=None,
        import_rate=None,
        hint_rate=None,
        chat_rate=None,
        lobby_per_client=100_000,
    )
    port = free_port()
    app = create_app(settings, warm_up_beside=True)  # warm, so that no answer waits for it
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 600  # the engine compiles on a cold cache
    while not (server.started and app.state.warmup.ready):
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


def _operations() -> list[str]:
    return sorted(
        route.operation_id
        for route in api.router.routes
        if isinstance(route, APIRoute) and route.operation_id
    )


def test_every_api_route_has_an_operation_id() -> None:
    routes = [r for r in api.router.routes if isinstance(r, APIRoute)]
    assert len(_operations()) == len(routes) == len(set(_operations()))


def test_the_api_answers_as_its_openapi_document_says(database_url: str) -> None:
    with live_server(database_url) as base:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())",
                "--config-file",
                str(CONFIG),
                "--no-color",
                "run",
                f"{base}/openapi.json",
                "--checks",
                "all",
                "--max-examples",
                str(EXAMPLES),
                "--seed",
                "20261201",
                "--workers",
                "1",
                "--request-timeout",
                "60",
            ],
            cwd=ROOT,
            env={**os.environ, "SCHEMATHESIS_HOOKS": "tests.server.openapi_hooks"},
            capture_output=True,
            text=True,
            timeout=900,
        )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-12_000:]
    operations = sum(len(ops) for ops in _document(database_url)["paths"].values())
    assert f"Tested: {operations}" in report, report[-3000:]


# --- what the document says, read directly -----------------------------------------------------
def _document(database_url: str) -> dict[str, Any]:
    document: dict[str, Any] = create_app(make_settings(database_url)).openapi()
    return document


def test_refusals_are_declared_with_the_error_body(database_url: str) -> None:
    document = _document(database_url)
    paths = document["paths"]
    error = {"$ref": "#/components/schemas/ErrorBody"}
    for path, method, statuses in [
        ("/api/games", "post", {"400", "413", "422", "429"}),
        ("/api/games/{game_id}/moves", "post", {"400", "401", "403", "404", "409", "422"}),
        ("/api/games/{game_id}/record", "get", {"404", "422"}),
    ]:
        declared = paths[path][method]["responses"]
        assert statuses <= set(declared), (path, sorted(declared))
        for status in statuses - {"409"}:
            assert declared[status]["content"]["application/json"]["schema"] == error
    moves = paths["/api/games/{game_id}/moves"]["post"]
    conflict = moves["responses"]["409"]["content"]["application/json"]["schema"]
    assert conflict == {"$ref": "#/components/schemas/ConflictBody"}
    assert moves["responses"]["429"]["headers"]["Retry-After"]["required"] is True
    assert {"name": "X-Seat-Token", "in": "header"}.items() <= next(
        p for p in moves["parameters"] if p["in"] == "header"
    ).items()
    assert "HTTPValidationError" not in json.dumps(paths["/api/games/{game_id}/moves"])
    record = paths["/api/games/{game_id}/record"]["get"]["responses"]["200"]["content"]
    assert set(record) == {"application/json", "application/x-chess-pgn"}
    grant = paths["/api/games"]["post"]["responses"]["201"]
    assert grant["links"]["play_move"]["parameters"] == {
        "path.game_id": "$response.body#/id",
        "header.X-Seat-Token": "$response.body#/token",
    }


def test_every_route_declares_the_refusals_any_request_meets(database_url: str) -> None:
    # on every router's routes, not only the game API's: this server's 422 body (never
    # FastAPI's HTTPValidationError), and 400/413 wherever a body is taken
    document = _document(database_url)
    assert "HTTPValidationError" not in json.dumps(document)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            declared = operation["responses"]
            if operation.get("parameters") or "requestBody" in operation:
                assert "422" in declared, (method, path)
            if "requestBody" in operation:
                assert {"400", "413"} <= set(declared), (method, path)
            if "{" in path:
                assert "404" in declared, (method, path)
            for status, answer in declared.items():
                if status.startswith("4"):
                    schema = json.dumps(answer["content"]["application/json"]["schema"])
                    assert "detail" in schema or "ErrorBody" in schema or "Conflict" in schema


def test_an_undeclarable_status_is_refused() -> None:
    with pytest.raises(ValueError, match="answered with 418"):
        responses(418)
    assert responses(404)[404]["model"] is ErrorBody


def test_the_declared_name_pattern_is_the_check_that_runs() -> None:
    # the pattern that documents a player's name refuses exactly what the validator refuses
    import re
    import unicodedata

    from pydantic import ValidationError

    from diceboard.server.schemas import JoinGame

    pattern = re.compile(ONE_LINE)
    for code in [*range(0x0, 0x250), 0x2028, 0x2029, 0x200B, 0xFEFF, 0x1F600]:
        ch = chr(code)
        try:
            JoinGame(name=f"a{ch}b")
            accepted = True
        except ValidationError:
            accepted = False
        assert accepted == (pattern.fullmatch(f"a{ch}b") is not None), hex(code)
        assert accepted == (unicodedata.category(ch) not in ("Cc", "Zl", "Zp")), hex(code)


def test_the_declared_chat_pattern_is_the_check_that_runs() -> None:
    # every code point alone, and with text around it (lone surrogates are no text: JSON
    # readers refuse them whatever the pattern)
    import random
    import re

    from pydantic import ValidationError

    from diceboard.server.schemas import ChatPost, chat_pattern

    pattern = re.compile(chat_pattern())
    rng = random.Random(5)
    texts = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    texts += [f"{rng.choice(texts)}{t}{rng.choice(' ab')}" for t in rng.sample(texts, 5000)]
    texts += [" hi\n", "\nhi", "h\ni", "\u2028", "a\u200bb", "\u3000 x \u3000", " "]
    for text in texts:
        try:
            ChatPost(text=text)
            accepted = True
        except ValidationError:
            accepted = False
        assert accepted == (pattern.fullmatch(text) is not None), ascii(text)
