"""The review of a deal at the terminal table: ``V`` from the deal summary and from the score sheet.

The review is worked out on a worker thread as the deal ends (two samples a decision here:
``tests/conftest.py``); the screen says so until it is ready, then steps trick by trick.
"""

from __future__ import annotations

import asyncio

from helpers.tui import open_game, until
from interfaces.tui import test_app
from parlour.store import Store
from parlour.tui.app import ParlourApp
from parlour.tui.screens.review import ReviewScreen, ScoreSheetScreen
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen

SIZE = (80, 24)
make_app = test_app.make_app
quick_hints = test_app.quick_hints  # the table tests' fixtures: hints from the easy player, a database of its own
store = test_app.store


async def deal_summary(app: ParlourApp, pilot, timeout: float = 60.0) -> DealSummary:
    """Play the human's seat by hints until a deal summary shows."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not isinstance(app.screen, DealSummary):
        assert loop.time() < deadline, "no deal summary in time"
        screen = app.screen
        if isinstance(screen, TableScreen) and screen.my_turn() and not screen.busy:
            await pilot.press(".")
        await pilot.pause(0.005)
    return app.screen


def test_v_in_the_deal_summary_steps_through_the_deal_and_keeps_the_review(store: Store) -> None:
    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "schafkopf")
            summary = await deal_summary(app, pilot)
            assert "V: review this deal" in str(summary.query_one("#summary-keys").render())
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            review = app.screen
            await until(pilot, lambda: review.review is not None, timeout=60)
            assert review.text.startswith("Review of deal 1 of Schafkopf, for North (you)")
            assert "Verdict:" in review.text and "by what you knew" in review.text
            await pilot.press("right")
            assert "--- Before the first trick ---" in review.text and "North (you):" in review.text
            await pilot.press("end")
            last = review.text
            assert "--- Trick 10 ---" in last
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, DealSummary))
            await pilot.press("enter")
            await until(pilot, lambda: app.screen is table)
        kept = store.loss_trends()
        assert [t.game for t in kept] == ["schafkopf"] and kept[0].recent_deals == 1

    asyncio.run(go())


def test_v_in_the_score_sheet_reviews_the_chosen_deal(store: Store) -> None:
    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "truc")
            for _ in range(2):
                await deal_summary(app, pilot)
                await pilot.press("enter")
                await until(pilot, lambda: app.screen is table)
            await pilot.press("S")
            await until(pilot, lambda: isinstance(app.screen, ScoreSheetScreen))
            sheet = app.screen
            assert sheet.picked == 2 and any(line.startswith("▶") and line.split()[1] == "2" for line in sheet.lines())
            await pilot.press("left")
            assert sheet.picked == 1
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
            review = app.screen
            await until(pilot, lambda: review.review is not None, timeout=60)
            assert review.review.deal == 1 and review.text.startswith("Review of deal 1 of Le Truc")

    asyncio.run(go())
