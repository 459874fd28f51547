"""``search.inference.replayed_likelihood``: the one way the trick games weigh a sampled deal by the
others' choices.  Pinned on a toy state, so each rule of the count is seen alone: a choice the
model makes counts 1, another counts its factor, a forced choice or an unmodelled seat counts
nothing, and a factor of 1 does not even ask the model."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.search.inference import replayed_likelihood


class Toy:
    """Seats take turns 0, 1, 2, ...; every turn offers ``options`` (one option: a forced turn)."""

    def __init__(self, options: list[list[str]]) -> None:
        self.options = options
        self.turn = 0

    @property
    def current_player(self) -> int:
        return self.turn % 3

    def view(self, seat: int) -> dict[str, Any]:
        assert seat == self.current_player
        return {"seat": seat, "legal_actions": self.options[self.turn], "phase": "play"}

    def apply(self, action: str) -> None:
        assert action in self.options[self.turn]
        self.turn += 1


def first(view: dict[str, Any]) -> str:
    return str(view["legal_actions"][0])


def test_each_choice_off_the_model_multiplies_by_its_factor() -> None:
    options = [["a", "b"]] * 6
    # seat 1 plays off the model twice (turns 1 and 4), seat 2 once (turn 5)
    actions = ["b", "b", "a", "a", "b", "b"]
    got = replayed_likelihood(Toy(options), actions, (1, 2), first, lambda v: 0.5)
    assert got == pytest.approx(0.5 ** 3)


def test_forced_choices_and_unmodelled_seats_say_nothing() -> None:
    options = [["a", "b"], ["b"], ["a", "b"]]
    assert replayed_likelihood(Toy(options), ["b", "b", "a"], (1, 2), first, lambda v: 0.5) == 1.0


def test_a_factor_of_one_leaves_the_choice_unjudged_and_the_model_unasked() -> None:
    def model(view: dict[str, Any]) -> str:
        raise AssertionError("the model was asked about a choice that is not judged")

    assert replayed_likelihood(Toy([["a", "b"]] * 3), ["b", "b", "b"], (0, 1, 2), model, lambda v: 1.0) == 1.0


def test_the_state_is_played_forward() -> None:
    toy = Toy([["a", "b"]] * 4)
    replayed_likelihood(toy, ["a", "b", "a"], (0,), first, lambda v: 0.5)
    assert toy.turn == 3
