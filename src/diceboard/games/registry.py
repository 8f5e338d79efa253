"""The registry of games: the one list of the games the package plays.

A game is one folder under ``diceboard/games/`` whose ``info.py`` declares a
:class:`~diceboard.core.info.GameInfo` called ``INFO``. Registering it is one line in
:data:`GAME_PACKAGES`; every generic layer then finds it through :func:`names`, :func:`info`
and :func:`component`.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from diceboard.core.errors import OptionError
from diceboard.core.info import COMPONENTS, GameInfo

#: the registered games' packages, in the order menus list them
GAME_PACKAGES: tuple[str, ...] = ("diceboard.games.custodian", "diceboard.games.chase")


@functools.cache
def _infos() -> dict[str, GameInfo]:
    infos: dict[str, GameInfo] = {}
    for package in GAME_PACKAGES:
        declared = importlib.import_module(package + ".info").INFO
        if not isinstance(declared, GameInfo):
            raise TypeError(f"{package}.info.INFO is not a GameInfo")
        infos[declared.name] = declared
    return infos


@functools.cache
def _aliases() -> dict[str, str]:
    table: dict[str, str] = {}
    for declared in _infos().values():
        for alias in (declared.name, *declared.aliases):
            table[alias.lower()] = declared.name
    return table


def names() -> tuple[str, ...]:
    """The registered games' names.

    >>> names()
    ('custodian', 'chase')
    """
    return tuple(_infos())


def canonical_name(name: str) -> str:
    """The registered name that ``name`` (a name or an alias, any case) stands for; an
    unknown game raises :class:`~diceboard.core.OptionError` listing the games."""
    key = _aliases().get(str(name).strip().lower())
    if key is None:
        raise OptionError(f"unknown game {name!r}; games: {', '.join(names())}")
    return key


def info(name: str) -> GameInfo:
    """What the game ``name`` (or an alias) declares about itself.

    >>> info("custodian-dice").title, info("chase").players
    ('Custodian Dice', ('B', 'R'))
    """
    return _infos()[canonical_name(name)]


def infos() -> tuple[GameInfo, ...]:
    """Every registered game's info, in registry order."""
    return tuple(_infos().values())


def by_title(title: str) -> GameInfo | None:
    """The game whose title (or name or alias) is ``title``, ignoring case; ``None`` if none."""
    wanted = str(title).strip().lower()
    for declared in _infos().values():
        if wanted == declared.title.lower():
            return declared
    key = _aliases().get(wanted)
    return None if key is None else _infos()[key]


def component(name: str, part: str) -> Any:
    """A part of the game ``name``, imported on first use: ``"kernel"``, ``"ai"`` (the search
    binding), ``"encoding"`` (the observation encoding), ``"rendering"`` (board geometry and
    colours) — modules — or ``"game"``, the game's class.

    >>> component("chase", "kernel").__name__
    'diceboard.games.chase.kernel'
    """
    if part not in COMPONENTS:
        raise ValueError(f"unknown game component {part!r}; components: {', '.join(COMPONENTS)}")
    declared = info(name)
    target = declared.modules.get(part)
    if target is None:
        raise OptionError(f"the game {declared.name} has no {part} component")
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module
