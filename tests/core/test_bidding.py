"""The bidding table (``parlour.bidding``): who declared what in a deal, and whether it was made."""

from __future__ import annotations

import random
from collections import Counter

from parlour import arena, bidding
from parlour.bots import make


def test_each_game_reads_the_declarer_the_contract_and_the_result_from_its_deal_summary():
    six = {"soloist": 2, "bid": "misere", "made": False, "thrown_in": False, "scores": [6, 6, -12]}
    assert bidding.declared("sixbid", six, 2) == ("misere", False)
    assert bidding.declared("sixbid", six, 0) is None
    assert bidding.declared("sixbid", {"soloist": None, "bid": None, "thrown_in": True}, 0) is None
    solo = {"soloist": 1, "ramsch": False, "result": "schneider", "scores": [0, 4, 0]}
    assert bidding.declared("schafkopf", solo, 1) == ("solo", True)
    ramsch = {"soloist": None, "ramsch": True, "result": "fewest pips", "scores": [0, 0, 2]}
    assert [bidding.declared("schafkopf", ramsch, s) for s in range(3)] == [None, None, None]
    took = {"maker": 0, "trump": "S", "upcard": "KS", "bete": False, "thrown_in": False}
    named = {"maker": 1, "trump": "H", "upcard": "9S", "bete": True, "thrown_in": False}
    assert bidding.declared("clobby", took, 0) == ("took the upcard", True)
    assert bidding.declared("clobby", named, 1) == ("named a suit", False)
    assert bidding.declared("truc", {"scores": [1, 0]}, 0) is None, "no declaring in Le Truc"


def test_the_arena_counts_as_declarations_and_prints_them_per_contract():
    result = arena.run("sixbid", "easy", "easy", 6)
    assert sum(result.declared.values()) == 6 * 3, "one entry per seating"
    declared = {d for d in result.declared if d is not None}
    assert declared and all(name == "solo" for name, _ in declared)
    text = result.table()
    assert "A (easy): declared in" in text and "made %" in text and "solo" in text
    assert "declared in" not in arena.run("gops", "easy", "easy", 2).table()


def easy_with_the_state() -> arena.OpenPlayer:
    """A bench-only player as ``open_a`` takes it: easy's choice, from the state it is handed."""
    easy = make("clobby", "easy")

    def act(state, rng: random.Random) -> str:
        return easy.act(state.view(state.current_player), rng)
    return act


def test_an_open_player_in_as_seats_plays_the_same_packs_as_the_level_it_copies():
    same = arena.run("clobby", "easy", "easy", 8)
    open_ = arena.run("clobby", "open", "easy", 8, jobs=2, open_a=easy_with_the_state)
    assert open_.margins == same.margins and open_.declared == same.declared
    assert isinstance(open_.declared, Counter) and "A (open)" in open_.table()
