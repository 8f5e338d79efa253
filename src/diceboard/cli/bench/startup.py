"""``diceboard bench startup``: how long a new ``diceboard serve`` keeps people waiting."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from diceboard.cli.arguments import bounded, positive_float
from diceboard.cli.bench.common import (
    by_round,
    in_turns,
    load_average,
    load_text,
    median_of,
    python_speed,
    ratio_of,
    speed_text,
    tree_folder,
)
from diceboard.cli.errors import UsageError
from diceboard.cli.parsing import Subparsers, new_command

DESCRIPTION = """\
Start 'diceboard serve' on a free loopback port with a fresh SQLite database and measure, from
the moment the process starts: when '/' first answers, when /api/meta answers, when the server
has made a new game against the computer with its first position and moves (the server's kernels
are ready: it can answer a move), and when the computer's first move (at --level, the computer
moving first) arrives (its search is ready too: fully warm); and the CPU seconds the server and
its processes used until then, exited ones too (mostly numba compiling). Done twice: on an empty
numba cache (a temporary NUMBA_CACHE_DIR, so every kernel is compiled) and again on the cache
that run filled (a warm start). --src serves the package from another source folder. --against
DIR compares two trees in one run: each round starts this tree and the one in DIR (the package
found there) one after the other, in turns, each on an empty cache of its own, and the figures
end with each tree's medians and their ratios, and the rounds compared one by one: the median of
each round's ratio and how many rounds this tree was faster in (a start's time drifts with the
machine's load: compare trees only within one run, over a few --rounds). --compiles prints
instead what a cold start compiles: per function, its compilations (one per signature), their
seconds with and without the functions they compiled in, and the signatures of those compiled
more than once, for the server's warm-up (the game's rules kernels that the search calls, then
every game's kernels) and a computer worker's (the game's evaluation and its search at the
default level, on the kernels the server cached), one after the other."""

EXAMPLES = """\
examples:
  diceboard bench startup
  diceboard bench startup --only warm --level random
  diceboard bench startup --src /tmp/old-tree/src --json
  diceboard bench startup --only cold --against /tmp/old-tree/src --rounds 3
  diceboard bench startup --compiles
"""


_rounds = bounded(int, 1, 20, "the rounds are 1 to 20")

#: the figures of a start that its medians and ratios are given for
SUMMARISED = ("root_s", "first_server_move_s", "first_computer_move_s", "cpu_s")


def register(subparsers: Subparsers) -> None:
    """Add ``bench startup``."""
    parser = new_command(
        subparsers,
        "startup",
        "time until the web app answers and until its first computer move (cold and warm)",
        DESCRIPTION,
        EXAMPLES,
    )
    parser.add_argument("--game", metavar="NAME", help="the game played (default: the first)")
    parser.add_argument(
        "--level", default="level:4", metavar="SPEC", help="the computer (default level:4)"
    )
    parser.add_argument(
        "--only",
        choices=("cold", "warm"),
        help="measure only one start (warm: fills the cache first, unmeasured)",
    )
    parser.add_argument(
        "--src", metavar="DIR", help="serve the package found in this folder (PYTHONPATH)"
    )
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="also start the package found in this folder, in turns with this one, and "
        "compare the two",
    )
    parser.add_argument(
        "--rounds",
        type=_rounds,
        default=1,
        metavar="N",
        help="starts of each kind (and of each tree) to measure, with their medians "
        "(default 1, at most 20)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_float,
        default=600.0,
        metavar="S",
        help="give up on a start after this many seconds (default 600)",
    )
    parser.add_argument(
        "--compiles",
        action="store_true",
        help="print what a cold start compiles, per function, instead of timing starts",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=run)


def _start(cache: str, src: str | None, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    from diceboard.server.loadtest import free_port, server_environment

    port = free_port()
    env = {**server_environment(src), "NUMBA_CACHE_DIR": cache}
    command = [
        sys.executable, "-m", "diceboard.cli", "serve", "--port", str(port),
        "--db", f"sqlite:///{workdir / f'games-{port}.sqlite3'}",
        "--computer-workers", "1", "--computer-delay", "0", "--log-level", "warning",
    ]  # fmt: skip
    out = (workdir / f"serve-{port}.log").open("wb")
    process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    return process, f"http://127.0.0.1:{port}"


def _cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds of process ``pid`` and all its descendants, those still
    running and those that have exited and been waited for (Linux's ``/proc``; ``None``
    elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    todo = [pid]
    try:
        while todo:
            current = todo.pop()
            stat = Path(f"/proc/{current}/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            # utime, stime, and cutime, cstime: the children it has waited for
            total += sum(int(f) for f in fields[11:15]) / ticks
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                todo.extend(int(child) for child in children)
    except (OSError, ValueError, IndexError):
        return None
    return total


def measure(
    cache: str, game: str, level: str, src: str | None, timeout: float, workdir: Path
) -> dict[str, Any]:
    """One start of the server on the numba cache ``cache``: seconds from the start of the
    process until ``/`` answers, ``/api/meta`` answers, the server has made a new game (its
    kernels are ready) and the computer's first move arrives; the CPU seconds used until
    then; and what the server printed."""
    import httpx2

    started = time.monotonic()
    process, base = _start(cache, src, workdir)
    figures: dict[str, Any] = {}
    deadline = started + timeout

    def left() -> float:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"no answer within {timeout:g} s")
        return deadline - time.monotonic()

    try:
        with httpx2.Client(timeout=timeout) as client:
            for path, key in (("/", "root_s"), ("/api/meta", "meta_s")):
                while True:
                    left()
                    try:
                        if client.get(base + path, timeout=2.0).status_code == 200:
                            break
                    except httpx2.HTTPError:
                        pass
                    time.sleep(0.05)
                figures[key] = time.monotonic() - started
            body = {"game": game, "mode": "computer", "side": "second", "level": level, "seed": 1}
            # the engine's gate holds every game request until the server's kernels are ready
            # (it then makes the game's first position and its moves with them)
            created = client.post(base + "/api/games", json=body, timeout=left())
            created.raise_for_status()
            figures["first_server_move_s"] = time.monotonic() - started
            grant = created.json()
            mine = set(grant["seats"])
            url = f"{base}/api/games/{grant['id']}?pictures=false"
            while True:
                moves = client.get(url, timeout=left()).json()["game"]["moves"]
                if any(m["seat"] and m["seat"] not in mine for m in moves):
                    break
                time.sleep(0.05)
            figures["first_computer_move_s"] = time.monotonic() - started
            figures["cpu_s"] = _cpu_seconds(process.pid)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    logs = sorted(workdir.glob("serve-*.log"), key=lambda p: p.stat().st_mtime)
    figures["printed"] = logs[-1].read_text(errors="replace").splitlines()[:20] if logs else []
    return figures


#: run in a fresh process on an empty cache: one stage of the warm-up under a CompileLog
_COMPILES = """
import json, sys, time
from diceboard.kernel.compile_log import CompileLog
from diceboard.server import computer_players as players
stage, game = sys.argv[1], sys.argv[2]
cpu, wall = time.process_time(), time.perf_counter()
with CompileLog() as log:
    if stage == "server":
        players.warm_up_rules(game)
        players.warm_up_kernels()
    else:
        players.prepare(game)
        players.compile_search_ahead(game)
        players.warm_up(game)
rows = [vars(row) for row in log.table()]
print(json.dumps({"cpu_s": time.process_time() - cpu, "wall_s": time.perf_counter() - wall,
                  "compilations": len(log.compilations), "functions": rows}))
"""

#: shorter names for the signatures printed
_SHORT = (
    ("Array(int64, 1, 'C', False, aligned=True)", "i8[::1]"),
    ("Array(int64, 1, 'C', True, aligned=True)", "readonly i8[::1]"),
    ("Array(float64, 1, 'C', False, aligned=True)", "f8[::1]"),
)


def compiles(game: str, src: str | None, timeout: float, workdir: Path) -> dict[str, Any]:
    """What the server's and a worker's warm-up compile on an empty cache (see
    :data:`_COMPILES`), stage by stage."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(workdir / "numba-cache-compiles")}
    if src:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    stages: dict[str, Any] = {}
    for stage in ("server", "worker"):
        done = subprocess.run(
            [sys.executable, "-c", _COMPILES, stage, game],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
            raise UsageError(f"the {stage} warm-up failed: {tail[0]}")
        stages[stage] = json.loads(done.stdout.strip().splitlines()[-1])
    return stages


def _print_compiles(game: str, stages: dict[str, Any]) -> None:
    for stage, result in stages.items():
        rows = result["functions"]
        print(
            f"{stage} warm-up ({'every game' if stage == 'server' else game}), empty cache:"
            f" {result['compilations']} compilations of {len(rows)} functions,"
            f" {result['cpu_s']:.1f} CPU s, {result['wall_s']:.1f} s"
        )
        print("  excl s  incl s   n  function")
        for row in rows:
            if row["exclusive_s"] < 0.2 and row["count"] == 1:
                continue
            print(
                f"  {row['exclusive_s']:6.2f}  {row['inclusive_s']:6.2f} {row['count']:3d}"
                f"  {row['function']}"
            )
            if row["count"] > 1:
                for signature in sorted(set(row["signatures"])):
                    for long, short in _SHORT:
                        signature = signature.replace(long, short)
                    print(f"                     {signature}")
    print(f"  (load average {load_text(load_average())})")


def run(args: argparse.Namespace) -> int:
    """Measure a cold and a warm start and print the figures."""
    try:
        import httpx2  # noqa: F401

        from diceboard import games
    except ImportError as exc:
        missing = exc.name
        raise UsageError(
            f"the startup bench needs the 'web' extra ({missing} is missing)"
        ) from None
    game = args.game or games.names()[0]
    if game not in games.names():
        raise UsageError(f"no game {game!r}; the games are {', '.join(games.names())}")
    if args.compiles and (args.against or args.rounds > 1):
        raise UsageError("--compiles lists one cold start's compiling: no --against or --rounds")
    for option, folder in (("--src", args.src), ("--against", args.against)):
        if folder:
            tree_folder(option, folder)
    results: dict[str, Any] = {"game": game, "level": args.level, "src": args.src}
    with tempfile.TemporaryDirectory(prefix="diceboard-bench-startup-") as tmp:
        workdir = Path(tmp)
        if args.compiles:
            stages = compiles(game, args.src, args.timeout, workdir)
            if args.json:
                print(json.dumps({"game": game, "src": args.src, **stages}, indent=2))
            else:
                _print_compiles(game, stages)
            return 0
        kinds = ("cold", "warm") if args.only is None else (args.only,)
        trees = [("this", args.src)] + ([("against", args.against)] if args.against else [])
        runs: list[dict[str, Any]] = []
        for index in range(args.rounds):
            for label, src in in_turns(trees, index):
                cache = str(workdir / f"numba-cache-{label}-{index}")
                run_figures = _starts(cache, game, args, src, kinds, workdir)
                runs.append({"round": index + 1, "tree": label, "src": src, **run_figures})
        first = runs[0]
        for kind in kinds:
            results[kind] = first[kind]
        results["python_speed_ms"] = first["python_speed_ms"]
        if len(runs) > 1:
            results["against"] = args.against
            results["runs"] = runs
            results["summary"] = summarise(runs, kinds)
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"diceboard serve, {game} against {args.level} (one computer worker)")
    if "runs" not in results:
        for kind in ("cold", "warm"):
            if kind in results:
                _print_start(kind, results[kind], details=True)
        print(
            f"  (load average {load_text(load_average())}; "
            f"{speed_text([results['python_speed_ms']])})"
        )
        return 0
    for one in results["runs"]:
        where = f" {one['tree']} ({one['src'] or 'installed'})" if args.against else ""
        print(
            f"round {one['round']}{where} (load average {load_text(one['load'])}; "
            f"{speed_text([one['python_speed_ms']])})"
        )
        for kind in kinds:
            _print_start(kind, one[kind], details=False)
    _print_summary(results["summary"], bool(args.against))
    return 0


def _starts(
    cache: str,
    game: str,
    args: argparse.Namespace,
    src: str | None,
    kinds: tuple[str, ...],
    workdir: Path,
) -> dict[str, Any]:
    """The starts of one round of one tree on the numba cache ``cache`` (empty at first): a
    cold start, then a warm one on what it cached (only a warm one: the cache filled first,
    unmeasured); with the load average once they are done."""
    if kinds == ("warm",):
        measure(cache, game, args.level, src, args.timeout, workdir)
    figures: dict[str, Any] = {}
    for kind in kinds:
        try:
            figures[kind] = measure(cache, game, args.level, src, args.timeout, workdir)
        except RuntimeError as exc:
            figures[kind] = {"error": str(exc)}
    figures["load"] = list(load_average())
    figures["python_speed_ms"] = python_speed()
    return figures


def summarise(runs: list[dict[str, Any]], kinds: tuple[str, ...]) -> dict[str, Any]:
    """Each tree's median of each figure of :data:`SUMMARISED` over its starts of each kind
    (starts that failed, or a figure not measured, left out), and, where two trees were
    started, the other tree's medians over this one's (above 1: this tree is faster) and
    the rounds compared one by one (:func:`~diceboard.cli.bench.common.by_round`)."""
    summary: dict[str, Any] = {}
    for kind in kinds:
        by_tree: dict[str, dict[str, float | None]] = {}
        for tree in dict.fromkeys(run["tree"] for run in runs):
            starts = [run[kind] for run in runs if run["tree"] == tree]
            by_tree[tree] = {
                figure: median_of(s.get(figure) for s in starts) for figure in SUMMARISED
            }
        entry: dict[str, Any] = dict(by_tree)
        if "against" in by_tree:
            entry["ratio"] = {
                figure: ratio_of(by_tree["against"][figure], by_tree["this"][figure])
                for figure in SUMMARISED
            }
            starts = [{"round": r["round"], "tree": r["tree"], **r[kind]} for r in runs]
            entry["paired"] = {figure: by_round(starts, figure) for figure in SUMMARISED}
        summary[kind] = entry
    return summary


def _print_start(kind: str, r: dict[str, Any], details: bool) -> None:
    if "error" in r:
        print(f"  {kind:<5} failed: {r['error']}")
        return
    cpu = "?" if r["cpu_s"] is None else f"{r['cpu_s']:.1f}"
    print(
        f"  {kind:<5} '/' answers after {r['root_s']:6.1f} s · /api/meta {r['meta_s']:6.1f} s"
        f" · server answers a game {r['first_server_move_s']:6.1f} s"
        f" · first computer move {r['first_computer_move_s']:6.1f} s · CPU {cpu} s"
    )
    if details:
        for line in r["printed"]:
            if " ready " in line or "warming up" in line:
                print(f"          {line.strip()}")


def _print_summary(summary: dict[str, Any], compared: bool) -> None:
    names = {
        "root_s": "'/' answers",
        "first_server_move_s": "server answers a game",
        "first_computer_move_s": "first computer move",
        "cpu_s": "CPU",
    }

    def shown(value: float | None, unit: str) -> str:
        return "?" if value is None else f"{value:.2f}{unit}"

    for kind, entry in summary.items():
        print(f"medians, {kind} start:")
        for figure, name in names.items():
            line = f"  {name:<22} this {shown(entry['this'][figure], ' s'):>9}"
            if compared:
                line += f" · against {shown(entry['against'][figure], ' s'):>9}"
                line += f" · against / this {shown(entry['ratio'][figure], 'x'):>7}"
                pairs = entry["paired"][figure]
                line += (
                    f" · by round {shown(pairs['median_ratio'], 'x'):>7}, this faster in"
                    f" {pairs['faster']} of {pairs['rounds']}"
                )
            print(line)
    if compared:
        print(
            "  (a ratio above 1: this tree is faster; 'by round': the median of each round's"
            " ratio, its two starts one after the other)"
        )
