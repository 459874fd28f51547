"""Six-Bid Solo: every rule of RULES.md with exact decks and hand-computed results.

Most decks are built with ``deck_for`` from the three hands and the widow, with dealer 2 so
that North (0) is elder, East (1) is next and West (2) deals.  Many deals give every player
the same number of cards in each suit, so every trick is a one-suit trick whatever is led
and its winner and pips are easy to follow by hand.
"""

from __future__ import annotations

import pytest

import parlour
from parlour.cards import PACK_36

N, E, W = 0, 1, 2


def deck_for(elder: str, nxt: str, dealer: str, widow: str) -> list[str]:
    """The pack (top first) that deals these hands: batches 4-3-4, widow before the last batch."""
    e, n, d, w = elder.split(), nxt.split(), dealer.split(), widow.split()
    assert len(e) == len(n) == len(d) == 11 and len(w) == 3
    deck = e[0:4] + n[0:4] + d[0:4] + e[4:7] + n[4:7] + d[4:7] + w + e[7:11] + n[7:11] + d[7:11]
    assert sorted(deck) == sorted(PACK_36), "the hands must hold the pack once"
    return deck


def new(deck: list[str], dealer: int = W, chips: int = 1000) -> parlour.State:
    return parlour.load("sixbid", chips=chips).new_state(deck=deck, dealer=dealer)


def play(state: parlour.State, *actions: str) -> None:
    for action in actions:
        state.apply(action)


def play_tricks(state: parlour.State, tricks: list[tuple[str, str, str]]) -> list[int]:
    """Play the tricks (cards in play order) and return each trick's winner."""
    winners = []
    for cards in tricks:
        for card in cards:
            state.apply(card)
        last = state.view(0)["last_trick"]
        if last is None:  # the deal's last trick: views show no card of a finished deal
            last = state.deals[-1]["final_trick"]
        winners.append(last["winner"])
    return winners


def play_out(state: parlour.State) -> None:
    """Finish the deal with each seat's first legal action."""
    deals = len(state.deals)
    while len(state.deals) == deals:
        state.apply(state.legal_actions()[0])


# -- the 60-pip solo deck -------------------------------------------------------------------------------
SOLO60 = deck_for(
    "AS TS KS 8C 7C 6C AH 9H 8H 9D 8D",
    "QS JS 9S AC TC KC TH 7H 6H AD KD",
    "8S 7S 6S QC JC 9C KH QH JH TD 7D",
    "QD JD 6D",
)
SOLO60_TRICKS = [
    ("AS", "QS", "8S"), ("TS", "JS", "7S"), ("KS", "9S", "6S"), ("AH", "TH", "KH"),
    ("9H", "7H", "QH"),  # West wins: 3
    ("JH", "8H", "6H"),  # West leads and wins: 2
    ("TD", "9D", "AD"),  # East wins: 21
    ("KD", "7D", "8D"), ("AC", "QC", "8C"), ("TC", "JC", "7C"), ("KC", "9C", "6C"),
]


# -- the deal -------------------------------------------------------------------------------------------
def test_deal_batches_and_widow_follow_the_pack_order():
    deck = list(PACK_36)
    state = new(deck, dealer=W)
    elder = deck[0:4] + deck[12:15] + deck[24:28]
    nxt = deck[4:8] + deck[15:18] + deck[28:32]
    dealer = deck[8:12] + deck[18:21] + deck[32:36]
    assert sorted(state.view(N)["hand"]) == sorted(elder)
    assert sorted(state.view(E)["hand"]) == sorted(nxt)
    assert sorted(state.view(W)["hand"]) == sorted(dealer)
    play(state, "pass", "pass", "pass")
    assert state.deals[0]["thrown_in"] is True
    assert state.deals[0]["widow"] == deck[21:24]


def test_deal_with_another_dealer_starts_with_his_left():
    deck = list(PACK_36)
    state = new(deck, dealer=N)  # East is elder, West next
    assert state.current_player == E
    assert sorted(state.view(E)["hand"]) == sorted(deck[0:4] + deck[12:15] + deck[24:28])
    assert sorted(state.view(W)["hand"]) == sorted(deck[4:8] + deck[15:18] + deck[28:32])
    assert sorted(state.view(N)["hand"]) == sorted(deck[8:12] + deck[18:21] + deck[32:36])
    assert state.view(N)["elder"] == E


def test_hand_is_shown_trumps_first_then_suits_high_to_low():
    state = new(SOLO60)
    assert state.view(N)["hand"] == ["AS", "TS", "KS", "AH", "9H", "8H", "8C", "7C", "6C", "9D", "8D"]
    play(state, "pass", "pass", "pass")  # thrown in; a fresh deal follows


def test_hand_order_puts_the_trump_suit_first():
    state = new(SOLO60)
    play(state, "solo", "pass", "pass", "trump C")
    assert state.view(N)["hand"] == ["8C", "7C", "6C", "AS", "TS", "KS", "AH", "9H", "8H", "9D", "8D"]


# -- the auction ----------------------------------------------------------------------------------------
def test_all_pass_throws_the_deal_in_and_the_deal_passes_left():
    state = new(SOLO60)
    assert state.phase == "bid" and state.current_player == N
    play(state, "pass")
    assert state.current_player == E
    play(state, "pass")
    assert state.current_player == W
    assert state.legal_actions() == ["solo", "heart", "misere", "guarantee", "spread", "call", "pass"]
    play(state, "pass")
    summary = state.deals[0]
    assert summary["thrown_in"] is True and summary["scores"] == [0, 0, 0]
    assert summary["soloist"] is None and summary["bid"] is None and summary["made"] is None
    assert summary["widow"] == ["QD", "JD", "6D"]
    assert state.scores == [1000, 1000, 1000]
    assert state.dealer == N and state.current_player == E  # new deal, East is elder
    assert state.phase == "bid" and not state.is_over


def test_dealer_alone_bids_once_when_elder_and_next_pass():
    state = new(SOLO60)
    play(state, "pass", "pass", "solo")
    assert state.phase == "declare" and state.current_player == W
    assert state.view(N)["soloist"] == W


def test_elder_against_next_then_survivor_against_dealer():
    state = new(SOLO60)
    play(state, "solo")
    assert state.current_player == E
    assert state.legal_actions() == ["heart", "misere", "guarantee", "spread", "call", "pass"]
    play(state, "heart")
    assert state.current_player == N
    play(state, "misere")
    assert state.current_player == E
    play(state, "pass")  # North survives with misere
    assert state.current_player == W
    assert state.legal_actions() == ["guarantee", "spread", "call", "pass"]
    play(state, "guarantee")
    assert state.current_player == N
    play(state, "pass")
    view = state.view(E)
    assert view["soloist"] == W and view["contract"] == "guarantee"
    assert view["auction"] == [[N, "solo"], [E, "heart"], [N, "misere"], [E, "pass"], [W, "guarantee"], [N, "pass"]]
    assert state.phase == "declare" and state.current_player == W


def test_next_survives_when_elder_passes_first_and_dealer_passes():
    state = new(SOLO60)
    play(state, "pass", "solo")
    assert state.current_player == W
    play(state, "pass")
    assert state.view(N)["soloist"] == E and state.current_player == E


def test_survivor_and_dealer_alternate_until_one_passes():
    state = new(SOLO60)
    play(state, "solo", "pass")
    assert state.current_player == W
    play(state, "heart")
    assert state.current_player == N
    play(state, "misere")
    assert state.current_player == W
    play(state, "spread")
    assert state.current_player == N
    play(state, "pass")
    assert state.view(N)["soloist"] == W and state.view(N)["contract"] == "spread"
    assert state.phase == "play" and state.current_player == N  # the seat after West leads


def test_elder_survives_unopposed_when_next_and_dealer_pass():
    state = new(SOLO60)
    play(state, "solo", "pass", "pass")
    assert state.view(W)["soloist"] == N and state.current_player == N
    assert state.legal_actions() == ["trump C", "trump D", "trump S"]


def test_bids_must_be_strictly_higher():
    state = new(SOLO60)
    play(state, "misere")
    assert state.legal_actions() == ["guarantee", "spread", "call", "pass"]
    for low in ("solo", "heart", "misere"):
        with pytest.raises(parlour.IllegalAction, match="higher than the standing bid"):
            state.apply(low)
    with pytest.raises(parlour.IllegalAction):
        state.apply("trump S")


def test_a_standing_call_leaves_only_pass():
    state = new(SOLO60)
    play(state, "call")
    assert state.legal_actions() == ["pass"]
    play(state, "pass")
    assert state.current_player == W and state.legal_actions() == ["pass"]
    play(state, "pass")
    assert state.view(N)["soloist"] == N and state.phase == "declare"
    assert state.legal_actions() == ["trump C", "trump D", "trump H", "trump S"]


def test_a_passed_player_never_speaks_again():
    state = new(SOLO60)
    play(state, "pass", "solo")  # North is out
    play(state, "heart")  # West against East
    assert state.current_player == E
    play(state, "misere")
    assert state.current_player == W
    play(state, "pass")
    assert state.view(N)["soloist"] == E and state.view(N)["passed"] == [N, W]


# -- declarations -----------------------------------------------------------------------------------------
def test_solo_names_any_trump_but_hearts():
    state = new(SOLO60)
    play(state, "solo", "pass", "pass")
    with pytest.raises(parlour.IllegalAction, match="hearts"):
        state.apply("trump H")
    play(state, "trump D")
    view = state.view(E)
    assert view["trump"] == "D" and view["phase"] == "play" and state.current_player == N


def test_heart_has_hearts_trump_without_a_declaration():
    state = new(SOLO60)
    play(state, "heart", "pass", "pass")
    assert state.phase == "play" and state.current_player == N
    assert state.view(W)["trump"] == "H"
    assert state.view(W)["target"] == 60


def test_misere_has_no_trump_and_elder_leads_even_when_he_is_not_soloist():
    state = new(SOLO60)
    play(state, "pass", "misere", "pass")
    view = state.view(N)
    assert view["contract"] == "misere" and view["trump"] is None and view["soloist"] == E
    assert state.phase == "play" and state.current_player == N


def test_guarantee_target_depends_on_hearts():
    state = new(SOLO60)
    play(state, "guarantee", "pass", "pass", "trump H")
    assert state.view(N)["target"] == 74
    state = new(SOLO60)
    play(state, "guarantee", "pass", "pass", "trump C")
    assert state.view(N)["target"] == 80


# -- play -------------------------------------------------------------------------------------------------
def test_must_follow_suit_and_the_state_is_unchanged_by_an_illegal_card():
    state = new(SOLO60)
    play(state, "solo", "pass", "pass", "trump S", "AH")
    assert state.legal_actions() == ["TH", "7H", "6H"]
    before = (state.to_json(), [state.view(s) for s in range(3)])
    with pytest.raises(parlour.IllegalAction, match="you must follow suit: you hold a heart"):
        state.apply("AD")
    with pytest.raises(parlour.IllegalAction, match="you do not hold"):
        state.apply("KH")
    assert (state.to_json(), [state.view(s) for s in range(3)]) == before


def test_void_player_may_play_any_card_and_trump_wins():
    # North: all nine spades, AH, AD.  East holds no spade and no heart but one.
    state = new(deck_for(
        "AS TS KS QS JS 9S 8S 7S 6S AH AD",
        "TH AC TC KC QC JC 9C 8C 7C 6C TD",
        "KH QH JH 9H 8H 7H 6H KD QD JD 9D",
        "8D 7D 6D",
    ))
    play(state, "pass", "pass", "solo")  # West solo: hearts cannot be named
    assert state.legal_actions() == ["trump C", "trump D", "trump S"]
    state = new(deck_for(
        "AS TS KS QS JS 9S 8S 7S 6S AH AD",
        "TH AC TC KC QC JC 9C 8C 7C 6C TD",
        "KH QH JH 9H 8H 7H 6H KD QD JD 9D",
        "8D 7D 6D",
    ))
    play(state, "pass", "pass", "guarantee", "trump H")  # West: hearts are trump
    play(state, "AD")  # North leads diamonds
    assert state.legal_actions() == ["TD"]
    play(state, "TD")
    assert state.legal_actions() == ["KD", "QD", "JD", "9D"]  # West must follow diamonds
    play(state, "9D")
    assert state.view(N)["last_trick"] == {"cards": [[N, "AD"], [E, "TD"], [W, "9D"]], "winner": N}
    play(state, "AS")  # East has no spade: any card
    assert state.legal_actions() == ["TH", "AC", "TC", "KC", "QC", "JC", "9C", "8C", "7C", "6C"]
    play(state, "TH")  # a trump ruff
    assert sorted(state.legal_actions()) == sorted(["KH", "QH", "JH", "9H", "8H", "7H", "6H", "KD", "QD", "JD"])
    play(state, "KH")  # West's king of trumps is below East's ten: A T K Q J 9 8 7 6
    assert state.view(N)["last_trick"] == {"cards": [[N, "AS"], [E, "TH"], [W, "KH"]], "winner": E}
    assert state.current_player == E  # the winner leads
    view = state.view(N)
    assert view["tricks_won"] == [1, 1, 0] and view["pips_taken"] == [21, 25, 0]
    assert view["trick_seq"] == 2


def test_a_discard_of_another_suit_never_wins():
    state = new(deck_for(
        "AS TS KS QS JS 9S 8S 7S 6S AH AD",
        "TH AC TC KC QC JC 9C 8C 7C 6C TD",
        "KH QH JH 9H 8H 7H 6H KD QD JD 9D",
        "8D 7D 6D",
    ))
    play(state, "solo", "pass", "pass", "trump C")  # North solo, clubs trump
    play(state, "6S", "AC", "KH")  # East trumps; West discards a heart
    assert state.view(N)["last_trick"]["winner"] == E
    play(state, "TD", "9D", "AD")  # East leads, then West, then North, whose ace wins
    assert state.view(N)["last_trick"]["winner"] == N


# -- complete deals, card by card -------------------------------------------------------------------------
def test_solo_at_exactly_60_with_the_widow_pays_nothing():
    state = new(SOLO60)
    play(state, "solo", "pass", "pass", "trump S")
    winners = play_tricks(state, SOLO60_TRICKS)
    assert winners == [N, N, N, N, W, W, E, E, E, E, E]
    summary = state.deals[0]
    assert summary["trick_pips"] == [55, 55, 5] and summary["widow_pips"] == 5
    assert summary["pips"] == 60 and summary["made"] is True and summary["target"] == 60
    assert summary["scores"] == [0, 0, 0]
    assert summary["soloist"] == N and summary["bid"] == "solo" and summary["trump"] == "S"
    assert summary["thrown_in"] is False and summary["widow"] == ["QD", "JD", "6D"]
    assert summary["tricks"] == [4, 5, 2]
    assert state.scores == [1000, 1000, 1000]
    assert state.dealer == N  # the next deal has begun


def test_solo_below_60_pays_two_per_pip_to_each_opponent():
    state = new(SOLO60)
    play(state, "pass", "pass", "solo", "trump C")  # West, the dealer, alone
    winners = play_tricks(state, SOLO60_TRICKS)  # one-suit tricks: the trump changes nothing
    assert winners == [N, N, N, N, W, W, E, E, E, E, E]
    summary = state.deals[0]
    assert summary["soloist"] == W and summary["pips"] == 10  # 5 in tricks, 5 in the widow
    assert summary["made"] is False and summary["scores"] == [100, 100, -200]


def test_heart_pays_three_per_pip():
    deck = deck_for(
        "AS TS KS AC TC KC AH 9H 8H 9D 8D",
        "QS JS 9S 8C 7C 6C TH 7H 6H AD KD",
        "8S 7S 6S QC JC 9C KH QH JH TD 7D",
        "QD JD 6D",
    )
    state = new(deck)
    play(state, "heart", "pass", "pass")
    winners = play_tricks(state, [
        ("AS", "QS", "8S"), ("TS", "JS", "7S"), ("KS", "9S", "6S"), ("AH", "TH", "KH"),
        ("AC", "8C", "QC"), ("TC", "7C", "JC"), ("KC", "6C", "9C"),
        ("9H", "7H", "QH"), ("JH", "8H", "6H"), ("TD", "9D", "AD"), ("KD", "7D", "8D"),
    ])
    assert winners == [N, N, N, N, N, N, N, W, W, E, E]
    summary = state.deals[0]
    assert summary["trick_pips"] == [85, 25, 5] and summary["pips"] == 90
    assert summary["made"] is True and summary["scores"] == [180, -90, -90]
    assert state.scores == [1180, 910, 910]


# North 67 in tricks; widow KD QD 6D = 7: 74 in all.
G74 = deck_for(
    "AS TS KS AH 8H 7H TC 8C 7C 9D 8D",
    "QS JS 9S TH 9H 6H AC 9C 6C AD JD",
    "8S 7S 6S KH QH JH KC QC JC TD 7D",
    "KD QD 6D",
)
G74_TRICKS = [
    ("AS", "QS", "8S"), ("TS", "JS", "7S"), ("KS", "9S", "6S"), ("AH", "TH", "KH"),
    ("TC", "9C", "JC"),  # North 12
    ("8C", "AC", "KC"),  # East 15
    ("6C", "QC", "7C"),  # East leads, West wins 3
    ("QH", "8H", "9H"), ("JH", "7H", "6H"),  # West 3 and 2
    ("TD", "9D", "AD"),  # West leads, East wins 21
    ("JD", "7D", "8D"),  # East 2
]


@pytest.mark.parametrize(("trump", "made", "scores"), [
    ("H", True, [80, -40, -40]),
    ("S", False, [-80, 40, 40]),
])
def test_guarantee_needs_74_with_hearts_and_80_otherwise(trump, made, scores):
    state = new(G74)
    play(state, "guarantee", "pass", "pass", f"trump {trump}")
    winners = play_tricks(state, G74_TRICKS)
    assert winners == [N, N, N, N, N, E, W, W, W, E, E]
    summary = state.deals[0]
    assert summary["trick_pips"] == [67, 38, 8] and summary["widow_pips"] == 7
    assert summary["pips"] == 74 and summary["made"] is made and summary["scores"] == scores
    assert summary["target"] == (74 if trump == "H" else 80)


def test_solo_above_60_collects_two_per_pip():
    state = new(G74)
    play(state, "solo", "pass", "pass", "trump S")
    play_tricks(state, G74_TRICKS)
    assert state.deals[0]["pips"] == 74 and state.deals[0]["scores"] == [56, -28, -28]


def test_guarantee_at_exactly_80_is_made():
    deck = deck_for(
        "AS TS KS AH 8H 7H TC 8C 7C 9D 8D",
        "QS JS 9S TH 9H 6H AC 9C 6C KD QD",
        "8S 7S 6S KH QH JH KC QC JC TD 7D",
        "AD JD 6D",
    )
    state = new(deck)
    play(state, "guarantee", "pass", "pass", "trump D")
    tricks = G74_TRICKS[:9] + [("TD", "9D", "KD"), ("7D", "8D", "QD")]
    winners = play_tricks(state, tricks)
    assert winners[-2:] == [W, E]
    summary = state.deals[0]
    assert summary["trick_pips"] == [67, 18, 22] and summary["widow_pips"] == 13
    assert summary["pips"] == 80 and summary["made"] is True and summary["scores"] == [80, -40, -40]


# Every suit split 3-3-3 (spades 2-2-2 with three in the widow); North holds the lowest cards.
LOW = deck_for(
    "6C 7C 8C 6D 7D 8D 6H 7H 8H 6S 7S",
    "AC KC QC AD KD QD AH KH QH QS JS",
    "TC JC 9C TD JD 9D TH JH 9H 9S 8S",
    "AS TS KS",
)


def test_misere_made_when_the_soloist_takes_no_trick():
    state = new(LOW)
    play(state, "misere", "pass", "pass")
    assert state.current_player == N  # elder leads, soloist or not
    winners = play_tricks(state, [
        ("6C", "AC", "TC"),  # East
        ("KC", "JC", "7C"),  # East
        ("QC", "9C", "8C"),  # East
        ("AD", "TD", "6D"), ("KD", "JD", "7D"), ("QD", "9D", "8D"),
        ("AH", "TH", "6H"), ("KH", "JH", "7H"), ("QH", "9H", "8H"),
        ("QS", "9S", "6S"), ("JS", "8S", "7S"),
    ])
    assert set(winners) == {E}
    summary = state.deals[0]
    assert summary["made"] is True and summary["scores"] == [60, -30, -30]
    assert summary["trump"] is None and summary["pips"] == 0 and summary["target"] is None
    assert summary["tricks"] == [0, 11, 0]


def test_misere_lost_by_one_trick_pays_30_each_and_the_widow_does_not_count():
    deck = deck_for(
        "6C 7C 8C 6D 7D 8D 6H 7H AH 6S 7S",
        "AC KC QC AD KD QD 8H KH QH QS JS",
        "TC JC 9C TD JD 9D TH JH 9H 9S 8S",
        "AS TS KS",
    )
    state = new(deck)
    play(state, "misere", "pass", "pass")
    play_tricks(state, [("6H", "8H", "9H")])  # West wins
    play_tricks(state, [("TH", "AH", "QH")])  # West leads TH; North follows with his ace and wins
    assert state.view(E)["tricks_won"] == [1, 0, 1]
    play_out(state)
    summary = state.deals[0]
    assert summary["made"] is False and summary["scores"] == [-60, 30, 30]
    assert summary["pips"] == summary["trick_pips"][N]  # no trump: the widow's 25 pips do not count
    assert summary["widow_pips"] == 25


def test_spread_is_led_by_the_seat_after_the_soloist_and_lies_face_up():
    state = new(LOW)
    play(state, "pass", "pass")
    # Nobody sees a hand before play begins.
    assert all(state.view(s)["spread_hand"] is None for s in range(3))
    play(state, "spread")  # West, the dealer, bids spread alone
    assert state.phase == "play" and state.current_player == N  # seat after West
    hand = state.view(W)["hand"]
    for seat in range(3):
        assert state.view(seat)["spread_hand"] == hand
    state2 = new(LOW)
    play(state2, "misere", "spread", "pass", "pass")  # East: the seat after him, West, leads
    assert state2.view(N)["soloist"] == E and state2.current_player == W
    east = state2.view(E)["hand"]
    assert state2.view(N)["spread_hand"] == east and state2.view(W)["spread_hand"] == east
    play(state2, "9S", "6S", "QS")
    assert state2.view(N)["spread_hand"] == [c for c in east if c != "QS"]


def test_spread_lost_pays_60_each():
    state = new(LOW)
    play(state, "pass", "spread", "pass")  # East, holding high cards, bids spread
    assert state.view(N)["soloist"] == E and state.current_player == W
    play_out(state)
    summary = state.deals[0]
    assert summary["made"] is False and summary["scores"] == [60, -120, 60]


def test_spread_by_the_low_hand_is_made():
    # East deals: West is elder and North next; North holds the low hand.
    deck = deck_for(
        "TC JC 9C TD JD 9D TH JH 9H 9S 8S",  # West (elder)
        "6C 7C 8C 6D 7D 8D 6H 7H 8H 6S 7S",  # North (next)
        "AC KC QC AD KD QD AH KH QH QS JS",  # East (dealer)
        "AS TS KS",
    )
    state = new(deck, dealer=E)
    play(state, "pass", "spread", "pass")
    assert state.view(E)["soloist"] == N and state.current_player == E  # the seat after North
    play_out(state)
    summary = state.deals[0]
    assert summary["made"] is True and summary["scores"] == [120, -60, -60]


# North: all the spades but the six, AH, AD and 6C.  West holds 8C, East 7C.
CALL_DECK = deck_for(
    "AS TS KS QS JS 9S 8S 7S AH AD 6C",
    "7C AC TC KC QC JC TH KH QH JH 9H",
    "8C 8H 7H 6H TD KD QD JD 8D 7D 6D",
    "6S 9C 9D",
)


def test_call_lists_every_card_the_soloist_does_not_hold():
    state = new(CALL_DECK)
    play(state, "call", "pass", "pass")
    assert state.phase == "declare"
    play(state, "trump S")
    assert state.phase == "call"
    legal = state.legal_actions()
    own = set(state.view(N)["hand"])
    assert len(legal) == 25
    assert {a.split()[1] for a in legal} == set(PACK_36) - own
    with pytest.raises(parlour.IllegalAction, match="you hold AS yourself"):
        state.apply("call AS")


def test_call_with_the_card_in_the_widow_changes_nothing_and_a_pipless_trick_does_not_defeat_it():
    state = new(CALL_DECK)
    play(state, "call", "pass", "pass", "trump S", "call 6S")  # 6S lies in the widow
    assert state.phase == "play" and state.current_player == N
    view = state.view(E)
    assert view["call"] == {"card": "6S", "holder": None, "in_widow": True, "exchanged": False, "given": None}
    assert "6S" not in state.view(N)["hand"]
    play(state, "6C", "7C", "8C")  # West wins a trick with no pips
    assert state.view(N)["last_trick"]["winner"] == W
    play(state, "8H", "AH", "9H")
    play(state, "AD")
    play_out(state)
    summary = state.deals[0]
    assert summary["tricks"][N] == 10 and summary["trick_pips"] == [120, 0, 0]
    assert summary["pips"] == 120 and summary["made"] is True
    assert summary["scores"] == [200, -100, -100]
    assert summary["call"] == {"card": "6S", "holder": None}


def test_call_exchange_gives_back_the_soloists_choice():
    state = new(CALL_DECK)
    play(state, "call", "pass", "pass", "trump S", "call AC")  # East holds AC
    assert state.phase == "give" and state.current_player == N and state.action_is_private
    assert state.legal_actions() == ["AS", "TS", "KS", "QS", "JS", "9S", "8S", "7S", "AH", "6C", "AD"]
    with pytest.raises(parlour.IllegalAction):
        state.apply("AC")  # not his yet
    play(state, "6C")
    assert not state.action_is_private
    assert "AC" in state.view(N)["hand"] and "6C" not in state.view(N)["hand"]
    assert "6C" in state.view(E)["hand"] and "AC" not in state.view(E)["hand"]
    assert state.view(N)["call"]["given"] == "6C"
    assert state.view(E)["call"]["given"] == "6C"
    third = state.view(W)["call"]
    assert third == {"card": "AC", "holder": E, "in_widow": False, "exchanged": True, "given": None}
    play_out(state)  # North now holds only winners
    summary = state.deals[0]
    assert summary["tricks"] == [11, 0, 0] and summary["made"] is True and summary["scores"] == [200, -100, -100]
    assert summary["call"] == {"card": "AC", "holder": E}  # which card was given back stays private


def test_call_with_hearts_trump_lost_pays_150_each():
    state = new(CALL_DECK)
    play(state, "call", "pass", "pass", "trump H", "call AC", "6C")
    play(state, "AH", "TH", "8H")  # North draws a trump
    play(state, "AS", "KH", "TD")  # East, void in spades, ruffs the ace: 25 pips lost
    assert state.view(N)["last_trick"]["winner"] == E
    play_out(state)
    summary = state.deals[0]
    assert summary["trump"] == "H" and summary["made"] is False and summary["scores"] == [-300, 150, 150]


def test_call_with_hearts_trump_made_pays_150():
    state = new(CALL_DECK)
    play(state, "call", "pass", "pass", "trump S", "call AC", "6C")
    play_out(state)
    assert state.deals[0]["scores"] == [200, -100, -100]
    hearts = deck_for(
        "AH TH KH QH JH 9H 8H 7H AS AD 6C",
        "7C AC TC KC QC JC TS KS QS JS 9S",
        "8C 8S 7S 6S TD KD QD JD 8D 7D 6D",
        "6H 9C 9D",
    )
    state = new(hearts)
    play(state, "call", "pass", "pass", "trump H", "call AC", "6C")
    play_out(state)
    summary = state.deals[0]
    assert summary["tricks"] == [11, 0, 0] and summary["made"] is True and summary["scores"] == [300, -150, -150]


def test_call_lost_when_a_trick_with_pips_goes_to_the_opponents():
    deck = deck_for(
        "AS TS KS QS JS 9S 8S 7S AH KD 6C",
        "7C AC TC KC QC JC TH KH QH JH 9H",
        "8C 8H 7H 6H TD 9D QD JD 8D 7D 6D",
        "6S 9C AD",
    )
    state = new(deck)
    play(state, "call", "pass", "pass", "trump S", "call AD")  # in the widow
    play(state, "KD", "TH", "TD")  # West's ten beats the king: 24 pips lost
    assert state.view(N)["last_trick"]["winner"] == W
    play_out(state)
    summary = state.deals[0]
    assert summary["made"] is False and summary["scores"] == [-200, 100, 100]


# -- the match ----------------------------------------------------------------------------------------------
def test_the_match_ends_when_a_seat_has_no_chips_and_the_most_chips_wins():
    state = new(CALL_DECK, chips=100)
    play(state, "call", "pass", "pass", "trump S", "call 6S", "6C", "7C", "8C", "8H", "AH", "9H", "AD")
    play_out(state)
    assert state.is_over and state.scores == [300, 0, 0]
    assert state.winner == N and state.current_player is None
    assert state.legal_actions() == [] and state.phase == "over"
    with pytest.raises(parlour.IllegalAction, match="the game is over"):
        state.apply("pass")
    assert len(state.deals) == 1


def test_a_tie_for_most_chips_means_no_winner_and_chips_may_go_below_zero():
    deck = deck_for(
        "AS TS KS QS JS 9S 8S 7S AH KD 6C",
        "7C AC TC KC QC JC TH KH QH JH 9H",
        "8C 8H 7H 6H TD 9D QD JD 8D 7D 6D",
        "6S 9C AD",
    )
    state = new(deck, chips=150)
    play(state, "call", "pass", "pass", "trump S", "call AD", "KD", "TH", "TD")
    play_out(state)
    assert state.is_over and state.scores == [-50, 250, 250]
    assert state.winner is None


def test_the_match_goes_on_while_every_seat_has_chips():
    state = new(SOLO60, chips=10)
    play(state, "heart", "pass", "pass")
    play_tricks(state, SOLO60_TRICKS)
    assert state.deals[0]["scores"] == [0, 0, 0] and not state.is_over
    assert len(state.deals) == 1 and state.phase == "bid" and state.dealer == N


def test_chips_option_is_checked():
    assert parlour.load("sixbid").options == {"chips": 1000}
    assert parlour.load("sixbid", chips=50).new_state(seed=1).scores == [50, 50, 50]
    for bad in (5, 2_000_000, "many", 10.5, True):
        with pytest.raises(ValueError):
            parlour.load("sixbid", chips=bad)
    with pytest.raises(ValueError):
        parlour.load("sixbid", pot=100)


def test_bad_deck_is_refused():
    with pytest.raises(ValueError):
        parlour.load("sixbid").new_state(deck=list(PACK_36)[:-1] + ["6C"])
