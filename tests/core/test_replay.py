"""``engine.replay``: the one walk over a record, and the deal-start copy that bounds an undo.

The references below are the loops the iterator replaced, as they were written (commit 80682e9):
the record replayed entry by entry, each ``#undo N`` rebuilding the whole game from its start.
The iterator must reach identical states, step by step, on records of every game.
"""

from __future__ import annotations

import importlib.util
import json
import random
from typing import Any

import pytest

import parlour
from helpers import ROOT
from parlour import engine
from parlour.bots import make
from parlour.engine import REPLAY_DEAL, UNDO, State, Step, bot_rng, effective_actions, replay
from parlour.table import Event, Table


# -- the old loops ------------------------------------------------------------------------------
def old_undo(state: State, n: int) -> None:
    """``State.undo`` as it was: the whole game rebuilt from its start."""
    history = [*state.actions, f"{UNDO} {n}"]
    fresh = state.fresh_copy()
    for action in effective_actions(history):
        if action == REPLAY_DEAL:
            fresh.replay_deal()
        else:
            fresh.apply(action)
    fresh._actions_at_deal_start += len(history) - len(fresh.actions)
    fresh.actions = history
    state.__dict__.clear()
    state.__dict__.update(fresh.__dict__)


def old_step(state: State, entry: str) -> None:
    if entry.startswith(UNDO):
        old_undo(state, engine.undo_count(entry))
    elif entry == REPLAY_DEAL:
        state.replay_deal()
    else:
        state.apply(entry)


def old_table_events(table: Table, entries: list[str]) -> list[Event]:
    """``web.tables._table_for``'s loop as it was."""
    events: list[Event] = []
    for action in entries:
        if action == REPLAY_DEAL:
            table.state.replay_deal()
            events.append(Event("replay", None, {"dealer": table.state.dealer, "deal": len(table.state.deals) + 1}))
        elif action.startswith(UNDO):
            n = engine.undo_count(action)
            table.state.undo(n)
            events.append(Event("undo", None, {"count": n}))
        else:
            events += table.play(action)
    return events


def looks(state: State) -> Any:
    """Everything the public API tells of a state (JSON-normalized)."""
    n = state.game.num_players
    told = {"views": [state.view(s) for s in range(n)], "legal": state.legal_actions(), "record": state.record(),
            "deals": state.deals, "deal_actions": state.deal_actions, "can_replay": state.can_replay_deal,
            "dealt": state.deals_dealt, "pack": state.current_pack(), "over": state.is_over}
    return json.loads(json.dumps(told))


# -- records of every game, made by easy computer players --------------------------------------------
def bot_record(name: str, seed: int) -> dict[str, Any]:
    """A few deals by easy players, with undos (a single and a repeated one) and a replayed deal."""
    state = parlour.load(name).new_state(seed=seed)
    bot = make(name, "easy")

    def move() -> None:
        player = state.current_player
        assert player is not None
        state.apply(bot.act(state.view(player), bot_rng(seed, len(state.actions))))

    def play_deal_part(moves: int) -> None:
        for _ in range(moves):
            if state.is_over:
                return
            move()

    play_deal_part(3)
    if state.deal_actions >= 2:
        state.undo(2)
    deals = len(state.deals)
    while not state.is_over and len(state.deals) == deals:
        move()
    if state.can_replay_deal:
        state.replay_deal()
    play_deal_part(4)
    for _ in range(3):
        if not state.is_over and state.deal_actions:
            state.undo(1)
            move()
    while not state.is_over and len(state.deals) < 3:
        move()
    play_deal_part(2)
    return state.record()


RECORDS = [(name, seed) for name in parlour.names() for seed in (1, 2)]


@pytest.mark.parametrize(("name", "seed"), RECORDS)
def test_replay_reaches_the_old_loops_states_step_by_step(name, seed):
    record = bot_record(name, seed)
    entries = record["actions"]
    assert any(e.startswith(UNDO) for e in entries)
    new = parlour.from_json({**record, "actions": []})
    old = new.fresh_copy()
    steps = []
    for step in replay(new, entries):
        old_step(old, step.entry)
        assert looks(new) == looks(old), f"after entry {step.position + 1} ({step.entry})"
        steps.append(step)
    assert [s.entry for s in steps] == entries and [s.position for s in steps] == list(range(len(entries)))
    loaded = parlour.from_json(record)
    assert looks(loaded) == looks(old)
    moves = random.Random(seed)  # both go on identically: the same legal actions, the same next packs
    for _ in range(60):
        if old.is_over:
            break
        action = moves.choice(old.legal_actions())
        old.apply(action)
        loaded.apply(action)
        assert looks(loaded) == looks(old)


@pytest.mark.parametrize(("name", "seed"), RECORDS[::2])
def test_a_table_replay_tells_the_old_loops_events(name, seed):
    record = bot_record(name, seed)
    players = [None] * parlour.load(name).num_players
    old = Table(parlour.from_json({**record, "actions": []}), list(players))
    new = Table(parlour.from_json({**record, "actions": []}), list(players))
    expected = old_table_events(old, record["actions"])
    told: list[Event] = []
    for step, events in new.replay(record["actions"]):
        told += events
        assert (step.kind != "action") == (events[0].kind in ("undo", "replay"))
    assert told == expected and looks(new.state) == looks(old.state)


def test_every_marker_kind_and_its_count():
    state = parlour.load("truc").new_state(seed=1)
    first = state.legal_actions()[0]
    while not state.deals:
        state.apply(state.legal_actions()[0])
    entries = [*state.actions, REPLAY_DEAL, first, f"{UNDO} 1", first]
    walk = state.fresh_copy()
    seen = []
    for step in replay(walk, entries):
        seen.append((step.kind, step.undone))
        if step.kind == "replay":
            assert walk.deal_is_fresh and walk.current_pack() == state._packs[0][0]
        if step.kind == "undo":
            assert walk.deal_actions == 0 and walk.actions[-1] == f"{UNDO} 1"
    assert seen == [("action", 0)] * len(state.actions) + [("replay", 0), ("action", 0), ("undo", 1), ("action", 0)]
    assert walk.to_json() == parlour.from_json(walk.to_json()).to_json()


def test_a_made_step_is_made_by_the_caller_and_bad_entries_are_refused():
    state = parlour.load("gops").new_state(seed=1)
    action = state.legal_actions()[0]
    made: list[Step] = []
    for step in replay(state, [action], made.append):
        assert step == made[-1] and not state.actions  # the caller's ``make`` made it (here: nothing)
    with pytest.raises(ValueError, match="record action 2 is not a string"):
        list(replay(state, [action, 7]))  # type: ignore[list-item]
    for bad in ("#undo", "#undo x", "#undox", f"#undo {engine.MAX_DEAL_ACTIONS + 1}"):
        with pytest.raises(ValueError, match="bad undo marker"):
            list(replay(state.fresh_copy(), [bad]))
        with pytest.raises(ValueError, match="bad undo marker"):
            Step(0, bad, "undo").undone  # noqa: B018 - the count is read from the marker


# -- the deal-start copy --------------------------------------------------------------------------
def undone_deals(deals: int, undos: int) -> dict[str, Any]:
    """The hostile record of ``bench/bench_fuzz.py``: every move of a deal made and taken back ``undos`` times."""
    path = ROOT / "bench" / "bench_fuzz.py"
    spec = importlib.util.spec_from_file_location("bench_fuzz", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    record: dict[str, Any] = json.loads(bench.undone_deals(deals, undos))
    return record


def counting_applies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    count = [0]
    apply = State.apply

    def counted(self: State, action: str) -> None:
        count[0] += 1
        apply(self, action)

    monkeypatch.setattr(State, "apply", counted)
    return count


def test_undos_in_a_long_record_cost_one_deal_each(monkeypatch):
    record = undone_deals(12, 2)
    entries = record["actions"]
    old = parlour.from_json({**record, "actions": []})
    for entry in entries:
        old_step(old, entry)
    count = counting_applies(monkeypatch)
    state = parlour.from_json(record)
    assert looks(state) == looks(old)
    deal_length = 40  # a Six-Bid deal has at most 3 bids, a trump, 33 cards and a few calls
    undos = sum(e.startswith(UNDO) for e in entries)
    assert count[0] <= len(entries) + undos * deal_length
    # the old loop rebuilt the whole game at each undo: about undos * (half the game) applies
    assert count[0] * 3 < undos * (len(effective_actions(entries)) // 2)


def test_state_undo_called_directly_matches_the_old_undo_and_keeps_one_copy():
    state = parlour.load("schafkopf").new_state(seed=4)
    moves = random.Random(4)
    while len(state.deals) < 2:
        state.apply(moves.choice(state.legal_actions()))
    for _ in range(5):
        state.apply(moves.choice(state.legal_actions()))
    old = state.clone()
    for n in (2, 1, 1):
        state.undo(n)
        old_undo(old, n)
        assert looks(state) == looks(old)
        kept = state._kept_start()
        assert kept is not None and kept.seen == len(state.actions) and "_deal_start_copy" not in kept.state.__dict__
        assert kept.state.deal_is_fresh and not kept.state.actions  # a deal's start, with no record to copy
        action = moves.choice(state.legal_actions())
        state.apply(action)
        old.apply(action)
    clone = state.clone()
    assert clone._kept_start() is state._kept_start()  # shared, never copied
    fresh = clone.fresh_copy()
    assert fresh._kept_start() is None
    while len(state.deals) < 3:  # the next deal: the copy is stale, and an undo rebuilds from the record
        action = moves.choice(state.legal_actions())
        state.apply(action)
        old.apply(action)
    state.apply(moves.choice(state.legal_actions()))
    old.apply(state.actions[-1])
    assert state._kept_start() is None
    state.undo(1)
    old_undo(old, 1)
    assert looks(state) == looks(old) and state._kept_start() is not None


def test_many_undos_in_one_deal_read_only_the_entries_since_the_last(monkeypatch):
    state = parlour.load("gops").new_state(seed=2)
    first = state.legal_actions()[0]
    state.apply(first)
    second = state.legal_actions()[0]
    entries = [first, *[second, f"{UNDO} 1"] * 3000, second]
    count = counting_applies(monkeypatch)
    loaded = parlour.from_json({**state.fresh_copy().record(), "actions": entries})
    assert count[0] <= 3 * len(entries) and effective_actions(loaded.actions) == [first, second]
    kept = loaded._kept_start()
    assert kept is not None and kept.seen == len(entries) - 1 and kept.standing == (first,)
