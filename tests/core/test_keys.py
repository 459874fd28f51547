"""Keys that never change meaning: fixed choice keys per game, card keys bound to cards (issue 12)."""

from __future__ import annotations

import random

import pytest

from parlour import registry
from parlour.text import (
    CARD_KEYS,
    NO_KEY,
    TABLE_LETTERS,
    YES_KEY,
    CardKeys,
    action_kind,
    actions_for_key,
    choice_key,
    choice_keys,
    refuse_key,
    yes_no,
)

GAMES = ["clobby", "sixbid", "schafkopf", "truc", "gops"]


def random_positions(game: str, seeds: range, limit: int = 400):
    """(state, legal, hand of the seat to move) along random games."""
    for seed in seeds:
        state = registry.load(game).new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(limit):
            if state.is_over:
                break
            seat = state.current_player
            legal = state.legal_actions()
            yield state, legal, list(state.view(seat)["hand"])
            state.apply(rng.choice(legal))


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_has_one_fixed_key_free_of_collisions(game: str) -> None:
    keys = choice_keys(game)
    # one key per kind, no two kinds share a key, and no key is Y/N, a digit or a table letter
    assert len(set(keys.values())) == len(keys), keys
    assert all(len(k) == 1 and k.islower() and k not in (YES_KEY, NO_KEY) for k in keys.values())
    most_cards = 0
    seen_kinds: set[str] = set()
    for _state, legal, hand in random_positions(game, range(12)):
        most_cards = max(most_cards, len(hand))
        choices = [a for a in legal if a not in hand]
        for action in choices:
            kind = action_kind(game, action)
            assert kind is not None, f"{game}: {action!r} has no fixed key"
            seen_kinds.add(kind)
            assert actions_for_key(game, choice_key(game, action), legal).count(action) == 1
        # several legal choices share a key only when they are one kind (two bellas, the cards to call)
        by_key: dict[str, set[str | None]] = {}
        for action in choices:
            by_key.setdefault(choice_key(game, action), set()).add(action_kind(game, action))
        assert all(len(kinds) == 1 for kinds in by_key.values())
    # the letters a hand's cards may need are never a choice's key
    card_letters = {k for k in CARD_KEYS[:most_cards] if k.isalpha()}
    assert not card_letters & set(keys.values()), (game, card_letters)
    assert seen_kinds <= set(keys)


def test_a_key_means_the_same_in_every_deal_and_is_refused_not_remapped() -> None:
    # Six-Bid: S is the spade trump for good; it never picks a bid.
    legal = ["solo", "heart", "misere", "guarantee", "spread", "call", "pass"]
    assert actions_for_key("sixbid", "s", legal) == []
    assert "not possible now" in refuse_key("sixbid", "s")
    assert actions_for_key("sixbid", "r", legal) == ["spread"]
    assert actions_for_key("sixbid", "o", legal[3:]) == []
    # Clobby: schmeiss is M whatever else is on offer, and the suits are their letters.
    assert actions_for_key("clobby", "m", ["take", "pass", "schmeiss"]) == ["schmeiss"]
    assert actions_for_key("clobby", "m", ["name C", "name H", "pass", "schmeiss"]) == ["schmeiss"]
    assert actions_for_key("clobby", "c", ["name C", "name H", "pass", "schmeiss"]) == ["name C"]
    assert actions_for_key("clobby", "c", ["tout-atout", "pass"]) == []
    # Schafkopf: pass is P.
    assert actions_for_key("schafkopf", "p", ["pick-up", "pass"]) == ["pass"]
    assert "means nothing" in refuse_key("gops", "z")


def test_y_and_n_answer_every_yes_no_question() -> None:
    assert yes_no("truc", ["accept", "decline"]) == ("accept", "decline")
    assert actions_for_key("truc", "y", ["accept", "refuse"]) == ["accept"]
    assert actions_for_key("truc", "n", ["accept", "refuse"]) == ["refuse"]
    assert actions_for_key("clobby", "N", ["accept", "refuse"]) == ["refuse"]
    assert actions_for_key("truc", "y", ["play", "call"]) == []
    assert "none is asked now" in refuse_key("truc", "y")


def test_table_letters_are_not_taken_by_a_game_in_upper_case() -> None:
    from parlour.text import table_letter

    assert table_letter("schafkopf", "l") == "l" and "l" in TABLE_LETTERS
    assert table_letter("clobby", "S") == "s"  # the score sheet
    assert table_letter("clobby", "s") is None  # spades
    assert table_letter("gops", "u") == "u"  # GOPS uses no letters: lower case works too
    assert table_letter("truc", "r") is None and table_letter("truc", "R") == "r"


@pytest.mark.parametrize("game", GAMES)
def test_card_keys_are_bound_left_to_right_when_cards_join_and_never_change_otherwise(game: str) -> None:
    """Issue 25, point 7: a hand is keyed 1-9, a... left to right whenever cards join it (the
    deal, Clobby's second round, the skat, an exchange), and no key changes until the next card
    joins; GOPS keys every card by its rank."""
    for seed in range(4):
        state = registry.load(game).new_state(seed=seed)
        rng = random.Random(seed)
        keys = {seat: CardKeys(game) for seat in range(state.game.num_players)}
        before: dict[int, dict[str, str]] = {seat: {} for seat in keys}
        deal = len(state.deals)
        while not state.is_over and len(state.deals) == deal:
            for seat, card_keys in keys.items():
                hand = list(state.view(seat)["hand"])
                if seed % 2:
                    hand.reverse()  # any order shown: the keys follow it
                now = card_keys.assign(hand, (deal, seat))
                joined = any(card not in before[seat] for card in hand)
                if game == "gops":
                    assert now == {card: card[0].lower() for card in hand} and not card_keys.rebound
                elif joined:
                    assert [now[c] for c in hand] == list(CARD_KEYS[:len(hand)]) and card_keys.rebound
                else:
                    assert now == {c: before[seat][c] for c in hand} and not card_keys.rebound
                for card, key in now.items():
                    assert card_keys.card_for(key, hand) == card
                assert len(set(now.values())) == len(now)
                before[seat] = now
            state.apply(rng.choice(state.legal_actions()))


def test_a_sorted_clobby_hand_reads_1_to_9_after_the_second_round() -> None:
    keys = CardKeys("clobby")
    first = keys.assign(["7S", "KS", "AH", "9D", "TD", "8C"], 1)
    assert list(first.values()) == ["1", "2", "3", "4", "5", "6"]
    sorted_hand = ["7S", "QS", "KS", "AH", "9D", "JD", "TD", "8C", "AC"]  # three cards joined
    second = keys.assign(sorted_hand, 1)
    assert [second[c] for c in sorted_hand] == list("123456789") and keys.rebound
    resorted = sorted_hand[::-1]  # sorting switched: nothing joined, no key moves
    assert keys.assign(resorted, 1) == second and not keys.rebound
    resorted.remove("JD")  # a card played: its key stays unused
    assert keys.assign(resorted, 1) == {c: second[c] for c in resorted} and keys.card_for("6", resorted) is None


def test_gops_keys_are_the_ranks() -> None:
    keys = CardKeys("gops")
    hand = ["AC", "2C", "9C", "TC", "JC", "QC", "KC"]
    assert keys.assign(hand) == {"AC": "a", "2C": "2", "9C": "9", "TC": "t", "JC": "j", "QC": "q", "KC": "k"}
    assert keys.card_for("A", hand) == "AC" and keys.card_for("t", hand) == "TC"
    assert keys.card_for("1", hand) is None  # 1 is no rank: never the ace
    assert "ranks A 2-9 T J Q K" in refuse_key("gops", "1")


def test_the_rebinding_is_said_in_one_line() -> None:
    from parlour.text import keys_line

    assert keys_line(list("123456789abc")) == (
        "Your cards are keyed 1–9, A–C, left to right; the keys stay until a card joins your hand.")
    assert keys_line(["1", "2", "3"]).startswith("Your cards are keyed 1–3,")
    assert keys_line(list("123456789a")).startswith("Your cards are keyed 1–9, A,")


def test_a_two_card_discard_keeps_the_second_cards_key() -> None:
    keys = CardKeys()
    hand = ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "AD", "KD", "QD", "JD"]
    first = keys.assign(hand, 1)
    second_card = keys.card_for("b", hand)
    hand.remove(keys.card_for("a", hand))
    again = keys.assign(hand, 1)
    assert keys.card_for("b", hand) == second_card
    assert all(again[c] == first[c] for c in hand)
