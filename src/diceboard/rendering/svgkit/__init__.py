"""Building blocks of :mod:`diceboard.rendering.svg`: the picture's frame and XML helpers,
and one module per layer (board, dice, arrows, legend)."""
