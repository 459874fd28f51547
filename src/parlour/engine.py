"""The Game/State protocol every rules engine implements, and game records.

Why one base class: the public API (DESIGN.md) is identical for all five games, and the
parts that are not about rules — option checking, seeding, dealing a fresh pack, the
record of actions, replaying a deal, JSON round trips — must behave identically too, so
they live here once.  A game module supplies only its rules through a handful of hooks:

- ``_setup()``                   game-level fields (scores, chips, rounds) before the first deal
- ``_begin_deal(pack, dealer)``  lay out one deal from a pack (top card first)
- ``_legal()``                   the legal action strings now, in a stable order (a list or a
                                 tuple; the base class caches it and hands out copies)
- ``_is_legal(action)``          optional fast legality test (see below)
- ``_apply(action)``             make a legal action's effects (legality already checked); it
                                 may return the new state's ``_legal()`` when it has it at hand
- ``view(seat)``                 what that seat may know (start from ``_base_view``)
- ``current_player`` / ``phase``, and ``is_over`` (or set ``_over`` when the game ends); keep
  each seat's score in ``_scores`` (or answer ``scores``)
- ``winner`` only when it is not the seat with the single highest score (``sole_leader``)
- ``action_is_private`` when the next action is hidden from the other seats
- ``_COPIED_LISTS`` / ``_COPIED_NESTED`` the game's mutable fields, which ``clone`` copies

Every view also carries, for the table and the interfaces: ``"hand"`` in display order,
``"trick"`` (the current trick as ``[[seat, card], ...]``), ``"last_trick"``
(``{"cards": [[seat, card], ...], "winner": seat}``, or None before the current deal's
first trick: a view never shows a card of an earlier deal outside ``"last_deal"``) and
``"trick_seq"`` (tricks completed in the whole game, so a watcher can tell that a trick
was just won).  A deal summary holds its last trick as ``"final_trick"``.

The template (why: the bookkeeping must be the same in every game, so no game repeats it):
the public ``apply(action)`` checks that the action is a string and ``_is_legal(action)``,
raises ``IllegalAction`` (with ``_why_illegal``'s reason) and changes nothing if not, and
otherwise records the action and calls ``_apply``.  ``legal_actions()`` returns a copy of
the cached ``_legal()`` (``[]`` once the game is over).  ``_is_legal`` defaults to
``action in`` that cached list, and ``apply`` looks there itself when the list is already
cached; a game whose hot path can test legality more cheaply (a bitmask test for a card)
overrides it, and it must then answer False once the game is over.  ``_is_legal`` is called
only with a ``str``; neither it nor ``_legal()`` is asked about a pending lazy deal (below), and
``_legal()`` never about a finished game.  ``_apply`` returns None, or the legal actions of the state it leaves when it
knows them cheaply (the next card player's choices): the base class caches that, so a playout
that asks ``legal_actions()`` and applies one pays for no further call.  (So ``_apply`` must not
itself ask for the legal actions: the cache is stale while it runs.)  Games implement the
hooks only: none overrides ``apply`` or ``legal_actions``.

A game calls ``_end_deal(summary)`` when a deal is scored, which records the summary and
deals the next pack (``_shuffled_pack``: the state's next shuffle) unless the game is over.

A game may set ``LAZY_DEALS = True``: the next pack is then shuffled only when something
first asks about the new deal, so a playout or a search that stops at the end of a deal
never pays for the next shuffle.  The engine alone keeps the deal pending (``_deal_pending``)
and deals it (``_deal_next()``) before anything answers about the new deal: ``legal_actions``
and ``apply`` before they ask the hooks, the base class's own accessors (``dealer``,
``deal_is_fresh``, ``replay_deal``, ...), and a lazy game's accessors named in
``DEALS_FIRST`` (``current_player``, ``phase``, ``action_is_private``, ``view``; a game may add
its own), which ``State.__init_subclass__`` wraps so.  Why one mechanism: every accessor of
every lazy game once began with the same guard, and one that forgot it answered about the
finished deal.  So a lazy game's rules need not know a deal can be pending: between the end
of a deal and the next one its fields still describe the finished deal, which nothing reads.
Shuffles are used for nothing else, so the packs are exactly those an eager deal gives.

Seeding contract (``SEEDING = 2``, DESIGN.md; so records replay exactly and nobody can work
out the cards): a seed the program picks is ``secrets.randbits(128)``, so it cannot be searched
for.  The k-th shuffle of a state comes from a generator of its own, ``deal_rng(seed, k)``
(``random.Random`` seeded with ``sha256(b"parlour-deal %d %d" % (seed, k))``): for k = 0 it
draws the first dealer (``randrange(num_players)``, when none is given), then shuffles the
game's ``PACK`` as ``random.shuffle`` would (when no ``deck`` is given); every later shuffle
takes the next k and shuffles ``PACK``.  k = 0 is the first deal's pack, given or not; a fresh
pack within a deal (Le Truc's, when calls run the pack out) and a fresh deal that a replay then
replaces take a k of their own; a replayed deal reuses its old pack and takes none.  The count
lives on the state (``_shuffles``), never the length of the dealt packs, which ``replay_deal``
shortens.  Why a generator per shuffle: MT19937's state can be rebuilt from its outputs, and by
the end of a trick-game deal every card's holder is known; a hash of the seed lets nothing
learned in one deal carry to the next.  Computer players draw from ``bot_rng(seed, count)``, a
derivation of its own, never from a deal's generator.

Records made before carry no ``"seeding"`` and replay under the first contract (``seeding=1``):
``rng = random.Random(seed)`` draws the dealer, shuffles the first pack and every later one.
A record stores the arguments as given, the contract, and every action, so ``from_json``
rebuilds the identical state by replaying them: ``replay`` is the one walk over a record's
entries (actions and the ``#undo N`` and ``#replay-deal`` markers) that every reader uses.

Bad input (why: the API is also fed saved files and network messages): every argument of
``load``/``new_state``/``apply``/``view`` is checked, and anything wrong is a ``ValueError``
(``IllegalAction`` for an action), never a ``TypeError`` or a hang.  A message echoes at most
a short prefix of what it was given (``shorten``), so a 10 MB action gives a one-line error.
A record may hold at most ``MAX_RECORD_ACTIONS`` actions, ``MAX_DEAL_ACTIONS`` in one deal and
``MAX_REPLAY_DEALS`` replayed deals: far above any real game, low enough that loading the worst
record allowed takes about a second or two (``bench/bench_fuzz.py`` measures it).
"""

from __future__ import annotations

import _random
import copy
import functools
import hashlib
import json
import marshal
import random
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, NamedTuple, Self, TypeVar, get_args, get_origin, get_type_hints

from .cards import validate_deck
from .echo import SHOWN_CHARS, shorten

RECORD_VERSION = 1
#: The seeding contract of new states (the module docstring); records name theirs as ``"seeding"``,
#: and a record without it follows contract 1.
SEEDING = 2
SEEDINGS = (1, 2)
#: A pseudo-action in the record: the current deal was replaced by the previous deal's pack.
REPLAY_DEAL = "#replay-deal"
#: A pseudo-action in the record: ``"#undo N"``, the last N (effective) actions were taken back.
#: Why a marker rather than cutting the record: the record keeps what happened, so a replay shows
#: the moves that were taken back and statistics can tell a game with undos from a clean one.
UNDO = "#undo"


def effective_actions(actions: Sequence[str]) -> list[str]:
    """The record's actions with every ``#undo N`` applied (what the state is built from)."""
    out: list[str] = []
    for action in actions:
        if action.startswith(UNDO + " "):
            del out[len(out) - undo_count(action):]
        else:
            out.append(action)
    return out


def apply_recorded(state: State, action: str) -> None:
    """Make one entry of a record on ``state``: an action, ``#undo N`` or ``#replay-deal``.

    Why one function: replaying a record step by step (``from_json``, ``parlour verify``, the
    conformance kit) must treat the markers exactly as the state recorded them.
    """
    if action.startswith(UNDO):
        state.undo(undo_count(action))
    elif action == REPLAY_DEAL:
        state.replay_deal()
    else:
        state.apply(action)


#: What a record entry is: an action, an ``#undo N`` marker or a ``#replay-deal`` marker.
StepKind = Literal["action", "undo", "replay"]


class Step(NamedTuple):
    """One record entry as ``replay`` makes it: its position among the entries, the entry, its kind.

    (A named tuple: a record of 100,000 entries makes as many, and a tuple is the cheapest to make.)
    """

    position: int
    entry: str
    kind: StepKind

    @property
    def undone(self) -> int:
        """N of an ``#undo N`` marker (``ValueError`` if it is malformed); 0 for any other entry."""
        return undo_count(self.entry) if self.kind == "undo" else 0


def replay(state: State, entries: Sequence[str], make: Callable[[Step], object] | None = None, *,
           keep_deal_start: bool | None = None) -> Iterator[Step]:
    """Make record ``entries`` on ``state`` one by one, yielding each ``Step`` once it is made.

    Why one loop: loading a record, undo, the table's history, the retold log, a watched
    replay, a browser table rebuilt from its record and ``parlour verify`` all walk a record,
    and each must treat the markers exactly as the state recorded them.  ``make`` makes each
    step instead of ``apply_recorded`` (a table passes its own ``play`` to get its events,
    ``from_json`` checks its bounds first); the state the steps are made on is ``state`` itself.
    A non-string entry is a ``ValueError`` naming its place.

    Why a copy at each deal's start (kept on the state while the entries take actions back, or
    when ``keep_deal_start`` says so): an ``#undo N`` can only take back actions of the current
    deal, so ``State.undo`` then rebuilds one deal from that copy rather than the whole game,
    and a record of many deals, each with many undos, loads in linear time rather than quadratic.
    """
    keep = _takes_back(entries) if keep_deal_start is None else keep_deal_start
    for index, entry in enumerate(entries):
        if not isinstance(entry, str):
            raise ValueError(f"record action {index + 1} is not a string: {shorten(entry)}")
        kind: StepKind = "undo" if entry.startswith(UNDO) else "replay" if entry == REPLAY_DEAL else "action"
        step = Step(index, entry, kind)
        if keep:
            state._keep_deal_start()
        if make is None:
            apply_recorded(state, entry)
        else:
            make(step)
        yield step


@dataclass(frozen=True, slots=True)
class DealStart:
    """What ``State.undo`` rebuilds a deal from: the state as the deal started, kept unchanged.

    ``state`` holds no record (its ``actions`` are empty: rules never read them), so a clone
    of it copies none; ``seen`` record entries had been made when the deal's standing actions
    were ``standing``, so an undo reads only the entries made since (an ``#undo`` after
    ``#undo`` in a long deal does not walk the whole deal's entries again).  ``key`` is the
    deal's ``State._deal_key``.
    """

    key: tuple[int, int]
    state: State
    seen: int
    standing: tuple[str, ...]


def _takes_back(entries: Sequence[str]) -> bool:
    """Whether ``entries`` may hold an ``#undo`` (a join is C: a record's entries are strings)."""
    try:
        return UNDO in "\n".join(entries)
    except TypeError:  # a non-string entry: ``replay`` refuses it where it stands
        return any(isinstance(e, str) and e.startswith(UNDO) for e in entries)


def undo_count(marker: str) -> int:
    """N in ``"#undo N"``; ``ValueError`` for a malformed marker."""
    word = marker[len(UNDO) + 1:] if marker.startswith(UNDO + " ") else ""
    if not word.isdigit() or not 0 < int(word) <= MAX_DEAL_ACTIONS:
        raise ValueError(f"a bad undo marker: {marker[:SHOWN_CHARS]!r} (expected '#undo N')")
    return int(word)

#: What a record may hold (see the module docstring).  The longest real games have a few
#: thousand actions (a hundred deals of forty) and deals of at most a hundred (Le Truc's calls for
#: new cards could go on for ever, but never do); a deal may be replayed any number of times in
#: principle, but nobody asks for it ten thousand times.
MAX_RECORD_ACTIONS = 100_000
MAX_DEAL_ACTIONS = 10_000
MAX_REPLAY_DEALS = 10_000
#: The largest seed accepted (in absolute value): any seed a program makes, and still a
#: number that every JSON reader and ``int()`` handles.
MAX_SEED = 2**256

class IllegalAction(ValueError):
    """An action that is not legal in this state.  The state is left unchanged."""

    def __init__(self, action: object, legal: Sequence[str], why: str = "") -> None:
        self.action = action
        self.legal = list(legal)
        self.why = why  # the short reason alone, for interfaces that list the choices themselves
        reason = f" ({why})" if why else ""
        shown = " ".join(self.legal) if self.legal else "none: the game is over"
        super().__init__(f"{shorten(action)} is not a legal action now{reason}; legal: {shown}")


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
        """``value`` if it suits this option; a ``ValueError`` naming the option otherwise."""
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"option {self.name} must be true or false, not {shorten(value)}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {self.name} must be a whole number, not {shorten(value)}")
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                if self.low is not None and self.high is not None:
                    bounds = f"from {self.low} to {self.high}"
                else:
                    bounds = f"at least {self.low}" if self.low is not None else f"at most {self.high}"
                raise ValueError(f"option {self.name} must be {bounds}, not {shorten(value)}")
            return value
        if not isinstance(value, str):
            raise ValueError(f"option {self.name} must be a text, not {shorten(value)}")
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"option {self.name} must be one of {', '.join(self.choices)}, not {shorten(value)}")
        return value


class Game:
    """A game with fixed options; a factory of states.  Immutable once made."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    num_players: ClassVar[int] = 2
    PACK: ClassVar[tuple[str, ...]] = ()
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    #: Actions an interface makes by itself for a human seat when it is that seat's only legal
    #: action (the action is still applied and recorded, and narrated like any other).  Why: a
    #: rule may ask a player who has no choice so that being asked reveals nothing (Clobby's
    #: ``keep`` at the dix); prompting a human for it would be a pointless keypress.
    AUTO_ACTIONS: ClassVar[frozenset[str]] = frozenset()
    #: Whether interfaces show a dealer.  Why: a game with no dealer in its rules (GOPS) still
    #: keeps one for a uniform API, and generic code must not learn which game that is by name.
    HAS_DEALER: ClassVar[bool] = True
    #: Whether the seats choose at the same time (GOPS: both bid, then both cards are shown).
    #: The engine still takes the choices one seat after the other, hiding the earlier ones;
    #: research adapters present such turns as simultaneous moves.
    SIMULTANEOUS: ClassVar[bool] = False
    #: The phases a view may name, in order; research adapters encode the phase by its position
    #: here.  Unless a game says them, they are the ``Literal`` its state's ``phase`` is typed to
    #: return (each game's ``views.Phase``), read once by ``__init_subclass__``: why, so that a
    #: game names its phases once, in that type.
    PHASES: ClassVar[tuple[str, ...]] = ()
    #: No seat's score in one deal goes beyond plus or minus this (research adapters' utility bounds).
    DEAL_SCORE_BOUND: ClassVar[int] = 1000
    #: No deal takes more actions than this (a bound for research adapters' episode lengths).
    DEAL_LENGTH_BOUND: ClassVar[int] = 400
    state_class: ClassVar[type[State]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "PHASES" not in cls.__dict__ and "state_class" in cls.__dict__:
            phase: Any = cls.state_class.phase  # the property (mypy types it as its getter, on a class)
            hint = get_type_hints(phase.fget).get("return")  # (through a DEALS_FIRST wrapper too)
            cls.PHASES = get_args(hint) if get_origin(hint) is Literal else ()

    def __init__(self, **options: Any) -> None:
        known = {o.name: o for o in self.OPTIONS}
        for key in options:
            if not isinstance(key, str) or key not in known:
                names = ", ".join(known) or "none"
                raise ValueError(f"unknown option {shorten(key)} for {self.name} (options: {names})")
        self.options: dict[str, Any] = {
            o.name: o.check(options[o.name]) if o.name in options else o.default for o in self.OPTIONS
        }

    def action_space(self) -> list[str]:
        """Every action string that can ever be legal with these options, in a fixed order.

        Why: research toolkits number the actions (OpenSpiel's action ids, PettingZoo's
        ``Discrete`` space and action masks); a game declares its space once, here.
        """
        raise NotImplementedError(f"{self.name} does not declare its action space")

    def new_state(self, seed: int | None = None, deck: Sequence[str] | None = None,
                  dealer: int | None = None, *, seeding: int = SEEDING) -> State:
        """A new game; ``seed`` fixes every shuffle, ``deck``/``dealer`` fix the first deal (DESIGN.md).

        ``seeding`` is the seeding contract (the module docstring): the current one, unless a
        record made under an older one is being replayed.
        """
        if seed is None:
            seed = new_seed()
        if not isinstance(seed, int) or isinstance(seed, bool) or not -MAX_SEED < seed < MAX_SEED:
            raise ValueError(f"seed must be a whole number of at most 77 digits, not {shorten(seed)}")
        if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int)
                                   or not 0 <= dealer < self.num_players):
            raise ValueError(f"dealer must be a seat from 0 to {self.num_players - 1}, not {shorten(dealer)}")
        if isinstance(seeding, bool) or not isinstance(seeding, int) or seeding not in SEEDINGS:
            raise ValueError(f"seeding must be one of {', '.join(map(str, SEEDINGS))}, not {shorten(seeding)}")
        state = self.state_class.__new__(self.state_class)
        state._init(self, seed, deck, dealer, seeding)
        return state

    def __repr__(self) -> str:
        return f"parlour.load({self.name!r}, **{self.options!r})"


_Member = TypeVar("_Member")


def _deals_first(member: _Member) -> _Member:
    """``member`` (a method, or a property's getter) dealing a pending lazy deal before it answers.

    The one guard of ``LAZY_DEALS`` (the module docstring): the engine's own accessors are written
    with it, and a lazy game's ``DEALS_FIRST`` accessors are wrapped in it by ``State.__init_subclass__``.
    """
    if isinstance(member, property):  # (a getter of its own: without the call's packing, on hot accessors)
        get = member.fget
        assert get is not None

        @functools.wraps(get)
        def dealt_get(self: State) -> Any:
            if self._deal_pending:
                self._deal_next()
            return get(self)

        return property(dealt_get, member.fset, member.fdel, member.__doc__)  # type: ignore[return-value]
    method: Callable[..., Any] = member  # type: ignore[assignment]

    @functools.wraps(method)
    def dealt(self: State, *args: Any, **kwargs: Any) -> Any:
        if self._deal_pending:
            self._deal_next()
        return method(self, *args, **kwargs)

    return dealt  # type: ignore[return-value]


class State:
    """One whole game (all its deals) in progress; see the module docstring for the hooks."""

    LAZY_DEALS: ClassVar[bool] = False
    #: The game's mutable fields that ``clone`` copies: lists copied one level, and lists of
    #: lists copied two (see ``clone``); None: the game names none, and a clone is a deep copy.
    _COPIED_LISTS: ClassVar[tuple[str, ...] | None] = None
    _COPIED_NESTED: ClassVar[tuple[str, ...]] = ()
    #: For ``LAZY_DEALS`` games: the accessors that deal a pending deal before they answer (the
    #: module docstring); ``__init_subclass__`` wraps each that the class itself defines.
    DEALS_FIRST: ClassVar[tuple[str, ...]] = ("current_player", "phase", "action_is_private", "view")
    _rng_shared = False
    _over = False  # whether the game has ended (``is_over``), for a game that keeps no other sign of it
    _replays = 0  # deals replayed so far (bounded by MAX_REPLAY_DEALS)
    #: How the seed was made (``parlour.fairness``: a commitment and the seeds behind it), or
    #: None.  The engine only carries it in the record; ``parlour verify`` checks it.
    proof: dict[str, Any] | None = None

    game: Game
    seed: int
    seeding: int
    deals: list[dict[str, Any]]
    actions: list[str]
    rng: random.Random | None  # contract 1's one generator for the whole game; None under contract 2
    _shuffles: int  # contract 2: the shuffles made so far (the next one is deal_rng(seed, _shuffles))
    _summary_blob: tuple[dict[str, Any], bytes | None]  # the last deal's summary, encoded once for views
    _scores: list[int]  # each seat's score, which ``scores`` copies
    #: A copy of the current deal's start (``_keep_deal_start``); absent until a replay of a record
    #: with undos or an undo makes one.  Clones share it (nothing changes it).
    _deal_start_copy: DealStart

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.LAZY_DEALS:
            for name in cls.DEALS_FIRST:
                if name in cls.__dict__:
                    setattr(cls, name, _deals_first(cls.__dict__[name]))

    # -- construction ----------------------------------------------------------------
    def _init(self, game: Game, seed: int, deck: Sequence[str] | None, dealer: int | None,
              seeding: int = SEEDING) -> None:
        self.game = game
        self.seed = seed
        self.seeding = seeding
        # checked before anything else, so that a bad deck costs no more than reading it once
        checked = self._check_deck(deck) if deck is not None else None
        self._given_deck = list(checked) if checked is not None else None
        self._given_dealer = dealer
        self._shuffles = 0
        self.rng = _seeded_rng(seed) if seeding == 1 else None
        rng = self._next_rng()  # k = 0: the first dealer, then the first pack
        self.deals = []
        self.actions = []
        self._packs: list[tuple[list[str], int]] = []
        self._actions_at_deal_start = 0
        self._legal_cache: Sequence[str] | None = None
        self._deal_pending = False
        if dealer is None:  # rng.randrange(num_players), inlined: the same draws without two Python calls
            n = game.num_players
            k = n.bit_length()
            dealer = rng.getrandbits(k)
            while dealer >= n:
                dealer = rng.getrandbits(k)
        first_dealer = dealer
        pack = checked if checked is not None else _shuffle(self.game.PACK, rng)
        self._setup()
        self._start_deal(pack, first_dealer)

    def _check_deck(self, deck: object) -> list[str]:
        return validate_deck(deck, self.game.PACK)

    def _shuffled_pack(self) -> list[str]:
        """A fresh pack, shuffled by the state's next shuffle (the seeding contract)."""
        return _shuffle(self.game.PACK, self._next_rng())

    def _next_rng(self) -> random.Random:
        """The generator of the state's next shuffle: ``deal_rng(seed, k)``, k counted on the state.

        Under contract 1 (old records) it is the one generator of the whole game instead.
        """
        rng = self.rng
        if rng is not None:
            if self._rng_shared:
                rng = self._own_rng()
            return rng
        k = self._shuffles
        self._shuffles = k + 1
        return deal_rng(self.seed, k)

    def _share_rng(self, clone: State) -> None:
        """Under contract 1, let a clone share this state's RNG until either of them shuffles again.

        Why: copying a Mersenne Twister costs more than the rest of a clone, and most clones
        (search playouts) never deal again.  Whichever shuffles first takes its own copy
        (``_own_rng``), leaving the shared one untouched for the other.  (Contract 2 keeps no
        generator between shuffles: a clone has nothing to share.)
        """
        if self.rng is not None:
            clone.rng = self.rng
            self._rng_shared = clone._rng_shared = True

    def _own_rng(self) -> random.Random:
        assert self.rng is not None
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        self.rng = rng
        self._rng_shared = False
        return rng

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
            self._deal_pending = True  # dealt when first asked about (the module docstring)
        else:
            self._deal_next()

    def _deal_next(self) -> None:
        """Deal the next pack (from the state's RNG) to the next dealer."""
        self._start_deal(self._shuffled_pack(), (self._dealer + 1) % self.game.num_players)

    @property
    def dealer(self) -> int:
        if self._deal_pending:  # (inline, not ``_deals_first``: the rules read it on their hot path)
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

    def _legal(self) -> Sequence[str]:
        raise NotImplementedError

    def _is_legal(self, action: str) -> bool:
        """Whether ``action`` (a ``str``) is legal now; the default looks in the cached ``_legal()``.

        Why a hook: ``apply`` is the inner loop of every search bot, and for a card a game can
        often answer with one bitmask test instead of building the legal list.  An override must
        answer False once the game is over.
        """
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = () if self.is_over else self._legal()
        return action in legal

    def _apply(self, action: str) -> Sequence[str] | None:
        raise NotImplementedError

    @property
    def current_player(self) -> int | None:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: by default the ``_over`` flag, which such a game sets when it ends."""
        return self._over

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over, None before it or for a tie.

        By default the seat with the single highest score (``sole_leader``), as in most games; why
        here: four games said it each in their own words.  A game won otherwise (Le Truc: by rounds,
        its scores being the current round's points) answers itself.
        """
        return sole_leader(self.scores) if self.is_over else None

    @property
    def scores(self) -> list[int]:
        """Each seat's score: by default a copy of the ``_scores`` list every game keeps (five said it alike)."""
        return list(self._scores)

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
        legal = self._legal_cache
        if legal is None:  # (always so while a deal is pending: ``_end_deal`` empties the cache)
            if self._deal_pending:
                self._deal_next()
            legal = self._legal_cache = () if self.is_over else self._legal()
        return [*legal]  # (a list display: cheaper than list() for a list or a tuple)

    def apply(self, action: str) -> None:
        """Make ``action``; an illegal one (or a non-string) raises ``IllegalAction`` and changes nothing.

        Why the cached list first: callers mostly ask ``legal_actions()`` and then apply one of
        them, and a look in that list costs less than even the game's bitmask test.
        """
        if action.__class__ is not str:  # (cheaper than isinstance on the hot path)
            if not isinstance(action, str):
                raise self._illegal(action)
            action = str.__str__(action)  # a str subclass (a StrEnum member): record the plain string
        legal = self._legal_cache
        if legal is None:  # (always so while a deal is pending: ``_end_deal`` empties the cache)
            if self._deal_pending:
                self._deal_next()
            if not self._is_legal(action):
                raise self._illegal(action)
        elif action not in legal:
            raise self._illegal(action)
        self.actions.append(action)
        # the cache is stale from here on: _apply must not ask for the legal actions
        self._legal_cache = self._apply(action)

    def why_not(self, action: object) -> str:
        """Why ``action`` may not be made now, in the game's short words ("" when it may).

        Why public: an interface refusing a key or a typed card gives the engine's reason ("you
        must follow suit") without trying the action on a copy of the state.
        """
        if isinstance(action, str) and action in self.legal_actions():
            return ""
        return self._illegal(action).why or "it is not a choice now"

    @_deals_first
    def _illegal(self, action: object) -> IllegalAction:
        """The error for an illegal ``action``; a game's ``_why_illegal`` sees only strings, of a dealt deal."""
        why = self._why_illegal(action) if isinstance(action, str) else "an action is a string"
        return IllegalAction(action, self.legal_actions(), why)

    def _why_illegal(self, action: str) -> str:
        """A short reason for an illegal action; games may give a better one."""
        if self.is_over:
            return "the game is over"
        return ""

    @property
    @_deals_first
    def deal_is_fresh(self) -> bool:
        """No action has been made in the current deal yet (so it may be replayed)."""
        return len(self.actions) == self._actions_at_deal_start

    @property
    def can_replay_deal(self) -> bool:
        return not self.is_over and self.deal_is_fresh and len(self._packs) >= 2

    @_deals_first
    def replay_deal(self) -> None:
        """Replace the fresh current deal by the previous deal's pack and dealer.

        Why the dealer too: "replay this deal" means every seat gets the same cards again,
        which only the same pack *and* dealer give.  Rotation continues from there.  The
        previous deal's scores stand.  It is recorded so ``from_json`` reproduces it.
        """
        if not self.can_replay_deal:
            raise ValueError("a deal can be replayed only at the start of a deal after the first")
        if self._replays >= MAX_REPLAY_DEALS:
            raise ValueError(f"a game may replay at most {MAX_REPLAY_DEALS} deals (no real game needs more)")
        self._replays += 1
        self._packs.pop()
        pack, dealer = self._packs[-1]
        self.actions.append(REPLAY_DEAL)
        self._start_deal(list(pack), dealer)

    @property
    @_deals_first
    def deal_actions(self) -> int:
        """How many actions of the current deal are standing (what ``undo`` may take back)."""
        return len(self.actions) - self._actions_at_deal_start

    def undo(self, n: int) -> None:
        """Take back the last ``n`` actions of the current deal, recording ``"#undo n"``.

        Why rebuilt: rules are pure and deterministic from seed, deck and the actions, so
        replaying the standing actions gives exactly the earlier state (RNG included) with no
        per-game undo code.  Only the current deal: the scores of a finished deal stand, so the
        rebuild starts from a copy of the deal's start (``_keep_deal_start``), made by walking the
        record once when the state has none, and one deal is all an undo replays after that.
        The marker keeps the full record (``from_json`` replays it).
        """
        if not 0 < n <= self.deal_actions or self.is_over:
            raise ValueError(f"only the current deal's actions can be taken back ({self.deal_actions} now)")
        kept = self._kept_start()
        if kept is None:  # no copy of this deal's start: walk the whole record once to make one
            walk = self.fresh_copy()
            for _ in replay(walk, self.actions, keep_deal_start=True):
                pass
            kept = walk._kept_start()
            assert kept is not None  # the deal has an action (n > 0), so the walk passed its start
        marker = f"{UNDO} {n}"
        standing = effective_actions([*kept.standing, *self.actions[kept.seen:], marker])
        rebuilt = kept.state.clone()
        for action in standing:
            rebuilt.apply(action)
        actions = self.actions
        actions.append(marker)  # (in place: a copy per undo would make a long record's undos quadratic)
        rebuilt.actions = actions
        rebuilt._actions_at_deal_start = len(actions) - len(standing)
        rebuilt._deal_start_copy = DealStart(kept.key, kept.state, len(actions), tuple(standing))
        self.__dict__.clear()
        self.__dict__.update(rebuilt.__dict__)

    def _deal_key(self) -> tuple[int, int]:
        """Which deal of the game this is: deals scored and deals replayed (an undo changes neither)."""
        return len(self.deals), self._replays

    @property
    def pack_key(self) -> tuple[int, int, int]:
        """Which pack is on the table: deals scored, deals replayed, packs shuffled so far.

        Why public: ``parlour verify`` walks a record and names each pack it meets, the
        fresh packs a deal's own rules call for (Le Truc's) apart from the deals.
        """
        return (*self._deal_key(), self._shuffles)

    def _keep_deal_start(self) -> None:
        """Keep a copy of the state as its current deal starts, unless one is kept already.

        Only where none of the deal's actions stands (so the copy is the deal's start): ``replay``
        calls it before each entry, which is always right after a deal's first start.
        """
        kept = self.__dict__.get("_deal_start_copy")
        if (kept is not None and kept.key == self._deal_key()) or self.deal_actions:
            return
        start = self.clone()
        start.__dict__.pop("_deal_start_copy", None)  # one copy, not a chain of every deal's
        start.actions = []  # so that a clone of it copies no record (``undo`` gives it its own)
        start._actions_at_deal_start = 0
        self._deal_start_copy = DealStart(self._deal_key(), start, len(self.actions), ())

    def _kept_start(self) -> DealStart | None:
        """The kept copy of this deal's start, or None (none kept, or one of an earlier deal)."""
        kept: DealStart | None = self.__dict__.get("_deal_start_copy")
        return kept if kept is not None and kept.key == self._deal_key() else None

    def fresh_copy(self) -> State:
        """The same game from its start: the same options, seed, contract, given deck and dealer.

        Why here: undo, the table's history and the retold log all replay a game's actions on
        such a copy, and only the engine knows everything a state was made from.
        """
        fresh = self.game.new_state(seed=self.seed, deck=self._given_deck, dealer=self._given_dealer,
                                    seeding=self.seeding)
        fresh.proof = self.proof
        return fresh

    @_deals_first
    def current_pack(self) -> list[str]:
        """The pack the current deal was dealt from (for interfaces' records, not for bots)."""
        return list(self._packs[-1][0])

    @property
    def deals_dealt(self) -> int:
        """How many packs this game has dealt so far (a fresh shuffle within a deal counts)."""
        return len(self._packs)

    @_deals_first
    def redeal(self, pack: Sequence[str]) -> None:
        """Deal the fresh current deal again from ``pack``, with the same dealer.

        Why: research adapters choose every pack through their own chance events (OpenSpiel's
        explicit chance nodes), including a shuffle the rules make within a deal.  It is not
        recorded: such a state is rebuilt from its adapter's history, not from ``to_json``.
        """
        if not self.deal_is_fresh or self.is_over:
            raise ValueError("only a deal nobody has acted in yet can be dealt again")
        checked = self._check_deck(pack)
        self._packs.pop()
        self._start_deal(checked, self._dealer)
        self.__dict__.pop("_deal_start_copy", None)  # undo rebuilds from the record, which has no redeal

    def clone(self) -> Self:
        """An independent copy, sharing the RNG until either deals again (``_share_rng``).

        Why from class data: every game's fast copy is the same walk (share every field, copy the
        record's lists and the game's own mutable ones), so a game only names its mutable fields:
        ``_COPIED_LISTS`` (copied one level: a list of ints, of strings, of tuples, of records that
        are never changed once made) and ``_COPIED_NESTED`` (lists of lists, copied two levels:
        hands kept as lists of cards).  Why not deepcopy: it is the inner loop of search bots and
        ten times slower; a game that names no fields (``_COPIED_LISTS`` None) is deep-copied.
        """
        cls = self.__class__
        lists = cls._COPIED_LISTS
        if lists is None:
            return self._deep_clone()
        new = cls.__new__(cls)
        fields = new.__dict__
        fields.update(self.__dict__)
        if self.rng is not None:  # (contract 2 has no generator to share: no call)
            self._share_rng(new)
        fields["actions"] = [*self.actions]
        fields["deals"] = [*self.deals]  # summaries are never changed once written
        fields["_packs"] = [*self._packs]
        if type(self._legal_cache) is list:  # a game's _legal() may be one of its own lists (a hand)
            fields["_legal_cache"] = [*self._legal_cache]
        for name in lists:
            fields[name] = [*fields[name]]
        for name in cls._COPIED_NESTED:
            fields[name] = [[*inner] for inner in fields[name]]
        return new

    def _deep_clone(self) -> Self:
        memo: dict[int, Any] = {id(self.game): self.game, id(self.rng): self.rng}
        kept = self.__dict__.get("_deal_start_copy")
        if kept is not None:  # shared, as ``clone`` shares it: nothing changes it
            memo[id(kept)] = kept
        new = copy.deepcopy(self, memo)
        self._share_rng(new)
        return new

    def to_json(self) -> str:
        return json.dumps(self.record())

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "version": RECORD_VERSION,
            "game": self.game.name,
            "options": dict(self.game.options),
            "seed": self.seed,
            "deck": self._given_deck,
            "dealer": self._given_dealer,
            "actions": list(self.actions),
        }
        if self.seeding != 1:  # a record without it replays under contract 1, as records made before did
            record["seeding"] = self.seeding
        if self.proof is not None:
            record["proof"] = dict(self.proof)
        return record

    def _base_view(self, seat: int) -> dict[str, Any]:
        """The keys every game's view shares (DESIGN.md); games add their own."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be 0 to {self.game.num_players - 1}, not {shorten(seat)}")
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
            "last_deal": self._last_deal_copy() if self.deals else None,
            "is_over": self.is_over,
            "winner": self.winner,
        }
        if player == seat:
            view["legal_actions"] = self.legal_actions()
        return view

    def _last_deal_copy(self) -> dict[str, Any]:
        """A fresh copy of the last deal's summary, for a view (which its reader may change).

        Why encoded once: every view copies the summary (a browser table asks for three or four
        views per action), and walking it in Python cost half of a view.  A summary never
        changes once written, so one ``marshal`` encoding per deal serves every later view;
        decoding it is C.  A summary ``marshal`` cannot encode is copied by ``plain_copy``.
        """
        last = self.deals[-1]
        cached: tuple[dict[str, Any], bytes | None] | None = self.__dict__.get("_summary_blob")
        if cached is None or cached[0] is not last:
            plain = plain_copy(last)
            try:
                cached = (last, marshal.dumps(plain))
            except ValueError:
                cached = (last, None)
            self._summary_blob = cached
            return plain  # type: ignore[no-any-return]
        if cached[1] is None:
            return plain_copy(last)  # type: ignore[no-any-return]
        return marshal.loads(cached[1])  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"<{self.game.name} state: {len(self.actions)} actions, phase {self.phase}>"


def sole_leader(scores: Sequence[int]) -> int | None:
    """The seat with the single highest of ``scores``, or None when several share it."""
    top = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == top]
    return leaders[0] if len(leaders) == 1 else None


def plain_copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples as lists; everything else is immutable).

    Why not ``copy.deepcopy``: a view copies the last deal's summary every time it is asked
    for, and deepcopy's memo bookkeeping made that the most expensive part of a view.
    """
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_copy(v) for v in value]
    return value


def new_seed() -> int:
    """A seed for a new game: 128 secret bits, so that nobody can search for it."""
    return secrets.randbits(128)


def _derived_seed(tag: bytes, seed: int, n: int) -> int:
    return int.from_bytes(hashlib.sha256(b"%s %d %d" % (tag, seed, n)).digest(), "big")


def deal_rng(seed: int, k: int) -> random.Random:
    """The generator of a game's ``k``-th shuffle (the seeding contract in the module docstring).

    ``random.Random(int.from_bytes(sha256(b"parlour-deal %d %d" % (seed, k)).digest(), "big"))``:
    public, so that outside checks deal a game's later packs themselves.
    """
    return _seeded_rng(_derived_seed(b"parlour-deal", seed, k))


def bot_seed(seed: int, count: int) -> int:
    """The seed of a computer player's decision after ``count`` actions of the game seeded ``seed``.

    Why derived apart from the deals (``b"parlour-bot %d %d"``): a computer's choices are seen
    by everyone, and must tell nothing about any deal's generator.
    """
    return _derived_seed(b"parlour-bot", seed, count)


def bot_rng(seed: int, count: int) -> random.Random:
    """``random.Random(bot_seed(seed, count))``: the randomness of one computer decision."""
    return _seeded_rng(bot_seed(seed, count))


def _shuffle(items: Sequence[str], rng: random.Random) -> list[str]:
    """``items`` shuffled as ``rng.shuffle`` would shuffle a copy of them.

    The steps are the Fisher-Yates loop of CPython's ``random.shuffle`` inlined (same draws,
    same order: a test checks it), without its per-card method calls; a playout shuffles once
    per deal, so this is on the hot path.
    """
    pack = list(items)
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(pack)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def _seed_fast(seed: int) -> random.Random:
    """``random.Random(seed)`` (the same state), without its two Python-level calls.

    Why: every new state seeds an RNG, and a random playout costs little more than that; the
    C seeding below is exactly what ``Random.seed`` does for an int.  Checked once at import:
    on a Python where it is not the same, ``_seeded_rng`` is plain ``random.Random``.
    """
    rng = _RANDOM_NEW(random.Random)
    _C_SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.seed sets besides the C state
    return rng


_RANDOM_NEW = random.Random.__new__
_C_SEED = _random.Random.seed
_seeded_rng: Callable[[int], random.Random] = (
    _seed_fast if _seed_fast(-(2**70) + 12345).getstate() == random.Random(-(2**70) + 12345).getstate()
    else random.Random)


@functools.cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """(position, bound, bits) for each step of ``random.shuffle`` on ``size`` items."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
