"""``diceboard bench broadcast``: what one move costs the server per spectator watching it."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any, cast

from diceboard.cli.arguments import bounded
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

DESCRIPTION = """\
Push the snapshot after a move to N spectators of one game, in this process, through the
server's own hub: the message is built and serialised once, queued to every spectator
without waiting, and each spectator's writer task hands it to its socket (a socket that
costs nothing here, so the figures are the server's own work, not the network's). Prints,
per spectator, the time the move's publish holds the event loop and the loop time until
every writer has sent it; the counts are measured in turn, round after round."""

EXAMPLES = """\
examples:
  diceboard bench broadcast
  diceboard bench broadcast --spectators 10,1000,5000 --rounds 20 --pictures
"""

_rounds = bounded(int, 1, 1000, "rounds are 1 to 1000")


def _counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"spectators are whole numbers separated by commas, not {text!r}"
        ) from None
    if not counts or any(not 1 <= n <= 100_000 for n in counts):
        raise argparse.ArgumentTypeError("each spectator count is 1 to 100000")
    return counts


def register(subparsers: Subparsers) -> None:
    """Add ``bench broadcast``."""
    parser = new_command(
        subparsers,
        "broadcast",
        "the server's cost per spectator of pushing a move to everyone watching",
        DESCRIPTION,
        EXAMPLES,
    )
    parser.add_argument(
        "--spectators",
        type=_counts,
        default=[10, 100, 1000, 5000],
        metavar="N,N,…",
        help="spectator counts to measure (default 10,100,1000,5000)",
    )
    parser.add_argument(
        "--rounds", type=_rounds, default=10, metavar="R", help="moves per count (default 10)"
    )
    parser.add_argument(
        "--pictures", action="store_true", help="spectators that ask for the board picture too"
    )
    parser.set_defaults(handler=run)


class _Socket:
    """A socket whose send costs nothing (the figures are the server's own work); it counts
    what it was sent."""

    def __init__(self) -> None:
        self.sent = 0

    async def send_text(self, _text: str) -> None:
        self.sent += 1


async def _measure(count: int, pictures: bool, game: str) -> tuple[float, float]:
    """One move pushed to ``count`` spectators of a fresh hub: the seconds ``publish`` held
    the loop, and the seconds until every writer had sent the snapshot."""
    from diceboard.server import websocket
    from diceboard.server.game_options import make_rules
    from diceboard.server.hub import Hub, Viewer
    from diceboard.server.live import LiveGame
    from diceboard.server.service.lifecycle import new_game_data
    from diceboard.server.storage import SeatData
    from diceboard.server.views import ViewCache

    rules = make_rules(game, {})
    start = rules.start(seed=1)
    state = start.play(start.legal_moves()[0])
    data = new_game_data(rules, time.time(), seed=1, mode="local", status="active")
    names = zip(rules.players, rules.player_names, strict=True)
    seats = {p: SeatData(p, "human", n, "0" * 64) for p, n in names}
    hub = Hub(ViewCache())
    viewers = [Viewer(data.id, [], False, pictures) for _ in range(count)]
    for viewer in viewers:
        hub.add(viewer)
    socket = _Socket()
    writers = [asyncio.create_task(websocket._write(cast(Any, socket), v)) for v in viewers]
    await asyncio.sleep(0)  # every writer waits on its queue
    started = time.perf_counter()
    hub.publish(LiveGame(data, seats, (), rules, state))
    queued = time.perf_counter()
    while any(not v.queue.empty() for v in viewers):
        await asyncio.sleep(0)
    sent = time.perf_counter()
    await asyncio.sleep(0)  # the last writers finish their send
    if socket.sent != count:
        raise RuntimeError(f"{socket.sent} of {count} spectators were sent the move")
    for viewer in viewers:
        viewer.close()
    await asyncio.gather(*writers)
    return queued - started, sent - started


def run(args: argparse.Namespace) -> int:
    """Measure and print the broadcast cost per spectator."""
    try:
        from diceboard import games
        from diceboard.server import hub  # noqa: F401 (the web extra is there)
    except ImportError as exc:
        raise UsageError(f"bench broadcast needs the 'web' extra ({exc.name} is missing)") from None
    game = games.names()[0]
    per: dict[int, list[tuple[float, float]]] = {n: [] for n in args.spectators}
    for _ in range(args.rounds):  # interleaved: one move per count per round
        for count in args.spectators:
            per[count].append(asyncio.run(_measure(count, args.pictures, game)))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"one {game} move pushed to N spectators, {args.rounds} rounds; load average {load}")
    heads = ("spectators", "publish µs each", "until sent µs each", "all sent ms")
    print("  ".join(heads))
    for count, samples in per.items():
        publish = statistics.median(s[0] for s in samples) / count * 1e6
        sent = statistics.median(s[1] for s in samples)
        each = sent / count * 1e6
        print(f"{count:>10}  {publish:>15.2f}  {each:>18.2f}  {sent * 1e3:>11.2f}")
    return 0
