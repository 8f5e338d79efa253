"""``hint``: what a strong computer player thinks of the position."""

from __future__ import annotations

from typing import TYPE_CHECKING

import diceboard
from diceboard.core.errors import OptionError
from diceboard.core.game import State

if TYPE_CHECKING:
    from diceboard.ai import Agent, Analysis

#: the agents a hint asks, strongest first; the first one this installation has is used
HINT_SPECS = ("level:5", "mcts", "alphabeta", "greedy", "random")
#: how many candidate moves a hint lists
SHOWN_MOVES = 5


def hint_agent(spec: str | None, seed: int | None) -> Agent:
    """The agent ``spec`` names, or else the strongest of :data:`HINT_SPECS` available."""
    if spec is not None:
        return diceboard.agent(spec, seed=seed)
    for candidate in HINT_SPECS:
        try:
            return diceboard.agent(candidate, seed=seed)
        except OptionError:
            continue
    raise OptionError(f"no agent for hints: none of {', '.join(HINT_SPECS)} exists")


def _has_evaluation(analysis: Analysis) -> bool:
    return bool(analysis.moves or analysis.pv or analysis.depth or analysis.nodes)


def describe(state: State, agent: Agent, analysis: Analysis) -> list[str]:
    """Lines that present ``analysis`` of ``state``."""
    mover = state.game.player_names[state.game.players.index(state.to_move)]
    lines = [f"hint ({agent.spec}): {analysis.best}"]
    if not _has_evaluation(analysis):
        lines[0] += "  (this player does not evaluate positions)"
        return lines
    facts = [f"value {analysis.value:+.2f} for {mover}"]
    if analysis.depth:
        facts.append(f"depth {analysis.depth}")
    if analysis.nodes:
        facts.append(f"{analysis.nodes:,} nodes")
    if analysis.seconds:
        facts.append(f"{analysis.seconds:.2f} s")
    lines[0] += "  (" + ", ".join(facts) + ")"
    if len(analysis.pv) > 1:
        lines.append("  line: " + " ".join(m.notation for m in analysis.pv))
    if analysis.moves:
        width = max(len(s.move.notation) for s in analysis.moves[:SHOWN_MOVES])
        for stats in analysis.moves[:SHOWN_MOVES]:
            visits = f"  {stats.visits:,} visits" if stats.visits else ""
            lines.append(f"  {stats.move.notation:<{width}}  {stats.value:+.2f}{visits}")
    return lines
