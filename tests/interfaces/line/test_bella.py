"""Clobby's bella in line mode: b and the card's code."""

from __future__ import annotations

import pytest

from helpers.clobby import at_the_bella
from parlour.table import Table
from parlour.text import (
    typed_announced_choice,
)


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


# -- line mode ------------------------------------------------------------------------------------------
def test_bella_by_its_keys_in_line_mode() -> None:
    from parlour.bots import make
    from parlour.linemode.play import play_human

    state = at_the_bella()
    table = Table(state, [None, make("clobby", "easy")])
    typed = iter(["b", "b 7C", "b QH", "q"])
    said: list[str] = []
    assert play_human(table, 0, inp=lambda _: next(typed), out=said.append) == "quit"
    text = "\n".join(said)
    assert "To play a card with bella, type b and its code (e.g. b QH): QH" in text
    assert ") QH+bella" not in text  # no list position to drift
    assert "to play a card with bella, type b and the card's code (e.g. b QH): QH" in text  # b alone
    assert "you cannot 7C+bella now: bella is only for the king or queen of trumps" in text
    assert "QH+bella" in state.actions
    assert typed_announced_choice("clobby", "bqh") == "QH+bella" == typed_announced_choice("clobby", "b qh")
    assert typed_announced_choice("clobby", "b 10h") == "TH+bella"
    assert typed_announced_choice("clobby", "take") is None and typed_announced_choice("clobby", "x QH") is None
    assert typed_announced_choice("sixbid", "b QH") is None  # a game without announcements
