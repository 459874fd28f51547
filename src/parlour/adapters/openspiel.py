"""Parlour's games as OpenSpiel Python games: ``pyspiel.load_game("python_parlour_<name>")``.

Importing this module registers every installed Parlour game (``register_all()``).  One
OpenSpiel episode is **one deal** of the Parlour game, from the first deal's position (scores
0, the options' starting chips), so that the tree is finite and every algorithm's notion of a
"game" is small enough to study; utilities are that deal's scores.

- **Chance**: the deal is explicit chance: first the dealer (``dealer N``, uniform; not for
  games without a dealer), then the pack, one card at a time (outcome = the card's index in
  the game's ``PACK``), so samplers and ``resample_from_infostate`` see every random event.  A
  fresh shuffle in the middle of a deal (Le Truc's call for cards past the end of the pack) is
  chance again.
- **Actions**: integer ids are positions in ``game.action_space()`` (one-to-one with Parlour's
  action strings).  GOPS-like games (``SIMULTANEOUS``) are simultaneous-move games: both seats
  choose, then the pair is applied in seat order.
- **Utilities**: parameter ``returns``: ``"margin"`` (default: each seat's deal score minus the
  mean of the others', zero-sum) or ``"scores"`` (the deal's scores as Parlour records them:
  general-sum).
- **Observations** come only from ``state.view(seat)``: the observation string is the view as
  JSON, the tensor is ``encoding.ObservationLayout``; the information state string is the
  list of the seat's views at each of its decisions plus the current one (perfect recall).
  There is no information-state tensor (a fixed-size perfect-recall tensor would be the
  whole action history; use the string, or the observation tensor with memory).

Every Parlour game option is a game parameter (``pyspiel.load_game("python_parlour_gops",
{"cards": 5, "ties": "discard"})``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..engine import State
from ..registry import game_class, names
from .encoding import GameSpec, ObservationLayout, cards_in, deal_payoffs, view_string

PREFIX = "python_parlour_"
RETURNS = ("margin", "scores")


class ParlourGame(pyspiel.Game):
    """One Parlour game with fixed options, as an OpenSpiel game (one deal per episode)."""

    def __init__(self, name: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        defaults = _parameter_spec(name)
        unknown = set(params) - set(defaults)
        if unknown:
            raise ValueError(f"unknown parameter(s) for {name}: {', '.join(sorted(unknown))}")
        merged = {**defaults, **params}
        returns_kind = merged.pop("returns")
        if returns_kind not in RETURNS:
            raise ValueError(f"returns must be one of {', '.join(RETURNS)}")
        spec = GameSpec(name, merged)
        bound = spec.deal_score_bound
        zero_sum = returns_kind == "margin"
        n = spec.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.actions),
            max_chance_outcomes=max(len(spec.pack), n),
            num_players=n,
            min_utility=-2.0 * bound if zero_sum else -bound,
            max_utility=2.0 * bound if zero_sum else bound,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=spec.max_deal_actions,
        )
        super().__init__(_game_type(name, zero_sum), info, {**merged, "returns": returns_kind})

    # Why properties over a cache and not attributes: OpenSpiel may hand a state a fresh Python
    # wrapper of this game (after load_game or deserialisation) that has lost its attributes.
    @property
    def spec(self) -> GameSpec:
        return _setup(self)[0]

    @property
    def layout(self) -> ObservationLayout:
        return _setup(self)[1]

    @property
    def returns_kind(self) -> str:
        return str(self.get_parameters()["returns"])

    def new_initial_state(self) -> ParlourState:
        return ParlourState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        return ParlourObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class ParlourState(pyspiel.State):
    """A deal in progress: chance events until the pack is complete, then the Parlour state."""

    def __init__(self, game: ParlourGame) -> None:
        super().__init__(game)
        self._pgame = game
        spec = game.spec
        self._dealer: int | None = None if spec.has_dealer else 0
        self._pack: list[int] = []  # chance outcomes of the pack being dealt (PACK indices)
        self._packs: list[tuple[list[int], int | None]] = []  # every pack dealt: (indices, redealt at action #)
        self._state: State | None = None
        self._moves: list[tuple[int, str]] = []  # (seat, action) of every player action
        self._redeal_pending = False

    # -- structure -------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self._state is None or self._redeal_pending:
            return pyspiel.PlayerId.CHANCE
        if self._pgame.spec.simultaneous:
            return pyspiel.PlayerId.SIMULTANEOUS
        player = self._state.current_player
        assert player is not None
        return player

    def is_terminal(self) -> bool:
        st = self._state
        return st is not None and not self._redeal_pending and (bool(st.deals) or st.is_over)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        spec = self._pgame.spec
        if self._dealer is None:
            n = spec.num_players
            return [(seat, 1.0 / n) for seat in range(n)]
        left = sorted(set(range(len(spec.pack))) - set(self._pack))
        return [(i, 1.0 / len(left)) for i in left]

    def _legal_actions(self, player: int) -> list[int]:
        st = self._state
        if st is None or self._redeal_pending or self.is_terminal():
            return []
        index = self._pgame.spec.index
        if self._pgame.spec.simultaneous and st.current_player != player:
            # The later seat of a simultaneous turn: its actions once the earlier seats have chosen.
            probe = st.clone()
            while probe.current_player is not None and probe.current_player != player:
                probe.apply(probe.legal_actions()[0])
            return sorted(index[a] for a in probe.legal_actions()) if probe.current_player == player else []
        if st.current_player != player:
            return []
        return sorted(index[a] for a in st.legal_actions())

    # -- moves -------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self._state is None or self._redeal_pending:
            self._chance(action)
            return
        st = self._state
        seat = st.current_player
        assert seat is not None
        self._play(seat, self._pgame.spec.actions[action])

    def _apply_actions(self, actions: list[int]) -> None:
        st = self._state
        assert st is not None
        spec = self._pgame.spec
        for seat in range(spec.num_players):
            if st.current_player == seat and not self._redeal_pending:
                self._play(seat, spec.actions[actions[seat]])

    def _chance(self, outcome: int) -> None:
        spec = self._pgame.spec
        if self._dealer is None:
            self._dealer = outcome
            return
        self._pack.append(outcome)
        if len(self._pack) < len(spec.pack):
            return
        pack = [spec.pack[i] for i in self._pack]
        if self._state is None:
            self._state = spec.game.new_state(seed=0, deck=pack, dealer=self._dealer)
            self._packs.append((list(self._pack), None))
        else:
            self._state.redeal(pack)
            self._packs.append((list(self._pack), len(self._moves)))
            self._redeal_pending = False
        self._pack = []

    def _play(self, seat: int, action: str) -> None:
        st = self._state
        assert st is not None
        deals_before, packs_before = len(st.deals), st.deals_dealt
        st.apply(action)
        self._moves.append((seat, action))
        if len(st.deals) == deals_before and not st.is_over and st.deals_dealt != packs_before:
            self._redeal_pending = True  # a fresh shuffle within the deal: chance chooses it

    def _action_to_string(self, player: int, action: int) -> str:
        spec = self._pgame.spec
        if player == pyspiel.PlayerId.CHANCE:
            if self._dealer is None and spec.has_dealer:
                return f"dealer {action}"
            return f"card {spec.pack[action]}"
        return spec.actions[action]

    def returns(self) -> list[float]:
        st = self._state
        n = self._pgame.spec.num_players
        if st is None or not self.is_terminal():
            return [0.0] * n
        scores = [float(s) for s in (deal_payoffs(st.deals[0]) if st.deals else [0] * n)]
        if self._pgame.returns_kind == "scores":
            return scores
        total = sum(scores)
        return [s - (total - s) / (n - 1) for s in scores]

    def __str__(self) -> str:
        if self._state is None:
            return f"dealing: dealer {self._dealer}, {len(self._pack)} cards"
        return repr(self._state) + " moves " + " ".join(f"{s}:{a}" for s, a in self._moves)

    # -- what a seat knows --------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Any] | None:
        """The Parlour view of ``seat`` (None while the pack is being dealt)."""
        if self._state is None:
            return None
        return self._state.view(seat)

    def decision_views(self, seat: int) -> list[str]:
        """``seat``'s views at each of its decisions so far, then now: its perfect-recall history.

        Why replay instead of storing them as play goes: random playouts then cost nothing
        extra; only algorithms that ask for information states pay for them.
        """
        if self._state is None:
            return []
        spec = self._pgame.spec
        first, _ = self._packs[0]
        st = spec.game.new_state(seed=0, deck=[spec.pack[i] for i in first], dealer=self._dealer)
        redeals = {at: pack for pack, at in self._packs[1:]}
        seen: list[str] = []
        for k, (actor, action) in enumerate(self._moves):
            if k in redeals:
                st.redeal([spec.pack[i] for i in redeals[k]])
            if actor == seat:
                seen.append(view_string(st.view(seat)))
            st.apply(action)
        if len(self._moves) in redeals:
            st.redeal([spec.pack[i] for i in redeals[len(self._moves)]])
        seen.append(view_string(st.view(seat)))
        return seen

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ParlourState:
        """A state drawn from ``player_id``'s information set: the cards it cannot have seen are
        dealt again at random (rejection: the other seats' moves must stay legal and its own
        information state unchanged).  ``probability_sampler()`` seeds the draw."""
        if self._state is None:
            return self.clone()
        spec = self._pgame.spec
        known_views = self.decision_views(player_id)
        known: set[str] = set()
        for text in known_views:
            known.update(cards_in(text.split('"')))
        hidden = [i for i, card in enumerate(spec.pack) if card not in known]
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        target = "\n".join(known_views)
        for _ in range(10_000):
            mapping = hidden[:]
            rng.shuffle(mapping)
            swap = dict(zip(hidden, mapping, strict=True))
            candidate = self._rebuilt([[swap.get(i, i) for i in pack] for pack, _ in self._packs])
            if candidate is not None and "\n".join(candidate.decision_views(player_id)) == target:
                return candidate
        raise RuntimeError("no consistent deal found in 10,000 draws")

    def _rebuilt(self, packs: list[list[int]]) -> ParlourState | None:
        """This history with other pack orders, through OpenSpiel's own API (so its history
        matches), or None if some move is then illegal."""
        fresh = self._pgame.new_initial_state()
        try:
            for move in _history_with_packs(self, packs):
                if fresh.is_simultaneous_node():
                    fresh.apply_actions(move)
                else:
                    fresh.apply_action(move)
        except Exception:  # an illegal move under this deal surfaces through pybind11 as any error
            return None
        return fresh


def _history_with_packs(state: ParlourState, packs: list[list[int]]) -> list[Any]:
    """The state's move sequence (chance outcomes and joint actions) with other pack orders."""
    spec = state._pgame.spec
    out: list[Any] = []
    if spec.has_dealer:
        out.append(state._dealer)
    moves = list(state._moves)
    redeals = {at: pack for pack, (_, at) in zip(packs[1:], state._packs[1:], strict=True)}
    out.extend(packs[0])
    k = 0
    n = spec.num_players
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
    out.extend(state._pack)
    return out


class ParlourObserver:
    """OpenSpiel's observer protocol, from ``view(seat)`` only.

    ``perfect_recall``: the string is the seat's views at each of its decisions plus now;
    otherwise the current view.  The tensor is the current view's encoding either way.
    Only each seat's own private information is offered (``PrivateInfoType.SINGLE_PLAYER``);
    ``ALL_PLAYERS`` concatenates every seat's view.
    """

    def __init__(self, game: ParlourGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
            raise ValueError("Parlour offers no public-only observation yet; use SINGLE_PLAYER")
        self.all_players = iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.layout = game.layout
        self.tensor = np.zeros(game.layout.size, np.float32)
        self.dict = {name: self.tensor[at:at + size] for name, (at, size) in game.layout.pieces.items()}

    def set_from(self, state: ParlourState, player: int) -> None:
        view = state.view(player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.layout.encode(view, out=self.tensor)

    def string_from(self, state: ParlourState, player: int) -> str:
        seats = range(state._pgame.spec.num_players) if self.all_players else [player]
        parts = []
        for seat in seats:
            if self.perfect_recall:
                parts.append("\n".join(state.decision_views(seat)) or "dealing")
            else:
                view = state.view(seat)
                parts.append("dealing" if view is None else view_string(view))
        return "\n".join(parts)


_SETUPS: dict[tuple[str, str], tuple[GameSpec, ObservationLayout]] = {}


def _setup(game: Any) -> tuple[GameSpec, ObservationLayout]:
    """The spec and observation layout of an OpenSpiel Parlour game, made once per parameters."""
    params = dict(game.get_parameters())
    name = game.get_type().short_name[len(PREFIX):]
    key = (name, repr(sorted(params.items())))
    if key not in _SETUPS:
        params.pop("returns", None)
        spec = GameSpec(name, params)
        _SETUPS[key] = (spec, ObservationLayout(spec))
    return _SETUPS[key]


def _parameter_spec(name: str) -> dict[str, Any]:
    cls = game_class(name)
    spec: dict[str, Any] = {o.name: o.default for o in cls.OPTIONS}
    spec["returns"] = "margin"
    return spec


def _game_type(name: str, zero_sum: bool) -> Any:
    cls = game_class(name)
    simultaneous = bool(getattr(cls, "SIMULTANEOUS", False))
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"Parlour {cls.title or name} (one deal)",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.num_players,
        min_num_players=cls.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
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
