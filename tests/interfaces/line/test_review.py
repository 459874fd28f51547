"""Line mode's ``review`` and ``review N``: each deal's review, worked out as the deal ends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import parlour
from parlour.bots import make
from parlour.linemode.play import play_human
from parlour.review.worker import Reviews
from parlour.store import open_store
from parlour.table import Table


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


def typing(lines: list[str], then: str = "1") -> Iterator[str]:
    yield from lines
    while True:
        yield then


def test_review_and_review_n_during_a_game_and_after_it(tmp_path) -> None:
    store = open_store(tmp_path / "l.db")
    state = parlour.load("gops", cards=3).new_state(seed=3)
    table = Table(state, [None, make("gops", "easy")])
    reviews = Reviews(store, 0)
    typed = typing(["review", "1", "1", "1", "review", "review 1", "review 2", "score", ""], then="")
    said: list[str] = []
    assert play_human(table, 0, inp=lambda _: next(typed), out=said.append, reviews=reviews) == "over"
    text = "\n".join(said)
    assert "No deal has ended yet: a deal's review exists once it is over." in text
    assert text.count("Review of deal 1 of GOPS, for North (you)") == 2
    assert "--- Turn 1 ---" in text and "by what you knew" in text
    assert "review N: a deal that has ended, 1 to 1." in text
    assert [t.game for t in store.loss_trends()] == ["gops"]  # kept, for the statistics
    store.close()


def test_the_review_of_a_deal_is_worked_out_as_it_ends_and_shown_mid_game() -> None:
    state = parlour.load("truc").new_state(seed=5)
    table = Table(state, [None, make("truc", "easy")])
    reviews = Reviews(None, 0)
    said: list[str] = []

    def answer(prompt: str) -> str:
        if state.deals and not any("Review of deal 1" in line for line in said):
            return "review"
        if state.deals:
            return "q"
        return "."  # the hint, then Enter plays it

    assert play_human(table, 0, inp=answer, out=said.append, reviews=reviews) == "quit"
    assert reviews.get(1) is not None
    text = "\n".join(said)
    assert "Review of deal 1 of Le Truc, for North (you)" in text and "Verdict:" in text
