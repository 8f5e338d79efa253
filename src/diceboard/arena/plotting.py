"""matplotlib, loaded on demand (it is the optional ``report`` extra), and figure output.

Figures are made with :class:`matplotlib.figure.Figure` directly, never through pyplot, so no
global state or GUI backend is involved. SVG output is made reproducible: fixed element ids and
no creation date, so a report is identical for the same seed.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from diceboard.core.errors import OptionError

REPORT_INSTALL_HINT = "plots need matplotlib: pip install 'diceboard[report]'"

#: a colour per series (colour-blind safe, Okabe–Ito)
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")


def new_figure(width: float = 7.0, height: float = 3.6) -> Any:
    """An empty matplotlib figure (inches)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise OptionError(REPORT_INSTALL_HINT) from None
    return Figure(figsize=(width, height), layout="constrained")


def figure_svg(figure: Any) -> str:
    """The figure as an inline ``<svg>`` element (no XML prolog, deterministic ids)."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "diceboard", "svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def save_figure(figure: Any, path: str | Path) -> Path:
    """Save the figure; the format follows the file's suffix (``.png``, ``.svg``, ``.pdf`` …)."""
    target = Path(path)
    formats = figure.canvas.get_supported_filetypes()
    suffix = target.suffix.lstrip(".").lower()
    if suffix not in formats:
        raise OptionError(
            f"cannot tell the plot format of {str(target)!r}; use one of "
            + ", ".join(f".{f}" for f in sorted(formats))
        )
    try:
        figure.savefig(target, dpi=150, metadata={"Software": None} if suffix == "png" else None)
    except OSError as exc:
        raise OptionError(f"cannot write plot {str(target)!r}: {exc.strerror}") from None
    return target
