"""Writing result files safely: never over an earlier run's files unless asked, never half.

Each file is written to a temporary file beside it and then renamed into place, so an
interrupted run leaves either the complete file or none.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from diceboard.core.errors import OptionError


def prepare_out_dir(out_dir: str | os.PathLike[str], names: Sequence[str], overwrite: bool) -> Path:
    """Create ``out_dir`` if needed and check that the files ``names`` may be written there."""
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise OptionError(f"output folder {str(path)!r} exists and is not a folder")
    if not overwrite:
        taken = [name for name in names if (path / name).exists()]
        if taken:
            raise OptionError(
                f"{str(path / taken[0])!r} already exists; choose another output folder or "
                "pass --overwrite"
            )
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OptionError(f"cannot create output folder {str(path)!r}: {exc.strerror}") from None
    return path


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically (UTF-8, ``\\n`` line ends): into a temporary
    file beside it (made with the usual permissions), then renamed over it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV text (``\\n`` line ends) with a header row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def finite(value: float) -> float | None:
    """``value``, or ``None`` (JSON null) for the infinite Elo of a perfect score."""
    return value if math.isfinite(value) else None


def json_text(data: Mapping[str, Any]) -> str:
    """Pretty, strict JSON (no NaN or Infinity) ending with a newline."""
    return json.dumps(data, indent=2, allow_nan=False) + "\n"
