"""Standard pip layouts of a six-sided die, in die units (side 1, centred on the origin)."""

from __future__ import annotations

#: distance of the outer pip rows and columns from the die's centre
PIP_OFFSET = 0.26
#: pip radius as a fraction of the die's side
PIP_RADIUS = 0.09

_O = PIP_OFFSET
_CENTRE = (0.0, 0.0)
_TOP_LEFT, _TOP_RIGHT = (-_O, -_O), (_O, -_O)
_BOTTOM_LEFT, _BOTTOM_RIGHT = (-_O, _O), (_O, _O)
_MID_LEFT, _MID_RIGHT = (-_O, 0.0), (_O, 0.0)

#: PIPS[face]: the pip centres of that face (y down), as printed on Western dice
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: (_CENTRE,),
    2: (_TOP_RIGHT, _BOTTOM_LEFT),
    3: (_TOP_RIGHT, _CENTRE, _BOTTOM_LEFT),
    4: (_TOP_LEFT, _TOP_RIGHT, _BOTTOM_LEFT, _BOTTOM_RIGHT),
    5: (_TOP_LEFT, _TOP_RIGHT, _CENTRE, _BOTTOM_LEFT, _BOTTOM_RIGHT),
    6: (_TOP_LEFT, _TOP_RIGHT, _MID_LEFT, _MID_RIGHT, _BOTTOM_LEFT, _BOTTOM_RIGHT),
}
