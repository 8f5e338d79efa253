"""What clients are sent: a JSON snapshot of a game after every change.

The public part (board picture, legal moves, history, clocks, offers) is the same for every
viewer and is built once per game revision (the board's picture once per orientation too);
the personal part (which seat the viewer holds, the invite code of a game the viewer
created) is added per viewer.
Tokens and the roll seed of a game in progress are never part of a snapshot.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any, NamedTuple, TypeVar

from diceboard import games
from diceboard.core.game import Game, State
from diceboard.rendering import svg
from diceboard.rendering.palette import die_style
from diceboard.rendering.summary import side_material
from diceboard.server import clocks, jsontext
from diceboard.server.legal_json import LegalMovesText
from diceboard.server.live import LiveGame
from diceboard.server.move_json import legal_moves_json, move_json, rolled_face
from diceboard.server.storage.rows import GameData, MoveData, SeatData

#: width of the server's board pictures in SVG units (they scale to their container)
BOARD_SIZE = 480


def seat_info(seat: SeatData, connected: bool | None = None) -> dict[str, Any]:
    """A seat as anyone may see it."""
    info: dict[str, Any] = {"kind": seat.kind, "name": seat.name}
    if seat.kind == "computer":
        info["agent"] = seat.agent
    if connected is not None:
        info["connected"] = connected
    return info


def summary(game: GameData, seats: list[SeatData] | dict[str, SeatData]) -> dict[str, Any]:
    """A short public description of a game (for the lobby and the recent-games list)."""
    seat_list = list(seats.values()) if isinstance(seats, dict) else seats
    return {
        "id": game.id,
        "game": game.game,
        "options": game.options,
        "mode": game.mode,
        "status": game.status,
        "result": game.result,
        "reason": game.reason,
        "move_count": game.move_count,
        "time_control": _time_control(game),
        "seats": {s.seat: seat_info(s) for s in seat_list},
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }


def _time_control(game: GameData) -> dict[str, int] | None:
    if game.initial_ms is None:
        return None
    return {"initial_ms": game.initial_ms, "increment_ms": int(game.increment_ms or 0)}


def centres(rules: Game, flipped: bool) -> dict[str, Any]:
    """Square centres in the board picture's coordinates, and both images of split hexes."""
    return {
        "centres": svg.square_centres(rules, size=BOARD_SIZE, flipped=flipped),
        "split": svg.split_hex_centres(rules, size=BOARD_SIZE, flipped=flipped),
    }


def hand_json(state: State) -> dict[str, list[int]] | None:
    """The dice each player holds off the board (rolled faces; a die not yet rolled is left
    out), or ``None`` when nobody holds any (every game once its dice are all on the board)."""
    hand = state.hand()
    if not any(hand.values()):
        return None
    return {p: [face for face in faces if face is not None] for p, faces in hand.items()}


def _variant_title(rules: Game) -> str | None:
    """The title of the game's variant (``None`` for a variant the registry does not list)."""
    if rules.variant is None:
        return None
    try:
        return games.info(rules.name).variant(rules.variant).title
    except KeyError:
        return None


def captured_json(live: LiveGame) -> dict[str, int]:
    """How many dice each player has lost so far (taken off the board by the other's moves),
    counted over the game's positions."""
    return dict(_lost_by(live.state, live.players))


def _lost_by(state: State, players: tuple[str, str]) -> dict[str, int]:
    lost = dict.fromkeys(players, 0)
    path = list(state.path())
    counts = [node.dice_counts() for node in path]
    for parent, before, after in zip(path, counts, counts[1:], strict=False):
        _add_lost(lost, parent.to_move, before, after)
    return lost


def _add_lost(
    lost: dict[str, int], mover: str, before: dict[str, int], after: dict[str, int]
) -> None:
    for p in lost:
        if p != mover:
            lost[p] += max(0, before.get(p, 0) - after.get(p, 0))


class CapturedCounts:
    """:func:`captured_json` kept per state, so that a new position counts its own dice
    only, not every position of the game again (a state's parent is the game's previous
    state, whose counts are held here)."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        #: id(state) -> (the state, kept so that its id is not reused; its dice; the losses)
        self._held: OrderedDict[int, tuple[State, dict[str, int], dict[str, int]]] = OrderedDict()

    def of(self, live: LiveGame) -> dict[str, int]:
        """The dice each player of ``live`` has lost so far."""
        state = live.state
        held = self._held.get(id(state))
        if held is not None and held[0] is state:
            self._held.move_to_end(id(state))
            return dict(held[2])
        counts = state.dice_counts()
        parent = state.parent
        above = self._held.get(id(parent)) if parent is not None else None
        if parent is not None and above is not None and above[0] is parent:
            lost = dict(above[2])
            _add_lost(lost, parent.to_move, above[1], counts)
        else:
            lost = _lost_by(state, live.players)
        self._held[id(state)] = (state, counts, lost)
        while len(self._held) > self._size:
            self._held.popitem(last=False)
        return dict(lost)


def sides_json(
    state: State, board: dict[str, tuple[str, int | None]] | None = None
) -> dict[str, dict[str, int | None]]:
    """What each side has (:func:`~diceboard.rendering.summary.side_material`): ``dice`` on the
    board, ``pips`` (their faces' total, where the game shows it, as Chase does; else ``None``)
    and ``spare`` (dice off the board, where the game counts them, as Chase does; else ``None``)."""
    return {
        player: {"dice": side.dice, "pips": side.pips, "spare": side.spares}
        for player, side in side_material(state, board).items()
    }


def board_picture(live: LiveGame, flipped: bool, index: int | None = None) -> str:
    """The server's SVG of the current position (or of the position after ``index`` moves)."""
    state = live.state if index is None else list(live.state.path())[index]
    return svg.render(state, size=BOARD_SIZE, flipped=flipped, interactive=True)


def public_view(
    live: LiveGame, flipped: bool, connected: set[str], pictures: bool = True
) -> dict[str, Any]:
    """The snapshot every viewer of ``live`` gets; ``pictures=False`` leaves out the board
    picture, its geometry and what only a board's move chooser shows (the legal and last
    moves' ``segments``, the legal moves' ``captures`` and ``rolled_after``: see
    :func:`~diceboard.server.move_json.legal_moves_json`), for programs, which need only
    the data."""
    legal = legal_moves_json(live.state, full=pictures) if live.in_play() else []
    now = time.time()
    return {
        **game_view(live),
        **_shared_view(live, pictures, captured_json(live), now),
        **_oriented_view(live, flipped, pictures, now),
        "moves": [moves_item(m) for m in live.moves],
        "legal": legal,
        **seats_view(live, connected),
    }


def seats_view(live: LiveGame, connected: set[str]) -> dict[str, Any]:
    """The part of the snapshot that changes when a player connects or leaves: the seats."""
    return {
        "seats": {
            s: seat_info(live.seats[s], s in connected) for s in live.players if s in live.seats
        }
    }


def game_view(live: LiveGame) -> dict[str, Any]:
    """The part of the snapshot that never changes in a game: what it is and who plays it."""
    rules = live.rules
    return {
        "id": live.data.id,
        "game": rules.name,
        "title": rules.title,
        "variant": rules.variant,
        "variant_title": _variant_title(rules),
        "default_variant": games.info(rules.name).default_variant,
        "options": rules.options,
        "mode": live.data.mode,
        "players": list(live.players),
        "player_names": list(rules.player_names),
        "die_colours": [die_style(rules.name, p).fill for p in live.players],
        "start_position": live.data.start_position,
    }


def moves_item(move: MoveData) -> dict[str, Any]:
    """A played move as the snapshot's ``moves`` list shows it."""
    return {"notation": move.notation, "seat": move.seat, "clock_ms": move.clock_ms}


def _shared_view(
    live: LiveGame, pictures: bool, captured: dict[str, int], now: float
) -> dict[str, Any]:
    """What changes from revision to revision in the snapshot but for its moves, legal
    moves, seats (:func:`seats_view`) and what the board's orientation changes
    (:func:`_oriented_view`): the same for every viewer of this revision whoever is
    connected and whichever way up the board is, as read at ``now``."""
    data = live.data
    state = live.state
    last = state.last_move
    last_info = None
    if last is not None and state.parent is not None and live.moves:
        last_info = move_json(state.parent, last, segments=pictures)
        last_info["seat"] = live.moves[-1].seat
        last_info["roll"] = rolled_face(last)
    outcome = live.outcome()
    clock = clocks.reading(data, live.players, now)
    board = state.board()
    return {
        "status": data.status,
        "version": data.version,
        "revision": data.revision,
        "position": str(state),
        "to_move": live.side_to_move(),
        "hand": hand_json(state),
        "captured": captured,
        "sides": sides_json(state, board),
        "board": {sq: [owner, face] for sq, (owner, face) in board.items()},
        "last": last_info,
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason, "result": outcome.result},
        "clock": None
        if clock is None
        else {
            **(_time_control(data) or {}),
            "remaining": clock.remaining,
            "running": clock.running,
        },
        "offers": {
            "draw": data.draw_offer,
            "takeback": data.takeback_offer,
            "rematch": data.rematch_offer,
        },
        "rematch_game": data.rematch_game,
        "rematch_of": data.rematch_of,
        "seed": data.seed if data.status == "finished" else None,
        "tags": data.tags,
    }


def _oriented_view(live: LiveGame, flipped: bool, pictures: bool, now: float) -> dict[str, Any]:
    """The members of the snapshot that follow :func:`_shared_view`'s and depend on the
    board's orientation: ``flipped``, the time the snapshot was made at and, with
    ``pictures``, the board's picture and its geometry."""
    view: dict[str, Any] = {"flipped": flipped, "server_time": now}
    if pictures:
        view["svg"] = board_picture(live, flipped)
        view.update(centres(live.rules, flipped))
    return view


class _GameText:
    """The JSON members of a game's snapshot that change slowly, as text: what never changes
    in the game (:func:`game_view`), and its moves, to which each new move's text is added
    (a snapshot does not serialise the whole game's moves again)."""

    __slots__ = ("fixed", "moves", "played", "rules")

    def __init__(self, live: LiveGame) -> None:
        #: what the fixed part was made from (a game read again has new rules)
        self.rules = live.rules
        self.fixed = jsontext.dumps(game_view(live))[1:-1]
        self.played: tuple[MoveData, ...] = ()
        self.moves: list[str] = []

    def moves_text(self, moves: tuple[MoveData, ...], start: int = 0) -> str:
        """The ``moves`` list (from index ``start`` on) as JSON text."""
        known = self.played
        if known is not moves:
            common = moves_in_common(known, moves)
            del self.moves[common:]
            self.moves.extend(jsontext.dumps(moves_item(m)) for m in moves[common:])
            self.played = moves
        return "[" + ",".join(self.moves[start:] if start else self.moves) + "]"


def moves_in_common(known: tuple[MoveData, ...], moves: tuple[MoveData, ...]) -> int:
    """How many of a game's ``moves`` begin as ``known`` (an earlier move list of the same
    game) does: all of ``known`` after new moves, fewer after a takeback.

    A game's move list only grows by a move made for it or is cut back (a takeback): so where
    both lists hold the same object at one place, everything before it is the same too, and
    the first such place from the end says it (without comparing every move of a long game,
    twice per viewer and move). A list read again from the database (another server process
    changed the game) holds new objects: its moves are compared by value, from the start."""
    shorter = min(len(known), len(moves))
    common = shorter
    while common and known[common - 1] is not moves[common - 1]:
        common -= 1
    if common == 0:
        while common < shorter and known[common] == moves[common]:
            common += 1
    return common


class _Revision:
    """The texts of one revision of a game's public snapshot in one orientation and form:
    its members but for the moves, the legal moves and the seats (``head``, an object left
    open), and its legal moves; the whole shared text (all the moves and the legal moves, the
    seats not yet) is made when first asked for."""

    __slots__ = ("head", "legal", "whole")

    def __init__(self, head: str, legal: str) -> None:
        self.head = head
        self.legal = legal
        self.whole: str | None = None


class _Shared(NamedTuple):
    """The texts of one revision that both orientations share: the game's and the
    revision's members (``head``, an object left open), the legal moves, and the time they
    were read at."""

    head: str
    legal: str
    now: float


class ViewCache:
    """Public snapshots as JSON text. The costly part (history, board) is built and
    serialised once per (game, revision, pictures), the board's picture once per
    orientation too, and the legal moves
    once per position and form (:class:`~diceboard.server.legal_json.LegalMovesText`, shared
    by every game that reaches the position); the seats, which change when a player
    connects or leaves, are serialised on their own, and the parts are joined as text, so
    that a connection does not rebuild the snapshot."""

    def __init__(self, size: int = 2048) -> None:
        self._size = size
        self._revisions: OrderedDict[tuple[str, int, bool, bool], _Revision] = OrderedDict()
        self._shared_parts: OrderedDict[tuple[str, int, bool], _Shared] = OrderedDict()
        self._whole: OrderedDict[tuple[str, int, bool, bool, frozenset[str]], str] = OrderedDict()
        self._games: OrderedDict[str, _GameText] = OrderedDict()
        self._captured = CapturedCounts(2 * size)
        #: the legal moves of the positions met, as text
        self.legal = LegalMovesText(2 * size)

    def public_json(
        self, live: LiveGame, flipped: bool, connected: set[str], pictures: bool = True
    ) -> str:
        """The public snapshot of ``live`` as JSON."""
        key = (live.id, live.data.revision, flipped, pictures)
        whole_key = (*key, frozenset(connected))
        text = _lookup(self._whole, whole_key)
        if text is not None:
            return text
        revision = self._revision(live, key)
        if revision.whole is None:
            moves = self._game_text(live).moves_text(live.moves)
            revision.whole = revision.head + ',"moves":' + moves + ',"legal":' + revision.legal
        # both are JSON objects: the seats' members go after the shared ones
        text = revision.whole + "," + jsontext.dumps(seats_view(live, connected))[1:]
        _store(self._whole, whole_key, text, self._size)
        return text

    def changes_json(
        self,
        live: LiveGame,
        flipped: bool,
        connected: set[str],
        pictures: bool,
        moves_from: int,
        legal: bool,
    ) -> str:
        """The snapshot of ``live`` for a viewer that already has its first ``moves_from``
        moves (the ``delta`` form of the WebSocket): ``moves_from`` and only the moves after
        those, and the legal moves only where ``legal`` (``[]`` otherwise)."""
        key = (live.id, live.data.revision, flipped, pictures)
        revision = self._revision(live, key)
        moves = self._game_text(live).moves_text(live.moves, moves_from)
        return (
            revision.head
            + ',"moves_from":'
            + str(moves_from)
            + ',"moves":'
            + moves
            + ',"legal":'
            + (revision.legal if legal else "[]")
            + ","
            + jsontext.dumps(seats_view(live, connected))[1:]
        )

    def _revision(self, live: LiveGame, key: tuple[str, int, bool, bool]) -> _Revision:
        revision = _lookup(self._revisions, key)
        if revision is None:
            game_id, number, flipped, pictures = key
            shared = self._shared(live, (game_id, number, pictures))
            oriented = jsontext.dumps(_oriented_view(live, flipped, pictures, shared.now))
            # JSON objects' members joined as text: the game's and the revision's, then
            # this orientation's
            revision = _Revision(shared.head + "," + oriented[1:-1], shared.legal)
            _store(self._revisions, key, revision, self._size)
        return revision

    def _shared(self, live: LiveGame, key: tuple[str, int, bool]) -> _Shared:
        """What both orientations of a revision share, built once (the two players of a
        game see the board from opposite sides: without pictures, their snapshots differ in
        ``flipped`` alone)."""
        shared = _lookup(self._shared_parts, key)
        if shared is None:
            game = self._game_text(live)
            pictures = key[2]
            now = time.time()
            view = jsontext.dumps(_shared_view(live, pictures, self._captured.of(live), now))
            legal = self.legal.text(live.state, full=pictures) if live.in_play() else "[]"
            shared = _Shared("{" + game.fixed + "," + view[1:-1], legal, now)
            _store(self._shared_parts, key, shared, self._size)
        return shared

    def _game_text(self, live: LiveGame) -> _GameText:
        game = _lookup(self._games, live.id)
        if game is None or game.rules is not live.rules:
            game = _GameText(live)
            _store(self._games, live.id, game, self._size)
        return game

    def message(
        self,
        live: LiveGame,
        flipped: bool,
        connected: set[str],
        you: list[str],
        invite: str | None,
        pictures: bool = True,
        moves_from: int | None = None,
        ack: dict[str, Any] | None = None,
    ) -> str:
        """The ``state`` message for one viewer: the public snapshot and the viewer's seats;
        with ``moves_from``, the snapshot of changes (:meth:`changes_json`) for a viewer that
        has that many moves, with the legal moves only if it holds the seat to move; with
        ``ack``, the acknowledgement of the viewer's move that the snapshot holds."""
        members: dict[str, Any] = {"you": you, "invite": invite, "now": time.time()}
        if ack is not None:
            members["ack"] = ack
        personal = jsontext.dumps(members)
        if moves_from is None:
            game = self.public_json(live, flipped, connected, pictures)
        else:
            mover = live.side_to_move()
            game = self.changes_json(
                live, flipped, connected, pictures, moves_from, mover is not None and mover in you
            )
        return '{"type":"state",' + personal[1:-1] + ',"game":' + game + "}"


K = TypeVar("K")
V = TypeVar("V")


def _lookup(cache: OrderedDict[K, V], key: K) -> V | None:
    text = cache.get(key)
    if text is not None:
        cache.move_to_end(key)
    return text


def _store(cache: OrderedDict[K, V], key: K, text: V, size: int) -> None:
    cache[key] = text
    while len(cache) > size:
        cache.popitem(last=False)


def warm_up_views(game: str, plies: int = 4) -> None:
    """Build what the snapshots of ``game``'s first ``plies`` positions show, pictures
    included, so that the kernels they call beside play's (dice counts, a move's trace) are
    compiled, or loaded from numba's cache, now rather than in a request."""
    rules = games.game(game)
    state = rules.start(seed=0)
    centres(rules, False)
    for _ in range(plies):
        legal_moves_json(state, full=True)
        state.dice_counts()
        sides_json(state)
        hand_json(state)
        svg.render(state, size=BOARD_SIZE, flipped=False, interactive=True)
        moves = state.legal_moves()
        if not moves:
            break
        move_json(state, moves[0], segments=True)
        state = state.play(moves[0])
