"""The frame-leak check's parts, shared by the one-process and the several-process tests: scripted
WebSocket clients that play a table to its end, the table after each action rebuilt from the
record alone, and the check that every frame a client got is its seat's true view.

Why a helper module and not an import of ``test_server`` from another test: importing a test
module inside a running test makes pytest rewrite its assertions then, with the servers' threads
running, and CPython 3.11's AST builder is not safe against that (``SystemError: AST constructor
recursion depth mismatch``, seen in the several-process test).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import websockets

from helpers.web import create
from parlour.bots import make
from parlour.engine import replay
from parlour.records import from_json
from parlour.registry import load
from parlour.search import warm
from parlour.store import open_store
from parlour.table import Table
from parlour.web.reviews import BUSY
from parlour.web.views import public_view, web_keys

CODE = re.compile(r"\b([2-9TJQKA][CDHS])\b")
FACE = re.compile(r"(10|[2-9TJQKA])([\u2663\u2666\u2665\u2660])")
SYMBOL = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


def cards_in(text: str) -> set[str]:
    found = set(CODE.findall(text))
    found |= {("T" if r == "10" else r) + SYMBOL[s] for r, s in FACE.findall(text)}
    return found


class Client:
    """One scripted browser: hello, then move whenever this seat is asked.

    It moves as the easy computer player would from the frame's view (random moves can make a
    Schafkopf game endless: everyone passes, deal after deal).
    """

    REVIEWS = 2  # the deals whose review each person asks for, as they end

    def __init__(self, server: Any, table: str, seat: int | None, token: str | None, seed: int = 0) -> None:
        self.url = f"{server.ws_url}/ws/{table}"
        self.seat, self.token = seat, token
        self.rng = random.Random(seed)
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.errors: list[str] = []
        self.asked = 0  # the last deal whose review was asked for
        self.waiting = False  # a review asked for and not yet here (one at a time)

    @property
    def last_state(self) -> dict[str, Any]:
        """The last table frame this client saw (a review or an error may have come after it)."""
        return next((f for f in reversed(self.frames) if f["type"] == "state"), {})

    async def play(self, until_over: bool = True, max_actions: int = 100_000) -> None:
        async with websockets.connect(self.url) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": self.seat, "token": self.token}))
            acted = -1
            done = 0
            ended = 0  # deals scored so far
            over = False

            async def ask_review() -> None:
                """The next deal's review, once the one asked for before has come (one at a time)."""
                if self.seat is not None and not self.waiting and self.asked < min(ended, self.REVIEWS):
                    self.asked += 1
                    self.waiting = True
                    await ws.send(json.dumps({"type": "review", "deal": self.asked}))

            async for text in ws:
                assert isinstance(text, str)
                self.raw.append(text)
                frame = json.loads(text)
                self.frames.append(frame)
                if frame["type"] == "error" and frame["message"] == BUSY and self.waiting:
                    self.waiting, self.asked = False, self.asked - 1  # the server is busy: ask again soon
                    await asyncio.sleep(0.2)
                    await ask_review()
                    continue
                if frame["type"] == "error":
                    self.errors.append(frame["message"])
                    continue
                if frame["type"] == "review" and frame["status"] == "ready":
                    self.waiting = False
                    await ask_review()
                if over and not self.waiting:  # the game is over and every review asked for has come
                    return
                if frame["type"] != "state":
                    continue
                view = frame["view"]
                ended = frame["deals_scored"]
                await ask_review()
                if view.get("is_over"):
                    over = True
                    if not self.waiting:
                        return
                    continue
                if (self.seat is not None and view["current_player"] == self.seat and not frame["auto"]
                        and frame["count"] > acted):
                    acted = frame["count"]
                    action = make(view["game"], "easy").act(view, self.rng)
                    await ws.send(json.dumps({"type": "act", "action": action}))
                    done += 1
                    if done >= max_actions:
                        return


def stalled(servers: list[Any], table_id: str, clients: list[Client]) -> str:
    """What each side of a stalled table knew when the test gave up, for the failure's message.

    Why: a game through two servers stalled once in CI (a seat on the second server never heard
    of the table's second action), and never in about 140 such games here, loaded or not; the
    next time it happens, this says whether the move was stored, which server's table stayed
    behind, and whether the bus of the server that made it thought nobody else listened
    (``bus.RedisPubSub``).
    """
    row = open_store(servers[0].db).load_web_table(table_id)
    said = [f"stored {None if row is None else row.actions}"]
    for index, server in enumerate(servers):
        tables = server.app.state.parlour["tables"]
        live = tables.live.get(table_id)
        bus = tables.pubsub
        flags = [name for name in ("_subscribed", "_listening", "_alone") if table_id in getattr(bus, name, ())]
        said.append(f"server {index}: " + ("not loaded" if live is None else
                                           f"count {live.count} saved {live.saved} advancing {live.advancing}")
                    + f", bus {flags} joins {getattr(bus, '_joins', {}).get(table_id)}")
    for c in clients:
        frame = c.last_state
        said.append(f"seat {c.seat}: to move {frame.get('view', {}).get('current_player')} auto {frame.get('auto')} "
                    f"then {[f['type'] for f in c.frames[-3:]]}")
    return "; ".join(said)


def replayed(record: dict[str, Any], open_hands: bool = False) -> list[Table]:
    """The table after each action count 0..n, rebuilt from the record alone."""
    state = from_json({**record, "actions": []})
    players: list[Any] = [None] * state.game.num_players
    out = [Table(state.clone(), players, open_hands=open_hands)]
    for _ in replay(state, record["actions"]):
        out.append(Table(state.clone(), players, open_hands=open_hands))
    return out


def play_and_check(servers: list[Any], game: str, humans: int, options: dict[str, Any], seed: int,
                   counts: dict[str, int], per_game: dict[str, int]) -> None:
    """A whole game of ``game`` through ``servers`` (seat ``s``'s person on ``servers[s % len(servers)]``,
    a spectator on the first), every frame to every client checked against the seat's true view."""
    # the reviews the people ask for search: their compiled kernels first, before the game's clock starts
    # (on a fresh clone the suite compiles them as it begins: ``tests/conftest.py``)
    warm.kernels()
    server = servers[0]
    num = load(game).num_players
    seats = [{"kind": "invite"}] * humans + [{"kind": "bot", "level": "easy"}] * (num - humans)
    table = create(server, game, seats, options=options)
    clients = [Client(servers[s % len(servers)], table["id"], s, table["tokens"][s], seed=seed + s)
               for s in range(humans)]
    watcher = Client(server, table["id"], None, None)

    async def run(clients: list[Client] = clients, watcher: Client = watcher) -> None:
        await asyncio.wait_for(asyncio.gather(*(c.play() for c in clients), watcher.play()), timeout=120)

    try:
        asyncio.run(run())
    except TimeoutError:
        last = [(c.seat, c.last_state.get("count")) for c in clients]
        raise AssertionError(f"{game} {options}: the game did not end; last frames {last}; "
                             f"{stalled(servers, table['id'], clients)}") from None
    row = open_store(server.db).load_web_table(table["id"])
    assert row is not None and row.finished, "the game was played to its end and recorded"
    record = json.loads(row.record)
    tables = replayed(record)
    for client in [*clients, watcher]:
        assert not client.errors, client.errors
        known: set[str] = set()
        known_at: list[set[str]] = []
        for t in tables:  # what this seat has been shown up to each action count
            view = t.view(client.seat) if client.seat is not None else public_view(t)
            known |= cards_in(json.dumps(view))
            known_at.append(set(known))
        for text, frame in zip(client.raw, client.frames, strict=True):
            counts["frames"] += 1
            per_game[game] = per_game.get(game, 0) + 1
            if "keys_help" in frame:
                # the same for every table of the game, built without the table: its examples
                # ("X A S: call A♠") name cards that are no one's
                assert frame["keys_help"] == json.loads(json.dumps(web_keys(game)))
                text = json.dumps({k: v for k, v in frame.items() if k != "keys_help"}, ensure_ascii=False)
            # (a table's id is random letters: "…-KD" is no king of diamonds)
            mentioned = cards_in(text.replace(table["id"], ""))
            counts["card_mentions"] += len(mentioned)
            if frame["type"] == "review" and frame["status"] == "ready":
                counts["reviews"] = counts.get("reviews", 0) + 1
                leaked = mentioned - known_at[frame["count"]]
                assert not leaked, f"{game}: seat {client.seat}'s review of deal {frame['deal']} named {leaked}"
                continue
            if frame["type"] != "state":
                assert not mentioned, frame
                continue
            n = frame["count"]
            truth = tables[n]
            expected = truth.view(client.seat) if client.seat is not None else public_view(truth)
            assert frame["view"] == json.loads(json.dumps(expected)), (game, client.seat, n)
            leaked = mentioned - known_at[n]
            assert not leaked, f"{game}: seat {client.seat} was sent {leaked} at action {n}"
    counts["games"] += 1
