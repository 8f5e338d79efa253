"""Stepping through a recorded game in the terminal (``diceboard replay``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from diceboard.cli.console import Console

if TYPE_CHECKING:
    from diceboard.records import GameRecord

HELP = """\
  Enter or n   next position        p       previous position
  g N          go to move N         f       turn the board around
  q            quit                 ?       this help"""


def move_numbers(movers: list[str | None], first: str) -> list[int]:
    """The move number of each ply, as players count moves: numbered rows of one move per
    player (``first``'s, then the other's), a roll nobody decides (``None``: a setup roll)
    counted with the move that follows it (or the last move, at the end).

    >>> move_numbers([None, None, "W", "B", "W"], "W")
    [1, 1, 1, 1, 2]
    >>> move_numbers(["B", "W", "B"], "W")
    [1, 2, 2]
    """
    numbers: list[int] = []
    row = 0
    seats: set[str] = set()
    waiting = 0  # rolls before the move they belong to
    for mover in movers:
        if mover is None:
            waiting += 1
            continue
        if row == 0 or mover == first or mover in seats:
            row += 1
            seats = set()
        seats.add(mover)
        numbers.extend([row] * (waiting + 1))
        waiting = 0
    numbers.extend([max(row, 1)] * waiting)
    return numbers


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
        game = record.game
        self.movers = [None if s.is_chance() else s.to_move for s in self.states[:-1]]
        self.numbers = move_numbers(self.movers, game.players[0])
        self.names = dict(zip(game.players, game.player_names, strict=True))
        #: how many moves the record has, counted as players count them
        self.total = max(self.numbers, default=0)

    @property
    def last(self) -> int:
        """The index of the last position (the number of plies, rolls included)."""
        return len(self.moves)

    def where(self, index: int | None = None) -> str:
        """Where position ``index`` (default: the one shown) stands: ``move 3 of 20, Black``
        (the move that led to it), or ``start`` before the first."""
        i = self.index if index is None else index
        if i == 0:
            return "start"
        mover = self.movers[i - 1]
        who = "roll" if mover is None else self.names[mover]
        return f"move {self.numbers[i - 1]} of {self.total}, {who}"

    def position_after(self, move: int) -> int:
        """The position after move number ``move`` (its last ply; 0 is the start)."""
        if move == 0:
            return 0
        return max(i + 1 for i, n in enumerate(self.numbers) if n == move)

    def header(self) -> list[str]:
        """The record's tags, one a line."""
        return [f"{name}: {value}" for name, value in self.record.tags.items()]

    def show(self) -> None:
        """Print the position at :attr:`index` with the move that led to it."""
        from diceboard.rendering import terminal

        i = self.index
        if i == 0:
            self.console.show(f"--- start ({self.total} moves)")
        else:
            self.console.show(f"--- {self.where()}: after {self.moves[i - 1].notation}")
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
        self.console.show(
            f"{self.total} moves. Enter/n next, p previous, g N go to move N, q quit."
        )
        self.show()
        while True:
            answer = self.console.ask(f"[{self.where()}] > ")
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
            if not target.isdigit() or int(target) > self.total:
                self.console.show(f"g takes a move number from 0 to {self.total}, like g 2")
                return True
            self.index = self.position_after(int(target))
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
