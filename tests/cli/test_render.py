"""``diceboard render``: SVG files and terminal boards."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.cli.helpers import EXAMPLE, ok, run, usage_error

pytestmark = pytest.mark.e2e

SVG = "{http://www.w3.org/2000/svg}"


def _highlighted(root: ET.Element) -> set[str]:
    return {
        el.get("data-square", "")
        for el in root.iter()
        if "highlight" in (el.get("class") or "").split()
    }


def test_svg_file_is_valid_and_sized(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    out = ok(
        "render", "custodian", EXAMPLE, "-o", str(target), "--size", "300", "--highlight", "b1,d2"
    )
    assert out == ""
    root = ET.parse(target).getroot()
    assert root.tag == f"{SVG}svg"
    assert root.get("width") == "300"
    assert _highlighted(root) == {"b1", "d2"}
    # the dice of the position are drawn: the title names the position
    assert EXAMPLE in "".join(root.find(f"{SVG}title").itertext())  # type: ignore[union-attr]


def test_svg_replaces_an_existing_file_whole(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    target.write_text("old content that is longer than nothing\n" * 1000)
    ok("render", "custodian", "initial", "-o", str(target))
    ET.parse(target)  # parses: nothing of the old file is left
    assert [p.name for p in tmp_path.iterdir()] == ["board.svg"]


def test_flip_changes_the_picture(tmp_path: Path) -> None:
    plain = ok("render", "custodian", EXAMPLE, "--format", "svg")
    flipped = ok("render", "custodian", EXAMPLE, "--format", "svg", "--flip")
    ET.fromstring(plain)
    ET.fromstring(flipped)
    assert plain != flipped


def test_text_board() -> None:
    board = ok("render", "custodian", EXAMPLE, "--format", "txt")
    assert "\x1b[" not in board
    lines = board.splitlines()
    assert any(line.split()[:6] == ["5", "B5", "B2", "B6", "B2", "B6"] for line in lines)
    assert any(line.split()[:6] == ["1", "W3", "W1", "W6", "W4", "W2"] for line in lines)


def test_ansi_board_has_colour() -> None:
    assert "\x1b[" in ok("render", "custodian", EXAMPLE, "--format", "ansi")


def test_piped_board_defaults_to_plain_text() -> None:
    assert "\x1b[" not in ok("render", "custodian", EXAMPLE)


def test_bad_render_arguments(tmp_path: Path) -> None:
    assert "z9" in usage_error("render", "custodian", EXAMPLE, "--highlight", "b1,z9")
    assert "--size" in usage_error("render", "custodian", EXAMPLE, "--format", "txt", "--size", "9")
    assert "--size" in usage_error("render", "custodian", EXAMPLE, "--size", "0")
    assert "--format" in usage_error("render", "custodian", EXAMPLE, "--format", "png")
    missing = tmp_path / "no" / "such" / "folder" / "board.svg"
    message = usage_error("render", "custodian", EXAMPLE, "-o", str(missing))
    assert "no such folder" in message
    assert not missing.parent.exists()
    assert "is a folder" in usage_error("render", "custodian", EXAMPLE, "-o", str(tmp_path))


def test_unwritable_file_leaves_no_trace(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        done = run("render", "custodian", EXAMPLE, "-o", str(folder / "board.svg"))
        if done.returncode == 0:
            pytest.skip("running as a user who can write anywhere (root)")
        assert done.returncode == 2
        assert done.stderr.startswith("diceboard: error: ")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o700)


def test_output_to_a_device_writes_into_it() -> None:
    # a special file is written to, not replaced by a regular file
    assert ok("render", "custodian", EXAMPLE, "-o", "/dev/null") == ""
    assert not Path("/dev/null").is_file()
    assert Path("/dev/null").exists()
