"""Options and variant presets of Custodian Dice (spec: "Variants" and the option list)."""

from __future__ import annotations

from typing import Any

import numpy as np

from diceboard.core.errors import OptionError
from diceboard.games.custodian.info import (
    CHOICES,
    DEFAULT_NO_CAPTURE_LIMIT,
    MAX_NO_CAPTURE_LIMIT,
    VARIANTS,
)
from diceboard.games.custodian.kernel.layout import (
    OPT_CAPTURE_SINGLE,
    OPT_JUMPING,
    OPT_NO_CAPTURE_LIMIT,
    OPT_PLACEMENT_ROLLED,
    OPT_ROLL_FACES,
    OPT_SELF_AVOIDING,
    OPTS_LEN,
)


def _normalise_value(name: str, value: Any) -> str:
    if isinstance(value, bool) and name == "jumping":
        return "on" if value else "off"
    text = str(value).strip().lower()
    if text not in CHOICES[name]:
        allowed = ", ".join(CHOICES[name])
        raise OptionError(f"option {name} must be one of {allowed}, not {value!r}")
    return text


def _limit(value: Any) -> int:
    text = str(value).strip()
    if isinstance(value, bool) or not text.isascii() or not text.removeprefix("-").isdigit():
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


def resolve(variant: str | None, options: dict[str, Any]) -> dict[str, Any]:
    """The full option set: the variant's preset, then the single options on top of it."""
    resolved: dict[str, Any] = {name: values[0] for name, values in CHOICES.items()}
    resolved["no_capture_limit"] = DEFAULT_NO_CAPTURE_LIMIT
    if variant is not None:
        key = str(variant).strip().lower()
        if key not in VARIANTS:
            raise OptionError(
                f"unknown Custodian Dice variant {variant!r}; variants: {', '.join(VARIANTS)}"
            )
        resolved["jumping"], resolved["faces"] = VARIANTS[key]
    for raw_name, value in options.items():
        name = raw_name.replace("-", "_").lower()
        if name == "no_capture_limit":
            resolved[name] = _limit(value)
        elif name in CHOICES:
            resolved[name] = _normalise_value(name, value)
        else:
            known = ", ".join([*CHOICES, "no_capture_limit", "variant"])
            raise OptionError(f"unknown Custodian Dice option {raw_name!r}; options: {known}")
    return resolved


def variant_of(options: dict[str, Any]) -> str:
    """The variant preset that the jumping and faces options amount to."""
    for name, preset in VARIANTS.items():
        if preset == (options["jumping"], options["faces"]):
            return name
    raise AssertionError("every jumping/faces pair is a variant")


def non_default(options: dict[str, Any]) -> dict[str, Any]:
    """``variant`` (unless standard) and the other options that differ from the defaults."""
    out: dict[str, Any] = {}
    variant = variant_of(options)
    if variant != "standard":
        out["variant"] = variant
    for name in ("path", "capture", "placement"):
        if options[name] != CHOICES[name][0]:
            out[name] = options[name]
    if options["no_capture_limit"] != DEFAULT_NO_CAPTURE_LIMIT:
        out["no_capture_limit"] = options["no_capture_limit"]
    return out


def kernel_options(options: dict[str, Any]) -> np.ndarray:
    """The kernel's options array."""
    opts = np.zeros(OPTS_LEN, dtype=np.int64)
    opts[OPT_JUMPING] = options["jumping"] == "on"
    opts[OPT_ROLL_FACES] = options["faces"] == "roll"
    opts[OPT_SELF_AVOIDING] = options["path"] == "self-avoiding"
    opts[OPT_CAPTURE_SINGLE] = options["capture"] == "single"
    opts[OPT_PLACEMENT_ROLLED] = options["placement"] == "rolled"
    opts[OPT_NO_CAPTURE_LIMIT] = options["no_capture_limit"]
    return opts
