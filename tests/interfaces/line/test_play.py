"""Line mode: calling a card by its keys, the menu's game options, history, the demo's new hands."""

from __future__ import annotations

import io
import random
import sys

import pytest

import parlour
from helpers.sixbid import sixbid_at_the_call
from parlour.registry import game_class
from parlour.store import open_store
from parlour.table import Table


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


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


def test_a_typed_card_that_may_not_be_played_is_refused_with_the_engines_reason() -> None:
    """Issue 25, point 11: a card not in the hand is "you do not hold A♥", not only "you cannot"."""
    from parlour.bots import make
    from parlour.linemode.play import play_human

    state = parlour.load("schafkopf").new_state(seed=4)
    easy = make("schafkopf", "easy")
    rng = random.Random(1)
    while state.phase != "play" or state.current_player != 0:
        state.apply(easy.act(state.view(state.current_player), rng))
    hand = state.view(0)["hand"]
    missing = next(c for c in state.game.PACK if c not in hand)
    table = Table(state, [None, easy, easy])
    typed = iter([missing.lower(), "q"])
    said: list[str] = []
    play_human(table, 0, inp=lambda _: next(typed), out=said.append)
    text = "\n".join(said)
    shown = ("10" if missing[0] == "T" else missing[0]) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[missing[1]]
    assert f"you cannot play {missing} now: you do not hold {shown}" in text


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
    store = open_store(db)
    engine, table = game_preferences(store, game_class("gops"))  # the very options the table reads
    store.close()
    assert engine["cards"] == 5 and table["open_hands"] is True


def test_history_says_scores_as_numbers(tmp_path, capsys) -> None:
    from parlour.cli import main

    db = str(tmp_path / "h.db")
    store = open_store(db)
    store.finish_game("gops", parlour.load("gops").new_state(seed=1).to_json(), "easy", 0, 1, [37, 54])
    store.close()
    assert main(["--db", db, "history"]) == 0
    out = capsys.readouterr().out
    assert "scores 37 54" in out and "[" not in out


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
