"""Six-Bid Solo easy player: the manual's strategy notes as rules, seeing only the view.

Bidding follows the notes: every suit holds 30 pips, the widow is worth about 10, so about
50 pips in aces and tens with a proper trump suit (four trumps with two of the top three, or
more trumps with weaker tops) makes a solo.  "About 50" is the manual's *pretty sure* hand;
the bot also takes the marginal ones it warns are the fun, from 38 in aces and tens or an
estimate (widow, aces and tens, trump length, half the face cards, unguarded tens) of 54,
because head-to-head runs against stricter versions of itself showed those bids pay.  Heart
asks for more, guarantee and call only near-certain hands (a call: every card in an unbroken
run from an ace but at most the one it will call); misere and spread only hands with low
cards in every suit held and no dangerous singleton.  The bot bids the cheapest contract it
can play that beats the standing bid, so it competes without overreaching.

In play the two opponents of the soloist cooperate: each smears pips onto a trick his partner
is winning, ducks cheaply when the soloist wins, and against a misere tries to force the
soloist to take a trick (in a spread using the face-up hand).
"""

from __future__ import annotations

import random
from typing import Any

from ...actions import CardChoice, SuitChoice
from ...bots import PhaseBot
from ...cards import bit_indices
from .actions import parse_action
from .rules import BIDS, CODES, NO_TRUMP, PIP_OF, POWER_OF, SPREAD, SUITS, OpenPosition, cards_of, no_trick_contract
from .rules import STRENGTH as ORDER  # low to high

STRENGTH = {r: i for i, r in enumerate(ORDER)}
ALL_CARDS = CODES
#: the rules' trump index of a trump letter (None: no trump), for ``rules.POWER_OF``
TRUMP_INDEX: dict[str | None, int] = {**{s: i for i, s in enumerate(SUITS)}, None: NO_TRUMP}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
# Bidding thresholds (see the module docstring; tuned by easy-vs-easy variants over 6000 deals).
MISERE_SLACK = 0
SPREAD_SLACK = -1
SOLO_ACES_TENS = 38
SOLO_ESTIMATE = 54
HEART_ACES_TENS = 44
HEART_ESTIMATE = 62


def strength(card: str) -> int:
    return STRENGTH[card[0]]


def pips(card: str) -> int:
    return PIP_OF[card]


def by_suit(cards: list[str]) -> dict[str, list[str]]:
    """Cards grouped by suit, each list high to low."""
    out: dict[str, list[str]] = {s: [] for s in SUITS}
    for c in cards:
        out[c[1]].append(c)
    for s in SUITS:
        out[s].sort(key=strength, reverse=True)
    return out


# -- hand evaluation ------------------------------------------------------------------------
def trump_ok(suit_cards: list[str]) -> bool:
    """The manual's trump rule: four with two of A T K, or more trumps with weaker tops."""
    n = len(suit_cards)
    tops = sum(1 for c in suit_cards if c[0] in "ATK")
    return (n >= 4 and tops >= 2) or (n >= 5 and tops >= 1) or n >= 6


def aces_tens(cards: list[str]) -> int:
    return sum(pips(c) for c in cards if c[0] in "AT")


def trump_estimate(cards: list[str], trump: str) -> float:
    """A rough count of the pips a trump contract should bring in, widow included (about 10)."""
    suits = by_suit(cards)
    est = 10.0 + aces_tens(cards)
    # Trump length wins tricks by ruffing; unguarded tens in side suits are likely lost.
    est += 4 * max(0, len(suits[trump]) - 3)
    for s in SUITS:
        held = suits[s]
        if s != trump and any(c[0] == "T" for c in held) and not any(c[0] == "A" for c in held) and len(held) < 3:
            est -= 6
    est += sum(pips(c) for c in cards if c[0] in "KQJ") * 0.5
    return est


def losers(cards: list[str]) -> int:
    """Cards not in an unbroken run from the ace of their suit (the tricks a call may lose)."""
    suits = by_suit(cards)
    count = 0
    for s in SUITS:
        held = suits[s]
        run = 0
        for i, c in enumerate(held):
            if strength(c) == 8 - i:
                run += 1
            else:
                break
        count += len(held) - run
    return count


def misere_safe(cards: list[str], slack: int) -> bool:
    """Low cards in every suit held and no dangerous singleton.

    A suit is safe when its i-th lowest card is no higher than rank ``2 i + 1 + slack``
    (0 is the six): each card then has enough lower cards of its suit out to duck under.
    A spread (face up, the opponents lead) is bid with less slack than a misere.
    """
    suits = by_suit(cards)
    for s in SUITS:
        held = sorted(suits[s], key=strength)
        if not held:
            continue
        if len(held) == 1 and strength(held[0]) > 1 + slack:
            return False
        for i, c in enumerate(held):
            if strength(c) > 2 * i + 1 + slack:
                return False
    return True


def playable(cards: list[str]) -> dict[str, str | None]:
    """Contract -> the trump it would name ("" for none) for every contract this hand can play."""
    suits = by_suit(cards)
    at = aces_tens(cards)
    out: dict[str, str | None] = {}
    best_solo = None
    best_est = -1.0
    for s in "CDS":
        if trump_ok(suits[s]):
            est = trump_estimate(cards, s)
            if est > best_est:
                best_solo, best_est = s, est
    if best_solo is not None and (at >= SOLO_ACES_TENS or best_est >= SOLO_ESTIMATE):
        out["solo"] = best_solo
    hearts = suits["H"]
    heart_tops = sum(1 for c in hearts if c[0] in "ATK")
    if trump_ok(hearts) and heart_tops >= 2 and (at >= HEART_ACES_TENS or trump_estimate(cards, "H") >= HEART_ESTIMATE):
        out["heart"] = "H"
    if misere_safe(cards, MISERE_SLACK):
        out["misere"] = ""
    for s in SUITS:
        held = suits[s]
        if len(held) >= 5 and any(c[0] == "A" for c in held) and any(c[0] == "T" for c in held):
            need = 74 if s == "H" else 80
            if trump_estimate(cards, s) >= need + 14 and at >= 63:
                out["guarantee"] = s
                break
    if misere_safe(cards, SPREAD_SLACK):
        out["spread"] = ""
    longest = max(SUITS, key=lambda s: (len(suits[s]), aces_tens(suits[s])))
    if len(suits[longest]) >= 3 and losers(cards) <= 1:
        out["call"] = longest
    return out


# -- play helpers ----------------------------------------------------------------------------
def power(card: str, led: str, trump: str | None) -> int:
    """The rules' trick strength of ``card`` (``rules.POWER``: trumps, then the led suit, else 0)."""
    return POWER_OF[TRUMP_INDEX[trump]][SUIT_INDEX[led]][card]


def winning(trick: list[list[Any]], trump: str | None) -> tuple[int, str]:
    led = trick[0][1][1]
    best_seat, best_card = trick[0]
    for seat, card in trick[1:]:
        if power(card, led, trump) > power(best_card, led, trump):
            best_seat, best_card = seat, card
    return best_seat, best_card


#: every card of the pack, as a mask
PACK = (1 << len(CODES)) - 1


def seen_cards(view: dict[str, Any]) -> set[str]:
    seen = set(view["hand"])
    for t in view.get("tricks") or []:
        seen.update(c for _, c in t["cards"])
    seen.update(c for _, c in view.get("trick") or [])
    return seen


def is_master(card: str, seen: set[str]) -> bool:
    """No card of the suit higher than ``card`` is still out (unplayed and not ours)."""
    return all(c in seen for c in ALL_CARDS if c[1] == card[1] and strength(c) > strength(card))


def lowest(cards: list[str]) -> str:
    return min(cards, key=lambda c: (pips(c), strength(c)))


def highest(cards: list[str]) -> str:
    return max(cards, key=lambda c: (strength(c), pips(c)))


class EasyBot(PhaseBot):
    name = "easy"
    PHASE_HANDLERS = {"bid": "_bid", "declare": "_declare", "call": "_call", "give": "_give", "play": "_card"}

    # -- auction and declarations ---------------------------------------------------------------
    def _bid(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        can = playable(view["hand"])
        for bid in BIDS:
            if bid in legal and bid in can:
                return bid
        return "pass"

    def _declare(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        cards = view["hand"]
        can = playable(cards)
        wanted = can.get(view["contract"])
        if wanted and (trump := str(SuitChoice("trump", wanted))) in legal:
            return trump
        suits = by_suit(cards)
        options = {a: parsed.named for a in legal if isinstance(parsed := parse_action(a), SuitChoice)}
        return max(options, key=lambda a: (len(suits[options[a]]), trump_estimate(cards, options[a])))

    def _call(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        cards = view["hand"]
        trump = view["trump"]
        suits = by_suit(cards)
        # The highest missing card of the trump suit, else of the longest side suit with a gap.
        order = [trump] + sorted((s for s in SUITS if s != trump), key=lambda s: -len(suits[s]))
        for s in order:
            if not suits[s]:
                continue
            for r in reversed(ORDER):
                if (call := str(CardChoice("call", r + s))) in legal:
                    return call
        return legal[0]

    def _give(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        trump = view["trump"]
        suits = by_suit(view["hand"])
        side = [c for c in legal if c[1] != trump] or legal
        # Shortest side suit first (it makes a void for ruffing), then the lowest card.
        return min(side, key=lambda c: (pips(c), len(suits[c[1]]), strength(c)))

    # -- play --------------------------------------------------------------------------------------
    def _card(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        choice = self._play(view, legal, seen_cards(view))
        return choice if choice in legal else rng.choice(legal)

    def open_card(self, deal: OpenPosition, actions: list[str], rng: random.Random) -> str:
        """The card this rule plays for the seat to move in ``deal`` (``actions``: its legal cards), from
        what that seat may know: its hand, the cards played (not the widow), and a spread's open hand.

        Why a second door to the rule: a strong player plays thousands of easy cards a decision in the
        deals it samples to price a bid (``strong.py``'s play-outs), and building each seat's view for them
        took a third of their time.  It makes the same choice as :meth:`act` on that seat's view
        (``test_bot.py`` checks)."""
        if len(actions) == 1:
            return actions[0]
        seat = (deal.leader + len(deal.trick)) % 3
        on_table = sum(1 << c for c in deal.trick)
        played = PACK & ~(deal.hands[0] | deal.hands[1] | deal.hands[2] | on_table | deal.widow)
        seen = {CODES[c] for c in bit_indices(played | on_table | deal.hands[seat])}
        view = {"seat": seat, "soloist": deal.soloist, "contract": BIDS[deal.contract],
                "trump": SUITS[deal.trump] if deal.trump != NO_TRUMP else None,
                "trick": [[(deal.leader + i) % 3, CODES[c]] for i, c in enumerate(deal.trick)],
                "spread_hand": cards_of(deal.hands[deal.soloist], deal.trump) if deal.contract == SPREAD else None}
        choice = self._play(view, actions, seen)
        return choice if choice in actions else rng.choice(actions)

    def _play(self, view: dict[str, Any], legal: list[str], seen: set[str]) -> str:
        """The play rule, from the fields of ``view`` it reads (seat, soloist, contract, trump, trick and a
        spread's open hand) and the cards its seat has ``seen`` (its hand and the cards played)."""
        contract = view["contract"]
        me = view["seat"]
        soloist = view["soloist"]
        if no_trick_contract(contract):
            if me == soloist:
                return self._misere_soloist(view, legal, seen)
            return self._misere_defender(view, legal)
        if me == soloist:
            return self._trump_soloist(view, legal, seen)
        return self._trump_defender(view, legal, seen)

    def _trump_soloist(self, view: dict[str, Any], legal: list[str], seen: set[str]) -> str:
        trump = view["trump"]
        trick = view["trick"]
        if not trick:
            trumps = [c for c in legal if c[1] == trump]
            trumps_out = [c for c in ALL_CARDS if c[1] == trump and c not in seen]
            if trumps and trumps_out:
                top = highest(trumps)
                if is_master(top, seen):
                    return top
            masters = [c for c in legal if c[1] != trump and is_master(c, seen)]
            if masters:
                return max(masters, key=pips)
            if trumps and trumps_out and len(trumps) >= 3:
                return min(trumps, key=strength)
            side = [c for c in legal if c[1] != trump] or legal
            return lowest(side)
        return self._follow_to_win(view, legal, trick, trump, seen, partner=None)

    def _trump_defender(self, view: dict[str, Any], legal: list[str], seen: set[str]) -> str:
        trump = view["trump"]
        trick = view["trick"]
        soloist = view["soloist"]
        me = view["seat"]
        partner = 3 - me - soloist
        if not trick:
            masters = [c for c in legal if c[1] != trump and is_master(c, seen)]
            if masters:
                return max(masters, key=pips)
            side = [c for c in legal if c[1] != trump] or legal
            # Lead low from the longest side suit, keeping tens and aces back.
            suits = by_suit(side)
            longest = max((s for s in SUITS if suits[s]), key=lambda s: len(suits[s]))
            return lowest(suits[longest])
        return self._follow_to_win(view, legal, trick, trump, seen, partner=partner)

    def _follow_to_win(self, view: dict[str, Any], legal: list[str], trick: list[list[Any]], trump: str | None,
                       seen: set[str], partner: int | None) -> str:
        led = trick[0][1][1]
        win_seat, win_card = winning(trick, trump)
        last = len(trick) == 2
        soloist = view["soloist"]
        soloist_played = any(seat == soloist for seat, _ in trick)
        trick_pips = sum(pips(c) for _, c in trick)
        if partner is not None and win_seat == partner and (soloist_played or is_master(win_card, seen)):
            # Partner takes it: smear the most pips we may.
            return max(legal, key=lambda c: (pips(c), -strength(c)) if c[1] != trump else (pips(c) - 5, 0))
        beaters = [c for c in legal if power(c, led, trump) > power(win_card, led, trump)]
        if beaters:
            cheapest = min(beaters, key=lambda c: (power(c, led, trump), pips(c)))
            if last:
                if trick_pips > 0 or partner is None or cheapest[1] != trump:
                    return cheapest
            else:
                top = max(beaters, key=lambda c: power(c, led, trump))
                if top[1] == led and is_master(top, seen):
                    return top
                if top[1] == trump and (trick_pips >= 10 or partner is None):
                    return cheapest
                if trick_pips >= 10:
                    return cheapest
        return lowest(legal)

    def _misere_soloist(self, view: dict[str, Any], legal: list[str], seen: set[str]) -> str:
        trick = view["trick"]
        if not trick:
            # Lead a card some unseen card of its suit can still beat, lowest first.
            safe = [c for c in legal if not is_master(c, seen)]
            return min(safe or legal, key=strength)
        led = trick[0][1][1]
        _, win_card = winning(trick, None)
        follow = [c for c in legal if c[1] == led]
        if follow:
            under = [c for c in follow if strength(c) < strength(win_card)]
            if under:
                return max(under, key=strength)
            if len(trick) == 2:
                return max(follow, key=strength)
            return min(follow, key=strength)
        # Void: shed the most dangerous card, the highest of the suit with fewest low cards.
        return max(legal, key=strength)

    def _misere_defender(self, view: dict[str, Any], legal: list[str]) -> str:
        trick = view["trick"]
        soloist = view["soloist"]
        spread = view.get("spread_hand") or []
        if not trick:
            if spread:
                sol_suits = by_suit(spread)
                best = None
                for c in legal:
                    low = sol_suits[c[1]][-1:] if sol_suits[c[1]] else []
                    if low and strength(c) < strength(low[0]):
                        gap = strength(low[0]) - strength(c)
                        if best is None or gap > best[0]:
                            best = (gap, c)
                if best is not None:
                    return best[1]
            return min(legal, key=strength)
        led = trick[0][1][1]
        win_seat, win_card = winning(trick, None)
        follow = [c for c in legal if c[1] == led]
        soloist_played = any(seat == soloist for seat, _ in trick)
        if follow:
            if soloist_played and win_seat == soloist:
                under = [c for c in follow if strength(c) < strength(win_card)]
                if under:
                    return max(under, key=strength)
                return max(follow, key=strength)
            if not soloist_played:
                if spread:
                    sol_follow = [c for c in spread if c[1] == led]
                    if sol_follow:
                        lowest_sol = min(sol_follow, key=strength)
                        under = [c for c in follow if strength(c) < strength(lowest_sol)]
                        if under and strength(win_card) < strength(lowest_sol):
                            return max(under, key=strength)
                return min(follow, key=strength)
            return max(follow, key=strength)
        return max(legal, key=strength)


# Why imported here, last: the strong player builds on this module's easy policy.
#: The levels this game offers beyond ``random`` (see ``parlour.bots.make``); the strong player is
#: named, not imported, so that this module stays cheap and ``strong.py`` may build on it.
LEVELS: dict[str, Any] = {"easy": EasyBot, "strong": ".strong:StrongBot"}
