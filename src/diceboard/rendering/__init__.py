"""Pictures of positions: SVG documents (:mod:`~diceboard.rendering.svg`) and terminal
boards in ANSI colour or plain text (:mod:`~diceboard.rendering.terminal`).

Importing this package registers :func:`svg.render <diceboard.rendering.svg.render>` as
:attr:`State.svg_renderer <diceboard.core.game.State.svg_renderer>`, so that states show
themselves as boards in Jupyter (the core never imports the rendering layer).
"""

from diceboard.core.game import State
from diceboard.rendering import svg, terminal

State.svg_renderer = svg.render

__all__ = ["svg", "terminal"]
