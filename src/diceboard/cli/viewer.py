"""Stepping through a recorded game in the terminal (``diceboard replay``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from diceboard.cli.console import Console

if TYPE_CHECKING:
    from diceboard.records import GameRecord

HELP = """\
  Enter or n   next position        p       previous position
  g N          go to ply N          f       turn the board around
  q            quit                 ?       this help"""


class Viewer:
    """Shows the positions of one record: every one in turn when input is not a terminal,
    else the one the user steps to."""

    def __init__(self, record: GameRecord, console: Console, flipped: bool = False) -> None:
        self.record = record
        self.states = record.states()
        self.moves = record.moves
        self.console = console
        self.flipped = flipped
        self.index = 0

    @property
    def last(self) -> int:
        """The last ply (the number of moves)."""
        return len(self.moves)

    def header(self) -> list[str]:
        """The record's tags, one a line."""
        return [f"{name}: {value}" for name, value in self.record.tags.items()]

    def show(self) -> None:
        """Print the position at :attr:`index` with the move that led to it."""
        from diceboard.rendering import terminal

        i = self.index
        title = "start" if i == 0 else f"after {self.moves[i - 1].notation}"
        self.console.show(f"--- ply {i}/{self.last}: {title}")
        state = self.states[i]
        text = terminal.render(state, color=self.console.color, flipped=self.flipped)
        self.console.show(text.rstrip("\n"))
        if i == self.last:
            outcome = self.record.outcome
            result = "unfinished (*)" if outcome is None else str(outcome)
            self.console.show(f"end of the record: {result}")

    def run(self) -> int:
        """Show the game; the exit status (0)."""
        for line in self.header():
            self.console.show(line)
        if not self.console.interactive:
            for index in range(self.last + 1):
                self.index = index
                self.show()
            return 0
        self.console.show(f"{self.last} moves. Enter/n next, p previous, g N go to ply, q quit.")
        self.show()
        while True:
            answer = self.console.ask(f"[{self.index}/{self.last}] > ")
            if answer is None or not self.step(answer.strip().lower()):
                return 0

    def step(self, command: str) -> bool:
        """Act on one command; false to stop."""
        word, _, rest = command.partition(" ")
        if word in ("q", "quit", "exit"):
            return False
        if word in ("", "n", "next"):
            if self.index == self.last:
                self.console.show("that was the last position (p: back, q: quit)")
                return True
            self.index += 1
        elif word in ("p", "prev", "previous"):
            if self.index == 0:
                self.console.show("this is the start (n: forward, q: quit)")
                return True
            self.index -= 1
        elif word in ("g", "go", "goto"):
            target = rest.strip()
            if not target.isdigit() or int(target) > self.last:
                self.console.show(f"g takes a ply from 0 to {self.last}, like g 12")
                return True
            self.index = int(target)
        elif word in ("f", "flip"):
            self.flipped = not self.flipped
        elif word in ("?", "h", "help"):
            self.console.show(HELP)
            return True
        else:
            self.console.show(f"unknown command {command!r}; ? for help")
            return True
        self.show()
        return True
