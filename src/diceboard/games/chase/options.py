"""Options of Chase (spec: "End of the game"): the no-capture limit, and the one variant."""

from __future__ import annotations

from typing import Any

import numpy as np

from diceboard.core.errors import OptionError
from diceboard.games.chase.info import DEFAULT_NO_CAPTURE_LIMIT, MAX_NO_CAPTURE_LIMIT, VARIANTS
from diceboard.games.chase.kernel.layout import OPT_NO_CAPTURE_LIMIT, OPT_NO_REPETITION, OPTS_LEN


def _limit(value: Any) -> int:
    if isinstance(value, bool):
        raise OptionError(f"option no_capture_limit must be a whole number, not {value!r}")
    text = str(value).strip()
    if not text.isascii() or not text.removeprefix("-").isdigit():
        raise OptionError(
            f"option no_capture_limit must be a whole number (0 turns it off), not {value!r}"
        )
    try:
        limit = int(text)
    except ValueError:
        raise OptionError(
            f"option no_capture_limit must be a whole number (0 turns it off), not {value!r}"
        ) from None
    if limit < 0:
        raise OptionError(f"option no_capture_limit must be 0 or more, not {limit}")
    if limit > MAX_NO_CAPTURE_LIMIT:
        raise OptionError(
            f"option no_capture_limit must be at most {MAX_NO_CAPTURE_LIMIT:,}, not {limit}"
        )
    return limit


def _switch(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    text = str(value).strip().lower()
    if text not in ("on", "off"):
        raise OptionError(f"option repetition must be on or off, not {value!r}")
    return text


def resolve(options: dict[str, Any]) -> dict[str, Any]:
    """The full option set (defaults filled in) from the options given by name.

    >>> resolve({"no-capture-limit": "40"})
    {'no_capture_limit': 40, 'repetition': 'on'}
    """
    resolved: dict[str, Any] = {"no_capture_limit": DEFAULT_NO_CAPTURE_LIMIT, "repetition": "on"}
    for raw_name, value in options.items():
        name = str(raw_name).replace("-", "_").lower()
        if name == "no_capture_limit":
            resolved[name] = _limit(value)
        elif name == "repetition":
            resolved[name] = _switch(value)
        elif name == "variant":
            if value is not None and str(value).strip().lower() not in VARIANTS:
                raise OptionError(f"unknown Chase variant {value!r}; variants: standard")
        else:
            raise OptionError(
                f"unknown Chase option {raw_name!r}; options: no_capture_limit, repetition, variant"
            )
    return resolved


def non_default(options: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the defaults."""
    found: dict[str, Any] = {}
    if options["no_capture_limit"] != DEFAULT_NO_CAPTURE_LIMIT:
        found["no_capture_limit"] = options["no_capture_limit"]
    if options.get("repetition", "on") != "on":
        found["repetition"] = options["repetition"]
    return found


def kernel_options(options: dict[str, Any]) -> np.ndarray:
    """The kernel's options array."""
    opts = np.zeros(OPTS_LEN, dtype=np.int64)
    opts[OPT_NO_CAPTURE_LIMIT] = options["no_capture_limit"]
    opts[OPT_NO_REPETITION] = int(options.get("repetition", "on") == "off")
    return opts
