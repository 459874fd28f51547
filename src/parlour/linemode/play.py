"""The line-mode loops: a human playing at a table, bots playing a demo, a record replayed."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..cards import pretty_action
from ..engine import IllegalAction, State, bot_rng
from ..review.say import lines as say_review
from ..review.worker import Reviews
from ..table import CannotUndo, Event, Table, seat_names
from ..text import (
    announced_cards,
    announces,
    format_stats,
    joker,
    key_kind,
    kind_word,
    last_trick_line,
    narrate,
    plural,
    score_sheet,
    typed_announced_choice,
    typed_card_choice,
)
from .render import numbered, render, resolve, typed_card

__all__ = ["format_stats", "play_human", "watch"]  # format_stats lives in the shared text layer

HELP = """Type a choice: its number, the action itself (e.g. KC, take, name H), or enough of it.
  .      hint: the computer suggests a move (and why, where it can say); Enter or . plays it
  u      undo: take back your last move (and the computer's after it); again: further back
  l      show the last trick
  r      replay the previous deal with the same cards (at any point of a deal)
  x AS   a choice that names a card (calling a card in Six-Bid): its key, then the card
  b QH   a card played with an announcement (bella in Clobby): its key, then the card
  score  the score sheet of this game, deal by deal
  review the review of the last deal: what strong would have chosen and what each choice cost
  review N  the review of deal N
  h, ?   this help
  q      quit (the game stays saved; `parlour play <game>` resumes it)"""

Output = Callable[[str], None]


def _say(out: Output, lines: list[str]) -> None:
    for line in lines:
        out(line)


def play_human(table: Table, human: int, *, inp: Callable[[str], str] = input, out: Output = print,
               delay: float = 0.0, ask_replay: bool = False, jokes: bool = False,
               reviews: Reviews | None = None) -> str:
    """Play until the game ends ("over"), the player quits ("quit") or input ends ("eof").

    ``reviews``: each deal's review is worked out there as soon as the deal ends (``review``).
    """
    game = table.state.game.name
    n = table.state.game.num_players
    asked_replay: set[int] = set()
    joke = joker(game) if jokes else None
    joke_rng = bot_rng(table.state.seed, len(table.state.actions))  # never a deal's generator
    pending_hint: str | None = None
    shown_at = -1  # the screen is drawn again only after something has happened

    def show(events: list[Event], own_action: str | None = None) -> None:
        for event in events:
            own = own_action if event.kind == "action" and event.seat == human and event.data["private"] else None
            _say(out, narrate(event, game, n, human, own=own))
            if joke is not None and event.kind == "deal_scored" and joke_rng.random() < 0.5:
                out(f'Computer: "{joke(joke_rng)}"')
            if reviews is not None and event.kind == "deal_scored":
                reviews.start(table.state.record(), int(event.data.get("deal") or len(table.state.deals)))

    while True:
        if reviews is not None:
            reviews.flush()
        state = table.state
        deal_no = len(state.deals)
        if ask_replay and state.can_replay_deal and deal_no not in asked_replay:
            asked_replay.add(deal_no)
            try:
                answer = inp("Replay the previous deal with the same cards? (y/N) ")
            except EOFError:
                return "eof"
            if answer.strip().lower().startswith("y"):
                show(table.replay_deal())
                continue
        if not table.is_over and not table.human_to_move:
            show(table.step_bot())
            if delay:
                time.sleep(delay)
            continue
        if table.is_over:
            return _after_game(table, human, reviews, inp, out)
        view = table.view(human)
        if shown_at != len(state.actions):
            shown_at = len(state.actions)
            out("")
            out(render(view, human))
        try:
            line = inp("> ")
        except EOFError:
            return "eof"
        command = line.strip()
        low = command.lower()
        if low in ("", ".") and pending_hint is not None:
            command, low = pending_hint, pending_hint.lower()
        pending_hint = None
        if low in ("q", "quit", "exit"):
            return "quit"
        if low in ("h", "?", "help"):
            out(HELP)
            continue
        if low in ("l", "last"):
            out(last_trick_line(view.get("last_trick"), n, human))
            continue
        if low in ("r", "replay"):
            try:
                replayed = table.replay_deal()
            except CannotUndo as exc:
                out(f"Cannot replay: {exc}.")
                continue
            for event in replayed:
                if event.kind == "undo":
                    out(f"(the deal's {plural(event.data['count'], 'move')} so far are taken back)")
            show([e for e in replayed if e.kind != "undo"])
            continue
        if low in ("u", "undo"):
            try:
                count = table.undo(human)[0].data["count"]
            except CannotUndo as exc:
                out(f"Cannot undo: {exc}.")
                continue
            out(f"You took back your last move ({plural(count, 'move')} undone). Choose again.")
            shown_at = -1
            continue
        if low in ("score", "scores", "sheet"):
            out(score_sheet(state.deals, n, human))
            continue
        if low == "review" or low.startswith("review "):
            _say(out, review_lines(reviews, state, low[len("review"):].strip(), out))
            continue
        if low == ".":
            pending_hint, reason = table.suggest(human)
            why = f" — {reason}" if reason else ""
            out(f"Hint: {pending_hint}{why} (Enter or . plays it)")
            continue
        legal = list(view["legal_actions"])
        action: str | None = typed_card_choice(game, command, state.game.PACK)  # x AS: the call of AS, every deal
        if action is None:
            action = typed_announced_choice(game, command)  # b QH: QH played with the announcement, every deal
        if action is None and len(low) == 1 and announces(kind := key_kind(game, low)) and kind is not None:
            now = announced_cards(game, kind, legal)
            example = (now or list(view.get("hand") or []) or ["QH"])[0]
            word = kind_word(kind)
            allowed = f": {' '.join(now)}" if now else f"; no card may be played with {word} now"
            out(f"to play a card with {word}, type {low} and the card's code (e.g. {low} {example}){allowed}")
            continue
        if action is None:
            action, why = resolve(command, legal, numbered(game, legal))
        if action is None:
            card = typed_card(command)
            out(f"you cannot play {card} now: {pretty_action(state.why_not(card))}" if card else why)
            continue
        try:
            show(table.play(action, human), action)
        except IllegalAction as exc:  # a card named by its keys that may not be chosen now: one line
            out(f"you cannot {action} now" + (f": {exc.why}" if exc.why else f"; you may: {' '.join(legal)}"))


def _after_game(table: Table, human: int, reviews: Reviews | None, inp: Callable[[str], str], out: Output) -> str:
    """Once the game is over: its deals' reviews and the score sheet may still be asked for."""
    if reviews is None:
        return "over"
    while True:
        reviews.flush()
        try:
            low = inp("Game over: review [N] shows a deal's review, score the score sheet; Enter leaves. > ")
        except EOFError:
            return "over"
        low = low.strip().lower()
        if low == "review" or low.startswith("review "):
            _say(out, review_lines(reviews, table.state, low[len("review"):].strip(), out))
        elif low in ("score", "scores", "sheet"):
            out(score_sheet(table.state.deals, table.state.game.num_players, human))
        else:
            return "over"


def review_lines(reviews: Reviews | None, state: State, which: str, out: Output = print) -> list[str]:
    """``review`` (the last deal) or ``review N``: the deal's review, waiting for it if it is still
    being worked out (a second or two), or why there is none."""
    ended = len(state.deals)
    if reviews is None:
        return ["Reviews are not kept here."]
    if not ended:
        return ["No deal has ended yet: a deal's review exists once it is over."]
    if which and not (which.isdigit() and 1 <= int(which) <= ended):
        return [f"review N: a deal that has ended, 1 to {ended}."]
    deal = int(which) if which else ended
    record = state.record()
    try:
        found = reviews.get(deal) or reviews.load(record, deal)
        if found is None:
            reviews.start(record, deal)
            if reviews.get(deal, timeout=0.2) is None:
                out(f"(the review of deal {deal} is being worked out…)")
            found = reviews.get(deal, timeout=None)
    except Exception as exc:  # a review that failed says why, and play goes on
        return [f"The review of deal {deal} could not be worked out: {exc}"]
    return say_review(found) if found is not None else [f"The review of deal {deal} could not be worked out."]


def describe_hands(state: State) -> list[str]:
    names = seat_names(state.game.num_players)
    return [f"{names[s]}: {' '.join(state.view(s).get('hand', []))}" for s in range(state.game.num_players)]


def watch(table: Table, actions: list[str] | None = None, *, out: Output = print, delay: float = 0.0,
          max_deals: int | None = None) -> None:
    """Narrate a game with every seat's cards visible: bots playing (``actions`` None) or a record replayed.

    ``max_deals`` stops after that many deals: random players can make Schafkopf endless.
    """
    state = table.state
    game = state.game.name
    n = state.game.num_players
    names = seat_names(n)
    out(f"Deal 1: {names[state.dealer]} deals.")
    _say(out, describe_hands(state))

    def stopped() -> bool:
        """Whether nothing more is to be told: the game is over, or ``max_deals`` deals are."""
        if table.is_over:
            return True
        if max_deals is not None and len(state.deals) >= max_deals:
            out(f"(stopped after {max_deals} deal{'s' if max_deals != 1 else ''}, as asked)")
            return True
        return False

    def hands() -> list[set[str]]:
        return [set(state.view(s).get("hand", [])) for s in range(n)]

    def tell(action: str, events: list[Event], hands_before: list[set[str]]) -> None:
        """Narrate an action's ``events`` (the first is the action's own: its seat and privacy)."""
        actor = events[0].seat
        for event in events:
            if event.kind == "action" and event.data["private"] and actor is not None:
                out(f"{names[actor]} chooses {action} (face down)")
                continue
            _say(out, narrate(event, game, n))
            if event.kind == "deal":
                _say(out, describe_hands(state))
        # after the move that caused them: e.g. Le Truc's call for cards, Schafkopf's skat, a Six-Bid call
        if not any(e.kind == "deal" for e in events) and any(
                set(state.view(s).get("hand", [])) - hands_before[s] for s in range(n)):
            out("New cards:")
            _say(out, describe_hands(state))
        if delay:
            time.sleep(delay)

    if actions is None:
        while not stopped():
            action = table.bot_choice()
            before = hands()
            tell(action, table.play(action), before)
        return
    if stopped():
        return
    before = hands()
    for step, events in table.replay(actions):
        if step.kind == "undo":
            out(f"(a player took back {plural(step.undone, 'move')}; the deal goes on from there)")
            _say(out, describe_hands(state))
        elif step.kind == "replay":
            _say(out, narrate(events[0], game, n))
            _say(out, describe_hands(state))
        else:
            tell(step.entry, events, before)
        if stopped():
            return
        before = hands()
    out("(the record ends here; the game was not finished)")
