"""The game loop of ``diceboard play``: rolls by a seeded RNG, computer moves, and the human's
prompt with its commands."""

from __future__ import annotations

import os
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from diceboard.cli.console import Console
from diceboard.cli.errors import describe_os_error, one_line
from diceboard.cli.play import destinations, hints, matching
from diceboard.cli.play.records import save_game
from diceboard.cli.play.seats import Seat
from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.core.outcome import Outcome

if TYPE_CHECKING:
    from diceboard.ai import Agent

HELP = """\
commands:
  MOVE          play a move in notation (shorthands work where they are unambiguous)
  SQUARE        show where the die on SQUARE can go (e.g. b1); then one of the squares
                shown plays the die there
  ?  moves      list the legal moves
  hint          ask a computer player for the best move
  undo          take back your last move (and the replies since)
  board         show the board again
  flip          turn the board around
  save FILE     write the game so far to FILE (PGN; JSON for a .json name)
  resign        give up the game
  quit          leave (also: end of input)
  help          this list"""


@dataclass
class Settings:
    """How a session presents itself and what it remembers for the record."""

    seed: int | None = None
    flipped: bool = False
    hint_spec: str | None = None
    save_path: str | None = None


class Session:
    """One game in the terminal, from ``state`` to its end (or until the human leaves)."""

    def __init__(
        self, state: State, seats: dict[str, Seat], console: Console, settings: Settings
    ) -> None:
        self.state = state
        self.seats = seats
        self.console = console
        self.settings = settings
        self.flipped = settings.flipped
        self.rng = random.Random(settings.seed)
        self._shown: State | None = None
        self._hint_agent: Agent | None = None
        self._save_failed = False
        #: the die the human last asked about, with where it can go, in the position shown
        self._picked: tuple[State, destinations.Destinations] | None = None
        self._commands: dict[str, Callable[[str], bool | None]] = {
            "?": self._list_moves,
            "moves": self._list_moves,
            "help": self._help,
            "hint": self._hint,
            "undo": self._undo,
            "board": self._board,
            "flip": self._flip,
            "save": self._save,
            "resign": self._resign,
            "quit": self._quit,
            "exit": self._quit,
        }

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the human leaves; the exit status (0)."""
        game = self.state.game
        sides = ", ".join(str(self.seats[p]) for p in game.players)
        seed = "" if self.settings.seed is None else f", seed {self.settings.seed}"
        self.console.show(f"{game.title}{_options_text(self.state)}: {sides}{seed}")
        if any(seat.is_human for seat in self.seats.values()):
            self.console.show("Type a move, ? for the legal moves, help for commands.")
        try:
            status = self._loop()
            # a --save file that could not be written is a failure, said on stderr
            return 1 if self._save_failed else status
        except (KeyboardInterrupt, Exception):
            # interrupted (or a computer player failed): the game so far still reaches the
            # --save file before the exit
            self.console.show()
            self._autosave()
            raise

    def _loop(self) -> int:
        """Rolls, computer moves and the human's turns until the end or until the human
        leaves."""
        while True:
            if self.state.is_terminal():
                self._finish()
                return 0
            if self.state.is_chance():
                self._roll()
                continue
            seat = self.seats[self.state.to_move]
            if seat.agent is not None:
                self._computer_move(seat, seat.agent)
                continue
            if not self._human_turn(seat):
                return 0

    def _show_board(self, highlight: tuple[str, ...] = ()) -> None:
        from diceboard.rendering import terminal

        text = terminal.render(
            self.state, color=self.console.color, highlight=highlight, flipped=self.flipped
        )
        self.console.show(text.rstrip("\n"))
        self._shown = self.state

    def _roll(self) -> None:
        from diceboard.rendering.summary import summarize

        status = summarize(self.state).status
        outcomes = self.state.chance_outcomes()
        move = self.rng.choices([m for m, _ in outcomes], [p for _, p in outcomes])[0]
        self.state = self.state.play(move)
        self.console.show(f"roll {move.notation}  ({status})")

    def _computer_move(self, seat: Seat, agent: Agent) -> None:
        move = agent.choose(self.state)
        self.state = self.state.play(move)
        self.console.show(f"{seat} plays {move.notation}")
        if not any(s.is_human for s in self.seats.values()):
            self._show_board()

    def _finish(self) -> None:
        if self._shown is not self.state:
            self._show_board()
        outcome = self.state.outcome()
        assert outcome is not None
        self.console.show(f"Game over: {result_text(self.state, outcome)}")
        self._autosave()

    def _autosave(self, outcome: Outcome | None = None) -> None:
        path = self.settings.save_path
        if path is not None and not self._write_record(path, outcome):
            self._save_failed = True
            print(f"diceboard: error: could not save the game to {path}", file=sys.stderr)

    # --- the human's turn ----------------------------------------------------------------------
    def _human_turn(self, seat: Seat) -> bool:
        """Read lines until the human plays a move (true) or leaves (false)."""
        if self._shown is not self.state:
            self._show_board()
        while True:
            line = self.console.ask(f"{seat.name}> ")
            if line is None:
                self.console.show("End of input: the game is left unfinished.")
                self._autosave()
                return False
            done = self._handle(line)
            if done is not None:
                return done

    def _handle(self, line: str) -> bool | None:
        """Act on one line: true when a move was played, false when the session ends, None
        to prompt again."""
        text = line.strip()
        if not text:
            return None
        word, _, rest = text.partition(" ")
        command = self._commands.get(word.lower())
        if command is not None:
            return command(rest.strip())
        if text.lower() in self.state.game.squares:
            square = text.lower()
            landing = self._landing(square)
            if landing:
                if len(landing) == 1:
                    self.console.show(f"playing {landing[0].notation}")
                    self.state = self.state.play(landing[0])
                    return True
                return self._choose(square, tuple(landing))
            self._show_destinations(square)
            return None
        return self._try_move(text)

    def _landing(self, square: str) -> list[Move]:
        """The moves that take the die last asked about to ``square``, in this position (as
        a click on a die and then on where it goes)."""
        if self._picked is None or self._picked[0] is not self.state:
            return []
        return self._picked[1].landings.get(square, [])

    def _try_move(self, text: str) -> bool | None:
        found = matching.resolve(self.state, text)
        if found.error is not None:
            self.console.show(f"{found.error}  (? lists the legal moves)")
            return None
        if found.choices:
            return self._choose(text, found.choices)
        assert found.move is not None
        if found.completed:
            self.console.show(f"playing {found.move.notation}")
        self.state = self.state.play(found.move)
        return True

    def _choose(self, text: str, choices: tuple[Move, ...]) -> bool | None:
        """Ask which of ``choices`` (moves that ``text`` fits) the human means."""
        self.console.show(f"{text} fits {len(choices)} moves that end differently:")
        paths = [self.state.move_segments(m) for m in choices]
        show_paths = len({repr(p) for p in paths}) > 1
        for number, (move, segments) in enumerate(zip(choices, paths, strict=True), start=1):
            where = ""
            if show_paths and segments:
                where = "  (" + "; ".join(" ".join(line) for line in segments) + ")"
            self.console.show(f"  {number}. {move.notation}{where}")
        answer = self.console.ask(f"which one, 1-{len(choices)}? (Enter: none) ")
        if answer is None:
            self.console.show("End of input: the game is left unfinished.")
            self._autosave()
            return False
        answer = answer.strip()
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            self.state = self.state.play(choices[int(answer) - 1])
            return True
        if not answer:
            return None
        return self._handle(answer)

    def _show_destinations(self, square: str) -> None:
        found = destinations.destinations(self.state, square)
        self._picked = (self.state, found) if found.landings else None
        if found.landings:
            self._show_board(highlight=(square, *found.squares))
        for line in destinations.describe(self.state, found):
            self.console.show(line)

    # --- commands ------------------------------------------------------------------------------
    def _list_moves(self, _: str) -> None:
        moves = [m.notation for m in self.state.legal_moves()]
        self.console.show(f"{len(moves)} legal move{'s' if len(moves) != 1 else ''}:")
        for line in textwrap.wrap(" ".join(moves), width=78, break_on_hyphens=False):
            self.console.show("  " + line)

    def _help(self, _: str) -> None:
        self.console.show(HELP)

    def _board(self, _: str) -> None:
        self._show_board()

    def _flip(self, _: str) -> None:
        self.flipped = not self.flipped
        self._show_board()

    def _hint(self, _: str) -> None:
        if self._hint_agent is None:
            self._hint_agent = hints.hint_agent(self.settings.hint_spec, self.settings.seed)
        self.console.show(f"thinking ({self._hint_agent.spec})…")
        try:
            analysis = self._hint_agent.analyse(self.state)
        except Exception as error:  # a hint is advice: its failure must not end the game
            first = (str(error).strip().splitlines() or [""])[0]
            self.console.show(
                f"no hint: {self._hint_agent.spec} failed ({type(error).__name__}: {first})"
            )
            return
        for line in hints.describe(self.state, self._hint_agent, analysis):
            self.console.show(line)

    def _undo(self, _: str) -> None:
        """Go back to the latest earlier state where a human decided."""
        node = self.state.parent
        while node is not None:
            if (
                not node.is_chance()
                and not node.is_terminal()
                and self.seats[node.to_move].is_human
            ):
                taken = self.state.move_stack()[len(node.move_stack()) :]
                self.state = node
                self.console.show("took back: " + " ".join(m.notation for m in taken))
                self._show_board()
                return
            node = node.parent
        self.console.show("nothing to undo: no move of yours has been played")

    def _save(self, path: str) -> None:
        if not path:
            self.console.show("save needs a file name: save FILE")
            return
        self._write_record(os.path.expanduser(path), None)

    def _write_record(self, path: str, outcome: Outcome | None) -> bool:
        """Save the game to ``path``; whether it could be saved (why not is shown)."""
        try:
            count = save_game(self.state, self.seats, self.settings.seed, path, outcome)
        except OSError as error:
            self.console.show(f"could not save: {describe_os_error(error)}")
            return False
        except ValueError as error:
            self.console.show(f"could not save: {one_line(error)}")
            return False
        self.console.show(f"saved {count} move{'s' if count != 1 else ''} to {path}")
        return True

    def _resign(self, _: str) -> bool:
        game = self.state.game
        loser = self.state.to_move
        winner = game.players[1 - game.players.index(loser)]
        result = "1-0" if winner == game.players[0] else "0-1"
        outcome = Outcome(winner, "resignation", result)
        loser_name = game.player_names[game.players.index(loser)]
        self.console.show(f"{loser_name} resigns. Game over: {result_text(self.state, outcome)}")
        self._autosave(outcome)
        return False

    def _quit(self, _: str) -> bool:
        self.console.show("The game is left unfinished.")
        self._autosave()
        return False


def _options_text(state: State) -> str:
    options = state.game.non_default_options()
    if not options:
        return ""
    return " (" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")"


def result_text(state: State, outcome: Outcome) -> str:
    """``1-0: White wins by elimination``, ``1/2-1/2: draw by repetition``."""
    reason = outcome.reason.replace("-", " ")
    if outcome.winner is None:
        return f"{outcome.result}: draw by {reason}"
    game = state.game
    winner = game.player_names[game.players.index(outcome.winner)]
    return f"{outcome.result}: {winner} wins by {reason}"
