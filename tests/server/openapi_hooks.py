"""Schemathesis hooks of ``test_openapi.py`` (loaded through ``SCHEMATHESIS_HOOKS``).

JSON Schema counts ``1.0`` as an integer, and no schema can tell it from ``1``; the API refuses
it on purpose (request bodies are strict JSON types, issue 12 item 7). So a generated body has
its whole-number floats sent as integers: the one thing the document cannot say.
"""

from __future__ import annotations

from typing import Any

import schemathesis


def _integers(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, dict):
        return {key: _integers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integers(item) for item in value]
    return value


@schemathesis.hook
def map_body(context: Any, body: Any) -> Any:
    """The body with whole-number floats as integers."""
    return _integers(body)
