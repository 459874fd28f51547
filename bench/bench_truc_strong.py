"""Le Truc: the strong player's margins over six players, in duplicate, and its decision time.

    .venv/bin/python bench/bench_truc_strong.py [--deals 5000] [--seed 2026] [--jobs 2]
                                                [--opponents easy,random,...] [--easy-model]

Opponents: ``easy``; ``random``, ``always-decline``, ``always-accept`` and ``always-double``
(as in ``bench_truc.py``); and ``best-response``: the best responder to strong's shipped
strategy in the deal model (``train.Solver.best_response_policy``, computed here for all 16
score situations, both seats), playing its cards by the model's rule and its calls, offers
and answers from that best response (positions the model does not know: as strong).

Duplicate: every game seed is played twice, strong in seat 0 and then in seat 1, until at
least ``--deals`` deals are scored against each opponent.  Figures: mean points per deal
(strong minus opponent) with a 95% interval from the game pairs (ratio estimator, so the
duplicate pairing is respected), games won with a Wilson interval, and strong's median and
95th-percentile time per decision.  ``--easy-model`` also prints the exploitability of easy's
strategy mapped into the model (situation 0 only: both players at 0-4 points).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

import parlour
from bench_truc import AlwaysAccept, AlwaysDecline, AlwaysDouble, RandomPlayer, wilson  # the same players, same folder
from parlour.bots import make
from parlour.games.truc import model as M
from parlour.games.truc import strong as S

CACHE = Path("/tmp/parlour-truc-best-response.npz")
GIVEN: Path | None = None  # --best-response: the best responder written by train.py


# -- the best responder to strong, from the model ------------------------------------------------------
def _br_job(sit: int) -> tuple[np.ndarray, np.ndarray, dict]:
    from parlour.games.truc import train as T

    global _DEALS
    if "_DEALS" not in globals():
        _DEALS = T.build_deals()
    d = _DEALS
    game = T.build_game(d, sit)
    solver = T.Solver(d, game)
    table = S.table()
    tk = np.frombuffer(table.keys.tobytes(), dtype="<i8")
    tp = np.frombuffer(table.probs, dtype=np.uint8) / 255
    pos = np.clip(np.searchsorted(tk, game.keys), 0, len(tk) - 1)
    sig = np.where(tk[pos] == game.keys, tp[pos], 0.0)
    ex = solver.exploitability(sig)
    keys, yes = [], []
    for seat in (0, 1):
        slots, y = solver.best_response_policy(sig, seat)
        keys.append(game.keys[slots])
        yes.append(y)
    return np.concatenate(keys), np.concatenate(yes), ex


def best_response_tables(jobs: int) -> tuple[np.ndarray, np.ndarray]:
    if GIVEN is not None:
        data = np.load(GIVEN)
        return data["keys"], data["yes"]
    stamp = S.TABLE.stat().st_mtime
    if CACHE.exists():
        data = np.load(CACHE)
        if float(data["stamp"]) == stamp:
            return data["keys"], data["yes"]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = pool.map(_br_job, range(16), chunksize=1)
    keys = np.concatenate([r[0] for r in results])
    yes = np.concatenate([r[1] for r in results])
    order = np.argsort(keys, kind="stable")
    keys, yes = keys[order], yes[order]
    print(f"best responder computed for 16 situations in {time.perf_counter() - start:.0f}s; strong's shipped "
          f"strategy in the model (stake points per deal):")
    for sit, r in enumerate(results):
        ex = r[2]
        print(f"  situation {sit:2d}: exploitability {ex['exploitability']:.5f} "
              f"(as N +{ex['gain_n']:.5f}, as D +{ex['gain_d']:.5f})")
    np.savez(CACHE, keys=keys, yes=yes, stamp=stamp)
    return keys, yes


class BestResponse:
    """Plays the model's best response to strong: cards by the model's rule, the rest from the table."""

    name = "best-response"

    def __init__(self, keys: np.ndarray, yes: np.ndarray) -> None:
        self.keys, self.yes = keys, yes
        self.strong = S.StrongBot()
        self.hits = self.misses = 0

    def _get(self, key: int) -> bool | None:
        i = int(np.searchsorted(self.keys, key))
        if i < len(self.keys) and self.keys[i] == key:
            self.hits += 1
            return bool(self.yes[i])
        self.misses += 1
        return None

    def act(self, view: dict[str, Any], rng: random.Random) -> str:
        legal = view["legal_actions"]
        if len(legal) == 1:
            return legal[0]
        deal = S.Deal(view, self.strong.table.meta.get("substitute"))
        phase = view["phase"]
        if phase == "call":
            yes, no, kind = "call", "play", M.CALL
        elif phase == "call-answer":
            yes, no, kind = "accept", "refuse", M.CALL_ANSWER
        elif phase == "offer-answer":
            yes, no, kind = "accept", "decline", M.OFFER_ANSWER
        else:
            power = S.rule_power(view)
            no = next(c for c in view["hand"] if M.POW[c[0]] == power)
            offer = next((a for a in legal if a in S.OFFERS), None)
            if offer is None:
                return no
            yes, kind = offer, M.OFFER
        choice = self._get(deal.key(kind))
        if choice is None:
            return self.strong.act(view, rng)
        return yes if choice else no


# -- matches --------------------------------------------------------------------------------------------
def opponent(name: str) -> Any:
    if name == "best-response":
        return BestResponse(*best_response_tables(1))
    simple = {"random": RandomPlayer, "always-decline": AlwaysDecline, "always-accept": AlwaysAccept,
              "always-double": AlwaysDouble}
    if name in simple:
        return simple[name]()
    return make("truc", name)


def match(name: str, deals: int, seed: int) -> dict[str, Any]:
    game = parlour.load("truc")
    strong = make("truc", "strong")
    opp = opponent(name)
    rng = random.Random(seed)
    pairs: list[tuple[int, int]] = []  # (strong's margin, deals) per duplicate pair of games
    times: list[float] = []
    games = won = 0
    g = n = 0
    while n < deals:
        margin = count = 0
        for strong_seat in (0, 1):
            state = game.new_state(seed=seed * 1_000_003 + g)
            while not state.is_over:
                seat = state.current_player
                view = state.view(seat)
                if seat == strong_seat:
                    t0 = time.perf_counter()
                    action = strong.act(view, rng)
                    times.append(time.perf_counter() - t0)
                else:
                    action = opp.act(view, rng)
                state.apply(action)
            for d in state.deals:
                margin += d["scores"][strong_seat] - d["scores"][1 - strong_seat]
                count += 1
            games += 1
            won += state.winner == strong_seat
        g += 1
        pairs.append((margin, count))
        n += count
    total_m = sum(m for m, _ in pairs)
    total_d = sum(c for _, c in pairs)
    mean = total_m / total_d
    k = len(pairs)
    resid = [(m - mean * c) for m, c in pairs]
    se = math.sqrt(sum(r * r for r in resid) / (k - 1) / k) / (total_d / k)
    times.sort()
    return {"opponent": name, "deals": total_d, "games": games, "mean": mean, "ci": 1.96 * se,
            "win": won / games, "win_ci": wilson(won, games), "median_ms": 1000 * statistics.median(times),
            "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))],
            "misses": getattr(opp, "misses", None), "hits": getattr(opp, "hits", None)}


def _match_job(args: tuple[str, int, int]) -> dict[str, Any]:
    return match(*args)


# -- easy's strategy in the model -----------------------------------------------------------------------
def easy_exploitability() -> dict[str, float]:
    """Easy's calls, offers and answers evaluated at every decision of situation 0 of the model."""
    from parlour.games.truc import train as T
    from parlour.games.truc.bots import BLUFF_CAP, BLUFF_MAX, SLOW_PLAY, SLOW_PLAY_LAST, EasyBot, _Situation

    d = T.build_deals()
    game = T.build_game(d, 0)
    solver = T.Solver(d, game)
    bot = EasyBot()
    sig = np.zeros(len(game.keys))
    radix = (4, 2, 2, 120, 9**5, 3**6)
    for slot, key in enumerate(game.keys.tolist()):
        parts = []
        for b in reversed(radix):
            parts.append(key % b)
            key //= b
        hist, prefix, hand, role, refused, kind = parts
        view = _model_view(role, M.HANDS[hand], prefix, hist, kind)
        sig[slot] = _easy_yes(bot, view, kind, _Situation, SLOW_PLAY, SLOW_PLAY_LAST, BLUFF_MAX, BLUFF_CAP)
    return solver.exploitability(sig)


def _model_view(role: int, dealt: tuple[int, ...], prefix: int, hist: int, kind: int) -> dict[str, Any]:
    """A view of seat 0 as the non-dealer (role 0) or dealer (role 1) at a model position, scores 2-2."""
    powers = []
    while prefix:
        powers.append(prefix % 9 - 1)
        prefix //= 9
    powers.reverse()
    me = 0 if role == 0 else 1  # seat numbers: seat 0 is the non-dealer
    hands = [list(dealt), [-1, -1, -1]] if role == 0 else [[-1, -1, -1], list(dealt)]
    t = M.Tricks((tuple(hands[0]), tuple(hands[1])))
    tricks, cur, stake = [], [], 1
    offers = {k: by for k, by in ((k, (hist // 3**k) % 3 - 1) for k in range(6)) if by >= 0}
    for i, p in enumerate(powers):
        if i in offers:
            stake *= 2
        seat = t.to_move
        if seat != me and p not in t.hands[seat]:
            t.hands[seat][t.hands[seat].index(-1)] = p  # his unplayed cards stay unknown
        t.play(p)
        cur.append([seat, M.RANK_OF[p] + "C"])
        if len(cur) == 2:
            tricks.append({"cards": cur})
            cur = []
    hand = [M.RANK_OF[p] + "CDHS"[i] for i, p in enumerate(t.hands[me])]
    won = t.won
    view = {"seat": me, "hand": hand, "tricks": tricks, "trick": cur, "opponent_cards": 3 - sum(
        1 for s, _ in t.played if s != me), "first_trick_winner": t.first, "tricks_won": list(won),
        "spoiled": ["9C"] * (2 * t.spoiled), "scores": [2, 2], "stake": stake, "remainder": False}
    return view


def _easy_yes(bot: Any, view: dict[str, Any], kind: int, situation: Any, slow: float, slow_last: float,
              bluff_max: float, bluff_cap: float) -> float:
    from parlour.games.truc.bots import ANSWER_NOISE, TARGET, round_chance

    sit = situation(view)
    if kind == M.CALL:
        e = bot._strength(sit, True)
        return min(0.85, max(0.1, 0.45 - 1.5 * (e + 0.13)))
    if kind == M.CALL_ANSWER:
        e = bot._strength(sit, False)
        return min(0.9, max(0.05, 0.45 - 1.5 * (e - 0.11)))
    if kind == M.OFFER:
        rows = sit.odds(my_card=True)
        scored = [(sit.value(pw, pl, ps, sit.current_stake()), c, pw, pl, ps) for c, pw, pl, ps in rows]
        v_no, _, pw, pl, ps = max(scored)
        s = sit.stake
        remainder = sit.a + 2 * s > TARGET
        v_acc = sit.value(pw, pl, ps, None if remainder else 2 * s)
        v_dec = round_chance(sit.a + s, sit.b)
        if v_acc > v_no + 1e-9:
            return 1 - (slow_last if len(view["hand"]) == 1 else slow)
        if v_dec <= v_acc:
            return 0.0
        need = (v_no - v_acc) / (v_dec - v_acc)
        return bluff_max * max(0.0, 1.0 - need / bluff_cap)
    s = sit.stake
    ((_, pw, pl, ps),) = sit.odds(my_card=False)
    v_acc = sit.value(pw, pl, ps, None if sit.b + 2 * s > TARGET else 2 * s)
    v_dec = round_chance(sit.a, sit.b + s)
    if v_dec <= 0.0:
        return 1.0
    z = (v_acc - v_dec) / max(1e-9, round_chance(sit.a + s, sit.b) - v_dec)
    if abs(z) >= 4 * ANSWER_NOISE:
        return 1.0 if z > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-z / ANSWER_NOISE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5000, help="deals per opponent (default 5000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--opponents", default="easy,random,always-decline,always-accept,always-double,best-response")
    parser.add_argument("--easy-model", action="store_true", help="also measure easy's exploitability in the model")
    parser.add_argument("--table", type=Path, default=None, help="strong's table (default: the shipped one)")
    parser.add_argument("--best-response", type=Path, default=None,
                        help="the best responder from `train.py --best-response` (default: computed here)")
    args = parser.parse_args()
    global GIVEN
    GIVEN = args.best_response
    if args.table is not None:
        S.TABLE = args.table
    names = args.opponents.split(",")
    if "best-response" in names:
        best_response_tables(args.jobs)  # computed (or read from the cache) before the matches fork
    if args.easy_model:
        e = easy_exploitability()
        print(f"easy mapped into the model, situation 0: exploitability {e['exploitability']:.4f} "
              f"(as N +{e['gain_n']:.4f}, as D +{e['gain_d']:.4f}) stake points per deal")
    start = time.perf_counter()
    jobs = [(name, args.deals, args.seed + i) for i, name in enumerate(names)]
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(_match_job, jobs, chunksize=1)
    print()
    head = (f"{'strong vs':<16} {'deals':>6} {'games':>6} {'points/deal margin (95%)':>26} {'games won (95%)':>22}"
            f" {'decision median/p95':>20}")
    print(head)
    print("-" * len(head))
    ok = True
    for r in results:
        lo = r["mean"] - r["ci"]
        ok &= lo > 0 if r["opponent"] == "easy" else r["mean"] + r["ci"] > 0
        won = f"{r['win']:.1%} ({r['win_ci'][0]:.1%}-{r['win_ci'][1]:.1%})"
        print(f"{r['opponent']:<16} {r['deals']:>6} {r['games']:>6} {r['mean']:>+14.3f} ± {r['ci']:<8.3f}"
              f" {won:>22} {r['median_ms']:>9.2f}/{r['p95_ms']:.2f} ms")
        if r["misses"] is not None:
            print(f"{'':<16} (best responder: {r['hits']} decisions from its table, {r['misses']} as strong)")
    print()
    print(f"{time.perf_counter() - start:.0f}s; " + ("strong beats easy and loses to nobody" if ok else
                                                    "strong does NOT meet the bar"))


if __name__ == "__main__":
    main()
