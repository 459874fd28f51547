"""Issue 25 at the terminal table: card keys a player can guess, kept across quit and resume.

Points 7 and 6: a hand is keyed 1-9, A... left to right whenever cards join it, the table says so
in one line, and no key changes until the next card joins (not on a play, not on sorting, not on
a resume); GOPS keys its cards by rank.  The rule itself is ``parlour.text.CardKeys``
(tests/core/test_keys.py); the resumed binding is ``ShownHand.from_record`` (test_units.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from textual.widgets import RichLog

from helpers.tui import open_game, until
from parlour import registry
from parlour.store import open_store
from parlour.tui.app import ParlourApp
from parlour.tui.screens.menu import MenuScreen
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


def log_lines(table: TableScreen) -> list[str]:
    log = table.query_one("#log", RichLog)
    return ["".join(seg.text for seg in line).rstrip() for line in log.lines]


async def take_hints_until(app: ParlourApp, pilot, table: TableScreen, done: Callable[[], bool], what: str) -> None:
    """Take the hints (and close the deal summaries) until it is North's turn and ``done()`` holds."""
    for _ in range(600):
        if isinstance(app.screen, DealSummary):
            await pilot.press("enter")
        elif table.my_turn() and not table.busy:
            if done():
                return
            await pilot.press("full_stop", "full_stop")
        await pilot.pause(0.01)
    raise AssertionError(f"{what}: not in time")


async def to_clobby_trick_play(app: ParlourApp, pilot, table: TableScreen) -> None:
    """Take the hints until North holds nine cards and must play one (the second round dealt)."""
    await take_hints_until(app, pilot, table, lambda: len(table.hand) == 9 and bool(table.card_choices),
                           "no trick play")


def test_a_sorted_clobby_hand_is_keyed_1_to_9_after_the_second_round_and_keeps_its_keys(tmp_path) -> None:
    store = open_store(tmp_path / "keys.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "clobby")
            await to_clobby_trick_play(app, pilot, table)
            assert table.settings.sort_hand
            assert table.hand_keys == list("123456789")  # left to right in the order shown
            said = [line for line in log_lines(table) if line.startswith("Your cards are keyed")]
            assert said and said[-1].startswith("Your cards are keyed 1–9, left to")  # (the log wraps)
            bound = dict(zip(table.hand, table.hand_keys, strict=True))
            card = table.card_choices[0]
            before = len(table.table.state.actions)
            await pilot.press(bound[card])
            await until(pilot, lambda: len(table.table.state.actions) > before)
            await until(pilot, lambda: table.my_turn() and not table.busy or isinstance(app.screen, DealSummary))
            assert dict(zip(table.hand, table.hand_keys, strict=True)) == {c: bound[c] for c in table.hand}
            await pilot.press("equals_sign")  # sorting switched off: the cards move, their keys do not
            assert dict(zip(table.hand, table.hand_keys, strict=True)) == {c: bound[c] for c in table.hand}
            await pilot.press("equals_sign")
            kept = dict(zip(table.hand, table.hand_keys, strict=True))
            await pilot.press("f7")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            again = await open_game(app, pilot, "clobby")  # point 6: the keys survive quit and resume
            assert again is not table
            assert dict(zip(again.hand, again.hand_keys, strict=True)) == kept
            lines = log_lines(again)
            resumed = max(i for i, line in enumerate(lines) if line.startswith("--- Resumed"))
            assert resumed >= len(lines) - 2  # the last line (it may wrap)
            assert not lines[resumed - 1].startswith("--- Deal"), lines[-4:]  # the deal's header is at its start
        store.close()

    asyncio.run(go())


def test_a_card_key_that_may_not_be_played_is_refused_with_the_engines_reason(tmp_path) -> None:
    """Issue 25, point 11: "2 is 9♣, which you may not play now" says why (must follow suit...)."""
    store = open_store(tmp_path / "why.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "clobby")

            def barred() -> list[str]:  # North must follow and holds a card he may not play
                return [c for c in table.hand if table.card_choices and c not in table.card_choices]

            await take_hints_until(app, pilot, table, lambda: bool(barred()), "no card barred")
            card = barred()[0]
            key = dict(zip(table.hand, table.hand_keys, strict=True))[card]
            count = len(table.table.state.actions)
            await pilot.press(key)
            assert len(table.table.state.actions) == count
            why = table.table.state.why_not(card)
            assert why.startswith("you must")
            assert table.message_is_error and "which you may not play now: you must" in table.message
        store.close()

    asyncio.run(go())


def test_gops_cards_are_played_by_their_ranks(tmp_path) -> None:
    store = open_store(tmp_path / "gops.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            assert [k.upper() for k in table.hand_keys] == list("A23456789TJQK")
            state = table.table.state
            await pilot.press("a")
            await until(pilot, lambda: len(state.actions) >= 1)
            assert state.actions[0] == "AC"  # A is the ace (it used to play the ten)
            await until(pilot, lambda: table.my_turn() and not table.busy)
            await pilot.press("1")  # 1 is no rank: refused in one line, nothing played
            assert table.message_is_error and "ranks A 2-9 T J Q K" in table.message
            count = len(state.actions)
            await pilot.press("t")
            await until(pilot, lambda: len(state.actions) > count)
            assert state.actions[count] == "TC"
        store.close()

    asyncio.run(go())


def test_the_menu_letters_work_in_upper_case(tmp_path) -> None:
    """Issue 25, point 8: N O S Q as the menu and the README show them."""
    from parlour.tui.screens.dialogs import Question
    from parlour.tui.screens.stats import StatsScreen

    store = open_store(tmp_path / "menu.db")
    store.save_game("gops", registry.load("gops").new_state(seed=1).to_json(), {"level": "easy"})

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            menu = app.screen
            level = app.settings.level
            await pilot.press("O")
            assert app.settings.level != level
            await pilot.press("S")
            await until(pilot, lambda: isinstance(app.screen, StatsScreen))
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is menu)
            for _ in range(registry.names().index("gops")):
                await pilot.press("down")
            await pilot.press("N")  # a saved game: asked before it is replaced
            await until(pilot, lambda: isinstance(app.screen, Question))
            await pilot.press("n")
            await until(pilot, lambda: app.screen is menu)
            await pilot.press("Q")
            await until(pilot, lambda: not app.is_running)
        store.close()

    asyncio.run(go())


def test_the_table_keys_are_bindings_built_from_the_games_keys(tmp_path) -> None:
    """The F-keys and the table's own keys are Textual bindings, built from each game's text module:
    a table letter is bound in lower case only where the game does not use it (Clobby's s is spades)."""
    store = open_store(tmp_path / "bind.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=3)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "clobby")
            bound = table._bindings.key_to_bindings
            assert {"S", "U", "L", "full_stop", "question_mark", "equals_sign", "f3"} <= set(bound)
            assert "s" not in bound and "f4" not in bound  # spades; Clobby's original had no F4
            assert bound["f3"][0].action == bound["equals_sign"][0].action  # F3 sorts, as = does
            await pilot.press("S")
            await until(pilot, lambda: app.screen is not table)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is table)
            delay = app.settings.delay
            await pilot.press("minus")  # - slower, + faster, as F8/F9
            assert app.settings.delay > delay and store.get_options("tui")["delay"] == app.settings.delay
            await pilot.press("plus")
            assert app.settings.delay == delay
            await pilot.press("f7")
            gops = await open_game(app, pilot, "gops")
            assert {"s", "S", "u", "U"} <= set(gops._bindings.key_to_bindings)
        store.close()

    asyncio.run(go())
