"""Le Truc, as RULES.md settles it: three-card deals of bluff, doubling and remaindering.

Two players, the 32-card pack ranked 7 8 A K Q J T 9 (suits never matter).  Each deal the
non-dealer gets cards 0, 2, 4 of the pack and the dealer 1, 3, 5.  Before the first card the
non-dealer says ``play`` or ``call`` (for new cards); the dealer answers a call with
``accept`` (both hands are set aside, three new cards each from the same pack) or ``refuse``.
Before each of his cards a player may offer ``double`` ("2 if I play?"), or ``remainder``
when doubling would take him past 12; the opponent answers ``accept`` or ``decline``.  A
deal is won with two tricks (spoiled tricks going to the next winner), a round with 12
points, the game with two rounds.

Choices where RULES.md is silent (each what a player at the table would expect):

- **The offer is listed after the cards** in ``legal_actions()``; the call phase lists
  ``play call``, the answers ``accept refuse`` and ``accept decline``.  Only the order is a
  choice; the sets are RULES.md's.
- **No offer before ``play``/``call`` is settled**: "``play`` only starts play", so the
  first chance to double is the non-dealer's, just before his opening lead (after ``play``
  or a refused call).  Offers are allowed before any card, even when the outcome of the
  trick is already certain: the opponent may not know it.
- **Hands are shown high rank first** (7 8 A K Q J T 9), suits (C D H S) only breaking
  ties, since suits never matter; at the end of the game both hands are empty.
- **An accepted remainder pays the winner exactly what he needed** (``12 - his points``),
  even when that is less than the stake already reached, because RULES.md says each then
  plays "for exactly what he still needs".  The summary's ``stake`` is what the deal was
  worth to its winner: the stake scored (the stake *before* a declined offer), or the
  winner's need after a remainder; with three spoiled tricks it is the stake in play.
- **A trick won by the tie rule** (equal ranks after someone has won a trick) is an
  ordinary win of the first trick's winner: he leads the next trick, if there is one.
- **A deal ends the moment a player has two tricks**, and the cards still in hand are thrown
  in unseen.  The summary shows both hands (as they were when play began) only when the deal
  was played out to the third trick, when every one of those cards has been played face up:
  a deal ended early or declined never reveals a card nobody played.
- **Hands set aside after an accepted call are never shown again**, not even to their owner
  (he saw them; the view keeps only what is in play), and the count of cards left in the
  pack is public, since everybody can see the stock shrink.
- **The pass of the deal with a fresh shuffle** (a call accepted with fewer than six cards
  left) changes ``self.dealer`` at once and continues the same deal: nothing is scored, no
  summary is written, and ``current_pack()`` still shows the pack the deal began with.  So
  the dealer alternates once for the pass and once more when the deal ends.
- **Scores are the current round's points**: when a round ends they restart from 0-0 at
  once (the summary keeps ``round_scores``, the points after the deal), except after the
  game's last deal, where the final round's points stay on show.
- **A spoiled trick's ``last_trick``** has ``"winner": None`` and ``"spoiled": True``.
- **The next deal is dealt lazily** (``LAZY_DEALS``, see engine.py): the engine deals it before
  anything answers about it.  Why: each pack has a generator of its
  own (the seeding contract), and a play-out that stops at the end of a deal need not seed one.

Internally hands are short lists of card codes kept in display order (high rank first),
trick resolution compares precomputed rank powers, and legality is the engine's default test
against the cached ``_legal()`` list: a deal has at most four choices at any point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ...cards import PACK_32, SUITS
from ...engine import Game, State
from .views import Phase

#: Ranks from high to low; suits never matter.
RANK_ORDER = "78AKQJT9"
#: card code -> rank power, 7 for a seven down to 0 for a nine
POWER = {r + s: len(RANK_ORDER) - 1 - i for i, r in enumerate(RANK_ORDER) for s in SUITS}
#: card code -> display position: high rank first, then clubs, diamonds, hearts, spades
DISPLAY = {c: i for i, c in enumerate(sorted(PACK_32, key=lambda c: (-POWER[c], SUITS.index(c[1]))))}
TARGET = 12
ROUNDS_TO_WIN = 2
HAND = 3

CALL: Final = "call"
CALL_ANSWER: Final = "call-answer"
PLAY: Final = "play"
OFFER_ANSWER: Final = "offer-answer"
OVER: Final = "over"
_CALL_ACTIONS = ("play", "call")
_CALL_ANSWERS = ("accept", "refuse")
_OFFER_ANSWERS = ("accept", "decline")
#: the legal actions of every phase but card play: the same few words each time
_ANSWERS: dict[str, tuple[str, ...]] = {CALL: _CALL_ACTIONS, CALL_ANSWER: _CALL_ANSWERS, OFFER_ANSWER: _OFFER_ANSWERS}


class TrucState(State):
    LAZY_DEALS = True
    #: the mutable fields a clone copies (``engine.State.clone``)
    _COPIED_LISTS = ("_scores", "rounds_won", "_log", "_trick", "_spoiled", "_tricks", "_won")
    _COPIED_NESTED = ("_hands",)  # (not _dealt: it is only ever replaced whole, so clones may share it)

    # -- set-up -------------------------------------------------------------------------
    def _setup(self) -> None:
        self._scores = [0, 0]
        self.rounds_won = [0, 0]
        self._round = 1
        self._over = False
        self._last_trick: dict[str, Any] | None = None
        self._trick_seq = 0

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        self._pack = pack
        self._pos = 0
        self._calls = 0
        self._passes = 0
        self._log: list[list[Any]] = []
        self._stake = 1
        self._remainder = False
        self._offer: tuple[int, str] | None = None
        self._offered = False
        self._trick: list[list[Any]] = []
        self._spoiled: list[str] = []
        self._tricks: list[dict[str, Any]] = []
        self._won = [0, 0]
        self._first: int | None = None
        self._deal_hands()

    def _deal_hands(self) -> None:
        """Three cards each, one at a time, non-dealer first, from the next unused card."""
        p, i = self._pack, self._pos
        key = DISPLAY.__getitem__
        hands: list[list[str]] = [[], []]
        hands[1 - self.dealer] = sorted((p[i], p[i + 2], p[i + 4]), key=key)
        hands[self.dealer] = sorted((p[i + 1], p[i + 3], p[i + 5]), key=key)
        self._pos = i + 6
        self._hands = hands
        self._dealt = [list(hands[0]), list(hands[1])]
        self._phase: Phase = CALL
        self._to_move: int | None = 1 - self.dealer
        self._leader = 1 - self.dealer

    # -- the hot path: the engine's hooks ----------------------------------------------
    def _card_choices(self) -> list[str]:
        """The card player's choices: his cards, then the offer he may still make before one."""
        seat: int = self._to_move  # type: ignore[assignment]
        acts = self._hands[seat][:]
        if not (self._remainder or self._offered):
            acts.append("remainder" if self._scores[seat] + 2 * self._stake > TARGET else "double")
        return acts

    def _legal(self) -> Sequence[str]:
        if self._phase == PLAY:
            return self._card_choices()
        return _ANSWERS.get(self._phase, ())

    def _apply(self, action: str) -> Sequence[str] | None:
        seat = self._to_move
        assert seat is not None
        self._log.append([seat, action])
        phase = self._phase
        if phase == PLAY:
            if action == "double" or action == "remainder":
                self._offer = (seat, action)
                self._offered = True
                self._phase = OFFER_ANSWER
                self._to_move = 1 - seat
            else:
                self._play_card(seat, action)
                if self._phase == PLAY:  # the next card player's choices, while at hand
                    return self._card_choices()
        elif phase == OFFER_ANSWER:
            by, kind = self._offer  # type: ignore[misc]
            self._offer = None
            if action == "accept":
                if kind == "double":
                    self._stake *= 2
                else:
                    self._remainder = True
                self._phase = PLAY
                self._to_move = by
            else:
                self._finish(by, "declined", declined=kind)
        elif phase == CALL:
            if action == "play":
                self._phase = PLAY
            else:
                self._phase = CALL_ANSWER
                self._to_move = self.dealer
        else:  # CALL_ANSWER
            if action == "refuse":
                self._phase = PLAY
                self._to_move = 1 - self.dealer
            else:
                self._calls += 1
                if len(self._pack) - self._pos < 2 * HAND:
                    # The pack has run out: the deal passes to the other player, freshly shuffled.
                    self._passes += 1
                    self.dealer = 1 - self.dealer
                    self._pack = self._shuffled_pack()
                    self._pos = 0
                self._deal_hands()
        return None

    def _play_card(self, seat: int, card: str) -> None:
        self._hands[seat].remove(card)
        trick = self._trick
        trick.append([seat, card])
        self._offered = False
        if len(trick) == 1:
            self._to_move = 1 - seat
            return
        lead_seat, lead_card = trick[0]
        a, b = POWER[lead_card], POWER[card]
        if a != b:
            winner: int | None = lead_seat if a > b else seat
        else:
            winner = self._first  # the first trick's winner takes ties; None: spoiled
        self._trick_seq += 1
        record = {"cards": trick, "winner": winner, "spoiled": winner is None}
        self._tricks.append(record)
        self._last_trick = record
        self._trick = []
        if winner is None:
            self._spoiled += (lead_card, card)
            if not self._hands[0]:
                self._finish(None, "spoiled")
                return
            self._to_move = lead_seat
            return
        self._won[winner] += 1 + len(self._spoiled) // 2
        if self._spoiled:
            self._spoiled = []
        if self._first is None:
            self._first = winner
        if self._won[winner] >= 2:
            self._finish(winner, "won")
            return
        self._leader = winner
        self._to_move = winner

    def _finish(self, winner: int | None, ended: str, declined: str | None = None) -> None:
        """Score the deal, close the round or the game if it is won, and record the summary."""
        added = [0, 0]
        stake = self._stake
        if winner is not None:
            if self._remainder and ended != "declined":
                stake = TARGET - self._scores[winner]
            added[winner] = stake
            self._scores[winner] += stake
        round_scores = list(self._scores)
        round_winner = winner if winner is not None and self._scores[winner] >= TARGET else None
        summary: dict[str, Any] = {
            "scores": added,
            "winner": winner,
            "stake": stake,
            "ended": ended,
            "declined": declined,
            "remainder": self._remainder,
            "tricks_won": list(self._won),
            "tricks": [{"cards": [list(x) for x in t["cards"]], "winner": t["winner"], "spoiled": t["spoiled"]}
                       for t in self._tricks],
            "hands": [list(h) for h in self._dealt] if len(self._tricks) == HAND else None,
            "final_trick": self._last_trick if self._tricks else None,
            "calls": self._calls,
            "passes": self._passes,
            "round": self._round,
            "round_scores": round_scores,
            "round_winner": round_winner,
        }
        if round_winner is not None:
            self.rounds_won[round_winner] += 1
            if self.rounds_won[round_winner] >= ROUNDS_TO_WIN:
                self._over = True
            else:
                self._scores = [0, 0]
                self._round += 1
        summary["rounds_won"] = list(self.rounds_won)
        summary["game_over"] = self._over
        self._trick = []
        self._offer = None
        self._phase = OVER  # (until the next deal, dealt lazily, starts its own)
        if self._over:
            self._to_move = None
            self._hands = [[], []]
        self._end_deal(summary)

    def _why_illegal(self, action: str) -> str:
        phase = self._phase
        if phase == OVER:
            return "the game is over"
        if phase == CALL:
            return "before the first card the non-dealer says play or call (for new cards)"
        if phase == CALL_ANSWER:
            return "the dealer answers a call for cards with accept or refuse"
        if phase == OFFER_ANSWER:
            return "answer the offer with accept or decline"
        seat = self._to_move
        assert seat is not None
        if action in ("double", "remainder"):
            if self._remainder:
                return "no more offers once a remainder has been accepted"
            if self._offered:
                return "you have already made an offer before this card"
            if action == "double":
                return (f"doubling to {2 * self._stake} would take you past {TARGET}: "
                        f"offer the remainder instead")
            return (f"the remainder is offered only when doubling would take you past {TARGET}; "
                    f"offer double instead")
        if action in POWER:
            return "you do not hold that card"
        return "play a card from your hand (or make an offer before it)"

    # -- the rest of the API --------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return self._to_move

    @property
    def winner(self) -> int | None:
        if not self._over:
            return None
        return 0 if self.rounds_won[0] >= ROUNDS_TO_WIN else 1

    @property
    def phase(self) -> Phase:
        return self._phase

    def view(self, seat: int) -> dict[str, Any]:
        view = self._base_view(seat)
        offer = None
        if self._offer is not None:
            by, kind = self._offer
            offer = {"by": by, "kind": kind, "stake": 2 * self._stake if kind == "double" else None,
                     "needs": [TARGET - p for p in self._scores] if kind == "remainder" else None}
        last = self._last_trick if self._tricks else None  # never a card of the previous deal
        view.update({
            "hand": list(self._hands[seat]),
            "opponent_cards": len(self._hands[1 - seat]),
            "hand_sizes": [len(h) for h in self._hands],
            "trick": [list(x) for x in self._trick],
            "last_trick": None if last is None else {"cards": [list(x) for x in last["cards"]],
                                                     "winner": last["winner"], "spoiled": last["spoiled"]},
            "trick_seq": self._trick_seq,
            "tricks": [{"cards": [list(x) for x in t["cards"]], "winner": t["winner"], "spoiled": t["spoiled"]}
                       for t in self._tricks],
            "tricks_won": list(self._won),
            "spoiled": list(self._spoiled),
            "first_trick_winner": self._first,
            "leader": self._leader,
            "non_dealer": 1 - self.dealer,
            "stake": self._stake,
            "offer": offer,
            "offered": self._offered,
            "remainder": self._remainder,
            "needs": [TARGET - p for p in self._scores],
            "target": TARGET,
            "calls": self._calls,
            "passes": self._passes,
            "cards_left": len(self._pack) - self._pos,
            "round": self._round,
            "rounds_won": list(self.rounds_won),
            "log": [list(x) for x in self._log],
        })
        return view


class Truc(Game):
    name = "truc"
    title = "Le Truc"
    description = "Provençal bluffing game: three cards, calls for new ones, doubling and remaindering to 12."
    num_players = 2
    PACK = PACK_32
    OPTIONS = ()
    state_class = TrucState
    DEAL_SCORE_BOUND = 12  # an accepted remainder: what the winner still needs
    DEAL_LENGTH_BOUND = 200  # calls for cards may repeat; random play never comes near this

    def action_space(self) -> list[str]:
        return [*PACK_32, "play", "call", "accept", "refuse", "double", "decline", "remainder"]


GAME = Truc
