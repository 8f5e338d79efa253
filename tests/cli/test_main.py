"""The program as a whole: version, help for every command, ``python -m``, broken pipes."""

from __future__ import annotations

import subprocess
import sys

import pytest

import diceboard
from diceboard.cli.main import COMMANDS
from tests.cli.helpers import EXAMPLE, environment, ok, script

pytestmark = pytest.mark.e2e


def test_version() -> None:
    assert ok("--version") == f"diceboard {diceboard.__version__}\n"


def test_help_lists_every_command() -> None:
    out = ok("--help")
    for name in COMMANDS:
        assert f"\n    {name.replace('_', '-')}" in out


@pytest.mark.parametrize(
    "command", ["moves", "apply", "perft", "render", "play", "replay", "bench"]
)
def test_every_command_has_help_with_examples(command: str) -> None:
    out = ok(command, "-h")
    assert out.startswith(f"usage: diceboard {command}")
    assert "examples:" in out


def test_bench_targets_have_help() -> None:
    assert "TARGET" in ok("bench", "-h")
    assert "--seconds" in ok("bench", "custodian", "-h")


def test_python_dash_m_runs_the_same_program() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "diceboard.cli", "moves", "custodian", EXAMPLE, "--count"],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "84\n", "")


def test_a_closed_pipe_is_not_an_error_message() -> None:
    # like `diceboard moves … | head -1`: the reader goes away after the first line
    with subprocess.Popen(
        [script(), "perft", "custodian", "initial", "3", "--divide"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(),
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        stderr = process.stderr.read().decode()
        status = process.wait(timeout=120)
    assert "Traceback" not in stderr
    assert stderr == ""
    assert status in (0, 141)


def test_a_command_imports_only_its_own_module() -> None:
    code = (
        "import sys; from diceboard.cli.main import main; "
        "status = main(['moves', 'custodian', 'initial', '--count']); "
        "print(status, sorted(m for m in sys.modules if m.startswith('diceboard.cli.commands.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=environment(),
        timeout=120,
        check=False,
    )
    assert done.stdout.splitlines() == ["6", "0 ['diceboard.cli.commands.moves']"]
