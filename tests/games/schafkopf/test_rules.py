"""Schafkopf rules, one test per rule of RULES.md, on decks laid out by hand.

Seats: with ``dealer=2`` North (0) is elder, East (1) is next and West (2) deals, so the
deck below is dealt N N N, E E E, W W W, skat skat, N*4, E*4, W*4, N*3, E*3, W*3.
Pips: A 11, T 10, K 4, Q 3, J 2.  Every expected number is worked out in the comments.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import parlour
from parlour.cards import PACK_32
from parlour.games.schafkopf.rules import ramsch_result, soloist_score

N, E, W = 0, 1, 2


def deck_of(elder: str, nxt: str, dealer: str, skat: str) -> list[str]:
    """The pack, top first, that deals these hands (10, 10, 10 cards and 2 for the skat)."""
    e, n, d, s = elder.split(), nxt.split(), dealer.split(), skat.split()
    assert len(e) == len(n) == len(d) == 10 and len(s) == 2
    return e[0:3] + n[0:3] + d[0:3] + s + e[3:7] + n[3:7] + d[3:7] + e[7:10] + n[7:10] + d[7:10]


def new(deck: list[str], dealer: int = 2, target: int = 10) -> parlour.State:
    return parlour.load("schafkopf", target=target).new_state(deck=deck, dealer=dealer)


def play_tricks(state: parlour.State, tricks: list[str], winners: list[int] | None = None) -> None:
    """Play whole tricks ("QC JS 9D" in play order), checking each trick's winner if given."""
    for i, trick in enumerate(tricks):
        for card in trick.split():
            state.apply(card)
        if winners is not None:
            last = state.view(0)["last_trick"] or state.deals[-1]["final_trick"]  # a deal's last trick
            assert last["winner"] == winners[i], f"trick {i + 1}: {trick}"


# L1: North holds the ten best trumps.
L1 = deck_of("QC QS QH QD JC JS JH JD AD TD", "8D 7D AC TC KC 9C 8C 7C AS TS",
             "KS 9S 8S 7S AH TH KH 9H 8H 7H", "KD 9D")
# L2: North has the eight queens and jacks and two low hearts; the skat holds two tens.
L2 = deck_of("QC QS QH QD JC JS JH JD 7H 8H", "AD TD KD AH TH KH 9H AC KC 9C",
             "9D 8D 7D 8C 7C AS KS 9S 8S 7S", "TC TS")
# L4: North has the four queens, AS and low cards; the skat holds AC TC.
L4 = deck_of("QC QS QH QD AS 7H 8H 9H 7S 8S", "JC JS JH AD TD AH TH KH TS KS",
             "JD KD 9D 8D 7D KC 9C 8C 7C 9S", "AC TC")
# L5: a Ramsch deck (skat 8C 7C, no pips).
L5 = deck_of("QC QS QH QD JC JS 7H 8H 9H 7S", "JH JD AD TD AH TH KH AC TC KC",
             "KD 9D 8D 7D AS TS KS 9S 8S 9C", "8C 7C")


def test_pip_values_total_120() -> None:
    from parlour.games.schafkopf.rules import PIP
    assert sum(PIP) == 120


# -- options ---------------------------------------------------------------------------
def test_target_option() -> None:
    assert parlour.load("schafkopf").options == {"target": 10}
    assert parlour.load("schafkopf", target=1).options["target"] == 1
    assert parlour.load("schafkopf", target=1000).options["target"] == 1000
    for bad in (0, 1001, "10", 2.5, True):
        with pytest.raises(ValueError):
            parlour.load("schafkopf", target=bad)
    with pytest.raises(ValueError):
        parlour.load("schafkopf", game_point=10)


def test_deck_must_be_the_32_card_pack() -> None:
    with pytest.raises(ValueError):
        parlour.load("schafkopf").new_state(deck=list(PACK_32)[:-1] + ["6C"], dealer=0)


# -- the deal --------------------------------------------------------------------------
def test_deal_batches_3_skat_4_3() -> None:
    # The unshuffled pack: 7C 8C 9C TC JC QC KC AC | 7D..AD (8-15) | 7H..AH (16-23) | 7S..AS (24-31).
    deck = list(PACK_32)
    s = new(deck, dealer=2)
    # elder North: 0-2 7C 8C 9C, 11-14 TD JD QD KD, 23-25 AH 7S 8S
    assert s.view(N)["hand"] == ["QD", "JD", "TD", "KD", "9C", "8C", "7C", "8S", "7S", "AH"]
    # next East: 3-5 TC JC QC, 15-18 AD 7H 8H 9H, 26-28 9S TS JS
    assert s.view(E)["hand"] == ["QC", "JC", "JS", "AD", "TC", "TS", "9S", "9H", "8H", "7H"]
    # dealer West: 6-8 KC AC 7D, 19-22 TH JH QH KH, 29-31 QS KS AS
    assert s.view(W)["hand"] == ["QS", "QH", "JH", "7D", "AC", "KC", "AS", "KS", "TH", "KH"]
    # the skat (9-10) is 8D 9D: North sees it once he picks up.
    s.apply("pick-up")
    assert s.view(N)["skat"] == ["9D", "8D"]
    assert s.view(N)["hand"] == ["QD", "JD", "TD", "KD", "9D", "8D", "9C", "8C", "7C", "8S", "7S", "AH"]


def test_deal_starts_with_the_seat_after_the_dealer() -> None:
    s = new(list(PACK_32), dealer=0)
    assert s.current_player == 1 and s.view(0)["elder"] == 1
    assert s.view(1)["hand"] == ["QD", "JD", "TD", "KD", "9C", "8C", "7C", "8S", "7S", "AH"]
    assert s.view(2)["hand"] == ["QC", "JC", "JS", "AD", "TC", "TS", "9S", "9H", "8H", "7H"]
    assert s.view(0)["hand"] == ["QS", "QH", "JH", "7D", "AC", "KC", "AS", "KS", "TH", "KH"]


def test_hand_is_sorted_trumps_first() -> None:
    s = new(L5)
    assert s.view(E)["hand"] == ["JH", "JD", "AD", "TD", "AC", "TC", "KC", "AH", "TH", "KH"]
    assert s.view(W)["hand"] == ["KD", "9D", "8D", "7D", "9C", "AS", "TS", "KS", "9S", "8S"]


# -- bidding ---------------------------------------------------------------------------
def test_bidding_goes_elder_next_dealer_and_first_pick_up_wins() -> None:
    s = new(L4, dealer=2)
    assert s.phase == "bid" and s.current_player == N
    assert s.legal_actions() == ["pick-up", "pass"]
    s.apply("pass")
    assert s.current_player == E and s.legal_actions() == ["pick-up", "pass"]
    s.apply("pick-up")
    # West is not asked: East is the soloist and discards at once.
    assert s.phase == "discard" and s.current_player == E
    v = s.view(W)
    assert v["soloist"] == E and v["bids"] == [[N, "pass"], [E, "pick-up"]]
    assert v["hand_sizes"] == [10, 12, 10]
    assert len(s.view(E)["hand"]) == 12


def test_dealer_may_pick_up_last() -> None:
    s = new(L4, dealer=2)
    s.apply("pass")
    s.apply("pass")
    assert s.current_player == W
    s.apply("pick-up")
    assert s.view(N)["soloist"] == W and s.current_player == W


def test_all_pass_is_a_ramsch_led_by_elder() -> None:
    s = new(L4, dealer=0)  # elder is East
    for seat in (1, 2, 0):
        assert s.current_player == seat
        s.apply("pass")
    v = s.view(0)
    assert v["ramsch"] is True and v["soloist"] is None and s.phase == "play"
    assert s.current_player == 1
    assert v["skat_on_table"] is True


# -- the discard -----------------------------------------------------------------------
def test_discard_is_two_private_card_actions_then_elder_leads() -> None:
    s = new(L4, dealer=2)
    s.apply("pass")
    s.apply("pass")
    s.apply("pick-up")  # West, the dealer, picks up AC TC
    assert s.action_is_private
    hand = ["JD", "KD", "9D", "8D", "7D", "AC", "TC", "KC", "9C", "8C", "7C", "9S"]
    assert s.view(W)["hand"] == hand
    assert s.legal_actions() == hand  # any of the twelve, trumps and skat cards included
    s.apply("KD")  # a trump
    assert s.action_is_private and s.current_player == W
    assert s.legal_actions() == [c for c in hand if c != "KD"]
    with pytest.raises(parlour.IllegalAction):
        s.apply("KD")  # already laid away
    s.apply("AC")  # a skat card
    assert not s.action_is_private
    assert s.phase == "play" and s.current_player == N  # elder leads, not the soloist
    assert s.view(W)["discard"] == ["KD", "AC"]
    assert s.view(W)["hand_sizes"] == [10, 10, 10]
    for seat in (N, E):
        v = s.view(seat)
        assert v["discard"] is None and v["skat"] is None
        text = json.dumps(v)
        for card in ("KD", "AC", "TC"):
            assert f'"{card}"' not in text


def test_skat_is_never_shown_before_it_is_won() -> None:
    s = new(L4)
    for seat in range(3):
        text = json.dumps(s.view(seat))
        assert '"AC"' not in text and '"TC"' not in text
    for _ in range(3):
        s.apply("pass")
    for seat in range(3):
        text = json.dumps(s.view(seat))
        assert '"AC"' not in text and '"TC"' not in text


# -- following and winning tricks -----------------------------------------------------
def test_trumps_are_one_suit_queens_and_jacks_do_not_follow_their_suit() -> None:
    s = new(L5)
    for _ in range(3):
        s.apply("pass")
    # North leads a low heart: East must follow with a plain heart (JH is a trump).
    s.apply("7H")
    assert s.legal_actions() == ["AH", "TH", "KH"]
    with pytest.raises(parlour.IllegalAction, match="you must follow suit: you hold a heart"):
        s.apply("JH")
    s.apply("KH")
    # West has no plain heart: any card.
    assert s.legal_actions() == ["KD", "9D", "8D", "7D", "9C", "AS", "TS", "KS", "9S", "8S"]
    s.apply("9C")
    assert s.view(0)["last_trick"] == {"cards": [[N, "7H"], [E, "KH"], [W, "9C"]], "winner": E}
    # East leads a trump (a diamond): West must play a trump, then North, whose queens
    # and jacks are his only trumps.
    s.apply("TD")
    assert s.legal_actions() == ["KD", "9D", "8D", "7D"]
    with pytest.raises(parlour.IllegalAction, match="you hold a trump"):
        s.apply("AS")
    s.apply("KD")
    assert s.legal_actions() == ["QC", "QS", "QH", "QD", "JC", "JS"]
    with pytest.raises(parlour.IllegalAction, match="trump"):
        s.apply("8H")
    s.apply("JS")
    assert s.view(0)["last_trick"] == {"cards": [[E, "TD"], [W, "KD"], [N, "JS"]], "winner": N}


def test_queen_of_clubs_is_not_a_club() -> None:
    # North JH TC 7D QD 8C 8S 8D 7H JD 7S; East 9H AH JS KD 9C QC AS QS 8H 9S;
    # West TD KC 9D KH QH TS 7C JC TH AD; skat AC KS.
    deck = deck_of("JH TC 7D QD 8C 8S 8D 7H JD 7S", "9H AH JS KD 9C QC AS QS 8H 9S",
                   "TD KC 9D KH QH TS 7C JC TH AD", "AC KS")
    s = new(deck)
    for _ in range(3):
        s.apply("pass")
    s.apply("8C")
    assert s.legal_actions() == ["9C"]  # QC is a trump, not a club


@pytest.mark.parametrize(("tricks", "winners"), [
    # Ramsch on L5 (North leads).  Trump order QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D.
    (["QS JH KD", "7H TH 7D"], [N, W]),  # queen over jack; a 7D trumps a ten of hearts
    (["JS AD 7D"], [N]),  # the lowest jack beats the ace of diamonds
    (["7S AC AS"], [W]),  # an ace of another plain suit never wins: AS over 7S
    (["9H TH TS", "AH AS 8H"], [E, E]),  # T over 9 of the suit led; A over 8
    (["QD TD 9D", "QC AD KD"], [N, N]),  # TD over 9D; QC over AD and KD
])
def test_highest_trump_else_highest_of_suit_led(tricks: list[str], winners: list[int]) -> None:
    s = new(L5)
    for _ in range(3):
        s.apply("pass")
    play_tricks(s, tricks, winners)


def test_a_jack_led_asks_for_trumps_and_a_void_player_may_play_anything() -> None:
    # L1 Ramsch: North leads JD; East must play a trump (8D or 7D); West has none.
    s = new(L1)
    for _ in range(3):
        s.apply("pass")
    s.apply("JD")
    assert s.legal_actions() == ["8D", "7D"]
    s.apply("8D")
    assert s.legal_actions() == ["KS", "9S", "8S", "7S", "AH", "TH", "KH", "9H", "8H", "7H"]
    s.apply("AH")
    assert s.view(1)["last_trick"]["winner"] == N


# -- scoring a solo (complete deals, card by card) --------------------------------------
def _solo_l4(discard: tuple[str, str], tricks: list[str]) -> dict:
    s = new(L4)
    s.apply("pick-up")
    for card in discard:
        s.apply(card)
    play_tricks(s, tricks, [N, N, N, N, E, E, E, E, E, E])
    return s.deals[0]


def test_solo_60_pips_loses_2() -> None:
    # North discards the skat AC TC (21); he wins the four queen leads.
    # Tricks 1-4: QC JS 9D, QS JH 8D, QH AD 7D, QD TD JD = 12 (queens) + 2+2+11+10+2 = 39.
    # North 39 + 21 = 60.  East takes tricks 5-10:
    # 7H AH 7C 11, TH 8C 8H 10, KH 9C 9H 4, TS 9S 7S 10, KS KC 8S 8, JC KD AS 17 = 60.
    d = _solo_l4(("AC", "TC"), ["QC JS 9D", "QS JH 8D", "QH AD 7D", "QD TD JD",
                                "7H AH 7C", "TH 8C 8H", "KH 9C 9H", "TS 9S 7S", "KS KC 8S", "JC KD AS"])
    assert d["pips"] == [60, 60, 0] and d["tricks"] == [4, 6, 0]
    assert d["scores"] == [-2, 0, 0] and d["result"] == "lost" and d["discard_pips"] == 21
    assert d["soloist"] == N and d["ramsch"] is False


def test_solo_61_pips_wins_2() -> None:
    # Same play, but North lays away AC AS (22) and keeps TC, which he throws on the last
    # trick: North 39 + 22 = 61; East 60 - 11 + 10 = 59.
    d = _solo_l4(("AC", "AS"), ["QC JS 9D", "QS JH 8D", "QH AD 7D", "QD TD JD",
                                "7H AH 7C", "TH 8C 8H", "KH 9C 9H", "TS 9S 7S", "KS KC 8S", "JC KD TC"])
    assert d["pips"] == [61, 59, 0] and d["scores"] == [2, 0, 0] and d["result"] == "won"


def test_solo_30_pips_loses_4() -> None:
    # North lays away 8H 9H (0).  Tricks 1-4: QC JC 9D, QS JS 8D, QH JH 7D, QD TD JD
    # = 12 + 2+2+2+10+2 = 30; East keeps AD and West KD for the last trick.
    # East: 7H AH 7C 11, TH 8C AC 21, KH 9C TC 14, TS 9S 7S 10, KS KC 8S 8, AD KD AS 26 = 90.
    d = _solo_l4(("8H", "9H"), ["QC JC 9D", "QS JS 8D", "QH JH 7D", "QD TD JD",
                                "7H AH 7C", "TH 8C AC", "KH 9C TC", "TS 9S 7S", "KS KC 8S", "AD KD AS"])
    assert d["pips"] == [30, 90, 0] and d["scores"] == [-4, 0, 0] and d["result"] == "lost schneider"


def test_solo_31_pips_loses_2() -> None:
    # As above, but East follows the fourth queen with AD and keeps TD: North 12 + 2+2+2+11+2 = 31.
    d = _solo_l4(("8H", "9H"), ["QC JC 9D", "QS JS 8D", "QH JH 7D", "QD AD JD",
                                "7H AH 7C", "TH 8C AC", "KH 9C TC", "TS 9S 7S", "KS KC 8S", "TD KD AS"])
    assert d["pips"] == [31, 89, 0] and d["scores"] == [-2, 0, 0] and d["result"] == "lost"


def _solo_l2(tricks: list[str]) -> dict:
    s = new(L2)
    s.apply("pick-up")
    s.apply("TC")
    s.apply("TS")
    play_tricks(s, tricks, [N] * 8 + [E, E])
    return s.deals[0]


def test_solo_91_pips_wins_4() -> None:
    # North discards TC TS (20) and leads his eight queens and jacks: he takes his own 20,
    # the defenders' trumps AD TD KD 9D 8D 7D (25) and what they throw on tricks 4-8:
    # East AH AC KC 9C 9H (26), West nothing = 91.  East: 7H TH AS 21, KH KS 8H 8 = 29.
    d = _solo_l2(["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
                  "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"])
    assert d["pips"] == [91, 29, 0] and d["scores"] == [4, 0, 0] and d["result"] == "schneider"


def test_solo_90_pips_wins_2() -> None:
    # East keeps AH KH and throws TH instead: North 20 + 25 + 20 + (TH AC KC 9C 9H) 25 = 90.
    # East: 7H AH AS 22, KH KS 8H 8 = 30.
    d = _solo_l2(["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD TH 8C", "JC AC 7C", "JS KC 9S",
                  "JH 9C 8S", "JD 9H 7S", "7H AH AS", "KH KS 8H"])
    assert d["pips"] == [90, 30, 0] and d["scores"] == [2, 0, 0] and d["result"] == "won"


def test_solo_all_tricks_wins_6() -> None:
    s = new(L1)
    s.apply("pick-up")
    s.apply("KD")  # trumps may be laid away
    s.apply("9D")
    play_tricks(s, ["QC 8D KS", "QS 7D 9S", "QH AC 8S", "QD TC 7S", "JC KC AH",
                    "JS 9C TH", "JH 8C KH", "JD 7C 9H", "AD AS 8H", "TD TS 7H"], [N] * 10)
    d = s.deals[0]
    assert d["pips"] == [120, 0, 0] and d["tricks"] == [10, 0, 0]
    assert d["scores"] == [6, 0, 0] and d["result"] == "schwarz" and d["discard_pips"] == 4


def test_solo_no_trick_loses_6_even_with_pips_in_the_discard() -> None:
    # North picks up AH TH and lays them away (21 pips) but takes no trick.
    deck = deck_of("7C 8C 9C KC 7S 8S 9S 7H 8H 9H", "QC QS QH QD JC JS JH AC TC KH",
                   "JD AD TD KD 9D 8D 7D AS TS KS", "AH TH")
    s = new(deck)
    s.apply("pick-up")
    s.apply("AH")
    s.apply("TH")
    play_tricks(s, ["7C AC AS", "QC 7D 8C", "QS 8D 9C", "QH 9D KC", "QD KD 7S", "JC TD 8S",
                    "JS AD 9S", "JH JD 7H", "TC TS 8H", "KH KS 9H"], [E] * 10)
    d = s.deals[0]
    # East: everything but the discard, 120 - 21 = 99.
    assert d["pips"] == [21, 99, 0] and d["tricks"] == [0, 10, 0]
    assert d["scores"] == [-6, 0, 0] and d["result"] == "lost schwarz"


@pytest.mark.parametrize(("pips", "tricks", "score"), [
    (120, 10, 6), (119, 9, 4), (91, 5, 4), (90, 5, 2), (61, 4, 2), (60, 4, -2),
    (31, 3, -2), (30, 3, -4), (0, 1, -4), (21, 0, -6), (0, 0, -6),
])
def test_soloist_score_table(pips: int, tricks: int, score: int) -> None:
    assert soloist_score(pips, tricks) == score


def test_only_the_soloists_score_changes() -> None:
    d = _solo_l2(["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
                  "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"])
    assert d["scores"][1:] == [0, 0] and d["totals"] == [4, 0, 0]


# -- Ramsch (complete deals) ------------------------------------------------------------
def _ramsch(deck: list[str], tricks: list[str], winners: list[int]) -> dict:
    s = new(deck)
    for _ in range(3):
        s.apply("pass")
    play_tricks(s, tricks, winners)
    return s.deals[0]


def test_ramsch_all_tricks_loses_4() -> None:
    # North leads his ten trumps and takes everything, the skat KD 9D too; the others took
    # no trick but score nothing: "all tricks" is decided first.
    d = _ramsch(L1, ["QC 8D KS", "QS 7D 9S", "QH AC 8S", "QD TC 7S", "JC KC AH",
                     "JS 9C TH", "JH 8C KH", "JD 7C 9H", "AD AS 8H", "TD TS 7H"], [N] * 10)
    assert d["ramsch"] is True and d["soloist"] is None
    assert d["pips"] == [120, 0, 0] and d["tricks"] == [10, 0, 0]
    assert d["scores"] == [-4, 0, 0] and d["result"] == "all tricks"
    assert d["skat"] == ["KD", "9D"] and d["skat_pips"] == 4


def test_ramsch_no_trick_wins_4() -> None:
    # North takes tricks 1-8: his 20, the trumps 25, East's AC KC 9C 9H KH 19, West's
    # 8C 7C AS KS 9S 15 = 79.  East: 7H TH 8S 10, AH 7S 8H 11, and the skat TC TS 20 = 41.
    d = _ramsch(L2, ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AC 8C", "JC KC 7C", "JS 9C AS",
                     "JH 9H KS", "JD KH 9S", "7H TH 8S", "AH 7S 8H"], [N] * 8 + [E, E])
    assert d["pips"] == [79, 41, 0] and d["tricks"] == [8, 2, 0]
    assert d["scores"] == [0, 0, 4] and d["result"] == "no trick" and d["scorer"] == W


def test_ramsch_40_40_40_dealer_scores_2() -> None:
    deck = deck_of("JH TC 7D QD 8C 8S 8D 7H JD 7S", "9H AH JS KD 9C QC AS QS 8H 9S",
                   "TD KC 9D KH QH TS 7C JC TH AD", "AC KS")
    # 1 N 7D E QS W 9D -> E 3;  2 E JS W JC N QD -> N 7;  3 N JH E KD W TD -> N 16;
    # 4 N 8C E 9C W KC -> W 4;  5 W QH N 8D E QC -> E 6;  6 E 9H W KH N 7H -> W 4;
    # 7 W TH N 7S E AH -> E 21; 8 E 8H W TS N 8S -> E 10; 9 E AS W AD N TC -> W 32;
    # 10 W 7C N JD E 9S -> N 2, and the skat AC KS 15.
    # North 7+16+2+15 = 40, East 3+6+21+10 = 40, West 4+4+32 = 40.
    d = _ramsch(deck, ["7D QS 9D", "JS JC QD", "JH KD TD", "8C 9C KC", "QH 8D QC",
                       "9H KH 7H", "TH 7S AH", "8H TS 8S", "AS AD TC", "7C JD 9S"],
                [E, N, N, W, E, W, E, E, W, N])
    assert d["pips"] == [40, 40, 40] and d["tricks"] == [3, 4, 3]
    assert d["scores"] == [0, 0, 2] and d["result"] == "40-40-40" and d["scorer"] == W == d["dealer"]


def test_ramsch_fewest_pips_scores_2() -> None:
    # 1 QD JD 8D N 5; 2 8H KH 9D W 4; 3 KD JC AD N 17; 4 7S TD TS E 20; 5 TH KS 7H E 14;
    # 6 KC 9C QS N 7; 7 QH JH 7D N 5; 8 9H AH AS E 22; 9 AC 8S QC N 14; 10 JS TC 9S N 12.
    # North 60, East 56, West 4 (skat 8C 7C has no pips).
    d = _ramsch(L5, ["QD JD 8D", "8H KH 9D", "KD JC AD", "7S TD TS", "TH KS 7H",
                     "KC 9C QS", "QH JH 7D", "9H AH AS", "AC 8S QC", "JS TC 9S"],
                [N, W, N, E, E, N, N, E, N, N])
    assert d["pips"] == [60, 56, 4] and d["tricks"] == [6, 3, 1]
    assert d["scores"] == [0, 0, 2] and d["result"] == "fewest pips"


def test_ramsch_tie_for_fewest_the_later_trick_taker_does_not_score() -> None:
    # 1 JS AD 7D N 13; 2 7H KH KD W 8; 3 AS 7S AC W 22; 4 9D QS JD N 5; 5 QC TD 8D N 13;
    # 6 8H TH TS E 20; 7 TC 9C 9H E 10; 8 KC 8S QD N 7; 9 QH JH 9S N 5; 10 JC AH KS N 17.
    # North 60, East 30 (tricks 6, 7), West 30 (tricks 2, 3): East took the later trick (7),
    # so West scores.
    d = _ramsch(L5, ["JS AD 7D", "7H KH KD", "AS 7S AC", "9D QS JD", "QC TD 8D",
                     "8H TH TS", "TC 9C 9H", "KC 8S QD", "QH JH 9S", "JC AH KS"],
                [N, W, W, N, N, E, E, N, N, N])
    assert d["pips"] == [60, 30, 30] and d["tricks"] == [6, 2, 2]
    assert d["scores"] == [0, 0, 2] and d["result"] == "fewest pips, tie"


def test_ramsch_tie_for_fewest_other_way_round() -> None:
    # 1 QS JH KD N 9; 2 7H TH 7D W 10; 3 8D QH JD N 5; 4 9H AH TS E 21; 5 KC 9C JC N 6;
    # 6 JS TD 9D N 12; 7 8H KH 8S E 4; 8 TC AS QD N 24; 9 QC AD 9S N 14; 10 7S AC KS W 15.
    # North 70, East 25 (tricks 4, 7), West 25 (tricks 2, 10): West took the later trick.
    d = _ramsch(L5, ["QS JH KD", "7H TH 7D", "8D QH JD", "9H AH TS", "KC 9C JC",
                     "JS TD 9D", "8H KH 8S", "TC AS QD", "QC AD 9S", "7S AC KS"],
                [N, W, N, E, N, N, E, N, N, W])
    assert d["pips"] == [70, 25, 25] and d["scores"] == [0, 2, 0] and d["result"] == "fewest pips, tie"


def test_ramsch_skat_counts_for_the_last_trick_before_fewest_pips() -> None:
    # L5 with East's AC TC swapped for the skat's 8C 7C: the skat now holds 21 pips.
    deck = deck_of("QC QS QH QD JC JS 7H 8H 9H 7S", "JH JD AD TD AH TH KH 8C 7C KC",
                   "KD 9D 8D 7D AS TS KS 9S 8S 9C", "AC TC")
    # 1 QS JH KD N 9; 2 7H TH 7D W 10; 3 8D QH JD N 5; 4 9H AH TS E 21; 5 7C 9C JC N 2;
    # 6 JS TD 9D N 12; 7 8H KH 8S E 4; 8 8C AS QD N 14; 9 QC AD 9S N 14; 10 7S KC KS W 8.
    # West 18 in tricks would be fewest, but the skat (21) makes him 39: East (25) scores.
    d = _ramsch(deck, ["QS JH KD", "7H TH 7D", "8D QH JD", "9H AH TS", "7C 9C JC",
                       "JS TD 9D", "8H KH 8S", "8C AS QD", "QC AD 9S", "7S KC KS"],
                [N, W, N, E, N, N, E, N, N, W])
    assert d["pips"] == [56, 25, 39] and d["last_trick_winner"] == W and d["skat_pips"] == 21
    assert d["scores"] == [0, 2, 0] and d["result"] == "fewest pips"


@pytest.mark.parametrize(("pips", "tricks", "winners", "dealer", "expected"), [
    ([120, 0, 0], [10, 0, 0], [0] * 10, 1, ([-4, 0, 0], 0, "all tricks")),
    ([80, 40, 0], [7, 3, 0], [0] * 7 + [1] * 3, 1, ([0, 0, 4], 2, "no trick")),
    ([0, 60, 60], [0, 5, 5], [1, 2] * 5, 0, ([4, 0, 0], 0, "no trick")),
    ([40, 40, 40], [3, 3, 4], [0, 1, 2, 0, 1, 2, 0, 1, 2, 2], 1, ([0, 2, 0], 1, "40-40-40")),
    ([50, 30, 40], [4, 3, 3], [0, 1, 2] * 3 + [0], 2, ([0, 2, 0], 1, "fewest pips")),
    # 30-30 tie: seat 1's last trick is 8, seat 2's is 9 -> seat 1 scores.
    ([60, 30, 30], [4, 3, 3], [0, 1, 2] * 3 + [0], 0, ([0, 2, 0], 1, "fewest pips, tie")),
    # seat 0 last took trick 10 (index 9), seat 2 trick 9 -> seat 2 scores.
    ([35, 50, 35], [4, 3, 3], [0, 1, 2] * 3 + [0], 1, ([0, 0, 2], 2, "fewest pips, tie")),
])
def test_ramsch_result_rules(pips: list[int], tricks: list[int], winners: list[int], dealer: int,
                             expected: tuple) -> None:
    assert ramsch_result(pips, tricks, winners, dealer) == expected


# -- the game ----------------------------------------------------------------------------
def test_the_next_deal_rotates_the_dealer_and_shows_no_card_of_the_last() -> None:
    s = new(L2)
    s.apply("pick-up")
    s.apply("TC")
    s.apply("TS")
    play_tricks(s, ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
                    "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"])
    assert s.scores == [4, 0, 0] and not s.is_over
    assert len(s.deals) == 1 and s.deals[0]["deal"] == 1 and s.deals[0]["dealer"] == 2
    v = s.view(N)
    assert s.dealer == 0 and v["elder"] == 1 and s.current_player == 1 and s.phase == "bid"
    assert v["last_trick"] is None
    assert s.deals[0]["final_trick"] == {"cards": [[E, "KH"], [W, "KS"], [N, "8H"]], "winner": E}
    assert v["trick_seq"] == 10 and v["trick"] == [] and v["tricks"] == []
    assert v["last_deal"]["scores"] == [4, 0, 0]
    assert all(len(s.view(p)["hand"]) == 10 for p in range(3))


def test_game_ends_when_a_seat_reaches_the_target() -> None:
    s = new(L2, target=4)
    s.apply("pick-up")
    s.apply("TC")
    s.apply("TS")
    play_tricks(s, ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
                    "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"])
    assert s.is_over and s.winner == N and s.scores == [4, 0, 0]
    assert s.current_player is None and s.legal_actions() == [] and s.phase == "over"
    assert len(s.deals) == 1
    with pytest.raises(parlour.IllegalAction, match="game is over"):
        s.apply("pass")
    v = s.view(E)
    assert v["is_over"] and v["winner"] == N and "legal_actions" not in v


def test_game_does_not_end_below_the_target() -> None:
    s = new(L2, target=5)
    s.apply("pick-up")
    s.apply("TC")
    s.apply("TS")
    play_tricks(s, ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
                    "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"])
    assert not s.is_over and s.winner is None and s.scores == [4, 0, 0]


def test_ramsch_skat_shown_only_after_the_last_trick() -> None:
    s = new(L2)
    for _ in range(3):
        s.apply("pass")
    tricks = ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AC 8C", "JC KC 7C", "JS 9C AS",
              "JH 9H KS", "JD KH 9S", "7H TH 8S", "AH 7S 8H"]
    for trick in tricks[:-1]:
        play_tricks(s, [trick])
        for seat in range(3):
            text = json.dumps(s.view(seat))
            assert '"TC"' not in text and '"TS"' not in text
    play_tricks(s, tricks[-1:])
    assert s.view(W)["last_deal"]["skat"] == ["TC", "TS"]


def test_solo_summary_does_not_show_the_discard_cards() -> None:
    d = _solo_l4(("AC", "TC"), ["QC JS 9D", "QS JH 8D", "QH AD 7D", "QD TD JD",
                                "7H AH 7C", "TH 8C 8H", "KH 9C 9H", "TS 9S 7S", "KS KC 8S", "JC KD AS"])
    assert "skat" not in d and "discard" not in d
    assert '"AC"' not in json.dumps(d) and '"TC"' not in json.dumps(d)


# -- illegal actions and their reasons --------------------------------------------------
def test_illegal_actions_explain_themselves() -> None:
    s = new(L5)
    with pytest.raises(parlour.IllegalAction, match="pick-up or pass"):
        s.apply("QC")
    with pytest.raises(parlour.IllegalAction):
        s.apply("pickup")
    for _ in range(3):
        s.apply("pass")
    with pytest.raises(parlour.IllegalAction, match="you do not hold AH"):
        s.apply("AH")
    with pytest.raises(parlour.IllegalAction, match="not a card code"):
        s.apply("pass")
    with pytest.raises(parlour.IllegalAction, match="not a card code"):
        s.apply("qc")
    before = s.to_json()
    with pytest.raises(ValueError):
        s.apply("XX")
    assert s.to_json() == before


def test_replay_deal_deals_the_same_cards_again() -> None:
    s = new(L2)
    s.apply("pick-up")
    s.apply("TC")
    s.apply("TS")
    play_tricks(s, ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
                    "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"])
    assert s.can_replay_deal
    s.replay_deal()
    assert s.dealer == 2 and s.current_player == N
    assert s.view(N)["hand"] == ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "8H", "7H"]
    assert s.scores == [4, 0, 0] and s.view(N)["trick_seq"] == 10
    again = parlour.from_json(s.to_json())
    assert again.view(N) == s.view(N)


def test_the_next_pack_follows_the_seeding_contract_whenever_it_is_looked_at() -> None:
    tricks = ["QC AD 9D", "QS TD 8D", "QH KD 7D", "QD AH 8C", "JC AC 7C", "JS KC 9S",
              "JH 9C 8S", "JD 9H 7S", "7H TH AS", "KH KS 8H"]
    expected = list(PACK_32)  # the state's second shuffle (k = 1: k = 0 was the given first pack)
    random.Random(int.from_bytes(hashlib.sha256(b"parlour-deal 5 1").digest(), "big")).shuffle(expected)
    s = parlour.load("schafkopf").new_state(seed=5, deck=L2, dealer=2)
    for action in ["pick-up", "TC", "TS"] + " ".join(tricks).split():
        s.apply(action)
    copy = s.clone()
    record = s.to_json()
    assert s.current_pack() == expected and s.dealer == 0
    copy.apply("pass")  # the clone deals the same pack when it is first used
    assert copy.current_pack() == expected
    again = parlour.from_json(record)
    assert again.view(2) == s.view(2)
    assert again.deal_is_fresh and again.can_replay_deal
