"""Actions as values: what an action string means, parsed once, and said back exactly.

Why: interfaces and narration used to take action strings apart by hand (``"call AD"``
split at its space, ``"KC+bella"`` at its plus), each in its own way.  Each game now says
once, in its package's ``actions`` module, which strings are its actions and what they are:
``parse_action(text) -> Action`` (a ``ValueError`` subclass below for text that is none) and
``str(action)`` giving back exactly the string, as python-chess's ``Move.from_uci``/``uci``.
The public API stays strings; these values are for code that needs to know what a string is.

The kinds of action are shared by every game, so generic code can ask what an action is
without naming a game: a card played (maybe with an announcement), a word naming a card, a
word naming a suit, or a word said.  ``parser(game)`` finds a game's ``parse_action``
through the registry (``part(game, "actions")``); a game without one gets ``parse_plain``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .cards import is_card
from .registry import part


class ActionError(ValueError):
    """Text that is no action of the game (a ValueError, so callers may catch either)."""


class UnknownWord(ActionError):
    """A word (or shape of text) the game has no action for."""


class UnknownCard(ActionError):
    """A card code that is not in the game's pack."""


class UnknownAnnouncement(ActionError):
    """A card played with an announcement the game does not have (or on a card it may not go with)."""


class UnknownSuit(ActionError):
    """A suit the game's action may not name."""


@dataclass(frozen=True, slots=True)
class Play:
    """A card of the hand played, with the announcement made with it, if any (``KC+bella``)."""

    card: str
    announcement: str = ""

    def __str__(self) -> str:
        return f"{self.card}+{self.announcement}" if self.announcement else self.card


@dataclass(frozen=True, slots=True)
class Choice:
    """A word naming something that is not played, ``<word> <named>``: a card or a suit.

    Why one value type: both kinds are the same two words, read by ``words_parser`` and said back by
    ``str()`` alike; what ``named`` is (a card code, a suit letter) is the kind, told apart by the
    subclass, so that code can ask which one a choice names.
    """

    word: str
    named: str

    def __str__(self) -> str:
        return f"{self.word} {self.named}"


@dataclass(frozen=True, slots=True)
class CardChoice(Choice):
    """A word naming a card that is not played (Six-Bid's ``call AD``): ``named`` is the card."""


@dataclass(frozen=True, slots=True)
class SuitChoice(Choice):
    """A word naming a suit (Clobby's ``name H``, Six-Bid's ``trump C``): ``named`` is the suit."""


@dataclass(frozen=True, slots=True)
class Say:
    """A word said: a bid, a pass, an answer (``pass``, ``name sans-tout``)."""

    word: str

    def __str__(self) -> str:
        return self.word


Action = Play | CardChoice | SuitChoice | Say
Parser = Callable[[str], Action]


def parse_plain(text: str) -> Action:
    """A game without an ``actions`` module: a card code is a card played (``KC+word`` the card
    with an announcement), anything else a word.

    Why a default: a third-party game needs no actions module to be played and narrated;
    without one its actions are read the way they always were ("plays KC", "says pass").
    """
    if not text:
        raise UnknownWord("an action is never empty")
    card, plus, said = text.partition("+")
    if plus and said and is_card(card):
        return Play(card, said)
    return Play(text) if is_card(text) else Say(text)


def parser(game: str) -> Parser:
    """The game's ``parse_action`` (its package's ``actions`` module), or ``parse_plain``."""
    module = part(game, "actions")
    found = getattr(module, "parse_action", None) if module is not None else None
    return found if callable(found) else parse_plain


def parse(game: str, text: str) -> Action | None:
    """``text`` as one of ``game``'s actions, or None if it is none (for code that only asks)."""
    try:
        return parser(game)(text)
    except ValueError:
        return None


def words_parser(pack: frozenset[str], words: frozenset[str], *, announcements: dict[str, frozenset[str]] | None = None,
                 card_words: frozenset[str] = frozenset(), suit_words: dict[str, str] | None = None) -> Parser:
    """A ``parse_action`` built from a game's vocabulary: the cards of its pack, the words it
    says, the announcements (word -> the cards it may go with), the words naming a card, and
    the words naming a suit (word -> the suits it may name).

    Why one builder: every game's actions are these same few shapes; only its words differ.
    Words are looked up whole first, so a word with a space (``name sans-tout``) is a word.
    """
    announced = announcements or {}
    suited = suit_words or {}

    def parse_action(text: str) -> Action:
        if text in words:
            return Say(text)
        if text in pack:
            return Play(text)
        if "+" in text:
            card, _, said = text.partition("+")
            if card not in pack:
                raise UnknownCard(f"{card!r} is not a card of this game")
            if card not in announced.get(said, frozenset()):
                raise UnknownAnnouncement(f"{text!r}: no announcement {said!r} goes with {card}")
            return Play(card, said)
        word, space, rest = text.partition(" ")
        if space and word in card_words:
            if rest not in pack:
                raise UnknownCard(f"{text!r}: {rest!r} is not a card of this game")
            return CardChoice(word, rest)
        if space and word in suited:
            if len(rest) != 1 or rest not in suited[word]:
                raise UnknownSuit(f"{text!r}: {rest!r} is not a suit {word} may name")
            return SuitChoice(word, rest)
        if is_card(text):
            raise UnknownCard(f"{text!r} is not a card of this game")
        raise UnknownWord(f"{text!r} is no action of this game")

    return parse_action
