"""A one-line progress bar on a terminal stream (silent when the stream is not a terminal)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 3600:
        return f"{seconds // 60:d}:{seconds % 60:02d}"
    return f"{seconds // 3600:d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class ProgressBar:
    """Shows ``label [#####.....] done/total unit  elapsed<eta  note`` on ``stream``.

    The bar redraws at most ten times a second and only when ``stream`` is a terminal, so
    piped or captured stderr stays clean.
    """

    WIDTH = 24

    def __init__(
        self,
        total: int,
        label: str,
        unit: str = "games",
        stream: TextIO | None = None,
        enabled: bool | None = None,
    ) -> None:
        self.total = max(total, 1)
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.note = ""
        self._start = time.monotonic()
        self._drawn = 0.0

    def update(self, done: int, note: str = "") -> None:
        """Set the number of finished units (and a short note, e.g. the running score)."""
        self.done = done
        self.note = note
        now = time.monotonic()
        if self.enabled and (now - self._drawn >= 0.1 or done >= self.total):
            self._drawn = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        fraction = min(1.0, self.done / self.total)
        filled = int(fraction * self.WIDTH)
        elapsed = now - self._start
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        line = (
            f"{self.label} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
            f"{self.done}/{self.total} {self.unit}  {_duration(elapsed)}<{_duration(eta)}"
        )
        if self.note:
            line += f"  {self.note}"
        self.stream.write("\r" + line + "\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        """Finish the line so that later output starts on a new one."""
        if self.enabled:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
