"""How the table is said to people: the narration every interface shares.

Why a layer of its own: line mode, the terminal table and the coming browser table all
tell the same story (who played what, who won the trick, what a deal scored, who won the
game) and must word it alike and never leak a private action.  Each game's own words live
in its ``games/<name>/text.py``; this module asks that module through optional hooks, so
no generic code names a game:

- ``describe(view) -> list[str]``     the game's own lines about a position
- ``felt(view) -> list[(caption, cards)]`` cards lying face up on the table besides the trick
                                      (GOPS's diamond at stake), each group with its caption; an
                                      item may be a suit letter alone: that suit, the trump, drawn
- ``summarize(summary) -> list[str]`` the game's own lines about a scored deal
- ``summary_felt(summary) -> list[(caption, cards)]`` the cards a scored deal turns face up
                                      (Six-Bid's widow), drawn with its summary
- ``speak_action(action) -> str``     how an action is said after the seat's name
                                      (default: "plays KC" for a card, "says pass" otherwise)
- ``joke(rng) -> str``                a one-liner between deals (the ``jokes`` setting)

What a game declares on its ``Game`` class (``HAS_DEALER``) is asked through ``has_dealer``;
what an action string is (a card played, a card called, a suit named) is asked of the game's
``actions`` module through ``parlour.actions``, never read off the string here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

from .actions import CardChoice, Play, SuitChoice, parse, parser
from .cards import SUIT_SYMBOLS, is_card
from .registry import game_class, part
from .table import Event, seat_names

if TYPE_CHECKING:
    from .store import FinishedGame, GameStats, LossTrend


def game_text(game: str) -> ModuleType | None:
    """The game's own text module, if it has one."""
    return part(game, "text")


def has_dealer(game: str) -> bool:
    """Whether interfaces show a dealer for ``game`` (its ``HAS_DEALER``)."""
    return bool(game_class(game).HAS_DEALER)


def plural(n: int, word: str) -> str:
    """``1 move``, ``3 moves``: a count said as a person would, never ``1 moves`` or ``move(s)``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def cards_text(cards: Sequence[str]) -> str:
    return " ".join(cards) if cards else "(none)"


def trick_text(cards: Sequence[Sequence[Any]], names: Sequence[str]) -> str:
    return ", ".join(f"{names[seat]} {card}" for seat, card in cards)


def seat_labels(num_players: int, human: int | None = None) -> list[str]:
    """The seats' names, the human's marked "(you)"."""
    names = list(seat_names(num_players))
    if human is not None:
        names[human] = f"{names[human]} (you)"
    return names


def describe(view: Mapping[str, Any]) -> list[str]:
    """The game's own lines about ``view`` (none if its text module has no ``describe``)."""
    hook = _hook(view["game"], "describe")
    return list(hook(view)) if hook is not None else []


def felt(view: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """The cards lying face up on the table besides the trick, as captioned groups (none by default).

    Why a hook: what is at stake must be where the eye is, on the table, not only a line of
    ``describe``; generic code cannot know which of a game's view keys are such cards.  An item
    is a card code, or a suit letter alone (``"C"``): the suit itself, the trump once it is
    fixed, drawn as a card of that suit rather than only named in a sentence.
    """
    hook = _hook(view["game"], "felt")
    return [(str(caption), list(cards)) for caption, cards in hook(view)] if hook is not None else []


def summary_felt(game: str, summary: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """The cards a scored deal turns face up (Six-Bid's widow, Schafkopf's skat), as ``felt``'s groups.

    Why apart from ``summarize``: its lines name the cards for every interface; a page can also
    draw them, and only the game knows which of its summary's keys are such cards.
    """
    hook = _hook(game, "summary_felt")
    return [(str(caption), list(cards)) for caption, cards in hook(summary)] if hook is not None else []


def trick_word(game: str) -> str:
    """What the game calls the cards played to one round of play (its ``TRICK_WORD``: GOPS's "turn")."""
    return str(getattr(game_text(game), "TRICK_WORD", "trick"))


def summarize(game: str, summary: dict[str, Any]) -> list[str]:
    """The game's own lines about a scored deal (none if its text module has no ``summarize``)."""
    hook = _hook(game, "summarize")
    return list(hook(summary)) if hook is not None else []


def speak_action(game: str, action: str) -> str:
    """How ``action`` is said after the seat's name: the game's ``speak_action`` or the default."""
    hook = _hook(game, "speak_action")
    if hook is not None:
        return str(hook(action))
    parsed = parse(game, action)
    return f"{'plays' if isinstance(parsed, Play) and not parsed.announcement else 'says'} {action}"


def speak_hidden(game: str, event: Event, own: str | None = None) -> str | None:
    """How a private action is said after the seat's name; None: nothing to say yet.

    Why a hook: a hidden choice made in several actions (Schafkopf's two-card discard) is one
    thing to announce, not one line per card.  The game's ``speak_hidden(phase, next_phase, own)``
    sees the phase the action was made in and the phase after it (both public, put in the event
    by the table) and, for the player's own action only, the action.  Default: each private
    action is said once ("has chosen, face down", or "chooses 8C, face down" to its player).
    """
    hook = _hook(game, "speak_hidden")
    if hook is not None:
        said = hook(event.data.get("phase"), event.data.get("next_phase"), own)
        return str(said) if said else None
    return f"chooses {own}, face down." if own is not None else "has chosen, face down."


def standing_line(game: str, summary: Mapping[str, Any], scores: Sequence[int], names: Sequence[str]) -> str | None:
    """The running totals said after a deal summary ("Scores now: ..."), or None when there are none to say.

    Why the game is asked: in a game of rounds (Le Truc) the scores go back to 0-0 when a round
    is won, so "Scores now: 0, 0" right after "South wins round 1" reads as a mistake; the
    game's ``standing(summary)`` returns False where its summary already says where things stand.
    """
    hook = _hook(game, "standing")
    if hook is not None and not hook(dict(summary)):
        return None
    return "Scores now: " + ", ".join(f"{names[s]} {v}" for s, v in enumerate(scores))


def joker(game: str) -> Callable[[random.Random], str] | None:
    """The game's ``joke(rng)``, if it tells jokes."""
    return cast("Callable[[random.Random], str] | None", _hook(game, "joke"))


def _hook(game: str, name: str) -> Callable[..., Any] | None:
    module = game_text(game)
    hook = getattr(module, name, None) if module is not None else None
    return cast("Callable[..., Any] | None", hook)


def trick_line(trick: Mapping[str, Any], winner: int | None, names: Sequence[str]) -> str:
    """One line for a won trick: its cards, its winner and, if the trick had any, its prizes."""
    cards = trick_text(trick.get("cards") or [], names)
    won = names[winner] if winner is not None else "nobody"
    prizes = trick.get("prizes")
    extra = f" for {' '.join(prizes)}" if prizes else ""
    return f"Trick: {cards} — won by {won}{extra}."


def last_trick_line(trick: Mapping[str, Any] | None, num_players: int, human: int | None = None) -> str:
    """The last trick (a view's ``last_trick``), as the ``l`` key shows it in every interface."""
    if not trick:
        return "No trick yet."
    return trick_line(trick, trick.get("winner"), seat_labels(num_players, human))


def narrate(event: Event, game: str, num_players: int, human: int | None = None,
            own: str | None = None) -> list[str]:
    """Lines describing a table event, never revealing a private action's card.

    ``own`` is the human's own private action, which only the human's interface knows (the
    event does not hold it): said to that player alone, through ``speak_hidden``.
    """
    names = seat_labels(num_players, human)
    if event.kind == "action":
        seat = names[event.seat] if event.seat is not None else "?"
        action = event.data.get("action")
        if action is None or own is not None:
            said = speak_hidden(game, event, own)
            return [f"{seat} {said}"] if said else []
        return [f"{seat} {speak_action(game, action)}"]
    if event.kind == "trick":
        return [trick_line(event.data, event.seat, names)]
    if event.kind == "deal_scored":
        lines = [f"=== Deal {event.data.get('deal', '')} over ==="]
        lines += summarize(game, event.data)
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


def deal_summary(game: str, summary: dict[str, Any], num_players: int, human: int | None = None) -> list[str]:
    """A scored deal's lines for a summary box: its narration without the ``=== Deal N over ===``
    heading, which a log needs and a box has as its title ("The deal is over")."""
    return narrate(Event("deal_scored", None, dict(summary)), game, num_players, human)[1:]


def game_result(num_players: int, seat: int | None, winner: int | None, ended: Mapping[str, Any] | None = None,
                *, left: bool = False) -> str:
    """A finished game's result from ``seat``'s side (None: nobody's, a demo), as every list of games says it.

    ``ended``: how it ended short of its end (the record's ``"ended"``; a row of the store's
    finished games carries it), so a resigned three-player game, which has no winner, reads
    "lost (you resigned)" or "East resigned", never "drawn"; ``left``: that seat's person left it
    to a computer player; a table closed unplayed (``"how": "closed"``) reads "closed unfinished".
    Why one function: ``parlour history`` and both lists of the browser's history page said it,
    each its own way, and the two of the page called such a game drawn.
    """
    if seat is None:
        return "demo"
    if left:
        return "you left your seat (a computer played on)"
    if ended and ended.get("how") == "closed":
        return "closed unfinished (no move for a long time)"
    plain = "drawn" if winner is None else "won" if winner == seat else "lost"
    quitter = ended.get("seat") if ended and ended.get("how") == "resignation" else None
    if not isinstance(quitter, int):
        return plain
    if quitter == seat:
        return "lost (you resigned)"
    names = seat_names(num_players)
    who = names[quitter] if 0 <= quitter < len(names) else f"Seat {quitter}"
    return f"{who} resigned (no winner)" if winner is None else f"{plain} ({who} resigned)"


def history_result(row: FinishedGame) -> str:
    """``game_result`` for a row of the store's finished games (its person's seat, winner and ending)."""
    try:
        num_players = game_class(row.game).num_players
    except ValueError:  # a game no longer installed: its seats are named by number
        num_players = 0
    return game_result(num_players, row.human_seat, row.winner, row.ended)


def format_stats(rows: Sequence[GameStats], trends: Sequence[LossTrend] = ()) -> str:
    """The statistics table (finished games per game and level), as line mode and the TUI show it,
    and after it the average loss per deal over time (``trends``: ``Store.loss_trends``).

    The ``resigned`` column only once a game ended by a resignation (a browser table's): the
    terminal's games never do, and their table keeps its width.
    """
    if not rows:
        return "\n".join(["No finished games yet.", *trend_lines(trends)])
    resigns = any(r.resigned for r in rows)
    head = (f"{'game':<10} {'level':<7} {'played':>6} {'won':>5} {'+undo':>5} {'lost':>5} {'drawn':>5}"
            + (f" {'resigned':>8}" if resigns else "") + f" {'won %':>6}")
    lines = [head, "-" * len(head)]
    for r in rows:
        undone = r.won_with_undo
        clean = r.won - undone
        pct = 100.0 * clean / r.played if r.played else 0.0
        lines.append(f"{r.game:<10} {r.level:<7} {r.played:>6} {clean:>5} {undone:>5} {r.lost:>5}"
                     f" {r.drawn:>5}" + (f" {r.resigned:>8}" if resigns else "") + f" {pct:>5.1f}%")
    lines.append("won: clean wins; +undo: wins after taking moves back (counted apart); won % counts clean wins.")
    if resigns:
        lines.append("resigned: games ended by a resignation (lost by whoever resigned; never counted as drawn).")
    return "\n".join(lines + trend_lines(trends))


def trend_lines(trends: Sequence[LossTrend]) -> list[str]:
    """The average loss per deal over time, per game, from the reviews of your deals
    (``Store.loss_trends``): "Your average loss per Schafkopf deal: 4.1 points over your last 20
    deals, 6.8 over the 20 before." (a blank line first)."""
    out = []
    for t in trends:
        title = game_class(t.game).title or t.game
        line = (f"Your average loss per {title} deal: {t.recent:.1f} {t.unit} over your last "
                f"{plural(t.recent_deals, 'deal')}")
        if t.earlier is not None:
            line += f", {t.earlier:.1f} over the {plural(t.earlier_deals, 'deal')} before"
        out.append(line + ".")
    if out:
        out = ["", *out, "(loss: what your choices lost to best play by what you knew, from each deal's review;"
               " `parlour review` shows them)"]
    return out


# -- keys: what each key means at the table, the same in every interface ------------------------
#: The keys of the cards in a hand, left to right (see ``CardKeys``: bound again when cards join it).
CARD_KEYS = "123456789abcdefghijk"
#: The keys of a game keyed by rank (``RANK_KEYS``), as the key tables show them.
RANKS_SHOWN = "A 2-9 T J Q K"
#: The table's own letters and what each does, by name (the terminal screen's actions and the
#: browser page's functions are called so): last trick, undo, replay, score sheet, options.  Upper
#: case always means the table; lower case too, unless the game uses that letter for one of its choices.
TABLE_LETTER_FUNCTIONS: dict[str, str] = {"l": "last_trick", "u": "undo", "r": "replay", "s": "score_sheet",
                                          "o": "options"}
TABLE_LETTERS = frozenset(TABLE_LETTER_FUNCTIONS)
#: Y and N answer a yes/no question in every game (its ``YES_NO``); never a game's choice key.
YES_KEY, NO_KEY = "y", "n"


def choice_keys(game: str) -> dict[str, str]:
    """The game's ``CHOICE_KEYS`` (action kind -> key), declared once in its text module.

    An action kind is the action itself (``pass``, ``name C``), a suffix (``+bella`` for
    ``KC+bella``) or a first word with any card after it (``call *`` for ``call AS``).
    """
    module = game_text(game)
    return dict(getattr(module, "CHOICE_KEYS", {}) or {})


def action_kind(game: str, action: str) -> str | None:
    """Which of the game's ``CHOICE_KEYS`` kinds ``action`` is (None: a card, or undeclared)."""
    keys = choice_keys(game)
    if action in keys:
        return action
    parsed = parse(game, action)
    if isinstance(parsed, Play) and parsed.announcement:
        kind = "+" + parsed.announcement
    elif isinstance(parsed, CardChoice):
        kind = f"{parsed.word} *"
    else:
        return None
    return kind if kind in keys else None


def choice_key(game: str, action: str) -> str:
    """The fixed key of a choice ('' if it has none: a card, which has a ``CardKeys`` key)."""
    kind = action_kind(game, action)
    return choice_keys(game)[kind] if kind is not None else ""


def key_kind(game: str, char: str) -> str | None:
    """The kind of choice whose fixed key ``char`` is (None: no choice of ``game`` has it)."""
    key = char.lower()
    return next((kind for kind, k in choice_keys(game).items() if k == key), None) if key else None


def names_a_card(kind: str | None) -> bool:
    """Whether a kind of choice names a card (``call *``): its key is followed by the card's rank and suit."""
    return kind is not None and kind.endswith(" *")


def announces(kind: str | None) -> bool:
    """Whether a kind of choice is a card of the hand played with an announcement (a suffix kind,
    ``+bella`` for ``QH+bella``): its key is followed by that card's own key (``CardKeys``)."""
    return kind is not None and kind.startswith("+")


def kind_word(kind: str) -> str:
    """The word of a kind that names or announces with a card (``call *`` -> ``call``, ``+bella``
    -> ``bella``); any other kind is its own word.  Why one place: the kinds' two shapes are
    read by the prompts, the key table and the browser alike."""
    if names_a_card(kind):
        return kind[:-2]
    return kind[1:] if announces(kind) else kind


def choice_sequence(game: str, action: str, card_keys: Mapping[str, str] | None = None) -> str:
    """All the keys that make ``action``: its kind's key, then for a kind that names a card the
    card's rank and suit keys (``call AS`` -> ``xas``), for a card played with an announcement
    the key that card has in the hand all deal (``card_keys``: ``QH+bella`` -> ``b5`` when Q♥ is
    under 5), so every such choice has keys of its own that never move to another choice
    ('' for a card of the hand, which has a ``CardKeys`` key)."""
    kind = action_kind(game, action)
    if kind is None:
        return ""
    key = choice_keys(game)[kind]
    parsed = parse(game, action)
    if names_a_card(kind) and isinstance(parsed, CardChoice):
        return key + parsed.named.lower()
    if announces(kind) and isinstance(parsed, Play):
        return key + (card_keys or {}).get(parsed.card, "")
    return key


def announced_choice(game: str, typed: str, card_keys: Mapping[str, str],
                     legal: Sequence[str] = ()) -> tuple[str, str]:
    """Keys typed for a card played with an announcement: its kind's key, then the card's own key.

    Why the card's key and not a key of its own: the announcement goes with a card of the hand,
    and that card already has a key bound to it for the whole deal, so ``b`` then Q♥'s key is the
    same keys all deal and never moves to another card (one key shared by every such choice
    used to cycle between them).  ``card_keys`` is card -> key for the hand on screen; ``legal``
    only lets the first answer list the cards that may be announced now.  Returns ``("more",
    what to press next)``, ``("done", action)`` (whether it is legal now is the engine's to say),
    or ``("refused", why)`` for a key that is no card of the hand.
    """
    typed = typed.lower()
    kind = next((k for k, v in choice_keys(game).items() if v == typed[:1] and announces(k)), None)
    if kind is None:
        return "refused", f"{typed[:1].upper()} does not announce anything."
    word = kind_word(kind)
    if len(typed) == 1:
        cards = announced_cards(game, kind, legal)
        offers = [f"{card_keys[c].upper()} {c}" for c in cards if card_keys.get(c)]
        which = f" ({', '.join(offers)})" if offers else ""
        return "more", f"{word.capitalize()} with which card? Press its key{which}; Esc cancels."
    card = next((c for c, k in card_keys.items() if k and k == typed[1]), None)
    if card is None:
        return "refused", f"{typed[1].upper()} is not the key of a card in your hand: press a card's key (Esc cancels)."
    return "done", str(Play(card, word))


def announced_cards(game: str, kind: str, legal: Sequence[str]) -> list[str]:
    """The cards that ``legal`` lets one play with the announcement of ``kind`` (``+bella``), in order."""
    return [parsed.card for a in legal if action_kind(game, a) == kind
            and isinstance(parsed := parser(game)(a), Play)]


def named_cards(game: str, kind: str, legal: Sequence[str]) -> list[str]:
    """The cards that ``legal`` lets one name with the word of ``kind`` (``call *``), in order."""
    return [parsed.named for a in legal if action_kind(game, a) == kind
            and isinstance(parsed := parser(game)(a), CardChoice)]


def typed_announced_choice(game: str, typed: str) -> str | None:
    """Line mode's form of the same: the kind's key, then the card's code (``b QH``, ``bqh``,
    ``b 10h``) -> ``QH+bella``; None if ``typed`` is not that (whether it is legal is the engine's to say)."""
    keys = typed.replace(" ", "").upper().replace("10", "T")
    if len(keys) != 3 or not is_card(keys[1:]):
        return None
    kind = next((k for k, v in choice_keys(game).items() if v == keys[0].lower() and announces(k)), None)
    return str(Play(keys[1:], kind_word(kind))) if kind is not None else None


#: Rank letters in the order a rank list is shown.
_RANK_ORDER = "AKQJT98765432"


def card_choice(game: str, typed: str, pack: Sequence[str]) -> tuple[str, str]:
    """Keys typed for a choice that names a card: its kind's key, then a rank, then a suit.

    Returns ``("more", what to type next)`` while the card is not complete, ``("done", action)``
    once it is (whether the action is legal now is the engine's to say), or ``("refused", why)``
    for a key that is not a rank or a suit of the pack.  ``0`` stands for the ten's ``T``.
    """
    typed = typed.lower()
    kind = next((k for k, v in choice_keys(game).items() if v == typed[:1] and names_a_card(k)), None)
    if kind is None:
        return "refused", f"{typed[:1].upper()} does not name a card."
    word = kind_word(kind)
    ranks = sorted({c[0] for c in pack if is_card(c)}, key=lambda r: _RANK_ORDER.find(r))
    suits = sorted({c[1] for c in pack if is_card(c)})
    rest = typed[1:].upper().replace("0", "T")
    if not rest:
        ask = f"{word.capitalize()} which card? Rank {' '.join(ranks)}, then suit {' '.join(suits)} (Esc cancels)."
        return "more", ask
    if rest[0] not in ranks:
        return "refused", f"{rest[0]} is not a rank: type one of {' '.join(ranks)} (Esc cancels)."
    if len(rest) == 1:
        return "more", f"{word.capitalize()} {rest[0]} of which suit? Type {' '.join(suits)} (Esc cancels)."
    if rest[1] not in suits:
        return "refused", f"{rest[1]} is not a suit: type one of {' '.join(suits)} (Esc cancels)."
    return "done", str(CardChoice(word, rest[:2]))


def typed_card_choice(game: str, typed: str, pack: Sequence[str]) -> str | None:
    """Line mode's form of the same keys: ``x AS``, ``xas`` or ``x 10s`` -> ``call AS``; None otherwise."""
    keys = typed.replace(" ", "").lower().replace("10", "t")
    if len(keys) != 3:
        return None
    status, said = card_choice(game, keys, pack)
    return said if status == "done" else None


def yes_no(game: str, legal: Sequence[str]) -> tuple[str | None, str | None]:
    """The legal answers Y and N stand for now (the game's ``YES_NO``: action -> "yes"/"no")."""
    module = game_text(game)
    answers: dict[str, str] = dict(getattr(module, "YES_NO", {}) or {})
    yes = next((a for a in legal if answers.get(a) == "yes"), None)
    no = next((a for a in legal if answers.get(a) == "no"), None)
    return yes, no


def table_letter(game: str, char: str) -> str | None:
    """The table letter ``char`` means in ``game`` (lower case), or None if it is the game's key."""
    if char.isupper() and char.lower() in TABLE_LETTERS:
        return char.lower()
    if char in TABLE_LETTERS and char not in choice_keys(game).values():
        return char
    return None


def actions_for_key(game: str, char: str, legal: Sequence[str]) -> list[str]:
    """The legal choices (not cards) a typed ``char`` picks: usually one; several share a key
    only when they are one kind (the cards one may call, the cards one may play with an
    announcement), and then the keys after it say which (``choice_sequence``)."""
    key = char.lower()
    out = [a for a in legal if choice_key(game, a) == key]
    if not out and key in (YES_KEY, NO_KEY):
        yes, no = yes_no(game, legal)
        pick = yes if key == YES_KEY else no
        out = [pick] if pick is not None else []
    return out


def refuse_key(game: str, char: str, why: str = "") -> str:
    """One line saying why a key does nothing now (it is never given another meaning); ``why``: the
    engine's reason, where the key's choice is of the sort asked now (``trump H`` while trumps are named)."""
    key = char.lower()
    meaning = next((kind for kind, k in choice_keys(game).items() if k == key), None)
    if meaning is not None:
        what = f"{kind_word(meaning)} a card" if names_a_card(meaning) else meaning
        what = f"a card with {kind_word(meaning)}" if announces(meaning) else what
        return f"{char.upper()} ({what}) is not possible now" + (f": {why}." if why else ".")
    if key in (YES_KEY, NO_KEY):
        return f"{char.upper()} answers a yes/no question; none is asked now."
    if rank_keys(game) and (key.isdigit() or key in "atjqk"):
        return f"{char.upper()} is not the rank of a card you may play now (the keys are the ranks {RANKS_SHOWN})."
    if key in CARD_KEYS:
        return f"{char.upper()} is not the key of a card you may play now."
    return f"{char!r} means nothing at this table (? lists the keys)."


def refuse_card(key: str, card: str, why: str) -> str:
    """One line saying why the key of a card in the hand does not play it now (``why``: the engine's reason)."""
    return f"{key.upper()} is {card}, which you may not play now" + (f": {why}." if why else ".")


def refuse_action(action: str, why: str) -> str:
    """One line saying why a choice typed in full (``call AS``) is not possible now (``why``: the engine's)."""
    return f"{action} is not possible now" + (f": {why}." if why else ".")


#: What a key shared by several choices of one kind says as it moves to the next (``{action}``: that one).
CHOOSE_AGAIN = "{action}: Enter makes it; the same key again picks the next one."


class CardKeys:
    """The keys of the cards in one seat's hand: the rule every interface's card keys follow.

    Whenever cards join the hand (the deal, a second round of dealing, the skat picked up, a
    card received in an exchange), the whole hand is bound again, left to right in the order
    shown: ``1``-``9``, then ``a``, ``b``, ``c``...  From then until the next card joins, no key
    changes: not when a card is played (its key stays unused) and not when the hand is sorted
    differently.  Why bound again rather than a joining card taking the lowest free key: a
    sorted hand then read ``3 7 1 2 8 4 9 5 6``, keys nobody can guess; why nothing moves in
    between: a key that moved to the next card after every play made a habitual key play the
    wrong card (a two-card discard sent the wrong second card).

    In a game whose text module declares ``RANK_KEYS`` (GOPS: a hand is one suit, so a rank
    names a card) a card's key is its rank, ``A 2``-``9 T J Q K``, and never changes.
    ``rebound`` says whether the last ``assign`` bound the hand again (the table says so).
    """

    def __init__(self, game: str | None = None) -> None:
        self._keys: dict[str, str] = {}
        self._deal_key: object = None
        self.by_rank = game is not None and rank_keys(game)
        self.rebound = False

    def assign(self, hand: Sequence[str], deal_key: object = None) -> dict[str, str]:
        """Card -> key for ``hand`` in the order shown; a new ``deal_key`` binds it again too."""
        if self.by_rank:
            return {card: card[0].lower() for card in hand}
        joined = deal_key != self._deal_key or any(card not in self._keys for card in hand)
        self.rebound = joined and bool(hand)
        if joined:
            self._deal_key = deal_key
            self._keys = dict(zip(hand, CARD_KEYS, strict=False))  # cards beyond the keys have none
        return {card: self._keys.get(card, "") for card in hand}

    def card_for(self, char: str, hand: Sequence[str]) -> str | None:
        """The card of ``hand`` whose key is ``char``, if any."""
        key = char.lower()
        if self.by_rank:
            return next((card for card in hand if card[0].lower() == key and key), None)
        return next((card for card in hand if self._keys.get(card) == key and key), None)


def rank_keys(game: str) -> bool:
    """Whether ``game``'s cards are keyed by their ranks (its text module's ``RANK_KEYS``)."""
    return bool(getattr(game_text(game), "RANK_KEYS", False))


def keys_line(keys: Sequence[str]) -> str:
    """The one line a table says when ``CardKeys`` has bound the hand again (``keys`` in order)."""
    spans: list[str] = []
    keys = [k for k in keys if k]
    for run in (k for k in ("".join(keys[:9]), "".join(keys[9:])) if k):
        spans.append(run[0].upper() if len(run) == 1 else f"{run[0]}–{run[-1]}".upper())
    return (f"Your cards are keyed {', '.join(spans)}, left to right; the keys stay until a card"
            " joins your hand.")


def prompt(view: Mapping[str, Any], legal: Sequence[str], hand: Sequence[str]) -> str:
    """What is being asked of the player now, in words: the game's ``prompt(view)`` if it
    says (a discard, a give-back), else "Play a card" / "Choose: ..." from the legal actions."""
    hook = _hook(view["game"], "prompt")
    said = hook(view) if hook is not None else None
    if said:
        return str(said)
    in_hand = set(hand)
    cards = [a for a in legal if a in in_hand]
    others = [a for a in legal if a not in in_hand]
    if cards and others:
        return "Play a card, or choose: " + ", ".join(others)
    if cards:
        return "Play a card"
    if others:
        return "Choose: " + ", ".join(others)
    return ""


# -- the keys of each game's table, as its original program had them ---------------------------
#: What each table function does, in words (a game's ``FKEYS`` maps an F-key to one of these).
FUNCTIONS: dict[str, str] = {
    "sound": "sound on/off",
    "demo": "demo: the computer plays your seat too (again: your seat back)",
    "sort": "sort your hand on/off",
    "options": "options",
    "replay_mode": "replay option on/off (offer to replay each deal)",
    "rules": "instructions (the rules)",
    "replay": "replay the deal (the previous deal's cards, at any point)",
    "quit": "quit to the menu (the game stays saved)",
    "slower": "slower computer",
    "faster": "faster computer",
    "background": "background colour",
    "border": "border colour",
    "jokes": "jokes on/off",
}
#: Keys every table has whatever the game's original had (its F-keys are the game's ``FKEYS``).
TABLE_KEYS: tuple[tuple[str, str], ...] = (
    (".", "hint: show the suggested move (. again or Enter plays it)"),
    ("U", "undo your last move (and the computer's after it)"),
    ("R", "replay the deal (the previous deal's cards)"),
    ("S", "score sheet of this game, deal by deal"),
    ("L", "the last trick"),
    ("O", "options"),
    ("=", "sort your hand on/off"),
    ("+ -", "faster / slower computer"),
    ("← →", "move the highlight; Enter plays it"),
    ("?", "this list"),
)


def fkeys(game: str) -> dict[str, str]:
    """The game's ``FKEYS`` (``"f1"`` -> a ``FUNCTIONS`` name), as its original's manual lists them."""
    module = game_text(game)
    return dict(getattr(module, "FKEYS", {}) or {})


def key_table(game: str) -> list[tuple[str, str]]:
    """Every key of ``game``'s table and what it does: its F-keys, its choices, the table's own."""
    rows = [(k.upper(), FUNCTIONS[f]) for k, f in sorted(fkeys(game).items(), key=lambda kv: int(kv[0][1:]))]
    if rank_keys(game):
        rows.append((RANKS_SHOWN, "play your card of that rank (A the ace, T the ten)"))
    else:
        rows.append(("1-9, a…", "play the card under that key (the hand is keyed again, left to right,"
                                " whenever cards join it; then no key changes)"))
    for kind, key in choice_keys(game).items():
        word = kind_word(kind)
        if names_a_card(kind):
            example = f"{key} a s {word}s A♠, {key} t d 10♦"
            rows.append((f"{key}+card", f"{word} a card: {key}, its rank, its suit ({example})"))
        elif announces(kind):
            rows.append((f"{key}+card", f"{word}: {key}, then the key of the card ({key} 5 plays the card under 5"
                                        f" with {word})"))
        else:
            choice = parse(game, kind)  # a suit named (``name C``) is shown with its symbol
            suit = SUIT_SYMBOLS.get(choice.named) if isinstance(choice, SuitChoice) else None
            rows.append((key, f"{choice.word} {suit}" if isinstance(choice, SuitChoice) and suit else kind))
    yes_words = dict(getattr(game_text(game), "YES_NO", {}) or {})
    if yes_words:
        rows.append(("Y / N", "yes / no: " + ", ".join(f"{a} = {w}" for a, w in yes_words.items())))
        rows.append(("↑ / ↓", "yes / no"))
    taken = set(choice_keys(game).values())
    # a table letter the game also uses is the upper case one only: say Shift
    rows += [(f"Shift+{k}" if k.lower() in taken else k, what) for k, what in TABLE_KEYS]
    return rows


def format_key_table(game: str) -> str:
    """``key_table`` as aligned lines (the ``?`` note and the README's tables)."""
    rows = key_table(game)
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {what}" for k, what in rows)


def score_sheet(deals: Sequence[Mapping[str, Any]], num_players: int, human: int | None = None) -> str:
    """The current game's score sheet: each deal's scores and the running totals (``S``/``score``).

    Why the running total is summed here: deals' ``scores`` are what each deal added, and a
    sheet shows both, the way players keep one on paper.
    """
    if not deals:
        return "No deal has been scored yet in this game."
    names = seat_labels(num_players, human)
    width = max(8, *(len(n) for n in names))
    head = f"{'deal':>4}  " + "  ".join(f"{n:>{width}}" for n in names)
    lines = [head, "-" * len(head)]
    totals = [0] * num_players
    for i, deal in enumerate(deals, start=1):
        scores = list(deal.get("scores") or [0] * num_players)
        totals = [t + int(s) for t, s in zip(totals, scores, strict=False)]
        cells = "  ".join(f"{f'{s:+d} = {t}':>{width}}" for s, t in zip(scores, totals, strict=False))
        lines.append(f"{deal.get('deal', i)!s:>4}  {cells}")
    return "\n".join(lines)


def retell(state: Any, human: int | None = None, last: int = 200) -> list[str]:
    """The announcements of a game so far (at most the ``last`` lines), retold from its record.

    Why: the announcements log must survive a resume, and the record is all a saved game
    keeps; replaying its standing actions through a ``Table`` gives the same events, narrated
    as they were (a private action stays face down).
    """
    from .engine import effective_actions
    from .table import Table

    game = state.game
    fresh = state.fresh_copy()
    table = Table(fresh, [None] * game.num_players, hint_level="easy")
    lines: list[str] = []
    for _, events in table.replay(effective_actions(state.actions)):
        for event in events:
            lines += narrate(event, game.name, game.num_players, human)
    return lines[-last:]
