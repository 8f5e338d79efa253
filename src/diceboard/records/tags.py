"""Tag pairs of a game record: names, their canonical order, and the checks on their values.

The tags that describe the game itself (``Game``, the option tags, ``Position``, ``Result``,
``Termination``) are checked against the game in :mod:`diceboard.records.record`; this module
knows only their spelling and the values each one accepts.
"""

from __future__ import annotations

import datetime
import re
import unicodedata

from diceboard.core.errors import RecordError
from diceboard.core.limits import MAX_SEED
from diceboard.kernel import REASONS

GAME_TAG = "Game"
VARIANT_TAG = "Variant"
DATE_TAG = "Date"
RESULT_TAG = "Result"
TERMINATION_TAG = "Termination"
POSITION_TAG = "Position"
SEED_TAG = "Seed"

UNKNOWN_RESULT = "*"
UNKNOWN_DATE = "????.??.??"
UNKNOWN_PLAYER = "?"
UNTERMINATED = "unterminated"

#: every result a record can hold, as PGN writes them
RESULTS = ("1-0", "0-1", "1/2-1/2", UNKNOWN_RESULT)
#: the endings that the rules decide (the kernel's reasons)
RULE_TERMINATIONS: tuple[str, ...] = tuple(r for r in REASONS if r)
#: the endings that happen outside the rules, while the position is still in play
EXTERNAL_TERMINATIONS = ("timeout", "resignation", "agreement")
#: every Termination value a record can hold
TERMINATIONS = (*RULE_TERMINATIONS, *EXTERNAL_TERMINATIONS, UNTERMINATED)

_TAG_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_DATE = re.compile(r"^([0-9]{4}|\?{4})\.([0-9]{2}|\?{2})\.([0-9]{2}|\?{2})$")
_SEED = re.compile(r"^[0-9]+$")
#: Unicode categories a tag value may not hold: controls and line/paragraph separators
_NOT_IN_A_TAG = frozenset({"Cc", "Zl", "Zp"})


def option_tag(option: str) -> str:
    """The tag that holds a game option: ``no_capture_limit`` -> ``NoCaptureLimit``.

    >>> option_tag("no_capture_limit"), option_tag("placement")
    ('NoCaptureLimit', 'Placement')
    """
    return "".join(word.capitalize() for word in option.split("_"))


def check_tag_name(name: object) -> str:
    """``name`` if it can be a tag name (a letter, then letters, digits and ``_``)."""
    if not isinstance(name, str) or not _TAG_NAME.match(name):
        raise RecordError(
            f"bad tag name {name!r}: a tag name is a letter followed by letters, digits or _"
        )
    return name


def check_tag_value(name: str, value: object) -> str:
    """``value`` if it can be the value of tag ``name``: a string on one line, without any
    control character (Unicode category Cc, which includes U+0085) or line separator."""
    if not isinstance(value, str):
        raise RecordError(f"the {name} tag must be a string, not {type(value).__name__}")
    bad = next((ch for ch in value if unicodedata.category(ch) in _NOT_IN_A_TAG), None)
    if bad is not None:
        raise RecordError(
            f"the {name} tag must be one line without control characters; it holds {bad!r}"
        )
    return value


def format_date(date: datetime.date | str | None) -> str:
    """The Date tag of ``date``: a date, a ``YYYY.MM.DD`` string (``??`` for unknown parts),
    or ``None`` for an unknown date.

    >>> format_date(datetime.date(2024, 5, 1)), format_date(None)
    ('2024.05.01', '????.??.??')
    """
    if date is None:
        return UNKNOWN_DATE
    if isinstance(date, datetime.date):
        return f"{date.year:04d}.{date.month:02d}.{date.day:02d}"
    return check_date(date)


def check_date(value: str) -> str:
    """``value`` if it is a Date tag: ``YYYY.MM.DD``, any part ``?``-ed out when unknown,
    and a real calendar date where it is known."""
    m = _DATE.match(value)
    if m is None:
        raise RecordError(
            f"the Date tag must be YYYY.MM.DD (with ???? / ?? for unknown parts), not {value!r}"
        )
    year, month, day = (None if part.startswith("?") else int(part) for part in m.groups())
    if month is not None and not 1 <= month <= 12:
        raise RecordError(f"the Date tag {value!r} has month {month:02d}; months are 01-12")
    if day is not None and not 1 <= day <= 31:
        raise RecordError(f"the Date tag {value!r} has day {day:02d}; days are 01-31")
    if year is not None and month is not None and day is not None:
        try:
            datetime.date(year, month, day)
        except ValueError as exc:
            raise RecordError(f"the Date tag {value!r} is not a calendar date: {exc}") from None
    return value


def check_seed(value: str) -> int:
    """The seed that a Seed tag holds: a whole number that fits 64 bits (at most
    :data:`~diceboard.core.limits.MAX_SEED` either way)."""
    if not _SEED.match(value.removeprefix("-")):
        raise RecordError(f"the Seed tag must be a whole number, not {value[:40]!r}")
    if len(value) > 20 or abs(int(value)) > MAX_SEED:
        raise RecordError(f"the Seed tag must be from -{MAX_SEED} to {MAX_SEED}, not {value[:40]}")
    return int(value)


def check_result(value: str) -> str:
    """``value`` if it is a result: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    if value not in RESULTS:
        raise RecordError(f"the Result tag must be one of {', '.join(RESULTS)}, not {value!r}")
    return value


def check_termination(value: str) -> str:
    """``value`` if it is a Termination: an outcome reason or ``unterminated``."""
    if value not in TERMINATIONS:
        raise RecordError(
            f"the Termination tag must be one of {', '.join(TERMINATIONS)}, not {value!r}"
        )
    return value


def escape(value: str) -> str:
    r"""A tag value as it stands between the quotes: ``\`` and ``"`` escaped.

    >>> escape('say "hi" \\ bye')
    'say \\"hi\\" \\\\ bye'
    """
    return value.replace("\\", "\\\\").replace('"', '\\"')


def unescape(text: str) -> str:
    r"""The value of a quoted tag text: ``\"`` and ``\\`` resolved; any other backslash is kept
    as it stands (PGN defines no other escape).

    >>> unescape('say \\"hi\\" \\\\ bye \\n')
    'say "hi" \\ bye \\n'
    """
    return re.sub(r"\\([\\\"])", r"\1", text)
