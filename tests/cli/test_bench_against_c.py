"""``diceboard bench custodian --against-c``: the C reference built and run interleaved with
the kernel, both figures, their ratio and the load printed; unsupported options refused."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.cli.helpers import ok, usage_error

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc"),
]

QUICK = ("--seconds", "0.2", "--rounds", "2", "--skip", "nojit", "--skip", "compile")
QUICK += ("--skip", "moves")


def test_against_c_prints_both_figures_and_their_ratio() -> None:
    out = ok("bench", "custodian", "--against-c", *QUICK)
    assert "Against C (interleaved; load average " in out
    lines = out[out.index("Against C") :].splitlines()
    # the block's three figures, then the machine's speed over the whole measurement
    labels = [line[:40].strip() for line in lines[1:4]]
    assert labels == ["compiled kernel", "C reference (gcc -O3 -march=native)", "ratio kernel / C"]
    assert lines[3].rstrip().endswith(("✓", "✗")) and "target ≥ 0.8" in lines[3]
    assert lines[4].startswith("  machine's speed before and after: a million Python additions ")
    assert len(lines) == 5


def test_against_c_json() -> None:
    rows = json.loads(ok("bench", "custodian", "--against-c", "--json", *QUICK))
    figures = rows[0]["against_c"]
    assert figures["kernel"]["plies"] > 0 and figures["c_reference"]["plies"] > 0
    ratio = figures["kernel"]["plies_per_second"] / figures["c_reference"]["plies_per_second"]
    assert figures["ratio kernel/c"] == pytest.approx(ratio)
    assert figures["target"] == 0.8 and len(figures["load_average"]) == 2


def test_against_c_refuses_options_the_reference_does_not_play() -> None:
    message = usage_error("bench", "custodian", "--variant", "chaos", "--against-c", *QUICK)
    assert "the C reference plays only faces=turn" in message
