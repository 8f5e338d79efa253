"""Reading and writing files of PGN-style records (several games a file)."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from diceboard.core.errors import RecordError
from diceboard.records.decode import parts_from_pgn
from diceboard.records.pgn import split_games
from diceboard.records.record import GameRecord

#: what read_pgn takes: PGN text, a path, or an open file (text or binary)
PgnSource = str | bytes | os.PathLike[str] | IO[str] | IO[bytes]
#: where write_pgn writes: a path, or an open file (text or binary)
PgnTarget = str | os.PathLike[str] | IO[str] | IO[bytes]


def read_pgn(source: PgnSource) -> list[GameRecord]:
    """Every game in a PGN-style text, in order.

    ``source`` is the text itself (a ``str``), its UTF-8 bytes, a path (a
    :class:`pathlib.Path` or other path-like object) or an open file. Games are separated by
    blank lines; each is checked by replaying it, and the first bad one raises
    :class:`RecordError` naming its game number, line and move.
    """
    return [GameRecord._of(parts_from_pgn(raw)) for raw in split_games(_text_of(source))]


def write_pgn(records: GameRecord | Iterable[GameRecord], target: PgnTarget) -> None:
    """Write ``records`` (one or several) as PGN-style text, a blank line between games.

    ``target`` is a path (``str`` or path-like; the file is replaced whole, through a
    temporary file, so a failure never leaves half a file) or an open file.
    """
    games = [records] if isinstance(records, GameRecord) else list(records)
    for i, record in enumerate(games, 1):
        if not isinstance(record, GameRecord):
            raise RecordError(f"write_pgn writes GameRecords; item {i} is {type(record).__name__}")
    text = "\n".join(record.to_pgn() for record in games)
    if isinstance(target, str | os.PathLike):
        _replace_file(Path(target), text)
    elif isinstance(target, io.RawIOBase | io.BufferedIOBase):
        target.write(text.encode("utf-8"))
    else:
        target.write(text)  # type: ignore[call-overload]


def _text_of(source: PgnSource) -> str:
    if isinstance(source, os.PathLike):
        return _decode(Path(source).read_bytes(), str(source))
    if isinstance(source, bytes):
        return _decode(source, "the PGN bytes")
    if isinstance(source, str):
        _refuse_path(source)
        return source
    if hasattr(source, "read"):
        data = source.read()
        return _decode(data, "the file") if isinstance(data, bytes) else data
    raise RecordError(
        f"read_pgn takes PGN text, a path or an open file, not {type(source).__name__}"
    )


def _decode(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{what} is not UTF-8 text: {exc}") from None


def _refuse_path(text: str) -> None:
    """A one-line string ending like a file name was surely meant as a path. (The file system
    is never consulted: a str is always text, so no caller can be made to read a file.)"""
    stripped = text.strip()
    if "\n" in stripped or not stripped.lower().endswith((".pgn", ".json", ".txt")):
        return
    raise RecordError(
        f"read_pgn reads a str as PGN text, but {stripped!r} looks like a file name: "
        f"pass Path({stripped!r}) to read the file"
    )


def _replace_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all."""
    directory = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
