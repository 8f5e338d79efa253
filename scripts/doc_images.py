"""Draw the board diagrams of the docs with the package's own SVG renderer.

    python scripts/doc_images.py            # (re)write docs/images/*.svg
    python scripts/doc_images.py --check    # exit 1 if a committed diagram is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import diceboard
from diceboard.rendering import svg

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def chase_position(blue: str, red: str, to: str = "B") -> str:
    """A Chase position string from dice written ``"d6:6 a1:5"`` per side."""
    cells: dict[str, str] = {}
    for letter, dice in (("B", blue), ("R", red)):
        for item in dice.split():
            hex_name, face = item.split(":")
            cells[hex_name] = letter + face
    rows = ["".join(cells.get(f"{r}{c}", ".") for c in range(1, 10)) for r in reversed("abcdefghi")]
    return f"{'/'.join(rows)} {to} 0 0"


def diagrams() -> dict[str, str]:
    """File name -> SVG text of every diagram."""
    custodian = diceboard.game("custodian")
    chase = diceboard.game("chase")
    start = custodian.parse("B5B2B6B2B6/...../...../...../W3W1W6W4W2 W 0 10")
    b1 = [s.move_segments(m)[0][-1] for s in [start] for m in s.legal_moves()
          if str(m).startswith("a1-")]
    capture = custodian.parse("B1B1.../...../...../...W1./W3B2B2.. W 0 7").play("d2-d1=2")
    ballast = "a1:6 a3:6 a5:5 a8:2"
    red = "i1:5 i3:5 i5:5 i7:5 i9:5"
    return {
        "custodian-start.svg": svg.render(start, highlight=sorted(set(b1))),
        "custodian-capture.svg": svg.render(capture),
        "chase-start.svg": svg.render(chase.initial_state()),
        "chase-ricochet.svg": svg.render(
            chase.parse(chase_position(f"d6:6 {ballast}", red)).play("d6-d3SW")
        ),
        "chase-wrap.svg": svg.render(
            chase.parse(chase_position(f"d6:6 {ballast}", red)).play("d6-d3E")
        ),
        "chase-bump.svg": svg.render(
            chase.parse(chase_position("d1:2 d3:3 d4:4 a1:6 a5:6 a7:4", red)).play("d1-d3E")
        ),
        "chase-split.svg": svg.render(
            chase.parse(
                chase_position("e3:2 a1:6 a3:6 a5:6 a7:5", "f5:3 d5:2 i1:4 i3:4 i5:4 i7:4 i9:4")
            ).play("e3-e5E")
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
    stale = []
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, text in diagrams().items():
        path = IMAGES / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if stale:
        print(f"out of date: {', '.join(stale)} (run python scripts/doc_images.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
