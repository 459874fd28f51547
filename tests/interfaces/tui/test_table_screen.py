"""The terminal table screen: calling a card by its keys, no notice over a hand, Le Truc's score line,
the log (one discard announcement, wrapping again on resize), the title after GOPS, dialogs without backticks."""

from __future__ import annotations

import asyncio
import random

import pytest

import parlour
from helpers.sixbid import sixbid_at_the_call
from helpers.tui import until
from parlour import registry
from parlour.cards import face
from parlour.store import open_store
from parlour.text import (
    standing_line,
)
from parlour.tui.app import ParlourApp
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen
from parlour.tui.widgets.hand import HandView


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


def key_of(game: str) -> str:
    return str(registry.names().index(game) + 1)


async def sit_down(app: ParlourApp, pilot, game: str) -> TableScreen:
    await pilot.pause(0.05)
    await pilot.press(key_of(game))
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    table: TableScreen = app.screen  # type: ignore[assignment]
    await until(pilot, lambda: (table.my_turn() and not table.busy) or isinstance(app.screen, DealSummary))
    return table


def test_calling_a_card_by_its_keys_at_the_table(tmp_path) -> None:
    store = open_store(tmp_path / "call.db")
    state = sixbid_at_the_call(2)
    store.save_game("sixbid", state.to_json(), {"level": "easy", "human_seat": 0})
    held = state.view(0)["hand"][0]
    target = state.legal_actions()[-1]  # some card North does not hold

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            table = await sit_down(app, pilot, "sixbid")
            game = table.table.state
            before = len(game.actions)
            assert table.button_keys == ["x" + a.split()[1].lower() for a in table.buttons]
            await pilot.press("x")
            assert "which card" in table.message and not table.message_is_error
            await pilot.press("z")  # not a rank: one line, nothing played, still calling
            assert table.message_is_error and "not a rank" in table.message and len(game.actions) == before
            await pilot.press(*held.lower())  # a card North holds: the engine's reason, in one line
            assert table.message_is_error and "you hold" in table.message and "\n" not in table.message
            assert len(game.actions) == before
            await pilot.press("x", *target.split()[1].lower())
            await until(pilot, lambda: len(game.actions) > before)
            assert game.actions[before] == target
        store.close()

    asyncio.run(go())


# -- 2. no toast over the hand ------------------------------------------------------------------
def uncovered(app: ParlourApp, table: TableScreen) -> None:
    """Every cell of the hand's card labels is the hand's own: nothing is drawn over it."""
    hand = table.query_one(HandView)
    region = hand.content_region
    width = min(region.width, len(hand.cards) * 5)
    for y in range(region.y, region.y + region.height):
        for x in range(region.x, region.x + width):
            widget, _ = app.screen.get_widget_at(x, y)
            assert widget is hand, (x, y, widget)
    drawn = hand.render().plain
    assert all(face(card) in drawn for card in hand.cards) and len(hand.cards) == 13


def test_a_notice_never_covers_the_gops_hand(tmp_path) -> None:
    store = open_store(tmp_path / "toast.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            table = await sit_down(app, pilot, "gops")
            await pilot.press("f7")  # "Your GOPS game is saved" ...
            await until(pilot, lambda: not isinstance(app.screen, TableScreen))
            await pilot.press(key_of("gops"))  # ... and straight back, while it is still up
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            table = app.screen  # type: ignore[assignment]
            await until(pilot, lambda: table.my_turn() and not table.busy)
            await pilot.pause(0.2)
            uncovered(app, table)
            app.notify("Your GOPS game is saved: choose it in the menu to resume it.")  # a notice at the table
            await pilot.pause(0.2)
            uncovered(app, table)
            assert "is saved" in table.message  # said on the status line instead
        store.close()

    asyncio.run(go())


# -- 3. Le Truc: no "Scores now: 0, 0" after a round is won ---------------------------------------------
def truc_summaries() -> tuple[dict, dict]:
    """A deal summary that ends a round and one that does not, from random Le Truc games."""
    ends = goes_on = None
    for seed in range(40):
        state = parlour.load("truc").new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over and not (ends and goes_on):
            before = len(state.deals)
            state.apply(rng.choice(state.legal_actions()))
            if len(state.deals) > before:
                summary = state.deals[-1]
                if summary["round_winner"] is not None and not summary["game_over"]:
                    ends = ends or summary
                elif summary["round_winner"] is None:
                    goes_on = goes_on or summary
        if ends and goes_on:
            return ends, goes_on
    raise AssertionError("no round end found")


def test_le_truc_says_no_stale_scores_at_a_round_end(tmp_path) -> None:
    ends, goes_on = truc_summaries()
    names = ["North (you)", "South"]
    assert standing_line("truc", ends, [0, 0], names) is None
    assert standing_line("truc", goes_on, [3, 1], names) == "Scores now: North (you) 3, South 1"
    assert standing_line("gops", {}, [3, 1], names) == "Scores now: North (you) 3, South 1"
    store = open_store(tmp_path / "truc.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            table = await sit_down(app, pilot, "truc")
            table.show_summary(ends, [])
            await until(pilot, lambda: isinstance(app.screen, DealSummary))
            shown = "\n".join(app.screen.lines)  # type: ignore[attr-defined]
            assert f"wins round {ends['round']}" in shown and "Scores now" not in shown
            assert "The next round starts from 0–0." in shown
        store.close()

    asyncio.run(go())


def test_the_table_log_announces_a_computer_discard_once(tmp_path) -> None:
    from textual.widgets import RichLog

    store = open_store(tmp_path / "sk.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=5)  # West picks up before North speaks
        async with app.run_test(size=(80, 24)) as pilot:
            table = await sit_down(app, pilot, "schafkopf")
            await pilot.pause(0.1)
            log = table.query_one("#log", RichLog)
            text = " ".join("".join(seg.text for seg in line).strip() for line in log.lines)
            assert "says pick-up" in text
            assert text.count("discards two cards to the skat") == 1 and "has chosen" not in text
        store.close()

    asyncio.run(go())


# -- 5. the log wraps again on resize ----------------------------------------------------------------------
def test_log_lines_wrap_again_when_the_terminal_is_resized(tmp_path) -> None:
    from parlour.tui.widgets.log import AnnouncementLog

    store = open_store(tmp_path / "log.db")
    sentence = " ".join(f"word{i}" for i in range(40)) + " END."

    def rows(log: AnnouncementLog) -> list[str]:
        return ["".join(seg.text for seg in line).rstrip() for line in log.lines]

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(140, 30)) as pilot:
            table = await sit_down(app, pilot, "gops")
            table.log_line(sentence)
            await pilot.pause(0.1)
            log = table.query_one("#log", AnnouncementLog)
            wide = rows(log)
            for size in ((80, 24), (100, 30), (140, 30)):
                await pilot.resize_terminal(*size)
                await pilot.pause(0.3)
                width = log.scrollable_content_region.width
                now = rows(log)
                assert all(len(row) <= width for row in now), (size, width, max(map(len, now)))
                joined = " ".join(now)
                assert " ".join(sentence.split()) in " ".join(joined.split()), size  # the whole sentence, unclipped
            assert rows(log) == wide  # back at the first size, the lines are as they were
        store.close()

    asyncio.run(go())


def test_after_gops_ends_the_title_says_its_only_deal(tmp_path) -> None:
    from parlour.tui.widgets.panels import TitleBar

    store = open_store(tmp_path / "end.db")
    state = parlour.load("gops").new_state(seed=3)
    rng = random.Random(3)
    while len(state.actions) < 24:  # 12 of the 13 turns played: one card each left
        state.apply(rng.choice(state.legal_actions()))
    store.save_game("gops", state.to_json(), {"level": "easy", "human_seat": 0})

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            table = await sit_down(app, pilot, "gops")
            await pilot.press(table.hand_keys[0])
            await until(pilot, lambda: table.table.is_over and isinstance(app.screen, DealSummary))
            title = str(table.query_one(TitleBar).render())
            assert "deal 1 " in title and "deal 2" not in title
        store.close()

    asyncio.run(go())


def test_the_statistics_and_key_dialogs_show_no_backticks(tmp_path) -> None:
    from textual.widgets import Static

    from parlour.tui.screens.dialogs import key_help
    from parlour.tui.screens.stats import StatsScreen

    store = open_store(tmp_path / "st.db")
    store.finish_game("gops", parlour.load("gops").new_state(seed=1).to_json(), "easy", 0, 1, [37, 54])
    for game in registry.names():
        assert "`" not in key_help(game)

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.05)
            app.push_screen(StatsScreen(store))
            await until(pilot, lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.query("#stats-body")))
            shown = "\n".join(str(w.content) for w in app.screen.query(Static))
            assert "gops" in shown and "37 54" in shown and "`" not in shown
        store.close()

    asyncio.run(go())
