"""Schafkopf ``strong``: the sampler agrees with the view, the solver with the engine, the bot plays legally.

The reference for the solver is a plain game-tree search driven through the real engine
(``state.clone()`` / ``apply`` / the deal summary's scores): no transposition table, no
equivalent cards, no move ordering, only alpha-beta cut-offs (which never change a minimax
value) so that thousands of endgames stay fast.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import parlour
from helpers.inference import deals_in_play, worlds_off_the_rule
from helpers.minimax import engine_minimax
from parlour.bots import make
from parlour.games.schafkopf.bots import EasyBot
from parlour.games.schafkopf.rules import INDEX, ORDER, SLOT
from parlour.games.schafkopf.sampler import Sampler, World, bid_likelihood, pick_up_probability
from parlour.games.schafkopf.solver import (
    RamschSolver,
    SoloSolver,
    action_values,
    position_from_state,
)

GAME = parlour.load("schafkopf")
EASY = EasyBot()


def _value(state: Any, root: int, soloist: int | None) -> float:
    """The deal's value: the soloist's score (solo), or twice ``root``'s margin (Ramsch)."""
    scores = state.deals[0]["scores"]
    if soloist is not None:
        return scores[soloist]
    return 2 * scores[root] - (sum(scores) - scores[root])


def _reference(state: Any, root: int, soloist: int | None) -> float:
    """The deal's value (``_value``) with best play, through the engine: the soloist (or, in a Ramsch,
    ``root``) maximises it, the others minimise it."""
    return engine_minimax(state, soloist if soloist is not None else root, lambda end: _value(end, root, soloist))


def _play_to(seed: int, rng: random.Random, tricks_left: int, cards_in_trick: int) -> Any:
    """A random deal (easy and random moves mixed) played forward to the given point."""
    state = GAME.new_state(seed=seed)
    while not (state.phase == "play" and 10 - len(state.view(0)["tricks"]) == tricks_left
               and len(state.view(0)["trick"]) == cards_in_trick):
        view = state.view(state.current_player)
        action = EASY.act(view, rng) if rng.random() < 0.6 else rng.choice(view["legal_actions"])
        state.apply(action)
    return state


def _check_endgames(count: int, tricks: tuple[int, ...], seed: int) -> int:
    rng = random.Random(seed)
    kinds = set()
    for i in range(count):
        state = _play_to(seed * 100_000 + i, rng, rng.choice(tricks), rng.randrange(3))
        pos = position_from_state(state)
        root = state.current_player
        expected = _reference(state, root, pos.soloist)
        if pos.soloist is None:
            got = RamschSolver(root, pos.dealer, pos.skat).value(pos)
        else:
            got = SoloSolver(pos.soloist).score(pos)
        assert got == expected, (seed, i, pos)
        kinds.add((pos.soloist is None, got))
        if i % 10 == 0:  # the value of every root move, through after() and the equivalent cards
            values = action_values(pos)
            for action in state.legal_actions():
                child = state.clone()
                child.apply(action)
                ref = _reference(child, root, pos.soloist)
                mine = values[action]
                if pos.soloist is None:
                    assert 2 * mine == ref, (seed, i, action)
                else:
                    assert mine == (ref if root == pos.soloist else -ref / 2), (seed, i, action)
    return len(kinds)


def test_solver_matches_engine_minimax_on_small_endgames() -> None:
    # 1200 endgames with 2-3 tricks left, at every point of a trick; solo and Ramsch both occur
    assert _check_endgames(1200, (2, 3), seed=1) >= 6


@pytest.mark.slow
def test_solver_matches_engine_minimax_on_larger_endgames() -> None:
    assert _check_endgames(1500, (3, 4, 5), seed=2) >= 6


def _random_position(i: int, rng: random.Random) -> tuple[Any, int]:
    state = GAME.new_state(seed=i)
    for _ in range(rng.randrange(36)):
        if state.deals:
            break
        view = state.view(state.current_player)
        state.apply(EASY.act(view, rng) if rng.random() < 0.7 else rng.choice(view["legal_actions"]))
    return state, rng.randrange(3)


def test_every_sample_is_consistent_with_the_view() -> None:
    rng = random.Random(7)
    checked = phases = 0
    seen = set()
    for i in range(250):
        state, seat = _random_position(i, rng)
        if state.deals:
            continue
        view = state.view(seat)
        sampler = Sampler(view)
        seen.add((view["phase"], view["soloist"] == seat, view["soloist"] is None))
        for _ in range(4):
            drawn = sampler.draw(rng)
            assert drawn is not None
            world, weight = drawn
            assert 0 < weight <= 1
            rebuilt = GAME.new_state(seed=i, deck=sampler.deck(world), dealer=view["dealer"])
            for action in sampler.actions(world):
                rebuilt.apply(action)  # legal at every step, or this raises
            assert rebuilt.view(seat) == view
            if view["phase"] == "play":
                assert world.position == position_from_state(rebuilt)
            checked += 1
        phases += 1
    assert checked > 600 and len(seen) >= 6


def test_samples_respect_voids_and_vary() -> None:
    """A seat that showed a void never gets that suit back; the hidden cards do move between samples."""
    rng = random.Random(3)
    varied = voided = 0
    for i in range(300):
        state, seat = _random_position(i, rng)
        if state.deals or state.phase != "play":
            continue
        view = state.view(seat)
        sampler = Sampler(view)
        hands = set()
        for _ in range(6):
            world, _ = sampler.draw(rng)
            pos = world.position
            for s in range(3):
                for suit in range(4):
                    if sampler.voids[s] >> suit & 1:
                        voided += 1
                        assert not pos.hands[s] & (0x3FFF if suit == 0 else 0x3F << (8 + 6 * suit))
            hands.add(tuple(pos.hands))
        varied += len(hands) > 1
    assert varied > 50 and voided > 50


def test_bidding_inference_weights() -> None:
    strong = sum(1 << INDEX[c] for c in ("QC", "QS", "QH", "JC", "JS", "AD", "TD", "KD", "AC", "AS"))
    weak = sum(1 << INDEX[c] for c in ("7D", "9C", "8C", "7C", "9S", "8S", "7S", "9H", "8H", "7H"))
    assert pick_up_probability(strong) > 0.5 > pick_up_probability(weak)
    assert bid_likelihood("pass", weak) > bid_likelihood("pass", strong)


def test_strong_plays_whole_deals_legally_and_explains() -> None:
    bot = make("schafkopf", "strong", think=0.0)
    bot.budget.min_samples = bot.slow_budget.min_samples = 1
    rng = random.Random(11)
    phases = set()
    for seed in range(3):
        state = GAME.new_state(seed=seed)
        while not state.deals:
            seat = state.current_player
            view = state.view(seat)
            if seat == seed % 3 or view["phase"] != "play":
                action, reason = bot.explain(view, rng)
                assert action in view["legal_actions"] and reason
                phases.add(view["phase"])
            else:
                action = EASY.act(view, rng)
            state.apply(action)
    assert "bid" in phases and "play" in phases


@pytest.mark.slow
def test_strong_beats_easy() -> None:
    from parlour import arena

    result = arena.run("schafkopf", "strong", "easy", 150, jobs=2, think=0.1)
    assert result.mean > 0, result.table()


def test_the_default_think_is_the_documented_one() -> None:
    from parlour.games.schafkopf.strong import DEFAULT_THINK, SLOW_FACTOR, StrongBot

    bot = make("schafkopf", "strong")
    assert isinstance(bot, StrongBot)
    assert bot.budget.seconds == DEFAULT_THINK == 0.25
    assert bot.slow_budget.seconds == DEFAULT_THINK * SLOW_FACTOR


def test_the_deal_as_dealt_explains_the_easy_players_cards_and_other_deals_need_not() -> None:
    """Inference from the others' cards (``Sampler.play_likelihood``): when every seat plays by the
    easy rule, the real deal explains every card played (likelihood 1), while consistent deals the
    sampler draws may give a seat a hand with which that rule would have played otherwise."""
    rng = random.Random(5)
    truths = below = 0
    for deck, dealer, state in deals_in_play(GAME, list(ORDER), EASY, rng):
        soloist = state.view(0)["soloist"]
        view = state.view(soloist if soloist is not None else dealer)  # a seat that knows the discard, if any
        owner = {0: (dealer + 1) % 3, 1: (dealer + 2) % 3, 2: dealer, 3: 3}  # SLOT's buckets; 3: the skat
        dealt = [0, 0, 0, 0]
        for code, slot in zip(deck, SLOT, strict=True):
            dealt[owner[slot]] |= 1 << INDEX[code]
        truth = World(dealt[:3], dealt[3], [INDEX[c] for c in view["discard"] or []], None)
        below += worlds_off_the_rule(Sampler(view), truth, rng)
        truths += 1
    assert truths >= 10 and below > 0


@pytest.fixture
def solves(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, int]]:
    """(a solo?, the tricks left) at each solve the strong player asks for, in order."""
    from parlour.games.schafkopf import strong as S

    solved: list[tuple[bool, int]] = []
    real = S.position_value

    def spy(pos: Any, seat: int) -> float:
        solved.append((pos.soloist is not None, 10 - sum(pos.tricks)))
        return real(pos, seat)

    monkeypatch.setattr(S, "position_value", spy)
    return solved


def test_a_bid_and_a_discard_solve_each_deal_from_its_first_card_and_wait_for_no_compilation(
        monkeypatch: pytest.MonkeyPatch, solves: list[tuple[bool, int]]) -> None:
    """On the compiled core a bid's and a discard's options are each solved from the deal's first card,
    a solo's and a Ramsch's (all passed) alike; on the Python path (the core still being prepared) they
    are played out to ``EXACT_SOLO`` / ``EXACT_RAMSCH`` tricks left, so that no decision waits there."""
    from parlour.games.schafkopf import strong as S
    from parlour.search import warm

    bid = GAME.new_state(seed=3)
    discard = GAME.new_state(seed=3)
    discard.apply("pick-up")
    assert discard.phase == "discard"
    bot = S.StrongBot.counted(1, 4)
    bot.ramsch_nodes = None  # as in play: no bound on a Ramsch's solve
    for compiled in (True, False):
        monkeypatch.setattr(warm, "compiled", lambda compiled=compiled: compiled)
        for state in (bid, discard):
            solves.clear()
            view = state.view(state.current_player)
            assert bot.decide(view, random.Random(1)).action in view["legal_actions"]
            solos = {left for solo, left in solves if solo}
            ramsch = {left for solo, left in solves if not solo}
            assert solos, (state.phase, solves)
            assert solos == {10} if compiled else max(solos) <= S.EXACT_SOLO, (state.phase, solves)
            if state is bid:  # passing there ends in a Ramsch in some sample
                assert ramsch == {10} if compiled else ramsch and max(ramsch) <= S.EXACT_RAMSCH, solves
            else:  # after a pick-up there is no Ramsch
                assert not ramsch, solves


def test_a_reviews_whole_ramsch_past_its_node_bound_is_played_out(solves: list[tuple[bool, int]]) -> None:
    """A review's player (``counted``) bounds a whole Ramsch's solve by ``REVIEW_RAMSCH_NODES``: within
    it the Ramsch is solved from its first card, past it the deal is played out to ``EXACT_RAMSCH``
    tricks left (a review has no clock to cut a slow solve short)."""
    from parlour.games.schafkopf import strong as S
    from parlour.search import warm

    warm.kernels()  # the session's compile, waited for: skipped only where nothing compiles
    if not warm.compiled():
        pytest.skip("a whole Ramsch is solved on the compiled core only")
    bid = GAME.new_state(seed=3)
    view = bid.view(bid.current_player)
    bot = S.StrongBot.counted(1, 4)
    assert bot.ramsch_nodes == S.REVIEW_RAMSCH_NODES
    bot.ramsch_nodes = 10 ** 9
    bot.decide(view, random.Random(1))
    assert (False, 10) in solves and all(left == 10 for _, left in solves), solves
    solves.clear()
    bot.ramsch_nodes = 1  # no Ramsch can be solved so cheaply from its first card
    bot.decide(view, random.Random(1))
    ramsch = [left for solo, left in solves if not solo]
    assert 10 in ramsch, solves  # each whole Ramsch is tried, and cut short
    assert any(left <= S.EXACT_RAMSCH for left in ramsch), solves


def test_a_samples_solves_stop_at_the_deadline_once_the_minimum_of_samples_is_in(
        solves: list[tuple[bool, int]]) -> None:
    """``Pimc.bounded``, as the bids use it: a bid's sample solves each option's deal from its first card (a
    solo's, or a Ramsch's when all pass); once the bid has its minimum of samples and its deadline has passed,
    those solves are stopped at once and the sample given up (None), so a decision never waits past its
    budget for a slow solve.  Before the minimum, or with no deadline, they are never stopped."""
    from parlour.games.schafkopf import strong as S
    from parlour.search import warm
    from parlour.search.pimc import Pimc

    warm.kernels()  # the session's compile, waited for: skipped only where nothing compiles
    if not warm.compiled():
        pytest.skip("a bid's deals are solved whole on the compiled core only")
    bid = GAME.new_state(seed=3)
    view = bid.view(bid.current_player)
    bot = S.StrongBot()
    sampler = Sampler(view)
    rng = random.Random(5)
    worlds = [w for w in (sampler.draw(rng) for _ in range(8)) if w is not None]
    pimc = Pimc(sampler.draw, lambda w: None, bot.slow_budget, clock=lambda: 100.0)
    # stopped first: a deal solved once is answered from the table after (at once, and never stopped)
    for samples, deadline, stopped in ((bot.slow_budget.min_samples, 99.0, True), (0, 99.0, False),
                                       (bot.slow_budget.min_samples, math.inf, False)):
        pimc.samples, pimc.deadline = samples, deadline
        given_up = 0
        for world, _ in worlds:
            solves.clear()
            got = pimc.bounded(lambda world=world: bot._bid_values(sampler, world, view["seat"], rng))
            assert (10 in {left for _, left in solves}) if got is None else got.keys() == {"pick-up", "pass"}
            given_up += got is None
        assert given_up == (len(worlds) if stopped else 0), (samples, deadline)
