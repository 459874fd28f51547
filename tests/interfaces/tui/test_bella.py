"""Clobby's bella at the terminal table: b, then the card's key; the card's key alone plays it plainly."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from helpers.clobby import at_the_bella
from helpers.tui import until
from parlour import registry
from parlour.engine import State
from parlour.store import Store, open_store
from parlour.tui.app import ParlourApp
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


async def sit_down(app: ParlourApp, pilot) -> TableScreen:
    await pilot.pause(0.05)
    await pilot.press(str(registry.names().index("clobby") + 1))
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    table: TableScreen = app.screen  # type: ignore[assignment]
    await until(pilot, lambda: (table.my_turn() and not table.busy) or isinstance(app.screen, DealSummary))
    return table


def saved_store(tmp_path) -> tuple[Store, State]:
    store = open_store(tmp_path / "bella.db")
    state = at_the_bella()
    store.save_game("clobby", state.to_json(), {"level": "easy", "human_seat": 0})
    return store, state


def key_of(table: TableScreen, card: str) -> str:
    return table.hand_keys[table.hand.index(card)]


# -- the terminal table ---------------------------------------------------------------------------------
def at_the_table(tmp_path, scenario: Callable[[Any, TableScreen, State, int], Awaitable[None]]) -> None:
    """Resume the saved bella position at the terminal table (80x24) and run
    ``scenario(pilot, table, game, actions before the human's move)``."""
    store, _ = saved_store(tmp_path)

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            table = await sit_down(app, pilot)
            game = table.table.state
            await scenario(pilot, table, game, len(game.actions))
        store.close()

    asyncio.run(go())


def test_bella_is_b_then_the_card_key_at_the_table(tmp_path) -> None:
    async def scenario(pilot: Any, table: TableScreen, game: State, before: int) -> None:
        queen, club = key_of(table, "QH"), key_of(table, "7C")
        assert queen and club and "b" not in table.hand_keys  # b is never a card's key here
        assert table.buttons == ["QH+bella"] and table.button_keys == ["b" + queen]
        await pilot.press("b")
        assert "Bella with which card?" in table.message and f"{queen.upper()} QH" in table.message
        assert not table.message_is_error and len(game.actions) == before
        await pilot.press("escape")  # Esc cancels: nothing played, the next key is a card key again
        assert "Cancelled" in table.message and table.keyseq.typed == ""
        await pilot.press("b", "z")  # no card has that key: one line, still announcing
        assert table.message_is_error and "not the key of a card" in table.message
        assert table.keyseq.typed == "b" and len(game.actions) == before
        await pilot.press(club)  # a card that may not be played with bella: the engine's reason, one line
        assert table.message_is_error and "\n" not in table.message
        assert "bella is only for the king or queen of trumps" in table.message
        assert len(game.actions) == before and table.keyseq.typed == ""
        await pilot.press("b", queen)
        await until(pilot, lambda: len(game.actions) > before)
        assert game.actions[before] == "QH+bella"

    at_the_table(tmp_path, scenario)


def test_the_card_key_alone_plays_the_card_without_bella(tmp_path) -> None:
    async def scenario(pilot: Any, table: TableScreen, game: State, before: int) -> None:
        await pilot.press("b", "escape", key_of(table, "QH"))  # a started bella, cancelled, then Q♥'s key
        await until(pilot, lambda: len(game.actions) > before)
        assert game.actions[before] == "QH"

    at_the_table(tmp_path, scenario)
