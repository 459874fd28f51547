"""The conformance kit: ``check_game(name)`` runs the checks every Parlour game must pass.

Why a kit: the table, the interfaces, the store and the bots rely on the engine contract of
DESIGN.md and on nothing else, so a game (built-in or installed from another package) is fit
to be played exactly when it honours that contract.  Like PettingZoo's ``api_test`` and
OpenSpiel's ``random_sim_test``, the kit plays seeded random games and checks, along the way:

- **the API contract**: the types of ``current_player``, ``legal_actions()``, ``scores``,
  ``is_over``, ``winner`` and ``phase``; the keys every view has (:data:`VIEW_KEYS`) with the
  values the state reports; ``legal_actions`` only in the view of the seat to move; views and
  deal summaries that survive a JSON round trip and are copies (changing one changes nothing);
- **records**: ``parlour.from_json(state.to_json())`` rebuilds a state with identical views,
  legal actions, deals and record, and both go on identically (next packs included);
- **clones**: a clone starts identical, and playing it on leaves the original untouched; what
  the clone reaches is what a replay of the original's record reaches with the same actions;
- **hidden cards**: no view shows a card its seat may not know (:class:`HiddenCardWatch`, the
  one checker the games' own tests use too);
- **illegal actions**: raise ``IllegalAction`` (a ``ValueError``) listing the legal ones, and
  leave the record, every view and the legal actions exactly as they were;
- **termination**: random play ends every deal within ``max_deal_actions`` actions;
- **actions as values**: every string of ``action_space()`` is read by the game's
  ``parse_action`` (``parlour.actions``) and said back exactly.

It is fast enough for ``make test`` (a second or two per game with the defaults); slow runs
pass more ``games`` and ``deals``.  Everything is seeded, so a failure names the seed that
reproduces it.  The hidden-card watch reads one of the engine's own fields — where the
current pack's actions start (``_actions_at_deal_start``) — and deals a pack again with
``State.redeal``, as it is part of Parlour and checks Parlour's template; a game needs no
hook of its own for it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import parser
from .engine import Game, IllegalAction, State, Step, apply_recorded, replay
from .knowledge import CardFinder, Knowledge, scanned
from .records import from_json
from .registry import load, names

#: Keys every view has (DESIGN.md and the engine's template).
VIEW_KEYS = frozenset({
    "game", "options", "num_players", "phase", "seat", "hand", "current_player", "scores", "dealer",
    "deal_number", "last_deal", "is_over", "winner", "trick", "last_trick", "trick_seq", "hand_sizes",
})
#: Strings that are never an action of any game, tried as illegal actions.
JUNK_ACTIONS = ("", " ", "xyzzy", "PASS ", "#replay-deal", "10X", "\u2660", "a" * 300)


@dataclass
class Report:
    """What ``check_game`` did: counts that show the checks really ran (a test may assert them)."""

    game: str
    games: int = 0
    deals: int = 0
    actions: int = 0
    views: int = 0
    records: int = 0
    clones: int = 0
    illegal: int = 0
    replays: int = 0
    hidden: dict[str, int] = field(default_factory=dict)


def check_game(name_or_game: str | Game | type[Game], *, games: int = 3, deals: int = 2, seed: int = 0,
               max_deal_actions: int = 2000, rate: float = 0.2, redeal_rate: float = 0.25) -> Report:
    """Play ``games`` seeded random games of up to ``deals`` deals each and check the contract.

    ``name_or_game`` is a registered name, a ``Game`` or a ``Game`` class.  ``rate`` is the
    share of positions where records, clones and an illegal action are checked (views, types
    and hidden cards are checked at every position); ``redeal_rate`` that of positions where the
    hidden-card watch also re-deals (see :class:`HiddenCardWatch`).  Raises ``AssertionError``
    naming the game, seed and action count of the first position that breaks the contract.
    """
    game = _resolve(name_or_game)
    report = Report(game.name)
    _check_game_object(game)
    for number in range(games):
        game_seed = seed * 1000 + number
        rng = random.Random(game_seed)
        state = game.new_state(seed=game_seed)
        try:
            _play(state, rng, report, deals, max_deal_actions, rate, redeal_rate)
        except AssertionError as exc:
            raise AssertionError(f"{game.name}, seed {game_seed}, after {len(state.actions)} actions: {exc}") from exc
        report.games += 1
    return report


def _resolve(name_or_game: str | Game | type[Game]) -> Game:
    if isinstance(name_or_game, str):
        return load(name_or_game)
    if isinstance(name_or_game, Game):
        return name_or_game
    if isinstance(name_or_game, type) and issubclass(name_or_game, Game):
        return name_or_game()
    raise TypeError(f"check_game needs a game name, Game or Game class, not {name_or_game!r}")


def _check_game_object(game: Game) -> None:
    cls = type(game)
    assert game.name in names(), (f"{game.name!r} is not a registered game (parlour.names()): records find their "
                                  "game by name, so a game must be installed with a 'parlour.games' entry point")
    assert isinstance(game.name, str) and game.name == game.name.lower() and game.name, "Game.name"
    assert isinstance(game.title, str) and game.title, "Game.title"
    assert isinstance(game.num_players, int) and game.num_players >= 1, "Game.num_players"
    assert all(isinstance(c, str) for c in game.PACK), "Game.PACK holds card codes"
    try:
        cls(**{"no such option": 1})
    except ValueError:
        pass
    else:
        raise AssertionError("an unknown option must be a ValueError")
    for bad in ("seven", True, 1.5):
        try:
            game.new_state(seed=bad)  # type: ignore[arg-type]
        except ValueError:
            pass
        else:
            raise AssertionError(f"seed={bad!r} must be a ValueError")
    a, b = game.new_state(seed=11), game.new_state(seed=11)
    assert a.to_json() == b.to_json() and _views(a) == _views(b), "the same seed gives the same game"
    _check_parser(game)
    if game.PACK:
        deck = list(game.PACK)
        random.Random(3).shuffle(deck)
        state = game.new_state(deck=deck, dealer=0)
        assert state.current_pack() == deck, "deck= fixes the first pack"
        assert from_json(state.to_json()).current_pack() == deck, "a record keeps deck="


def _check_parser(game: Game) -> None:
    """Every action of the game's ``action_space`` is parsed by its ``actions`` module (or the plain
    parser) and said back exactly: interfaces read actions only through the parser."""
    try:
        space = list(game.action_space())
    except NotImplementedError:
        return
    read = parser(game.name)
    for said in space:
        try:
            back = str(read(said))
        except ValueError as exc:
            raise AssertionError(f"the game's parse_action refuses its own action {said!r}: {exc}") from None
        assert back == said, f"parse_action({said!r}) is said back as {back!r}"


def _views(state: State) -> list[dict[str, Any]]:
    return [state.view(s) for s in range(state.game.num_players)]


def _play(state: State, rng: random.Random, report: Report, deals: int, max_deal_actions: int,
          rate: float, redeal_rate: float) -> None:
    watch = HiddenCardWatch(rng=random.Random(rng.random()), redeal_rate=redeal_rate)
    universe = set(JUNK_ACTIONS) | set(state.game.PACK)
    in_deal = 0
    replayed = False
    while not state.is_over and len(state.deals) < deals:
        check_contract(state)
        report.views += state.game.num_players
        watch.check(state)
        legal = state.legal_actions()
        universe.update(legal)
        if rng.random() < rate:
            _check_illegal(state, rng, universe)
            report.illegal += 1
        if rng.random() < rate:
            _check_record(state, rng)
            report.records += 1
        if rng.random() < rate:
            _check_clone(state, rng)
            report.clones += 1
        if state.can_replay_deal and not replayed:
            state.replay_deal()  # "replay this deal", once a game: records must reproduce it too
            replayed = True
            report.replays += 1
            continue
        done = len(state.deals)
        state.apply(rng.choice(legal))
        report.actions += 1
        in_deal = 0 if len(state.deals) > done else in_deal + 1
        assert in_deal <= max_deal_actions, f"a deal has not ended after {max_deal_actions} random actions"
        if len(state.deals) > done:
            report.deals += len(state.deals) - done
            _check_summaries(state)
    check_contract(state)
    watch.check(state)
    _check_record(state, rng)
    _check_illegal(state, rng, universe)
    for key, count in watch.counts.items():
        report.hidden[key] = report.hidden.get(key, 0) + count


# -- the API contract ----------------------------------------------------------------------
def check_contract(state: State) -> None:
    """The public API of DESIGN.md holds in ``state``: types, views' keys and values, copies."""
    game = state.game
    n = game.num_players
    over = state.is_over
    assert isinstance(over, bool), f"is_over is {over!r}, not a bool"
    player = state.current_player
    legal = state.legal_actions()
    assert isinstance(legal, list) and all(isinstance(a, str) for a in legal), "legal_actions() is a list of str"
    assert len(set(legal)) == len(legal), f"legal_actions() repeats an action: {legal}"
    if over:
        assert player is None and legal == [], "a finished game has no player to move and no legal action"
    else:
        assert isinstance(player, int) and not isinstance(player, bool) and 0 <= player < n, \
            f"current_player is {player!r}"
        assert legal, "a game that is not over has a legal action"
    legal.append("#mutated")
    assert "#mutated" not in state.legal_actions(), "legal_actions() must return a fresh list"
    scores = state.scores
    assert isinstance(scores, list) and len(scores) == n and all(_is_int(x) for x in scores), f"scores {scores!r}"
    winner = state.winner
    assert winner is None or (_is_int(winner) and 0 <= winner < n), f"winner is {winner!r}"
    assert over or winner is None, "no winner before the game is over"
    assert isinstance(state.phase, str) and state.phase, "phase is a non-empty str"
    assert isinstance(state.action_is_private, bool), "action_is_private is a bool"
    assert isinstance(state.deals, list), "deals is a list"
    for seat in range(n):
        view = state.view(seat)
        assert isinstance(view, dict), "a view is a dict"
        missing = VIEW_KEYS - set(view)
        assert not missing, f"view({seat}) lacks {sorted(missing)}"
        text = json.dumps(view)
        assert json.loads(text) == view, f"view({seat}) does not survive a JSON round trip"
        assert view["game"] == game.name and view["seat"] == seat and view["phase"] == state.phase
        assert view["current_player"] == player and view["scores"] == scores
        assert view["is_over"] == over and view["winner"] == winner and view["num_players"] == n
        assert view["options"] == game.options, f"view({seat})['options']"
        assert view["deal_number"] == len(state.deals) + 1, f"view({seat})['deal_number']"
        assert view["dealer"] is None or _is_int(view["dealer"]), "dealer is a seat (or None)"
        assert isinstance(view["hand"], list) and all(isinstance(c, str) for c in view["hand"]), "hand"
        assert _is_int(view["trick_seq"]) and isinstance(view["trick"], list), "trick, trick_seq"
        sizes = view["hand_sizes"]
        assert isinstance(sizes, list) and len(sizes) == n and all(_is_int(x) for x in sizes), "hand_sizes"
        assert sizes[seat] == len(view["hand"]), f"view({seat})['hand_sizes'] disagrees with its hand"
        if seat == player:
            assert view.get("legal_actions") == legal[:-1], f"view({seat})['legal_actions'] differs"
        else:
            assert "legal_actions" not in view, f"view({seat}) has legal_actions though seat {player} moves"
        _mutate(view)
        assert json.dumps(state.view(seat)) == text, f"changing view({seat}) changed the state"
    for bad in (-1, n, "0", None, True):
        try:
            state.view(bad)  # type: ignore[arg-type]
        except ValueError:
            pass
        else:
            raise AssertionError(f"view({bad!r}) must be a ValueError")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _mutate(value: Any) -> None:
    """Change every list and dict inside ``value`` (a view): the state must not share them."""
    if isinstance(value, dict):
        for v in value.values():
            _mutate(v)
        value["#mutated"] = True
    elif isinstance(value, list):
        for v in value:
            _mutate(v)
        value.append("#mutated")


def _check_summaries(state: State) -> None:
    n = state.game.num_players
    for summary in state.deals:
        assert isinstance(summary, dict), "a deal summary is a dict"
        scores = summary.get("scores")
        assert isinstance(scores, list) and len(scores) == n and all(_is_int(x) for x in scores), \
            f"a deal summary's scores: {scores!r}"
        assert json.loads(json.dumps(summary)) == summary, "a deal summary survives JSON"


# -- records, clones, illegal actions ------------------------------------------------------
def _same(a: State, b: State) -> None:
    assert a.to_json() == b.to_json(), "records differ"
    assert a.legal_actions() == b.legal_actions(), "legal actions differ"
    assert a.deals == b.deals, "deal summaries differ"
    assert (a.current_player, a.scores, a.is_over, a.winner, a.phase) == \
        (b.current_player, b.scores, b.is_over, b.winner, b.phase), "state differs"
    assert _views(a) == _views(b), "views differ"


def _play_on(states: Sequence[State], rng: random.Random, steps: int) -> list[str]:
    """Make the same random actions in each of ``states`` (chosen in the first)."""
    made = []
    for _ in range(steps):
        if states[0].is_over:
            break
        action = rng.choice(states[0].legal_actions())
        for s in states:
            s.apply(action)
        made.append(action)
    return made


def _check_record(state: State, rng: random.Random) -> None:
    text = state.to_json()
    record = json.loads(text)
    assert isinstance(record, dict) and record.get("game") == state.game.name, "a record names its game"
    assert record.get("actions") == state.actions, "a record holds every action"
    again, again2 = from_json(text), from_json(json.loads(text))
    _same(again, state)
    _same(again2, state)
    # Both go on identically, across the next shuffle too: the record fixes the RNG as well.
    twin = state.clone()
    _play_on([twin, again], random.Random(rng.random()), rng.randrange(5, 120))
    _same(again, twin)


def _check_clone(state: State, rng: random.Random) -> None:
    before = (state.to_json(), json.dumps(_views(state)), json.dumps(state.deals), state.legal_actions())
    twin = state.clone()
    _same(twin, state)
    made = _play_on([twin], random.Random(rng.random()), rng.randrange(1, 150))
    assert (state.to_json(), json.dumps(_views(state)), json.dumps(state.deals), state.legal_actions()) == before, \
        "playing a clone changed the original"
    replay = from_json(before[0])
    for action in made:
        replay.apply(action)
    _same(replay, twin)


def _check_illegal(state: State, rng: random.Random, universe: set[str]) -> None:
    legal = state.legal_actions()
    candidates = sorted(universe - set(legal))
    tries = rng.sample(candidates, min(3, len(candidates)))
    for action in tries:
        before = (state.to_json(), json.dumps(_views(state)), json.dumps(state.deals))
        try:
            state.apply(action)
        except IllegalAction as exc:
            assert isinstance(exc, ValueError) and str(exc), "IllegalAction is a ValueError with a message"
            assert exc.legal == legal, "IllegalAction lists the legal actions"
        else:
            raise AssertionError(f"{action[:40]!r} was accepted though not legal (legal: {legal})")
        assert (state.to_json(), json.dumps(_views(state)), json.dumps(state.deals)) == before, \
            f"the illegal action {action[:40]!r} changed the state"
        assert state.legal_actions() == legal


# -- hidden cards ----------------------------------------------------------------------------
Path = tuple[Any, ...]
_MISSING: Any = object()


def _at(value: Any, path: Path) -> Any:
    """The part of a JSON value at ``path`` (keys and indexes), or ``_MISSING``."""
    for step in path:
        if isinstance(value, dict) and step in value:
            value = value[step]
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        else:
            return _MISSING
    return value


def _diff(a: Any, b: Any, path: Path = ()) -> list[Path]:
    """The paths where two JSON values differ (descending only where they do)."""
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in {**a, **b} for p in _diff(a.get(k, _MISSING), b.get(k, _MISSING), (*path, k))]
    if isinstance(a, list) and isinstance(b, list):
        size = max(len(a), len(b))
        return [p for i in range(size)
                for p in _diff(a[i] if i < len(a) else _MISSING, b[i] if i < len(b) else _MISSING, (*path, i))]
    return [path]


def _public(views: Sequence[Any], path: Path) -> bool:
    """Every view has the same value at ``path``, or none has it: the table shows it to all alike."""
    first = _at(views[0], path)
    return all(_at(v, path) == first for v in views[1:])


def _paths_naming(value: Any, card: str, cards: CardFinder, path: Path = ()) -> list[Path]:
    """Where ``value`` names ``card`` (for error messages)."""
    if isinstance(value, dict):
        return [p for k, v in value.items()
                for p in ([(*path, k)] if isinstance(k, str) and card in cards.found(k) else [])
                + _paths_naming(v, card, cards, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _paths_naming(v, card, cards, (*path, i))]
    return [path] if isinstance(value, str) and card in cards.found(value) else []


class HiddenCardWatch:
    """Follows one game and checks that no view shows (or betrays) a card its seat may not know.

    Call :meth:`check` with the game's state as often as you like (after each action, or once);
    it catches up by replaying the new actions on its own copy and checks every position it
    passes in the current pack.  What a seat **may know** is ``parlour.knowledge``'s reading (its
    own hands, the cards its own and the public actions named, what every view shows alike),
    which the review of a deal shares, so the watch needs no knowledge of any game.  Each
    position is checked four ways:

    1. **scan**: every card code in ``view(seat)`` (outside ``last_deal``, a finished deal of
       another pack, and ``legal_actions``) is one the seat may know;
    2. **fresh pack**: before the first action on a pack, no view names a card of another
       seat's hand (cards dealt face up belong on the table, not in a hand);
    3. **private actions** (``action_is_private``): until the next trick is complete (or the
       pack is done), making another legal choice instead changes nothing in the view of any
       other seat whose hand it leaves alone (GOPS: seat 1 never learns seat 0's pending bid);
    4. **re-deal** (at a share ``redeal_rate`` of positions): the pack is dealt again with the
       cards the seat may not know permuted among their places, and the same actions replayed
       (a card in another seat's private action renamed with it); a permutation the history
       rules out (an illegal replay: a void shown by a discard) is dropped.  Then everything in
       ``view(seat)`` that is not shown to all seats alike must be unchanged — its legal
       actions too: they may depend only on what the seat knows.  Public announcements drawn
       from hidden cards (Clobby's meld comparison) are allowed to change.  With only the cards
       *no* seat has seen permuted (stock, widow, skat), every view must be unchanged, public
       parts included.

    Counts of each check are in ``counts``; a deal summary (``last_deal``) is not scanned, as
    it may show the finished deal's cards.  A pack with two equal cards skips 1, 2 and 4.

    What it cannot tell, knowing no rules: a card shown to every seat alike after the first
    action (a meld, a spread hand) is public to it, so a fault that shows a whole hand to
    everybody later in a deal passes; and a value shown to every seat alike that is drawn from
    hidden cards counts as an announcement (Clobby's meld comparison is one), unless it is
    drawn from cards no seat has seen and those are re-dealt among positions that matter.
    """

    def __init__(self, *, rng: random.Random | None = None, redeal_rate: float = 0.25, tries: int = 4) -> None:
        self.rng = rng or random.Random(0)
        self.redeal_rate = redeal_rate
        self.tries = tries
        self.counts = {"positions": 0, "scanned": 0, "fresh": 0, "private": 0, "redeal": 0, "redeal_nobody": 0,
                       "redeal_ruled_out": 0}
        self._shadow: State | None = None
        self._followed: State | None = None
        self._cards: CardFinder | None = None

    # -- following the game ------------------------------------------------------------
    def check(self, state: State) -> None:
        """Catch up with ``state`` (the same game as before, some actions later) and check."""
        shadow = self._shadow
        done = len(shadow.actions) if shadow is not None else 0
        same_game = state is self._followed and len(state.actions) >= done and (
            done == 0 or state.actions[done - 1] == shadow.actions[-1])  # type: ignore[union-attr]
        if shadow is None or not same_game and (
                shadow.actions != state.actions[:done] or _header(shadow) != _header(state)):
            shadow = self._start(state)
        self._followed = state
        self._follow(shadow, state.actions[len(shadow.actions):])
        if not shadow.is_over:
            self._position(shadow)

    def _start(self, state: State) -> State:
        """A fresh copy of ``state``'s game, fast-forwarded (unchecked) to the start of its pack."""
        shadow = state.fresh_copy()
        self._shadow = shadow
        self._cards = CardFinder(state.game.PACK)
        self._reset()
        state.current_pack()  # deals a lazily dealt pack, so that its start is known
        start = getattr(state, "_actions_at_deal_start", 0)  # the engine's own field: see the module docstring
        self._follow(shadow, state.actions, checked_from=start)
        return shadow

    def _reset(self) -> None:
        n = self._shadow.game.num_players if self._shadow else 0
        self._knowledge = Knowledge(self._cards or CardFinder(()), n)
        self._known = self._knowledge.known
        self._deal_start: State | None = None
        self._deal_actions: list[str] = []
        self._private: list[tuple[State, int, str, int]] = []  # (before, actor, action, index in deal)
        self._trick_seq: int | None = None
        self._checked_at = -1

    def _follow(self, shadow: State, entries: Sequence[str], checked_from: int = 0) -> None:
        """Make record ``entries`` on ``shadow``, checking each action from entry ``checked_from`` on."""
        def make(step: Step) -> None:
            if step.kind == "action" and step.position >= checked_from:
                self._step(shadow, step.entry)
            else:
                apply_recorded(shadow, step.entry)

        for step in replay(shadow, entries, make):
            if step.kind == "replay":
                self._deal_start = None  # a new pack: start over at the next position
            elif step.kind == "undo" and step.position >= checked_from:
                self._reset()  # this pack's positions were followed past what now stands: start over

    def _step(self, shadow: State, action: str) -> None:
        if not shadow.is_over:
            self._position(shadow)
        actor = shadow.current_player
        private = shadow.action_is_private
        if private:
            self._private.append((shadow.clone(), actor if actor is not None else -1, action, len(self._deal_actions)))
        self._knowledge.act(actor, action, private)
        shadow.apply(action)
        self._deal_actions.append(action)

    def _position(self, shadow: State) -> None:
        """Check the position ``shadow`` is in (once: ``check`` and ``_step`` both come here)."""
        cards = self._cards
        assert cards is not None
        fresh = shadow.deal_is_fresh
        if fresh and (self._deal_start is None or self._deal_actions):
            self._reset()
            self._deal_start = shadow.clone()
        if self._deal_start is None or self._checked_at == len(shadow.actions):
            return
        self._checked_at = len(shadow.actions)
        self.counts["positions"] += 1
        n = shadow.game.num_players
        views = [shadow.view(s) for s in range(n)]
        seen, hands = self._knowledge.look(views)
        for seat in range(n):
            leaked = seen[seat] - self._known[seat]
            assert not leaked, _leak(views[seat], seat, leaked, cards)
            self.counts["scanned"] += 1
        if fresh:
            for seat in range(n):
                others = set().union(*(hands[o] for o in range(n) if o != seat))
                leaked = seen[seat] & others
                assert not leaked, _leak(views[seat], seat, leaked, cards, "at the start of a pack")
            self.counts["fresh"] += 1
        self._check_private(shadow, views)
        if self._deal_actions and cards.usable and self.rng.random() < self.redeal_rate:
            self._check_redeal(views)

    # -- 3: private actions ------------------------------------------------------------------
    def _check_private(self, shadow: State, views: list[dict[str, Any]]) -> None:
        seq = views[0]["trick_seq"]
        if self._trick_seq is not None and seq != self._trick_seq:
            self._private = []  # a trick was completed: private choices may now show
        self._trick_seq = seq
        for before, actor, action, index in self._private:
            choices = [a for a in before.legal_actions() if a != action]
            for other in self.rng.sample(choices, min(2, len(choices))):
                twin = before.clone()
                if not _replay(twin, [other, *self._deal_actions[index + 1:]]):
                    continue
                for seat, view in enumerate(views):
                    if seat == actor:
                        continue
                    theirs = twin.view(seat)
                    if theirs["hand"] != view["hand"]:
                        continue  # the choice went to this seat: it may know it
                    assert theirs == view, (
                        f"seat {seat}'s view tells seat {actor}'s private {action!r} from {other!r}: "
                        f"{_differences(view, theirs)}")
                    self.counts["private"] += 1

    # -- 4: re-deal ------------------------------------------------------------------------------
    def _check_redeal(self, views: list[dict[str, Any]]) -> None:
        start = self._deal_start
        cards = self._cards
        assert start is not None and cards is not None
        pack = start.current_pack()
        n = len(views)
        nobody = [c for c in pack if not any(c in k for k in self._known)]
        if len(nobody) >= 2:
            twin = self._redealt(start, pack, nobody)
            if twin is not None:
                theirs = _views(twin)
                for seat in range(n):
                    assert theirs[seat] == views[seat], (f"seat {seat}'s view depends on cards no seat has seen: "
                                                         f"{_differences(views[seat], theirs[seat])}")
                self.counts["redeal_nobody"] += 1
        for seat in range(n):
            hidden = [c for c in pack if c not in self._known[seat]]
            if len(hidden) < 2:
                continue
            twin = self._redealt(start, pack, hidden)
            if twin is None:
                continue
            theirs = _views(twin)
            changed = _diff(views[seat], theirs[seat])
            private = sorted(str(p) for p in changed if not (_public(views, p) and _public(theirs, p)))
            assert not private, (f"seat {seat}'s view depends on cards hidden from it (phase {views[seat]['phase']}): "
                                 f"{'; '.join(private[:4])}")
            self.counts["redeal"] += 1

    def _redealt(self, start: State, pack: list[str], movable: list[str]) -> State | None:
        """``start``'s pack dealt again with ``movable`` permuted, this pack's actions replayed."""
        cards = self._cards
        assert cards is not None
        for attempt in range(self.tries):
            if attempt == 0:
                shuffled = list(movable)
                self.rng.shuffle(shuffled)
                mapping = dict(zip(movable, shuffled, strict=True))
            else:  # fewer changes, fewer chances to contradict the history
                a, b = self.rng.sample(movable, 2)
                mapping = {a: b, b: a}
            twin = start.clone()
            twin.redeal([mapping.get(c, c) for c in pack])  # the same dealer
            if _replay(twin, [cards.rename(a, mapping) for a in self._deal_actions]):
                return twin
            self.counts["redeal_ruled_out"] += 1
        return None


def _header(state: State) -> list[Any]:
    """What identifies a game apart from its actions."""
    record = state.record()
    return [record.get(key) for key in ("game", "options", "seed", "seeding", "deck", "dealer")]


def _replay(state: State, actions: Sequence[str]) -> bool:
    try:
        for action in actions:
            state.apply(action)
    except IllegalAction:
        return False
    return True


def _leak(view: dict[str, Any], seat: int, leaked: set[str], cards: CardFinder, when: str = "") -> str:
    where = "; ".join(f"{c} at {'/'.join(map(str, (_paths_naming(scanned(view), c, cards) or [()])[0]))}"
                      for c in sorted(leaked))
    when = f" {when}" if when else ""
    return f"view({seat}) in phase {view['phase']!r}{when} shows cards the seat may not know: {where}"


def _differences(a: dict[str, Any], b: dict[str, Any]) -> str:
    return "; ".join(str(p) for p in _diff(a, b)[:4])


def check_hidden_cards(state: State, *, rng: random.Random | None = None, redeal_rate: float = 1.0) -> dict[str, int]:
    """One call: check every position of ``state``'s current pack so far (see :class:`HiddenCardWatch`).

    To check a game after every action, keep one ``HiddenCardWatch`` and call its ``check``:
    it does not replay the game each time.
    """
    watch = HiddenCardWatch(rng=rng, redeal_rate=redeal_rate)
    watch.check(state)
    return watch.counts
