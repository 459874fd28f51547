"""The terminal table driven through Textual's pilot: menu, whole deals by keys, demo, replay, rules, resume.

Every game whose engine and easy computer player exist is covered; the others are skipped
until they land.  Bots play with no delay, and the database is a temporary file.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from helpers.tui import open_game, until
from parlour import registry
from parlour.cards import face
from parlour.engine import REPLAY_DEAL
from parlour.records import from_json
from parlour.registry import game_class, names
from parlour.store import Store, open_store
from parlour.tui.app import ParlourApp
from parlour.tui.screens.dialogs import Note, Question
from parlour.tui.screens.menu import MenuScreen
from parlour.tui.screens.options import OptionsScreen
from parlour.tui.screens.rules import RulesScreen
from parlour.tui.screens.stats import StatsScreen
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen
from parlour.tui.session import availability

GAMES = names()
SIZE = (80, 24)


def playable(name: str) -> str:
    why = availability(name)
    if why is not None:
        pytest.skip(f"{name}: {why}")
    return name


def menu_key(name: str) -> str:
    return str(GAMES.index(name) + 1)


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    """Hints from the easy player: the strong ones think for a second a move (their own tests cover them)."""
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


@pytest.fixture
def store(tmp_path):
    store = open_store(tmp_path / "tui.db")
    yield store
    store.close()


def make_app(store: Store, **kw) -> ParlourApp:
    kw.setdefault("delay", 0.0)
    kw.setdefault("summary_pause", 60.0)
    kw.setdefault("seed", 11)
    return ParlourApp(store, **kw)


def table_of(app: ParlourApp) -> TableScreen:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError(f"no table screen in {app.screen_stack}")


async def play_deal_by_keys(app: ParlourApp, pilot, key: Callable[[TableScreen], str] = lambda t: ".",
                            timeout: float = 60.0) -> DealSummary:
    """Press keys for the human whenever it is his turn until a deal summary shows."""
    deadline = time.monotonic() + timeout
    while not isinstance(app.screen, DealSummary):
        if time.monotonic() > deadline:
            raise AssertionError("no deal summary in time")
        screen = app.screen
        if isinstance(screen, TableScreen) and screen.my_turn() and not screen.busy:
            await pilot.press(key(screen))
        await pilot.pause(0.005)
    return app.screen  # type: ignore[return-value]


def expected_deal_line(table: TableScreen) -> str:
    summary = table.table.state.deals[-1]
    names_ = [f"{n} (you)" if s == table.human else n for s, n in enumerate(table.names)]
    return "This deal: " + ", ".join(f"{names_[s]} {v:+d}" for s, v in enumerate(summary["scores"]))


def first_card_key(table: TableScreen) -> str:
    """The key bound to the first card the human may play now."""
    return table.hand_keys[table.hand.index(table.card_choices[0])]


def run(coro) -> None:
    asyncio.run(coro)


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_deal_from_the_menu_with_the_hint_key(store, name):
    playable(name)

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            assert table.table.state.deals == []
            summary = await play_deal_by_keys(app, pilot)
            state = table.table.state
            assert len(state.deals) == 1
            assert expected_deal_line(table) in summary.text
            assert summary.title_text.startswith("Deal 1 over")
            await pilot.press("enter")
            if state.is_over:
                await until(pilot, lambda: isinstance(app.screen, MenuScreen))
                assert store.load_game(name) is None
                assert store.finished_games(name)[0].human_seat == 0
            else:
                await until(pilot, lambda: app.screen is table)
                assert store.load_game(name) is not None

    run(go())


def test_gops_played_with_digit_keys_and_recorded_in_the_statistics(store):
    playable("gops")

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            first_hand = list(table.hand)
            await pilot.press("3")  # the third card of the hand: 3C
            await until(pilot, lambda: len(table.table.state.actions) >= 1)
            assert table.table.state.actions[0] == first_hand[2]
            bound = dict(zip(table.hand, table.hand_keys, strict=True))
            played: list[str] = []

            def next_key(t: TableScreen) -> str:
                # keys stay bound to the cards: the key a card had at the start still plays it
                card = t.card_choices[0]
                assert dict(zip(t.hand, t.hand_keys, strict=True))[card] == bound[card]
                played.append(card)
                return bound[card]

            await play_deal_by_keys(app, pilot, key=next_key)
            assert "3" not in [bound[c] for c in played]  # 3C's key stayed unused after it was played
            state = table.table.state
            assert state.is_over
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, StatsScreen))
            text = str(app.screen.query_one("#stats-body").render())
            assert "gops" in text and "easy" in text
            row = store.stats()[0]
            assert row.played == 1 and row.game == "gops"

    run(go())


@pytest.mark.parametrize("name", GAMES)
def test_demo_mode_plays_a_deal_to_its_end_and_f2_gives_the_seat_back(store, name):
    playable(name)

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            await pilot.press("f2")
            assert table.demo
            await until(pilot, lambda: isinstance(app.screen, DealSummary), timeout=60)
            assert len(table.table.state.deals) == 1
            app.settings.delay = 30.0  # so the demo waits while we take the seat back
            await pilot.press("enter")
            if table.table.state.is_over:
                await until(pilot, lambda: isinstance(app.screen, MenuScreen))
                # a game the computer finished for you is a demo, not counted in your statistics
                assert store.finished_games(name)[0].human_seat is None
                return
            await until(pilot, lambda: app.screen is table)
            await pilot.press("f2")
            assert not table.demo
            app.settings.delay = 0.0
            # the computer's waiting move is rescheduled with no delay (F9 in three games; Six-Bid's
            # and Schafkopf's F9 is the background, as in their originals, so not the key)
            table.restart_timer()
            await until(pilot, lambda: table.my_turn() and not table.busy or isinstance(app.screen, DealSummary))

    run(go())


def test_demo_summary_continues_by_itself(store):
    playable("gops")

    async def go() -> None:
        app = make_app(store, summary_pause=0.05)
        async with app.run_test(size=SIZE) as pilot:
            await open_game(app, pilot, "gops")
            await pilot.press("f2")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen), timeout=60)

    run(go())


def multi_deal_games() -> list[str]:
    return [n for n in GAMES if n != "gops"]


@pytest.mark.parametrize("name", multi_deal_games())
def test_f6_on_the_summary_replays_the_same_hand(store, name):
    playable(name)

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            state = table.table.state
            pack, dealer = state.current_pack(), state.dealer
            first_hand = state.view(table.human)["hand"]
            await pilot.press("R")  # nothing to replay before the first deal (R in every game)
            assert table.message and "no earlier deal" in table.message
            await play_deal_by_keys(app, pilot)
            if state.is_over:
                pytest.skip("the game ended with its first deal")
            app.settings.delay = 30.0  # keep the computer from moving while we look
            await pilot.press("f6")
            await until(pilot, lambda: app.screen is table)
            assert state.actions.count(REPLAY_DEAL) == 1
            assert state.deal_is_fresh
            assert state.current_pack() == pack and state.dealer == dealer
            assert state.view(table.human)["hand"] == first_hand
            assert "Replaying" in table.message

    run(go())


@pytest.mark.parametrize("name", multi_deal_games()[:1])
def test_the_replay_question_and_replay_in_the_middle_of_a_deal(store, name):
    playable(name)

    async def go() -> None:
        store.set_options(name, {"replay_prompt": True})
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            state = table.table.state
            pack = state.current_pack()
            await play_deal_by_keys(app, pilot)
            if state.is_over:
                pytest.skip("the game ended with its first deal")
            app.settings.delay = 30.0
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, Question))
            await pilot.press("y")
            await until(pilot, lambda: app.screen is table)
            assert state.actions[-1] == REPLAY_DEAL and state.current_pack() == pack
            app.settings.delay = 0.0
            await pilot.press("f9")
            while state.deal_is_fresh:
                if table.my_turn() and not table.busy:
                    await pilot.press(".")
                await pilot.pause(0.005)
            app.settings.delay = 30.0
            await until(pilot, lambda: not table.busy)
            before = list(state.actions)
            hand = None
            await pilot.press("R")  # mid-deal: the deal's moves are taken back and its pack dealt again
            assert state.actions[:len(before)] == before
            assert state.actions[len(before)].startswith("#undo ") and state.actions[-1] == REPLAY_DEAL
            assert state.deal_is_fresh and state.current_pack() == pack
            hand = state.view(table.human)["hand"]
            rebuilt = from_json(state.to_json())
            assert rebuilt.view(table.human)["hand"] == hand and rebuilt.actions == state.actions
            assert "Replaying" in table.message

    run(go())


@pytest.mark.parametrize("name", GAMES)
def test_f5_shows_the_rules_of_the_game(store, name):
    playable(name)

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            await pilot.press("f5")
            await until(pilot, lambda: isinstance(app.screen, RulesScreen))
            rules = app.screen
            assert isinstance(rules, RulesScreen)
            # The page ships inside the game's package: missing text is a failure, not a fallback.
            expected = registry.rules_text(name)
            assert expected and "#" in expected
            assert rules.found and rules.text == expected
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is table)

    run(go())


def test_rules_fall_back_to_a_message_when_the_file_is_missing(store, monkeypatch, tmp_path):
    import parlour.tui.screens.rules as rules_module

    monkeypatch.setattr(rules_module.registry, "rules_text", lambda name: None)
    text, found = rules_module.rules_text("gops", "GOPS")
    assert not found and "no rules page" in text and "GOPS" in text


def test_quitting_keeps_the_game_and_the_menu_resumes_it(store):
    playable("gops")

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            for _ in range(3):
                await until(pilot, lambda: table.my_turn() and not table.busy)
                await pilot.press(first_card_key(table))
            await until(pilot, lambda: table.my_turn() and not table.busy)
            actions = list(table.table.state.actions)
            assert len(actions) == 6
            await pilot.press("f7")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            assert store.load_game("gops") is not None
            table2 = await open_game(app, pilot, "gops")
            assert table2 is not table and table2.table.state.actions == actions
            await pilot.press("f7")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("q")
        # a new run of the program resumes it too
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table3 = await open_game(app, pilot, "gops")
            assert table3.table.state.actions == actions
            assert any("Resuming" in n for n in table3.session.notices)

    run(go())


def test_new_game_from_the_menu_asks_before_replacing_the_saved_one(store):
    playable("gops")

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            await until(pilot, lambda: table.my_turn())
            await pilot.press("a")  # GOPS keys its cards by rank: the ace
            await until(pilot, lambda: len(table.table.state.actions) == 2)
            await pilot.press("f7")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press(menu_key("gops"))  # highlight and resume...
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            await pilot.press("f7")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, Question))
            await pilot.press("n")  # no: keep it
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            assert len(store.load_game("gops").record) > 0
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, Question))
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            assert app.screen.table.state.actions == []

    run(go())


def test_illegal_choice_is_explained_and_changes_nothing(store):
    name = bidding_game()

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            await until(pilot, lambda: table.my_turn() and not table.busy)
            state = table.table.state
            before = list(state.actions)
            if table.card_choices:
                pytest.skip("the first choice of this deal is a card")
            await pilot.press("1")  # a card while a bid or a question is asked
            assert state.actions == before
            assert table.message_is_error and "may not play now" in table.message
            assert app.bells >= 1

    run(go())


def test_options_screen_checks_values_and_new_games_use_them(store):
    name = next((n for n in GAMES if availability(n) is None
                 and any(o.kind is int for o in game_class(n).OPTIONS)), None)
    if name is None:
        pytest.skip("no available game has a number option")
    game = game_class(name)
    option = next(o for o in game.OPTIONS if o.kind is int)

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=(100, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            app.screen.query_one("OptionList").highlighted = GAMES.index(name)
            await pilot.press("f3")
            await until(pilot, lambda: isinstance(app.screen, OptionsScreen))
            screen = app.screen
            field = screen.query_one(f"#opt-{option.name}")
            bad = (option.low - 1) if option.low is not None else "x"
            field.value = str(bad)
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, OptionsScreen)
            assert "Not saved" in str(screen.query_one("#options-error").render())
            assert str(bad) in str(screen.query_one(f"#err-{option.name}").render())
            good = option.low if option.low is not None else option.default
            if good == option.default and option.high is not None:
                good = option.high
            field.value = str(good)
            screen.query_one("#table-open_hands").value = True
            screen.query_one("#ui-four_colour").value = True
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, MenuScreen))
            assert store.get_options(name)[option.name] == good
            assert store.get_options(name)["open_hands"] is True
            assert app.settings.four_colour and store.get_options("tui")["four_colour"] is True
            await pilot.press(menu_key(name))
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            table = app.screen
            assert table.table.state.game.options[option.name] == good
            assert table.table.open_hands and "open_hands" in table.table.view(table.human)
            await pilot.pause(0.05)
            other = (table.human + 1) % game.num_players
            panel = table.query_one(f"#seat-{other}")
            shown = str(panel.content)
            assert all(face(card) in shown for card in table.table.state.view(other)["hand"])

    run(go())


def test_hot_keys_sound_delay_sort_help_and_last_trick(store):
    playable("gops")

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            assert app.settings.sound
            await pilot.press("f1")
            assert not app.settings.sound and store.get_options("tui")["sound"] is False
            bells = app.bells
            await pilot.press("f1")
            await pilot.press("f9")
            assert app.settings.delay == 0.0
            await pilot.press("f8")
            await pilot.press("f8")
            assert app.settings.delay == 0.25
            assert "delay 0.25s" in str(table.query_one("#title").render())
            await pilot.press("f9")
            await pilot.press("f9")
            assert app.settings.delay == 0.0
            await pilot.press("l")
            assert "No trick" in table.message
            await until(pilot, lambda: table.my_turn() and not table.busy)
            await pilot.press(first_card_key(table))
            await until(pilot, lambda: table.my_turn() and not table.busy)
            assert app.bells > bells  # the bell rang when it became our turn again
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, Note))
            assert "Trick:" in str(app.screen.query_one("#note-body").render())
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is table)
            await pilot.press("equals_sign")  # sort: = in every game (F3 in Clobby)
            assert not app.settings.sort_hand
            await pilot.press("equals_sign")  # sort: = in every game (F3 in Clobby)
            assert app.settings.sort_hand
            await pilot.press("question_mark")
            await until(pilot, lambda: isinstance(app.screen, Note))
            keys_text = str(app.screen.query_one("#note-body").render())
            assert "F3" in keys_text and "jokes" in keys_text and "undo" in keys_text  # this game's own keys
            await pilot.press("escape")
            await pilot.press("f3")  # GOPS's original: F3 is the joke toggle
            assert not app.settings.jokes and "Jokes off" in table.message
            await pilot.press("f10")
            assert app.settings.border == 1 and "Borders" in table.message

    run(go())


def test_arrow_keys_and_enter_play_the_highlighted_card(store):
    playable("gops")

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            await until(pilot, lambda: table.my_turn() and not table.busy)
            assert table.cursor == 0
            await pilot.press("right", "right", "left", "right")
            assert table.cursor == 2
            card = table.hand[2]
            await pilot.press("enter")
            assert table.table.state.actions[0] == card

    run(go())


def test_mouse_clicks_on_a_card_and_on_a_choice(store):
    playable("gops")

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            await until(pilot, lambda: table.my_turn() and not table.busy)
            card = table.hand[1]
            await pilot.click("#hand", offset=(1 + 5 + 1, 1))  # padding 1, second slot
            await until(pilot, lambda: len(table.table.state.actions) >= 1)
            assert table.table.state.actions[0] == card

    run(go())


def bidding_game() -> str:
    name = next((n for n in ("clobby", "sixbid", "schafkopf", "truc") if availability(n) is None), None)
    if name is None:
        pytest.skip("no game with a bidding phase yet")
    return name


def test_mouse_click_on_a_choice(store):
    name = bidding_game()

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            await until(pilot, lambda: table.my_turn() and not table.busy)
            if not table.buttons:
                pytest.skip("the first choice of this deal is a card")
            state = table.table.state
            before = len(state.actions)
            choice = table.buttons[0]
            await pilot.click("#actions", offset=(2, 0))  # padding 1, inside the first choice
            await until(pilot, lambda: len(state.actions) > before)
            assert state.actions[before] == choice

    run(go())


def test_f4_shows_the_hand_in_the_order_it_was_dealt(store):
    name = bidding_game()

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            await until(pilot, lambda: table.my_turn() and not table.busy)
            state = table.table.state
            view_hand = state.view(table.human)["hand"]
            assert table.hand == view_hand
            await pilot.press("equals_sign")  # sort: = in every game (F3 in Clobby)
            pack = state.current_pack()
            assert table.hand == sorted(view_hand, key=pack.index)
            await pilot.press("equals_sign")  # sort: = in every game (F3 in Clobby)
            assert table.hand == view_hand

    run(go())


def test_a_played_card_is_applied_and_drawn_before_the_key_handler_returns(store):
    """The human's own move never waits on a worker: engine, save and redraw happen in the handler.

    How fast that is, is measured by ``bench/bench_tui.py`` (no timed assertions in tests).
    """
    playable("gops")

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, "gops")
            for _ in range(6):
                await until(pilot, lambda: table.my_turn() and not table.busy)
                before = len(table.table.state.actions)
                card = table.hand[0]
                table.pick_card(0)
                assert len(table.table.state.actions) == before + 1
                assert card not in table.hand
                assert store.load_game("gops") is not None

    run(go())


@pytest.mark.parametrize("name", GAMES)
def test_the_table_fits_in_80_by_24(store, name):
    playable(name)

    async def go() -> None:
        app = make_app(store)
        async with app.run_test(size=SIZE) as pilot:
            table = await open_game(app, pilot, name)
            await until(pilot, lambda: table.my_turn() and not table.busy)
            await pilot.pause(0.05)
            screen = table.region
            for selector in ("#title", "#seats", "#trick", "#log", "#info", "#prompt", "#hand"):
                region = table.query_one(selector).region
                assert region.height > 0 and screen.contains_region(region), selector
            if table.buttons:
                region = table.query_one("#actions").region
                assert region.height > 0 and screen.contains_region(region)
            hand = table.query_one("#hand").region
            assert hand.width >= 5 * len(table.hand)

    run(go())


def test_run_reports_a_database_it_cannot_open(tmp_path, capsys):
    from parlour.tui import run as run_tui

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert run_tui(str(blocker / "sub" / "parlour.db")) == 2
    assert "cannot create the saved-games database" in capsys.readouterr().err
