"""The arena: matches, tournaments, ratings and balance reports, on local processes or Ray.

>>> import diceboard
>>> from diceboard.arena import run_match
>>> match = run_match(diceboard.game("custodian"), "random", "random", 2, seed=1, record=False)
>>> sum(match.wdl())
2
"""

from diceboard.arena.backends import BACKENDS, Backend, run_tasks
from diceboard.arena.balance import BalanceResult, VariantAnalysis, analyse
from diceboard.arena.match import MatchResult, SprtConfig, run_match, write_match
from diceboard.arena.play import GameResult, GameSetup, GameTask, play_game, play_out
from diceboard.arena.report import render_html, write_report
from diceboard.arena.tournament import TournamentResult, run_tournament, write_tournament

__all__ = [
    "BACKENDS",
    "Backend",
    "BalanceResult",
    "GameResult",
    "GameSetup",
    "GameTask",
    "MatchResult",
    "SprtConfig",
    "TournamentResult",
    "VariantAnalysis",
    "analyse",
    "play_game",
    "play_out",
    "render_html",
    "run_match",
    "run_tasks",
    "run_tournament",
    "write_match",
    "write_report",
    "write_tournament",
]
