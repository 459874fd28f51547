"""Parlour's games as OpenSpiel Python games: ``pyspiel.load_game("python_parlour_<name>")``.

Importing this module registers every installed Parlour game (``register_all()``).

- **Episode** (parameter ``utility``): ``"deal"`` (default) is one deal from the first deal's
  position (scores 0, the options' starting chips), so the tree is small enough to study;
  ``"game"`` plays deals until the engine says the game is over (target score, match length)
  and pays at the end.  Some games need not end (random Schafkopf players drift below zero for
  ever, a Six-Bid deal may be thrown in again and again), so a game episode also stops after
  ``max_deals`` deals (default 50): that cap is what makes ``max_game_length`` and the utility
  bounds finite.  Either way an episode also stops once it has made ``max_game_length`` player
  actions (a deal's ``DEAL_LENGTH_BOUND``; ``max_deals`` of them for a game), so the bound
  OpenSpiel is told holds even for a rule with no hard limit (Le Truc's calls for cards).
- **Utilities** (parameter ``returns``): ``"margin"`` (default: each seat's score minus the
  mean of the others', zero-sum), ``"scores"`` (the scores as Parlour records them:
  general-sum), both summed over the episode's deals; ``"win"`` (game episodes only: +1 to the
  engine's winner, -1/(n-1) to each other seat, 0 for all on a draw or at the deal cap).
- **Chance**: every shuffle is explicit chance: first the dealer (``dealer N``, uniform; not for
  games without a dealer), then each pack one card at a time (outcome = the card's index in
  the game's ``PACK``), so samplers and ``resample_from_infostate`` see every random event.  A
  fresh shuffle within a deal (Le Truc's call for cards past the end of the pack) and, in game
  episodes, each later deal's pack are chance again.
- **Actions**: integer ids are positions in ``game.action_space()`` (one-to-one with Parlour's
  action strings).  GOPS-like games (``SIMULTANEOUS``) are simultaneous-move games: both seats
  choose, then the pair is applied in seat order.
- **Observations** come only from ``state.view(seat)`` and the moves the seat saw being made
  (``encoding.HistoryLayout``): the observation string is the view as JSON, its tensor
  ``encoding.ObservationLayout``; the information-state string is the seat's views at each of
  its decisions plus the current one, its tensor the observation tensor followed by one row per
  move of the episode (perfect recall).  While cards are being dealt (a chance node) a seat's
  view is ``None``: "dealing", an all-zero observation.

Every Parlour game option is a game parameter (``pyspiel.load_game("python_parlour_gops",
{"cards": 5, "ties": "discard"})``).

Why the work sits in ``_Core`` and not on the ``pyspiel.State``: OpenSpiel clones a Python
state by deep-copying each attribute, and serialises it by pickling them; one object with its
own ``__deepcopy__`` (the engine's fast ``clone``) and a shared, picklable-by-name ``Setup``
keeps both cheap.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..engine import State
from ..registry import game_class, names
from .encoding import GameSpec, HistoryLayout, ObservationLayout, cards_in, deal_payoffs, view_string

PREFIX = "python_parlour_"
RETURNS = ("margin", "scores", "win")
UTILITIES = ("deal", "game")
Decision = tuple[int, str, list[str]]  # (move number, view as a string, hand)
ADAPTER_PARAMETERS: dict[str, Any] = {"returns": "margin", "utility": "deal", "max_deals": 50}

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)


class Setup:
    """Everything fixed by a game's parameters, shared by all its states (never copied)."""

    def __init__(self, name: str, params: dict[str, Any]) -> None:
        defaults = _parameter_spec(name)
        unknown = set(params) - set(defaults)
        if unknown:
            raise ValueError(f"unknown parameter(s) for {name}: {', '.join(sorted(unknown))}")
        merged = {**defaults, **params}
        self.name, self.params = name, dict(merged)
        self.returns_kind = str(merged.pop("returns"))
        self.utility = str(merged.pop("utility"))
        self.max_deals = int(merged.pop("max_deals"))
        if self.returns_kind not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}")
        if self.utility not in UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(UTILITIES)}")
        if self.returns_kind == "win" and self.utility != "game":
            raise ValueError('returns="win" needs utility="game" (a deal has no winner of its own)')
        if self.max_deals < 1:
            raise ValueError("max_deals must be at least 1")
        self.spec = spec = GameSpec(name, merged)
        self.layout = ObservationLayout(spec)
        self.per_game = self.utility == "game"
        self.deals_cap = self.max_deals if self.per_game else 1
        self.max_length = spec.max_deal_actions * self.deals_cap
        self.history = HistoryLayout(spec, self.max_length)
        self.n = spec.num_players
        self.simultaneous = spec.simultaneous
        self.pack_size = len(spec.pack)
        self.zero_sum = self.returns_kind != "scores"

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, tuple[tuple[str, Any], ...]]]:
        return (setup_for, (self.name, tuple(sorted(self.params.items()))))

    def utility_bounds(self) -> tuple[float, float]:
        if self.returns_kind == "win":
            return -1.0, 1.0
        bound = self.spec.deal_score_bound * self.deals_cap
        return (-2.0 * bound, 2.0 * bound) if self.returns_kind == "margin" else (-bound, bound)

    def game_info(self) -> Any:
        low, high = self.utility_bounds()
        return pyspiel.GameInfo(
            num_distinct_actions=len(self.spec.actions),
            max_chance_outcomes=max(self.pack_size, self.n),
            num_players=self.n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if self.zero_sum else None,
            max_game_length=self.max_length,
        )

    def payoffs(self, scores: list[float]) -> list[float]:
        """A finished deal's scores as this game's returns (``margin`` or ``scores``)."""
        if self.returns_kind == "scores":
            return scores
        total, n = sum(scores), self.n
        return [s - (total - s) / (n - 1) for s in scores]


_SETUPS: dict[tuple[str, tuple[tuple[str, Any], ...]], Setup] = {}


def setup_for(name: str, items: tuple[tuple[str, Any], ...]) -> Setup:
    """The shared ``Setup`` of game ``name`` with these parameters, made once."""
    key = (name, items)
    setup = _SETUPS.get(key)
    if setup is None:
        setup = _SETUPS[key] = Setup(name, dict(items))
    return setup


def _setup_of(game: Any) -> Setup:
    # Why kept on the game only as a cache: OpenSpiel may hand a state a fresh Python wrapper of
    # the game (after load_game or deserialisation) that has lost its Python attributes.
    try:
        return game.__dict__["_parlour_setup"]
    except (KeyError, AttributeError):
        pass
    name = game.get_type().short_name[len(PREFIX):]
    setup = setup_for(name, tuple(sorted(dict(game.get_parameters()).items())))
    try:
        game._parlour_setup = setup
    except AttributeError:
        pass
    return setup


class ParlourGame(pyspiel.Game):
    """One Parlour game with fixed parameters, as an OpenSpiel game."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        full = {**_parameter_spec(name), **(params or {})}
        setup = Setup(name, full)  # validates
        setup = setup_for(name, tuple(sorted(setup.params.items())))
        super().__init__(_game_type(name, setup.zero_sum, setup.per_game), setup.game_info(), setup.params)

    @property
    def setup(self) -> Setup:
        return _setup_of(self)

    @property
    def spec(self) -> GameSpec:
        return _setup_of(self).spec

    @property
    def layout(self) -> ObservationLayout:
        return _setup_of(self).layout

    @property
    def returns_kind(self) -> str:
        return _setup_of(self).returns_kind

    def new_initial_state(self) -> ParlourState:
        return ParlourState(self)

    def max_chance_nodes_in_history(self) -> int:
        """Every pack is dealt card by card; a deal deals at most one fresh pack per action."""
        setup = _setup_of(self)
        return int(setup.spec.has_dealer) + (setup.deals_cap + setup.max_length) * setup.pack_size

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        return ParlourObserver(_setup_of(self), iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                               params)


class _Core:
    """A ParlourState's own data and logic (see the module docstring for why it is separate)."""

    __slots__ = ("setup", "dealer", "pack", "left", "packs", "st", "moves", "private", "pending",
                 "cur", "terminal", "totals", "legal", "seen")

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.dealer: int | None = None if setup.spec.has_dealer else 0
        self.pack: list[int] = []  # chance outcomes of the pack being dealt (PACK indices)
        self.left: list[int] = list(range(setup.pack_size))  # PACK indices not dealt yet
        self.packs: list[tuple[list[int], int]] = []  # every pack dealt: (indices, dealt before move #)
        self.st: State | None = None
        self.moves: list[tuple[int, str]] = []  # (seat, action) of every player action
        self.private: list[bool] = []  # whether each move was seen only by its maker
        self.pending = True  # a pack is being dealt (chance)
        self.cur = CHANCE
        self.terminal = False
        self.totals = [0.0] * setup.n  # returns of the deals finished so far
        self.legal: dict[int, list[int]] = {}  # legal ids per seat at this node, made when asked
        # per seat, from its last information state: (moves then, its decisions before them, its
        # view then); clones share it, so a search asks the engine for one new view per node
        # instead of replaying the episode
        self.seen: dict[int, tuple[int, tuple[Decision, ...], Decision | None]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = _Core.__new__(_Core)
        new.setup, new.dealer, new.pending = self.setup, self.dealer, self.pending
        new.pack, new.left, new.packs = list(self.pack), list(self.left), list(self.packs)
        new.st = self.st.clone() if self.st is not None else None
        new.moves, new.private = list(self.moves), list(self.private)
        new.cur, new.terminal, new.totals, new.legal = self.cur, self.terminal, list(self.totals), {}
        new.seen = dict(self.seen)
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__ if k not in ("legal", "seen")}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for key, value in data.items():
            setattr(self, key, value)
        self.legal, self.seen = {}, {}

    # -- moves -----------------------------------------------------------------------
    def chance(self, outcome: int) -> None:
        setup = self.setup
        if self.dealer is None:
            self.dealer = outcome
            return
        self.pack.append(outcome)
        self.left.remove(outcome)
        if self.left:
            return
        spec = setup.spec
        pack = [spec.pack[i] for i in self.pack]
        if self.st is None:
            self.st = spec.game.new_state(seed=0, deck=pack, dealer=self.dealer)
        else:
            self.st.redeal(pack)
        self.packs.append((self.pack, len(self.moves)))
        self.pack, self.left = [], list(range(setup.pack_size))
        self.pending = False
        self._after_move()

    def play(self, seat: int, action: str) -> None:
        st = self.st
        assert st is not None
        deals_before, packs_before = len(st.deals), st.deals_dealt
        self.private.append(st.action_is_private)
        st.apply(action)
        self.moves.append((seat, action))
        setup = self.setup
        if len(st.deals) != deals_before:
            totals = self.totals
            for i, v in enumerate(setup.payoffs(deal_payoffs(st.deals[-1]))):
                totals[i] += v
            if st.is_over or len(st.deals) >= setup.deals_cap:
                self.terminal = True
            else:
                self.pending = True  # the next deal's pack: chance deals it
        elif not st.is_over and st.deals_dealt != packs_before:
            self.pending = True  # a fresh shuffle within the deal: chance chooses it
        if len(self.moves) >= setup.max_length:
            self.terminal = True  # the episode's length bound (see the module docstring)
        self._after_move()

    def _after_move(self) -> None:
        self.legal = {}
        if self.terminal:
            self.cur = TERMINAL
        elif self.pending:
            self.cur = CHANCE
        elif self.setup.simultaneous:
            self.cur = SIMULTANEOUS
        else:
            player = self.st.current_player if self.st is not None else None
            assert player is not None
            self.cur = player

    def legal_ids(self, player: int) -> list[int]:
        ids = self.legal.get(player)
        if ids is not None:
            return ids
        st = self.st
        index = self.setup.spec.index
        ids = []
        if st is not None and self.cur >= 0 or self.cur == SIMULTANEOUS:
            assert st is not None
            if st.current_player == player:
                ids = sorted([index[a] for a in st.legal_actions()])
            elif self.cur == SIMULTANEOUS:
                # The later seat of a simultaneous turn: its actions once the earlier seats have chosen.
                probe = st.clone()
                while probe.current_player is not None and probe.current_player != player:
                    probe.apply(probe.legal_actions()[0])
                if probe.current_player == player:
                    ids = sorted([index[a] for a in probe.legal_actions()])
        self.legal[player] = ids
        return ids

    def returns(self) -> list[float]:
        setup = self.setup
        if not self.terminal:
            return [0.0] * setup.n
        if setup.returns_kind != "win":
            return list(self.totals)
        st = self.st
        winner = st.winner if st is not None and st.is_over else None
        if winner is None:
            return [0.0] * setup.n
        return [1.0 if s == winner else -1.0 / (setup.n - 1) for s in range(setup.n)]

    # -- what a seat knows ----------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Any] | None:
        if self.st is None or self.pending:
            return None
        return self.st.view(seat)

    def replay(self, seat: int) -> list[tuple[int, dict[str, Any]]]:
        """``seat``'s views at each of its decisions so far: (its move's number, view).

        At a simultaneous turn the view is the one at the start of the turn, before anybody
        chose (the adapter presents every seat as choosing then).  Why replay instead of storing
        views as play goes: random playouts then cost nothing extra; only algorithms that ask
        for information states pay for them.
        """
        if not self.packs:
            return []
        spec = self.setup.spec
        n, sim = self.setup.n, self.setup.simultaneous
        first = self.packs[0][0]
        st = spec.game.new_state(seed=0, deck=[spec.pack[i] for i in first], dealer=self.dealer)
        redeals = {at: pack for pack, at in self.packs[1:]}
        seen: list[tuple[int, dict[str, Any]]] = []
        for k, (actor, action) in enumerate(self.moves):
            if k in redeals:
                st.redeal([spec.pack[i] for i in redeals[k]])
            if sim:
                if k % n == 0:
                    seen.append((k + seat, st.view(seat)))
            elif actor == seat:
                seen.append((k, st.view(seat)))
            st.apply(action)
        return seen

    def decisions(self, seat: int) -> tuple[tuple[Decision, ...], Decision | None]:
        """``seat``'s decisions so far (its move's number, its view then as a string, its hand
        then), and the same for now (None while a pack is being dealt)."""
        moves, count = self.moves, len(self.moves)
        n, sim = self.setup.n, self.setup.simultaneous
        before: tuple[Decision, ...] | None = None
        cached = self.seen.get(seat)
        if cached is not None:
            at, entries, then = cached
            mine = [k for k in range(at, count) if (k % n == 0 if sim else moves[k][0] == seat)]
            if at == count or not mine:
                before = entries
            elif mine == [at] and then is not None:
                before = (*entries, then)  # its view then is the one it decided on
        if before is None:
            before = tuple((k, view_string(view), list(view.get("hand") or ())) for k, view in self.replay(seat))
        view = self.view(seat)
        now = None if view is None else (count + seat if sim else count, view_string(view),
                                          list(view.get("hand") or ()))
        self.seen[seat] = (count, before, now)
        return before, now

    def decision_views(self, seat: int) -> list[str]:
        """``seat``'s views at each of its decisions so far, then now: its perfect-recall history."""
        before, now = self.decisions(seat)
        if now is None and not before:
            return []
        return [text for _, text, _ in before] + ["dealing" if now is None else now[1]]


class ParlourState(pyspiel.State):
    """An episode in progress: chance events while a pack is dealt, the Parlour state between."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._c = _Core(_setup_of(game))

    # -- structure ---------------------------------------------------------------------
    def current_player(self) -> int:
        return self._c.cur

    def is_terminal(self) -> bool:
        return self._c.terminal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._c
        if core.dealer is None:
            n = core.setup.n
            return [(seat, 1.0 / n) for seat in range(n)]
        p = 1.0 / len(core.left)
        return [(i, p) for i in core.left]

    def _legal_actions(self, player: int) -> list[int]:
        return self._c.legal_ids(player)

    def _apply_action(self, action: int) -> None:
        core = self._c
        if core.cur == CHANCE:
            core.chance(action)
        else:
            core.play(core.cur, core.setup.spec.actions[action])

    def _apply_actions(self, actions: list[int]) -> None:
        core = self._c
        st = core.st
        assert st is not None
        acts = core.setup.spec.actions
        for seat in range(core.setup.n):
            if st.current_player == seat and not core.pending and not core.terminal:
                core.play(seat, acts[actions[seat]])

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._c
        spec = core.setup.spec
        if player == CHANCE:
            if core.dealer is None:
                return f"dealer {action}"
            return f"card {spec.pack[action]}"
        return spec.actions[action]

    def returns(self) -> list[float]:
        return self._c.returns()

    def __str__(self) -> str:
        core = self._c
        if core.st is None:
            return f"dealing: dealer {core.dealer}, {len(core.pack)} cards"
        text = repr(core.st) + " moves " + " ".join(f"{s}:{a}" for s, a in core.moves)
        return text + (f" dealing {len(core.pack)} cards" if core.pending else "")

    # -- what a seat knows ----------------------------------------------------------------
    @property
    def _packs(self) -> list[tuple[list[int], int]]:
        """Every pack dealt so far (the true deal: not something a seat sees; for tests)."""
        return self._c.packs

    def view(self, seat: int) -> dict[str, Any] | None:
        """The Parlour view of ``seat`` (None while a pack is being dealt)."""
        return self._c.view(seat)

    def decision_views(self, seat: int) -> list[str]:
        return self._c.decision_views(seat)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ParlourState:
        """A state drawn from ``player_id``'s information set: in each pack, the cards the seat
        never saw while that pack was in play are dealt again at random (rejection: the other
        seats' moves must stay legal and its information state unchanged).
        ``probability_sampler()`` seeds the draw."""
        core = self._c
        if not core.packs:
            return self.clone()
        spec = core.setup.spec
        known_views = core.decision_views(player_id)
        target = "\n".join(known_views)
        hidden = self._hidden_positions(player_id)
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        for _ in range(10_000):
            packs = []
            for (pack, _), slots in zip(core.packs, hidden, strict=True):
                cards = [pack[i] for i in slots]
                rng.shuffle(cards)
                new = list(pack)
                for i, c in zip(slots, cards, strict=True):
                    new[i] = c
                packs.append(new)
            candidate = self._rebuilt(packs)
            if candidate is not None and "\n".join(candidate.decision_views(player_id)) == target:
                return candidate
        raise RuntimeError(f"no deal consistent with what seat {player_id} saw in 10,000 draws of {spec.name}")

    def _hidden_positions(self, seat: int) -> list[list[int]]:
        """For each pack dealt, the positions of the cards ``seat`` never saw in any view made while
        that pack was in play (or in the first view after it: a deal summary may show them)."""
        core = self._c
        starts = [at for _, at in core.packs]
        views = core.replay(seat)
        now = core.view(seat)
        known: list[set[str]] = [set() for _ in core.packs]
        for k, view in [*views, (len(core.moves), now)]:
            if view is None:
                continue
            # the pack in play at move k, and the one before (the summary of its deal)
            current = max(i for i, at in enumerate(starts) if at <= k)
            found = set(cards_in(view))
            known[current] |= found
            if current > 0:
                known[current - 1] |= found
        pack_cards = core.setup.spec.pack
        return [[i for i, c in enumerate(pack) if pack_cards[c] not in seen]
                for (pack, _), seen in zip(core.packs, known, strict=True)]

    def _rebuilt(self, packs: list[list[int]]) -> ParlourState | None:
        """This history with other pack orders, through OpenSpiel's own API (so its history
        matches), or None if some move is then illegal."""
        fresh = self.get_game().new_initial_state()
        try:
            for move in _history_with_packs(self._c, packs):
                if fresh.is_simultaneous_node():
                    fresh.apply_actions(move)
                else:
                    fresh.apply_action(move)
        except Exception:  # an illegal move under this deal surfaces through pybind11 as any error
            return None
        return fresh


def _history_with_packs(core: _Core, packs: list[list[int]]) -> list[Any]:
    """The episode's move sequence (chance outcomes and joint actions) with other pack orders."""
    spec = core.setup.spec
    out: list[Any] = []
    if spec.has_dealer:
        out.append(core.dealer)
    moves = core.moves
    redeals = {at: pack for pack, (_, at) in zip(packs, core.packs, strict=True)}
    k, n = 0, spec.num_players
    while k < len(moves):
        if k in redeals:
            out.extend(redeals.pop(k))
        if spec.simultaneous:
            joint = [0] * n
            for j in range(n):
                joint[moves[k + j][0]] = spec.index[moves[k + j][1]]
            out.append(joint)
            k += n
        else:
            out.append(spec.index[moves[k][1]])
            k += 1
    if k in redeals:
        out.extend(redeals.pop(k))
    out.extend(core.pack)
    return out


class ParlourObserver:
    """OpenSpiel's observer protocol, from ``view(seat)`` and the moves the seat saw only.

    ``perfect_recall``: the string is the seat's views at each of its decisions plus now, the
    tensor the current view's encoding followed by the move history (``HistoryLayout``);
    otherwise the current view and its encoding.  Only each seat's own private information is
    offered (``PrivateInfoType.SINGLE_PLAYER``); ``ALL_PLAYERS`` strings concatenate every seat's.
    """

    def __init__(self, setup: Setup, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
            raise ValueError("Parlour offers no public-only observation yet; use SINGLE_PLAYER")
        self.all_players = iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.layout = setup.layout
        self.history = setup.history
        size = self.layout.size + (self.history.size if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {name: self.tensor[at:at + size] for name, (at, size) in self.layout.pieces.items()}
        if self.perfect_recall:
            at = self.layout.size
            self.dict["history"] = self.tensor[at:].reshape(self.history.slots, self.history.width)

    def set_from(self, state: ParlourState, player: int) -> None:
        core = state._c
        view = core.view(player) if player >= 0 else None
        obs = self.tensor[:self.layout.size]
        if view is None:
            obs.fill(0.0)
        else:
            self.layout.encode(view, out=obs)
        if self.perfect_recall:
            hist = self.dict["history"]
            if player < 0:
                hist.fill(0.0)
            else:
                hands = {k: hand for k, _, hand in core.decisions(player)[0]}
                self.history.encode(core.moves, core.private, player, hands, out=hist)

    def string_from(self, state: ParlourState, player: int) -> str:
        core = state._c
        seats = range(core.setup.n) if self.all_players else [player]
        parts = []
        for seat in seats:
            if self.perfect_recall:
                parts.append("\n".join(core.decision_views(seat)) or "dealing")
            else:
                view = core.view(seat)
                parts.append("dealing" if view is None else view_string(view))
        return "\n".join(parts)


def _parameter_spec(name: str) -> dict[str, Any]:
    cls = game_class(name)
    spec: dict[str, Any] = {o.name: o.default for o in cls.OPTIONS}
    spec.update(ADAPTER_PARAMETERS)
    return spec


def _game_type(name: str, zero_sum: bool, per_game: bool = False) -> Any:
    cls = game_class(name)
    simultaneous = bool(getattr(cls, "SIMULTANEOUS", False))
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"Parlour {cls.title or name} ({'whole game' if per_game else 'one deal'})",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.num_players,
        min_num_players=cls.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(name),
    )


def _init_for(name: str) -> Any:
    def __init__(self: ParlourGame, params: dict[str, Any] | None = None) -> None:
        ParlourGame.__init__(self, name, params)
    return __init__


def register(name: str) -> str:
    """Register one Parlour game with OpenSpiel; returns its short name."""
    short = PREFIX + name
    if short not in pyspiel.registered_names():
        # A class per game, not a closure: OpenSpiel keeps the factory until the interpreter
        # exits, and a Python function held there crashes the exit (a class does not).
        factory = type(f"ParlourGame_{name}", (ParlourGame,), {"__init__": _init_for(name)})
        globals()[factory.__name__] = factory  # found by name, so instances pickle
        pyspiel.register_game(_game_type(name, True), factory)
    return short


def register_all() -> list[str]:
    """Register every installed Parlour game; returns their OpenSpiel names."""
    return [register(name) for name in names()]


register_all()
