"""Undo and hint at the terminal table, at 80x24."""

from __future__ import annotations

import asyncio

from parlour import registry
from parlour.engine import effective_actions


def test_a_tui_undo_and_hint_at_80x24(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")
    from parlour.store import open_store
    from parlour.tui.app import ParlourApp
    from parlour.tui.screens.table import TableScreen

    store = open_store(tmp_path / "t.db")

    async def until(pilot, predicate) -> None:
        for _ in range(3000):
            if predicate():
                return
            await pilot.pause(0.01)
        raise AssertionError("timed out")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=4)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.05)
            await pilot.press(str(registry.names().index("schafkopf") + 1))
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            table: TableScreen = app.screen  # type: ignore[assignment]
            await until(pilot, lambda: table.my_turn() and not table.busy)
            state = table.table.state
            before = list(effective_actions(state.actions))
            await pilot.press("full_stop")  # the hint is shown first...
            await until(pilot, lambda: table.hint_shown is not None)
            assert table.message.startswith("Hint: ") and list(effective_actions(state.actions)) == before
            hinted = table.hint_shown[1]
            await pilot.press("full_stop")  # ...and played by . again
            await until(pilot, lambda: len(effective_actions(state.actions)) > len(before))
            assert effective_actions(state.actions)[len(before)] == hinted
            await until(pilot, lambda: table.my_turn() and not table.busy or state.deals != [])
            if state.deals:
                return
            await pilot.press("U")
            assert effective_actions(state.actions) == before, table.message
            assert "taken back" in table.message
            await pilot.press("u")  # lower case too: Schafkopf uses no U for a choice
            assert "Cannot undo" in table.message
        store.close()

    asyncio.run(go())
