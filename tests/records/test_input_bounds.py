"""Record readers at the boundary: huge or non-ASCII numbers in tags, positions and comment
keys give a RecordError, never another exception (issue 12, item 5)."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import diceboard
from diceboard.core.errors import DiceboardError, RecordError
from diceboard.records import GameRecord

HUGE = "92233720368547758085"
NUMBERS = ["²", "٣", "１", HUGE, HUGE * 3, str(2**63), "-" + HUGE]


def _pgn(name: str) -> str:
    return GameRecord.from_state(diceboard.game(name).start(seed=1)).to_pgn()


def _with_tag(pgn: str, tag: str, value: str) -> str:
    return pgn.replace("[Result", f'[{tag} "{value}"]\n[Result', 1)


@pytest.mark.parametrize("value", NUMBERS)
def test_a_seed_tag_out_of_range_is_a_record_error(value: str) -> None:
    with pytest.raises(RecordError, match="Seed tag"):
        GameRecord.from_pgn(_with_tag(_pgn("custodian"), "Seed", value))


@pytest.mark.parametrize("value", ["٢٠٢٤.01.01", "2024.٠١.01"])
def test_a_date_with_other_digits_is_a_record_error(value: str) -> None:
    pgn = _pgn("custodian").replace('[Date "????.??.??"]', f'[Date "{value}"]')
    with pytest.raises(RecordError, match="Date tag"):
        GameRecord.from_pgn(pgn)


@pytest.mark.parametrize("key", ["²", "٣", HUGE])
def test_a_comment_key_out_of_range_is_a_record_error(key: str) -> None:
    doc = GameRecord.from_state(diceboard.game("custodian").initial_state()).to_dict()
    doc["comments"] = {key: "x"}
    with pytest.raises(RecordError):
        GameRecord.from_json(json.dumps(doc))


@pytest.mark.parametrize("name", diceboard.games.names())
@pytest.mark.parametrize("value", NUMBERS)
def test_a_position_tag_with_a_huge_ply_is_a_record_error(name: str, value: str) -> None:
    parts = str(diceboard.game(name).start(seed=1)).split(" ")
    parts[3] = value
    with pytest.raises(RecordError):
        GameRecord.from_pgn(_with_tag(_pgn(name), "Position", " ".join(parts)))


_VALUES = st.one_of(
    st.text(max_size=20).filter(lambda t: '"' not in t and "\\" not in t),
    st.sampled_from(NUMBERS),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)


@pytest.mark.parametrize("name", diceboard.games.names())
@given(
    tag=st.sampled_from(["Seed", "Date", "Position", "NoCaptureLimit", "Variant"]), value=_VALUES
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_tags_raise_only_record_errors(name: str, tag: str, value: str) -> None:
    with contextlib.suppress(RecordError):
        GameRecord.from_pgn(_with_tag(_pgn(name), tag, value))


@given(
    doc=st.dictionaries(
        st.sampled_from(["format", "version", "game", "moves", "tags", "comments", "start"]),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=5), inner, max_size=3)
            ),
            max_leaves=8,
        ),
    )
)
@settings(max_examples=80, deadline=None)
def test_json_raises_only_record_errors(doc: dict[str, object]) -> None:
    base = GameRecord.from_state(diceboard.game("custodian").initial_state()).to_dict()
    with contextlib.suppress(DiceboardError):
        GameRecord.from_json(json.dumps({**base, **doc}))
