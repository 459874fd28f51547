"""Actions parsed once (``parlour.actions`` and each game's ``actions`` module).

Why these tests: the parser is the one place that says what an action string is, so it must
give every string of every game's action space back exactly, refuse what is no action with
a ValueError of the right kind, and be found through the registry alone.
"""

from __future__ import annotations

import pytest

from parlour import registry
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

#: Each game with the option values its action space depends on (GOPS: how many cards).
VARIANTS = [(name, {}) for name in registry.names()] + [("gops", {"cards": n}) for n in (3, 5, 8, 13)]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
def test_every_action_round_trips(name: str, options: dict[str, int]) -> None:
    game = registry.load(name, **options)
    parse_action = parser(name)
    assert parse_action is not parse_plain, f"{name} has no actions module"
    for text in game.action_space():
        action = parse_action(text)
        assert str(action) == text
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
    with pytest.raises(UnknownWord):
        parse_plain("")
