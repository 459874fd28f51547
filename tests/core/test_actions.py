"""Actions parsed once (``parlour.actions`` and each game's ``actions`` module).

Why these tests: the parser is the one place that says what an action string is, so it must
give every string of every game's action space back exactly, refuse what is no action with
a ValueError of the right kind, and be found through the registry alone.
"""

from __future__ import annotations

import random

import pytest

from parlour import registry, text
from parlour.actions import (
    CardChoice,
    Play,
    Say,
    SuitChoice,
    UnknownAnnouncement,
    UnknownCard,
    UnknownSuit,
    UnknownWord,
    parse,
    parse_plain,
    parser,
)
from parlour.adapters.encoding import GameSpec
from parlour.cards import is_card

#: Each game with the option values its action space depends on (GOPS: how many cards).
VARIANTS = [(name, {}) for name in registry.names()] + [("gops", {"cards": n}) for n in (3, 5, 8, 13)]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_every_action_round_trips(name: str, options: dict[str, int]) -> None:
    game = registry.load(name, **options)
    parse_action = parser(name)
    assert parse_action is not parse_plain, f"{name} has no actions module"
    for said in game.action_space():
        action = parse_action(said)
        assert str(action) == said
        assert parse_action(str(action)) == action


def test_kinds_and_fields() -> None:
    assert parser("sixbid")("call AD") == CardChoice("call", "AD")
    assert parser("sixbid")("call") == Say("call")
    assert parser("sixbid")("trump C") == SuitChoice("trump", "C")
    assert parser("clobby")("KC+bella") == Play("KC", "bella")
    assert parser("clobby")("name H") == SuitChoice("name", "H")
    assert parser("clobby")("name sans-tout") == Say("name sans-tout")
    assert parser("schafkopf")("pick-up") == Say("pick-up")
    assert parser("truc")("TH") == Play("TH")
    assert parser("gops")("KS") == Play("KS")


@pytest.mark.parametrize(("name", "text", "error"), [
    ("sixbid", "call XX", UnknownCard),
    ("sixbid", "call 2C", UnknownCard),
    ("sixbid", "2C", UnknownCard),
    ("sixbid", "trump X", UnknownSuit),
    ("sixbid", "trump CD", UnknownSuit),
    ("sixbid", "bella", UnknownWord),
    ("sixbid", "", UnknownWord),
    ("sixbid", "KC+bella", UnknownAnnouncement),
    ("clobby", "AC+bella", UnknownAnnouncement),
    ("clobby", "KC+belote", UnknownAnnouncement),
    ("clobby", "ZZ+bella", UnknownCard),
    ("clobby", "name X", UnknownSuit),
    ("clobby", "call AS", UnknownWord),
    ("clobby", "Take", UnknownWord),
    ("schafkopf", "6C", UnknownCard),
    ("truc", "call AS", UnknownWord),
    ("gops", "AD", UnknownCard),
    ("gops", "pass", UnknownWord),
])
def test_malformed_text_is_refused(name: str, text: str, error: type[ValueError]) -> None:
    with pytest.raises(error):
        parser(name)(text)
    assert issubclass(error, ValueError)
    assert parse(name, text) is None


def test_a_game_without_an_actions_module_gets_the_plain_parser() -> None:
    assert parse_plain("KC") == Play("KC")
    assert parse_plain("pass") == Say("pass")
    assert parse_plain("KC+bella") == Play("KC", "bella")
    assert parse_plain("call AD") == Say("call AD")
    with pytest.raises(UnknownWord):
        parse_plain("")


# -- the same answers as the hand parsing they replaced (base commit c85c02f) -----------------
def _old_action_kind(game: str, action: str) -> str | None:
    keys = text.choice_keys(game)
    if action in keys:
        return action
    if "+" in action:
        suffix = "+" + action.partition("+")[2]
        if suffix in keys:
            return suffix
    first, _, rest = action.partition(" ")
    if rest and f"{first} *" in keys:
        return f"{first} *"
    return None


def _old_speak(game: str, action: str) -> str:
    if game == "clobby":
        card, _, bella = action.partition("+")
        verb = "plays" if is_card(card) else "says"
        return f"{verb} {card} and announces bella!" if bella == "bella" else f"{verb} {card}"
    return f"{'plays' if is_card(action) else 'says'} {action}"


def _old_sequence(game: str, action: str, card_keys: dict[str, str]) -> str:
    kind = _old_action_kind(game, action)
    if kind is None:
        return ""
    key = text.choice_keys(game)[kind]
    if text.names_a_card(kind):
        return key + action.partition(" ")[2].lower()
    if text.announces(kind):
        return key + card_keys.get(action[: -len(kind)], "")
    return key


def _random_legal_actions(name: str, games: int = 4, seed: int = 23) -> list[tuple[str, list[str], list[str]]]:
    """(action, the legal actions with it, the hand) at every position of a few seeded random games."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        state = registry.load(name).new_state(seed=seed + g)
        for _ in range(400):
            if state.is_over:
                break
            seat = state.current_player
            view = state.view(seat)
            legal = list(view["legal_actions"])
            for action in legal:
                out.append((action, legal, list(view.get("hand") or [])))
            state.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize("name", registry.names())
def test_parsed_actions_give_the_same_words_and_keys_as_before(name: str) -> None:
    seen = _random_legal_actions(name)
    assert len(seen) > 200
    for action, legal, hand in seen:
        card_keys = {c: text.CARD_KEYS[i] for i, c in enumerate(hand)}
        assert text.action_kind(name, action) == _old_action_kind(name, action), action
        assert text.speak_action(name, action) == _old_speak(name, action), action
        assert text.choice_sequence(name, action, card_keys) == _old_sequence(name, action, card_keys), action
        for kind in text.choice_keys(name):
            if text.announces(kind):
                old = [a[: -len(kind)] for a in legal if a.endswith(kind)]
                assert text.announced_cards(name, kind, legal) == old
            if text.names_a_card(kind):
                old = [a.rpartition(" ")[2] for a in legal if _old_action_kind(name, a) == kind]
                assert text.named_cards(name, kind, legal) == old


@pytest.mark.parametrize("name", registry.names())
def test_the_adapters_find_the_same_cards_in_actions(name: str) -> None:
    spec = GameSpec(name, {})
    old = {a: a.split("+", 1)[0] for a in spec.actions if is_card(a.split("+", 1)[0])}
    assert spec.played == old
