"""What a game declares about itself, as plain data: :class:`GameInfo`.

Each game folder (``diceboard/games/<name>/info.py``) holds one ``GameInfo``; the registry
(:mod:`diceboard.games.registry`) collects them. Every generic layer — the command line, the
web server's ``/api/meta`` and the browser's menus, the AI, the arena, the environments, the
batched simulator, records and rendering — reads what it needs about a game from here, and
reaches the game's code through the dotted paths in :attr:`GameInfo.modules`, imported only
when asked for (:func:`diceboard.games.component`). So nothing outside a game's folder names
the game, and a new game or variant is added in its folder alone.

Everything here is JSON-serialisable (:meth:`GameInfo.to_json`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

#: the parts of a game that live in its folder, each at its layer of the package
COMPONENTS = ("game", "kernel", "ai", "encoding", "rendering")


@dataclass(frozen=True)
class OptionInfo:
    """One option of a game: a choice among named values, or a whole number in a range.

    ``default`` is the value a game gets when the option is not given (for a choice, the
    first of ``choices``). ``variant`` is true for an option that a variant preset sets.
    """

    name: str
    kind: Literal["choice", "int"]
    default: str | int
    description: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    variant: bool = False


@dataclass(frozen=True)
class VariantInfo:
    """A named preset of options (``options`` maps option names to their values)."""

    name: str
    title: str
    description: str
    options: dict[str, str | int] = field(default_factory=dict)


@dataclass(frozen=True)
class GameInfo:
    """Everything the generic layers need to know about one game, as plain data."""

    #: the short name: ``diceboard.game(name)``, the command line, records' ``game`` field
    name: str
    #: the full name, as records' Game tag and the web app write it
    title: str
    #: other accepted spellings of the name
    aliases: tuple[str, ...]
    #: the players' letters, first player first (position strings, outcomes)
    players: tuple[str, str]
    #: the players' colour names, first player first
    player_names: tuple[str, str]
    #: a one-line summary of the game
    summary: str
    #: the variant presets, the default first
    variants: tuple[VariantInfo, ...]
    #: every option, with its choices and default
    options: tuple[OptionInfo, ...]
    #: the rules page, relative to the repository root
    docs: str
    #: component -> where it lives: ``"module"`` or ``"module:attribute"`` (see
    #: :data:`COMPONENTS`; ``game`` names the Game class)
    modules: dict[str, str]
    #: whether the game has chance events (rolls)
    has_chance: bool
    #: whether a legal move may be several kernel actions (a Chase turn that absorbs first);
    #: counting tools then count whole turns by default
    multi_action_moves: bool = False
    #: names under which the research interfaces publish the game
    #: (``pettingzoo``, ``gymnasium``, ``openspiel``)
    environments: dict[str, str] = field(default_factory=dict)
    #: benchmark name -> the figure the game should reach (printed beside the measurement)
    targets: dict[str, float] = field(default_factory=dict)
    #: site name (as its exported records name it) -> the options a game imported from that
    #: site is replayed with (its rules where they differ from ours)
    site_options: dict[str, dict[str, str | int]] = field(default_factory=dict)

    @property
    def variant_names(self) -> tuple[str, ...]:
        """The variants' names, the default first."""
        return tuple(v.name for v in self.variants)

    @property
    def default_variant(self) -> str:
        """The name of the variant a game gets when none is asked for."""
        return self.variants[0].name

    @property
    def colour_names(self) -> tuple[str, str]:
        """The colour names in lower case (``white``, ``black``), as command-line flags."""
        return (self.player_names[0].lower(), self.player_names[1].lower())

    def option(self, name: str) -> OptionInfo:
        """The option called ``name`` (``KeyError`` if there is none)."""
        for opt in self.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    def variant(self, name: str) -> VariantInfo:
        """The variant called ``name`` (``KeyError`` if there is none)."""
        for v in self.variants:
            if v.name == name:
                return v
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The info as JSON-ready data (tuples become lists)."""
        data = asdict(self)
        data["default_variant"] = self.default_variant
        return data
