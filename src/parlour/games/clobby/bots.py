"""Clobby easy player: the manual's "notes on strategy", as rules.

Bidding counts the first six cards the way the notes say: the jass is usually enough to
make by itself; otherwise menel, each ace, bella and a sequence count at full value, an
ace-ten in one suit counts 21 if the hand is strong enough to lead trumps and 16 if not,
a ten without its ace counts nothing, and about 40 in six cards is needed to make.  Elder
never schmeisses in round 1 (the dealer could force him to make and bete him); in round 2
elder schmeisses with a middling hand to stop the dealer naming his own suit.  The second
round is mainly for promoting a jack to jass.  A player far behind an opponent near game
asks for more before making (the second seed's advice).

In play it leads the jass at the first chance, leads trumps only from four or more, opens
its longest suit, prefers leading from sequences or non-scoring cards over tenaces, leads
non-scoring cards of a suit the opponent is out of to draw his trumps, and as second hand
(the last to play: there are only two cards to a trick) takes the trick with the card that
wins the most, or throws the cheapest card.  It announces bella unless it is the maker and
bete looks likely: a bete maker's bella goes to the opponent.
"""

from __future__ import annotations

import random
from typing import Any

from ...actions import Play, SuitChoice
from ...bots import PhaseBot
from .actions import parse_action
from .rules import GAME, PLAIN_POINTS, PLAIN_STRENGTH, SEQ, SUITS, TRUMP_POINTS, TRUMP_STRENGTH

ALL_CARDS = tuple(r + s for s in SUITS for r in SEQ)
#: Each card play (``KC``, ``KC+bella``) -> its card, parsed once: ``_play`` runs in every
#: rollout of the strong bot, where a dictionary look-up costs what a split did.
PLAYED = {a: parsed.card for a in GAME().action_space() if isinstance(parsed := parse_action(a), Play)}
TOUT, SANS = "tout-atout", "sans-tout"
#: what it costs to spend a trump to win a trick: the jass and menel keep control of the deal
CONTROL = {"J": 22, "9": 16, "A": 6, "T": 5, "K": 2, "Q": 2, "8": 0, "7": 0}


def _r(card: str) -> int:
    return SEQ.index(card[0])


def is_trump(card: str, trump: str | None) -> bool:
    return trump == TOUT or (trump is not None and card[1] == trump)


def points(card: str, trump: str | None) -> int:
    return (TRUMP_POINTS if is_trump(card, trump) else PLAIN_POINTS)[_r(card)]


def strength(card: str, trump: str | None) -> int:
    return (TRUMP_STRENGTH if is_trump(card, trump) else PLAIN_STRENGTH)[_r(card)]


def follower_wins(lead: str, card: str, trump: str | None) -> bool:
    if trump == TOUT:
        return strength(card, trump) > strength(lead, trump)
    if card[1] == lead[1]:
        return strength(card, trump) > strength(lead, trump)
    return is_trump(card, trump)


def run_values(hand: list[str]) -> int:
    """Meld points of a hand (every run of 3+ in sequence order)."""
    total = 0
    for s in SUITS:
        ranks = sorted(_r(c) for c in hand if c[1] == s)
        length, prev = 0, -2
        for r in ranks + [99]:
            if r == prev + 1:
                length += 1
            else:
                if length >= 3:
                    total += 20 if length == 3 else 50
                length = 1
            prev = r
    return total


def hand_count(hand: list[str], trump: str) -> tuple[int, bool]:
    """The notes' count of a hand for ``trump`` (a suit letter), and whether it holds the jass."""
    trumps = [c for c in hand if c[1] == trump]
    ranks = {c[0] for c in trumps}
    jass = "J" in ranks
    can_lead_trumps = jass or len(trumps) >= 4 or ("9" in ranks and len(trumps) >= 3)
    count = 20 if jass else 0
    if "9" in ranks:
        count += 14
    if "K" in ranks and "Q" in ranks:
        count += 20
    for s in SUITS:
        held = {c[0] for c in hand if c[1] == s}
        if "A" in held:
            count += (21 if can_lead_trumps else 16) if "T" in held else 11
    count += run_values(hand)
    return count, jass


def _tout_counts(hand: list[str]) -> tuple[int, int, int, int]:
    ranks = [c[0] for c in hand]
    return ranks.count("J"), ranks.count("9"), ranks.count("A"), ranks.count("T")


class EasyBot(PhaseBot):
    """The notes' choice for each view; deterministic, so ``rng`` is not needed."""

    name = "easy"
    PHASE_HANDLERS = {"play": "_play", "dix": "_dix"}
    OTHER_PHASES = "_bid"

    def __init__(self, make_at: int = 40, jass_make_at: int = 30, schmeiss_at: int = 28) -> None:
        self.make_at = make_at  # the notes' 40 points in the first six cards
        self.jass_make_at = jass_make_at  # the jass "usually" suffices: with a little more
        self.schmeiss_at = schmeiss_at  # a middling hand worth a schmeiss

    # -- bidding ----------------------------------------------------------------------
    def _threshold(self, view: dict[str, Any]) -> int:
        me, opp = view["scores"][view["seat"]], view["scores"][1 - view["seat"]]
        gp = view.get("game_point", 500)
        if opp >= gp - 80 and opp - me >= 100:
            return self.make_at + 15  # the opponent will reach game as defender anyway: make only to win big
        return self.make_at

    def _strong(self, hand: list[str], trump: str, view: dict[str, Any]) -> bool:
        count, jass = hand_count(hand, trump)
        trumps = sum(1 for c in hand if c[1] == trump)
        threshold = self._threshold(view)
        if jass and threshold == self.make_at:
            return count >= self.jass_make_at or trumps >= 2
        return count >= threshold

    def _bid(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        hand = view["hand"]
        seat = view["seat"]
        elder = seat == view["elder"]
        suit = view["bid_suit"]
        phase = view["phase"]
        if phase == "round 1":
            if self._strong(hand, suit, view):
                return "take"
            count, _ = hand_count(hand, suit)
            if not elder and count >= self.schmeiss_at:
                # Elder has shown weakness here: rather than let him name a suit, offer the schmeiss.
                return "schmeiss"
            return "pass"
        if phase == "schmeiss":
            round1 = view["bidding_round"] == 1
            trumps = [c[0] for c in hand if c[1] == suit]
            if round1:
                # Refusing makes the schmeisser maker in this suit: do it when we hold its top trumps.
                return "refuse" if "J" in trumps or ("9" in trumps and len(trumps) >= 3) else "accept"
            jacks = sum(1 for c in hand if c[0] == "J" and c[1] != suit)
            return "refuse" if jacks >= 2 else "accept"
        if phase == "overcall":
            j, n, _, _ = _tout_counts(hand)
            return "tout-atout" if j >= 2 and j + n >= 3 else "pass"
        suits = {a: parsed.named for a in legal if isinstance(parsed := parse_action(a), SuitChoice)}
        best = max(suits, key=lambda a: hand_count(hand, suits[a])[0])
        if phase == "name":
            return best
        # round 2
        if "name tout-atout" in legal:
            j, n, a, t = _tout_counts(hand)
            if j >= 3 or (j >= 2 and n >= 2):
                return "name tout-atout"
            if a >= 3 and j + n <= 1:
                return "name sans-tout"
        count, jass = hand_count(hand, suits[best])
        if self._strong(hand, suits[best], view) or (jass and count >= self.jass_make_at):
            return best
        if elder and count >= self.schmeiss_at - 2:
            return "schmeiss"
        return "pass"

    def _dix(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """Only the holder of the 7 of trumps gets here: for the other player keep is the only answer."""
        hand = view["hand"]
        trump = view["trump"]
        up = view["upcard"]
        seven = "7" + trump
        after = [c for c in hand if c != seven] + [up]
        gain = points(up, trump) + run_values(after) - run_values(hand) + strength(up, trump)
        return "exchange" if gain >= 0 else "keep"

    # -- play -------------------------------------------------------------------------
    def _play(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        trump = view["trump"]
        hand = view["hand"]
        seat = view["seat"]
        seen = set(hand)
        played: list[tuple[int, str]] = []
        for t in view["tricks"]:
            played += [(s, c) for s, c in t["cards"]]
        played += [(s, c) for s, c in view["trick"]]
        seen.update(c for _, c in played)
        up = view.get("upcard")
        dix = view.get("dix")
        exchanged = dix is not None and dix["exchanged_by"] is not None
        if up is not None and exchanged:
            seen.add("7" + up[1])  # the dix lies in the stock now
        if up is not None and not exchanged:
            seen.add(up)  # still under the stock (or known out of play)
        unseen = [c for c in ALL_CARDS if c not in seen]
        voids = self._voids(view, seat, trump)
        normal = trump is not None and trump in SUITS
        opp_trumps_possible = normal and trump not in voids and any(c[1] == trump for c in unseen)

        cards = sorted({PLAYED[a] for a in legal}, key=legal.index)
        if view["trick"]:
            choice = self._follow(view["trick"][0][1], cards, trump)
        else:
            choice = self._lead(cards, hand, trump, unseen, voids, opp_trumps_possible)
        bella = str(Play(choice, "bella"))
        if bella in legal and self._announce(view, seat, hand, unseen):
            return bella
        return choice

    @staticmethod
    def _voids(view: dict[str, Any], seat: int, trump: str | None) -> set[str]:
        voids: set[str] = set()
        for t in view["tricks"]:
            (ls, lead), (fs, card) = t["cards"]
            if fs == seat:
                continue
            if card[1] != lead[1]:
                voids.add(lead[1])
                if trump is not None and trump in SUITS and lead[1] != trump and card[1] != trump:
                    voids.add(trump)
        return voids

    @staticmethod
    def _follow(lead: str, cards: list[str], trump: str | None) -> str:
        best, best_value = cards[0], -1e9
        for c in cards:
            stake = points(lead, trump) + points(c, trump)
            value: float
            if follower_wins(lead, c, trump):
                value = stake
                if trump is not None and trump in SUITS and is_trump(c, trump) and not is_trump(lead, trump):
                    value -= CONTROL[c[0]]
                elif trump == TOUT and c[1] != lead[1]:
                    value -= CONTROL[c[0]] / 2
                value += 50
            else:
                ruff = 3 if is_trump(c, trump) and trump is not None and trump in SUITS else 0
                value = -stake - strength(c, trump) / 10 - ruff
            if value > best_value:
                best, best_value = c, value
        return best

    @staticmethod
    def _lead(cards: list[str], hand: list[str], trump: str | None, unseen: list[str], voids: set[str],
              opp_trumps: bool) -> str:
        normal = trump is not None and trump in SUITS
        my_trumps = [c for c in hand if is_trump(c, trump)] if normal else []
        trumps_out = normal and any(c[1] == trump for c in unseen)
        by_suit = {s: [c for c in hand if c[1] == s] for s in SUITS}

        def master(c: str) -> bool:
            if trump == TOUT:
                return all(strength(u, trump) <= strength(c, trump) for u in unseen)
            return all(u[1] != c[1] or strength(u, trump) < strength(c, trump) for u in unseen)

        def tenace(s: str) -> bool:
            held = sorted((PLAIN_STRENGTH[_r(c)] for c in by_suit[s]), reverse=True)
            honours = [h for h in held if h >= 4]
            return len(honours) >= 2 and any(a - b > 1 for a, b in zip(honours, honours[1:], strict=False))

        def is_sequence_top(c: str) -> bool:
            s = c[1]
            return any(strength(o, trump) == strength(c, trump) - 1 for o in by_suit[s])

        best, best_value = cards[0], -1e9
        for c in cards:
            pts = points(c, trump)
            s = c[1]
            if normal and s == trump:
                if c[0] == "J" and trumps_out:
                    value = 100.0
                elif len(my_trumps) >= 4 and trumps_out:
                    value = 45 + strength(c, trump) if master(c) else 20 - strength(c, trump)
                elif not trumps_out:
                    value = -10 - pts  # nothing to draw: keep trumps to ruff with
                else:
                    value = -40 - pts
            elif s in voids and trump != TOUT:  # at tout atout a void card still competes by rank
                if opp_trumps:
                    value = 40.0 if pts == 0 else -30.0 - pts  # make him spend a trump on nothing
                else:
                    value = 30.0 + pts
            elif master(c):
                value = 25.0 + pts - (8 * max(0, len(by_suit[s]) - 3) if opp_trumps else 0)
            else:
                value = 3.0 * len(by_suit[s]) - pts * 1.5
                if pts == 0:
                    value += 10
                elif is_sequence_top(c):
                    value += 6
                if tenace(s):
                    value -= 10
            if value > best_value:
                best, best_value = c, value
        return best

    @staticmethod
    def _announce(view: dict[str, Any], seat: int, hand: list[str], unseen: list[str]) -> bool:
        if view["maker"] != seat:
            return True
        trump = view["trump"]
        mine, theirs = view["points"][seat], view["points"][1 - seat]
        left = len(hand)
        unseen_pts = sum(points(c, trump) for c in unseen)
        opp_share = unseen_pts * (left / len(unseen)) if unseen else 0
        potential = sum(points(c, trump) for c in hand) + opp_share + 10
        # Bete looks likely when even winning most of what is left would not catch up.
        return mine + 20 + 0.7 * potential > theirs


#: The levels this game offers beyond ``random`` (see ``parlour.bots.make``); the strong player is
#: named, not imported, so that this module stays cheap and ``strong.py`` may build on it.
LEVELS: dict[str, Any] = {"easy": EasyBot, "strong": ".strong:StrongBot"}
