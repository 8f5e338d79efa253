"""The hot kernel functions keep no reference counting in their compiled code (no NRT_incref
or NRT_decref): they are compiled without numba's runtime
(:func:`~diceboard.kernel.jit.njit_borrowing`); and a function compiled to be inlined
(:func:`~diceboard.kernel.jit.njit_inlined`) is no call in its caller's code. Compiled afresh
in a subprocess (numba cannot show the code of a function it loaded from its cache); the copies that
compiled callers call are inspected (:func:`~diceboard.kernel.jit.for_callers`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from diceboard.kernel.jit import jit_disabled

pytestmark = pytest.mark.skipif(jit_disabled(), reason="inspects compiled code")

SCRIPT = r"""
import json, re
import numpy as np
import diceboard
from diceboard.games.chase.kernel.movement import landing_status
from diceboard.games.custodian.kernel import legal_actions
from diceboard.games.custodian.kernel.endings import check_move_end
from diceboard.games.custodian.kernel.captures import resolve_captures

from diceboard.kernel.jit import compile_for_callers, for_callers

# compiled as their compiled callers call them: their copies for callers
custodian = diceboard.game("custodian")
state = custodian.initial_state().kernel_state().copy()
compile_for_callers(legal_actions, (state, custodian.opts, np.empty(640, dtype=np.int64)))
compile_for_callers(resolve_captures, (state, 0, False))
compile_for_callers(check_move_end, (state, np.zeros(4, dtype=np.int64), 0, False, False, 0))
chase = diceboard.game("chase").initial_state().kernel_state().copy()
compile_for_callers(landing_status, (chase, 0, 0, 1, 0))
from diceboard.games.chase.kernel import legal_actions as chase_legal_actions, step as chase_step
from diceboard.games.chase.kernel.movegen import act_actions, has_legal_turn
chase_opts = diceboard.game("chase").opts
compile_for_callers(chase_legal_actions, (chase, chase_opts, np.empty(256, dtype=np.int64)))
compile_for_callers(chase_step, (chase, chase_opts, 0, np.zeros(8, dtype=np.int64), 0))
compile_for_callers(has_legal_turn, (chase,))

def body_of(dispatcher, name):
    ir = next(iter(for_callers(dispatcher).inspect_llvm().values()))
    body, inside = [], False
    for line in ir.splitlines():
        if line.startswith("define"):
            inside = name in line and "cpython" not in line and "cfunc" not in line
        elif inside:
            body.append(line)
    return body

def refcounts(dispatcher, name):
    body = body_of(dispatcher, name)
    return sum(("@NRT_incref" in l) or ("@NRT_decref" in l) for l in body), len(body)

def calls(callee):
    # a call names its compiled callee (numba mangles names as _ZN...); an inlined body's
    # values keep the callee's name too, but as local names (%transfers_led_by_...)
    pattern = re.compile(r"call .*@_ZN\S*" + callee)
    return sum(bool(pattern.search(l)) for l in body_of(act_actions, "act_actions"))

print(json.dumps({
    "calls of transfers_led_by in act_actions": calls("transfers_led_by"),
    "calls of landing_status in act_actions": calls("landing_status"),
} | {
    name: refcounts(f, name)
    for name, f in (
        ("legal_actions", legal_actions),
        ("resolve_captures", resolve_captures),
        ("check_move_end", check_move_end),
        ("landing_status", landing_status),
        # compiled without numba's runtime (njit_borrowing): none even with calls inside
        ("act_actions", act_actions),
        ("has_legal_turn", has_legal_turn),
        ("step", chase_step),
    )
}))
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """What :data:`SCRIPT` finds in the kernels compiled afresh."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path_factory.mktemp("numba")))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.slow
def test_hot_kernel_functions_have_no_reference_counting(compiled: dict[str, object]) -> None:
    for name, found in compiled.items():
        if not isinstance(found, list):
            continue
        operations, lines = found
        assert lines > 0, f"no compiled code found for {name}"
        assert operations == 0, f"{name} has {operations} reference-count operations"


@pytest.mark.slow
def test_an_inlined_kernel_function_is_copied_into_its_caller(compiled: dict[str, object]) -> None:
    # njit_inlined: Chase's transfers are part of move generation's own code, not a call;
    # landing_status (njit_borrowing) stays a call, which shows that the count finds calls
    assert compiled["calls of transfers_led_by in act_actions"] == 0
    assert compiled["calls of landing_status in act_actions"] == 1
