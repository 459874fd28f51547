"""Six-Bid Solo (Slough), as RULES.md settles it: one soloist against two, played for chips.

A ``State`` is a whole match: deals follow one another, the dealer passing to the left,
until a seat has no chips left (at most 0); the most chips wins.  ``state.scores`` are the
chips.  Each scored deal appends a summary to ``state.deals`` with ``scores`` (the chips that
deal moved, summing to 0), ``soloist``, ``bid``, ``trump``, ``pips``, ``made``,
``thrown_in``, ``widow`` and the details the deal-over screen shows.

Action strings: the bids ``solo heart misere guarantee spread call`` and ``pass``; then
``trump X`` (a suit letter) for solo (not hearts), guarantee and call; then for a call
``call XY`` (any card the soloist does not hold) and, when an opponent held that card, the
card the soloist gives back as its plain code; then the cards played, as their codes.

``view(seat)`` adds to the common keys: ``hand`` (trumps first), ``elder``, ``auction``
(``[[seat, word], ...]``), ``bid``/``high_bidder`` (the standing bid), ``passed``,
``soloist``, ``contract``, ``trump`` (a letter or None), ``declared``, ``target`` (pips
needed, None for the misères), ``call`` (``card``, ``holder``, ``in_widow``, ``exchanged``,
``given``), ``spread_hand``, ``leader``, ``trick``, ``last_trick``, ``trick_seq``,
``tricks`` (this deal's finished tricks), ``tricks_won``, ``pips_taken`` (trick pips, widow
apart), ``cards_left`` and ``chips``.

Choices where RULES.md is silent, and why:

- When nothing is left above the standing bid (a ``call`` stands), the other bidder still
  says ``pass``: RULES.md has the auction end only when one of the two passes, and keeping
  the turn literal means every seat sees the same auction a table would hear.
- The exchange in a call: the holder of the called card hands it over in front of everybody,
  so who held it is public (``view["call"]["holder"]``); when nobody hands it over every
  seat learns it lay in the widow (``in_widow``), exactly as at a real table, but the rest of
  the widow stays hidden until the deal ends.  The card given back is seen only by the two
  seats involved: the soloist (who chose it) and the holder (who receives it, and learns
  nothing more); the third seat learns only that an exchange happened and between whom
  (``exchanged``, ``given`` None).  The giving is a private action, and the deal summary does
  not name the card either, so it stays between the two even after the deal.
- Misere and spread have no trump, so their ``pips`` are the soloist's trick pips alone.
- The spread hand is shown to everybody from the start of play as it stands (cards leave it
  as they are played); before play (the auction) nobody sees it, as the bid is still open.
- A thrown-in deal (everybody passed) moves no chips; its summary has ``thrown_in`` true and
  the widow, and the deal passes to the left like any other.
- The match ends as soon as the deal that took a seat to 0 or below is scored; no further
  deal is dealt.  Two or three seats tied for most chips means no winner.
- Hands are shown trumps first, then the other suits alternating colours (spades, hearts,
  clubs, diamonds, trump removed), each high to low A T K Q J 9 8 7 6, as a player sorts them.

Speed (this engine is the inner loop of the search bots): hands are 36-bit masks (bit
suit * 9 + strength, strength 0 = six .. 8 = ace); the play phase, almost every action, comes
first in ``_is_legal`` (one mask test), ``_legal`` (a tuple from a precomputed table: a suit's
bit pattern -> its codes in display order) and ``_apply`` (a card's power for each trump and
led suit from a table), and the card codes themselves are the trick's entries, so no
conversion happens per card.  The engine's ``apply`` does the checking and the record.  The
shuffle, the RNG shared by clones and the next deal dealt only when first asked about
(``LAZY_DEALS``: the engine deals it before anything answers about it) are the engine's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, get_args

from ...cards import PACK_36
from ...engine import Game, Option, State
from .views import Phase

SUITS = "CDHS"
SUIT_WORDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
HEARTS = 2
NO_TRUMP = 4
STRENGTH = "6789JQKTA"  # low to high: A T K Q J 9 8 7 6
CODES = tuple(STRENGTH[i % 9] + SUITS[i // 9] for i in range(36))
INDEX = {code: i for i, code in enumerate(CODES)}
PIP = tuple({"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}.get(code[0], 0) for code in CODES)
PIP_OF = {code: PIP[i] for i, code in enumerate(CODES)}
SUIT_INDEX = {code: i // 9 for i, code in enumerate(CODES)}
SUIT_MASK = tuple(0x1FF << (9 * s) for s in range(4))
SHIFT = (0, 9, 18, 27)
BIT_OF = {code: 1 << i for i, code in enumerate(CODES)}

BIDS = ("solo", "heart", "misere", "guarantee", "spread", "call")
SOLO, HEART, MISERE, GUARANTEE, SPREAD, CALL = range(6)
BID_INDEX = {b: i for i, b in enumerate(BIDS)}
#: legal bidding actions when the standing bid is level - 1 (index 0: nothing bid yet)
BID_LEGAL = tuple(tuple(BIDS[i] for i in range(level, 6)) + ("pass",) for level in range(7))

BID, DECLARE, CALLING, GIVE, PLAY, OVER = range(6)
PHASE_NAMES: tuple[Phase, ...] = get_args(Phase)  # by the phase numbers above
TRUMP_ANY = ("trump C", "trump D", "trump H", "trump S")
TRUMP_NOT_HEARTS = ("trump C", "trump D", "trump S")
NEXT = (1, 2, 0)
#: WINNER_SEAT[leader][i]: the seat that played the i-th card of a trick
WINNER_SEAT = tuple(tuple((leader + i) % 3 for i in range(3)) for leader in range(3))

#: SUIT_CODES[s][pattern]: the codes of suit s whose strength bits are set in pattern, high first
SUIT_CODES = tuple(
    tuple(tuple(CODES[s * 9 + r] for r in range(8, -1, -1) if pat >> r & 1) for pat in range(512))
    for s in range(4)
)
#: suits in display order for each trump (index 4: no trump): trumps first, colours alternating
BASE_ORDER = (3, 2, 0, 1)
DISPLAY = tuple(((t,) if t < 4 else ()) + tuple(s for s in BASE_ORDER if s != t) for t in range(5))
#: POWER[trump][led][card]: how strongly card index ``card`` plays in a trick whose led suit is
#: ``led`` (trump 4: none): trumps beat the led suit, which beats the other suits (0: it cannot
#: win).  The one trick-winner rule: the engine (``POWER_OF``), the easy bot and the search
#: kernel's tables (``tables.py``) all read it.
POWER = tuple(
    tuple(tuple(20 + c % 9 if c // 9 == t else (10 + c % 9 if c // 9 == led else 0) for c in range(36))
          for led in range(4))
    for t in range(5)
)
#: POWER_OF[trump][led][code]: ``POWER`` by card code, as the engine's trick holds codes
POWER_OF = tuple(tuple({CODES[c]: row[c] for c in range(36)} for row in rows) for rows in POWER)
#: CALLS[s][pattern]: the "call XY" actions for the cards of suit s NOT in pattern, high first
CALLS = tuple(
    tuple(tuple("call " + CODES[s * 9 + r] for r in range(8, -1, -1) if not pat >> r & 1) for pat in range(512))
    for s in range(4)
)


def cards_of(mask: int, trump: int = NO_TRUMP) -> list[str]:
    """The codes in ``mask`` in display order for ``trump`` (4: none)."""
    out: list[str] = []
    for s in DISPLAY[trump]:
        out += SUIT_CODES[s][(mask >> SHIFT[s]) & 511]
    return out


def no_trick_contract(contract: int | str | None) -> bool:
    """Whether ``contract`` (an index of ``BIDS``, or its name as a view gives it) is made by taking
    no trick: the misère and the spread, played without trump and paid on "no trick", not on pips.
    Why one function: the engine, its text, the easy rules and the solver all ask it."""
    if isinstance(contract, str):
        contract = BID_INDEX.get(contract)
    return contract in (MISERE, SPREAD)


def target_of(bid: int, trump: int) -> int | None:
    """Pips the soloist needs (None for the misères, which need no trick at all)."""
    if bid in (SOLO, HEART):
        return 60
    if bid == GUARANTEE:
        return 74 if trump == HEARTS else 80
    if bid == CALL:
        return 120
    return None


#: TERMS[bid][trump]: (pips needed or None for a misere, chips per pip or per opponent)
TERMS = tuple(
    tuple(
        (target_of(bid, t), {SOLO: 2, HEART: 3, MISERE: 30, GUARANTEE: 40, SPREAD: 60}.get(
            bid, 150 if t == HEARTS else 100))
        for t in range(5)
    )
    for bid in range(6)
)
TRUMP_LETTER = (*SUITS, None)


class OpenPosition(NamedTuple):
    """A deal in play with every hand open, as the double-dummy solver starts from it.

    ``hands``: card masks by seat; ``trick``: the card indices on the table, led by
    ``leader``; ``trick_pips`` and ``tricks``: what each seat has taken so far; ``widow_pips``:
    what the widow will count for the soloist (the trump contracts); ``widow``: its cards (a mask),
    which no seat sees, so that the cards played are the others.  Why a public method
    builds it (:meth:`SixBidState.open_position`): the solver, the benches and the tests need
    the whole deal, and nothing outside this module reads the state's private fields.  A bot
    never calls it on the deal at the table: it sees only its view (the strong player's play-outs
    ask it of the deals they sample, and play their cards from it: ``EasyBot.open_card``).
    """

    hands: tuple[int, int, int]
    leader: int
    trick: tuple[int, ...]
    soloist: int
    contract: int
    trump: int
    trick_pips: tuple[int, int, int]
    tricks: tuple[int, int, int]
    widow_pips: int
    widow: int


def _trick_dict(trick: tuple[int, tuple[str, ...], int]) -> dict[str, Any]:
    leader, cards, winner = trick
    return {"cards": [[(leader + i) % 3, c] for i, c in enumerate(cards)], "winner": winner}


class SixBidState(State):
    LAZY_DEALS = True
    DEALS_FIRST = (*State.DEALS_FIRST, "open_position")
    #: the mutable fields a clone copies (``engine.State.clone``)
    _COPIED_LISTS = ("_scores", "_hands", "_auction", "_trick", "_pips", "_tricks", "_history")
    # the match
    _scores: list[int]
    _over: bool
    _trick_seq: int
    _last_trick: tuple[int, tuple[str, ...], int] | None
    # the deal: phase, hands (masks), widow, who is elder, leads and moves
    _phase: int
    _hands: list[int]
    _widow_cards: list[str]
    _widow_pips: int
    _elder: int
    _leader: int
    _to_move: int | None
    # the auction: standing bid (-1 none), its holder, stage 1 (elder v next) or 2 (v dealer),
    # the stage-1 survivor, and bitmasks of the seats that passed and that have spoken
    _auction: list[tuple[int, str]]
    _bid: int
    _high: int | None
    _stage: int
    _survivor: int | None
    _passed: int
    _spoken: int
    # the contract (trump 4 = none) and the call
    _soloist: int | None
    _contract: int | None
    _trump: int
    _declared: bool
    _called: int | None
    _holder: int | None
    _given: int | None
    # the play: the led suit of the current trick, with its shift, mask and per-pattern codes
    _led: int
    _ledshift: int
    _ledmask: int
    _ledcodes: tuple[tuple[str, ...], ...]
    _trick: list[str]
    _pips: list[int]
    _tricks: list[int]
    _history: list[tuple[int, tuple[str, ...], int]]

    # -- game and deal set-up ----------------------------------------------------------
    def _setup(self) -> None:
        start = self.game.options["chips"]
        self._scores = [start, start, start]
        self._over = False
        self._trick_seq = 0
        self._last_trick = None

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20,
         _w0, _w1, _w2, c24, c25, c26, c27, c28, c29, c30, c31, c32, c33, c34, c35) = map(BIT_OF.__getitem__, pack)
        e = NEXT[dealer]
        n = NEXT[e]
        hands = [0, 0, 0]
        hands[e] = c0 | c1 | c2 | c3 | c12 | c13 | c14 | c24 | c25 | c26 | c27
        hands[n] = c4 | c5 | c6 | c7 | c15 | c16 | c17 | c28 | c29 | c30 | c31
        hands[dealer] = c8 | c9 | c10 | c11 | c18 | c19 | c20 | c32 | c33 | c34 | c35
        self._phase = BID
        self._hands = hands
        self._widow_cards = widow = pack[21:24]
        self._widow_pips = PIP_OF[widow[0]] + PIP_OF[widow[1]] + PIP_OF[widow[2]]
        self._elder = self._leader = self._to_move = e
        self._auction = []
        self._bid = -1
        self._high = None
        self._stage = 1
        self._survivor = None
        self._passed = 0
        self._spoken = 0
        self._soloist = None
        self._contract = None
        self._trump = NO_TRUMP
        self._declared = False
        self._called = None
        self._holder = None
        self._given = None
        self._led = 0
        self._ledshift = 0
        self._ledmask = 0
        self._ledcodes = SUIT_CODES[0]
        self._trick = []
        self._pips = [0, 0, 0]
        self._tricks = [0, 0, 0]
        self._history = []

    # -- the hot path: the engine's hooks, the play phase first ---------------------------
    def _is_legal(self, action: str) -> bool:
        ph = self._phase
        if ph == PLAY:
            # Why no legal list here: legality of a card is one mask test, cheaper than a list scan.
            # (_ledmask is the led suit's mask during a trick and 0 when leading.)
            h = self._hands[self._to_move]  # type: ignore[index]
            return bool(BIT_OF.get(action, 0) & (h & self._ledmask or h))
        if ph == BID:
            return action in BID_LEGAL[self._bid + 1]
        return super()._is_legal(action)

    def _legal(self) -> Sequence[str]:
        ph = self._phase
        if ph == PLAY:
            h = self._hands[self._to_move]  # type: ignore[index]
            if self._trick:
                pat = (h >> self._ledshift) & 511
                if pat:
                    return self._ledcodes[pat]
            s0, s1, s2, s3 = DISPLAY[self._trump]
            return (*SUIT_CODES[s0][(h >> SHIFT[s0]) & 511], *SUIT_CODES[s1][(h >> SHIFT[s1]) & 511],
                    *SUIT_CODES[s2][(h >> SHIFT[s2]) & 511], *SUIT_CODES[s3][(h >> SHIFT[s3]) & 511])
        if ph == BID:
            return BID_LEGAL[self._bid + 1]
        if ph == DECLARE:
            return TRUMP_NOT_HEARTS if self._contract == SOLO else TRUMP_ANY
        if ph == CALLING:
            own = self._hands[self._soloist]  # type: ignore[index]
            return (*CALLS[0][own & 511], *CALLS[1][(own >> 9) & 511], *CALLS[2][(own >> 18) & 511],
                    *CALLS[3][(own >> 27) & 511])
        if ph == GIVE:
            return cards_of(self._hands[self._soloist], self._trump)  # type: ignore[index]
        return ()

    def _apply(self, action: str) -> Sequence[str] | None:
        ph = self._phase
        if ph == PLAY:
            p: int = self._to_move  # type: ignore[assignment]
            hands = self._hands
            hands[p] ^= BIT_OF[action]
            trick = self._trick
            trick.append(action)
            n = len(trick)
            if n < 3:
                if n == 1:
                    s = SUIT_INDEX[action]
                    self._led = s
                    self._ledshift = shift = SHIFT[s]
                    self._ledmask = SUIT_MASK[s]
                    self._ledcodes = codes = SUIT_CODES[s]
                else:
                    shift = self._ledshift
                    codes = self._ledcodes
                self._to_move = q = NEXT[p]
                # the next player's choices, while they are at hand (see engine.State.apply)
                h = hands[q]
                pat = (h >> shift) & 511
                if pat:
                    return codes[pat]
                s0, s1, s2, s3 = DISPLAY[self._trump]
                # a list display, not a tuple: a starred tuple is built as a list and then copied
                return [*SUIT_CODES[s0][(h >> SHIFT[s0]) & 511], *SUIT_CODES[s1][(h >> SHIFT[s1]) & 511],
                        *SUIT_CODES[s2][(h >> SHIFT[s2]) & 511], *SUIT_CODES[s3][(h >> SHIFT[s3]) & 511]]
            # The third card: the trick is complete.
            c0, c1, c2 = trick
            trick.clear()
            self._ledmask = 0
            power = POWER_OF[self._trump][self._led]
            p0 = power[c0]
            p1 = power[c1]
            p2 = power[c2]
            if p0 > p1:
                w = 0 if p0 > p2 else 2
            else:
                w = 1 if p1 > p2 else 2
            leader = self._leader
            winner = WINNER_SEAT[leader][w]
            self._pips[winner] += PIP_OF[c0] + PIP_OF[c1] + PIP_OF[c2]
            self._tricks[winner] += 1
            record = (leader, (c0, c1, c2), winner)
            history = self._history
            history.append(record)
            self._last_trick = record
            self._trick_seq += 1
            if len(history) == 11:
                self._score()
                return None
            self._leader = self._to_move = winner
            h = hands[winner]
            s0, s1, s2, s3 = DISPLAY[self._trump]
            return [*SUIT_CODES[s0][(h >> SHIFT[s0]) & 511], *SUIT_CODES[s1][(h >> SHIFT[s1]) & 511],
                    *SUIT_CODES[s2][(h >> SHIFT[s2]) & 511], *SUIT_CODES[s3][(h >> SHIFT[s3]) & 511]]
        # -- the auction and the declarations
        if ph == BID:
            self._bid_action(action)
            if self._phase == BID:
                return BID_LEGAL[self._bid + 1]
        elif ph == DECLARE:
            self._trump = SUITS.index(action[-1])
            self._declared = True
            if self._contract == CALL:
                self._phase = CALLING
            else:
                self._begin_play()
        elif ph == CALLING:
            c = INDEX[action[-2:]]
            self._called = c
            for seat in range(3):
                if self._hands[seat] >> c & 1:
                    self._holder = seat
            if self._holder is None:
                self._begin_play()
            else:
                self._phase = GIVE
        elif ph == GIVE:
            g = INDEX[action]
            sol, holder, called = self._soloist, self._holder, self._called
            assert sol is not None and holder is not None and called is not None
            self._given = g
            self._hands[sol] = (self._hands[sol] ^ (1 << g)) | (1 << called)
            self._hands[holder] = (self._hands[holder] ^ (1 << called)) | (1 << g)
            self._begin_play()
        # the next choices (a few times a deal), unless the deal has ended (the next one is dealt
        # lazily): so that legal_actions() need not look for them
        return self._legal() if self._phase < OVER else None

    def _bid_action(self, word: str) -> None:
        x = self._to_move
        assert x is not None
        self._auction.append((x, word))
        bit = 1 << x
        self._spoken |= bit
        if self._stage == 1:
            other = self._elder if x != self._elder else (self._elder + 1) % 3
            obit = 1 << other
            if word == "pass":
                self._passed |= bit
                if not self._spoken & obit:
                    self._to_move = other
                else:
                    self._start_stage_two(None if self._passed & obit else other)
            else:
                self._bid = BID_INDEX[word]
                self._high = x
                if self._passed & obit:
                    self._start_stage_two(x)
                else:
                    self._to_move = other
            return
        survivor = self._survivor
        if word == "pass":
            self._passed |= bit
            if self._high is None:
                self._throw_in()
            else:
                self._start_contract(self._high, self._bid)
            return
        self._bid = BID_INDEX[word]
        self._high = x
        if survivor is None:
            self._start_contract(x, self._bid)
        else:
            self._to_move = survivor if x == self.dealer else self.dealer

    def _start_stage_two(self, survivor: int | None) -> None:
        self._stage = 2
        self._survivor = survivor
        self._to_move = self.dealer

    def _start_contract(self, soloist: int, bid: int) -> None:
        self._soloist = soloist
        self._contract = bid
        if bid in (SOLO, GUARANTEE, CALL):
            self._phase = DECLARE
            self._to_move = soloist
            return
        if bid == HEART:
            self._trump = HEARTS
            self._declared = True
        self._begin_play()

    def _begin_play(self) -> None:
        self._phase = PLAY
        sol = self._soloist
        assert sol is not None
        self._leader = self._to_move = NEXT[sol] if self._contract == SPREAD else self._elder

    # -- scoring ---------------------------------------------------------------------------
    def _throw_in(self) -> None:
        self._phase = OVER
        self._to_move = None
        self._end_deal({
            "scores": [0, 0, 0], "thrown_in": True, "soloist": None, "bid": None, "trump": None,
            "pips": None, "made": None, "target": None, "widow": self._widow_cards,
            "widow_pips": self._widow_pips, "auction": list(map(list, self._auction)),
            "tricks": [0, 0, 0], "trick_pips": [0, 0, 0], "call": None, "chips": list(self._scores),
        })

    def _score(self) -> None:
        # Why no copies of the deal's lists: a finished deal's lists are never touched again
        # (the next deal makes new ones), so the summary may own them.
        sol = self._soloist
        bid = self._contract
        assert sol is not None and bid is not None
        t = self._trump
        trick_pips = self._pips
        tricks = self._tricks
        widow_pips = self._widow_pips
        target, unit = TERMS[bid][t]
        if target is None:  # the misères: no trick at all
            pips = trick_pips[sol]
            made = tricks[sol] == 0
            amount = unit
        else:
            pips = trick_pips[sol] + widow_pips
            made = pips >= target
            amount = unit * (pips - 60 if made else 60 - pips) if bid <= HEART else unit
        won = amount if made else -amount
        deltas = [-won, -won, -won]
        deltas[sol] = 2 * won
        chips = self._scores
        chips[0] -= won
        chips[1] -= won
        chips[2] -= won
        chips[sol] += 3 * won
        self._over = chips[0] <= 0 or chips[1] <= 0 or chips[2] <= 0
        self._phase = OVER
        self._to_move = None
        # The card given back in a call stays between the two seats involved, even afterwards.
        call = {"card": CODES[self._called], "holder": self._holder} if self._called is not None else None
        self._end_deal({
            "scores": deltas, "thrown_in": False, "soloist": sol, "bid": BIDS[bid],
            "trump": TRUMP_LETTER[t], "pips": pips, "made": made, "target": target,
            "widow": self._widow_cards, "widow_pips": widow_pips,
            "auction": list(map(list, self._auction)), "tricks": tricks,
            "trick_pips": trick_pips, "call": call, "chips": list(chips),
            "final_trick": _trick_dict(self._last_trick) if self._last_trick is not None else None,
        })

    # -- the whole deal open, for the solver (never for a bot) ------------------------------
    def open_position(self) -> OpenPosition | None:
        """The deal in play with every hand open (``OpenPosition``); None outside the play phase."""
        if self._phase != PLAY:
            return None
        sol, contract = self._soloist, self._contract
        assert sol is not None and contract is not None
        h, p, t = self._hands, self._pips, self._tricks
        return OpenPosition((h[0], h[1], h[2]), self._leader, tuple(INDEX[c] for c in self._trick), sol, contract,
                            self._trump, (p[0], p[1], p[2]), (t[0], t[1], t[2]), self._widow_pips,
                            sum(1 << INDEX[c] for c in self._widow_cards))

    # -- the rest of the API -----------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self._to_move

    @property
    def phase(self) -> Phase:
        return PHASE_NAMES[self._phase]

    @property
    def action_is_private(self) -> bool:
        return self._phase == GIVE

    def _why_illegal(self, action: str) -> str:
        ph = self._phase
        if self._over:
            return "the game is over"
        if not isinstance(action, str):
            return "an action is a string"
        if ph == BID:
            if action in BID_INDEX:
                return f"a bid must be higher than the standing bid, {BIDS[self._bid]}"
            return "bid solo, heart, misere, guarantee, spread or call, or pass"
        if ph == DECLARE:
            if action == "trump H":
                return "a solo cannot have hearts as trump (that is the heart bid)"
            return "name the trump suit as 'trump X' (X one of C D H S)"
        if ph == CALLING:
            code = action[5:].strip().upper() if action.startswith("call ") else ""
            if code in INDEX:
                return f"you hold {code} yourself; call a card you do not hold"
            return "call a card you do not hold as 'call XY' (e.g. call AD)"
        if ph == GIVE:
            return "give back one of your own cards, as its code"
        if ph == PLAY:
            p = self._to_move
            assert p is not None
            c = INDEX.get(action) if isinstance(action, str) else None
            if c is None:
                return "play a card as its code (e.g. TH)"
            h = self._hands[p]
            if not h >> c & 1:
                return f"you do not hold {action}"
            return f"you must follow suit: you hold a {SUIT_WORDS[SUITS[self._led]]}"
        return ""

    def view(self, seat: int) -> dict[str, Any]:
        view = self._base_view(seat)
        t = self._trump
        sol = self._soloist
        contract = self._contract
        leader = self._leader
        trick = [[(leader + i) % 3, c] for i, c in enumerate(self._trick)]
        last = self._last_trick
        show_spread = contract == SPREAD and self._phase in (PLAY, OVER) and sol is not None
        call = None
        if self._called is not None:
            involved = seat == sol or seat == self._holder
            call = {
                "card": CODES[self._called],
                "holder": self._holder,
                "in_widow": self._holder is None,
                "exchanged": self._holder is not None and self._given is not None,
                "given": CODES[self._given] if self._given is not None and involved else None,
            }
        view.update({
            "hand": cards_of(self._hands[seat], t),
            "elder": self._elder,
            "auction": [[s, w] for s, w in self._auction],
            "bid": BIDS[self._bid] if self._bid >= 0 else None,
            "high_bidder": self._high,
            "passed": [s for s in range(3) if self._passed >> s & 1],
            "soloist": sol,
            "contract": BIDS[contract] if contract is not None else None,
            "trump": SUITS[t] if t != NO_TRUMP else None,
            "declared": self._declared or no_trick_contract(contract),
            "target": target_of(contract, t) if contract is not None else None,
            "call": call,
            "spread_hand": cards_of(self._hands[sol], t) if show_spread and sol is not None else None,
            "leader": leader if self._phase == PLAY else None,
            "trick": trick,
            "last_trick": _trick_dict(last) if last is not None and self._history else None,
            "trick_seq": self._trick_seq,
            "tricks": [{"cards": [[(ld + i) % 3, c] for i, c in enumerate(cs)], "winner": w}
                       for ld, cs, w in self._history],
            "tricks_won": list(self._tricks),
            "pips_taken": list(self._pips),
            "cards_left": [self._hands[s].bit_count() for s in range(3)],
            "hand_sizes": [self._hands[s].bit_count() for s in range(3)],
            "chips": list(self._scores),
        })
        return view


class SixBid(Game):
    name = "sixbid"
    title = "Six-Bid Solo"
    description = "Six-Bid Solo (Slough): one soloist against two for chips, six bids from solo to call."
    num_players = 3
    PACK = PACK_36
    OPTIONS = (
        Option("chips", int, 1000, "chips each seat starts the match with", low=10, high=1_000_000),
    )
    state_class = SixBidState
    DEAL_SCORE_BOUND = 300  # a made call in hearts: 150 chips from each opponent
    DEAL_LENGTH_BOUND = 64

    def action_space(self) -> list[str]:
        bids = ["pass", "solo", "heart", "misere", "guarantee", "spread", "call"]
        return [*PACK_36, *bids, *(f"trump {s}" for s in SUITS), *(f"call {c}" for c in PACK_36)]


GAME = SixBid
