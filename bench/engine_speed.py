"""Random-playout speed of every registered game through the public API, beside OpenSpiel peers.

    .venv/bin/python bench/engine_speed.py [--seconds 3]

One *unit* is a whole game for GOPS (it has one deal) and the first deal for the other
games: ``new_state(seed=i)``, then a uniformly random legal action (``rng.choice`` over
``legal_actions()``) applied until ``state.deals`` holds one summary.  When the optional
``peers`` extra (OpenSpiel) is installed, its ``goofspiel`` (13 cards) and ``skat`` are
played out the same way in the same run — chance nodes sampled, a random legal action per
decision through pyspiel's integer API — and the ratios Parlour/OpenSpiel are printed.

The machine is shared and noisy, so each game and its peer are timed in alternating
slices (``--rounds`` of each) and the medians are reported: both see the same load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import parlour

PEERS = {"gops": "goofspiel", "schafkopf": "skat", "sixbid": "skat"}


def parlour_unit(name: str) -> Callable[[int, random.Random], None]:
    game = parlour.load(name)

    def unit(i: int, rng: random.Random) -> None:
        state = game.new_state(seed=i)
        deals = state.deals
        while not deals:
            state.apply(rng.choice(state.legal_actions()))

    return unit


def openspiel_unit(name: str) -> Callable[[int, random.Random], None] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("goofspiel", {"num_cards": 13}) if name == "goofspiel" else pyspiel.load_game(name)

    def unit(i: int, rng: random.Random) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return unit


def rate(unit: Callable[[int, random.Random], None], seconds: float) -> float:
    rng = random.Random(12345)
    for i in range(20):  # warm up
        unit(i, rng)
    n = 0
    start = time.perf_counter()
    while True:
        for _ in range(50):
            unit(n, rng)
            n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.6, help="length of one timing slice")
    parser.add_argument("--rounds", type=int, default=5, help="alternating slices per game (medians reported)")
    args = parser.parse_args()

    peer_units = {peer: openspiel_unit(peer) for peer in sorted(set(PEERS.values()))}
    print(f"{'game':<10} {'unit':<6} {'parlour/s':>10} {'peer':<10} {'peer/s':>9} {'ratio':>6}")
    print("-" * 56)
    for name in parlour.names():
        try:
            unit = parlour_unit(name)
        except (ImportError, AttributeError) as exc:
            print(f"{name:<10} (not available: {exc})")
            continue
        kind = "game" if name == "gops" else "deal"
        peer = PEERS.get(name)
        peer_unit = peer_units.get(peer) if peer else None
        ours, theirs, ratios = [], [], []
        for _ in range(args.rounds):
            ours.append(rate(unit, args.seconds))
            if peer_unit is not None:
                theirs.append(rate(peer_unit, args.seconds))
                ratios.append(ours[-1] / theirs[-1])
        mine = statistics.median(ours)
        if peer and theirs:
            print(f"{name:<10} {kind:<6} {mine:>10.0f} {peer:<10} {statistics.median(theirs):>9.0f}"
                  f" {statistics.median(ratios):>5.2f}x")
        elif peer:
            print(f"{name:<10} {kind:<6} {mine:>10.0f} {peer:<10} (OpenSpiel not installed: pip install -e .[peers])")
        else:
            print(f"{name:<10} {kind:<6} {mine:>10.0f}")


if __name__ == "__main__":
    main()
