"""Every card of every hand on screen at 80×24, and prompts that say what is asked (issue 12)."""

from __future__ import annotations

import asyncio

import pytest

from helpers.tui import open_game, until
from parlour import registry
from parlour.cards import face
from parlour.store import open_store
from parlour.tui.app import ParlourApp
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen
from parlour.tui.widgets.hand import HandView
from parlour.tui.widgets.seats import SeatPanel

GAMES = ["clobby", "sixbid", "schafkopf", "truc", "gops"]


def visible(table: TableScreen) -> None:
    """Each seat's whole hand is drawn inside its panel, and the human's hand inside the screen."""
    view = table.table.view(table.human)
    for seat, cards in view["open_hands"].items():
        if int(seat) == table.human:
            continue
        panel = table.query_one(f"#seat-{seat}", SeatPanel)
        text = panel.body.plain
        assert panel.body.cell_len <= panel.content_size.width, (text, panel.content_size)
        for card in cards:
            assert face(card) in text, (card, text)
    hand = table.query_one(HandView)
    drawn = hand.render().plain.split("\n")
    assert all(len(line) <= hand.content_size.width for line in drawn)
    for card in view["hand"]:
        assert face(card) in drawn[-1]


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_every_hand_is_on_screen_at_80x24(tmp_path, monkeypatch, game: str) -> None:
    monkeypatch.setattr("parlour.table.hint_level_for", lambda g: "easy")
    store = open_store(tmp_path / "s.db")
    store.set_options(game, {"open_hands": True})

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.05)
            await pilot.press(str(registry.names().index(game) + 1))
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            table: TableScreen = app.screen  # type: ignore[assignment]
            for _ in range(4):
                await until(pilot, lambda: (table.my_turn() and not table.busy) or isinstance(app.screen, DealSummary))
                if isinstance(app.screen, DealSummary):
                    break
                await pilot.pause(0.02)
                visible(table)
                assert table.query_one("#prompt").render().plain.strip()
                await pilot.press(*table.hand_keys[:0] or ["full_stop"], "full_stop")
                await pilot.pause(0.05)
        store.close()

    asyncio.run(go())


def test_the_announcements_survive_a_resume_and_the_lock_is_released(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("parlour.table.hint_level_for", lambda g: "easy")
    store = open_store(tmp_path / "r.db")
    key = str(registry.names().index("gops") + 1)

    def log_text(table: TableScreen) -> str:
        from textual.widgets import RichLog

        log = table.query_one("#log", RichLog)
        return "\n".join("".join(seg.text for seg in line) for line in log.lines)

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.05)
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            table: TableScreen = app.screen  # type: ignore[assignment]
            await until(pilot, lambda: table.my_turn() and not table.busy)
            await pilot.press(table.hand_keys[0])
            await until(pilot, lambda: table.my_turn() and not table.busy)
            assert "Trick:" in log_text(table)
            await pilot.press("f7")
            await until(pilot, lambda: not isinstance(app.screen, TableScreen))
            lock = table.session.lock
            assert lock is not None and lock._released  # released on leaving mid-game (issue 12)
            assert str(lock.path.absolute()) not in type(lock)._held
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            again: TableScreen = app.screen  # type: ignore[assignment]
            assert again is not table and "Trick:" in log_text(again)
        store.close()

    asyncio.run(go())


def test_option_boxes_say_on_and_off_in_words() -> None:
    from textual.app import App

    from parlour.tui.screens.options import OnOff

    class Box(App[None]):
        def compose(self):
            yield OnOff("Open hands", value=False, id="box")

    async def go() -> None:
        app = Box()
        async with app.run_test(size=(80, 24)) as pilot:
            box = app.query_one("#box", OnOff)
            assert str(box.label) == "Open hands: off"
            box.toggle()
            await pilot.pause()
            assert str(box.label) == "Open hands: on"

    asyncio.run(go())


def test_suits_are_said_with_symbols() -> None:
    from parlour.cards import pretty_action
    from parlour.tui.cardtext import pretty_line

    assert pretty_action("trump C") == "trump ♣" and pretty_action("name H") == "name ♥"
    assert pretty_line("a card of S: KC").plain == "a card of ♠: K♣"


def test_the_prize_at_stake_is_on_the_table(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("parlour.table.hint_level_for", lambda g: "easy")
    from parlour.tui.widgets.trick import TrickView

    store = open_store(tmp_path / "g.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            table: TableScreen = await open_game(app, pilot, "gops")
            stake = table.table.view(table.human)["stake"]
            drawn = table.query_one(TrickView).render().plain
            assert "At stake:" in drawn and all(face(c) in drawn for c in stake)
        store.close()

    asyncio.run(go())


def test_the_gops_last_trick_stands_apart_from_the_new_stake(tmp_path, monkeypatch) -> None:
    """Issue 25, point 2: after a turn the box showed the previous cards around the new stake, as
    if they had been played for it; the turn just played is now on the left with what it was for,
    the new stake on the right of a bar."""
    monkeypatch.setattr("parlour.table.hint_level_for", lambda g: "easy")
    from parlour.tui.widgets.trick import TrickView

    store = open_store(tmp_path / "g.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            table: TableScreen = await open_game(app, pilot, "gops", my_turn=False)
            for rank in "a2":
                await until(pilot, lambda: table.my_turn() and not table.busy)
                await pilot.press(rank)
            await until(pilot, lambda: table.my_turn() and not table.busy)
            view = table.table.view(table.human)
            last, stake = view["last_trick"], view["stake"]
            lines = table.query_one(TrickView).render().plain.splitlines()
            assert len(lines) == 3 and all("│" in line for line in lines)
            before = " ".join(line.split("│")[0] for line in lines)
            after = " ".join(line.split("│")[1] for line in lines)
            assert all(face(card) in before for _, card in last["cards"])
            assert "for " + face(last["prizes"][0]) in " ".join(before.split())
            assert "At stake now:" in after and all(face(c) in after for c in stake)
            assert not any(face(card) in after for _, card in last["cards"])
        store.close()

    asyncio.run(go())


def test_a_choice_key_is_fixed_and_a_key_not_possible_now_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("parlour.table.hint_level_for", lambda g: "easy")
    store = open_store(tmp_path / "c.db")

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.05)
            await pilot.press(str(registry.names().index("clobby") + 1))
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            table: TableScreen = app.screen  # type: ignore[assignment]
            await until(pilot, lambda: table.my_turn() and not table.busy)
            state = table.table.state
            assert "pass" in table.buttons and table.button_keys[table.buttons.index("pass")] == "p"
            before = list(state.actions)
            unused = next(k for k in "cdhs" if f"name {k.upper()}" not in table.buttons)
            await pilot.press(unused)  # a suit that cannot be named now: refused, never remapped
            assert state.actions == before and table.message_is_error and "not possible now" in table.message
            await pilot.press("p")
            assert state.actions[len(before)] == "pass"
        store.close()

    asyncio.run(go())
