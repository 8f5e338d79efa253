"""Errors of the command line itself (the engine's own errors come from diceboard.core.errors)."""

from __future__ import annotations

from diceboard.core.errors import DiceboardError


class UsageError(DiceboardError):
    """Bad command-line input: an unknown argument, a malformed value, a missing file."""


def one_line(error: BaseException) -> str:
    """The message of ``error`` on a single line, as the command prints it after
    ``diceboard: error:``."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


def describe_os_error(error: OSError) -> str:
    """A one-line description of a failed file operation, naming the file."""
    reason = error.strerror or one_line(error)
    if error.filename is not None:
        return f"{error.filename}: {reason}"
    return reason
