"""Schafkopf lines for the plain text interface."""

from __future__ import annotations

import random

import parlour
from parlour.games.schafkopf.text import describe, summarize


def deck_of(elder: str, nxt: str, dealer: str, skat: str) -> list[str]:
    e, n, d, s = elder.split(), nxt.split(), dealer.split(), skat.split()
    return e[0:3] + n[0:3] + d[0:3] + s + e[3:7] + n[3:7] + d[3:7] + e[7:10] + n[7:10] + d[7:10]


L2 = deck_of("QC QS QH QD JC JS JH JD 7H 8H", "AD TD KD AH TH KH 9H AC KC 9C",
             "9D 8D 7D 8C 7C AS KS 9S 8S 7S", "TC TS")
L2_TRICKS = ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
             "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"]


def test_describe_a_solo_for_soloist_and_defender() -> None:
    s = parlour.load("schafkopf").new_state(deck=L2, dealer=2)
    assert describe(s.view(0))[0] == "Bidding: North (elder) speaks first"
    s.apply("pick-up")
    s.apply("TC")
    s.apply("TS")
    mine = describe(s.view(0))
    assert "Bidding: North pick-up" in mine
    assert any(line.startswith("You play alone against East and West") for line in mine)
    assert "You picked up the skat: TC TS" in mine
    assert "Your discard: TC TS (20 pips)" in mine
    theirs = describe(s.view(1))
    assert any(line.startswith("Soloist: North") for line in theirs)
    assert not any("TC" in line for line in theirs)


def test_summarize_a_solo_and_a_ramsch() -> None:
    s = parlour.load("schafkopf").new_state(deck=L2, dealer=2)
    for action in ["pick-up", "TC", "TS"] + " ".join(L2_TRICKS).split():
        s.apply(action)
    lines = summarize(s.deals[0])
    assert lines[0] == "North played alone: 91 pips (discard 20) in 8 tricks; the others 29."
    assert lines[1] == "North made schneider (91 or more): +4."

    s = parlour.load("schafkopf").new_state(deck=L2, dealer=2)
    ramsch = ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AC 8C", "JC KC 7C", "JS 9C AS",
              "JH 9H KS", "JD KH 9S", "7H TH 8S", "AH 7S 8H"]
    for action in ["pass"] * 3 + " ".join(ramsch).split():
        s.apply(action)
    lines = summarize(s.deals[0])
    assert lines[0].startswith("Ramsch: North 79 pips in 8 tricks, East 41 pips in 2 tricks")
    assert "The skat TC TS (20 pips) went to East with the last trick." in lines
    assert "West took no trick: +4." in lines
    s = parlour.load("schafkopf").new_state(deck=L2, dealer=2)
    for action in ["pass"] * 3 + "QC AD 9D".split():
        s.apply(action)
    lines = describe(s.view(2))
    assert "Bidding: North pass, East pass, West pass" in lines
    assert any(line.startswith("Ramsch:") for line in lines)
    assert "Tricks taken: North 1 (14 pips), East 0 (0 pips), West 0 (0 pips)" in lines


def test_describe_never_fails_on_random_views() -> None:
    game = parlour.load("schafkopf", target=5)
    for seed in range(15):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        while not state.is_over:
            for seat in range(3):
                lines = describe(state.view(seat))
                assert lines and all(isinstance(line, str) for line in lines)
            before = len(state.deals)
            legal = state.legal_actions()
            state.apply("pass" if "pass" in legal and rng.random() < 0.8 else rng.choice(legal))
            if len(state.deals) > before:
                assert all(isinstance(line, str) for line in summarize(state.deals[-1]))
