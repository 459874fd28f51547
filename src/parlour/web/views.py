"""What one browser is sent: its seat's view and the words and hints drawn from that view only.

Why a module of its own: this is the one place where the server decides what leaves it.
A seat's frame is built from ``Table.view(seat)`` (the engine's view for that seat, plus every
hand only if the table is open-hands), the shared narration of public table events
(``parlour.text``), and things the engine says about that seat's own cards.  A spectator's
frame is built from the *public view*: what every seat's view agrees on.
"""

from __future__ import annotations

import functools
import re
import string
from typing import Any

from ..actions import Action, Choice, parse
from ..cards import is_card
from ..keyseq import starts
from ..registry import game_class
from ..table import Event, Table, seat_names
from ..text import (
    CHOOSE_AGAIN,
    FUNCTIONS,
    NO_KEY,
    TABLE_LETTER_FUNCTIONS,
    YES_KEY,
    CardKeys,
    actions_for_key,
    announces,
    choice_key,
    choice_keys,
    choice_sequence,
    deal_summary,
    describe,
    felt,
    fkeys,
    key_table,
    names_a_card,
    narrate,
    prompt,
    rank_keys,
    refuse_card,
    refuse_key,
    score_sheet,
    seat_labels,
    summary_felt,
    table_letter,
    trick_word,
    yes_no,
)
from ..views import alike

#: F-keys a browser keeps for itself (help, find, reload, address bar, caret browsing, menu,
#: full screen, developer tools): the page cannot have them, so a letter replaces each.
BROWSER_TAKES = frozenset({"f1", "f3", "f5", "f6", "f7", "f10", "f11", "f12"})
#: The terminal's F-key functions the page has, and the key that replaces a taken F-key.  The
#: letters are ones no game uses for a choice and no hand is long enough to use for a card
#: (``I``: 18th card), or the table's own letter for the same thing (``R``: replay the deal).
#: Sound, sorting, options, colours and jokes are the terminal's own and not in the page.
WEB_FKEYS: dict[str, str] = {"demo": "F2", "rules": "I", "replay": "R", "quit": "Q", "slower": "-", "faster": "+"}
WEB_WORDS = {"quit": "leave the table for the lobby (your seat stays yours: the same link takes it back)"}
#: Keys of the page alone, by the page's function (the terminal sets four colours in its options).
WEB_ONLY: dict[str, tuple[str, str]] = {"four": ("V", "four-colour cards on/off")}
#: The table's keys that are signs, not letters (``parlour.text.TABLE_KEYS``), by the page's function.
SIGN_FUNCTIONS: dict[str, str] = {".": "hint", "?": "help"}
#: The characters a key of the page may type: every one has its meaning or its refusal in ``web_keys``.
TYPED = string.digits + string.ascii_letters + string.punctuation
#: Table keys the page does not have (``O`` options: chosen in the lobby; ``=``: the hand is always sorted).
NOT_IN_PAGE = frozenset({"O", "Shift+O", "="})


def public_view(table: Table) -> dict[str, Any]:
    """The part of the position every seat sees alike (plus every hand at an open-hands table).

    Why an intersection rather than a list of public keys: a key is public exactly when every
    seat's view holds the same value, so no game has to declare anything and a new private key
    can never slip through to a spectator.
    """
    views = [dict(table.state.view(seat)) for seat in range(table.state.game.num_players)]
    out: dict[str, Any] = dict(alike(views))
    out["seat"] = None
    out["hand"] = []
    if table.open_hands:
        out["open_hands"] = {str(s): list(views[s]["hand"]) for s in range(len(views))}
    return out


def narrate_events(events: list[Event], game: str, num_players: int, seat: int | None) -> list[str]:
    """The announcements for ``seat`` (None: a spectator): the same sentences as line mode."""
    lines: list[str] = []
    names = seat_labels(num_players, seat)
    for event in events:
        kind: str = event.kind  # the browser table's own kinds too (``tables._note``)
        if kind == "stand_in" and event.seat is not None:
            lines.append(f"{names[event.seat]} is away: a computer player ({event.data.get('level')}) plays"
                         " that seat until they are back.")
        elif kind == "stand_in_end" and event.seat is not None:
            lines.append(f"{names[event.seat]} is back and plays again.")
        elif kind == "demo" and event.seat is not None:
            lines.append(f"Demo: the computer ({event.data.get('level')}) plays {names[event.seat]} too.")
        elif kind == "demo_end" and event.seat is not None:
            lines.append(f"Demo over: {names[event.seat]} plays again.")
        elif kind == "left" and event.seat is not None:
            lines.append(f"{names[event.seat]} has left the table: a computer player ({event.data.get('level')})"
                         " plays that seat to the end of the game.")
        elif kind == "resigned" and event.seat is not None:
            lines.append(f"*** {ended_text(names, {'how': 'resignation', 'seat': event.seat, **event.data})} ***")
        elif kind == "closed":
            lines.append(f"*** {ended_text(names, {'how': 'closed', **event.data})} ***")
        else:
            lines += narrate(event, game, num_players, seat)
    return lines


def ended_text(names: list[str], ended: dict[str, Any]) -> str:
    """How a game ended short of its end is said: in the announcements, and on the table once it is over.

    ``ended``: the record's ``"ended"`` -- a resignation (``seat``, ``winner``), or a table closed
    after ``days`` without a move (``Tables.close_stale``).
    """
    if ended.get("how") == "closed":
        return (f"Game over: the table was closed after {float(ended.get('days', 0)):g} days without a move. Nobody "
                "wins; the proof that its deals were fair is yours to check.")
    winner = ended.get("winner")
    result = "The game ends without a winner." if winner is None else f"{names[int(winner)]} wins."
    return f"Game over: {names[int(ended['seat'])]} resigned. {result}"


def ended_frame(frame: dict[str, Any], ended: dict[str, Any]) -> None:
    """A frame of a table whose game ended short of its end: over, for the page, though the deal stopped short.

    Why the view is changed here, in the frame only: the engine's state goes on (its record
    replays as it stands), but nobody is to move in it any more, and the page shows a game over
    from the view's ``is_over`` and ``winner`` as it does for a game played to its end.
    """
    view = frame["view"] = {**frame["view"], "is_over": True, "winner": ended.get("winner"), "current_player": None}
    view.pop("legal_actions", None)
    frame.update(buttons=[], prompt="", illegal={}, auto=False, can_replay=False, can_undo=False,
                 ended={**ended, "text": ended_text(frame["names"], ended)})


def web_key_table(game: str) -> list[tuple[str, str]]:
    """The keys of ``game``'s table in the page (``?``): the terminal's ``key_table`` with each
    F-key the browser keeps replaced by its letter, and what the page does not have left out."""
    rows: list[tuple[str, str]] = []
    taken = set(choice_keys(game).values()) | set(_rank_letters(game))
    for fkey, function in sorted(fkeys(game).items(), key=lambda kv: int(kv[0][1:])):
        key = WEB_FKEYS.get(function)
        if key is None:
            continue
        if fkey not in BROWSER_TAKES:
            key = fkey.upper()
        elif key.lower() in taken:
            key = f"Shift+{key}"  # the game uses the letter: upper case is the table's, as in the terminal
        what = WEB_WORDS.get(function, FUNCTIONS[function])
        rows.append((key, what + (f" ({fkey.upper()} in the terminal)" if key != fkey.upper() else "")))
    seen = {k for k, _ in rows}
    for key, what in key_table(game):
        if re.fullmatch(r"F\d+", key) or key in NOT_IN_PAGE or key in seen:
            continue
        rows.append((key, what))
        seen.add(key)
    rows += [row for row in WEB_ONLY.values() if row[0] not in seen]
    return rows


@functools.cache
def web_keys(game: str) -> dict[str, Any]:
    """What the page needs to read keys exactly as the terminal table does (``parlour.text``): the key
    list (``?``), what each character means at this table (``meanings``), why each is refused when it
    does nothing now (``refusals``: ``refuse_key``), the F-keys the page has, and the sentence a key
    shared by several choices says.  What the game's keys pick now comes with each frame (``seat_frame``).

    Why everything decided here and the page only looking it up: the rules and the words of the
    keys are ``parlour.text``'s, which the terminal reads; copies of them in the page's script went
    out of step with it.  Remembered per game (read only, never changed by a caller): it is the
    same for every table of a game.
    """
    return {"rows": web_key_table(game), "meanings": key_meanings(game),
            "refusals": {char: refuse_key(game, char) for char in TYPED},
            "choose_again": CHOOSE_AGAIN,
            "fkeys": {fkey: fn for fkey, fn in fkeys(game).items() if fn in WEB_FKEYS and fkey not in BROWSER_TAKES}}


def key_meanings(game: str) -> dict[str, str]:
    """Each character that is a key of the table's or the page's own in ``game``, and what it does (the
    name of a function of the page): the hint and the key list, the table's letters (``table_letter``),
    the page's keys for the terminal's F-keys a browser keeps (``WEB_FKEYS``) and its own (``WEB_ONLY``).

    A letter is the table's in upper case always, in lower case unless the game uses it (for a choice,
    or as a rank in a game keyed by rank: GOPS's ``q`` is its queen, ``Q`` quits).  Every character not
    here is the game's: a choice's key, a card's, yes or no, as each frame says they are now.
    """
    taken = set(choice_keys(game).values()) | set(_rank_letters(game))
    out = dict(SIGN_FUNCTIONS)

    def claim(key: str, function: str, lower: bool) -> None:
        out[key.upper()] = function
        if lower or not key.isalpha():
            out[key.lower()] = function

    for letter, function in TABLE_LETTER_FUNCTIONS.items():
        claim(letter, function, table_letter(game, letter) is not None)
    for function, key in [*WEB_FKEYS.items(), *((f, k) for f, (k, _) in WEB_ONLY.items())]:
        if len(key) == 1:
            claim(key, function, key.lower() not in taken)
    return out


def _rank_letters(game: str) -> list[str]:
    """The letters that are card keys in a game keyed by rank (``a t j q k`` in GOPS), else none."""
    if not rank_keys(game):
        return []
    return sorted({c[0].lower() for c in game_class(game).PACK if is_card(c) and not c[0].isdigit()})


def seat_frame(table: Table, seat: int | None, *, count: int, lines: list[str],
               players: list[dict[str, Any]], table_id: str, can_undo: bool = False,
               card_keys: CardKeys | None = None, memo: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``state`` frame for ``seat`` (None: a spectator).

    ``card_keys``: this connection's keys bound to cards (``parlour.text.CardKeys``): a card
    keeps its key for the whole deal, as at the terminal table.  ``memo``: this connection's
    own dict, where the texts that change only when a deal is scored are kept between frames.
    """
    state = table.state
    game = state.game
    view: dict[str, Any] = dict(table.view(seat)) if seat is not None else public_view(table)
    try:
        said = describe(view)
    except (KeyError, TypeError, ValueError, IndexError):  # a spectator's view lacks a seat's own keys
        said = []
    summary, sheet = _deal_texts(table, seat, view, {} if memo is None else memo)
    hand: list[str] = list(view.get("hand") or [])
    legal: list[str] = list(view.get("legal_actions") or [])
    in_hand = set(hand)
    buttons = [a for a in legal if a not in in_hand]
    keys = {b: choice_key(game.name, b) for b in buttons}
    bound = (card_keys or CardKeys(game.name)).assign(hand, (view.get("deal_number"), tuple(state.current_pack())))
    yes, no = yes_no(game.name, buttons)
    illegal: dict[str, str] = {}
    if seat is not None and legal:
        for card in hand:
            if card not in legal:
                illegal[card] = _why(table, card)
        # a choice's key that may not be pressed now says the engine's reason too, when it is of a sort asked now
        asked = {_sort(parse(game.name, b)) for b in buttons}
        for kind in choice_keys(game.name):
            if (kind not in legal and not names_a_card(kind) and not announces(kind)
                    and _sort(parse(game.name, kind)) in asked):
                illegal[kind] = _why(table, kind)
    auto = seat is not None and table.to_move == seat and table.auto_action() is not None
    now = [] if auto else legal  # what the game's keys may pick now (the table makes an automatic answer)
    return {
        "type": "state", "table": table_id, "count": count, "seat": seat, "game": game.name,
        "title": game.title or game.name, "view": view, "names": seat_labels(game.num_players, seat),
        # the seat's own name, plain: the header says "you are South", not "you are South (you)"
        "seat_name": seat_names(game.num_players)[seat] if seat is not None else None,
        "players": players, "describe": said, "summary": summary, "log": lines,
        # what is asked, in the words the terminal says it (the game's ``prompt``: a discard, a give-back)
        "prompt": prompt(view, legal, hand) if legal and not auto else "",
        "felt": [{"caption": caption, "cards": cards} for caption, cards in felt(view)],
        # the cards the last deal turned face up (a widow, a skat), drawn with its summary
        "summary_felt": [{"caption": caption, "cards": cards}
                         for caption, cards in summary_felt(game.name, view.get("last_deal") or {})],
        "trick_word": trick_word(game.name),
        "buttons": buttons, "keys": keys, "card_keys": bound, "yes_no": [yes, no], "illegal": illegal,
        # all the keys of each choice, as the terminal's (``b5``: the card under 5 with its announcement)
        "sequences": {b: choice_sequence(game.name, b, bound) for b in buttons},
        **key_answers(game.name, [a for a in now if a not in in_hand], hand, now, bound, illegal),
        "deals_scored": len(state.deals), "score_sheet": sheet,
        "can_replay": seat is not None and bool(state.deals) and not state.is_over, "can_undo": can_undo,
        # the table answers this seat's only, automatic action itself: the page does not ask
        "auto": auto,
    }


@functools.lru_cache(maxsize=4096)
def _keys_now(game: str, buttons: tuple[str, ...], playable: bool) -> tuple[tuple[tuple[str, tuple[str, ...]], ...],
                                                                          tuple[str, ...]]:
    """``key_answers``' two parts that follow from the choices alone: each key's choices, and the keys
    that begin a choice of several keys.  Why kept: every key is tried against every choice (the
    terminal's rules, one key at a time), 40 % of ``seat_frame`` under cProfile, for the few sets of choices a
    game ever offers (none at all while cards are played)."""
    keys = set(choice_keys(game).values())
    key_actions = tuple((key, tuple(picked)) for key in sorted(keys | {YES_KEY, NO_KEY})
                        if (picked := actions_for_key(game, key, buttons)))
    return key_actions, tuple(sorted(key for key in keys if starts(game, key, buttons, playable)))


def key_answers(game: str, buttons: list[str], hand: list[str], legal: list[str], bound: dict[str, str],
                illegal: dict[str, str]) -> dict[str, Any]:
    """What the game's keys do now, for the page to look up as a key is pressed (``parlour.text``, as the
    terminal decides it): the choices each key picks (``actions_for_key``: several of one kind share a
    key), the keys that begin a choice of several keys (``keyseq.starts``: ``x`` then a rank and a suit),
    and for a choice's key or a card's that does nothing now the line that says why, with the engine's
    reason (``illegal``: card or kind of choice -> ``State.why_not``)."""
    key_actions, sequence_keys = _keys_now(game, tuple(buttons), any(card in legal for card in hand))
    return {
        "key_actions": {key: list(picked) for key, picked in key_actions},
        "sequence_keys": list(sequence_keys),
        "refusals": {key: refuse_key(game, key, illegal[kind]) for kind, key in choice_keys(game).items()
                     if kind in illegal},
        "card_refusals": {card: refuse_card(bound[card], card, why) for card, why in illegal.items()
                          if bound.get(card)},
    }


def _deal_texts(table: Table, seat: int | None, view: dict[str, Any], memo: dict[str, Any]) -> tuple[list[str], str]:
    """The last deal's summary (as line mode says it) and the score sheet, for ``seat``.

    Why remembered in ``memo``: both change only when a deal is scored (or taken back), yet a
    frame goes out after every move; narrating them anew was a fifth of building a frame.
    The key holds the last summary itself, so an undo or a replay that changes it is seen.
    """
    deals = table.state.deals
    key = (seat, len(deals), deals[-1] if deals else None)
    known = memo.get("deal_texts")
    if known is not None and known[0][:2] == key[:2] and known[0][2] is key[2]:
        return list(known[1]), str(known[2])
    game = table.state.game
    summary: list[str] = []
    if view.get("last_deal"):
        summary = deal_summary(game.name, view["last_deal"], game.num_players, seat)
    sheet = score_sheet(deals, game.num_players, seat)
    memo["deal_texts"] = (key, summary, sheet)
    return list(summary), sheet


def _sort(action: Action | None) -> object:
    """The sort of choice an action is: a word said (any), or a suit or card named with one word.

    Why: the engine's reason for a choice of another phase answers another question ("take" while
    cards are played: "play one of your cards by its code, e.g. JH"); one of the sort asked now is
    the answer a person wants ("trump H" beside trump C, D and S: "a solo cannot have hearts").
    """
    return (type(action), action.word) if isinstance(action, Choice) else type(action)


def _why(table: Table, card: str) -> str:
    """The engine's own reason that ``card`` (or a choice) may not be made now (``State.why_not``)."""
    return table.state.why_not(card) or "not playable now"
