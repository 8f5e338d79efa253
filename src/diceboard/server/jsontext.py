"""JSON text for clients, made by orjson where it is installed (several times faster than the
standard library on the server's snapshots) and by :mod:`json` otherwise; both write compact
JSON that parses to the same value (they differ only in how some floats are spelt)."""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - orjson comes with the web extra
    orjson = None  # type: ignore[assignment]


def dumps(value: Any) -> str:
    """``value`` (dicts, lists, strings, numbers, booleans, ``None``) as compact JSON text."""
    if orjson is not None:
        try:
            return orjson.dumps(value).decode()
        except TypeError:  # what orjson does not take (an integer beyond 64 bits, a non-str key)
            pass
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
