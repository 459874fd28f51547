"""Issue 25, point 9: every dialog scrolls and fits 80×24; the Six-Bid panel and the footer are whole.

``?`` lists more keys than 24 lines hold, so each box's body scrolls (↑/↓, PgUp/PgDn) while the box,
its border and its keys line stay on screen; the game panel and the footer fit 80×24 whole, and a
larger terminal gets the wide layout back.
"""

from __future__ import annotations

import asyncio

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Footer

from helpers.tui import until
from parlour import registry
from parlour.store import open_store
from parlour.tui.app import ParlourApp
from parlour.tui.screens.dialogs import Note, Sheet
from parlour.tui.screens.stats import StatsScreen
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen

SIZE = (80, 24)
PARTS = ("#title", "#seats", "#trick", "#log", "#info", "#prompt", "#actions", "#hand", "Footer")


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


async def sit_down(app: ParlourApp, pilot, game: str) -> TableScreen:
    await pilot.pause(0.05)
    await pilot.press(str(registry.names().index(game) + 1))
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    table: TableScreen = app.screen  # type: ignore[assignment]
    await until(pilot, lambda: table.my_turn() and not table.busy)
    return table


async def scrolls_to_its_end_on_screen(app: ParlourApp, pilot, sheet: Sheet) -> None:
    """The whole box is on screen and its body scrolls to the last line with PgDn, back with ↑."""
    await pilot.pause(0.05)
    screen = sheet.region
    box = sheet.query_one("Vertical")
    assert screen.contains_region(box.region), box.region
    keys = sheet.query_one(".sheet-keys")
    assert keys.region.height > 0 and box.region.contains_region(keys.region)
    body = sheet.query_one(".sheet-body", VerticalScroll)
    assert body.max_scroll_y > 0, "the body is taller than the screen"
    for _ in range(body.max_scroll_y):
        if body.scroll_y >= body.max_scroll_y:
            break
        await pilot.press("pagedown")
        await pilot.pause(0.02)
    assert body.scroll_y == body.max_scroll_y
    await pilot.press("up")
    await pilot.pause(0.02)
    assert body.scroll_y == body.max_scroll_y - 1 and app.screen is sheet


@pytest.mark.parametrize("game", ["clobby", "sixbid", "schafkopf", "truc", "gops"])
def test_the_key_list_scrolls_and_fits_80x24_in_every_game(tmp_path, game: str) -> None:
    store = open_store(tmp_path / "help.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=5)
        async with app.run_test(size=SIZE) as pilot:
            table = await sit_down(app, pilot, game)
            footer = table.query_one(Footer)
            assert footer.virtual_size.width <= SIZE[0], "every F-key of the footer on screen"
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, Note))
            note = app.screen
            assert isinstance(note, Note)
            if game in ("clobby", "sixbid", "truc"):  # the longest key lists
                await scrolls_to_its_end_on_screen(app, pilot, note)
            else:
                assert note.region.contains_region(note.query_one("Vertical").region)
        store.close()

    asyncio.run(go())


def test_every_box_to_read_scrolls_and_fits_80x24(tmp_path) -> None:
    store = open_store(tmp_path / "boxes.db")
    for i in range(30):  # thirty finished games: a statistics box longer than the screen
        state = registry.load("gops").new_state(seed=i)
        while not state.is_over:
            state.apply(state.legal_actions()[0])
        store.finish_game("gops", state.to_json(), "easy", 0, state.winner, state.scores)
    long = [f"line {i}: one of a summary longer than the screen" for i in range(40)]

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.05)
            for sheet in (Note("A long note", "\n".join(long)),
                          DealSummary("Deal 1 over", long, game_over=False, four_colour=False),
                          StatsScreen(store)):
                app.push_screen(sheet)
                await until(pilot, lambda s=sheet: app.screen is s)  # type: ignore[misc]
                await scrolls_to_its_end_on_screen(app, pilot, sheet)
                sheet.dismiss(None)  # type: ignore[arg-type]
                await until(pilot, lambda s=sheet: app.screen is not s)  # type: ignore[misc]
        store.close()

    asyncio.run(go())


def test_the_six_bid_panel_fits_80x24_and_a_larger_terminal_gets_its_layout_back(tmp_path) -> None:
    store = open_store(tmp_path / "panel.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=5)
        async with app.run_test(size=(120, 40)) as pilot:
            table = await sit_down(app, pilot, "sixbid")
            await pilot.pause(0.05)
            wide = {part: table.query_one(part).region for part in PARTS}
            await pilot.resize_terminal(*SIZE)
            for _ in range(8):  # the bidding, the contract and the first tricks: the panel grows
                await until(pilot, lambda: table.my_turn() and not table.busy or isinstance(app.screen, DealSummary))
                if isinstance(app.screen, DealSummary):
                    break
                await pilot.pause(0.05)
                info = table.query_one("#info")
                area = info.content_region
                needed = info.get_content_height(area.size, table.size, area.width)
                assert needed <= area.height and table.region.contains_region(info.region), info.render()
                assert table.query_one(Footer).virtual_size.width <= SIZE[0]
                await pilot.press("full_stop", "full_stop")
            while isinstance(app.screen, DealSummary):
                await pilot.press("enter")
                await pilot.pause(0.05)
            await until(pilot, lambda: table.my_turn() and not table.busy)
            await pilot.resize_terminal(120, 40)
            await pilot.pause(0.1)
            back = {part: table.query_one(part).region for part in PARTS}
            for part in ("#title", "#seats", "#trick", "#hand", "Footer"):
                assert back[part] == wide[part], part
            assert back["#info"][:3] == wide["#info"][:3]  # its height follows its lines
            assert table.has_class("-wide") and table.has_class("-tall")
        store.close()

    asyncio.run(go())
