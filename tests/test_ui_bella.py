"""Issue 12, Clobby's bella: ``b`` then the card's own key, never one key cycling between choices.

Why: every ``<card>+bella`` choice used to share the key ``b``, and pressing it moved between
them, so the same keys made a different choice depending on what else was on offer.  Now a
bella is ``b`` followed by the key the card has in the hand for the whole deal (line mode:
``b QH``); a card that may not be played with bella now is refused in one line with the
engine's reason, and Esc cancels a started sequence.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import parlour
from helpers.clobby import build, new, play
from helpers.tui import until
from parlour import registry
from parlour.engine import State
from parlour.store import Store
from parlour.table import Table
from parlour.text import (
    CardKeys,
    action_kind,
    announced_choice,
    choice_key,
    choice_sequence,
    format_key_table,
    refuse_key,
    typed_announced_choice,
)
from parlour.tui.app import ParlourApp
from parlour.tui.choices import arrange
from parlour.tui.screens.summary import DealSummary
from parlour.tui.screens.table import TableScreen

#: North (seat 0, elder, the human) holds K and Q of hearts; the upcard 7H is taken, so no dix.
#: South's only trump is 8H, which cannot beat KH: North wins the first trick and leads again.
BELLA_DECK = build("KH QH 7C 8C 9C AS", "8H AD TD 9S 8S JD", "7H", "TS KS 7S", "QD KD 7D")


@pytest.fixture(autouse=True)
def quick_hints(monkeypatch):
    monkeypatch.setattr("parlour.table.hint_level_for", lambda game: "easy")


def at_the_bella() -> State:
    """North to lead trick 2 having played KH in trick 1: both QH and QH+bella are legal."""
    state = new(BELLA_DECK)
    play(state, "take KH 8H")
    assert state.current_player == 0 and {"QH", "QH+bella"} <= set(state.legal_actions())
    return state


async def sit_down(app: ParlourApp, pilot) -> TableScreen:
    await pilot.pause(0.05)
    await pilot.press(str(registry.names().index("clobby") + 1))
    await until(pilot, lambda: isinstance(app.screen, TableScreen))
    table: TableScreen = app.screen  # type: ignore[assignment]
    await until(pilot, lambda: (table.my_turn() and not table.busy) or isinstance(app.screen, DealSummary))
    return table


def saved_store(tmp_path) -> tuple[Store, State]:
    store = Store(tmp_path / "bella.db")
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
        assert "Cancelled" in table.message and table.sequence == ""
        await pilot.press("b", "z")  # no card has that key: one line, still announcing
        assert table.message_is_error and "not the key of a card" in table.message
        assert table.sequence == "b" and len(game.actions) == before
        await pilot.press(club)  # a card that may not be played with bella: the engine's reason, one line
        assert table.message_is_error and "\n" not in table.message
        assert "bella is only for the king or queen of trumps" in table.message
        assert len(game.actions) == before and table.sequence == ""
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


def test_b_when_no_card_may_be_played_is_refused_in_one_line() -> None:
    state = new(BELLA_DECK)  # the bidding: no card is played now
    assert "b" not in "".join(choice_key("clobby", a) for a in state.legal_actions())
    assert refuse_key("clobby", "b") == "B (a card with bella) is not possible now."
    row = "b+card   bella: b, then the key of the card (b 5 plays the card under 5 with bella)"
    assert row in format_key_table("clobby").splitlines()


# -- line mode ------------------------------------------------------------------------------------------
def test_bella_by_its_keys_in_line_mode() -> None:
    from parlour.bots import make
    from parlour.linemode.play import play_human

    state = at_the_bella()
    table = Table(state, [None, make("clobby", "easy")])
    typed = iter(["b", "b 7C", "b QH", "q"])
    said: list[str] = []
    assert play_human(table, 0, inp=lambda _: next(typed), out=said.append) == "quit"
    text = "\n".join(said)
    assert "To play a card with bella, type b and its code (e.g. b QH): QH" in text
    assert ") QH+bella" not in text  # no list position to drift
    assert "to play a card with bella, type b and the card's code (e.g. b QH): QH" in text  # b alone
    assert "you cannot 7C+bella now: bella is only for the king or queen of trumps" in text
    assert "QH+bella" in state.actions
    assert typed_announced_choice("clobby", "bqh") == "QH+bella" == typed_announced_choice("clobby", "b qh")
    assert typed_announced_choice("clobby", "b 10h") == "TH+bella"
    assert typed_announced_choice("clobby", "take") is None and typed_announced_choice("clobby", "x QH") is None
    assert typed_announced_choice("sixbid", "b QH") is None  # a game without announcements


# -- the same keys in every deal ------------------------------------------------------------------------
def test_each_bella_has_the_same_keys_all_deal_in_every_deal() -> None:
    """Over many random deals (tout atout too, where bella may be open in two suits at once), every
    ``+bella`` choice is ``b`` then the key its card got when it came into the hand, those keys
    make exactly that choice, and no other choice or card has them."""
    seen = 0
    for seed in range(160):
        game = parlour.load("clobby", tout_atout=seed % 2 == 1)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        keys = {seat: CardKeys() for seat in (0, 1)}
        first: dict[tuple[int, int, str], str] = {}  # (deal, seat, card) -> the key it got first
        while not state.is_over and len(state.deals) < 3:
            seat = state.current_player
            deal = len(state.deals)
            for s in (0, 1):  # every hand on screen, as the table shows it after each action
                hand = list(state.view(s)["hand"])
                for card, key in keys[s].assign(hand, (deal, s)).items():
                    assert first.setdefault((deal, s, card), key) == key, f"{card} changed key"
            legal = state.legal_actions()
            hand = list(state.view(seat)["hand"])
            bound = keys[seat].assign(hand, (deal, seat))
            got = arrange("clobby", hand, legal, None, None, bound)
            bellas = [a for a in legal if a.endswith("+bella")]
            sequences = dict(zip(got.buttons, got.button_keys, strict=True))
            for action in bellas:
                card = action.removesuffix("+bella")
                assert action_kind("clobby", action) == "+bella"
                expected = "b" + first[(deal, seat, card)]
                assert sequences[action] == expected == choice_sequence("clobby", action, bound)
                assert announced_choice("clobby", expected, bound, legal) == ("done", action)
                assert typed_announced_choice("clobby", f"b {card}") == action
                # b is nobody else's key, and b + a card key is no other choice's keys
                assert "b" not in bound.values()
                assert [a for a in got.buttons if sequences[a] == expected] == [action]
            seen += len(bellas)
            # tout atout whenever it may be named: bella is then open in every suit
            state.apply("name tout-atout" if "name tout-atout" in legal else rng.choice(legal))
    assert seen >= 40, seen  # the checks above did run (two at once: the tout-atout test below)


def test_two_bellas_at_once_each_have_their_own_keys() -> None:
    """Tout atout: North has played KH and KS, so QH+bella and QS+bella are both open; each is b
    then its own queen's key, and neither key ever picks the other."""
    deck = build("KH QH KS QS 7C 8C", "7H 8H 7S 8S 9D 8D", "7D", "9C TC AC", "JD TD AD")
    state = new(deck, tout_atout=True)
    play(state, "pass pass name tout-atout KH 7H KS 7S")
    legal = state.legal_actions()
    assert {"QH+bella", "QS+bella"} <= set(legal)
    hand = list(state.view(0)["hand"])
    bound = CardKeys().assign(hand, (1, 0))
    got = arrange("clobby", hand, legal, None, None, bound)
    assert got.buttons == ["QH+bella", "QS+bella"]
    assert got.button_keys == ["b" + bound["QH"], "b" + bound["QS"]] and bound["QH"] != bound["QS"]
    for queen in ("QH", "QS"):
        assert announced_choice("clobby", "b" + bound[queen], bound, legal) == ("done", queen + "+bella")
    status, said = announced_choice("clobby", "b", bound, legal)
    assert status == "more" and f"{bound['QH'].upper()} QH, {bound['QS'].upper()} QS" in said
    assert announced_choice("clobby", "b" + bound["7C"], bound, legal) == ("done", "7C+bella")  # the engine refuses it
    assert announced_choice("clobby", "bz", bound, legal)[0] == "refused"
