"""What every game shows in line mode, and how typed input becomes an action.

The narration (``narrate``) is the shared text layer's (``parlour.text``), used by the terminal
table too; this module adds only line mode's screen and its reading of typed input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..cards import is_card
from ..registry import game_class
from ..table import seat_names
from ..text import (
    action_kind,
    announced_cards,
    announces,
    cards_text,
    choice_keys,
    describe,
    has_dealer,
    kind_word,
    named_cards,
    names_a_card,
    prompt,
    trick_text,
)


def render(view: Mapping[str, Any], human: int | None = None) -> str:
    """The screen for one seat: scores, the game's own lines, trick, hand, and the choices."""
    game = view["game"]
    names = seat_names(view["num_players"])
    title = game_class(game).title or game
    out = [f"--- {title}: deal {view['deal_number']}, {view['phase']} ---"]
    scores = ", ".join(f"{names[s]}{' (you)' if s == human else ''} {v}" for s, v in enumerate(view["scores"]))
    out.append(f"Scores: {scores}")
    if has_dealer(game):
        out.append(f"Dealer: {names[view['dealer']]}")
    out += describe(view)
    if view.get("trick"):
        out.append(f"Trick: {trick_text(view['trick'], names)}")
    for seat, hand in sorted((view.get("open_hands") or {}).items()):
        if int(seat) != view["seat"]:
            out.append(f"{names[int(seat)]}'s hand (open): {cards_text(hand)}")
    out.append(f"Your hand: {cards_text(view.get('hand', []))}")
    player = view["current_player"]
    if player is None:
        pass
    elif player == view["seat"]:
        asked = prompt(view, list(view["legal_actions"]), list(view.get("hand") or []))
        if asked:
            out.append(f"{asked}.")
        legal = list(view["legal_actions"])
        listed = numbered(game, legal)
        if listed:
            out.append("Your choices: " + "  ".join(f"{i}) {a}" for i, a in enumerate(listed, 1)))
        out += card_choice_lines(game, [a for a in legal if a not in listed])
    else:
        out.append(f"Waiting for {names[player]}.")
    return "\n".join(out)


def numbered(game: str, legal: list[str]) -> list[str]:
    """The choices shown with a number: all but those that name a card (``call AS``) or play one
    with an announcement (``QH+bella``), which are typed with their own keys (``x AS``, ``b QH``)
    so that nothing picks them by a place in a list."""
    return [a for a in legal if not (names_a_card(kind := action_kind(game, a)) or announces(kind))]


def card_choice_lines(game: str, actions: list[str]) -> list[str]:
    """One line per kind of choice naming a card or announcing with one: how to type it, and the
    cards it may name now."""
    lines = []
    for kind in dict.fromkeys(action_kind(game, a) for a in actions):
        if kind is None or not (names_a_card(kind) or announces(kind)):
            continue  # a numbered choice (``pass``): ``numbered`` lists it
        key = choice_keys(game)[kind]
        if announces(kind):
            codes = announced_cards(game, kind, actions)
            lines.append(f"To play a card with {kind_word(kind)}, type {key} and its code (e.g. {key} {codes[-1]}):"
                         f" {' '.join(codes)}")
            continue
        codes = named_cards(game, kind, actions)
        word = kind_word(kind)
        lines.append(f"To {word} a card, type {key} and its code (e.g. {key} {codes[-1]}): {' '.join(codes)}")
    return lines


def typed_card(text: str) -> str | None:
    """The card code a typed word names (``ah``, ``10h`` -> ``AH``, ``TH``), or None."""
    typed = " ".join(text.strip().split())
    norm = typed.upper().replace("10", "T") if len(typed) <= 3 else typed.upper()
    return norm if is_card(norm) else None


def resolve(text: str, legal: list[str], listed: list[str] | None = None) -> tuple[str | None, str]:
    """Turn what the player typed into one legal action, or explain why it cannot.

    Accepted, in order: the number shown beside a choice (in ``listed``, all of ``legal`` by
    default); the action itself (any case;
    ``10h`` for ``TH``); the last word of exactly one action (``AD`` for ``call AD``,
    ``H`` for ``name H``); the start of exactly one action (``sch`` for ``schmeiss``).
    """
    typed = " ".join(text.strip().split())
    if not typed:
        return None, "type one of the choices (or its number)"
    if typed.isdigit():
        n = int(typed)
        shown = legal if listed is None else listed
        if 1 <= n <= len(shown):
            return shown[n - 1], ""
        if not shown:
            return None, f"there is no choice {n}: type a card's code as shown"
        return None, f"there is no choice {n}; choose 1 to {len(shown)}"
    norm = typed.upper().replace("10", "T") if len(typed) <= 3 else typed.upper()
    by_upper = {a.upper(): a for a in legal}
    for candidate in (typed.upper(), norm):
        if candidate in by_upper:
            return by_upper[candidate], ""
    last = [a for a in legal if a.split()[-1].upper() in (typed.upper(), norm)]
    if len(last) == 1:
        return last[0], ""
    prefix = [a for a in legal if a.upper().startswith(typed.upper())]
    if len(prefix) == 1:
        return prefix[0], ""
    if len(prefix) > 1:
        return None, f"{typed!r} could be {', '.join(prefix)}: type more of it"
    return None, f"{typed!r} is not a choice now; you may: {' '.join(legal)}"
