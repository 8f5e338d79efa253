"""Reading and writing the files that commands take and make."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from diceboard.cli.errors import UsageError


def read_text(path: str) -> str:
    """The text of the UTF-8 file ``path`` (``OSError`` if it cannot be read, ``UsageError`` if
    it is not text)."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise UsageError(
            f"{path}: not a UTF-8 text file ({error.reason} at byte {error.start})"
        ) from None


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` so that the file is either fully replaced or left as it was:
    the text goes to a temporary file in the same folder, which then replaces ``path``."""
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(21, "is a folder, not a file", str(target))
    if target.exists() and not target.is_file():
        # a device or a pipe (/dev/stdout, a named pipe) is written to, never replaced
        with target.open("w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        return
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(2, "no such folder", str(folder))
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp makes the file private; give it the permissions a new file would get
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
