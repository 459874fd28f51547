"""Schafkopf easy player: the manual's strategy notes as rules.

From the seed's notes:
- **Pick up** with a long strong trump suit, seven or more including four of the eight top
  trumps (the queens and jacks); with fewer trumps or less top strength, only with one or two
  side aces to make up for it.
- **Discard** to make voids, and keep tens out of the hand when the trumps are long and strong:
  a ten in the discard is ten pips banked, a ten in the hand is a card the defenders' aces
  and trumps will catch.
- **Defend** as a pair against the soloist: smear points (aces and tens) on a trick the partner
  is sure to win, lead through the soloist (so that he must commit before the partner), and
  never spend a winner on a trick the partner already holds.
- **Ramsch**: each for himself, so shed high cards early while someone else is winning the
  trick, duck under the winning card, and lead low cards that others must beat.

Everything is read from the view alone: the played cards (``tricks`` and ``trick``) tell which
trumps and aces are still out.  The strong player's play-outs ask for the same card from an open
position (``EasyBot.open_card``), which hands the rule only what the seat's view would show.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from itertools import combinations
from typing import Any

from ...bots import PhaseBot
from ...cards import bit_indices
from .rules import INDEX, ORDER, PIP, SEAT, SUIT_MASKS, SUIT_OF, OpenPosition, beats, winning_place

TOP8 = frozenset(range(8))
PLAIN_ACES = frozenset(INDEX[c] for c in ("AC", "AS", "AH"))
#: the number of each suit's first card (cards are numbered suit by suit, the trumps first)
SUIT_START = tuple((m & -m).bit_length() - 1 for m in SUIT_MASKS)
#: every card, as a mask
PACK = (1 << 32) - 1


def _is_trump(c: int) -> bool:
    return c < 14


def _height(card: int) -> float:
    """0 for the best card of its suit up to about 1 for the lowest (trumps count as a suit)."""
    return card / 14 if card < 14 else (card - 14) % 6 / 6


class EasyBot(PhaseBot):
    name = "easy"
    PHASE_HANDLERS = {"bid": "_bid", "discard": "_discard"}
    OTHER_PHASES = "_play"

    # -- bidding ---------------------------------------------------------------------
    def _bid(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return "pick-up" if self.wants_skat([INDEX[c] for c in view["hand"]]) else "pass"

    @staticmethod
    def wants_skat(hand: list[int]) -> bool:
        """The manual's pick-up rule for a 10-card hand.

        Seven trumps with four of the top eight is the manual's core case; with fewer trumps
        or less top strength the side aces must make up for it.  The exact lines were set by
        playing each hand both ways between easy players (picking up beats letting the
        deal go to Ramsch or to the next seat in these cases, on average).
        """
        n = sum(1 for c in hand if c < 14)
        top = sum(1 for c in hand if c in TOP8)
        aces = sum(1 for c in hand if c in PLAIN_ACES)
        if n >= 7:
            return top >= 2
        if n == 6:
            return top >= 4 or (top >= 2 and aces >= 1)
        if n == 5:
            return (top >= 4 and aces >= 1) or (top >= 3 and aces >= 2)
        return False

    # -- discarding ------------------------------------------------------------------
    @staticmethod
    def pair_value(pair: tuple[int, ...], hand: list[int]) -> float:
        value = 0.0
        for c in pair:
            if c < 14:
                value -= 40 + (14 - c)  # keep trumps: they are the soloist's strength
            elif c in PLAIN_ACES:
                value -= 14  # an ace is a trick; banking its 11 rarely pays
            else:
                value += PIP[c]  # tens and kings banked; a ten in hand is a target
        rest = [c for c in hand if c not in pair]
        for suit in (1, 2, 3):
            before = sum(1 for c in hand if SUIT_OF[c] == suit)
            after = sum(1 for c in rest if SUIT_OF[c] == suit)
            if before and not after:
                value += 12  # a void lets the soloist trump that suit
            elif after == 1:
                lone = next(c for c in rest if SUIT_OF[c] == suit)
                if lone not in PLAIN_ACES:
                    value -= 2 + PIP[lone] * 0.5  # a bare ten or king is easily caught
        return value

    def _discard(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        hand = [INDEX[c] for c in view["hand"]]
        done = [INDEX[c] for c in view.get("discard") or []]
        if done:
            full = hand + done
            best = max(hand, key=lambda c: (self.pair_value((done[0], c), full), c))
            return ORDER[best]
        pair = max(combinations(hand, 2), key=lambda p: (self.pair_value(p, hand), p))
        return ORDER[max(pair, key=lambda c: (PIP[c], c))]

    # -- play ------------------------------------------------------------------------
    def _play(self, view: dict[str, Any], actions: list[str], rng: random.Random) -> str:
        seat = view["seat"]
        hand = [INDEX[c] for c in view["hand"]]
        played: set[int] = set()
        for t in view.get("tricks", []):
            played.update(INDEX[c] for _, c in t["cards"])
        trick_pairs = view["trick"]
        trick = [INDEX[c] for _, c in trick_pairs]
        played.update(trick)
        known = set(hand) | played
        for c in view.get("discard") or []:
            known.add(INDEX[c])
        unknown = [c for c in range(32) if c not in known]
        seats = [s for s, _ in trick_pairs]
        return ORDER[self._card(seat, view["soloist"], hand, seats, trick, [INDEX[c] for c in actions], unknown)]

    def open_card(self, deal: OpenPosition, actions: list[str]) -> str:
        """The card this rule plays for the seat to move in ``deal`` (``actions``: its legal cards), from
        what that seat may know: its hand, the cards played, and the discard if it is the soloist's.

        Why a second door to the rule: a strong player plays thousands of easy cards a decision in the
        deals it samples (``strong.py``'s play-outs), and building each seat's view for them took half of
        their time.  It makes the same choice as :meth:`act` on that seat's view (``test_bot.py`` checks)."""
        if len(actions) == 1:
            return actions[0]
        first = deal.leader * 3  # the trick's seats in order: ``SEAT[first:first + 3]``
        seat = SEAT[first + len(deal.trick)]
        held = deal.hands[0] | deal.hands[1] | deal.hands[2]
        discard = sum(1 << c for c in deal.discard)
        # the cards not played: the hands, the discard, and a Ramsch's skat (a solo's went to a hand or the discard)
        unplayed = held | discard | (deal.skat if deal.soloist is None else 0)
        known = (PACK & ~unplayed) | deal.hands[seat] | (discard if seat == deal.soloist else 0)
        hand = bit_indices(deal.hands[seat])
        unknown = bit_indices(PACK & ~known)
        seats = list(SEAT[first:first + len(deal.trick)])
        legal = [INDEX[c] for c in actions]
        return ORDER[self._card(seat, deal.soloist, hand, seats, list(deal.trick), legal, unknown)]

    def _card(self, seat: int, soloist: int | None, hand: list[int], seats: list[int], trick: list[int],
              legal: list[int], unknown: list[int]) -> int:
        """The play rule: ``seat``'s card from ``legal``, with ``hand``, the current ``trick`` (played by
        ``seats``) and the cards it cannot see (``unknown``), all in display order."""
        if soloist is None:
            return self._ramsch(trick, legal, unknown)
        if soloist == seat:
            return self._soloist(trick, legal, hand, unknown)
        return self._defender(seat, soloist, seats, trick, legal, unknown)

    @staticmethod
    def _boss(card: int, unknown: list[int]) -> bool:
        """No card still out ranks above ``card`` in its own suit (trumps are a suit)."""
        suit = SUIT_OF[card]
        return not any(u < card and SUIT_OF[u] == suit for u in unknown)

    @staticmethod
    def _cheapest(cards: list[int]) -> int:
        """The card that gives away least: fewest pips, then the weakest."""
        return min(cards, key=lambda c: (PIP[c], -c))

    def _soloist(self, trick: list[int], legal: list[int], hand: list[int], unknown: list[int]) -> int:
        out_trumps = [u for u in unknown if u < 14]
        if not trick:
            trumps = [c for c in legal if c < 14]
            if trumps and out_trumps:
                top = trumps[0]
                if top < out_trumps[0] or len(trumps) > len(out_trumps):
                    return top if top < out_trumps[0] else trumps[-1]
            bosses = [c for c in legal if c >= 14 and self._boss(c, unknown)]
            if bosses and (not out_trumps or any(c in PLAIN_ACES for c in bosses)):
                return max(bosses, key=lambda c: PIP[c])
            if trumps and out_trumps and len(trumps) >= 2:
                return trumps[-1]
            plains = [c for c in legal if c >= 14]
            return self._cheapest(plains or legal)
        best = trick[winning_place(trick)]
        winners = [c for c in legal if beats(c, best)]
        pts = sum(PIP[c] for c in trick)
        if not winners:
            return self._cheapest(legal)
        if len(trick) == 2:
            # Last to play: take it cheaply, with the most pips if it is a plain winner.
            if pts > 0 or any(c >= 14 for c in winners):
                plain = [c for c in winners if c >= 14]
                if plain:
                    return max(plain, key=lambda c: (PIP[c], -c))
                return max(winners)  # the lowest trump that wins
            losers = [c for c in legal if c not in winners]
            return self._cheapest(losers) if losers else max(winners)
        # Second to play: win only with a card nobody left can beat.
        safe = [c for c in winners if self._boss(c, unknown)]
        if safe:
            return max(safe)
        if pts >= 10:
            return min(winners)
        return self._cheapest(legal)

    def _defender(self, seat: int, soloist: int, seats: list[int], trick: list[int], legal: list[int],
                  unknown: list[int]) -> int:
        if not trick:
            plains = [c for c in legal if c >= 14]
            aces = [c for c in plains if self._boss(c, unknown) and PIP[c] >= 10]
            if aces:
                return aces[0]
            if plains:
                # Lead through the soloist: a low card of the longest plain suit, so he must
                # commit before the partner, who sits behind him.
                by_suit: dict[int, list[int]] = {}
                for c in plains:
                    by_suit.setdefault(SUIT_OF[c], []).append(c)
                suit = max(by_suit, key=lambda s: (len(by_suit[s]), -min(PIP[c] for c in by_suit[s])))
                return self._cheapest(by_suit[suit])
            return legal[-1]
        win_pos = winning_place(trick)
        best = trick[win_pos]
        partner_winning = seats[win_pos] != soloist
        soloist_to_play = soloist not in seats
        winners = [c for c in legal if beats(c, best)]
        if partner_winning:
            sure = not soloist_to_play or self._boss(best, unknown) and (
                best < 14 or not any(u < 14 for u in unknown))
            if sure:
                # Smear: the fattest card that does not take the trick from the partner
                # (unless every card would).
                losers = [c for c in legal if c not in winners] or legal
                return max(losers, key=lambda c: (PIP[c], c >= 14, c))
            losers = [c for c in legal if c not in winners] or legal
            return self._cheapest(losers)
        if not winners:
            return self._cheapest(legal)
        if not soloist_to_play:
            plain = [c for c in winners if c >= 14]
            if plain:
                return max(plain, key=lambda c: (PIP[c], -c))
            return max(winners)
        safe = [c for c in winners if self._boss(c, unknown)]
        if safe:
            return max(safe, key=lambda c: (PIP[c], c))
        return self._cheapest(legal)

    def _ramsch(self, trick: list[int], legal: list[int], unknown: list[int]) -> int:
        if not trick:
            def danger(c: int) -> tuple[int, int, int]:
                # How many cards still out would beat it if led (those of its suit numbered below it:
                # ``unknown`` is in display order); leading a card everyone must overtake is safest.
                above = bisect_left(unknown, c) - bisect_left(unknown, SUIT_START[SUIT_OF[c]])
                return (-above, PIP[c], -c)
            return min(legal, key=danger)
        best = trick[winning_place(trick)]
        losers = [c for c in legal if not beats(c, best)]
        if losers:
            # Duck, shedding the strongest card that still loses: it is the one most
            # likely to win an unwanted trick later.
            return min(losers, key=lambda c: (_height(c), -PIP[c]))
        if len(trick) == 2:
            return min(legal)  # forced to win as last: get rid of the strongest card
        return max(legal)  # someone may still overtake: win as low as possible


#: The levels this game offers beyond ``random`` (see ``parlour.bots.make``); the strong player is
#: named, not imported, so that this module stays cheap and ``strong.py`` may build on it.
LEVELS: dict[str, Any] = {"easy": EasyBot, "strong": ".strong:StrongBot"}
