"""``parlour verify`` and the commit-and-reveal proof (parlour.fairness), for every game.

Local games (line mode, the terminal table, demos) record the same proof as the browser tables,
with empty client seeds; a record whose deals, seeds or proof were changed fails, and says why.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import parlour
from parlour.bots import make
from parlour.cli import main
from parlour.fairness import Proof, client_seed, commitment, committed_state, game_seed, new_client_seed
from parlour.saves import open_game
from parlour.store import open_store
from parlour.verify import verify

GAMES = ["clobby", "sixbid", "schafkopf", "truc", "gops"]


def played(name: str, client_seeds: list[str] | None = None, deals: int = 3) -> dict[str, Any]:
    """A committed game played by easy players for a few deals (or to its end), as its record."""
    game = parlour.load(name)
    state = committed_state(game, client_seeds)
    bots = [make(name, "easy") for _ in range(game.num_players)]
    rng = random.Random(7)
    while not state.is_over and len(state.deals) < deals:
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat), rng))
    record: dict[str, Any] = json.loads(state.to_json())
    return record


def test_the_formulas_are_the_issues_own() -> None:
    assert commitment(5) == hashlib.sha256(b"parlour-commit 5").hexdigest()
    seeds = ["ab" * 16, "", "cd" * 16]
    digest = hashlib.sha256(b"parlour-game 5 " + ("ab" * 16 + ",," + "cd" * 16).encode()).digest()
    assert game_seed(5, seeds) == int.from_bytes(digest, "big")
    assert len(new_client_seed()) == 32 and client_seed("AB" * 16) == "ab" * 16
    for bad in ("", "ab", "zz" * 16, 5, None):
        with pytest.raises(ValueError, match="client seed"):
            client_seed(bad)


@pytest.mark.parametrize("name", GAMES)
def test_a_committed_game_of_every_game_verifies_and_shows_its_deals(name: str) -> None:
    record = played(name, [new_client_seed()] + [""] * (parlour.load(name).num_players - 1))
    verdict = verify(record)
    assert verdict.ok, verdict.lines
    assert verdict.state is not None
    state = verdict.state  # every scored deal, and the one dealt after the last of them unless the game is over
    assert [d.deal for d in verdict.deals if not d.how] == list(range(1, len(state.deals) + 1 + (not state.is_over)))
    first = parlour.load(name).new_state(seed=record["seed"])
    assert verdict.deals[0].hands == [first.view(s)["hand"] for s in range(first.game.num_players)]
    assert "1 person's client seed" in " ".join(verdict.lines)


def tampered() -> list[tuple[str, Any, str]]:
    def seed(r: dict[str, Any]) -> None:
        r["seed"] += 1

    def server_seed(r: dict[str, Any]) -> None:
        r["proof"]["server_seed"] += 1

    def client(r: dict[str, Any]) -> None:
        r["proof"]["client_seeds"][0] = new_client_seed()

    def deck(r: dict[str, Any]) -> None:
        state = parlour.from_json({**r, "actions": []})
        pack = state.current_pack()
        pack[0], pack[1] = pack[1], pack[0]  # two cards swapped in the first deal
        r["deck"], r["dealer"] = pack, state.dealer

    def seeding(r: dict[str, Any]) -> None:
        del r["seeding"]  # dealt as an old record would be: other cards from the same seed

    def proofless(r: dict[str, Any]) -> None:
        del r["proof"]

    def action(r: dict[str, Any]) -> None:
        r["actions"][0] = "#replay-deal"

    return [("seed", seed, "not the one"), ("server seed", server_seed, "does not give the commitment"),
            ("client seed", client, "not the one"), ("deck", deck, "not dealt from that seed"),
            ("seeding", seeding, "not dealt from that seed"), ("no proof", proofless, "no commitment"),
            ("actions", action, "does not replay")]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(("what", "change", "said"), tampered(), ids=[t[0] for t in tampered()])
def test_a_record_whose_deals_or_seeds_were_changed_fails(name: str, what: str, change: Any, said: str) -> None:
    record = played(name, deals=1)
    changed = copy.deepcopy(record)
    change(changed)
    verdict = verify(changed)
    assert not verdict.ok and said in verdict.lines[-1], (what, verdict.lines)


def test_parlour_verify_says_what_it_checked_and_exits_by_the_verdict(tmp_path: Path, capsys: Any) -> None:
    good = tmp_path / "good.json"
    assert main(["demo", "truc", "--deals", "2", "--record", str(good)]) == 0
    capsys.readouterr()
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "matches the revealed server seed" in out and "Deal 1 (dealer " in out and out.endswith(
        "Verified: nobody chose these cards.\n")
    bad = tmp_path / "bad.json"
    record = json.loads(good.read_text())
    record["proof"]["server_seed"] ^= 1
    bad.write_text(json.dumps(record))
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "does not give the commitment" in out and out.endswith("Not verified.\n")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main(["verify", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "not a valid game record" in err and "Traceback" not in err


def test_a_record_with_a_seed_given_by_hand_says_it_has_no_commitment(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "seeded.json"
    assert main(["demo", "gops", "--seed", "5", "--record", str(path)]) == 0
    capsys.readouterr()
    assert main(["verify", str(path)]) == 1
    assert "no commitment" in capsys.readouterr().out


@pytest.mark.parametrize("name", GAMES)
def test_a_local_game_records_the_proof_with_empty_client_seeds(tmp_path: Path, name: str) -> None:
    store = open_store(tmp_path / "local.db")
    try:
        opening = open_game(store, name, {}, fresh=True)
        proof = Proof.from_json(opening.state.proof)
        assert proof.client_seeds == ("",) * opening.state.game.num_players
        assert proof.commitment_ok and proof.seed == opening.state.seed
        again = parlour.from_json(opening.state.to_json())
        assert again.proof == opening.state.proof and again.fresh_copy().proof == opening.state.proof
        assert verify(json.loads(opening.state.to_json())).ok
        opening.release()
    finally:
        store.close()


@pytest.mark.parametrize("bad", [{"commitment": "x"}, {"commitment": "0" * 64, "server_seed": -1, "client_seeds": []},
                                 {"commitment": "0" * 64, "server_seed": 1, "client_seeds": ["nothex"]}, [1], "p"])
def test_a_malformed_proof_makes_a_malformed_record(bad: Any) -> None:
    record = json.loads(parlour.load("gops").new_state(seed=1).to_json())
    record["proof"] = bad
    with pytest.raises(ValueError, match="not a game record"):
        parlour.from_json(record)
