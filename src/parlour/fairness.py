"""Proof that nobody chose the cards: the commit-and-reveal scheme of "provably fair" card sites.

Why: people who play others through a server want to know that the server, or whoever runs
it, did not stack the deck.  So the server draws a secret ``server_seed`` and shows its
commitment, ``sha256(b"parlour-commit %d" % server_seed)``, before anyone sees a card; each
person's browser adds a client seed of its own (32 hex digits) as they take their seat; the
game's seed is ``sha256(b"parlour-game %d " % server_seed + b",".join(client seeds in seat
order))``, so neither side alone chooses it, and every pack follows from it by the engine's
seeding contract (``engine.deal_rng``).  When the game is over the server seed is revealed and
``parlour verify RECORD`` checks the whole chain (``parlour.verify``).

A local game (line mode, the terminal table, a demo) records the same proof with every client
seed empty, so any record made from now on can be verified.  Computer seats, seats never taken
and a takeover player contribute the empty string.

The proof travels in the game's record as ``"proof"`` (``Proof.to_json``/``Proof.from_json``, a
value pair as python-chess's moves have): the engine only carries it.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .echo import shorten
from .engine import Game, State, new_seed

SERVER_SEED_BITS = 128
#: A client seed: 32 hex digits (128 bits from the browser's ``crypto.getRandomValues``), or empty.
CLIENT_SEED = re.compile(r"(?:[0-9a-f]{32})?")
_HEX64 = re.compile(r"[0-9a-f]{64}")


def commitment(server_seed: int) -> str:
    """What the server shows before the deal: ``sha256(b"parlour-commit %d" % server_seed)``, in hex."""
    return hashlib.sha256(b"parlour-commit %d" % server_seed).hexdigest()


def game_seed(server_seed: int, client_seeds: Sequence[str]) -> int:
    """The game's seed from the server's seed and the people's client seeds, in seat order."""
    joined = b",".join(seed.encode("ascii") for seed in client_seeds)
    return int.from_bytes(hashlib.sha256(b"parlour-game %d " % server_seed + joined).digest(), "big")


def fingerprint(commit: str) -> str:
    """The commitment as people compare it at a glance: its first 16 hex digits in fours."""
    return " ".join(commit[i:i + 4] for i in range(0, 16, 4))


def client_seed(text: object) -> str:
    """A client seed as a browser sent it (lower case); ``ValueError`` for anything but 32 hex digits."""
    if not isinstance(text, str) or not CLIENT_SEED.fullmatch(text.lower()) or not text:
        raise ValueError(f"a client seed is 32 hex digits, not {shorten(text)}")
    return text.lower()


def new_client_seed() -> str:
    """A client seed as a browser makes one (for scripted clients and tests)."""
    return secrets.token_hex(16)


@dataclass(frozen=True)
class Proof:
    """How a game's seed was made: the server's seed, the client seeds, the commitment shown first.

    ``commitment`` is the one the record states (shown before the deal); ``commitment_ok`` and
    ``seed`` recompute what it should be, so a tampered record can be told from a fair one.
    """

    server_seed: int
    client_seeds: tuple[str, ...]
    commitment: str

    @classmethod
    def made(cls, server_seed: int, client_seeds: Sequence[str]) -> Proof:
        """The proof of this server seed (with its commitment) and these client seeds."""
        return cls(server_seed, tuple(client_seeds), commitment(server_seed))

    @classmethod
    def draw(cls, client_seeds: Sequence[str]) -> Proof:
        """A new secret server seed and its commitment, with these client seeds."""
        return cls.made(new_seed(), client_seeds)

    @property
    def commitment_ok(self) -> bool:
        return secrets.compare_digest(commitment(self.server_seed), self.commitment)

    @property
    def seed(self) -> int:
        """The game's seed these seeds make."""
        return game_seed(self.server_seed, self.client_seeds)

    def to_json(self) -> dict[str, Any]:
        return {"commitment": self.commitment, "server_seed": self.server_seed,
                "client_seeds": list(self.client_seeds)}

    @classmethod
    def from_json(cls, data: object) -> Proof:
        """A record's ``"proof"``, checked for shape only (``ValueError`` says what is wrong)."""
        if not isinstance(data, dict) or set(data) != {"commitment", "server_seed", "client_seeds"}:
            raise ValueError("a proof has exactly a commitment, a server seed and the client seeds")
        server_seed, seeds, commit = data["server_seed"], data["client_seeds"], data["commitment"]
        if isinstance(server_seed, bool) or not isinstance(server_seed, int) \
                or not 0 <= server_seed < 2**SERVER_SEED_BITS:
            raise ValueError(f"a proof's server seed is a whole number of {SERVER_SEED_BITS} bits, "
                             f"not {shorten(server_seed)}")
        if not isinstance(seeds, list) or len(seeds) > 16 \
                or not all(isinstance(s, str) and CLIENT_SEED.fullmatch(s) for s in seeds):
            raise ValueError("a proof's client seeds are a short list of 32 hex digits or empty texts each")
        if not isinstance(commit, str) or not _HEX64.fullmatch(commit):
            raise ValueError(f"a proof's commitment is 64 hex digits, not {shorten(commit)}")
        return cls(server_seed, tuple(seeds), commit)


def proven_state(game: Game, proof: Proof) -> State:
    """A new game dealt from the seed ``proof`` makes, which its record carries."""
    state = game.new_state(seed=proof.seed)
    state.proof = proof.to_json()
    return state


def committed_state(game: Game, client_seeds: Sequence[str] | None = None) -> State:
    """A new game whose seed comes from a fresh proof (a local game: every client seed empty)."""
    seeds = [""] * game.num_players if client_seeds is None else list(client_seeds)
    return proven_state(game, Proof.draw(seeds))


def new_local_state(game: Game, seed: int | None = None) -> State:
    """A local game (line mode, the terminal table, a demo): a committed seed, unless one is asked for.

    A seed given by hand (``--seed``) is the player's own choice and carries no proof.
    """
    return committed_state(game) if seed is None else game.new_state(seed=seed)
