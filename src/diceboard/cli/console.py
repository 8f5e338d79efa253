"""Line-based terminal input and output for the interactive commands (``play``, ``replay``).

On a terminal, input goes through :func:`input` (with line editing where ``readline`` exists)
and boards may be in colour. When standard input is a pipe or a file, prompts are still
printed and each line read is echoed after its prompt, so that the output reads like the
session it replays; colour is off.
"""

from __future__ import annotations

import contextlib
import sys
from typing import TextIO


class Console:
    """Where an interactive command reads lines and writes text."""

    def __init__(
        self, stdin: TextIO | None = None, stdout: TextIO | None = None, color: bool = False
    ) -> None:
        self._in = stdin if stdin is not None else sys.stdin
        self._out = stdout if stdout is not None else sys.stdout
        self.interactive = _isatty(self._in) and _isatty(self._out)
        self.color = color and self.interactive
        if self.interactive:
            # importing readline gives input() line editing and history, where it exists
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401

    def show(self, text: str = "") -> None:
        """Write ``text`` and a line end."""
        self._out.write(text + "\n")
        self._out.flush()

    def ask(self, prompt: str) -> str | None:
        """One line from the user without its line end, or ``None`` at the end of input."""
        if self.interactive and self._in is sys.stdin and self._out is sys.stdout:
            try:
                return input(prompt)
            except EOFError:
                self.show()
                return None
        self._out.write(prompt)
        line = self._in.readline()
        if not line:
            self.show()
            return None
        line = line.rstrip("\r\n")
        if not self.interactive:
            self.show(line)
        return line


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def wants_color(no_color: bool) -> bool:
    """Whether boards on stdout should be in colour: a colour terminal on both ends, unless
    ``--no-color`` (the renderer also honours ``NO_COLOR``)."""
    if no_color or not _isatty(sys.stdin):
        return False
    from diceboard.rendering import terminal

    return bool(terminal.supports_color(sys.stdout))
