"""Whole turns after an absorption (the kernel's ``absorption_turns``): the same turns, in
the same order, as a plain search over the absorb actions finds; joined moves read the same
structure as moves joined field by field."""

from __future__ import annotations

import random

import numpy as np

import diceboard
from diceboard.core.game import State
from diceboard.core.move import Move
from diceboard.games.chase import kernel, notation
from diceboard.games.chase.kernel.layout import ABSORB, PHASE_ABSORB
from diceboard.kernel import PHASE


def _absorbing_states(count: int) -> list[State]:
    found: list[State] = []
    game = diceboard.game("chase")
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.start()
        for _ in range(300):
            if state.is_terminal():
                break
            ids = state.legal_action_ids()
            state = state.play(ids[rng.randrange(len(ids))])
            if state.must_absorb() and not state.is_terminal():
                found.append(state)
    return found[:count]


def _reference_turns(arr: np.ndarray, opts: np.ndarray) -> list[str]:
    """Every absorb sequence by plain search; one prefix (the smallest sequence) per set of
    faces it leads to; each followed by every legal act; sorted as text."""
    best: dict[bytes, tuple[tuple[int, ...], np.ndarray]] = {}
    stack: list[tuple[tuple[int, ...], np.ndarray]] = [((), arr.copy())]
    while stack:
        seq, cur = stack.pop()
        if cur[PHASE] != PHASE_ABSORB:
            key = cur.tobytes()
            if key not in best or seq < best[key][0]:
                best[key] = (seq, cur)
            continue
        buf = np.empty(kernel.MAX_LEGAL, dtype=np.int64)
        for a in buf[: kernel.legal_actions(cur, opts, buf)].tolist():
            child = cur.copy()
            kernel.step(child, opts, a, np.zeros(1, dtype=np.int64), 1)
            stack.append(((*seq, a - ABSORB), child))
    turns: list[str] = []
    for seq, after in best.values():
        buf = np.empty(kernel.MAX_LEGAL, dtype=np.int64)
        acts = notation.moves_of(after, buf[: kernel.legal_actions(after, opts, buf)])
        turns.extend(notation.prefix_text(seq) + act.notation for act in acts)
    return sorted(turns)


def test_turns_after_an_absorption_match_a_plain_search() -> None:
    states = _absorbing_states(25)
    assert any(len({m.notation.split("}")[0] for m in s.legal_moves()}) > 1 for s in states)
    for state in states:
        moves = state.legal_moves()
        assert [m.notation for m in moves] == _reference_turns(
            state.kernel_state(), state.game.opts
        )
        assert moves == sorted(moves)
        for move in moves[:10]:
            assert state.play(move) == state.play(str(move))


def test_a_joined_move_reads_the_structure_of_its_parts() -> None:
    for state in _absorbing_states(5):
        for move in state.legal_moves():
            head_text, act_text = move.notation.split("}")
            prefix = state.parse_move(head_text + "}")
            act = state.play(prefix).parse_move(act_text)
            eager = Move(
                move.notation,
                prefix.actions + act.actions,
                act.kind,
                act.from_square,
                act.to_square,
                act.face,
                act.roll,
                act.capture,
                act.direction,
                prefix.absorbed,
                act.exchange,
            )
            fields = "kind from_square to_square face roll capture direction absorbed exchange"
            fields += " squares"
            assert move == eager
            assert all(getattr(move, f) == getattr(eager, f) for f in fields.split()), move


def test_a_turns_actions_read_first_leave_its_other_fields_to_fill_in() -> None:
    # play() reads a turn's actions alone; its other fields are still those of its parts
    state = _absorbing_states(1)[0]
    first, second = state.legal_moves(), state.legal_moves()
    for move, twin in zip(first, second, strict=True):
        actions = move.actions
        assert actions == twin.actions and move.actions is actions
        assert all(a >= ABSORB for a in actions[:-1]) and actions[-1] < ABSORB
        for f in [
            "notation",
            "kind",
            "from_square",
            "to_square",
            "face",
            "capture",
            "direction",
            "absorbed",
        ]:
            assert getattr(move, f) == getattr(twin, f), (move, f)
        assert move == twin and hash(move) == hash(twin)
    after = state.play(first[0])
    assert after.last_move is first[0] and after == state.play(str(second[0]))


def test_a_position_that_must_absorb_lists_equal_fresh_turns_each_time() -> None:
    # its whole turns are built at each call, not kept with the state (see ChaseState)
    game = diceboard.game("chase")
    rng = random.Random(43)
    found = 0
    state = game.start(seed=43)
    while found < 5:
        if state.is_terminal():
            state = game.start(seed=rng.randrange(1000))
            continue
        moves = state.legal_moves()
        if state.must_absorb():
            again = state.legal_moves()
            assert again == moves and again is not moves
            assert all(m.absorbed and str(m).startswith("{") for m in moves)
            assert [state.parse_move(str(m)) for m in moves[:10]] == moves[:10]
            found += 1
        state = state.play(moves[rng.randrange(len(moves))])
