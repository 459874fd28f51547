"""The terminal table's plain parts: the unsorted hand, card text, settings, sessions."""

from __future__ import annotations

import pytest

import parlour
from parlour.cards import face, pretty_action
from parlour.store import open_store
from parlour.tui.arrival import ArrivalOrder
from parlour.tui.cardtext import card_chip, pretty_line
from parlour.tui.choices import Choices, arrange
from parlour.tui.screens.options import parse_value
from parlour.tui.session import HUMAN_SEAT, availability, open_session
from parlour.tui.settings import DELAYS, Settings, faster, game_preferences, save_game_preferences, slower


# -- the unsorted hand -------------------------------------------------------------------------
def test_cards_in_hand_are_played_from_it_and_other_choices_are_buttons():
    hand = ["7C", "QH", "KH"]
    bound = {"7C": "1", "QH": "2", "KH": "3"}
    got = arrange("clobby", hand, ["QH", "KH", "QH+bella"], cursor=None, button_cursor=None, card_keys=bound)
    assert (got.cards, got.buttons, got.cursor, got.button_cursor) == (["QH", "KH"], ["QH+bella"], 1, None)
    assert got.button_keys == ["b2"] and got.hand_keys == ["1", "2", "3"]  # bella: b, then Q♥'s own key
    # the cursor stays on a playable card it is already on, and leaves an unplayable one
    assert arrange("clobby", hand, ["QH", "KH"], cursor=2, button_cursor=None).cursor == 2
    assert arrange("clobby", hand, ["KH"], cursor=0, button_cursor=None).cursor == 2


def test_with_only_buttons_the_arrows_move_between_them():
    got = arrange("clobby", ["7C"], ["take", "pass", "schmeiss"], cursor=0, button_cursor=5)
    assert (got.cards, got.buttons, got.button_keys, got.button_cursor) == \
        ([], ["take", "pass", "schmeiss"], ["t", "p", "m"], 0)
    assert got.cursor == 0  # kept: still a card in the hand, though not playable now
    assert arrange("clobby", [], [], cursor=3, button_cursor=1) == Choices()


def test_arrival_order_follows_the_pack_then_appends_new_cards():
    order = ArrivalOrder()
    pack = ["7C", "AS", "9H", "KD", "JC", "TS", "8D", "QH"]
    sorted_hand = ["JC", "7C", "AS", "TS", "KD"]
    assert order.arrange(sorted_hand, pack, 1) == ["7C", "AS", "KD", "JC", "TS"]
    # a card played leaves; the others keep their places
    assert order.arrange(["JC", "7C", "TS", "KD"], pack, 1) == ["7C", "KD", "JC", "TS"]
    # a card received goes to the right end even if it lay higher in the pack
    assert order.arrange(["JC", "7C", "TS", "KD", "9H"], pack, 1) == ["7C", "KD", "JC", "TS", "9H"]
    # a new deal starts again from the pack
    assert order.arrange(["QH", "7C"], pack, 2) == ["7C", "QH"]
    # cards that are not in the pack (GOPS: the pack is the prizes) keep the view's order
    assert ArrivalOrder().arrange(["AC", "2C", "3C"], ["KD", "QD"], 1) == ["AC", "2C", "3C"]


# -- card text -------------------------------------------------------------------------------------
def test_cards_are_written_with_suit_symbols_and_colours():
    assert face("TH") == "10♥" and face("AS") == "A♠"
    assert pretty_action("call TD") == "call 10♦" and pretty_action("QH+bella") == "Q♥+bella"
    assert pretty_action("pass") == "pass"
    two = card_chip("7D")
    four = card_chip("7D", four_colour=True)
    assert two.plain == " 7♦ " and "red" in str(two.style) and "blue" in str(four.style)
    assert "green" in str(card_chip("9C", four_colour=True).style)
    line = pretty_line("Upcard: JH, trump clubs")
    assert line.plain == "Upcard: J♥, trump clubs"
    assert pretty_line("AS KS").plain == "A♠ K♠"


# -- settings and options ----------------------------------------------------------------------------
def test_delay_steps_and_bounds():
    assert slower(0.0) == DELAYS[1] and faster(DELAYS[1]) == 0.0
    assert slower(DELAYS[-1]) == DELAYS[-1] and faster(0.0) == 0.0
    assert slower(0.3) == 0.5 and faster(0.3) == 0.25


def test_settings_round_trip_and_ignore_bad_values(tmp_path):
    store = open_store(tmp_path / "s.db")
    settings = Settings.load(store)
    assert settings == Settings()
    settings.sound, settings.delay, settings.level = False, 1.5, "random"
    settings.save(store)
    assert Settings.load(store) == settings
    store.set_options("tui", {"sound": "loud", "delay": 99, "level": "genius", "four_colour": True})
    loaded = Settings.load(store)
    assert loaded.sound is True and loaded.delay == DELAYS[-1] and loaded.level == "easy" and loaded.four_colour
    store.close()


def test_game_preferences_are_checked_by_the_engine_options(tmp_path):
    store = open_store(tmp_path / "p.db")
    game = parlour.load("gops").__class__
    assert game_preferences(store, game) == ({}, {"open_hands": False, "replay_prompt": False})
    save_game_preferences(store, game, {}, {"open_hands": True})
    assert game_preferences(store, game)[1]["open_hands"] is True
    store.close()


def test_option_values_typed_on_the_options_screen():
    from parlour.engine import Option

    option = Option("game_point", int, 500, "points that win", 100, 9999)
    assert parse_value(option, " 300 ") == 300
    with pytest.raises(ValueError, match="whole number"):
        parse_value(option, "lots")
    with pytest.raises(ValueError, match="from 100 to 9999"):
        parse_value(option, "50")
    choice = Option("style", str, "a", "a style", choices=("a", "b"))
    assert parse_value(choice, "b") == "b"
    with pytest.raises(ValueError):
        parse_value(choice, "c")


# -- sessions -------------------------------------------------------------------------------------
def test_a_session_saves_resumes_and_records_like_the_line_mode(tmp_path):
    store = open_store(tmp_path / "g.db")
    assert availability("gops") is None
    session = open_session(store, "gops", level="random", fresh=False, options={}, open_hands=True, seed=3)
    assert session.human == HUMAN_SEAT and session.meta == {"level": "random", "open": True, "human_seat": 0}
    session.table.play(session.table.hint())
    saved = store.load_game("gops")
    assert saved is not None and parlour.from_json(saved.record).actions == session.state.actions
    assert saved.settings["level"] == "random"
    again = open_session(store, "gops", level="easy", fresh=False, options={}, open_hands=False)
    assert again.state.actions == session.state.actions and again.level == "random" and again.table.open_hands
    assert again.notices == ["Resuming your saved GOPS game."]
    fresh = open_session(store, "gops", level="easy", fresh=True, options={}, open_hands=False)
    assert fresh.state.actions == [] and fresh.level == "easy"
    while not fresh.state.is_over:
        fresh.table.play(fresh.table.hint() if fresh.table.human_to_move else fresh.table.bot_choice())
    game_id = fresh.finish()
    assert fresh.finish() == game_id  # recorded once
    assert store.load_game("gops") is None
    assert store.finished_games("gops")[0].id == game_id
    store.close()


def test_a_broken_save_is_set_aside_and_a_new_game_starts(tmp_path):
    store = open_store(tmp_path / "b.db")
    store.save_game("gops", '{"game": "gops", "actions": ["ZZ"]}', {"level": "easy"})
    session = open_session(store, "gops", level="easy", fresh=False, options={}, open_hands=False)
    assert session.state.actions == [] and "could not be restored" in session.notices[0]
    assert [b.game for b in store.broken_saves()] == ["gops"]
    store.close()


def test_availability_names_what_is_missing(monkeypatch):
    import parlour.tui.session as session_module

    def missing(name):
        raise ModuleNotFoundError("No module named 'parlour.games.nothing'", name="parlour.games.nothing")

    monkeypatch.setattr(session_module, "game_class", missing)
    assert "parlour.games.nothing" in availability("gops")


def test_the_shown_hand_is_keyed_again_from_the_record_after_a_resume_or_an_undo():
    """Issue 25, point 6: walking the deal's record gives the keys the live table had, and an
    undo gives a card taken back its old key (not a new binding)."""
    import random

    from parlour.tui.arrival import ShownHand

    state = parlour.load("clobby").new_state(seed=4)
    rng = random.Random(2)
    live = ShownHand("clobby")
    history: list[dict[str, str]] = []
    while not state.deals and state.current_player is not None:
        hand, bound = live.show(dict(state.view(0)), state.current_pack(), True)
        walked = ShownHand.from_record(state, 0, True)
        assert walked.show(dict(state.view(0)), state.current_pack(), True) == (hand, bound)
        assert not walked.rebound  # nothing joined since the walk's last look
        history.append(bound)
        if len(history) > 6 and state.current_player == 0 and len(hand) == 7:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert len(history[-1]) == 7 and state.current_player == 0  # two cards of nine were played
    state.apply(state.legal_actions()[0])
    state.undo(1)  # the card comes back: with the key it had, nothing bound again
    walked = ShownHand.from_record(state, 0, True)
    assert walked.show(dict(state.view(0)), state.current_pack(), True)[1] == history[-1]
    assert sorted(history[-1].values()) != list("1234567")  # the keys of the cards played stay unused


def test_a_choice_of_several_keys_is_decoded_key_by_key():
    """KeySequence: x, then a rank and a suit, calls a card; b, then a card's key, announces with it;
    a key that is no answer is refused and the keys before it stand; Esc cancels."""
    from parlour.keyseq import KeySequence

    calls = ["call AS", "call KD", "pass"]
    keys = KeySequence("sixbid")
    assert keys.starts("x", calls, False) and not keys.starts("p", calls, False)
    assert keys.feed("x", {}, calls, parlour.load("sixbid").PACK)[0] == "more" and keys.typed == "x"
    status, said = keys.feed("z", {}, calls, parlour.load("sixbid").PACK)
    assert status == "refused" and "not a rank" in said and keys.typed == "x"
    assert keys.feed("a", {}, calls, parlour.load("sixbid").PACK)[0] == "more" and keys.typed == "xa"
    assert keys.feed("s", {}, calls, parlour.load("sixbid").PACK) == ("done", "call AS") and keys.typed == ""

    bella = KeySequence("clobby")
    legal = ["QH", "7C", "QH+bella"]
    assert bella.starts("b", legal, True) and not bella.starts("b", legal, False)
    status, said = bella.feed("b", {"QH": "5", "7C": "1"}, legal, [])
    assert status == "more" and "5 QH" in said
    assert bella.feed("9", {"QH": "5", "7C": "1"}, legal, [])[0] == "refused" and bella.typed == "b"
    assert bella.feed("5", {"QH": "5", "7C": "1"}, legal, []) == ("done", "QH+bella")
    bella.feed("b", {"QH": "5"}, legal, [])
    assert bella.feed("", {"QH": "5"}, legal, []) == ("cancelled", "Cancelled: choose again.") and not bella.typed
