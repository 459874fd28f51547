"""Every installed game passes the conformance kit, and the kit fails a game that breaks the contract.

The second half matters as much as the first: a checker that cannot fail proves nothing, so
each kind of check is shown catching a real fault, planted by patching one built-in game's
method for the length of one test.
"""

from __future__ import annotations

import pytest

import parlour
from parlour.registry import game_class
from parlour.testing import check_game, check_hidden_cards


@pytest.mark.parametrize("name", parlour.names())
def test_every_game_passes_the_kit(name):
    report = check_game(name)
    assert report.games == 3 and report.deals >= 3 and report.actions > 0
    assert report.records and report.clones and report.illegal
    hidden = report.hidden
    assert hidden["scanned"] >= report.actions and hidden["redeal"] > 0


#: Games with options their own property tests used to play when they repeated the kit's record
#: and clone checks (those repeats are folded in here): a longer Schafkopf target, a Six-Bid match
#: of many deals, Clobby's variants.  More deals than the default, as those tests ran up to 400 actions.
WITH_OPTIONS = [
    ("schafkopf", {"target": 4}),
    ("sixbid", {"chips": 1000}),
    ("clobby", {"game_point": 500, "no_tie": True, "clubs_preferred": True, "tout_atout": True}),
    ("clobby", {"game_point": 100, "no_tie": False, "clubs_preferred": False, "tout_atout": False}),
]


@pytest.mark.parametrize(("name", "options"), WITH_OPTIONS)
def test_games_with_options_pass_the_kit(name, options):
    report = check_game(parlour.load(name, **options), deals=4, rate=0.3)
    assert report.games == 3 and report.deals >= 6 and report.records and report.clones


@pytest.mark.slow
@pytest.mark.parametrize("name", parlour.names())
def test_every_game_passes_the_kit_over_many_games(name):
    report = check_game(name, games=25, deals=6, seed=1, rate=0.3, redeal_rate=0.5)
    assert report.games == 25


def test_the_kit_takes_a_name_a_game_or_a_class():
    for what in ("gops", parlour.load("gops"), game_class("gops")):
        assert check_game(what, games=1).game == "gops"
    with pytest.raises(ValueError, match="unknown game"):
        check_game("no-such-game")


def test_the_one_shot_hidden_card_check():
    import random

    state = parlour.load("schafkopf").new_state(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    counts = check_hidden_cards(state)
    assert counts["scanned"] > 0 and counts["redeal"] > 0


# -- the kit catches faults ------------------------------------------------------------------
def _leaky(monkeypatch, name, extra):
    """Patch ``name``'s view to add ``extra(state, seat)`` under the key ``"extra"``."""
    cls = game_class(name).state_class
    original = cls.view

    def view(self, seat):
        out = original(self, seat)
        out["extra"] = extra(self, seat)
        return out

    monkeypatch.setattr(cls, "view", view)


def _fails(name, match, **kwargs):
    with pytest.raises(AssertionError, match=match):
        check_game(name, games=2, deals=2, **kwargs)


def test_a_card_of_the_other_hand_in_a_view_is_caught(monkeypatch):
    _leaky(monkeypatch, "truc", lambda s, seat: s._hands[1 - seat][:1])
    _fails("truc", "shows cards the seat may not know")


def test_a_whole_table_shown_to_everybody_from_the_deal_is_caught(monkeypatch):
    _leaky(monkeypatch, "schafkopf", lambda s, seat: [sorted(s.current_pack())])
    _fails("schafkopf", "at the start of a pack")


def test_a_private_choice_shown_to_the_other_seat_is_caught(monkeypatch):
    # GOPS: whether seat 0's pending bid is high (no card code at all, so only the kit's
    # "another choice" check can see it)
    _leaky(monkeypatch, "gops", lambda s, seat: s._pending is not None and s._pending[0] in "TJQK")
    _fails("gops", "private")


def test_information_drawn_from_hidden_cards_is_caught(monkeypatch):
    # Le Truc: how many aces and kings the opponent holds (a number, not a card)
    _leaky(monkeypatch, "truc", lambda s, seat: sum(c[0] in "AK" for c in s._hands[1 - seat]))
    _fails("truc", "depends on cards hidden from it", redeal_rate=1.0)


def test_a_missing_view_key_and_a_wrong_type_are_caught(monkeypatch):
    cls = game_class("gops").state_class
    original = cls.view
    monkeypatch.setattr(cls, "view", lambda self, seat: {k: v for k, v in original(self, seat).items()
                                                         if k != "trick_seq"})
    _fails("gops", "lacks")
    monkeypatch.setattr(cls, "view", original)
    monkeypatch.setattr(cls, "scores", property(lambda self: tuple(self._scores)))
    _fails("gops", "scores")


def test_an_illegal_action_that_changes_the_state_is_caught(monkeypatch):
    cls = game_class("clobby").state_class
    original = cls.apply

    def apply(self, action):
        if action not in self.legal_actions():
            self.actions.append(action)
        return original(self, action)

    monkeypatch.setattr(cls, "apply", apply)
    _fails("clobby", "changed the state", rate=1.0)


def test_a_clone_sharing_state_with_its_original_is_caught(monkeypatch):
    cls = game_class("truc").state_class
    monkeypatch.setattr(cls, "clone", lambda self: self)
    _fails("truc", "original|records differ", rate=1.0)


def test_a_deal_that_never_ends_is_caught():
    _fails("clobby", "has not ended after 5 random actions", max_deal_actions=5)
