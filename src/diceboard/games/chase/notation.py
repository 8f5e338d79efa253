"""Chase turn notation (spec: "Notation"): action ids to text, and text to legal turns.

Canonical forms: a move ``d6-d3SW`` (``x`` instead of ``-`` when the landing hex holds an
enemy die), a transfer ``a1=2,a2=1`` (hexes in board order), both after an absorption prefix
``{a1,b6}`` when the player has pips to absorb. Input may leave out the direction where one
legal turn fits, list the hexes of a transfer in either order, give an absorption prefix in
another order that raises the dice to the same faces, use lower-case directions, and name a
move from row a as SE/SW (the same moves as NE/NW; likewise NE/NW from row i).

Each distinct turn without a prefix is one shared :class:`Move` object (interned by the
kernel's notation key), so listing the legal moves builds no new objects.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import numpy as np

from diceboard.core.errors import IllegalMoveError, NotationError
from diceboard.core.move import Move, MoveKind
from diceboard.games.chase import kernel
from diceboard.games.chase.kernel.describe import KEY_ABSORB, KEY_MOVE, KEY_TRANSFER
from diceboard.games.chase.kernel.geometry import (
    CHAMBER,
    DIR_NAMES,
    HEX_NAMES,
    NDIR,
    NE,
    NROWS,
    NW,
    PAIR_DIRS,
    PAIR_PARTNER,
    PATH,
    SE,
    STARTS,
    SW,
)
from diceboard.games.chase.kernel.layout import (
    ABSORB,
    BOARD,
    FULL_TOTAL,
    MOVE,
    NUM_ACTIONS,
    PHASE_ABSORB,
    TOTAL,
    TRANSFER,
)
from diceboard.games.chase.kernel.movement import (
    MOVE_BLOCKED,
    MOVE_CAPTURE,
    MOVE_INTO_CHAMBER,
    MOVE_THROUGH_CHAMBER,
)
from diceboard.games.chase.kernel.transfer import (
    TRANSFER_BAD_FACE,
    TRANSFER_BAD_TOTAL,
    TRANSFER_FIRST_NOT_OWN,
    TRANSFER_NOT_ADJACENT,
    TRANSFER_SECOND_NOT_OWN,
    TRANSFER_UNCHANGED,
)
from diceboard.games.chase.position import PLAYER_NAMES
from diceboard.kernel import PHASE, TO_MOVE

if TYPE_CHECKING:
    from diceboard.core.game import State

_HEX_INDEX = {name: i for i, name in enumerate(HEX_NAMES)}
_DIRECTIONS = {name.lower(): d for d, name in enumerate(DIR_NAMES)}
_PREFIX = re.compile(r"^\{([^{}]*)\}(.*)$")
_MOVE = re.compile(r"^([a-z][0-9]+)([-x])([a-z][0-9]+)([a-z]*)$")
_TRANSFER = re.compile(r"^([a-z][0-9]+)=([0-9]+),([a-z][0-9]+)=([0-9]+)$")
_FORMS = (
    "write a move as d6-d3SW (d6xd3SW onto an enemy die), a transfer as a1=2,a2=1, "
    "after a prefix like {a1,b6} when absorbing"
)


# --- action ids and keys to text --------------------------------------------------------------
def _transfer_text(anchor: int, anchor_face: str, partner: int, partner_face: str) -> str:
    first, second = sorted([(anchor, anchor_face), (partner, partner_face)])
    return f"{HEX_NAMES[first[0]]}={first[1]},{HEX_NAMES[second[0]]}={second[1]}"


def _stateless_text(action: int) -> str:
    if action >= ABSORB:
        return "{" + HEX_NAMES[action - ABSORB] + "}"
    if action >= TRANSFER:
        pair, face = divmod(action - TRANSFER, 6)
        anchor, partner = pair // len(PAIR_DIRS), int(PAIR_PARTNER[pair])
        if partner < 0:
            return f"{HEX_NAMES[anchor]}={face + 1},{DIR_NAMES[PAIR_DIRS[pair % 3]]}(off the board)"
        return _transfer_text(anchor, str(face + 1), partner, "?")
    frm, d = divmod(action - MOVE, NDIR)
    return HEX_NAMES[frm] + DIR_NAMES[d]


#: the notation of each action id without a state: ``d6SW`` (a move: hex and direction),
#: ``a1=3,a2=?`` (a transfer: the anchor's new face), ``{a1}`` (an absorb step)
STATELESS_TEXT: tuple[str, ...] = tuple(_stateless_text(a) for a in range(NUM_ACTIONS))


@lru_cache(maxsize=4096)
def absorb_move(seq: tuple[int, ...]) -> Move:
    """The absorption prefix ``{a1,b6}`` of the hex sequence ``seq`` as a move (one shared
    Move per sequence: a position that must absorb lists its prefixes again and again, and
    few sequences come up; the cache is bounded, so it keeps few Moves alive for the garbage
    collector to visit)."""
    hexes = tuple(HEX_NAMES[h] for h in seq)
    return Move(prefix_text(seq), tuple(ABSORB + h for h in seq), MoveKind.ABSORB, absorbed=hexes)


def _key_move(key: int) -> Move | None:
    if key >= KEY_ABSORB:
        return absorb_move((key - KEY_ABSORB,))
    if key >= KEY_TRANSFER:
        rel, other = divmod(key - KEY_TRANSFER, 6)
        pair, face = divmod(rel, 6)
        partner = int(PAIR_PARTNER[pair])
        if partner < 0:
            return None
        anchor = pair // len(PAIR_DIRS)
        text = _transfer_text(anchor, str(face + 1), partner, str(other + 1))
        (first, f1), (second, f2) = sorted([(anchor, face + 1), (partner, other + 1)])
        exchange = ((HEX_NAMES[first], f1), (HEX_NAMES[second], f2))
        return Move(
            text,
            (TRANSFER + rel,),
            MoveKind.TRANSFER,
            HEX_NAMES[first],
            HEX_NAMES[second],
            exchange=exchange,
        )
    rel, capture = divmod(key - KEY_MOVE, 2)
    action, face_index = divmod(rel, 6)
    frm, d = divmod(action - MOVE, NDIR)
    land = int(PATH[frm, d, face_index])
    if not STARTS[frm, d] or (capture and land == CHAMBER):
        return None
    sep = "x" if capture else "-"
    return Move(
        f"{HEX_NAMES[frm]}{sep}{HEX_NAMES[land]}{DIR_NAMES[d]}",
        (action,),
        MoveKind.MOVE,
        HEX_NAMES[frm],
        HEX_NAMES[land],
        capture=bool(capture),
        direction=DIR_NAMES[d],
    )


@cache
def interned() -> tuple[Move | None, ...]:
    """One shared Move per notation key (``None`` for keys no legal turn has)."""
    return tuple(_key_move(k) for k in range(kernel.NUM_KEYS))


def _interned_array() -> np.ndarray:
    """:func:`interned` as a numpy object array: numpy gathers the Moves of an array of keys
    at once, with no Python int per key. Made at the first call and kept in ``_TABLE``
    (read there directly by :func:`moves_of_keys`, once per state)."""
    if not _TABLE:
        table = np.empty(kernel.NUM_KEYS, dtype=object)
        table[:] = interned()
        _TABLE.append(table)
    return _TABLE[0]


_TABLE: list[np.ndarray] = []


def action_text(arr: np.ndarray, action: int) -> str:
    """The exact notation of ``action`` in the state ``arr``, or its state-free form when
    the dice it names are not there."""
    key = int(kernel.notation_key(arr, action))
    move = interned()[key] if key >= 0 else None
    return STATELESS_TEXT[action] if move is None else move.notation


def moves_of(arr: np.ndarray, action_ids: np.ndarray) -> list[Move]:
    """The shared Move of each action id (legal in ``arr``)."""
    keys = np.empty(len(action_ids), dtype=np.int64)
    kernel.notation_keys(arr, action_ids, keys)
    return moves_of_keys(keys)


def moves_of_keys(keys: np.ndarray) -> list[Move]:
    """The shared Move of each notation key (each the key of a legal action)."""
    # every key of a legal action names a turn, so no entry here is None
    table = _TABLE[0] if _TABLE else _interned_array()
    moves: list[Move] = table[keys].tolist()
    return moves


# --- turns with an absorption prefix ---------------------------------------------------------
def _legal(arr: np.ndarray, opts: np.ndarray) -> np.ndarray:
    buf = np.empty(kernel.MAX_LEGAL, dtype=np.int64)
    return buf[: kernel.legal_actions(arr, opts, buf)]


def _after(arr: np.ndarray, opts: np.ndarray, action: int) -> np.ndarray:
    """A copy of ``arr`` after one absorb action (absorbing touches no history)."""
    child = arr.copy()
    kernel.step(child, opts, action, np.zeros(1, dtype=np.int64), 1)
    return child


def absorptions(arr: np.ndarray, opts: np.ndarray) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Every distinct way to complete the absorption of ``arr``: the canonical hex sequence
    (the smallest, hex by hex, of those that give the same faces) and the state after it,
    in the order of those sequences (the kernel's :func:`~.kernel.turns.absorption_turns`)."""
    prefixes, lengths, _, _ = kernel.absorption_turns(arr, opts)
    found = []
    for row, length in zip(prefixes.tolist(), lengths.tolist(), strict=True):
        seq = tuple(row[:length])
        after = arr.copy()
        for hex_index in seq:
            after = _after(after, opts, ABSORB + hex_index)
        found.append((seq, after))
    return found


def prefix_text(seq: tuple[int, ...]) -> str:
    """``{a1,b6}``."""
    return "{" + ",".join(HEX_NAMES[h] for h in seq) + "}"


def turns_with_prefix(arr: np.ndarray, opts: np.ndarray) -> list[Move]:
    """The legal turns of a position whose player to move must absorb first, sorted."""
    prefixes, lengths, starts, keys = kernel.absorption_turns(arr, opts)
    acts = moves_of_keys(keys)
    bounds = starts.tolist()
    heads = [
        absorb_move(tuple(row[:length]))
        for row, length in zip(prefixes.tolist(), lengths.tolist(), strict=True)
    ]
    # each prefix's acts come in notation order, and no prefix text begins another ("{a1}"
    # and "{a1,b6}" differ at their fourth character), so sorting the prefixes by their text
    # sorts the turns
    turns: list[Move] = []
    for i in sorted(range(len(heads)), key=lambda i: heads[i].notation):
        turns += heads[i].joined_each(acts[bounds[i] : bounds[i + 1]])
    return turns


# --- text to turns ----------------------------------------------------------------------------
def _hex(name: str, text: str) -> int:
    index = _HEX_INDEX.get(name)
    if index is None:
        raise NotationError(f"{name!r} in {text!r} is not a hex: hexes are a1 … i9 (row, column)")
    return index


def _colour(arr: np.ndarray) -> str:
    return PLAYER_NAMES[int(arr[TO_MOVE])]


def _die(arr: np.ndarray, hex_index: int) -> str:
    v = int(arr[BOARD + hex_index])
    return f"the {PLAYER_NAMES[0 if v > 0 else 1]} die on {HEX_NAMES[hex_index]}"


def _own_face(arr: np.ndarray, hex_index: int) -> int:
    """The face of the die of the player to move on ``hex_index`` (<= 0: none there)."""
    return int(arr[BOARD + hex_index]) * (1 - 2 * int(arr[TO_MOVE]))


def _check_own(arr: np.ndarray, hex_index: int) -> int:
    face = _own_face(arr, hex_index)
    if face > 0:
        return face
    colour = _colour(arr)
    if hex_index == CHAMBER:
        raise IllegalMoveError("e5 is the chamber: no die stands there")
    if face == 0:
        raise IllegalMoveError(f"{HEX_NAMES[hex_index]} holds no {colour} die (it is empty)")
    raise IllegalMoveError(
        f"{HEX_NAMES[hex_index]} holds no {colour} die: {_die(arr, hex_index)}; {colour} is to move"
    )


def parse_turn(state: State, text: str) -> Move:
    """The legal turn (or, for a bare prefix, the absorb decisions) that ``text`` names."""
    arr = state.kernel_state()
    opts = state.game.opts
    norm = text.strip()
    m = _PREFIX.match(norm)
    prefix, body = (m.group(1), m.group(2).strip()) if m else (None, norm)
    body = body.lower()
    if prefix is None:
        if not body:
            raise NotationError(f"empty move text: {_FORMS}")
        if arr[PHASE] == PHASE_ABSORB:
            _check_body_syntax(body, text)
            missing = FULL_TOTAL - int(arr[TOTAL + arr[TO_MOVE]])
            example = state.legal_moves()[0]
            raise IllegalMoveError(
                f"{_colour(arr)} must absorb {missing} first: name the dice that take the "
                f"pips in a prefix, like {example}"
            )
        return _parse_act(arr, opts, body, text)
    seq = _read_prefix(prefix, text)
    after = _play_prefix(arr, opts, seq)
    if after[PHASE] == PHASE_ABSORB:
        if body:
            missing = FULL_TOTAL - int(after[TOTAL + after[TO_MOVE]])
            raise IllegalMoveError(
                f"the prefix {prefix_text(seq)} leaves {missing} pips to absorb before "
                f"{_colour(arr)} can act"
            )
        return absorb_move(seq)
    for canonical, done in absorptions(arr, opts):
        if np.array_equal(done, after):
            seq = canonical
            break
    head = absorb_move(seq)
    if not body:
        return head
    act = _parse_act(after, opts, body, text)
    return head.joined(act)


def _check_body_syntax(body: str, text: str) -> None:
    if not _MOVE.match(body) and not _TRANSFER.match(body):
        raise NotationError(f"{text!r} is not Chase notation: {_FORMS}")


def _read_prefix(prefix: str, text: str) -> tuple[int, ...]:
    names = [p.strip().lower() for p in prefix.split(",")]
    if not names or any(not n for n in names):
        raise NotationError(f"the prefix in {text!r} must list hexes like {{a1,b6}}")
    return tuple(_hex(n, text) for n in names)


def _play_prefix(arr: np.ndarray, opts: np.ndarray, seq: tuple[int, ...]) -> np.ndarray:
    """The state after the absorb steps ``seq``, each checked against the legal ones."""
    cur = arr
    colour = _colour(arr)
    for i, hex_index in enumerate(seq):
        if cur[PHASE] != PHASE_ABSORB:
            if i == 0:
                raise IllegalMoveError(
                    f"{colour} has nothing to absorb (its dice total {FULL_TOTAL}): "
                    f"drop the prefix {prefix_text(seq)}"
                )
            raise IllegalMoveError(
                f"{colour} has absorbed every pip after {prefix_text(seq[:i])}: "
                f"{HEX_NAMES[hex_index]} is one hex too many"
            )
        legal = _legal(cur, opts).tolist()
        if ABSORB + hex_index not in legal:
            _check_own(cur, hex_index)
            faces = [_own_face(cur, h) for h in range(len(HEX_NAMES))]
            low = min(f for f in faces if f > 0)
            face = faces[hex_index]
            if face != low:
                lows = ", ".join(HEX_NAMES[h] for h, f in enumerate(faces) if f == low)
                raise IllegalMoveError(
                    f"{HEX_NAMES[hex_index]} shows {face}, but {colour}'s lowest dice show "
                    f"{low} ({lows}): the lowest die takes the pips first"
                )
            raise IllegalMoveError(
                f"raising {HEX_NAMES[hex_index]} would leave {colour} without any legal move "
                "or transfer"
            )
        cur = _after(cur, opts, ABSORB + hex_index)
    return cur


def _parse_act(arr: np.ndarray, opts: np.ndarray, body: str, text: str) -> Move:
    """The legal move or transfer (no prefix) that ``body`` names in ``arr``."""
    acts = moves_of(arr, _legal(arr, opts))
    mm = _MOVE.match(body)
    if mm is not None:
        return _parse_move(arr, acts, mm, text)
    tm = _TRANSFER.match(body)
    if tm is not None:
        return _parse_transfer(arr, acts, tm, text)
    raise NotationError(f"{text!r} is not Chase notation: {_FORMS}")


def _parse_move(arr: np.ndarray, acts: list[Move], mm: re.Match[str], text: str) -> Move:
    frm_name, sep, to_name, dir_name = mm.groups()
    frm, to = _hex(frm_name, text), _hex(to_name, text)
    d = None
    if dir_name:
        if dir_name not in _DIRECTIONS:
            raise NotationError(
                f"{dir_name.upper()!r} in {text!r} is not a direction: E, NE, NW, W, SW or SE"
            )
        d = _same_move_direction(frm, _DIRECTIONS[dir_name])
    face = _check_own(arr, frm)
    head = frm_name + sep + to_name
    if d is not None:
        wanted = head + DIR_NAMES[d]
        for move in acts:
            if move.notation == wanted:
                return move
        raise _explain_move(arr, frm, d, to, sep, face)
    fits = [m for m in acts if m.notation[:5] == head]
    if len(fits) == 1:
        return fits[0]
    if len(fits) > 1:
        raise NotationError(
            f"{head} is ambiguous: {' and '.join(m.notation for m in fits)} both fit; "
            "add the direction"
        )
    other = frm_name + ("x" if sep == "-" else "-") + to_name
    for move in acts:
        if move.notation[:5] == other:
            raise _wrong_separator(arr, move, to)
    reasons = [
        str(_explain_move(arr, frm, d, to, sep, face))
        for d in range(NDIR)
        if STARTS[frm, d] and int(PATH[frm, d, face - 1]) == to
    ]
    if reasons:
        raise IllegalMoveError("; ".join(reasons))
    reach = ", ".join(
        f"{HEX_NAMES[int(PATH[frm, d, face - 1])]} ({DIR_NAMES[d]})"
        for d in range(NDIR)
        if STARTS[frm, d]
    )
    raise IllegalMoveError(
        f"the die on {frm_name} shows {face}: no direction takes it to {to_name} "
        f"(it would stop on {reach})"
    )


def _same_move_direction(frm: int, d: int) -> int:
    """From row a, SE/SW are the moves NE/NW; from row i, NE/NW are SE/SW."""
    row = frm // 9
    if row == 0 and d in (SE, SW):
        return NDIR - d
    if row == NROWS - 1 and d in (NE, NW):
        return NDIR - d
    return d


def _wrong_separator(arr: np.ndarray, legal: Move, to: int) -> IllegalMoveError:
    if legal.notation[2] == "x":
        return IllegalMoveError(f"{HEX_NAMES[to]} holds an enemy die: a capture is written {legal}")
    return IllegalMoveError(
        f"{HEX_NAMES[to]} holds no enemy die: write {legal} (x only for a move onto an enemy die)"
    )


def _explain_move(
    arr: np.ndarray, frm: int, d: int, to: int, sep: str, face: int
) -> IllegalMoveError:
    """Why the die on ``frm`` cannot make the move ``frm sep to`` in direction ``d``."""
    status, where = (int(x) for x in kernel.move_status(arr, frm, d))
    going = f"the die on {HEX_NAMES[frm]} shows {face}: going {DIR_NAMES[d]}"
    if status == MOVE_BLOCKED:
        return IllegalMoveError(f"{going} its path is blocked by {_die(arr, where)}")
    if status == MOVE_THROUGH_CHAMBER:
        return IllegalMoveError(f"{going} its path would cross the chamber e5")
    if status == MOVE_INTO_CHAMBER:
        return IllegalMoveError(
            f"e5 is the chamber: a bump chain from {HEX_NAMES[frm]} going {DIR_NAMES[d]} "
            f"would push the die on {HEX_NAMES[where]} into it"
        )
    if where != to:
        return IllegalMoveError(f"{going} it stops on {HEX_NAMES[where]}, not {HEX_NAMES[to]}")
    sep_ok = "x" if status == MOVE_CAPTURE else "-"
    legal = Move(f"{HEX_NAMES[frm]}{sep_ok}{HEX_NAMES[to]}{DIR_NAMES[d]}", ())
    return _wrong_separator(arr, legal, to)


def _parse_transfer(arr: np.ndarray, acts: list[Move], tm: re.Match[str], text: str) -> Move:
    h1, f1, h2, f2 = tm.groups()
    first, second = _hex(h1, text), _hex(h2, text)
    for face in (f1, f2):
        if len(face) > 2:  # refused here: the kernel takes 64-bit faces
            raise IllegalMoveError(f"faces are 1 to 6, not {face[:30]}")
    f_first, f_second = int(f1), int(f2)
    if first == second:
        raise IllegalMoveError(f"a transfer names two different hexes, not {h1} twice")
    if first > second:
        first, second, f_first, f_second = second, first, f_second, f_first
    wanted = f"{HEX_NAMES[first]}={f_first},{HEX_NAMES[second]}={f_second}"
    for move in acts:
        if move.notation == wanted:
            return move
    status = int(kernel.transfer_status(arr, first, second, f_first, f_second))
    a, b = _own_face(arr, first), _own_face(arr, second)
    n1, n2 = HEX_NAMES[first], HEX_NAMES[second]
    if status == TRANSFER_NOT_ADJACENT:
        raise IllegalMoveError(f"{n1} and {n2} are not adjacent")
    if status == TRANSFER_FIRST_NOT_OWN:
        _check_own(arr, first)
    if status == TRANSFER_SECOND_NOT_OWN:
        _check_own(arr, second)
    if status == TRANSFER_BAD_FACE:
        bad = f_first if not 1 <= f_first <= 6 else f_second
        raise IllegalMoveError(f"faces are 1 to 6, not {bad}")
    if status == TRANSFER_BAD_TOTAL:
        raise IllegalMoveError(
            f"faces must total {a + b} (the dice on {n1} and {n2} show {a} and {b}), "
            f"not {f_first + f_second}"
        )
    if status == TRANSFER_UNCHANGED:
        raise IllegalMoveError(
            f"a transfer must change the faces: {n1} already shows {a} and {n2} shows {b}"
        )
    raise IllegalMoveError(f"{text} is not a legal transfer here")  # pragma: no cover
