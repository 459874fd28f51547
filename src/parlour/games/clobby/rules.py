"""Clobby (Klaberjass), two-handed, as RULES.md settles it.

Seat ``dealer`` deals; the other seat is elder, who bids first and leads the first trick.
The deal, both bidding rounds, schmeiss, the dix, the automatic meld comparison, play with
the trump obligations, bella, last trick and maker/bete scoring follow RULES.md to the
letter; the options ``game_point``, ``no_tie``, ``clubs_preferred`` and ``tout_atout``
change exactly what RULES.md says they change.

Choices where RULES.md is silent (each is what a Klaberjass player expects, or what the
original program did):

- **Game end** is *reaching* the game point (the manual: "if any player has reached 500").
  A thrown-in deal scores nothing, so it can never end the game.
- **The dix**: RULES.md asks both players, elder then dealer, whoever holds the 7 (a 7 left
  in the stock cannot be exchanged), so that being asked tells nothing.  The ``"upcard"`` of
  the view stays the card that was turned (public since the deal); the view's ``"dix"`` lists
  the answers and who exchanged, and the 7 itself is never written as a card code, so a view
  cannot be read as placing it.  ``keep`` is in ``AUTO_ACTIONS``: an interface answers it for
  a human who has nothing else to say (the action is still recorded).
- **Best meld**: each player's melds are ranked by the comparison key itself (length up to
  4, then top card in sequence order, then trump), and the best one is compared.  In tout
  atout every run is a trump run and in sans tout none is, so the third step never decides
  there.  The outcome of the comparison (who has the top meld, or a tie) is announced when
  play starts, as the original program announced it; the winner's meld cards are shown,
  and scored, when the first trick is complete.  The loser's melds are never shown.
- **Showing a long run**: a run of more than 4 cards is shown as its lowest 4 cards, as
  the manual says ("only the lowest 4 will be shown"), and nothing tells its real length;
  it still scores 50 once, and its real top card is the one that counted in the comparison.
- **Tout atout**: bella is possible in every suit; the beat obligation applies to the
  follower holding the led suit (every suit is trump); a void follower's card competes by
  rank alone, the leader winning an equal rank.  **Sans tout**: no bella, no obligation
  beyond following suit.
- **Display order** of a hand: the trump suit first in trump order (J 9 A T K Q 8 7), then
  the other suits in the order C D H S, each in plain order (A T K Q J 9 8 7).  Before
  trumps are fixed, and in sans tout, every suit uses plain order; in tout atout every suit
  uses trump order.  Legal card actions come in the same order, each ``<card>+bella``
  straight after its plain card.
- **The next deal is dealt lazily** (``LAZY_DEALS``, see engine.py): the engine deals it before
  anything answers about it (``maker``, ``trump`` and ``hand`` are in ``DEALS_FIRST`` too).
- The view's ``"points"`` is the running public tally of the deal per seat: card points
  won, last trick, bella, and the meld points once shown.  It is what the players could
  keep on a score pad, so it is public.

The hot path works on ints: a card is ``suit * 8 + r`` with ``r`` its place in sequence
order 7 8 9 T J Q K A, and a hand is a 32-bit mask.  Strings exist only at the API edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, get_args

from ...engine import Game, Option, State
from .views import Phase

SUITS = "CDHS"
SEQ = "789TJQKA"
CODE = tuple(SEQ[c & 7] + SUITS[c >> 3] for c in range(32))
INDEX = {code: i for i, code in enumerate(CODE)}
BELLA_CODE = tuple(code + "+bella" for code in CODE)
BELLA_INDEX = {code: i for i, code in enumerate(BELLA_CODE)}
PACK = tuple(CODE)

#: strength inside a suit (higher beats lower), by sequence place r
TRUMP_STRENGTH = (0, 1, 6, 4, 7, 2, 3, 5)   # J 9 A T K Q 8 7
PLAIN_STRENGTH = (0, 1, 2, 6, 3, 4, 5, 7)   # A T K Q J 9 8 7
TRUMP_POINTS = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS = (0, 0, 0, 10, 2, 3, 4, 11)
R_SEVEN, R_QUEEN, R_KING = 0, 5, 6

SANS, TOUT = 4, 5
NO_TRUMP = -1
TRUMP_NAME = {0: "C", 1: "D", 2: "H", 3: "S", SANS: "sans-tout", TOUT: "tout-atout"}

SUIT_MASK = tuple(0xFF << (8 * s) for s in range(4))
#: cards of the same suit that beat ``c`` in trump order
HIGHER_TRUMP = tuple(
    sum(1 << ((c & ~7) | r) for r in range(8) if TRUMP_STRENGTH[r] > TRUMP_STRENGTH[c & 7]) for c in range(32)
)


def _is_trump_suit(mode: int, s: int) -> bool:
    return mode == TOUT or mode == s


def _points_table(mode: int) -> tuple[int, ...]:
    return tuple(TRUMP_POINTS[c & 7] if _is_trump_suit(mode, c >> 3) else PLAIN_POINTS[c & 7] for c in range(32))


def _display_order(mode: int) -> tuple[int, ...]:
    suits = [s for s in range(4)]
    if 0 <= mode < 4:
        suits.remove(mode)
        suits.insert(0, mode)
    order = []
    for s in suits:
        strength = TRUMP_STRENGTH if _is_trump_suit(mode, s) else PLAIN_STRENGTH
        order += sorted((s * 8 + r for r in range(8)), key=lambda c: -strength[c & 7])
    return tuple(order)


def _suit_lists(mode: int) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """For each suit, the card codes of every 8-bit holding of it, in display order."""
    order = DISPLAY_RANK[mode]
    return tuple(
        tuple(tuple(CODE[c] for c in sorted((s * 8 + r for r in range(8) if bits >> r & 1), key=order.__getitem__))
              for bits in range(256))
        for s in range(4))


def trick_power(mode: int, led: int, card: int) -> int:
    """How strongly ``card`` plays in a trick led by ``led`` in trump mode ``mode``; 0: it cannot win.

    RULES.md: a trump beats every plain card, a card of the led suit beats the other plain
    suits, and within a suit the higher rank wins; in tout-atout every card plays as a trump,
    so the higher trump rank takes the trick whatever its suit.  A tie goes to the leader.
    The trick rule is written here only: the engine's ``FOLLOWER_WINS`` and the search
    kernel's arrays (``tables.py``) are built from it.
    """
    if mode == TOUT:
        return 1 + TRUMP_STRENGTH[card & 7]
    if card >> 3 == mode:
        return 100 + TRUMP_STRENGTH[card & 7]
    if card >> 3 == led >> 3:
        return 1 + PLAIN_STRENGTH[card & 7]
    return 0


#: FOLLOWER_WINS[mode][led * 32 + card]: the follower's ``card`` takes the trick led by ``led``
FOLLOWER_WINS = {m: bytes(trick_power(m, a, b) > trick_power(m, a, a) for a in range(32) for b in range(32))
                 for m in (0, 1, 2, 3, SANS, TOUT)}

POINTS = {m: _points_table(m) for m in (NO_TRUMP, 0, 1, 2, 3, SANS, TOUT)}
DISPLAY = {m: _display_order(m) for m in (NO_TRUMP, 0, 1, 2, 3, SANS, TOUT)}
DISPLAY_RANK = {m: {c: i for i, c in enumerate(order)} for m, order in DISPLAY.items()}
DISPLAY_SUITS = {m: tuple(dict.fromkeys(c >> 3 for c in order)) for m, order in DISPLAY.items()}
SUIT_LISTS = {m: _suit_lists(m) for m in DISPLAY}
#: the kings and queens that can make bella in each mode
KQ_MASK = {m: sum((1 << (s * 8 + R_KING)) | (1 << (s * 8 + R_QUEEN)) for s in range(4)
                  if m != SANS and _is_trump_suit(m, s)) for m in DISPLAY}

# phases
ROUND1, ROUND2, REPLY, NAME, OVERCALL, DIX, PLAY, OVER = range(8)
PHASE_NAMES: tuple[Phase, ...] = get_args(Phase)  # by the phase numbers above
NAME_ACTIONS = tuple(tuple(f"name {SUITS[s]}" for s in range(4) if s != up) for up in range(4))
NAME_SUIT = {f"name {SUITS[s]}": s for s in range(4)}
ROUND1_ACTIONS = ("take", "pass", "schmeiss")
ROUND2_ACTIONS = tuple(names + ("pass", "schmeiss") for names in NAME_ACTIONS)
ROUND2_TOUT_ACTIONS = tuple(names + ("name sans-tout", "name tout-atout", "pass", "schmeiss") for names in NAME_ACTIONS)
REPLY_ACTIONS = ("accept", "refuse")
OVERCALL_ACTIONS = ("tout-atout", "pass")
DIX_HOLDER_ACTIONS = ("exchange", "keep")  # the holder of the 7 of trumps
DIX_OTHER_ACTIONS = ("keep",)  # the other player, asked all the same


def mask_of(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int, mode: int = NO_TRUMP) -> list[str]:
    """Card codes of a mask in display order for ``mode``."""
    return [CODE[c] for c in DISPLAY[mode] if mask >> c & 1]


def runs(mask: int) -> list[tuple[int, int, int]]:
    """Every unbroken run of 3+ cards as ``(length, top r, suit)``."""
    out = []
    for s in range(4):
        bits = (mask >> (8 * s)) & 0xFF
        r = 0
        while r < 8:
            if bits >> r & 1:
                start = r
                while r < 8 and bits >> r & 1:
                    r += 1
                if r - start >= 3:
                    out.append((r - start, r - 1, s))
            else:
                r += 1
    return out


def meld_key(run: tuple[int, int, int], mode: int) -> tuple[int, int, int]:
    length, top, s = run
    return (min(length, 4), top, 1 if _is_trump_suit(mode, s) else 0)


def meld_points(run: tuple[int, int, int]) -> int:
    return 20 if run[0] == 3 else 50


def shown_cards(run: tuple[int, int, int]) -> list[str]:
    """A run as shown: high card first, at most its lowest 4 cards (the manual's rule)."""
    length, top, s = run
    low = top - length + 1
    return [CODE[s * 8 + r] for r in range(min(top, low + 3), low - 1, -1)]


def _trick_dict(trick: tuple[tuple[int, int], tuple[int, int], int]) -> dict[str, Any]:
    (s0, c0), (s1, c1), winner = trick
    return {"cards": [[s0, CODE[c0]], [s1, CODE[c1]]], "winner": winner}


def legal_mask(mode: int, hand: int, led: int) -> int:
    """The cards of ``hand`` that may follow ``led`` in trump mode ``mode`` (any card when ``led < 0``).

    RULES.md: follow suit; on a led trump, head it if you can; void in a plain suit, trump if you
    can (not in sans-tout); in tout-atout every suit is a trump suit.
    """
    if led < 0:
        return hand
    ls = led >> 3
    follow = hand & SUIT_MASK[ls]
    if mode == TOUT or mode == ls:
        if follow:
            return (follow & HIGHER_TRUMP[led]) or follow
        return hand
    if follow:
        return follow
    if mode == SANS:
        return hand
    return (hand & SUIT_MASK[mode]) or hand


class OpenPosition(NamedTuple):
    """A deal in play with both hands open (``ClobbyState.open_position``)."""

    mode: int
    maker: int
    hands: tuple[int, ...]  # by seat
    played: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the current trick, 0 or 1 entries
    turn: int
    card_pts: tuple[int, ...]
    bella_pts: tuple[int, ...]
    melds: tuple[int, ...]  # meld points each seat scores by the end of the deal


class ClobbyState(State):
    LAZY_DEALS = True  # why: each pack seeds a generator of its own; a play-out ending with the deal needs none
    DEALS_FIRST = (*State.DEALS_FIRST, "maker", "trump", "hand")
    #: the mutable fields a clone copies (``engine.State.clone``)
    _COPIED_LISTS = ("_scores", "_hands", "_bids", "_trick", "_tricks", "_card_pts", "_bella_pts", "_bella", "_played",
                     "_runs")

    # -- game level -------------------------------------------------------------------
    def _setup(self) -> None:
        opts = self.game.options
        self._game_point: int = opts["game_point"]
        self._no_tie: bool = opts["no_tie"]
        self._clubs: bool = opts["clubs_preferred"]
        self._tout_opt: bool = opts["tout_atout"]
        self._scores = [0, 0]
        self._over = False
        self._winner: int | None = None
        self._trick_seq = 0
        self._last_trick: tuple[tuple[int, int], tuple[int, int], int] | None = None

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        p = [INDEX[c] for c in pack]
        self._pack = p
        elder = 1 - dealer
        self._elder = elder
        hands = [0, 0]
        hands[elder] = mask_of(p[0:3] + p[6:9])
        hands[dealer] = mask_of(p[3:6] + p[9:12])
        self._hands = hands
        if self._clubs:
            self._upcard = -1
            self._upsuit = 0
        else:
            self._upcard = p[12]
            self._upsuit = p[12] >> 3
        self._phase = ROUND1
        self._turn: int | None = elder
        self._round = 1
        self._schmeisser = -1
        self._namer = -1
        self._bids: list[tuple[int, str]] = []
        self._maker = -1
        self._mode = NO_TRUMP
        self._dix: tuple[tuple[int, str], ...] | None = None  # the answers, once the dix is asked
        self._dix_by = -1  # the seat that exchanged
        self._trick: list[tuple[int, int]] = []
        self._tricks: list[tuple[tuple[int, int], tuple[int, int], int]] = []
        self._card_pts = [0, 0]
        self._bella_pts = [0, 0]
        self._bella: list[tuple[int, str]] = []
        self._played = [0, 0]
        self._runs: list[list[tuple[int, int, int]]] = [[], []]
        self._meld_winner: int | None = None
        self._meld_tied = False
        self._compared = False
        self._shown = False
        self._last_winner = -1

    # -- legality ---------------------------------------------------------------------
    def _legal_mask(self) -> int:
        hand = self._hands[self._turn]  # type: ignore[index]
        return legal_mask(self._mode, hand, self._trick[0][1] if self._trick else -1)

    def open_position(self) -> OpenPosition:
        """Every hand and count of the deal in play, for a solver with the cards open (the bench
        cheater, the tests, the strong player's rebuilt samples); not a view: it shows every card."""
        w = self._meld_winner
        melds = [0, 0]
        if w is not None:
            melds[w] = sum(meld_points(r) for r in self._runs[w])
        assert self._turn is not None, "no deal in play"
        return OpenPosition(self._mode, self._maker, tuple(self._hands), tuple(self._played),
                            tuple(self._trick), self._turn, tuple(self._card_pts), tuple(self._bella_pts),
                            tuple(melds))

    def _bella_mask(self, seat: int) -> int:
        mode = self._mode
        played = self._played[seat] & KQ_MASK[mode]
        if not played:
            return 0
        out = 0
        for s in (range(4) if mode == TOUT else (mode,)):
            k, q = s * 8 + R_KING, s * 8 + R_QUEEN
            if played >> k & 1:
                out |= 1 << q
            if played >> q & 1:
                out |= 1 << k
        return out

    def _card_actions(self) -> list[str]:
        mask = self._legal_mask()
        mode = self._mode
        lists = SUIT_LISTS[mode]
        out: list[str] = []
        for s in DISPLAY_SUITS[mode]:
            bits = (mask >> (8 * s)) & 0xFF
            if bits:
                out.extend(lists[s][bits])
        bella = self._bella_mask(self._turn) & mask  # type: ignore[arg-type]
        if bella:
            for c in range(32):
                if bella >> c & 1:
                    out.insert(out.index(CODE[c]) + 1, BELLA_CODE[c])
        return out

    def _legal(self) -> Sequence[str]:
        ph = self._phase
        if ph == PLAY:
            return self._card_actions()
        if ph == ROUND1:
            return ROUND1_ACTIONS
        if ph == ROUND2:
            return (ROUND2_TOUT_ACTIONS if self._tout_opt else ROUND2_ACTIONS)[self._upsuit]
        if ph == REPLY:
            return REPLY_ACTIONS
        if ph == NAME:
            return NAME_ACTIONS[self._upsuit]
        if ph == OVERCALL:
            return OVERCALL_ACTIONS
        if ph == DIX:
            return DIX_HOLDER_ACTIONS if self._holds_seven(self._turn) else DIX_OTHER_ACTIONS  # type: ignore[arg-type]
        return ()

    def _is_legal(self, action: str) -> bool:
        """A card is tested on the masks, without building the legal list (``apply`` looks in that
        list itself when it is cached): the hot path of replays and searches that apply a card
        without listing the legal actions first."""
        if self._phase != PLAY:
            return super()._is_legal(action)
        c = INDEX.get(action)
        if c is not None:
            return bool(self._legal_mask() >> c & 1)
        c = BELLA_INDEX.get(action)
        return c is not None and bool((self._legal_mask() & self._bella_mask(self._turn)) >> c & 1)  # type: ignore[arg-type]

    def _holds_seven(self, seat: int) -> bool:
        return bool(self._hands[seat] >> ((self._upcard & ~7) | R_SEVEN) & 1)

    def _why_illegal(self, action: str) -> str:
        ph = self._phase
        if ph == OVER:
            return "the game is over"
        if ph == ROUND1:
            suit = "clubs" if self._clubs else f"the upcard's suit {SUITS[self._upsuit]}"
            return f"round 1 of the bidding is about {suit}: take, pass or schmeiss"
        if ph == ROUND2:
            if action.startswith("name "):
                return f"in round 2 you name one of the other suits, not {SUITS[self._upsuit]}"
            return "round 2 of the bidding: name a suit, pass or schmeiss"
        if ph == REPLY:
            return "answer the schmeiss: accept (throw the deal in) or refuse"
        if ph == NAME:
            return f"your schmeiss was refused: name a suit other than {SUITS[self._upsuit]}"
        if ph == OVERCALL:
            return "answer sans tout: tout-atout (overcall) or pass"
        if ph == DIX:
            if self._holds_seven(self._turn):  # type: ignore[arg-type]
                return "you hold the dix: exchange it for the upcard or keep it"
            return "you do not hold the dix (the 7 of trumps): keep is your only answer"
        card = action[:-6] if action.endswith("+bella") else action
        c = INDEX.get(card)
        p = self._turn
        if c is None:
            return "play one of your cards by its code, e.g. JH"
        hand = self._hands[p]  # type: ignore[index]
        if not hand >> c & 1:
            return "you do not hold that card"
        if not self._legal_mask() >> c & 1:
            led = self._trick[0][1]
            ls = led >> 3
            if hand & SUIT_MASK[ls] and c >> 3 != ls:
                return f"you must follow suit: you hold a card of {SUITS[ls]}"
            if c >> 3 == ls:
                return f"you must beat {CODE[led]} if you can"
            return "you cannot follow suit, so you must trump"
        if (c & 7) in (R_KING, R_QUEEN) and _is_trump_suit(self._mode, c >> 3):
            return "bella is announced with the second of the trump king and queen you play"
        return "bella is only for the king or queen of trumps"

    # -- bidding ----------------------------------------------------------------------
    def _apply(self, action: str) -> Sequence[str] | None:
        """Make a legal action; after a card, hand back the next card player's choices (the base
        class caches them, so a playout asking ``legal_actions()`` next pays for no second call)."""
        ph = self._phase
        p: int = self._turn  # type: ignore[assignment]
        if ph == PLAY:
            c = INDEX.get(action)
            if c is None:
                self._play(p, BELLA_INDEX[action], True)
            else:
                self._play(p, c, False)
            return self._card_actions() if self._phase == PLAY else None
        other = 1 - p
        if ph != DIX:
            self._bids.append((p, action))
        if ph == ROUND1:
            if action == "take":
                self._fix(p, self._upsuit, True)
            elif action == "pass":
                if p == self._elder:
                    self._turn = other
                else:
                    self._phase = ROUND2
                    self._round = 2
                    self._turn = self._elder
            else:
                self._schmeisser = p
                self._phase = REPLY
                self._turn = other
        elif ph == ROUND2:
            if action == "pass":
                if p == self._elder:
                    self._turn = other
                else:
                    self._throw_in("both passed twice")
            elif action == "schmeiss":
                self._schmeisser = p
                self._phase = REPLY
                self._turn = other
            elif action == "name sans-tout":
                self._namer = p
                self._phase = OVERCALL
                self._turn = other
            elif action == "name tout-atout":
                self._fix(p, TOUT, False)
            else:
                self._fix(p, NAME_SUIT[action], False)
        elif ph == REPLY:
            if action == "accept":
                self._throw_in("schmeiss accepted")
            elif self._round == 1:
                self._fix(self._schmeisser, self._upsuit, True)
            else:
                self._phase = NAME
                self._turn = self._schmeisser
        elif ph == NAME:
            self._fix(p, NAME_SUIT[action], False)
        elif ph == OVERCALL:
            if action == "tout-atout":
                self._fix(p, TOUT, False)
            else:
                self._fix(self._namer, SANS, False)
        elif ph == DIX:
            up, seven = self._upcard, (self._upcard & ~7) | R_SEVEN
            if action == "exchange":
                self._hands[p] = (self._hands[p] & ~(1 << seven)) | (1 << up)
                self._dix_by = p
            self._dix = (self._dix or ()) + ((p, action),)
            if p == self._elder:
                self._turn = other
            else:
                self._start_play()
        return None

    def _fix(self, maker: int, mode: int, taken_in_round1: bool) -> None:
        """Trumps are fixed: the second deal, then the dix or straight to play."""
        self._maker = maker
        self._mode = mode
        p, base = self._pack, (12 if self._clubs else 13)
        elder, dealer = self._elder, 1 - self._elder
        self._hands[elder] |= mask_of([p[base], p[base + 2], p[base + 4]])
        self._hands[dealer] |= mask_of([p[base + 1], p[base + 3], p[base + 5]])
        if taken_in_round1 and self._upcard >= 0 and self._upcard & 7 != R_SEVEN:
            # Both are asked, elder first, wherever the 7 is: being asked tells nothing.
            self._phase = DIX
            self._turn = elder
            self._dix = ()
            return
        self._start_play()

    def _start_play(self) -> None:
        mode = self._mode
        self._runs = [runs(self._hands[0]), runs(self._hands[1])]
        best = [max((meld_key(r, mode) for r in rs), default=None) for rs in self._runs]
        winner: int | None
        if best[0] is None and best[1] is None:
            winner = None
        elif best[1] is None or (best[0] is not None and best[0] > best[1]):
            winner = 0
        elif best[0] is None or best[1] > best[0]:
            winner = 1
        else:
            self._meld_tied = True
            winner = self._elder if self._no_tie else None
        self._meld_winner = winner
        self._compared = True
        self._phase = PLAY
        self._turn = self._elder

    def _throw_in(self, reason: str) -> None:
        self._phase = OVER
        self._turn = None
        summary = {
            "scores": [0, 0], "thrown_in": True, "reason": reason, "maker": None, "trump": None,
            "upcard": CODE[self._upcard] if self._upcard >= 0 else None,
            "points": [0, 0], "card_points": [0, 0], "bella": [0, 0], "meld_points": [0, 0],
            "melds": [[], []], "meld_winner": None, "meld_tied": False, "last_trick": None,
            "bete": False, "game_over": False, "winner": None,
        }
        self._end_deal(summary)

    # -- play -------------------------------------------------------------------------
    def _play(self, p: int, c: int, bella: bool) -> None:
        self._hands[p] &= ~(1 << c)
        self._played[p] |= 1 << c
        if bella:
            self._bella_pts[p] += 20
            self._bella.append((p, SUITS[c >> 3]))
        trick = self._trick
        trick.append((p, c))
        if len(trick) == 1:
            self._turn = 1 - p
            return
        (lp, a), (fp, b) = trick
        mode = self._mode
        w = fp if FOLLOWER_WINS[mode][a << 5 | b] else lp
        pts = POINTS[mode]
        self._card_pts[w] += pts[a] + pts[b]
        done = (trick[0], trick[1], w)
        self._tricks.append(done)
        self._last_trick = done
        self._trick_seq += 1
        self._trick = []
        if len(self._tricks) == 1:
            self._shown = True
        if len(self._tricks) == 9:
            self._last_winner = w
            self._score_deal()
        else:
            self._turn = w

    def _meld_points(self) -> list[int]:
        out = [0, 0]
        if self._meld_winner is not None and self._shown:
            out[self._meld_winner] = sum(meld_points(r) for r in self._runs[self._meld_winner])
        return out

    def _shown_melds(self) -> list[list[dict[str, Any]]]:
        out: list[list[dict[str, Any]]] = [[], []]
        w = self._meld_winner
        if w is not None and self._shown:
            out[w] = [{"cards": shown_cards(r), "points": meld_points(r)} for r in self._runs[w]]
        return out

    def _tally(self) -> list[int]:
        melds = self._meld_points()
        out = [self._card_pts[s] + self._bella_pts[s] + melds[s] for s in (0, 1)]
        if self._last_winner >= 0:
            out[self._last_winner] += 10
        return out

    def _score_deal(self) -> None:
        totals = self._tally()
        m = self._maker
        o = 1 - m
        add = [0, 0]
        bete = False
        if totals[m] > totals[o]:
            add = list(totals)
        elif totals[m] == totals[o]:
            add[o] = totals[o]
        else:
            add[o] = totals[0] + totals[1]
            bete = True
        for s in (0, 1):
            self._scores[s] += add[s]
        sc = self._scores
        if max(sc) >= self._game_point and sc[0] != sc[1]:
            self._over = True
            self._winner = 0 if sc[0] > sc[1] else 1
        self._phase = OVER
        self._turn = None
        card_pts = list(self._card_pts)
        card_pts[self._last_winner] += 10
        summary = {
            "scores": add, "thrown_in": False, "reason": None, "maker": m, "trump": TRUMP_NAME[self._mode],
            "upcard": CODE[self._upcard] if self._upcard >= 0 else None,
            "points": totals, "card_points": card_pts, "bella": list(self._bella_pts),
            "meld_points": self._meld_points(), "melds": self._shown_melds(),
            "meld_winner": self._meld_winner, "meld_tied": self._meld_tied, "last_trick": self._last_winner,
            "bete": bete, "game_over": self._over, "winner": self._winner,
            "final_trick": _trick_dict(self._last_trick) if self._last_trick is not None else None,
        }
        self._end_deal(summary)

    # -- the rest of the API ----------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self._over else self._turn

    @property
    def phase(self) -> Phase:
        return PHASE_NAMES[self._phase]

    @property
    def maker(self) -> int | None:
        return self._maker if self._maker >= 0 else None

    @property
    def trump(self) -> str | None:
        return TRUMP_NAME.get(self._mode)

    def hand(self, seat: int) -> list[str]:
        """A seat's cards in display order (for tests and the table, not for bots)."""
        return cards_of(self._hands[seat], self._mode)

    def view(self, seat: int) -> dict[str, Any]:
        view = self._base_view(seat)
        mode = self._mode
        lt = self._last_trick if self._tricks else None  # never a card of the previous deal
        view.update({
            "hand": cards_of(self._hands[seat], mode),
            "opponent_cards": bin(self._hands[1 - seat]).count("1"),
            "hand_sizes": [bin(h).count("1") for h in self._hands],
            "elder": self._elder,
            "upcard": CODE[self._upcard] if self._upcard >= 0 else None,
            "bid_suit": SUITS[self._upsuit],
            "bids": [[s, a] for s, a in self._bids],
            "bidding_round": self._round,
            "trump": TRUMP_NAME.get(mode),
            "maker": self._maker if self._maker >= 0 else None,
            "dix": None if self._dix is None else {"answers": [[s, a] for s, a in self._dix],
                                                   "exchanged_by": self._dix_by if self._dix_by >= 0 else None},
            "trick": [[s, CODE[c]] for s, c in self._trick],
            "tricks": [{"cards": [[t[0][0], CODE[t[0][1]]], [t[1][0], CODE[t[1][1]]]], "winner": t[2]}
                       for t in self._tricks],
            "last_trick": None if lt is None else _trick_dict(lt),
            "trick_seq": self._trick_seq,
            "meld_winner": self._meld_winner,
            "meld_tied": self._meld_tied,
            "melds_compared": self._compared,
            "melds_shown": self._shown,
            "melds": self._shown_melds(),
            "bella": [[s, suit] for s, suit in self._bella],
            "points": self._tally(),
            "game_point": self._game_point,
        })
        return view


class Clobby(Game):
    name = "clobby"
    title = "Clobby"
    description = "Klaberjass for two: take or name trumps, meld runs, and beware of going bete."
    num_players = 2
    PACK = PACK
    OPTIONS = (
        Option("game_point", int, 500, "points that win the game", 100, 9999),
        Option("no_tie", bool, False, "a tied top meld goes to elder (the non-dealer)"),
        Option("clubs_preferred", bool, False, "no upcard: round 1 is about clubs"),
        Option("tout_atout", bool, False, "allow sans tout (no trumps) and tout atout (all trumps) in round 2"),
    )
    #: at the dix a player without the 7 of trumps may only ``keep``: nothing to ask a human
    AUTO_ACTIONS = frozenset({"keep"})
    DEAL_SCORE_BOUND = 300  # a bete maker's opponent: every card point, the last trick, melds and bella
    DEAL_LENGTH_BOUND = 64
    state_class = ClobbyState

    def action_space(self) -> list[str]:
        words = ["take", "pass", "schmeiss", "accept", "refuse", *(f"name {s}" for s in SUITS),
                 "name sans-tout", "name tout-atout", "tout-atout", "exchange", "keep"]
        return [*PACK, *(c + "+bella" for c in PACK if c[0] in "KQ"), *words]


GAME = Clobby
