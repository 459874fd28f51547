"""Issue 12, the last points: Six-Bid's call keys, no toast over a hand, Le Truc's score line, one
announcement for the Schafkopf discard, a log that wraps again on resize, line-mode options, and
the "smaller things seen" (each checked here or named where an older test checks it)."""

from __future__ import annotations

import asyncio
import io
import random
import re
import sys

import pytest

import parlour
from helpers.tui import until
from parlour import registry
from parlour.engine import State
from parlour.registry import game_class
from parlour.store import Store
from parlour.table import Table
from parlour.text import (
    card_choice,
    choice_sequence,
    format_key_table,
    narrate,
    standing_line,
    typed_card_choice,
)
from parlour.tui.app import ParlourApp
from parlour.tui.cardtext import face
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen
from parlour.tui.widgets.hand import HandView

PACK36 = game_class("sixbid").PACK


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


def sixbid_at_the_call(seed: int) -> State:
    """A Six-Bid deal where North (the human) bid call, named clubs and must now call a card."""
    state = parlour.load("sixbid").new_state(seed=seed)
    while state.view(0)["phase"] != "call":
        legal = state.legal_actions()
        if state.current_player == 0 and "call" in legal:
            state.apply("call")
        else:
            state.apply("trump C" if "trump C" in legal else "pass")
    assert state.current_player == 0
    return state


# -- 1. Six-Bid's call: keys bound to the card, the same in every deal ------------------------------
def test_each_call_has_its_own_keys_in_every_deal() -> None:
    for seed in range(6):
        state = sixbid_at_the_call(seed)
        for action in state.legal_actions():
            code = action.split()[1]
            assert choice_sequence("sixbid", action) == "x" + code.lower()  # never its place in a list
            assert card_choice("sixbid", "x" + code.lower(), PACK36) == ("done", action)
            assert typed_card_choice("sixbid", f"x {code}", PACK36) == action
    assert card_choice("sixbid", "x", PACK36)[0] == "more" and card_choice("sixbid", "xq", PACK36)[0] == "more"
    assert card_choice("sixbid", "xz", PACK36)[0] == "refused"  # not a rank: refused, never remapped
    assert card_choice("sixbid", "xaz", PACK36)[0] == "refused"
    assert card_choice("sixbid", "x0d", PACK36) == ("done", "call TD")
    assert typed_card_choice("sixbid", "x 10d", PACK36) == "call TD"
    assert typed_card_choice("sixbid", "pass", PACK36) is None
    assert "x+card" in format_key_table("sixbid")


def test_calling_a_card_by_its_keys_at_the_table(tmp_path) -> None:
    store = Store(tmp_path / "call.db")
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


def test_calling_a_card_by_its_keys_in_line_mode() -> None:
    from parlour.bots import make
    from parlour.linemode.play import play_human

    state = sixbid_at_the_call(0)
    held = state.view(0)["hand"][0]
    target = state.legal_actions()[3]
    table = Table(state, [None, make("sixbid", "easy"), make("sixbid", "easy")])
    typed = iter([f"x {held}", "3", f"x {target.split()[1]}", "q"])
    said: list[str] = []
    assert play_human(table, 0, inp=lambda _: next(typed), out=said.append) == "quit"
    text = "\n".join(said)
    assert "To call a card, type x and its code" in text and "1) call" not in text  # no list position to drift
    assert f"you cannot call {held} now: you hold {held} yourself" in text
    assert "there is no choice 3" in text
    assert target in state.actions


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
    store = Store(tmp_path / "toast.db")

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
    store = Store(tmp_path / "truc.db")

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


# -- 4. the Schafkopf discard is announced once ----------------------------------------------------------
def schafkopf_discard(seed: int = 1) -> tuple[Table, int]:
    state = parlour.load("schafkopf").new_state(seed=seed)
    table = Table(state, [None] * 3)
    while state.view(state.current_player)["phase"] != "discard":
        table.play("pick-up" if "pick-up" in state.legal_actions() else "pass")
    return table, state.current_player


def test_the_discard_is_one_announcement() -> None:
    table, soloist = schafkopf_discard()
    other = (soloist + 1) % 3
    lines: list[str] = []
    own: list[str] = []
    for _ in range(2):
        card = table.state.legal_actions()[0]
        events = table.play(card)
        lines += narrate(events[0], "schafkopf", 3, human=other)
        own += narrate(events[0], "schafkopf", 3, human=soloist, own=card)
    assert lines == [f"{table.names[soloist]} discards two cards to the skat, face down."]
    assert [line.rpartition("(")[2] for line in own] == ["1 of 2).", "2 of 2)."] and "puts" in own[0]
    # other hidden choices are said once each, as before
    gops = parlour.load("gops").new_state(seed=1)
    said = narrate(Table(gops, [None, None]).play("AC")[0], "gops", 2, human=1)
    assert said == ["North has chosen, face down."]


def test_the_table_log_announces_a_computer_discard_once(tmp_path) -> None:
    from textual.widgets import RichLog

    store = Store(tmp_path / "sk.db")

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

    store = Store(tmp_path / "log.db")
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


# -- 6. line mode's menu offers the game's options ------------------------------------------------------------
def test_the_line_menu_sets_game_options_checked_by_the_engine(tmp_path, monkeypatch, capsys) -> None:
    from parlour.cli import main
    from parlour.tui.settings import game_preferences

    db = str(tmp_path / "menu.db")
    typed = "o 5\ncards 2\ncards five\nties maybe\nnope 1\ncards 5\nopen_hands on\n\nn 5\nq\nq\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert main(["--db", db, "menu"]) == 0
    out = capsys.readouterr().out
    assert "o N) options of N" in out and "1) cards = 13" in out
    assert "Not changed: option cards must be from 3 to 13, not 2." in out
    assert "Not changed: option cards must be a whole number, not 'five'." in out
    assert "Not changed: option ties must be one of carry, discard, not 'maybe'." in out
    assert "GOPS has no option 'nope'" in out
    assert "Set: cards = 5." in out and "Set: open_hands = on." in out
    assert "Your hand: AC 2C 3C 4C 5C" in out  # the new game uses them
    assert "hand (open)" in out
    store = Store(db)
    engine, table = game_preferences(store, game_class("gops"))  # the very options the table reads
    store.close()
    assert engine["cards"] == 5 and table["open_hands"] is True


# -- 7. the smaller things seen --------------------------------------------------------------------------------
def test_counts_are_never_said_as_1_tricks() -> None:
    from parlour.games.clobby.text import describe as clobby_describe
    from parlour.games.gops.text import describe as gops_describe
    from parlour.games.truc.text import summarize as truc_summarize

    summary = {"winner": 0, "stake": 1, "ended": "tricks", "tricks_won": [1, 0], "remainder": False,
               "round_scores": [1, 0], "round": 1, "round_winner": None, "hands": None}
    assert "with 1 trick and scores 1 point." in truc_summarize(summary)[0]
    seen = set()
    for seed in range(6):
        state = parlour.load("clobby").new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over and len(state.deals) < 1:
            for line in clobby_describe(state.view(0)):
                assert not re.search(r"\b1 (tricks|cards)\b", line), line
                seen.update(re.findall(r"\(1 trick\)|holds 1 card\b", line))
            state.apply(rng.choice(state.legal_actions()))
    assert seen == {"(1 trick)", "holds 1 card"}
    view = parlour.load("gops").new_state(deck=["AD", *[f"{r}D" for r in "23456789TJQK"]]).view(0)
    assert "= 1 point" in gops_describe(view)[0] and "points" not in gops_describe(view)[0]


def test_a_spread_soloist_is_told_about_his_own_hand() -> None:
    from parlour.games.sixbid.text import describe

    for seed in range(30):
        state = parlour.load("sixbid").new_state(seed=seed)
        while state.view(0)["phase"] == "bid" and not state.is_over:
            legal = state.legal_actions()
            state.apply("spread" if state.current_player == 0 and "spread" in legal else "pass")
        if state.view(0).get("soloist") == 0:
            break
    mine, theirs = " ".join(describe(state.view(0))), " ".join(describe(state.view(1)))
    assert "your hand face up" in mine and "his hand" not in mine
    assert "his hand face up" in theirs


def test_suits_keys_and_choices_use_symbols() -> None:
    # (tests/test_tui_screen.py checks the log and the buttons: ``trump ♣``, ``a card of ♠``)
    assert "trump ♣" in format_key_table("sixbid") and "name ♥" in format_key_table("clobby")
    assert "trump C" not in format_key_table("sixbid")


def test_after_gops_ends_the_title_says_its_only_deal(tmp_path) -> None:
    from parlour.tui.widgets.panels import TitleBar

    store = Store(tmp_path / "end.db")
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


def test_history_says_scores_as_numbers(tmp_path, capsys) -> None:
    from parlour.cli import main

    db = str(tmp_path / "h.db")
    store = Store(db)
    store.finish_game("gops", parlour.load("gops").new_state(seed=1).to_json(), "easy", 0, 1, [37, 54])
    store.close()
    assert main(["--db", db, "history"]) == 0
    out = capsys.readouterr().out
    assert "scores 37 54" in out and "[" not in out


def test_the_statistics_and_key_dialogs_show_no_backticks(tmp_path) -> None:
    from textual.widgets import Static

    from parlour.tui.screens.dialogs import key_help
    from parlour.tui.screens.stats import StatsScreen

    store = Store(tmp_path / "st.db")
    store.finish_game("gops", parlour.load("gops").new_state(seed=1).to_json(), "easy", 0, 1, [37, 54])
    for game in registry.names():
        assert "`" not in key_help(game)

    async def go() -> None:
        app = ParlourApp(store, delay=0.0, summary_pause=60.0, seed=2)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.05)
            app.push_screen(StatsScreen(store))
            await until(pilot, lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.query("#stats-table")))
            shown = "\n".join(str(w.content) for w in app.screen.query(Static))
            assert "gops" in shown and "37 54" in shown and "`" not in shown
        store.close()

    asyncio.run(go())


def test_the_demo_shows_new_hands_after_the_move_that_deals_them(capsys) -> None:
    from parlour.cli import main

    # (``demo --deals 0`` is refused before the banner: test_cli.py::test_a_demo_refused_for_its_deals_prints_no_banner)
    def causes(game: str, lines: list[str], i: int) -> bool:
        """Whether ``lines[i]`` is a move that gives someone cards: picking up the skat, accepting a call."""
        if game == "schafkopf":
            return lines[i].endswith("says pick-up")
        return lines[i].endswith("says accept") and lines[i - 1].endswith("says call")

    for game in ("schafkopf", "truc"):
        found = 0
        for seed in range(8):
            assert main(["demo", game, "--level", "random", "--seed", str(seed), "--deals", "2"]) == 0
            lines = capsys.readouterr().out.splitlines()
            for i, line in enumerate(lines):
                if line == "New cards:":
                    assert i > 0 and causes(game, lines, i - 1), (game, lines[i - 1])
                    found += 1
                elif i and causes(game, lines, i):
                    assert lines[i + 1] == "New cards:", (game, line, lines[i + 1])
            if found:
                break
        assert found, game
