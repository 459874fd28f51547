"""How long the library takes to refuse (or accept) the worst inputs a fuzzer or a bad file can give it.

    .venv/bin/python bench/bench_fuzz.py [--repeat 3] [--only TEXT] [--undo-deals 230]

Issue 10 found hangs: a 40,000-entry deck took 24 s (a quadratic check), a record with 600,000
``#replay-deal`` entries loaded for seconds, a 10 MB action made a 10 MB message.  Each case
below is timed ``--repeat`` times and the worst CPU time is printed (over all five games where the
case is per game), with what the library answered.  The tests (tests/core/test_fuzz_api.py) check
*what* is answered; the times live here because a shared machine makes timed assertions flaky.
CPU time (``time.process_time``), not wall time: on a shared machine the wall clock counts
the other processes' turns too.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import parlour
from parlour.engine import MAX_DEAL_ACTIONS, MAX_RECORD_ACTIONS, MAX_REPLAY_DEALS, REPLAY_DEAL, UNDO


def outcome(call: Callable[[], object]) -> str:
    try:
        call()
    except ValueError as exc:
        text = str(exc)
        return f"ValueError ({len(text)} chars): {text[:60]}"
    return "accepted"


def worst(call: Callable[[], object], repeat: int) -> tuple[float, str]:
    times, said = [], ""
    for _ in range(repeat):
        start = time.process_time()
        said = outcome(call)
        times.append(time.process_time() - start)
    return max(times), said


def long_record(actions: int) -> str:
    """A real Six-Bid match of ``actions`` random actions (chips high, so it does not end)."""
    state = parlour.load("sixbid", chips=1_000_000).new_state(seed=1)
    rng = random.Random(1)
    while len(state.actions) < actions and not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state.to_json()


def replayed_deals(times: int) -> str:
    """A Le Truc record whose second deal is replayed ``times`` times."""
    state = parlour.load("truc").new_state(seed=1)
    while not state.deals:
        state.apply(state.legal_actions()[0])
    for _ in range(times):
        state.replay_deal()
    return state.to_json()


def long_deal(actions: int) -> str:
    """A Le Truc record whose first deal is ``actions`` calls for new cards and their acceptances."""
    state = parlour.load("truc").new_state(seed=1)
    while len(state.actions) < actions:
        state.apply("call")
        state.apply("accept")
    return state.to_json()


def undone_deals(deals: int, undos: int) -> str:
    """A Six-Bid record of ``deals`` deals in which every move but a deal's first and last is made
    and taken back ``undos`` times before it stands (``#undo 1`` each time).

    Why hostile: each ``#undo`` used to rebuild the whole game from its start, so loading took
    time quadratic in the record's length; it now rebuilds the current deal only (``engine.replay``).
    """
    state = parlour.load("sixbid", chips=1_000_000).new_state(seed=1)
    rng = random.Random(1)
    entries: list[str] = []
    for _ in range(deals):
        done = len(state.deals)
        while len(state.deals) == done:
            action = rng.choice(state.legal_actions())
            after = state.clone()
            after.apply(action)
            if state.deal_actions and len(after.deals) == done:  # a deal's last action cannot be taken back
                entries += [action, f"{UNDO} 1"] * undos
            entries.append(action)
            state.apply(action)
    return json.dumps({**state.record(), "actions": entries})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="times each case is run (the worst is shown)")
    parser.add_argument("--undo-deals", type=int, default=230,
                        help="deals of the record with undos (about 410 entries each: 230 fit in the 100,000 allowed)")
    parser.add_argument("--only", help="run only the cases whose label holds this text")
    args = parser.parse_args()
    r = args.repeat
    games = {name: parlour.load(name) for name in parlour.names()}
    big_action = "A" * 10_000_000
    deep = 1_000_000

    def per_game(make: Callable[[parlour.Game], Callable[[], object]]) -> tuple[float, str]:
        results = [worst(make(game), r) for game in games.values()]
        return max(t for t, _ in results), results[-1][1]

    print("building the inputs (not timed) ...", flush=True)
    longest = long_record(MAX_RECORD_ACTIONS)
    replays_ok = replayed_deals(MAX_REPLAY_DEALS)
    deal_too_long = long_deal(MAX_DEAL_ACTIONS + 2)
    undone = undone_deals(args.undo_deals, 5)
    undone_entries = len(json.loads(undone)["actions"])
    deck_rec = json.dumps({"game": "sixbid", "seed": 1, "deck": ["AS"] * 40_000, "actions": []})
    action_rec = json.dumps({"game": "truc", "seed": 1, "actions": [big_action]})
    replays_600k = json.dumps({"game": "truc", "seed": 1, "actions": [REPLAY_DEAL] * 600_000})
    replays_over = json.dumps({"game": "truc", "seed": 1, "actions": [REPLAY_DEAL] * (MAX_REPLAY_DEALS + 1)})
    too_many = json.dumps({"game": "gops", "seed": 1, "actions": ["AC"] * (MAX_RECORD_ACTIONS + 1)})
    garbage = "{" * 10_000_000
    nested = '{"game":"gops","actions":' + "[" * 1000 + "]" * 1000 + "}"
    very_nested = "[" * deep + "]" * deep
    cases: list[tuple[str, Callable[[], tuple[float, str]]]] = [
        ("new_state: 40,000-entry deck", lambda: per_game(
            lambda g: lambda: g.new_state(seed=1, deck=list(g.PACK) * (40_000 // len(g.PACK) + 1)))),
        ("new_state: right length, 10 MB card", lambda: per_game(
            lambda g: lambda: g.new_state(seed=1, deck=[*g.PACK[:-1], big_action]))),
        ("from_json: 40,000-entry deck", lambda: worst(lambda: parlour.from_json(deck_rec), r)),
        ("apply: 10 MB action", lambda: per_game(lambda g: lambda: g.new_state(seed=1).apply(big_action))),
        ("from_json: 10 MB action", lambda: worst(lambda: parlour.from_json(action_rec), r)),
        ("from_json: 10 MB of garbage", lambda: worst(lambda: parlour.from_json(garbage), r)),
        ("from_json: 600,000 #replay-deal", lambda: worst(lambda: parlour.from_json(replays_600k), r)),
        (f"from_json: {MAX_REPLAY_DEALS + 1:,} #replay-deal",
         lambda: worst(lambda: parlour.from_json(replays_over), r)),
        (f"from_json: {MAX_REPLAY_DEALS:,} real replays (allowed)",
         lambda: worst(lambda: parlour.from_json(replays_ok), r)),
        (f"from_json: one deal of {MAX_DEAL_ACTIONS + 2:,} actions",
         lambda: worst(lambda: parlour.from_json(deal_too_long), r)),
        (f"from_json: {MAX_RECORD_ACTIONS:,} real actions (allowed)",
         lambda: worst(lambda: parlour.from_json(longest), r)),
        (f"from_json: {MAX_RECORD_ACTIONS + 1:,} actions", lambda: worst(lambda: parlour.from_json(too_many), r)),
        (f"from_json: {args.undo_deals} deals, {undone_entries:,} entries, undos",
         lambda: worst(lambda: parlour.from_json(undone), r)),
        ("from_json: 1,000-deep nesting", lambda: worst(lambda: parlour.from_json(nested), r)),
        (f"from_json: {deep:,}-deep nesting", lambda: worst(lambda: parlour.from_json(very_nested), r)),
        ("load: option 10**4000", lambda: worst(lambda: parlour.load("sixbid", chips=10**4000), r)),
    ]
    print(f"{'case':<44} {'worst cpu s':>11}  answer")
    print("-" * 110)
    for label, run in cases:
        if args.only and args.only not in label:
            continue
        seconds, said = run()
        print(f"{label:<44} {seconds:>11.3f}  {said}", flush=True)


if __name__ == "__main__":
    main()
