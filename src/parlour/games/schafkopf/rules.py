"""Schafkopf, 3-handed, with Ramsch, as RULES.md settles it ("Schafkopf, 3-handed", seed 002).

Thirty-two cards; the 14 trumps (QC QS QH QD JC JS JH JD AD TD KD 9D 8D 7D) are one suit.
Deal 3-4-3 from elder with the 2-card skat laid down before the 4s; elder, next and dealer
in turn say ``pick-up`` or ``pass``; the first to pick up is the soloist, takes the skat and
discards two cards (two actions, each a card code), which count for him.  Elder leads; follow
the suit led (trumps when a trump is led), otherwise any card.  The soloist scores +2 for
61-90 pips, +4 for 91+, +6 for all tricks; -2 for 31-60, -4 for 0-30, -6 for no trick; only
his score changes.  If all pass the deal is a Ramsch: each for himself, the last trick takes
the skat, and all tricks -4, else no trick +4, else 40-40-40 dealer +2, else fewest pips +2
(two tied: the one who did not take the later of their tricks).  The game ends after the
deal in which a seat reaches ``target`` (default 10); the highest score wins.

Choices where RULES.md is silent, and why:

- **Display order** of a hand (and so the order of discard and play actions): the trumps high
  to low, then clubs, spades, hearts, each A T K 9 8 7.  Clubs-spades-hearts is the order the
  queens and jacks themselves rank in, which is how a Schafkopf player sorts.  Bids are listed
  ``pick-up`` then ``pass``.
- **The discard stays hidden from the defenders for good.**  The soloist's view shows it (and
  the two skat cards he picked up); the deal summary gives only its pip count
  (``discard_pips``), which is public in any case as part of the soloist's total.  At the
  table the discard is counted by the soloist and not usually turned for inspection, and a
  defender can know those two cards only by elimination after the last trick; the engine
  never shows them.  The skat of a Ramsch, by contrast, goes to the last trick's winner
  and is counted openly, so the Ramsch summary shows it (``skat``).
- **Schwarz beats the pip count**: a soloist who takes no trick loses 6 even if his discard
  holds pips, and one who takes every trick wins 6 (he then has all 120 anyway).
- **What is public during play**: the bidding, who is soloist, every played card (the
  tricks of the current deal in ``tricks``), and each seat's count of tricks and of pips
  taken in tricks so far (``pips_won``; the discard and the Ramsch skat are not in it).  All of
  these can be reconstructed by any attentive player from the cards that were played.
- **Winner**: only one seat's score changes in a deal, so the seat that reaches the target is
  always alone at the top; ``winner`` is still computed as the unique highest score (None if
  that were ever shared) so the rule reads as RULES.md states it.
- **Ramsch 40-40-40**: "the dealer" is the dealer of that deal.
- **The next deal is dealt lazily** (``LAZY_DEALS``, see engine.py): the engine deals it before
  anything answers about it.

Speed: cards are integers 0..31 in display order (so 0..13 are the trumps, strongest first,
and within a plain suit a lower number is a higher card); hands are 32-bit masks.  A trick is
won by the lowest-numbered card that is a trump or of the suit led, precomputed for all
32x32x32 tricks in one 32 KB table.  Legal lists are built from four byte-indexed tables of
card-code tuples, ``_is_legal`` checks legality with masks (the engine's ``apply`` calls it,
records the action and calls ``_apply``), and pips and trick counts are summed
from the trick list only when scored or viewed, so a random deal through the public API
(shuffle included) costs about 40 microseconds here.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from operator import itemgetter
from typing import Any, NamedTuple, get_args

from ...cards import PACK_32, PIPS
from ...echo import shorten
from ...engine import Game, Option, State
from .views import Phase

#: Card codes in display order; a card's index here is its internal number.
ORDER: tuple[str, ...] = (
    "QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD", "AD", "TD", "KD", "9D", "8D", "7D",
    "AC", "TC", "KC", "9C", "8C", "7C",
    "AS", "TS", "KS", "9S", "8S", "7S",
    "AH", "TH", "KH", "9H", "8H", "7H",
)
TRUMPS: tuple[str, ...] = ORDER[:14]
INDEX: dict[str, int] = {c: i for i, c in enumerate(ORDER)}
_INDEX_GET = INDEX.get
BIT: dict[str, int] = {c: 1 << i for i, c in enumerate(ORDER)}
PIP: tuple[int, ...] = tuple(PIPS.get(c[0], 0) for c in ORDER)
#: 0 = trump, 1 = clubs, 2 = spades, 3 = hearts
SUIT_OF: tuple[int, ...] = tuple(0 if i < 14 else 1 + (i - 14) // 6 for i in range(32))
SUIT_NAME = ("trump", "club", "spade", "heart")
SUIT_MASKS: tuple[int, ...] = (0x3FFF, 0x3F << 14, 0x3F << 20, 0x3F << 26)
#: the mask a follower must play from, by the index of the card led
FOLLOW_MASK: tuple[int, ...] = tuple(SUIT_MASKS[SUIT_OF[i]] for i in range(32))
#: deal position -> 0 elder, 1 next, 2 dealer, 3 skat (RULES.md "Deal")
SLOT = [0] * 3 + [1] * 3 + [2] * 3 + [3] * 2 + [0] * 4 + [1] * 4 + [2] * 4 + [0] * 3 + [1] * 3 + [2] * 3
_PICK = tuple(itemgetter(*(i for i in range(32) if SLOT[i] == s)) for s in range(4))
_NEXT = (1, 2, 0)
#: (leader * 3 + place in the trick) -> seat
SEAT = tuple((leader + i) % 3 for leader in range(3) for i in range(3))


def power(led: int, card: int) -> int:
    """How strongly ``card`` plays in a trick led by ``led``: 0 if it cannot take it, else higher wins.

    The one statement of the trick rule (RULES.md: "highest trump wins, else the highest card of
    the suit led"): a trump or a card of the suit led can take the trick, and of those the lowest
    number wins (numbers run in display order, strongest first).  ``WIN`` (the engine), the easy
    player's ``beats`` and the search kernel's ``power`` array (``tables.py``) are all built from it.
    """
    return 32 - card if card < 14 or SUIT_OF[card] == SUIT_OF[led] else 0


#: ``POWER[led][card]``: :func:`power` for every pair
POWER: tuple[tuple[int, ...], ...] = tuple(tuple(power(led, c) for c in range(32)) for led in range(32))


def winning_place(trick: Sequence[int]) -> int:
    """Place in ``trick`` (0 = the lead) of the card now winning it; the trick may be incomplete."""
    row = POWER[trick[0]]
    best = 0
    for i in range(1, len(trick)):
        if row[trick[i]] > row[trick[best]]:
            best = i
    return best


def beats(card: int, best: int) -> bool:
    """Whether ``card`` takes the trick from ``best``, the card now winning it.

    ``best`` wins, so it is a trump or of the suit led: the cards that can beat it are the
    trumps and its own suit, as if it had been led.
    """
    row = POWER[best]
    return row[card] > row[best]


def _trick_winner(c0: int, c1: int, c2: int) -> int:
    """Place (0, 1, 2) of the winning card of a complete trick."""
    return winning_place((c0, c1, c2))


#: the winner's place for every trick (c0 << 10 | c1 << 5 | c2), looked up rather than worked out
WIN = bytes(_trick_winner(a, b, c) for a in range(32) for b in range(32) for c in range(32))


def _byte_table(shift: int) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(ORDER[shift + b] for b in range(8) if m >> b & 1) for m in range(256))


_B0, _B1, _B2, _B3 = (_byte_table(s) for s in (0, 8, 16, 24))
#: _PLAIN[suit][pattern]: the codes of a plain suit (1 clubs, 2 spades, 3 hearts) in a 6-bit pattern
_PLAIN = ((),) + tuple(tuple(tuple(ORDER[8 + 6 * s + b] for b in range(6) if m >> b & 1) for m in range(64))
                       for s in (1, 2, 3))
_PLAIN_SHIFT = (0, 14, 20, 26)


def cards_of(mask: int) -> list[str]:
    """The codes of a card mask, in display order."""
    return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255], *_B3[mask >> 24]]


_PIP_BYTES = tuple(tuple(sum(PIP[shift + b] for b in range(8) if m >> b & 1) for m in range(256))
                   for shift in (0, 8, 16, 24))


def pips_of(mask: int) -> int:
    """The pips of the cards in a mask."""
    p0, p1, p2, p3 = _PIP_BYTES
    return p0[mask & 255] + p1[mask >> 8 & 255] + p2[mask >> 16 & 255] + p3[mask >> 24]


BID, DISCARD, PLAY, OVER = 0, 1, 2, 3
PHASES: tuple[Phase, ...] = get_args(Phase)  # by the phase numbers above
BIDS = ("pick-up", "pass")


class SoloResult(StrEnum):
    """How a soloist's deal ended: the ``result`` of its summary.

    Why an enum: the rules name the result and ``text.py`` says it in words, so both read one
    set of names.  A ``StrEnum`` so that a summary holds the very strings it always held.
    """

    SCHWARZ = "schwarz"
    SCHNEIDER = "schneider"
    WON = "won"
    LOST = "lost"
    LOST_SCHNEIDER = "lost schneider"
    LOST_SCHWARZ = "lost schwarz"


class RamschResult(StrEnum):
    """Which Ramsch rule scored the deal: the ``result`` of its summary (see ``SoloResult``)."""

    ALL_TRICKS = "all tricks"
    NO_TRICK = "no trick"
    ALL_FORTY = "40-40-40"
    FEWEST_PIPS = "fewest pips"
    FEWEST_PIPS_TIE = "fewest pips, tie"


#: the soloist's score -> his result
SOLO_RESULTS = {6: SoloResult.SCHWARZ, 4: SoloResult.SCHNEIDER, 2: SoloResult.WON, -2: SoloResult.LOST,
                -4: SoloResult.LOST_SCHNEIDER, -6: SoloResult.LOST_SCHWARZ}


def soloist_score(pips: int, tricks: int) -> int:
    """The soloist's score for a deal from his pips (discard included) and tricks taken."""
    if tricks == 10:
        return 6
    if tricks == 0:
        return -6
    if pips >= 91:
        return 4
    if pips >= 61:
        return 2
    if pips >= 31:
        return -2
    return -4


def ramsch_result(pips: list[int], tricks: list[int], winners: list[int],
                  dealer: int) -> tuple[list[int], int, RamschResult]:
    """Score a Ramsch: (points per seat, the seat that scores, which rule applied).

    ``pips`` already include the skat for the last trick's winner; ``winners`` is the seat
    that took each trick in order (for the tie rule: of two tied for fewest pips, the one
    who took the later of their tricks does not score).
    """
    add = [0, 0, 0]
    if 10 in tricks:
        scorer = tricks.index(10)
        add[scorer] = -4
        return add, scorer, RamschResult.ALL_TRICKS
    if 0 in tricks:
        scorer = tricks.index(0)
        add[scorer] = 4
        return add, scorer, RamschResult.NO_TRICK
    if pips[0] == pips[1] == pips[2]:
        add[dealer] = 2
        return add, dealer, RamschResult.ALL_FORTY
    low = min(pips)
    tied = [s for s in range(3) if pips[s] == low]
    if len(tied) == 1:
        scorer, result = tied[0], RamschResult.FEWEST_PIPS
    else:
        a, b = tied
        last_a = max(i for i, w in enumerate(winners) if w == a)
        last_b = max(i for i, w in enumerate(winners) if w == b)
        scorer, result = (a if last_a < last_b else b), RamschResult.FEWEST_PIPS_TIE
    add[scorer] = 2
    return add, scorer, result


def _trick_dict(t: tuple[int, int, int, int, int]) -> dict[str, Any]:
    leader = t[0]
    return {"cards": [[(leader + i) % 3, ORDER[t[1 + i]]] for i in range(3)], "winner": t[4]}


class OpenPosition(NamedTuple):
    """A deal in play with every card shown: what :meth:`SchafkopfState.open_position` returns.

    Why a public record: the solver, the tests and the benches need the whole deal (every
    hand, the skat and the discard), which no seat's view holds; this is the one place that
    hands it out, so nothing outside this module reads the state's private fields.  A player
    never gets it (the strong player samples the hidden cards instead, ``sampler.py``).
    """

    hands: tuple[int, int, int]  # each seat's cards now, as masks
    leader: int  # the seat that led the current trick (or leads the next one)
    trick: tuple[int, ...]  # the cards of the current trick, in order from the leader
    soloist: int | None  # None: a Ramsch (or the bidding)
    dealer: int
    pips: tuple[int, int, int]  # pips taken in this deal's completed tricks (not the discard, not the skat)
    tricks: tuple[int, int, int]  # completed tricks taken, by seat
    winners: tuple[int, ...]  # the seat that took each completed trick, in order
    skat: int  # the two skat cards as dealt (a mask; in a solo the soloist picked them up)
    discard: tuple[int, ...]  # the soloist's discard, in the order laid down


class SchafkopfState(State):
    LAZY_DEALS = True
    DEALS_FIRST = (*State.DEALS_FIRST, "open_position")
    #: the mutable fields a clone copies (``engine.State.clone``)
    _COPIED_LISTS = ("_scores", "_hands", "_bids", "_discard_list", "_trick", "_tricks")
    # -- set-up -------------------------------------------------------------------------
    def _setup(self) -> None:
        self._scores = [0, 0, 0]
        self._target: int = self.game.options["target"]
        self._seq_base = 0
        self._tricks: list[tuple[int, int, int, int, int]] = []
        self._last_trick: tuple[int, int, int, int, int] | None = None
        self._over = False

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        bit = BIT.__getitem__
        elder = (dealer + 1) % 3
        hands = [0, 0, 0]
        hands[elder] = sum(map(bit, _PICK[0](pack)))
        hands[(dealer + 2) % 3] = sum(map(bit, _PICK[1](pack)))
        hands[dealer] = sum(map(bit, _PICK[2](pack)))
        self._hands = hands
        self._skat = sum(map(bit, _PICK[3](pack)))
        self._elder = elder
        self._phase = BID
        self._to_move = elder
        self._bids: list[int] = []  # seats that passed
        self._soloist: int | None = None
        self._ramsch = False
        self._discard = 0
        self._discard_list: list[int] = []
        self._trick: list[int] = []
        self._leader = elder
        self._follow = 0
        self._seq_base += len(self._tricks)
        self._tricks = []  # (leader, card, card, card, winner)

    # -- the hot path: the engine's hooks ----------------------------------------------
    def _is_legal(self, action: str) -> bool:
        ph = self._phase
        if ph == PLAY:
            hand = self._hands[self._to_move]
            return bool((1 << _INDEX_GET(action, 32)) & (hand & self._follow or hand))
        if ph == BID:
            return action == "pass" or action == "pick-up"
        if ph == DISCARD:
            return bool(BIT.get(action, 0) & self._hands[self._to_move])
        return False

    def _legal(self) -> Sequence[str]:
        ph = self._phase
        if ph == PLAY:
            hand = self._hands[self._to_move]
            m = hand & self._follow or hand
            return (*_B0[m & 255], *_B1[m >> 8 & 255], *_B2[m >> 16 & 255], *_B3[m >> 24])
        if ph == BID:
            return BIDS
        if ph == DISCARD:
            m = self._hands[self._to_move]
            return (*_B0[m & 255], *_B1[m >> 8 & 255], *_B2[m >> 16 & 255], *_B3[m >> 24])
        return ()

    def _apply(self, action: str) -> Sequence[str] | None:
        ph = self._phase
        p = self._to_move
        if ph == PLAY:
            c = INDEX[action]
            hands = self._hands
            hands[p] ^= 1 << c
            trick = self._trick
            trick.append(c)
            n = len(trick)
            if n == 3:  # the trick is complete (inline: a third of all actions)
                c0, c1, c2 = trick
                leader = self._leader
                winner = SEAT[leader * 3 + WIN[c0 << 10 | c1 << 5 | c2]]
                record = (leader, c0, c1, c2, winner)
                tricks = self._tricks
                tricks.append(record)
                self._last_trick = record
                self._trick = []
                self._follow = 0
                if len(tricks) == 10:
                    self._score_deal()
                    return None
                self._leader = self._to_move = winner
                m = hands[winner]
            else:
                if n == 1:
                    self._follow = follow = FOLLOW_MASK[c]
                else:
                    follow = self._follow
                self._to_move = q = _NEXT[p]
                hand = hands[q]
                # the next player's choices, while they are at hand (see engine.State.apply)
                m = hand & follow
                if m:
                    led = SUIT_OF[trick[0]]
                    return _PLAIN[led][m >> _PLAIN_SHIFT[led]] if led else _B0[m & 255] + _B1[m >> 8]
                m = hand
            # a list display, not a tuple: a starred tuple is built as a list and then copied
            return [*_B0[m & 255], *_B1[m >> 8 & 255], *_B2[m >> 16 & 255], *_B3[m >> 24]]
        if ph == BID:
            if action == "pass":
                self._bids.append(p)
                if len(self._bids) == 3:
                    self._ramsch = True
                    self._phase = PLAY
                    self._to_move = self._elder
                else:
                    self._to_move = (p + 1) % 3
                    return BIDS
            else:  # pick-up
                self._soloist = p
                self._hands[p] |= self._skat
                self._phase = DISCARD
        else:  # DISCARD
            b = BIT[action]
            self._hands[p] ^= b
            self._discard |= b
            self._discard_list.append(INDEX[action])
            if len(self._discard_list) == 2:
                self._phase = PLAY
                self._to_move = self._elder
        # the next choices (a few times a deal): so that legal_actions() need not look for them
        return self._legal()

    def _taken(self) -> tuple[list[int], list[int], list[int]]:
        """Pips and tricks taken by each seat in this deal's tricks, and each trick's winner."""
        pips = [0, 0, 0]
        count = [0, 0, 0]
        winners = []
        for _, c0, c1, c2, w in self._tricks:
            pips[w] += PIP[c0] + PIP[c1] + PIP[c2]
            count[w] += 1
            winners.append(w)
        return pips, count, winners

    def open_position(self) -> OpenPosition:
        """The deal as it stands with every card shown (see :class:`OpenPosition`)."""
        pips, count, winners = self._taken()
        h = self._hands
        return OpenPosition((h[0], h[1], h[2]), self._leader, tuple(self._trick), self._soloist, self.dealer,
                            (pips[0], pips[1], pips[2]), (count[0], count[1], count[2]), tuple(winners),
                            self._skat, tuple(self._discard_list))

    def _score_deal(self) -> None:
        pips, tricks, winners = self._taken()
        soloist = self._soloist
        bids: list[list[Any]] = [[seat, "pass"] for seat in self._bids]
        if soloist is None:
            last = winners[-1]
            skat_pips = pips_of(self._skat)
            pips[last] += skat_pips
            add, scorer, result = ramsch_result(pips, tricks, winners, self.dealer)
            summary: dict[str, Any] = {
                "scores": add, "soloist": None, "ramsch": True, "pips": pips, "tricks": tricks,
                "result": result.value, "scorer": scorer, "skat": cards_of(self._skat), "skat_pips": skat_pips,
                "last_trick_winner": last, "bids": bids}
        else:
            dp = pips_of(self._discard)
            pips[soloist] += dp
            add = [0, 0, 0]
            add[soloist] = score = soloist_score(pips[soloist], tricks[soloist])
            bids.append([soloist, "pick-up"])
            summary = {"scores": add, "soloist": soloist, "ramsch": False, "pips": pips, "tricks": tricks,
                       "result": SOLO_RESULTS[score].value, "discard_pips": dp, "bids": bids}
        totals = self._scores
        totals[0] += add[0]
        totals[1] += add[1]
        totals[2] += add[2]
        summary["totals"] = list(totals)
        summary["final_trick"] = _trick_dict(self._tricks[-1])
        self._phase = OVER  # (until the next deal, dealt lazily, starts its own)
        if max(totals) >= self._target:
            self._over = True
        self._end_deal(summary)

    # -- explanations ----------------------------------------------------------------
    def _why_illegal(self, action: str) -> str:
        ph = self._phase
        if self._over or ph == OVER:
            return "the game is over"
        if ph == BID:
            return "it is the bidding: say pick-up or pass"
        if action not in BIT:
            return f"{shorten(action)} is not a card code (rank then suit, e.g. QC, TH, 7S)"
        hand = self._hands[self._to_move]
        if not BIT[action] & hand:
            return f"you do not hold {action}"
        if ph == PLAY and self._trick:
            led = SUIT_OF[self._trick[0]]
            name = SUIT_NAME[led]
            return f"you must follow suit: you hold a {name}"
        return ""

    # -- the rest of the API --------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self._over else self._to_move

    @property
    def phase(self) -> Phase:
        return "over" if self._over else PHASES[self._phase]

    @property
    def action_is_private(self) -> bool:
        return self._phase == DISCARD and not self._over

    def view(self, seat: int) -> dict[str, Any]:
        view = self._base_view(seat)
        soloist = self._soloist
        bids = [[s, "pass"] for s in self._bids]
        if soloist is not None:
            bids.append([soloist, "pick-up"])
        leader = self._leader
        last = self._last_trick if self._tricks else None  # never a card of the previous deal
        pips, count, _ = self._taken()
        view.update({
            "hand": cards_of(self._hands[seat]),
            "hand_sizes": [self._hands[s].bit_count() for s in range(3)],
            "elder": self._elder,
            "bids": bids,
            "soloist": soloist,
            "ramsch": self._ramsch,
            "skat_on_table": soloist is None and len(self._tricks) < 10,
            "discard": [ORDER[c] for c in self._discard_list] if seat == soloist else None,
            "skat": cards_of(self._skat) if seat == soloist else None,
            "trick": [[(leader + i) % 3, ORDER[c]] for i, c in enumerate(self._trick)],
            "last_trick": None if last is None else _trick_dict(last),
            "trick_seq": self._seq_base + len(self._tricks),
            "tricks": [_trick_dict(t) for t in self._tricks],
            "tricks_won": count,
            "pips_won": pips,
            "target": self._target,
        })
        return view


class Schafkopf(Game):
    name = "schafkopf"
    title = "Schafkopf"
    description = "Three-handed Schafkopf: pick up the skat and take 61 pips alone, or play Ramsch when all pass."
    num_players = 3
    PACK = PACK_32
    OPTIONS = (
        Option("target", int, 10, "the score that ends the game (highest wins)", 1, 1000),
    )
    state_class = SchafkopfState
    DEAL_SCORE_BOUND = 6  # schwarz
    DEAL_LENGTH_BOUND = 64

    def action_space(self) -> list[str]:
        return [*PACK_32, "pick-up", "pass"]


GAME = Schafkopf
