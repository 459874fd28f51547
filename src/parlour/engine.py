"""The Game/State protocol every rules engine implements, and game records.

Why one base class: the public API (DESIGN.md) is identical for all five games, and the
parts that are not about rules — option checking, seeding, dealing a fresh pack, the
record of actions, replaying a deal, JSON round trips — must behave identically too, so
they live here once.  A game module supplies only its rules through a handful of hooks:

- ``_setup()``                   game-level fields (scores, chips, rounds) before the first deal
- ``_begin_deal(pack, dealer)``  lay out one deal from a pack (top card first)
- ``_legal()``                   the legal action strings now, in a stable order
- ``_apply(action)``             make a legal action's effects (legality already checked)
- ``view(seat)``                 what that seat may know (start from ``_base_view``)
- ``current_player`` / ``winner`` / ``is_over`` / ``phase`` / ``scores``
- ``action_is_private`` when the next action is hidden from the other seats

Every view also carries, for the table and the interfaces: ``"hand"`` in display order,
``"trick"`` (the current trick as ``[[seat, card], ...]``), ``"last_trick"``
(``{"cards": [[seat, card], ...], "winner": seat}``, or None before the current deal's
first trick: a view never shows a card of an earlier deal outside ``"last_deal"``) and
``"trick_seq"`` (tricks completed in the whole game, so a watcher can tell that a trick
was just won).  A deal summary holds its last trick as ``"final_trick"``.

and calls ``_end_deal(summary)`` when a deal is scored, which records the summary and
deals the next pack from the state's own RNG unless the game is over.

A game may set ``LAZY_DEALS = True``: the next pack is then shuffled only when something
first asks about the new deal, so a playout or a search that stops at the end of a deal
never pays for the next shuffle.  Such a game implements ``_await_deal()`` (mark its own
phase so that each of its accessors calls ``_deal_next()`` first); the base class's own
accessors (``dealer``, ``deal_is_fresh``, ``replay_deal``, ...) already do.  The RNG is used
for nothing else, so the packs are exactly those an eager deal gives.

Seeding contract (so records replay exactly): ``rng = random.Random(seed)``; if ``dealer``
is not given it is ``rng.randrange(num_players)``; if ``deck`` is not given the first pack
is shuffled from the game's ``PACK`` as ``rng.shuffle`` would; every later pack is shuffled
from the same ``rng``.  A record stores the arguments as given plus every action, so ``from_json``
rebuilds the identical state by replaying them.
"""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

RECORD_VERSION = 1
#: A pseudo-action in the record: the current deal was replaced by the previous deal's pack.
REPLAY_DEAL = "#replay-deal"


class IllegalAction(ValueError):
    """An action that is not legal in this state.  The state is left unchanged."""

    def __init__(self, action: str, legal: Sequence[str], why: str = "") -> None:
        self.action = action
        self.legal = list(legal)
        self.why = why  # the short reason alone, for interfaces that list the choices themselves
        reason = f" ({why})" if why else ""
        shown = " ".join(self.legal) if self.legal else "none: the game is over"
        super().__init__(f"{action!r} is not a legal action now{reason}; legal: {shown}")


@dataclass(frozen=True)
class Option:
    """One engine option: its name as a keyword argument, type, default and bounds."""

    name: str
    kind: type  # bool, int or str
    default: Any
    help: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] | None = None

    def check(self, value: Any) -> Any:
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name} must be true or false, not {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {self.name} must be a whole number, not {value!r}")
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise ValueError(f"option {self.name} must be from {self.low} to {self.high}, not {value}")
            return value
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"option {self.name} must be one of {', '.join(self.choices)}, not {value!r}")
        return value


class Game:
    """A game with fixed options; a factory of states.  Immutable once made."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    num_players: ClassVar[int] = 2
    PACK: ClassVar[tuple[str, ...]] = ()
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    state_class: ClassVar[type[State]]

    def __init__(self, **options: Any) -> None:
        known = {o.name: o for o in self.OPTIONS}
        for key in options:
            if key not in known:
                names = ", ".join(known) or "none"
                raise ValueError(f"unknown option {key!r} for {self.name} (options: {names})")
        self.options: dict[str, Any] = {
            o.name: o.check(options[o.name]) if o.name in options else o.default for o in self.OPTIONS
        }

    def new_state(self, seed: int | None = None, deck: Sequence[str] | None = None,
                  dealer: int | None = None) -> State:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < self.num_players):
            raise ValueError(f"dealer must be a seat from 0 to {self.num_players - 1}, not {dealer!r}")
        state = self.state_class.__new__(self.state_class)
        state._init(self, seed, deck, dealer)
        return state

    def __repr__(self) -> str:
        return f"parlour.load({self.name!r}, **{self.options!r})"


class State:
    """One whole game (all its deals) in progress; see the module docstring for the hooks."""

    LAZY_DEALS: ClassVar[bool] = False
    _rng_shared = False

    game: Game
    seed: int
    deals: list[dict[str, Any]]
    actions: list[str]
    rng: random.Random

    # -- construction ----------------------------------------------------------------
    def _init(self, game: Game, seed: int, deck: Sequence[str] | None, dealer: int | None) -> None:
        self.game = game
        self.seed = seed
        self._given_deck = list(deck) if deck is not None else None
        self._given_dealer = dealer
        self.rng = random.Random(seed)
        self.deals = []
        self.actions = []
        self._packs: list[tuple[list[str], int]] = []
        self._actions_at_deal_start = 0
        self._legal_cache: list[str] | None = None
        self._deal_pending = False
        first_dealer = dealer if dealer is not None else self.rng.randrange(game.num_players)
        pack = self._check_deck(deck) if deck is not None else self._shuffled_pack()
        self._setup()
        self._start_deal(pack, first_dealer)

    def _check_deck(self, deck: Sequence[str]) -> list[str]:
        from .cards import validate_deck

        return validate_deck(deck, self.game.PACK)

    def _shuffled_pack(self) -> list[str]:
        """A fresh pack shuffled from the state's RNG.

        The steps are the Fisher-Yates loop of CPython's ``random.shuffle`` inlined (same
        draws, same order: a test checks it), without its per-card method calls; a playout
        shuffles once per deal, so this is on the hot path.
        """
        if self._rng_shared:
            self._own_rng()
        pack = list(self.game.PACK)
        getrandbits = self.rng.getrandbits
        for i, n, k in _shuffle_steps(len(pack)):
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            pack[i], pack[j] = pack[j], pack[i]
        return pack

    def _share_rng(self, clone: State) -> None:
        """Let a clone share this state's RNG until either of them shuffles again.

        Why: copying a Mersenne Twister costs more than the rest of a clone, and most clones
        (search playouts) never deal again.  Whichever shuffles first takes its own copy
        (``_own_rng``), leaving the shared one untouched for the other.
        """
        clone.rng = self.rng
        self._rng_shared = clone._rng_shared = True

    def _own_rng(self) -> None:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        self.rng = rng
        self._rng_shared = False

    def _start_deal(self, pack: list[str], dealer: int) -> None:
        self._deal_pending = False
        self._dealer = dealer
        self._packs.append((list(pack), dealer))
        self._actions_at_deal_start = len(self.actions)
        self._legal_cache = None
        self._begin_deal(pack, dealer)

    def _end_deal(self, summary: dict[str, Any]) -> None:
        """Record a scored deal and, unless the game has ended, deal the next one."""
        summary.setdefault("deal", len(self.deals) + 1)
        summary.setdefault("dealer", self._dealer)
        self.deals.append(summary)
        self._legal_cache = None
        if self.is_over:
            return
        if self.LAZY_DEALS:
            self._deal_pending = True
            self._await_deal()
        else:
            self._deal_next()

    def _deal_next(self) -> None:
        """Deal the next pack (from the state's RNG) to the next dealer."""
        self._start_deal(self._shuffled_pack(), (self._dealer + 1) % self.game.num_players)

    def _await_deal(self) -> None:
        """For ``LAZY_DEALS`` games: make the game's accessors call ``_deal_next()`` first."""
        raise NotImplementedError

    @property
    def dealer(self) -> int:
        if self._deal_pending:
            self._deal_next()
        return self._dealer

    @dealer.setter
    def dealer(self, seat: int) -> None:
        self._dealer = seat

    # -- hooks a game implements ----------------------------------------------------
    def _setup(self) -> None:  # pragma: no cover - trivial default
        pass

    def _begin_deal(self, pack: list[str], dealer: int) -> None:
        raise NotImplementedError

    def _legal(self) -> list[str]:
        raise NotImplementedError

    def _apply(self, action: str) -> None:
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        raise NotImplementedError

    @property
    def winner(self) -> int | None:
        raise NotImplementedError

    @property
    def scores(self) -> list[int]:
        raise NotImplementedError

    @property
    def phase(self) -> str:
        raise NotImplementedError

    def view(self, seat: int) -> dict[str, Any]:
        raise NotImplementedError

    @property
    def action_is_private(self) -> bool:
        """Whether the action about to be made is seen only by the seat making it.

        Why: interfaces and the table narrate every action, but a discard, a secret bid
        or a card given in exchange must not be shown to the other seats.
        """
        return False

    # -- the public API ---------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        """The legal actions now, in a stable order (a fresh list the caller may keep)."""
        if self._legal_cache is None:
            self._legal_cache = self._legal() if not self.is_over else []
        return list(self._legal_cache)

    def apply(self, action: str) -> None:
        """Make ``action``; an illegal one raises ``IllegalAction`` and changes nothing."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal() if not self.is_over else []
        if action not in legal:
            raise IllegalAction(action, legal, self._why_illegal(action))
        self._legal_cache = None
        self.actions.append(action)
        self._apply(action)

    def _why_illegal(self, action: str) -> str:
        """A short reason for an illegal action; games may give a better one."""
        if self.is_over:
            return "the game is over"
        return ""

    @property
    def deal_is_fresh(self) -> bool:
        """No action has been made in the current deal yet (so it may be replayed)."""
        if self._deal_pending:
            self._deal_next()
        return len(self.actions) == self._actions_at_deal_start

    @property
    def can_replay_deal(self) -> bool:
        return not self.is_over and self.deal_is_fresh and len(self._packs) >= 2

    def replay_deal(self) -> None:
        """Replace the fresh current deal by the previous deal's pack and dealer.

        Why the dealer too: "replay this deal" means every seat gets the same cards again,
        which only the same pack *and* dealer give.  Rotation continues from there.  The
        previous deal's scores stand.  It is recorded so ``from_json`` reproduces it.
        """
        if self._deal_pending:
            self._deal_next()
        if not self.can_replay_deal:
            raise ValueError("a deal can be replayed only at the start of a deal after the first")
        self._packs.pop()
        pack, dealer = self._packs[-1]
        self.actions.append(REPLAY_DEAL)
        self._start_deal(list(pack), dealer)

    def current_pack(self) -> list[str]:
        """The pack the current deal was dealt from (for interfaces' records, not for bots)."""
        if self._deal_pending:
            self._deal_next()
        return list(self._packs[-1][0])

    def _shallow_clone(self) -> Any:
        """The start of a fast ``clone``: a new state sharing every field, with the record's
        lists copied and the RNG shared copy-on-write.  A game's ``clone`` then copies its own
        mutable fields; why not deepcopy: it is the inner loop of search bots and ten times slower.
        """
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        self._share_rng(new)
        new.actions = list(self.actions)
        new.deals = list(self.deals)  # summaries are never changed once written
        new._packs = list(self._packs)
        return new

    def clone(self) -> State:
        memo = {id(self.game): self.game, id(self.rng): self.rng}
        new = copy.deepcopy(self, memo)
        self._share_rng(new)
        return new

    def to_json(self) -> str:
        return json.dumps(self.record())

    def record(self) -> dict[str, Any]:
        return {
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": dict(self.game.options),
            "seed": self.seed,
            "deck": self._given_deck,
            "dealer": self._given_dealer,
            "actions": list(self.actions),
        }

    def _base_view(self, seat: int) -> dict[str, Any]:
        """The keys every game's view shares (DESIGN.md); games add their own."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be 0 to {self.game.num_players - 1}, not {seat!r}")
        player = self.current_player
        view: dict[str, Any] = {
            "game": self.game.name,
            "options": dict(self.game.options),
            "num_players": self.game.num_players,
            "phase": self.phase,
            "seat": seat,
            "current_player": player,
            "scores": list(self.scores),
            "dealer": self.dealer,
            "deal_number": len(self.deals) + 1,
            "last_deal": copy.deepcopy(self.deals[-1]) if self.deals else None,
            "is_over": self.is_over,
            "winner": self.winner,
        }
        if player == seat:
            view["legal_actions"] = self.legal_actions()
        return view

    def __repr__(self) -> str:
        return f"<{self.game.name} state: {len(self.actions)} actions, phase {self.phase}>"


@functools.cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """(position, bound, bits) for each step of ``random.shuffle`` on ``size`` items."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
