"""``jsontext.encode``: orjson's text, numbers past 64 bits included (a record's 128-bit seed)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.web.jsontext import encode

_leaves = st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63, max_value=2**200) \
    | st.integers(max_value=-(2**63), min_value=-(2**200)) | st.text(max_size=5) \
    | st.floats(allow_nan=False, allow_infinity=False)
_values = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=12)


@given(_values)
def test_any_json_value_reads_back_the_same_whatever_the_size_of_its_numbers(value: Any) -> None:
    assert json.loads(encode(value)) == value


def test_a_record_with_a_128_bit_seed_keeps_every_digit() -> None:
    record = {"game": "gops", "seed": 2**127 + 12345, "actions": ["p1", "p2"], "proof": {"server_seed": 2**100}}
    assert json.loads(encode(record)) == record


def test_what_json_cannot_hold_is_still_refused() -> None:
    with pytest.raises(TypeError):
        encode({"seed": 2**70, "bot": object()})
