"""One player of the load test (:mod:`diceboard.server.loadtest`): a WebSocket client driven by
the event loop's callbacks.

The load generator runs on the same cores as the server it measures, so whatever it spends
is taken from the server. A player is therefore an :class:`asyncio.Protocol` on the
``websockets`` library's sans-I/O client (which frames, masks and answers pings), not a
task awaiting each message through the library's asyncio connection: a message is handled
in the callback that received its bytes, with no task woken, no future and no timeout scope
per message, and the players are watched for silence together, twice a second, by
:func:`watch`. A player still speaks the protocol as any client does: the opening handshake,
masked frames, pongs, the closing handshake.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Sequence
from typing import Any, cast

from orjson import dumps, loads
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from diceboard.server.load_report import LoadReport

#: how long a player waits for the answer to its own move before it gives up on the game
ANSWER_WAIT_S = 60.0
#: how long past the end of play a player that has no move of its own under way keeps
#: listening (its opponent may still be answering)
LINGER_S = 5.0
#: how long opening a connection (its handshake included) may take
OPEN_WAIT_S = 120.0
#: how long the closing handshake may take before the connection is dropped
CLOSE_WAIT_S = 10.0


class LoadBroken(RuntimeError):
    """A player's connection failed during the load test (the message says which and how)."""


class LoadPlayer(asyncio.Protocol):
    """One seat of one online game: plays a random legal move whenever it is its turn (after
    thinking ``think`` seconds on average), records each move's latency in ``report`` (from
    sending it to receiving the state that holds it), and counts the moves acknowledged."""

    def __init__(
        self,
        base: str,
        game_id: str,
        token: str,
        seat: str,
        rng: random.Random,
        report: LoadReport,
        deadline: float,
        max_moves: int,
        think: float,
        delta: bool = True,
    ) -> None:
        self.url = base.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
        self.game_id = game_id
        self.token = token
        self.seat = seat
        self.rng = rng
        self.report = report
        self.deadline = deadline
        self.max_moves = max_moves
        self.think = think
        self.delta = delta
        self.sent_at: float | None = None
        self.sent_version = -1
        self.acked = 0
        #: a move of this player's is on its way (thought about, sent, not yet answered)
        self.pending = False
        #: this player wants no more moves (the game is over, or play has ended)
        self.done = False
        #: when this player last sent a move or heard from the server (:func:`watch`)
        self.heard_at = time.monotonic()
        self.last: dict[str, Any] | None = None
        #: the game's moves, as the state messages have given them so far
        self.moves: list[dict[str, Any]] = []
        #: how many of :attr:`moves` are decisions (kept as they change: counting them in
        #: every message would cost the load generator more the longer a game runs)
        self.decisions = 0
        self._uri = parse_uri(self.url)
        self._protocol = ClientProtocol(self._uri, max_size=2**24)
        self._transport: asyncio.Transport | None = None
        self._fragments: list[bytes | bytearray | memoryview] = []
        self._opened: asyncio.Future[None] | None = None
        self._closed: asyncio.Future[None] | None = None
        #: this player has started to close its connection (:meth:`finish`)
        self.finishing = False

    # --- the connection -----------------------------------------------------------------------
    async def play(self, opening: asyncio.Semaphore | None = None) -> None:
        """Connect, play until done, close; raises :class:`LoadBroken` if the server drops
        the connection or refuses it."""
        loop = asyncio.get_running_loop()
        self._opened = loop.create_future()
        self._closed = loop.create_future()
        # a thousand games' sockets opened all at once would time out in their handshakes:
        # a few at a time
        async with opening or contextlib.nullcontext():
            try:
                async with asyncio.timeout(OPEN_WAIT_S):
                    await loop.create_connection(lambda: self, self._uri.host, self._uri.port)
                    await self._opened
            except TimeoutError:
                raise LoadBroken(
                    f"game {self.game_id}: the server did not open the WebSocket "
                    f"within {OPEN_WAIT_S:.0f} s"
                ) from None
        if self.finishing:  # play ended while this player was still connecting
            self.finishing = False
            self.finish()
        else:
            # a program needs the data, not the board picture (and, as the browser does,
            # only what changed)
            self._send(
                {"type": "hello", "token": self.token, "pictures": False, "delta": self.delta}
            )
        await self._closed

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports do not derive from asyncio's classes, but behave as they do)
        self._transport = cast(asyncio.Transport, transport)
        self._protocol.send_request(self._protocol.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self._protocol.receive_data(data)
        self._take_events()

    def eof_received(self) -> bool | None:
        self._protocol.receive_eof()
        self._take_events()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None
        if self._opened is not None and not self._opened.done():
            self._opened.set_exception(
                LoadBroken(f"game {self.game_id}: the connection closed during the handshake")
            )
            if self._closed is not None:
                self._closed.set_result(None)  # (never awaited: the handshake's error is)
            return
        if self._closed is None or self._closed.done():
            return
        if self.finishing:
            self._closed.set_result(None)
            return
        close = self._protocol.close_rcvd  # (the server's close frame, if it sent one)
        said = "no close frame" if close is None else f"close code {close.code} {close.reason}"
        self._closed.set_exception(
            LoadBroken(
                f"game {self.game_id}, seat {self.seat}: the server closed the connection "
                f"during play ({said.strip()}{f': {exc}' if exc else ''})"
            )
        )

    def finish(self) -> None:
        """Stop playing: start the closing handshake (the connection is dropped if the
        server does not answer it within :data:`CLOSE_WAIT_S`)."""
        self.done = True
        if self.finishing:
            return
        self.finishing = True
        if self._transport is None:
            return
        if self._protocol.state is State.OPEN:
            self._protocol.send_close(1000)
            self._flush()
        transport = self._transport
        asyncio.get_running_loop().call_later(CLOSE_WAIT_S, transport.abort)

    def _flush(self) -> None:
        transport = self._transport
        if transport is None:
            return
        for chunk in self._protocol.data_to_send():
            if chunk:
                transport.write(chunk)
            else:  # the end of the stream, after the closing handshake
                transport.close()
                return

    def _take_events(self) -> None:
        for event in self._protocol.events_received():
            if isinstance(event, Frame):
                self._frame(event)
            elif isinstance(event, Response):
                self._handshake_done()
        self._flush()
        if self._protocol.close_expected() and self._transport is not None:
            # (the closing handshake is over, or the server broke the connection off: which
            # of the two, :meth:`connection_lost` tells from :attr:`finishing`)
            self._transport.close()

    def _handshake_done(self) -> None:
        opened = self._opened
        if opened is None or opened.done():
            return
        failure = self._protocol.handshake_exc
        if failure is None:
            opened.set_result(None)
        else:
            opened.set_exception(
                LoadBroken(f"game {self.game_id}: the WebSocket handshake failed: {failure}")
            )

    def _frame(self, frame: Frame) -> None:
        if frame.opcode not in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
            return  # pings are answered and a close is acknowledged by the protocol itself
        if not frame.fin:
            self._fragments.append(frame.data)
            return
        data = frame.data
        if self._fragments:
            self._fragments.append(data)
            data = b"".join(self._fragments)
            self._fragments.clear()
        self.heard_at = time.monotonic()
        if not self.finishing and not self._handle(loads(data)):
            self.finish()

    def _send(self, message: dict[str, Any]) -> None:
        if self._protocol.state is not State.OPEN:
            return
        self._protocol.send_text(dumps(message))
        self._flush()

    # --- the game -----------------------------------------------------------------------------
    def _handle(self, message: dict[str, Any]) -> bool:
        """Act on one message; ``False`` when this player is done."""
        kind = message["type"]
        if kind == "ack":
            self._acknowledged()
            if self.done:
                return False
            if self.last is not None:
                self._maybe_move(self.last)
            return True
        if kind == "error":
            self.report.rejected += 1
            self.sent_at = None
            self.pending = False
            return not self.done
        if kind != "state":
            return True
        game = message["game"]
        self.last = game
        if "ack" in message:  # (changes only: the state that holds our move acknowledges it)
            self._acknowledged()
        self._update_moves(game.get("moves_from"), game["moves"])
        if self.sent_at is not None and game["version"] > self.sent_version:
            self.report.latencies_ms.append((time.perf_counter() - self.sent_at) * 1000)
            self.report.moves += 1
            self.sent_at = None
        if game["status"] == "finished":
            if self.seat == game["players"][0] and not self.done:
                self.report.finished_games += 1
            self.done = True
            return self.pending
        if time.monotonic() > self.deadline or self.decisions >= self.max_moves:
            self.done = True
            return self.pending
        self._maybe_move(game)
        return True

    def _update_moves(self, moves_from: int | None, moves: Sequence[dict[str, Any]]) -> None:
        """The game's moves from the ``moves_from``-th on are now ``moves`` (all of them
        when ``None``: a whole snapshot)."""
        if moves_from is None:
            moves_from = 0
        self.decisions -= sum(1 for m in self.moves[moves_from:] if m["seat"])
        del self.moves[moves_from:]
        self.moves.extend(moves)
        self.decisions += sum(1 for m in moves if m["seat"])

    def _acknowledged(self) -> None:
        """Our move was acknowledged (by an ``ack`` message or in the state that holds it)."""
        self.acked += 1
        self.pending = False

    def _maybe_move(self, game: dict[str, Any]) -> None:
        if game["to_move"] != self.seat or self.pending or not game["legal"]:
            return
        move = self.rng.choice(game["legal"])["notation"]
        self.pending = True
        if self.think > 0:
            # a player thinks before moving: uniformly 0 to twice the mean
            delay = self.rng.uniform(0, 2 * self.think)
            asyncio.get_running_loop().call_later(delay, self._move, move, game["version"])
        else:
            self._move(move, game["version"])

    def _move(self, move: str, version: int) -> None:
        self.sent_version = version
        self.sent_at = time.perf_counter()
        self.heard_at = time.monotonic()
        self._send({"type": "move", "move": move, "version": version})


async def watch(players: Sequence[LoadPlayer], deadline: float) -> None:
    """Finish the players that wait in vain, looking twice a second (one timer for all, not
    one per message): one with no move under way once play has ended (:data:`LINGER_S` after
    ``deadline``, a :func:`time.monotonic` time), one whose move has gone unanswered for
    :data:`ANSWER_WAIT_S`. Returns when every player has finished."""
    while True:
        now = time.monotonic()
        playing = [p for p in players if not p.finishing]
        if not playing:
            return
        for player in playing:
            if player.pending:
                if now - player.heard_at > ANSWER_WAIT_S:
                    player.finish()
            elif now > deadline + LINGER_S and now - player.heard_at > 0.1:
                player.finish()
        await asyncio.sleep(0.5)
