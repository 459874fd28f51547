"""What every game shows in line mode, and how typed input becomes an action."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..cards import is_card
from ..registry import game_class, part
from ..table import Event, seat_names


def game_lines(game: str) -> ModuleType | None:
    """The game's own text module (``describe``/``summarize``), if it has one."""
    return part(game, "text")


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "(none)"


def _trick(cards: list[list[Any]], names: tuple[str, ...]) -> str:
    return ", ".join(f"{names[seat]} {card}" for seat, card in cards)


def render(view: dict[str, Any], human: int | None = None) -> str:
    """The screen for one seat: scores, the game's own lines, trick, hand, and the choices."""
    game = view["game"]
    names = seat_names(view["num_players"])
    title = game_class(game).title or game
    out = [f"--- {title}: deal {view['deal_number']}, {view['phase']} ---"]
    scores = ", ".join(f"{names[s]}{' (you)' if s == human else ''} {v}" for s, v in enumerate(view["scores"]))
    out.append(f"Scores: {scores}")
    if view.get("num_players", 2) > 2 or game != "gops":
        out.append(f"Dealer: {names[view['dealer']]}")
    module = game_lines(game)
    if module is not None and hasattr(module, "describe"):
        out += module.describe(view)
    if view.get("trick"):
        out.append(f"Trick: {_trick(view['trick'], names)}")
    for seat, hand in sorted((view.get("open_hands") or {}).items()):
        if int(seat) != view["seat"]:
            out.append(f"{names[int(seat)]}'s hand (open): {_cards(hand)}")
    out.append(f"Your hand: {_cards(view.get('hand', []))}")
    player = view["current_player"]
    if player is None:
        pass
    elif player == view["seat"]:
        out.append("Your choices: " + "  ".join(f"{i}) {a}" for i, a in enumerate(view["legal_actions"], 1)))
    else:
        out.append(f"Waiting for {names[player]}.")
    return "\n".join(out)


def narrate(event: Event, game: str, num_players: int, human: int | None = None) -> list[str]:
    """Lines describing a table event, never revealing a private action's card."""
    names = list(seat_names(num_players))
    if human is not None:
        names[human] = f"{names[human]} (you)"
    if event.kind == "action":
        seat = names[event.seat] if event.seat is not None else "?"
        action = event.data.get("action")
        if action is None:
            return [f"{seat} has chosen, face down."]
        verb = "plays" if is_card(action.split("+")[0]) else "says"
        extra = " and announces bella!" if action.endswith("+bella") else ""
        return [f"{seat} {verb} {action.split('+')[0]}{extra}"]
    if event.kind == "trick":
        cards = _trick(event.data.get("cards", []), tuple(names))
        won = names[event.seat] if event.seat is not None else "nobody"
        extra = ""
        if "prizes" in event.data:
            extra = f" for {' '.join(event.data['prizes'])}"
        return [f"Trick: {cards} — won by {won}{extra}."]
    if event.kind == "deal_scored":
        module = game_lines(game)
        lines = [f"=== Deal {event.data.get('deal', '')} over ==="]
        if module is not None and hasattr(module, "summarize"):
            lines += module.summarize(event.data)
        scores = event.data.get("scores", [])
        lines.append("This deal: " + ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(scores)))
        return lines
    if event.kind == "deal":
        return [f"--- Deal {event.data['deal']}: {names[event.data['dealer']]} deals. ---"]
    if event.kind == "replay":
        return [f"--- Replaying the previous deal: {names[event.data['dealer']]} deals the same pack. ---"]
    if event.kind == "game_over":
        scores = ", ".join(f"{names[s]} {v}" for s, v in enumerate(event.data["scores"]))
        winner = event.data["winner"]
        result = "no winner (a tie)" if winner is None else f"{names[winner]} wins"
        return [f"*** Game over: {scores}. {result}. ***"]
    return []


def resolve(text: str, legal: list[str]) -> tuple[str | None, str]:
    """Turn what the player typed into one legal action, or explain why it cannot.

    Accepted, in order: the number shown beside a choice; the action itself (any case;
    ``10h`` for ``TH``); the last word of exactly one action (``AD`` for ``call AD``,
    ``H`` for ``name H``); the start of exactly one action (``sch`` for ``schmeiss``).
    """
    typed = " ".join(text.strip().split())
    if not typed:
        return None, "type one of the choices (or its number)"
    if typed.isdigit():
        n = int(typed)
        if 1 <= n <= len(legal):
            return legal[n - 1], ""
        return None, f"there is no choice {n}; choose 1 to {len(legal)}"
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
    if is_card(norm):
        return None, f"you cannot play {norm} now; you may: {' '.join(legal)}"
    return None, f"{typed!r} is not a choice now; you may: {' '.join(legal)}"
