"""The search is specialised twice per game: the linear variant, which every level plays, is
compiled without the network and the endgame term; a call goes to the variant of its
evaluation vector's model."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from diceboard.ai.bindings import binding
from diceboard.ai.engine import _ENTRIES, _Variants, engine_for
from diceboard.ai.engine.models import FULL, LINEAR, linear_substitutes, model_of, no_net_logit


def test_the_linear_models_vector_is_one_longer_than_the_features() -> None:
    assert model_of(5, np.zeros(6)) == LINEAR
    assert model_of(5, np.zeros(7)) == FULL  # eval=endgame: one more entry
    assert model_of(5, np.zeros(400)) == FULL  # the network


def test_the_linear_variant_compiles_the_stand_ins_not_the_network() -> None:
    engine_for("custodian")  # the variants are made on first use, without compiling
    variants = _Variants("custodian", binding("custodian"))
    linear = variants.compiled(LINEAR)
    full = variants.compiled(FULL)
    assert "net_logit" not in linear and "net_logit" in full
    linear_module = sys.modules["diceboard.ai.engine._custodian_search"]
    full_module = sys.modules["diceboard.ai.engine._custodian_full_search"]
    assert linear_module.net_logit is no_net_logit
    assert full_module.net_logit is full["net_logit"]
    assert linear_module.game is binding("custodian") is full_module.game
    # numba's cache files go by the copies' names: the two variants' must differ
    linear_names = {getattr(f, "py_func", f).__qualname__ for f in linear.values()}
    full_names = {getattr(f, "py_func", f).__qualname__ for f in full.values()}
    assert not linear_names & full_names


def test_only_the_network_is_substituted() -> None:
    assert set(linear_substitutes()) == {"net_logit"}


def test_a_call_goes_to_the_variant_of_its_vectors_model(monkeypatch: pytest.MonkeyPatch) -> None:
    variants = _Variants("custodian", binding("custodian"))
    asked: list[str] = []
    nf = variants.num_features

    def compiled(model: str) -> dict[str, Any]:
        asked.append(model)
        return {name: lambda *args, **kwargs: model for name in _ENTRIES}

    monkeypatch.setattr(variants, "compiled", compiled)
    static_value = variants.entry("static_value")
    state = np.zeros(4, dtype=np.int64)
    assert static_value(state, state, np.zeros(nf + 1), np.zeros(1)) == LINEAR
    assert static_value(state, state, np.zeros(nf + 9), np.zeros(1)) == FULL
    assert static_value(state, state, weights=np.zeros(nf + 1), fbuf=np.zeros(1)) == LINEAR
    assert variants.entry("principal_variation")() == LINEAR  # no vector: the linear one
