"""A fresh interpreter writes a file of records and reads it back, with the kernels compiled
and as plain Python (NUMBA_DISABLE_JIT=1): the two must write the same file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import random, sys
from pathlib import Path
import diceboard
from diceboard.records import GameRecord, read_pgn, write_pgn

records = []
for seed, opts in enumerate([{}, {"variant": "chaos", "placement": "rolled"}]):
    rng = random.Random(seed)
    state = diceboard.game("custodian", **opts).initial_state()
    for _ in range(120):
        if state.is_terminal():
            break
        ids = state.legal_action_ids()
        state = state.play(ids[rng.randrange(len(ids))])
    records.append(GameRecord.from_state(state, players=("p1", "p2"), seed=seed))
path = Path(sys.argv[1])
write_pgn(records, path)
assert read_pgn(path) == records
assert [GameRecord.from_json(r.to_json()) for r in records] == records
print(len(records), "records")
"""


def run(path: Path, jit: bool) -> str:
    env = {**os.environ}
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2 records"
    return path.read_text(encoding="utf-8")


@pytest.mark.nojit
def test_compiled_and_plain_python_write_the_same_file(tmp_path: Path) -> None:
    compiled = run(tmp_path / "jit.pgn", jit=True)
    plain = run(tmp_path / "nojit.pgn", jit=False)
    assert compiled == plain
    assert compiled.count('[Game "Custodian Dice"]') == 2
