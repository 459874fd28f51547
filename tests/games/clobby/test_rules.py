"""Clobby: one test per rule of RULES.md, with packs built by hand so we know who holds what.

Seat 1 deals in every hand-built pack below, so seat 0 is elder: it bids first and leads
the first trick.  ``build`` lays out the pack exactly as RULES.md deals it.
"""

from __future__ import annotations

import json

import pytest

import parlour
from helpers.clobby import DEAL_A, DEAL_B, DEAL_C, DIX_DECK, DIX_ELDER, DIX_NOBODY, build, new, play
from parlour.games.clobby.rules import PACK, meld_key, runs, shown_cards


# -- the game and its options ------------------------------------------------------------
def test_load_defaults_and_metadata() -> None:
    game = parlour.load("clobby")
    assert game.options == {"game_point": 500, "no_tie": False, "clubs_preferred": False, "tout_atout": False}
    assert game.num_players == 2
    assert sorted(game.PACK) == sorted(r + s for s in "CDHS" for r in "789TJQKA")
    assert game.title and game.description


@pytest.mark.parametrize("bad", [{"game_point": 99}, {"game_point": 10000}, {"game_point": "500"},
                                 {"game_point": True}, {"no_tie": 1}, {"tout_atout": "yes"},
                                 {"clubs_preferred": None}, {"jokers": True}])
def test_bad_options_are_value_errors(bad: dict) -> None:
    with pytest.raises(ValueError):
        parlour.load("clobby", **bad)


@pytest.mark.parametrize("gp", [100, 9999])
def test_game_point_range_ends_inclusive(gp: int) -> None:
    assert parlour.load("clobby", game_point=gp).options["game_point"] == gp


def test_bad_deck_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parlour.load("clobby").new_state(deck=DEAL_A[:-1] + ["6C"], dealer=1)


# -- the deal ------------------------------------------------------------------------------
def test_deal_three_at_a_time_elder_first_then_upcard() -> None:
    deck = list(PACK)  # 7C 8C 9C TC JC QC KC AC 7D 8D ...
    s = parlour.load("clobby").new_state(deck=deck, dealer=0)  # seat 1 is elder
    assert s.current_player == 1
    assert sorted(s.view(1)["hand"]) == sorted(deck[0:3] + deck[6:9])
    assert sorted(s.view(0)["hand"]) == sorted(deck[3:6] + deck[9:12])
    assert s.view(0)["upcard"] == deck[12] == "JD"
    assert s.view(0)["elder"] == 1 and s.view(0)["dealer"] == 0


def test_second_deal_one_at_a_time_after_trumps_are_fixed() -> None:
    s = new(DEAL_A)
    assert len(s.view(0)["hand"]) == 6 and len(s.view(1)["hand"]) == 6
    s.apply("take")
    # elder gets cards 13, 15, 17 (AH KS 9C), dealer 14, 16, 18 (TH QS JS)
    assert sorted(s.view(0)["hand"]) == sorted("JH 9H AS TS 7C 8C AH KS 9C".split())
    assert sorted(s.view(1)["hand"]) == sorted("KH QH AD TD 9S 8S TH QS JS".split())


def test_hand_display_order_trumps_first() -> None:
    s = new(DEAL_A)
    s.apply("take")
    assert s.view(0)["hand"] == ["JH", "9H", "AH", "9C", "8C", "7C", "AS", "TS", "KS"]
    assert s.view(1)["hand"] == ["TH", "KH", "QH", "AD", "TD", "QS", "JS", "9S", "8S"]


def test_dealer_rotates_after_every_deal_and_seed_draws_first_dealer() -> None:
    s = new(DEAL_A)
    play(s, "schmeiss accept")  # thrown in
    assert s.dealer == 0 and s.current_player == 1
    a = parlour.load("clobby").new_state(seed=42)
    b = parlour.load("clobby").new_state(seed=42)
    assert a.dealer == b.dealer and a.view(0)["hand"] == b.view(0)["hand"]


# -- bidding, round 1 -----------------------------------------------------------------------
def test_round1_actions_and_take_by_elder() -> None:
    s = new(DEAL_A)
    assert s.phase == "round 1"
    assert s.legal_actions() == ["take", "pass", "schmeiss"]
    s.apply("take")
    v = s.view(1)
    assert v["maker"] == 0 and v["trump"] == "H"
    assert v["bids"] == [[0, "take"]]
    assert s.phase == "play" and s.current_player == 0


def test_round1_pass_then_dealer_takes() -> None:
    s = new(DEAL_A)
    s.apply("pass")
    assert s.current_player == 1 and s.legal_actions() == ["take", "pass", "schmeiss"]
    s.apply("take")
    assert s.view(0)["maker"] == 1 and s.view(0)["trump"] == "H"
    assert s.current_player == 0  # elder leads whoever made


def test_round1_schmeiss_accepted_throws_the_deal_in() -> None:
    s = new(DEAL_A)
    s.apply("schmeiss")
    assert s.phase == "schmeiss" and s.current_player == 1
    assert s.legal_actions() == ["accept", "refuse"]
    s.apply("accept")
    d = s.deals[-1]
    assert d["thrown_in"] and d["scores"] == [0, 0] and d["maker"] is None and not d["bete"]
    assert d["reason"] == "schmeiss accepted"
    assert s.scores == [0, 0]
    assert s.dealer == 0 and s.phase == "round 1" and s.current_player == 1
    assert len(s.view(0)["hand"]) == 6


def test_round1_schmeiss_refused_makes_the_schmeisser_maker() -> None:
    s = new(DEAL_A)
    play(s, "schmeiss refuse")
    v = s.view(0)
    assert v["maker"] == 0 and v["trump"] == "H"
    assert v["bids"] == [[0, "schmeiss"], [1, "refuse"]]


def test_round1_dealer_schmeiss_is_answered_by_elder() -> None:
    s = new(DEAL_A)
    play(s, "pass schmeiss")
    assert s.current_player == 0 and s.legal_actions() == ["accept", "refuse"]
    s.apply("refuse")
    assert s.view(0)["maker"] == 1 and s.view(0)["trump"] == "H"


# -- bidding, round 2 -----------------------------------------------------------------------
def test_round2_names_the_three_other_suits() -> None:
    s = new(DEAL_B)  # upcard 8D
    play(s, "pass pass")
    assert s.phase == "round 2" and s.current_player == 0
    assert s.legal_actions() == ["name C", "name H", "name S", "pass", "schmeiss"]
    s.apply("pass")
    assert s.current_player == 1
    assert s.legal_actions() == ["name C", "name H", "name S", "pass", "schmeiss"]
    s.apply("name C")
    v = s.view(0)
    assert v["maker"] == 1 and v["trump"] == "C" and s.phase == "play"


def test_round2_both_pass_throws_in() -> None:
    s = new(DEAL_B)
    play(s, "pass pass pass pass")
    d = s.deals[-1]
    assert d["thrown_in"] and d["scores"] == [0, 0] and d["reason"] == "both passed twice"
    assert s.dealer == 0 and len(s.deals) == 1


def test_round2_refused_schmeiss_obliges_a_plain_name() -> None:
    s = new(DEAL_B, tout_atout=True)
    play(s, "pass pass schmeiss refuse")
    assert s.phase == "name" and s.current_player == 0
    assert s.legal_actions() == ["name C", "name H", "name S"]  # never sans-tout or tout-atout
    s.apply("name S")
    assert s.view(1)["maker"] == 0 and s.view(1)["trump"] == "S"


def test_round2_dealer_schmeiss_refused_dealer_names() -> None:
    s = new(DEAL_B)
    play(s, "pass pass pass schmeiss")
    assert s.current_player == 0
    s.apply("refuse")
    assert s.current_player == 1 and s.legal_actions() == ["name C", "name H", "name S"]
    s.apply("name H")
    assert s.view(0)["maker"] == 1 and s.view(0)["trump"] == "H"


def test_round2_schmeiss_accepted_throws_in() -> None:
    s = new(DEAL_B)
    play(s, "pass pass schmeiss accept")
    assert s.deals[-1]["thrown_in"] and s.deals[-1]["reason"] == "schmeiss accepted"


def test_upcard_suit_cannot_be_named() -> None:
    s = new(DEAL_B)
    play(s, "pass pass")
    before = s.to_json()
    with pytest.raises(parlour.IllegalAction, match="other suits"):
        s.apply("name D")
    assert s.to_json() == before


# -- tout atout option -------------------------------------------------------------------------
def test_tout_atout_option_adds_sans_tout_and_tout_atout_in_round2_only() -> None:
    s = new(DEAL_C, tout_atout=True)
    assert s.legal_actions() == ["take", "pass", "schmeiss"]
    play(s, "pass pass")
    assert s.legal_actions() == ["name D", "name H", "name S", "name sans-tout", "name tout-atout",
                                 "pass", "schmeiss"]


def test_sans_tout_overcalled_by_tout_atout() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass name sans-tout")
    assert s.phase == "overcall" and s.current_player == 1
    assert s.legal_actions() == ["tout-atout", "pass"]
    s.apply("tout-atout")
    assert s.view(0)["maker"] == 1 and s.view(0)["trump"] == "tout-atout"


def test_sans_tout_passed_makes_the_namer_maker() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass name sans-tout pass")
    assert s.view(0)["maker"] == 0 and s.view(0)["trump"] == "sans-tout"
    assert s.phase == "play"


def test_dealer_names_sans_tout_elder_answers() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass pass name sans-tout")
    assert s.current_player == 0 and s.legal_actions() == ["tout-atout", "pass"]
    s.apply("tout-atout")
    assert s.view(0)["maker"] == 0 and s.view(0)["trump"] == "tout-atout"


def test_name_tout_atout_directly() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass name tout-atout")
    assert s.view(0)["maker"] == 0 and s.view(0)["trump"] == "tout-atout" and s.phase == "play"


def test_no_sans_tout_without_the_option() -> None:
    s = new(DEAL_C)
    play(s, "pass pass")
    with pytest.raises(parlour.IllegalAction):
        s.apply("name sans-tout")


# -- clubs preferred ---------------------------------------------------------------------------
def test_clubs_preferred_no_upcard_round1_about_clubs_second_deal_from_12() -> None:
    deck = build("7C 8C 9C AD TD KD", "JH 9H AH TS KS QS", None, "JC 7H 8H", "AS 9S 7D")
    s = new(deck, clubs_preferred=True)
    v = s.view(0)
    assert v["upcard"] is None and v["bid_suit"] == "C"
    s.apply("take")
    assert s.view(1)["trump"] == "C" and s.phase == "play"  # no dix with clubs preferred, though elder holds 7C
    assert sorted(s.view(0)["hand"]) == sorted("7C 8C 9C AD TD KD JC 7H 8H".split())
    assert sorted(s.view(1)["hand"]) == sorted("JH 9H AH TS KS QS AS 9S 7D".split())


def test_clubs_preferred_round2_names_d_h_s() -> None:
    deck = build("7C 8C 9C AD TD KD", "JH 9H AH TS KS QS", None, "JC 7H 8H", "AS 9S 7D")
    s = new(deck, clubs_preferred=True)
    play(s, "pass pass")
    assert s.legal_actions() == ["name D", "name H", "name S", "pass", "schmeiss"]
    play(s, "pass schmeiss refuse")
    assert s.legal_actions() == ["name D", "name H", "name S"]


# -- the dix -----------------------------------------------------------------------------------
# RULES.md: both are asked, elder first, then dealer; the holder of the 7 of trumps chooses
# exchange or keep, a player without it only keep; both are asked even when the 7 is undealt.
# DIX_DECK: the dealer holds 7S; DIX_ELDER: elder gets it in the second deal; DIX_NOBODY: undealt.


def test_dix_both_asked_elder_first_the_holder_may_exchange() -> None:
    s = new(DIX_DECK)
    s.apply("take")  # elder makes spades; the dealer (not the maker) holds 7S
    assert s.phase == "dix" and s.current_player == 0
    assert s.legal_actions() == ["keep"]  # elder has no 7S: only keep
    assert s.view(1)["dix"] == {"answers": [], "exchanged_by": None}
    s.apply("keep")
    assert s.phase == "dix" and s.current_player == 1
    assert s.legal_actions() == ["exchange", "keep"]
    assert len(s.view(1)["hand"]) == 9
    s.apply("exchange")
    assert "TS" in s.view(1)["hand"] and "7S" not in s.view(1)["hand"]
    v = s.view(0)
    assert v["dix"] == {"answers": [[0, "keep"], [1, "exchange"]], "exchanged_by": 1} and v["upcard"] == "TS"
    assert s.phase == "play" and s.current_player == 0
    assert s.actions == ["take", "keep", "exchange"]
    assert v["bids"] == [[0, "take"]]  # the dix answers are not bids


def test_dix_keep() -> None:
    s = new(DIX_DECK)
    play(s, "take keep keep")
    assert "7S" in s.view(1)["hand"] and "TS" not in s.view(1)["hand"]
    assert s.view(0)["dix"] == {"answers": [[0, "keep"], [1, "keep"]], "exchanged_by": None}
    assert s.phase == "play" and s.current_player == 0


def test_dix_after_refused_round1_schmeiss() -> None:
    s = new(DIX_DECK)
    play(s, "pass schmeiss refuse")
    assert s.view(0)["maker"] == 1 and s.phase == "dix" and s.current_player == 0
    assert s.legal_actions() == ["keep"]
    s.apply("keep")
    assert s.current_player == 1 and s.legal_actions() == ["exchange", "keep"]


def test_dix_comes_from_the_second_deal_too_and_the_dealer_is_still_asked() -> None:
    s = new(DIX_ELDER)
    s.apply("take")
    assert s.phase == "dix" and s.current_player == 0 and s.legal_actions() == ["exchange", "keep"]
    s.apply("exchange")
    assert "TS" in s.view(0)["hand"] and "7S" not in s.view(0)["hand"]
    assert s.phase == "dix" and s.current_player == 1 and s.legal_actions() == ["keep"]
    with pytest.raises(parlour.IllegalAction, match="only answer"):
        s.apply("exchange")
    s.apply("keep")
    assert s.view(1)["dix"] == {"answers": [[0, "exchange"], [1, "keep"]], "exchanged_by": 0}
    assert s.phase == "play" and s.current_player == 0


def test_dix_asked_even_when_the_seven_is_undealt() -> None:
    s = new(DIX_NOBODY)
    s.apply("take")
    assert s.phase == "dix" and s.current_player == 0 and s.legal_actions() == ["keep"]
    before = s.to_json()
    with pytest.raises(parlour.IllegalAction):
        s.apply("exchange")
    assert s.to_json() == before
    s.apply("keep")
    assert s.phase == "dix" and s.current_player == 1 and s.legal_actions() == ["keep"]
    s.apply("keep")
    assert s.phase == "play" and s.view(0)["dix"] == {"answers": [[0, "keep"], [1, "keep"]], "exchanged_by": None}


@pytest.mark.parametrize("seat", [0, 1])
def test_being_asked_at_the_dix_tells_nothing_about_the_seven(seat: int) -> None:
    """A seat's views through the dix are the same whether the other seat holds the 7 or nobody does.

    Each pair of packs gives ``seat`` the same cards and moves 7S between the other hand and the stock.
    """
    if seat == 0:
        packs = [DIX_DECK, DIX_NOBODY]  # the dealer holds 7S / 7S undealt (the dealer holds 8S)
    else:
        packs = [DIX_ELDER, DIX_NOBODY]  # elder holds 7S / 7S undealt (elder holds AH)
    seen = []
    for deck in packs:
        s = new(deck)
        views = []
        for action in ("take", "keep", "keep"):
            s.apply(action)
            if s.phase == "dix":
                views.append(json.dumps(s.view(seat), sort_keys=True))
        seen.append(views)
    assert len(seen[0]) == 2 and seen[0] == seen[1]


def test_no_dix_when_the_upcard_is_the_seven() -> None:
    s = new(DEAL_A)  # upcard 7H
    s.apply("take")
    assert s.phase == "play" and s.view(0)["dix"] is None


def test_no_dix_in_round2() -> None:
    deck = build("JS 9S AS 7C 8C 9C", "7S KH QH AD TD 8D", "TH", "AH KS JC", "TS QS JD")
    s = new(deck)
    play(s, "pass pass name S")  # the dealer holds 7S, but spades were named, not taken
    assert s.phase == "play" and s.view(0)["dix"] is None


# -- melds ---------------------------------------------------------------------------------------
def _mask(cards: str) -> int:
    from parlour.games.clobby.rules import INDEX
    m = 0
    for c in cards.split():
        m |= 1 << INDEX[c]
    return m


def test_runs_three_is_20_four_or_more_is_one_50() -> None:
    assert runs(_mask("7H 8H 9H")) == [(3, 2, 2)]
    assert runs(_mask("7H 8H 9H TH")) == [(4, 3, 2)]
    assert runs(_mask("7H 8H 9H TH JH QH KH")) == [(7, 6, 2)]  # one meld
    assert runs(_mask("7H 8H 9H JH QH KH")) == [(3, 2, 2), (3, 6, 2)]  # a gap makes two
    assert runs(_mask("7H 8H TH JH")) == []
    assert runs(_mask("QS KS AS 7C 8C 9C")) == [(3, 2, 0), (3, 7, 3)]
    assert shown_cards((7, 6, 2)) == ["TH", "9H", "8H", "7H"]  # a long run shows its lowest four
    assert shown_cards((3, 7, 3)) == ["AS", "KS", "QS"]


def test_meld_key_orders_length_top_trump() -> None:
    assert meld_key((5, 4, 3), 0) == meld_key((4, 4, 3), 0)  # length counts up to 4
    assert meld_key((4, 5, 1), 0) > meld_key((5, 4, 3), 0)
    assert meld_key((3, 4, 0), 0) > meld_key((3, 4, 1), 0)  # trump run beats a plain one


def _meld_deal(e9: str, d9: str, up: str = "7D", **options: object) -> parlour.State:
    e, d = e9.split(), d9.split()
    s = new(build(" ".join(e[:6]), " ".join(d[:6]), up, " ".join(e[6:]), " ".join(d[6:])), **options)
    play(s, "take")
    if up[0] != "7":  # the dix is asked, elder then dealer: both keep here
        play(s, "keep keep")
    return s


def test_meld_comparison_longer_wins() -> None:
    s = _meld_deal("7C 8C 9C JD QD KD AH 7H 8H", "8S 9S TS JS KH AS 9D TD QC")
    assert s.view(0)["meld_winner"] == 1  # four spades beat three-card runs with higher tops


def test_meld_comparison_length_counts_up_to_four_then_top_card() -> None:
    # elder 7S-JS (five, top J); dealer 9H-QH (four, top Q): the dealer's higher top wins
    s = _meld_deal("7S 8S 9S TS JS 7C 8D 9D KC", "9H TH JH QH AC TC KD QD AS")
    assert s.view(0)["meld_winner"] == 1


def test_meld_comparison_trump_breaks_a_tie_of_length_and_top() -> None:
    # trump diamonds (upcard 7D taken): dealer's 9D TD JD beats elder's 9C TC JC
    s = _meld_deal("9C TC JC 7S 8S AH KS QH 8H", "9D TD JD AS TS KH QS 7H KC", up="7D")
    assert s.view(0)["meld_winner"] == 1 and not s.view(0)["meld_tied"]


def test_meld_tie_nobody_scores_unless_no_tie() -> None:
    e9, d9 = "9C TC JC 7S 8S AH KS QH AD", "9H TH JH 7C 8C AS TS KD QD"
    s = _meld_deal(e9, d9, up="8D")
    v = s.view(0)
    assert v["meld_winner"] is None and v["meld_tied"]
    s2 = _meld_deal(e9, d9, up="8D", no_tie=True)
    assert s2.view(1)["meld_winner"] == 0 and s2.view(1)["meld_tied"]


def test_no_melds_at_all() -> None:
    s = _meld_deal("7C 9C JC 7S 9S AH KS QH AD", "9H JH KH 8H 8C AS TS KD QD", up="8D")
    v = s.view(0)
    assert s.phase == "play" and v["melds_compared"]
    assert v["meld_winner"] is None and not v["meld_tied"]


def test_melds_shown_and_scored_after_the_first_trick() -> None:
    s = new(DEAL_A)
    s.apply("take")
    v = s.view(1)
    assert v["meld_winner"] == 0 and not v["melds_shown"]
    assert v["melds"] == [[], []] and v["points"] == [0, 0]
    s.apply("JH")
    assert s.view(1)["melds"] == [[], []]  # not before the trick is complete
    s.apply("QH")
    v = s.view(1)
    assert v["melds_shown"]
    assert v["melds"] == [[{"cards": ["9C", "8C", "7C"], "points": 20}], []]
    assert v["points"] == [23 + 20, 0]


def test_winner_scores_all_melds_loser_none() -> None:
    # elder: 7C 8C 9C and JD QD KD; dealer: 9H TH JH QH (four)
    s = _meld_deal("7C 8C 9C JD QD KD 7S 8S AS", "9H TH JH QH AC TC KS QS AD", up="7H")
    assert s.view(0)["meld_winner"] == 1
    s2 = _meld_deal("7C 8C 9C JD QD KD 9H TH JH", "7S 8S 9S QH AC TC KS QS AD", up="7H")
    assert s2.view(0)["meld_winner"] == 0
    play(s2, "JH QH")  # trump hearts; elder's jass takes
    assert [m["points"] for m in s2.view(1)["melds"][0]] == [20, 20, 20]
    assert s2.view(1)["melds"][1] == []


# -- play obligations ----------------------------------------------------------------------------
def test_must_follow_suit() -> None:
    s = new(DEAL_A)
    play(s, "take AS")
    assert s.legal_actions() == ["QS", "JS", "9S", "8S"]
    before = s.to_json()
    with pytest.raises(parlour.IllegalAction, match="follow suit"):
        s.apply("AD")
    assert s.to_json() == before


def test_trump_led_must_be_beaten_if_able() -> None:
    s = new(DIX_DECK)
    play(s, "take keep exchange")  # spades; dealer: TS KH QH AD TD 8D TH QS JD
    s.apply("7C")
    assert s.legal_actions() == ["TS", "QS"]  # void in clubs: must trump, any trump
    s.apply("QS")
    assert s.view(0)["last_trick"]["winner"] == 1
    s.apply("TS")  # elder holds JS 9S AS KS: only the first three beat the ten
    assert s.legal_actions() == ["JS", "9S", "AS"]
    before = s.to_json()
    with pytest.raises(parlour.IllegalAction, match="beat"):
        s.apply("KS")
    with pytest.raises(parlour.IllegalAction, match="follow suit"):
        s.apply("9C")
    assert s.to_json() == before


def test_trump_led_cannot_beat_plays_any_trump() -> None:
    s = new(DEAL_A)
    play(s, "take JH")
    assert s.legal_actions() == ["TH", "KH", "QH"]


def test_void_must_trump_and_then_any_trump() -> None:
    s = new(DEAL_A)
    play(s, "take AS QS TS 9S KS JS 7C")
    assert s.legal_actions() == ["TH", "KH", "QH"]
    with pytest.raises(parlour.IllegalAction, match="trump"):
        s.apply("AD")


def test_void_and_no_trump_plays_anything() -> None:
    s = new(DEAL_A)
    play(s, "take JH QH 9H KH AH TH 7C")
    assert s.legal_actions() == ["AD", "TD", "QS", "JS", "9S", "8S"]


def test_plain_suit_follower_need_not_beat() -> None:
    s = new(DEAL_B)
    play(s, "pass pass name S JS AS 9S 7C KC")
    assert s.legal_actions() == ["AC", "JC", "9C"]  # the ace beats the king, the others need not


def test_trick_winner_highest_trump_else_highest_of_suit_led() -> None:
    s = new(DEAL_A)
    play(s, "take AS QS")  # plain: A beats Q
    assert s.view(0)["last_trick"] == {"cards": [[0, "AS"], [1, "QS"]], "winner": 0}
    play(s, "7C TH")  # trump beats plain
    assert s.view(0)["last_trick"]["winner"] == 1
    play(s, "AD 9H")  # elder, void in diamonds, must trump and wins
    assert s.view(0)["last_trick"]["winner"] == 0
    assert s.view(0)["trick_seq"] == 3


def test_not_your_card_is_illegal() -> None:
    s = new(DEAL_A)
    s.apply("take")
    with pytest.raises(parlour.IllegalAction, match="do not hold"):
        s.apply("TH")
    with pytest.raises(parlour.IllegalAction):
        s.apply("XX")
    with pytest.raises(parlour.IllegalAction):
        s.apply("take")
    with pytest.raises(parlour.IllegalAction):
        s.apply(["JH"])  # type: ignore[arg-type]
    s2 = new(DEAL_A)
    with pytest.raises(parlour.IllegalAction):
        s2.apply(None)  # type: ignore[arg-type]


# -- bella ---------------------------------------------------------------------------------------
def test_bella_only_with_the_second_of_king_and_queen_of_trumps() -> None:
    s = new(DEAL_A)
    play(s, "take JH")
    assert "QH+bella" not in s.legal_actions() and "KH+bella" not in s.legal_actions()
    play(s, "QH 9H")
    assert s.legal_actions() == ["TH", "KH", "KH+bella"]
    s.apply("KH+bella")
    v = s.view(0)
    assert v["bella"] == [[1, "H"]] and v["points"][1] == 20


def test_bella_may_be_withheld() -> None:
    s = new(DEAL_A)
    play(s, "take JH QH 9H KH")
    assert s.view(0)["bella"] == [] and s.view(0)["points"][1] == 0


def test_bella_needs_the_same_player_to_play_both() -> None:
    # elder holds KH, dealer QH; trump hearts
    deck = build("JH KH AS TS 7C 8C", "9H QH AD TD 9S 8S", "7H", "AH KS 9C", "TH QS JS")
    s = new(deck)
    play(s, "take KH 9H")  # dealer's menel beats the king
    assert "QH" in s.legal_actions()
    assert not any(a.endswith("+bella") for a in s.legal_actions())


def test_bella_not_for_plain_king_and_queen() -> None:
    s = new(DEAL_B)  # spades trump; elder plays KC then QC
    play(s, "pass pass name S JS AS 9S 7C KC AC TH 7H QH 8H JH 7S")
    assert "QC" in s.legal_actions() and not any(a.endswith("+bella") for a in s.legal_actions())


# -- a complete deal, card by card: maker makes --------------------------------------------------
def test_complete_deal_a_maker_makes() -> None:
    s = new(DEAL_A)
    s.apply("take")
    steps = [
        ("JH", ["JH", "9H", "AH", "9C", "8C", "7C", "AS", "TS", "KS"]),
        ("QH", ["TH", "KH", "QH"]),
        ("9H", None), ("KH+bella", ["TH", "KH", "KH+bella"]),
        ("AH", None), ("TH", ["TH"]),
        ("AS", None), ("8S", ["QS", "JS", "9S", "8S"]),
        ("TS", None), ("9S", None),
        ("KS", None), ("JS", ["QS", "JS"]),
        ("7C", None), ("QS", ["AD", "TD", "QS"]),  # dealer out of trumps and clubs: a discard, which loses
        ("8C", None), ("TD", None),
        ("9C", None), ("AD", ["AD"]),
    ]
    for action, legal in steps:
        if legal is not None:
            assert s.legal_actions() == legal
        s.apply(action)
    d = s.deals[-1]
    # elder's tricks: 23 + 18 + 21 + 11 + 10 + 6 + 3 + 10 + 11 = 113, +10 last trick, +20 clubs run
    assert d["card_points"] == [123, 0]
    assert d["meld_points"] == [20, 0] and d["bella"] == [0, 20]
    assert d["points"] == [143, 20]
    assert d["scores"] == [143, 20] and not d["bete"] and not d["thrown_in"]
    assert d["maker"] == 0 and d["trump"] == "H" and d["meld_winner"] == 0 and d["last_trick"] == 0
    assert d["melds"] == [[{"cards": ["9C", "8C", "7C"], "points": 20}], []]
    assert s.scores == [143, 20] and not s.is_over
    assert s.dealer == 0 and s.phase == "round 1"
    assert s.view(0)["last_trick"] is None  # a new deal shows no card of the previous one
    assert d["final_trick"] == {"cards": [[0, "9C"], [1, "AD"]], "winner": 0}
    assert s.view(0)["trick_seq"] == 9 and s.view(0)["tricks"] == []
    json.dumps(s.view(0))


# -- a complete deal: the maker is bete -----------------------------------------------------------
def test_complete_deal_b_maker_bete() -> None:
    s = new(DEAL_B)
    play(s, "pass pass name S")
    assert s.view(0)["meld_winner"] == 1  # dealer's 9H-QH (top Q) beats elder's 7S-JS (top J)
    tricks = [
        ("JS", "AS", 0), ("9S", "7C", 0), ("KC", "AC", 1), ("TH", "7H", 1), ("QH", "8H", 1),
        ("JH", "7S", 0), ("QC", "9C", 0), ("TS", "9H", 0), ("8S", "JC", 0),
    ]
    for lead, follow, winner in tricks:
        s.apply(lead)
        if lead == "JS":
            assert s.legal_actions() == ["AS"]
        if lead == "JH":
            assert s.legal_actions() == ["TS", "8S", "7S"]  # void in hearts: must trump, any trump
        s.apply(follow)
        if lead == "JS":
            assert s.view(0)["melds"][1] == [{"cards": ["QH", "JH", "TH", "9H"], "points": 50}]
        if len(s.deals) == 0:
            assert s.view(0)["tricks"][-1]["winner"] == winner
    d = s.deals[-1]
    # elder: 31 + 14 + 2 + 3 + 10 + 2 = 62 + 10 last; dealer 15 + 10 + 3 = 28 + 50 melds
    assert d["card_points"] == [72, 28] and d["meld_points"] == [0, 50]
    assert d["points"] == [72, 78]
    assert d["bete"] and d["scores"] == [0, 150] and d["maker"] == 0 and d["trump"] == "S"
    assert s.scores == [0, 150]


# -- a complete deal at tout atout ---------------------------------------------------------------
def test_complete_deal_c_tout_atout() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass name sans-tout tout-atout")
    v = s.view(0)
    assert v["trump"] == "tout-atout" and v["maker"] == 1 and v["meld_winner"] == 0
    assert v["hand"] == ["JC", "9C", "8D", "7D", "AH", "TH", "KH", "QH", "7S"]  # trump order in every suit
    s.apply("JC")
    assert s.legal_actions() == ["8C"]  # follow, cannot beat
    s.apply("8C")
    assert s.view(1)["melds"][0] == [{"cards": ["AH", "KH", "QH"], "points": 20}]
    s.apply("9C")
    assert len(s.legal_actions()) == 8  # void: any card
    s.apply("JH")  # competes by rank: J beats 9
    assert s.view(0)["last_trick"]["winner"] == 1
    s.apply("JD")
    assert s.legal_actions() == ["8D", "7D"]
    play(s, "7D 9D 8D AD AH")  # equal rank: the leader wins
    assert s.view(0)["last_trick"]["winner"] == 1
    s.apply("TD")
    play(s, "TH")
    s.apply("9H")
    assert s.legal_actions() == ["KH", "QH"]  # must follow; cannot beat the 9
    play(s, "KH KS 7S QS")
    assert s.legal_actions() == ["QH", "QH+bella"]  # bella in any suit at tout atout
    s.apply("QH+bella")
    d = s.deals[-1]
    # elder: 20 (first trick) + 20 melds + 20 bella; dealer 34+20+14+22+20+18+4+6 = 138 + 10
    assert d["card_points"] == [20, 148] and d["bella"] == [20, 0] and d["meld_points"] == [20, 0]
    assert d["points"] == [60, 148] and d["scores"] == [60, 148] and not d["bete"]
    assert d["trump"] == "tout-atout" and d["maker"] == 1


# -- sans tout ----------------------------------------------------------------------------------
def test_sans_tout_plain_points_no_trumps_no_bella() -> None:
    s = new(DEAL_C, tout_atout=True)
    play(s, "pass pass name sans-tout pass")
    v = s.view(0)
    assert v["hand"] == ["JC", "9C", "8D", "7D", "AH", "TH", "KH", "QH", "7S"]  # plain order everywhere
    play(s, "9C 8C")  # the plain 9 beats the 8: no card points, but elder's AH KH QH shows for 20
    assert s.view(0)["last_trick"]["winner"] == 0 and s.view(0)["points"] == [20, 0]
    s.apply("JC")
    assert len(s.legal_actions()) == 8  # void: any card, nothing to trump with
    s.apply("JH")
    assert s.view(0)["last_trick"]["winner"] == 0 and s.view(0)["points"] == [24, 0]  # plain jacks, 2 each
    play(s, "KH 9H")
    assert "QH" in s.legal_actions() and not any(a.endswith("+bella") for a in s.legal_actions())


# -- equal totals and bete, whoever makes ---------------------------------------------------------
# Elder: JH 7S 8S 9S 7C QD QS AC KC; dealer: 9H AD TD KD 8C TC JS 8D JD; hearts (upcard 7H).
# Elder alone has a run (7S 8S 9S): 20.  Card points of the 18 cards: 41 + 53 = 94.
TIE_DECK = build("JH 7S 8S 9S 7C QD", "9H AD TD KD 8C TC", "7H", "QS AC KC", "JS 8D JD")
# elder wins JH/9H 34, QS/JS 5, QD/8D 3 = 42 + 20 melds; the dealer the rest, 52 + last trick 10
TIE_PLAY = "JH 9H QS JS QD 8D KC TC AD 7S TD 8S KD 9S 8C 7C JD AC"
# elder wins JH/9H 34 and AC/8C 11 = 45 + 20; dealer 14 + 14 + 10 + 7 + 2 + 2 + 0 + 10 = 59
SPLIT_PLAY = "JH 9H AC 8C KC TC AD QD TD 7C KD QS JD 7S JS 8S 8D 9S"


def test_equal_totals_elder_maker_scores_nothing() -> None:
    s = new(TIE_DECK)
    s.apply("take")
    play(s, TIE_PLAY)
    d = s.deals[-1]
    assert d["points"] == [62, 62] and d["scores"] == [0, 62] and not d["bete"]


def test_equal_totals_dealer_maker_scores_nothing() -> None:
    s = new(TIE_DECK)
    play(s, "pass take")
    play(s, TIE_PLAY)
    d = s.deals[-1]
    assert d["points"] == [62, 62] and d["scores"] == [62, 0] and not d["bete"]


def test_maker_ahead_both_score() -> None:
    s = new(TIE_DECK)
    s.apply("take")
    play(s, SPLIT_PLAY)
    d = s.deals[-1]
    assert d["points"] == [65, 59] and d["scores"] == [65, 59] and not d["bete"]


def test_dealer_maker_behind_is_bete() -> None:
    s = new(TIE_DECK)
    play(s, "pass take")
    play(s, SPLIT_PLAY)
    d = s.deals[-1]
    assert d["points"] == [65, 59] and d["bete"] and d["scores"] == [124, 0] and d["maker"] == 1
    assert s.scores == [124, 0]


# -- the game ---------------------------------------------------------------------------------
def _finish_deal_a(s: parlour.State) -> None:
    play(s, "take JH QH 9H KH+bella AH TH AS 8S TS 9S KS JS 7C QS 8C TD 9C AD")


def test_game_ends_when_a_player_reaches_game_point() -> None:
    s = new(DEAL_A, game_point=143)
    _finish_deal_a(s)
    assert s.is_over and s.winner == 0 and s.current_player is None and s.legal_actions() == []
    assert s.phase == "over" and s.deals[-1]["game_over"] and s.deals[-1]["winner"] == 0
    with pytest.raises(parlour.IllegalAction, match="over"):
        s.apply("take")
    v = s.view(1)
    assert v["is_over"] and v["winner"] == 0 and "legal_actions" not in v


def test_game_goes_on_below_game_point() -> None:
    s = new(DEAL_A, game_point=144)
    _finish_deal_a(s)
    assert not s.is_over and s.winner is None


def test_both_over_game_point_the_higher_wins() -> None:
    s = new(DEAL_A, game_point=100)
    s._scores = [0, 90]  # white box: as if earlier deals had been played
    _finish_deal_a(s)  # 143 against 110
    assert s.scores == [143, 110] and s.is_over and s.winner == 0


def test_both_over_game_point_and_equal_play_on() -> None:
    s = new(DEAL_A, game_point=100)
    s._scores = [0, 123]
    _finish_deal_a(s)  # 143 each
    assert s.scores == [143, 143] and not s.is_over and s.winner is None
    assert s.phase == "round 1"


# -- views -------------------------------------------------------------------------------------
def test_view_contents_and_privacy() -> None:
    s = new(DEAL_A)
    v0, v1 = s.view(0), s.view(1)
    assert v0["legal_actions"] == ["take", "pass", "schmeiss"] and "legal_actions" not in v1
    assert v0["upcard"] == "7H" and v0["trump"] is None and v0["maker"] is None
    assert v0["opponent_cards"] == 6
    text = json.dumps(v0)
    for c in s.view(1)["hand"]:
        assert f'"{c}"' not in text
    undealt = [c for c in PACK if c not in s.view(0)["hand"] + s.view(1)["hand"] + ["7H"]]
    for c in undealt:
        assert f'"{c}"' not in text
    s.apply("take")
    assert s.view(1)["bids"] == [[0, "take"]]
    assert s.view(1)["opponent_cards"] == 9


def test_action_is_never_private() -> None:
    s = new(DIX_DECK)
    assert not s.action_is_private
    play(s, "take keep")
    assert not s.action_is_private  # the dix exchange is made in the open


def test_why_illegal_messages() -> None:
    s = new(DEAL_A)
    with pytest.raises(parlour.IllegalAction, match="take, pass or schmeiss"):
        s.apply("name C")
    play(s, "take JH QH 9H")
    with pytest.raises(parlour.IllegalAction, match="bella"):
        s.apply("TH+bella")


def test_a_long_run_is_shown_as_its_lowest_four() -> None:
    # elder 7S-JS (five, top J) beats the dealer's 7H-TH (four, top T); trump diamonds
    s = _meld_deal("7S 8S 9S TS JS 7C 8D 9D KC", "9H TH AC TC KD QD AS 8H 7H")
    assert s.view(1)["meld_winner"] == 0
    play(s, "7C TC")
    assert s.view(1)["melds"] == [[{"cards": ["TS", "9S", "8S", "7S"], "points": 50}], []]
    assert "JS" not in json.dumps(s.view(1))
