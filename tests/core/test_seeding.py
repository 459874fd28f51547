"""The seeding contract (DESIGN.md, engine.py): secret seeds, a generator per shuffle, old records.

The expected packs are computed here from the contract's own words (hashlib and
``random.Random``), as an outside check would, never through the engine's helpers.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

import parlour
from parlour.bots import make
from parlour.engine import REPLAY_DEAL, bot_rng, deal_rng
from parlour.table import Table

OLD_RECORDS = sorted((Path(__file__).parent / "data" / "seeding1").glob("*.json"))


def outside_rng(seed: int, k: int) -> random.Random:
    digest = hashlib.sha256(b"parlour-deal %d %d" % (seed, k)).digest()
    return random.Random(int.from_bytes(digest, "big"))


def outside_pack(game: parlour.Game, seed: int, k: int) -> list[str]:
    """The k-th pack; for k = 0 the first dealer is drawn first (none was given)."""
    rng = outside_rng(seed, k)
    if k == 0:
        rng.randrange(game.num_players)
    pack = list(game.PACK)
    rng.shuffle(pack)
    return pack


def play_until(state: parlour.State, deals: int, moves: random.Random) -> None:
    while len(state.deals) < deals and not state.is_over:
        state.apply(moves.choice(state.legal_actions()))


@pytest.mark.parametrize("name", parlour.names())
def test_the_first_dealer_and_pack_come_from_the_kth_derived_generator(name):
    game = parlour.load(name)
    for seed in (0, 1, -5, 2**127 + 3, 10**70):
        state = game.new_state(seed=seed)
        rng = outside_rng(seed, 0)
        dealer = rng.randrange(game.num_players)
        pack = list(game.PACK)
        rng.shuffle(pack)
        assert state.current_pack() == pack
        if game.HAS_DEALER:
            assert state.dealer == dealer
        assert json.loads(state.to_json())["seeding"] == 2


@pytest.mark.parametrize("name", ["clobby", "sixbid", "schafkopf", "truc"])
def test_every_later_pack_takes_the_next_k_even_after_a_given_deck(name):
    game = parlour.load(name)
    for seed in range(6):
        given = list(reversed(game.PACK))
        for deck in (None, given):
            state = game.new_state(seed=seed, deck=deck, dealer=0 if deck else None)
            moves = random.Random(seed)
            play_until(state, 1, moves)
            if state.is_over:
                continue
            # k = 0 was the first deal's pack (given or not); no fresh pack within a trick-game deal here
            pack = state.current_pack()  # (deals a lazily dealt pack first)
            assert pack == outside_pack(game, seed, state._shuffles - 1)
            assert state.current_pack() != (given if deck else outside_pack(game, seed, 0))


def test_le_trucs_fresh_pack_within_a_deal_takes_a_k_of_its_own():
    game = parlour.load("truc")
    for seed in range(200):
        state = game.new_state(seed=seed)
        moves = random.Random(seed)
        while not state.is_over and len(state.deals) < 1:
            legal = state.legal_actions()
            calls = [a for a in legal if a in ("call", "accept")]
            state.apply(calls[0] if calls and moves.random() < 0.9 else moves.choice(legal))
        if state.is_over or state.deals[0].get("passes", 0) == 0:
            continue
        # deal 1 ran its pack out once or more: those packs took k = 1.., so deal 2 is dealt from the next one
        fresh = state.deals[0]["passes"]
        assert state.current_pack() == outside_pack(game, seed, 1 + fresh)
        return
    pytest.fail("no seed ran Le Truc's pack out")


@pytest.mark.parametrize("name", ["clobby", "sixbid", "schafkopf", "truc"])
def test_a_replayed_deal_takes_no_k_and_the_replaced_one_keeps_its_own(name):
    game = parlour.load(name)
    state = game.new_state(seed=11)
    moves = random.Random(3)
    play_until(state, 1, moves)
    assert state.current_pack() == outside_pack(game, 11, 1)
    state.replay_deal()  # deal 2 is deal 1's pack again; the pack of k = 1 is used up
    assert state.current_pack() == outside_pack(game, 11, 0)
    play_until(state, 2, moves)
    if not state.is_over:
        pack = state.current_pack()
        assert pack == outside_pack(game, 11, state._shuffles - 1)
        assert state._shuffles >= 3
    again = parlour.from_json(state.to_json())
    assert again.current_pack() == state.current_pack() and again.view(0) == state.view(0)


@pytest.mark.parametrize("name", ["clobby", "schafkopf"])
def test_an_undo_brings_back_the_same_next_pack(name):
    game = parlour.load(name)
    state = game.new_state(seed=21)
    moves = random.Random(5)
    play_until(state, 1, moves)
    state.apply(state.legal_actions()[0])
    state.undo(1)
    play_until(state, 2, moves)
    if not state.is_over:
        pack = state.current_pack()
        assert pack == outside_pack(game, 21, state._shuffles - 1)


def test_a_seed_the_program_picks_has_128_secret_bits():
    game = parlour.load("gops")
    seeds = {game.new_state().seed for _ in range(64)}
    assert len(seeds) == 64
    assert max(s.bit_length() for s in seeds) > 120
    assert all(0 <= s < 2**128 for s in seeds)


def test_deal_rng_and_bot_rng_are_the_contracts_derivations():
    assert deal_rng(7, 3).getstate() == outside_rng(7, 3).getstate()
    digest = hashlib.sha256(b"parlour-bot %d %d" % (7, 3)).digest()
    assert bot_rng(7, 3).getstate() == random.Random(int.from_bytes(digest, "big")).getstate()


def test_a_tables_computer_draws_from_the_bot_derivation_never_a_deals_generator():
    game = parlour.load("gops")
    state = game.new_state(seed=99)

    class Spy:
        def __init__(self) -> None:
            self.states: list[object] = []

        def act(self, view, rng):
            self.states.append(rng.getstate())
            return view["legal_actions"][0]

    spy = Spy()
    table = Table(state, [spy, make("gops", "random")])  # type: ignore[list-item]
    table.step_bot()
    assert spy.states == [bot_rng(99, 0).getstate()]
    assert spy.states[0] != outside_rng(99, 0).getstate()


@pytest.mark.parametrize("path", OLD_RECORDS, ids=[p.stem for p in OLD_RECORDS])
def test_records_saved_before_the_seeding_version_replay_exactly(path):
    """Made by the engine of commit 2ca6d23 (contract 1), with undos and replayed deals."""
    saved = json.loads(path.read_text())
    state = parlour.from_json(saved["record"])
    expect = saved["expect"]
    assert "seeding" not in saved["record"] and state.seeding == 1
    assert state.scores == expect["scores"]
    assert json.loads(json.dumps(state.deals)) == expect["deals"]
    assert state.current_pack() == expect["pack"] and state.dealer == expect["dealer"]
    assert state.deals_dealt == expect["deals_dealt"]
    assert [json.loads(json.dumps(state.view(s))) for s in range(state.game.num_players)] == expect["views"]
    again = json.loads(state.to_json())
    assert "seeding" not in again  # it stays an old record: it replays the same way again
    assert parlour.from_json(again).view(0) == state.view(0)


def test_every_game_has_an_old_record_and_one_replays_deals_and_undos():
    games = {json.loads(p.read_text())["record"]["game"] for p in OLD_RECORDS}
    assert games == set(parlour.names()[:5])
    actions = [a for p in OLD_RECORDS for a in json.loads(p.read_text())["record"]["actions"]]
    assert REPLAY_DEAL in actions and any(a.startswith("#undo ") for a in actions)


@pytest.mark.parametrize("bad", [0, 3, "2", 2.0, True, None, [2]])
def test_a_record_with_an_unknown_seeding_is_refused(bad):
    record = json.loads(parlour.load("gops").new_state(seed=1).to_json())
    record["seeding"] = bad
    with pytest.raises(ValueError, match="seeding"):
        parlour.from_json(record)
