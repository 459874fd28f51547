"""One deal of a record, walked to its end through the house's one replay (``engine.replay``).

Why a walk of the record and not the live state: a review is asked for a deal that has ended,
from the terminal, line mode, the browser or a file, and the record is what all of them have.
The walk makes the record's standing actions (``#undo N`` applied) one by one, and from the
start of the deal asked for to its end it notes every action: who made it, from what view,
every seat's hand before it and the trick it belongs to, and follows what each seat may know
(``parlour.knowledge``, the conformance kit's own reading), the deal's summary included.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine import State, Step, apply_recorded, effective_actions, replay
from ..knowledge import CardFinder, Knowledge
from ..records import from_json


class NotOver(ValueError):
    """The deal asked for has not ended (yet): a review exists only once its deal has ended."""


@dataclass
class Turn:
    """One action of the deal, as it was made.

    ``index``: its place among the game's standing actions (what a review's randomness is
    derived from); ``trick``: tricks completed in the deal before it; ``hands``: every seat's hand
    before it (the truth: a review shows only what its person may know of them); ``view`` and
    ``state`` (a copy of the position before it) only for the seats under review.
    """

    index: int
    seat: int | None
    action: str
    private: bool
    legal: list[str]
    trick: int
    phase: str
    hands: list[list[str]]
    view: dict[str, Any] | None = None
    state: State | None = None


@dataclass
class DealWalk:
    """The deal ``deal`` (1-based, as summaries count them) of a game, walked to its end."""

    game: str
    options: dict[str, Any]
    num_players: int
    seed: int
    deal: int
    start: State
    turns: list[Turn]
    summary: dict[str, Any]
    knowledge: Knowledge
    cards: CardFinder = field(init=False)

    def __post_init__(self) -> None:
        self.cards = self.knowledge.cards

    def known(self, seat: int) -> set[str]:
        """What ``seat`` may know of this deal's cards once it has ended."""
        return self.knowledge.known[seat]

    def actions(self) -> list[str]:
        return [t.action for t in self.turns]

    def steps(self) -> list[int]:
        """Each turn's step: 0 before the deal's tricks begin (the bidding), then trick by trick.

        Why read from the turns: the phase in which tricks are played is the phase of the turn
        that completed the first one (``play``; GOPS's every bid is a turn), and a turn belongs to
        the trick under way once a turn of that phase has been made.
        """
        turns = self.turns
        completed = [t for t, later in zip(turns, turns[1:], strict=False) if later.trick > t.trick]
        if not completed and turns and self.summary.get("final_trick"):
            completed = [turns[-1]]  # the deal's only trick was completed by its last action
        playing = completed[0].phase if completed else None
        out, begun = [], False
        for t in turns:
            begun = begun or t.phase == playing
            out.append(t.trick + 1 if begun else 0)
        return out


def ended(deal: object, deals: int) -> int:
    """``deal`` if it is one of the ``deals`` that have ended; ``NotOver`` (a ``ValueError``) if not."""
    if isinstance(deal, bool) or not isinstance(deal, int) or deal < 1:
        raise NotOver(f"a deal is numbered from 1, not {str(deal)[:20]!r}")
    if deal > deals:
        raise NotOver(f"deal {deal} has not ended: a review exists only once its deal is over "
                      f"({deals} {'deal has' if deals == 1 else 'deals have'} ended)")
    return deal


def walk(record: Mapping[str, Any], deal: int, seats: Collection[int]) -> DealWalk:
    """Walk ``record`` to the end of deal ``deal``, noting the views and positions of ``seats``.

    ``ValueError`` for a record that does not replay; ``NotOver`` when the deal has not ended.
    """
    whole = from_json(dict(record))  # checks the whole record before anything is walked
    ended(deal, len(whole.deals))
    state = whole.fresh_copy()
    game = state.game
    n = game.num_players
    cards = CardFinder(game.PACK)
    knowledge = Knowledge(cards, n)
    turns: list[Turn] = []
    begun: list[tuple[State, int]] = []  # the deal's start and its trick count then, from its first action

    def make(step: Step) -> None:
        if step.kind == "action" and len(state.deals) == deal - 1:
            views = [state.view(s) for s in range(n)]
            if not begun:
                begun.append((state.clone(), int(views[0].get("trick_seq", 0))))
            knowledge.look(views)
            actor = state.current_player
            private = state.action_is_private
            trick = int(views[0].get("trick_seq", 0)) - begun[0][1]
            turn = Turn(step.position, actor, step.entry, private, state.legal_actions(), trick,
                        str(state.phase), [list(v.get("hand") or []) for v in views])
            if actor is not None and actor in seats:
                turn.view, turn.state = views[actor], state.clone()
            turns.append(turn)
            knowledge.act(actor, step.entry, private)
        apply_recorded(state, step.entry)

    for _ in replay(state, effective_actions(whole.actions), make):
        if len(state.deals) >= deal:
            break
    summary = state.deals[deal - 1]
    knowledge.summary(summary)
    return DealWalk(game.name, dict(game.options), n, state.seed, deal, begun[0][0], turns, dict(summary), knowledge)
