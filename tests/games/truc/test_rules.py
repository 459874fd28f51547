"""Le Truc: every rule of RULES.md with exact packs and hand-computed results.

Seats: 0 is North, 1 is South.  Most packs are dealt by North (``dealer=0``), so South is
the non-dealer: he gets the pack's cards 0, 2, 4 and leads; North gets cards 1, 3, 5.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import parlour
from parlour.cards import PACK_32
from parlour.games.truc.rules import POWER, RANK_ORDER

N, S = 0, 1


def pack(*pairs: tuple[list[str], list[str]]) -> list[str]:
    """A pack whose successive hands are ``(non-dealer, dealer)`` pairs, dealt one at a time."""
    top: list[str] = []
    for nd, d in pairs:
        for a, b in zip(nd, d, strict=True):
            top += [a, b]
    assert len(set(top)) == len(top)
    return top + [c for c in PACK_32 if c not in top]


def new(*pairs: tuple[list[str], list[str]], dealer: int = N, seed: int = 0) -> parlour.State:
    return parlour.load("truc").new_state(seed=seed, deck=pack(*pairs), dealer=dealer)


def run(state: parlour.State, *actions: str) -> parlour.State:
    for a in actions:
        state.apply(a)
    return state


def gift(state: parlour.State, seat: int) -> None:
    """``seat`` scores 1: he offers a double at his first card and the other declines."""
    nd = state.view(0)["non_dealer"]
    state.apply("play")
    if seat != nd:
        state.apply(state.legal_actions()[0])  # the non-dealer leads a card
    offer = state.legal_actions()[-1]
    assert offer in ("double", "remainder")
    run(state, offer, "decline")


# -- the pack and the deal ---------------------------------------------------------------
def test_pack_is_32_cards_and_rank_order_ignores_suits():
    game = parlour.load("truc")
    assert sorted(game.PACK) == sorted(PACK_32) and len(game.PACK) == 32
    assert RANK_ORDER == "78AKQJT9"
    for suit in "CDHS":
        assert [POWER[r + suit] for r in RANK_ORDER] == [7, 6, 5, 4, 3, 2, 1, 0]
    with pytest.raises(ValueError):
        game.new_state(deck=["6H"] + list(PACK_32[1:]))
    with pytest.raises(ValueError, match="unknown option"):
        parlour.load("truc", game_point=12)


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_is_one_at_a_time_non_dealer_first(dealer):
    deck = ["9H", "7C", "AS", "TD", "KH", "8S"] + [c for c in PACK_32 if c not in
                                                   ("9H", "7C", "AS", "TD", "KH", "8S")]
    state = parlour.load("truc").new_state(seed=1, deck=deck, dealer=dealer)
    nd = 1 - dealer
    # display order: high rank first (7 8 A K Q J T 9)
    assert state.view(nd)["hand"] == ["AS", "KH", "9H"]
    assert state.view(dealer)["hand"] == ["7C", "8S", "TD"]
    view = state.view(nd)
    assert view["cards_left"] == 26 and view["dealer"] == dealer and view["non_dealer"] == nd
    assert state.current_player == nd and state.phase == "call"
    assert state.legal_actions() == ["play", "call"]
    assert state.scores == [0, 0] and state.rounds_won == [0, 0] and view["stake"] == 1


# -- calling for cards -------------------------------------------------------------------
def test_play_only_starts_play():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    run(state, "play")
    assert state.current_player == S and state.phase == "play"
    assert state.legal_actions() == ["7H", "KH", "9H", "double"]
    assert state.view(S)["trick"] == [] and state.view(S)["stake"] == 1


def test_call_refused_starts_play_with_the_same_cards():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    run(state, "call")
    assert state.current_player == N and state.phase == "call-answer"
    assert state.legal_actions() == ["accept", "refuse"]
    assert state.view(N)["log"] == [[S, "call"]]
    run(state, "refuse")
    assert state.current_player == S and state.phase == "play"
    assert state.legal_actions() == ["7H", "KH", "9H", "double"]
    assert state.view(N)["hand"] == ["8S", "QS", "TS"] and state.view(S)["calls"] == 0


def test_accepted_call_deals_new_hands_from_the_next_cards():
    first = (["7H", "KH", "9H"], ["8S", "QS", "TS"])
    second = (["AC", "JC", "TC"], ["7D", "8D", "9D"])
    state = new(first, second)
    run(state, "call", "accept")
    assert state.view(S)["hand"] == ["AC", "JC", "TC"]
    assert state.view(N)["hand"] == ["7D", "8D", "9D"]
    view = state.view(S)
    assert view["cards_left"] == 20 and view["calls"] == 1 and view["passes"] == 0
    assert state.phase == "call" and state.current_player == S and state.legal_actions() == ["play", "call"]
    # nothing scored, no deal recorded, the set-aside hands are seen by nobody
    assert state.deals == [] and state.scores == [0, 0] and state.dealer == N
    for seat in (N, S):
        text = json.dumps(state.view(seat))
        for card in first[0] + first[1]:
            assert card not in text


def test_calls_repeat_until_the_pack_runs_out_then_the_deal_passes_with_a_fresh_shuffle():
    hands = [(["7H", "KH", "9H"], ["8S", "QS", "TS"]),
             (["AC", "JC", "TC"], ["7D", "8D", "9D"]),
             (["7C", "8C", "9C"], ["AD", "KD", "QD"]),
             (["7S", "JD", "TD"], ["AH", "QH", "JH"]),
             (["8H", "TH", "9S"], ["AS", "KC", "KS"])]
    state = new(*hands, dealer=N, seed=77)
    last_two = state.current_pack()[30:]
    assert sorted(last_two) == ["JS", "QC"]
    for n in range(1, 5):
        run(state, "call", "accept")
        nd, d = hands[n]
        assert state.view(S)["hand"] == nd and state.view(N)["hand"] == d
        assert state.view(S)["cards_left"] == 26 - 6 * n
    assert state.view(S)["cards_left"] == 2
    # a call accepted with 2 cards left: the deal passes to South with a fresh shuffle
    run(state, "call", "accept")
    fresh = list(PACK_32)  # the state's second shuffle (k = 1: k = 0 was the given first pack)
    random.Random(int.from_bytes(hashlib.sha256(b"parlour-deal 77 1").digest(), "big")).shuffle(fresh)
    assert state.dealer == S
    assert state.view(N)["hand"] == sorted(fresh[0:6:2], key=lambda c: (-POWER[c], "CDHS".index(c[1])))
    assert state.view(S)["hand"] == sorted(fresh[1:6:2], key=lambda c: (-POWER[c], "CDHS".index(c[1])))
    view = state.view(N)
    assert view["cards_left"] == 26 and view["calls"] == 5 and view["passes"] == 1 and view["non_dealer"] == N
    assert state.current_player == N and state.legal_actions() == ["play", "call"]
    assert state.deals == [] and state.scores == [0, 0]
    # the deal goes on from the new pack; when it ends the deal alternates again, to North
    gift(state, N)
    summary = state.deals[-1]
    assert summary["scores"] == [1, 0] and summary["dealer"] == S and summary["calls"] == 5
    assert summary["passes"] == 1 and state.dealer == N and len(state.deals) == 1
    # and the record replays the fresh shuffle exactly
    again = parlour.from_json(state.to_json())
    assert again.view(0) == state.view(0) and again.view(1) == state.view(1) and again.deals == state.deals


# -- tricks ------------------------------------------------------------------------------
@pytest.mark.parametrize("hi,lo", list(zip(RANK_ORDER, RANK_ORDER[1:], strict=False)))
def test_higher_rank_wins_whatever_the_suits(hi, lo):
    # South leads the higher rank twice: two tricks, the deal, 1 point
    state = new(([hi + "H", hi + "C", hi + "D"], [lo + "S", lo + "C", lo + "D"]))
    run(state, "play", hi + "H", lo + "S")
    assert state.view(S)["last_trick"] == {"cards": [[S, hi + "H"], [N, lo + "S"]], "winner": S, "spoiled": False}
    run(state, hi + "C", lo + "C")
    assert state.deals[-1]["scores"] == [0, 1] and state.deals[-1]["winner"] == S
    # South leads the lower rank: North wins the trick and leads the next
    state = new(([lo + "H", lo + "C", lo + "D"], [hi + "S", hi + "C", hi + "D"]))
    run(state, "play", lo + "H", hi + "S")
    assert state.current_player == N and state.view(N)["leader"] == N
    assert state.legal_actions() == state.view(N)["hand"] + ["double"]
    run(state, hi + "C", lo + "C")
    assert state.deals[-1]["scores"] == [1, 0] and state.deals[-1]["tricks_won"] == [2, 0]


def test_non_dealer_leads_first_and_the_winner_leads_next():
    state = new((["KH", "7H", "9H"], ["AS", "QS", "TS"]))
    run(state, "play", "KH", "AS")          # North wins trick 1
    assert state.current_player == N and state.view(S)["tricks_won"] == [1, 0]
    run(state, "TS", "7H")                  # North leads, South wins trick 2
    assert state.current_player == S and state.view(N)["tricks_won"] == [1, 1]
    run(state, "9H", "QS")                  # South leads, North wins trick 3 and the deal
    summary = state.deals[-1]
    assert summary["winner"] == N and summary["scores"] == [1, 0] and summary["tricks_won"] == [2, 1]
    assert summary["ended"] == "won" and summary["stake"] == 1
    assert summary["hands"] == [["AS", "QS", "TS"], ["7H", "KH", "9H"]]
    assert [t["winner"] for t in summary["tricks"]] == [N, S, N]


def test_two_tricks_end_the_deal_with_cards_in_hand():
    state = new((["7H", "7C", "9H"], ["AS", "QS", "TS"]))
    run(state, "play", "7H", "TS", "7C", "QS")
    assert len(state.deals) == 1 and state.deals[-1]["scores"] == [0, 1]
    assert state.deals[-1]["tricks_won"] == [0, 2] and len(state.deals[-1]["tricks"]) == 2
    # the unplayed nine and ace are thrown in unseen
    last = json.dumps(state.view(N)["last_deal"])
    assert state.deals[-1]["hands"] is None and '"9H"' not in last and '"AS"' not in last
    assert state.dealer == S and state.current_player == N  # next deal: South deals, North leads


def test_equal_rank_after_a_won_trick_goes_to_the_first_tricks_winner():
    # trick 1 South, trick 2 North, trick 3 equal queens: South won the first trick and takes it
    state = new((["7H", "9H", "QH"], ["8S", "AS", "QS"]))
    run(state, "play", "7H", "8S", "9H", "AS")
    assert state.view(S)["first_trick_winner"] == S and state.current_player == N
    run(state, "QS", "QH")
    summary = state.deals[-1]
    assert summary["winner"] == S and summary["scores"] == [0, 1] and summary["tricks_won"] == [1, 2]
    assert summary["tricks"][2] == {"cards": [[N, "QS"], [S, "QH"]], "winner": S, "spoiled": False}


def test_equal_rank_in_trick_two_gives_the_deal_to_the_first_tricks_winner():
    # North wins trick 1 as follower, leads a king, South's king ties: North's trick
    state = new((["AH", "KH", "9H"], ["7S", "KS", "TS"]))
    run(state, "play", "AH", "7S", "KS", "KH")
    assert state.deals[-1]["winner"] == N and state.deals[-1]["tricks_won"] == [2, 0]


def test_spoiled_trick_is_set_aside_and_the_same_leader_leads_again():
    state = new((["8H", "KH", "9H"], ["8S", "QS", "TS"]))
    run(state, "play", "8H", "8S")
    view = state.view(N)
    assert view["spoiled"] == ["8H", "8S"] and view["tricks_won"] == [0, 0]
    assert view["last_trick"] == {"cards": [[S, "8H"], [N, "8S"]], "winner": None, "spoiled": True}
    assert view["first_trick_winner"] is None and view["trick_seq"] == 1
    assert state.current_player == S and state.legal_actions() == ["KH", "9H", "double"]
    run(state, "KH", "QS")                  # South wins and takes the spoiled trick too
    summary = state.deals[-1]
    assert summary["tricks_won"] == [0, 2] and summary["winner"] == S and summary["scores"] == [0, 1]
    assert [t["spoiled"] for t in summary["tricks"]] == [True, False]


def test_spoiled_trick_goes_to_the_follower_when_he_wins_the_next():
    state = new((["8H", "KH", "9H"], ["8S", "AS", "TS"]))
    run(state, "play", "8H", "8S", "KH", "AS")
    assert state.deals[-1]["tricks_won"] == [2, 0] and state.deals[-1]["scores"] == [1, 0]


def test_two_spoiled_tricks_then_the_third_winner_takes_all_three():
    state = new((["8H", "AH", "9H"], ["8S", "AS", "7S"]))
    run(state, "play", "8H", "8S", "AH", "AS")
    assert state.view(S)["spoiled"] == ["8H", "8S", "AH", "AS"] and state.current_player == S
    run(state, "9H", "7S")
    assert state.deals[-1]["tricks_won"] == [3, 0] and state.deals[-1]["scores"] == [1, 0]


def test_three_spoiled_tricks_score_nothing():
    state = new((["7H", "8H", "AH"], ["7S", "8S", "AS"]))
    run(state, "play", "double", "accept", "7H", "7S", "8H", "8S", "AH", "AS")
    summary = state.deals[-1]
    assert summary["winner"] is None and summary["scores"] == [0, 0] and summary["ended"] == "spoiled"
    assert summary["stake"] == 2 and summary["tricks_won"] == [0, 0] and summary["round_scores"] == [0, 0]
    assert summary["hands"] == [["7S", "8S", "AS"], ["7H", "8H", "AH"]]
    assert state.scores == [0, 0] and state.dealer == S
    assert state.view(N)["last_trick"] is None and state.view(N)["trick_seq"] == 3  # a new deal
    assert summary["final_trick"]["spoiled"] is True


# -- the stake, doubling and declining -------------------------------------------------------
def test_the_stake_starts_at_one():
    state = new((["7H", "7C", "9H"], ["AS", "QS", "TS"]))
    assert state.view(N)["stake"] == 1
    run(state, "play", "7H", "AS", "7C", "QS")
    assert state.deals[-1]["scores"] == [0, 1] and state.deals[-1]["stake"] == 1


def test_double_once_per_card_by_either_player():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    run(state, "play", "double")
    assert state.current_player == N and state.phase == "offer-answer"
    assert state.legal_actions() == ["accept", "decline"]
    assert state.view(N)["offer"] == {"by": S, "kind": "double", "stake": 2, "needs": None}
    run(state, "accept")
    # the offerer now plays: no second offer before this card
    assert state.current_player == S and state.legal_actions() == ["7H", "KH", "9H"]
    assert state.view(S)["stake"] == 2 and state.view(S)["offer"] is None and state.view(S)["offered"]
    run(state, "KH")
    # the follower may offer before his own card, in the same trick
    assert state.legal_actions() == ["8S", "QS", "TS", "double"]
    run(state, "double", "accept")
    assert state.legal_actions() == ["8S", "QS", "TS"] and state.view(N)["stake"] == 4
    run(state, "8S")                        # North wins trick 1 and leads
    # North may offer again before his next card
    assert state.legal_actions() == ["QS", "TS", "double"]
    run(state, "double", "accept", "TS")
    assert state.view(S)["stake"] == 8
    assert state.view(S)["log"] == [[S, "play"], [S, "double"], [N, "accept"], [S, "KH"], [N, "double"],
                                    [S, "accept"], [N, "8S"], [N, "double"], [S, "accept"], [N, "TS"]]
    run(state, "7H")                        # South wins trick 2, leads trick 3
    # 0 + 2 * 8 = 16 > 12: South's offer is now the remainder
    assert state.legal_actions() == ["9H", "remainder"]
    run(state, "9H", "QS")                  # North wins the deal for 8
    assert state.deals[-1]["scores"] == [8, 0] and state.deals[-1]["stake"] == 8


def test_decline_before_the_first_card_scores_the_stake_before_the_double():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    run(state, "play", "double", "decline")
    summary = state.deals[-1]
    assert summary["scores"] == [0, 1] and summary["winner"] == S and summary["stake"] == 1
    assert summary["ended"] == "declined" and summary["declined"] == "double" and summary["hands"] is None
    assert state.scores == [0, 1] and state.dealer == S and state.current_player == N


def test_decline_by_the_leader_of_the_followers_double():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    run(state, "play", "KH", "double", "decline")
    assert state.deals[-1]["scores"] == [1, 0] and state.deals[-1]["winner"] == N


def test_decline_after_doubles_scores_the_stake_reached():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    # stake 2 accepted; North wins trick 1 and offers 4; South declines: North scores 2
    run(state, "play", "double", "accept", "KH", "8S", "double", "decline")
    assert state.deals[-1]["scores"] == [2, 0] and state.deals[-1]["stake"] == 2
    assert state.deals[-1]["tricks_won"] == [1, 0]


def test_decline_in_the_last_trick():
    state = new((["KH", "7H", "9H"], ["AS", "QS", "TS"]))
    run(state, "play", "KH", "AS", "TS", "7H")           # one trick each, South leads
    run(state, "double", "accept", "9H")                 # stake 2, South leads his nine
    run(state, "double", "decline")                      # North offers 4 before his queen; South folds
    # North scores the 2 staked before his double
    assert state.deals[-1]["scores"] == [2, 0] and state.deals[-1]["winner"] == N


# -- the manual's worked example -----------------------------------------------------------
def worked_example() -> parlour.State:
    """South (non-dealer) holds 7 8 9, North (dealer) 7 8 A; up to South's remainder offer."""
    state = new((["7H", "8H", "9H"], ["7C", "8C", "AC"]))
    assert state.view(S)["hand"] == ["7H", "8H", "9H"] and state.view(N)["hand"] == ["7C", "8C", "AC"]
    # 1. South calls for cards to look weak; North refuses: he likes his hand
    run(state, "call")
    assert state.legal_actions() == ["accept", "refuse"]
    run(state, "refuse")
    # 2. South leads his middle card, the eight
    assert state.legal_actions() == ["7H", "8H", "9H", "double"]
    run(state, "8H")
    # 3. North doubles to 2, South accepts
    assert state.legal_actions() == ["7C", "8C", "AC", "double"]
    run(state, "double")
    assert state.view(S)["offer"]["stake"] == 2
    run(state, "accept")
    assert state.view(S)["stake"] == 2 and state.legal_actions() == ["7C", "8C", "AC"]
    # 4. North wins the eight with his seven: he now takes any tie
    run(state, "7C")
    assert state.view(N)["tricks_won"] == [1, 0] and state.view(N)["first_trick_winner"] == N
    assert state.current_player == N
    # 5. North doubles to 4, South accepts; 6. North leads his eight
    run(state, "double", "accept")
    assert state.view(N)["stake"] == 4
    run(state, "8C")
    # 7. South doubles to 8 (0 + 2 * 4 = 8, not past 12), North accepts
    assert state.legal_actions() == ["7H", "9H", "double"]
    run(state, "double", "accept")
    assert state.view(S)["stake"] == 8
    # 8. South wins with his seven: one trick each
    run(state, "7H")
    assert state.view(S)["tricks_won"] == [1, 1] and state.current_player == S
    # 9.-10. South holds a nine, North an ace; doubling would make 16 > 12: the remainder
    assert state.view(S)["hand"] == ["9H"] and state.view(N)["hand"] == ["AC"]
    assert state.legal_actions() == ["9H", "remainder"]
    run(state, "remainder")
    offer = state.view(N)["offer"]
    assert offer == {"by": S, "kind": "remainder", "stake": None, "needs": [12, 12]}
    assert state.legal_actions() == ["accept", "decline"]
    return state


def test_worked_example_north_declines_the_remainder_and_south_scores_8():
    state = worked_example()
    run(state, "decline")   # 11. he refuses, and South wins (ha ha)
    summary = state.deals[-1]
    assert summary["scores"] == [0, 8] and summary["winner"] == S and summary["stake"] == 8
    assert summary["ended"] == "declined" and summary["declined"] == "remainder" and summary["hands"] is None
    assert summary["calls"] == 0 and summary["tricks_won"] == [1, 1] and summary["round_winner"] is None
    assert state.scores == [0, 8] and state.rounds_won == [0, 0]


def test_worked_example_if_north_accepts_the_remainder_his_ace_takes_the_round():
    state = worked_example()
    run(state, "accept")
    assert state.view(S)["remainder"] is True and state.view(S)["needs"] == [12, 12]
    assert state.legal_actions() == ["9H"]  # no more offers
    run(state, "9H")
    assert state.legal_actions() == ["AC"]  # not for North either
    run(state, "AC")
    summary = state.deals[-1]
    assert summary["scores"] == [12, 0] and summary["winner"] == N and summary["stake"] == 12
    assert summary["remainder"] is True and summary["round_scores"] == [12, 0] and summary["round_winner"] == N
    assert summary["rounds_won"] == [1, 0] and summary["game_over"] is False
    # the next round starts from 0-0, the deal alternating as ever
    assert state.scores == [0, 0] and state.rounds_won == [1, 0] and state.view(N)["round"] == 2
    assert state.dealer == S and not state.is_over


# -- the remainder ---------------------------------------------------------------------------
def test_remainder_threshold_is_strictly_past_twelve():
    state = parlour.load("truc").new_state(seed=5, dealer=N)
    for _ in range(10):
        gift(state, S)
    assert state.scores == [0, 10] and state.dealer == N  # South is non-dealer again
    run(state, "play")
    assert "double" in state.legal_actions()  # 10 + 2 = 12: not past 12
    run(state, "double", "decline")
    assert state.scores == [0, 11]
    run(state, "play")
    run(state, state.legal_actions()[0])  # North leads
    assert state.legal_actions()[-1] == "remainder"  # 11 + 2 = 13 > 12
    assert "double" not in state.legal_actions()
    # declined, the remainder scores the stake before it, like a double: South reaches 12
    run(state, "remainder", "decline")
    assert state.deals[-1]["scores"] == [0, 1] and state.deals[-1]["round_winner"] == S
    assert state.rounds_won == [0, 1] and state.scores == [0, 0]


def test_remainder_accepted_each_plays_for_what_he_needs():
    state = new((["7H", "8H", "9H"], ["7C", "8C", "AC"]))
    state._scores = [3, 11]  # set-up shortcut: North 3, South 11 points in this round
    run(state, "play")
    assert state.legal_actions() == ["7H", "8H", "9H", "remainder"]  # 11 + 2 > 12
    run(state, "remainder", "accept")
    assert state.view(N)["needs"] == [9, 1] and state.legal_actions() == ["7H", "8H", "9H"]
    run(state, "8H", "7C", "8C", "7H", "9H", "AC")  # North wins tricks 1 and 3
    summary = state.deals[-1]
    assert summary["winner"] == N and summary["scores"] == [9, 0] and summary["stake"] == 9
    assert summary["round_scores"] == [12, 11] and summary["round_winner"] == N


def test_remainder_pays_only_the_need_even_below_the_stake():
    state = new((["7H", "7C", "9H"], ["AS", "QS", "TS"]))
    state._scores = [0, 11]
    # North doubles to 2 before his card; South, at 11, may then only offer the remainder
    run(state, "play", "7H", "double", "accept", "TS")
    assert state.view(S)["stake"] == 2
    run(state, "remainder", "accept", "7C", "AS")  # South wins tricks 1 and 2
    summary = state.deals[-1]
    assert summary["winner"] == S and summary["scores"] == [0, 1] and summary["stake"] == 1


def test_remainder_then_three_spoiled_tricks_scores_nothing_and_the_round_goes_on():
    state = new((["7H", "8H", "AH"], ["7S", "8S", "AS"]))
    state._scores = [4, 11]
    run(state, "play", "remainder", "accept", "7H", "7S", "8H", "8S", "AH", "AS")
    summary = state.deals[-1]
    assert summary["winner"] is None and summary["scores"] == [0, 0] and summary["ended"] == "spoiled"
    assert state.scores == [4, 11] and state.rounds_won == [0, 0]
    view = state.view(S)
    assert view["remainder"] is False and view["stake"] == 1  # the next deal is an ordinary one


def test_a_score_may_pass_twelve_and_the_round_ends_all_the_same():
    state = new((["7H", "7C", "9H"], ["AS", "QS", "TS"]))
    state._scores = [0, 10]
    # North (0 points) doubles twice: 2 then 4; South wins the deal for 4 and reaches 14
    run(state, "play", "9H", "double", "accept", "TS", "double", "accept", "QS", "7H", "7C", "AS")
    summary = state.deals[-1]
    assert summary["scores"] == [0, 4] and summary["round_scores"] == [0, 14] and summary["round_winner"] == S
    assert state.rounds_won == [0, 1] and state.scores == [0, 0]


# -- rounds and the game ---------------------------------------------------------------------
def test_rounds_to_twelve_and_the_game_to_two_rounds():
    state = parlour.load("truc").new_state(seed=11, dealer=N)
    dealers = []
    for i in range(24):
        dealers.append(state.dealer)
        gift(state, S)
        summary = state.deals[-1]
        assert summary["dealer"] == dealers[-1] and summary["deal"] == i + 1
        if i == 11:
            assert summary["round_scores"] == [0, 12] and summary["round_winner"] == S and summary["round"] == 1
            assert state.scores == [0, 0] and state.rounds_won == [0, 1] and state.view(N)["round"] == 2
        elif i < 11:
            assert summary["round_winner"] is None and state.scores == [0, i + 1]
    assert dealers == [N, S] * 12  # the deal alternates across rounds
    assert state.is_over and state.winner == S and state.rounds_won == [0, 2]
    assert state.scores == [0, 12]  # the last round's points stay on show
    assert state.current_player is None and state.legal_actions() == [] and state.phase == "over"
    assert state.deals[-1]["game_over"] is True
    with pytest.raises(parlour.IllegalAction, match="game is over"):
        state.apply("play")
    view = state.view(N)
    assert view["hand"] == [] and view["is_over"] and view["winner"] == S


# -- views and illegal actions -----------------------------------------------------------------
def test_views_show_own_cards_and_public_play_only():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    for seat, mine, theirs in ((S, ["7H", "KH", "9H"], ["8S", "QS", "TS"]), (N, ["8S", "QS", "TS"],
                                                                           ["7H", "KH", "9H"])):
        view = state.view(seat)
        assert view["hand"] == mine and view["opponent_cards"] == 3
        assert not any(c in json.dumps(view) for c in theirs)
        assert ("legal_actions" in view) == (seat == S)
    run(state, "play", "KH")
    view = state.view(N)
    assert view["trick"] == [[S, "KH"]] and view["opponent_cards"] == 2
    assert not any(c in json.dumps(view) for c in ("7H", "9H"))
    assert json.loads(json.dumps(view)) == view


def test_a_declined_deal_shows_no_hands_in_its_summary():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    run(state, "play", "KH", "8S", "double", "decline")
    assert state.deals[-1]["hands"] is None
    text = json.dumps(state.deals[-1])
    assert "7H" not in text and "9H" not in text and "QS" not in text


def test_illegal_actions_raise_and_change_nothing():
    state = new((["7H", "KH", "9H"], ["8S", "QS", "TS"]))
    cases = [("double", "play or call"), ("8S", "play or call")]
    for action, why in cases:
        before = state.to_json()
        with pytest.raises(parlour.IllegalAction, match=why):
            state.apply(action)
        assert state.to_json() == before
    run(state, "play")
    with pytest.raises(parlour.IllegalAction, match="do not hold"):
        state.apply("8S")
    with pytest.raises(parlour.IllegalAction, match="offer double instead"):
        state.apply("remainder")
    run(state, "double")
    with pytest.raises(parlour.IllegalAction, match="accept or decline"):
        state.apply("refuse")
    run(state, "accept")
    with pytest.raises(parlour.IllegalAction, match="already made an offer"):
        state.apply("double")
    assert state.view(S)["stake"] == 2 and state.current_player == S
