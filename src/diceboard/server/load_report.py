"""What a load test (:mod:`diceboard.server.loadtest`) measured: the moves and their latencies,
which its players (:mod:`diceboard.server.load_player`) record as they play, and the CPU
time of the server and of the load generator."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field


@dataclass
class LoadReport:
    """What a load test measured."""

    games: int
    moves: int = 0
    rejected: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    lost: list[str] = field(default_factory=list)
    finished_games: int = 0
    #: CPU seconds used while the games were played: by the server (with its computer
    #: workers; ``None`` when it is not a process of this machine that the bench knows) and
    #: by this client, which plays every game from one process on the same cores
    server_cpu_s: float | None = None
    client_cpu_s: float = 0.0
    #: of :attr:`server_cpu_s`, what the serving process itself used (its computer workers
    #: and their warm-up are the rest)
    serving_cpu_s: float | None = None

    @property
    def serving_ms_per_move(self) -> float | None:
        """The serving process's CPU milliseconds a move (``None`` where not measured)."""
        if self.serving_cpu_s is None or not self.moves:
            return None
        return 1000 * self.serving_cpu_s / self.moves

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile of the move latencies, in milliseconds."""
        if not self.latencies_ms:
            return float("nan")
        data = sorted(self.latencies_ms)
        k = min(len(data) - 1, max(0, round(p / 100 * (len(data) - 1))))
        return data[k]

    def lines(self) -> list[str]:
        """The report as text lines."""
        rate = self.moves / self.seconds if self.seconds else 0.0
        mean = statistics.fmean(self.latencies_ms) if self.latencies_ms else float("nan")
        per_move = self.serving_ms_per_move
        return [
            f"games              {self.games} concurrent ({self.finished_games} finished)",
            f"moves              {self.moves} acknowledged, {self.rejected} rejected, "
            f"{rate:.0f} moves/s over {self.seconds:.1f} s",
            f"latency p50        {self.percentile(50):.1f} ms",
            f"latency p90        {self.percentile(90):.1f} ms",
            f"latency p99        {self.percentile(99):.1f} ms   (target < 100 ms)",
            f"latency max        {max(self.latencies_ms, default=float('nan')):.1f} ms",
            f"latency mean       {mean:.1f} ms",
            f"server CPU         {_cpu_share(self.server_cpu_s, self.seconds)}",
            f"  serving process  {_cpu_share(self.serving_cpu_s, self.seconds)}"
            + ("" if per_move is None else f", {per_move:.2f} ms a move"),
            f"client CPU         {_cpu_share(self.client_cpu_s, self.seconds)}   "
            "(the load generator, on the same cores)",
            "accounting         "
            + ("every move stored" if not self.lost else f"MISMATCH in {len(self.lost)} games"),
        ]


def _cpu_share(seconds: float | None, wall: float) -> str:
    if seconds is None:
        return "not measured (a server this bench did not start)"
    share = 100 * seconds / wall if wall else 0.0
    return f"{seconds:.1f} s ({share:.0f} % of one core)"
