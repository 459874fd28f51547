"""``parlour verify RECORD``: show that a finished game's cards were nobody's choice.

What is checked, in order (``parlour.fairness`` explains the scheme), each one line of the
verdict, the failing check last:

1. the record has a proof (records from before Parlour committed to its seeds have none);
2. the revealed server seed gives the commitment shown before the deal;
3. the server seed with the client seeds gives the game's seed;
4. every pack was dealt from that seed (seeding contract 2, no deck or dealer given by hand);
5. the record replays, every action legal where it stands.

Then each deal's hands, as the seed dealt them, so a person compares them with what they saw:
a server that showed other cards than its seed deals is caught there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .engine import SEEDING, State, Step, replay
from .fairness import Proof, fingerprint
from .records import from_json


@dataclass(frozen=True)
class DealtHands:
    """One deal's hands as they were dealt: ``hands[seat]`` in that seat's order.

    ``how``: "" for a deal's pack, "replayed" for a deal dealt again from the previous pack,
    "a fresh pack" for a pack shuffled within a deal (Le Truc's, when calls run the pack out).
    """

    deal: int
    dealer: int
    hands: list[list[str]]
    how: str = ""


@dataclass
class Verdict:
    """``ok`` once every check passed; ``lines`` says what was checked (the failing check last)."""

    ok: bool = False
    lines: list[str] = field(default_factory=list)
    deals: list[DealtHands] = field(default_factory=list)
    state: State | None = None


def verify(record: dict[str, Any]) -> Verdict:
    """Check a record (as ``parlour export`` writes it) against its proof; see the module docstring."""
    verdict = Verdict()
    say = verdict.lines.append
    if record.get("proof") is None:
        say("This record has no commitment: it was made before Parlour committed to its seeds, or with a "
            "seed given by hand (--seed), so nothing shows that its cards were not chosen.")
        return verdict
    try:
        proof = Proof.from_json(record["proof"])
    except ValueError as exc:
        say(f"Its proof is malformed: {exc}.")
        return verdict
    shown = fingerprint(proof.commitment)
    if not proof.commitment_ok:
        say(f"The revealed server seed does not give the commitment shown before the deal ({shown}): "
            "the server changed its seed.")
        return verdict
    say(f"The commitment shown before the deal ({shown}) matches the revealed server seed.")
    people = sum(1 for s in proof.client_seeds if s)
    if proof.seed != record.get("seed"):
        say("The game's seed is not the one the server seed and the client seeds make: the cards were "
            "not dealt from them.")
        return verdict
    if people:
        said = "1 person's client seed" if people == 1 else f"{people} people's client seeds"
        say(f"The game's seed comes from the server seed and {said}, each chosen by their own browser.")
    else:
        say("The game's seed comes from the server seed alone (no client seeds: a local game).")
    if record.get("seeding") != SEEDING or record.get("deck") is not None or record.get("dealer") is not None:
        say("The first deal was not dealt from that seed (a deck, a dealer or an older seeding was given).")
        return verdict
    try:
        state = from_json(record)
    except ValueError as exc:
        say(f"The record does not replay: {exc}")
        return verdict
    verdict.state = state
    verdict.deals = dealt_hands(state)
    deals = len(verdict.deals)
    say(f"Every pack was dealt from that seed, and the record replays: {deals} deal{'s' if deals != 1 else ''}"
        f"{', the game finished' if state.is_over else ', the game not finished'}.")
    verdict.ok = True
    return verdict


def dealt_hands(state: State) -> list[DealtHands]:
    """Each pack's hands as dealt, by stepping through ``state``'s record (contract 2: shuffles are counted)."""
    walk = state.fresh_copy()
    out: list[DealtHands] = []
    seen: tuple[int, int, int] | None = None

    def look(step: Step | None) -> None:
        """Note the hands of a pack ``walk`` has just dealt (after ``step``, or at the start)."""
        nonlocal seen
        if walk.is_over:
            return
        walk.deal_is_fresh  # noqa: B018 - deals a lazily dealt pack, so that its shuffle is counted
        key = walk.pack_key
        if key == seen:
            return
        replayed = step is not None and step.kind == "replay"
        how = "replayed" if replayed else "" if seen is None or key[:2] != seen[:2] else "a fresh pack"
        seen = key
        hands = [list(walk.view(seat).get("hand", [])) for seat in range(walk.game.num_players)]
        out.append(DealtHands(len(walk.deals) + 1, walk.dealer, hands, how))

    look(None)
    for step in replay(walk, state.actions):
        look(step)
    return out
