"""The review of one deal for one seat: each of its decisions judged, and what its person may see.

Honesty about hidden cards is decided here, for every interface at once:

- a review exists only once its deal has ended (``walk.NotOver`` otherwise);
- it is made *for* a person (``viewer``) and shows only the cards the deal's end made known to
  them (``DealWalk.known``): a hand's other cards are counted, never named, and an action made
  face down that they never saw stays face down;
- the seat reviewed is the viewer's own, or a computer player's at a table where the viewer
  played alone against computers; then a decision is judged only if the view it was made from
  shows no card the viewer never came to know (the values would be computed from it), and
  another person's seat is never reviewed at all;
- values with the cards as they lay are computed only where every hand in play at that point
  is known to the viewer by the deal's end (and only by games that have such values: Le Truc
  has none, since its unplayed cards after a refusal must never count).

Every exact solve for the values as the cards lay gets at most ``PERFECT_NODES`` search nodes a
decision, from empty tables (``search.solver.budget``).  Why: valuing every option of a Six-Bid
opening lead takes from tens of thousands of nodes to twenty million (about 3 s), and a Ramsch
opening up to about sixteen million; a review must be ready within seconds.  A decision past the budget
says so (``TOO_DEEP``); the empty tables make that the same every time, as the rest of the
review is.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Mapping
from types import ModuleType
from typing import Any

from ..knowledge import scanned
from ..registry import part
from ..search.pimc import Decision
from ..search.solver import SearchCut, budget
from ..text import deal_summary
from .moment import Moment, kept
from .report import Hand, Judged, Play, Review, Step, number
from .walk import DealWalk, Turn, walk

HIDDEN_VIEW = "made with cards the deal's end did not show you: not reviewed"
NOT_VALUED = "no values: strong did not weigh this choice"
#: search nodes an exact solve may take for one decision's values as the cards lay (at most about
#: 2.7 s here; ``bench/bench_review.py`` says how many decisions go past it).  Why this many: the
#: most that one needed, of 800 decisions of seat 0 in the first two tricks of 400 Six-Bid deals by
#: easy, was 19.7 million (2.7 s; the next 19.2, then 7.9), and of 900 first-trick decisions in 300
#: Ramsches by easy, 15.8 million (1.4 s)
PERFECT_NODES = 20_000_000
TOO_DEEP = f"not worked out: more than a review's {PERFECT_NODES // 1_000_000} million positions to search"


class NoReview(ValueError):
    """This game has no review (its package has no ``review`` module), or this seat may not be reviewed."""


def hooks(game: str) -> ModuleType:
    """The game's review module (``games/<name>/review.py``: see ``review.moment``)."""
    module = part(game, "review")
    if module is None:
        raise NoReview(f"{game} has no review of its deals")
    return module


def review_rng(seed: int, index: int) -> random.Random:
    """The randomness of the review's decision at ``index`` of a game seeded ``seed``.

    Why derived apart (``b"parlour-review %d %d"``): the same record gives the same review, and
    a review tells nothing about any deal's generator or the computer players' choices.
    """
    return random.Random(int.from_bytes(hashlib.sha256(b"parlour-review %d %d" % (seed, index)).digest(), "big"))


def review_deal(record: Mapping[str, Any], deal: int, seat: int, *, viewer: int | None = None,
                people: Collection[int] = (), samples: int | None = None) -> Review:
    """The review of ``seat``'s decisions in deal ``deal`` of ``record``, for the person at ``viewer``.

    ``viewer``: the seat of the person the review is for (by default ``seat``); ``people``: the
    seats of the table's other people, never reviewed for anyone else; ``samples``: the
    decision budget (the game's ``SAMPLES`` by default).
    """
    viewer = seat if viewer is None else viewer
    game = str(record.get("game"))
    module = hooks(game)
    if seat != viewer and seat in people:
        raise NoReview("each person gets the review of their own seat, and nobody another person's")
    count = int(module.SAMPLES if samples is None else samples)
    dealt = walk(record, deal, {seat})
    if not 0 <= seat < dealt.num_players or not 0 <= viewer < dealt.num_players:
        raise ValueError(f"a seat is from 0 to {dealt.num_players - 1}")
    known = dealt.known(viewer) | (set(_cards_of(dealt)) - dealt.cards.pack)  # cards outside the pack hide nothing
    steps: list[Step] = []
    before: list[list[str]] = []
    for turn, step in zip(dealt.turns, dealt.steps(), strict=True):
        joined = any(set(now) - set(was) for now, was in zip(turn.hands, before, strict=False))
        if not steps or steps[-1].trick != step or joined:  # a new trick, or cards joined a hand (a new hand)
            steps.append(Step(step, [_hand(h, known) for h in turn.hands]))
        before = turn.hands
        shown = turn.action if set(dealt.cards.found(turn.action)) <= known else None
        judged = _judge(dealt, turn, step, module, known, count, shown) if turn.seat == seat else None
        steps[-1].plays.append(Play(turn.seat, shown, judged))
    summary = deal_summary(game, dealt.summary, dealt.num_players, viewer)
    unit = module.unit(dealt.options) if hasattr(module, "unit") else module.UNIT
    return Review(game, deal, seat, viewer, str(unit), count,
                  str(module.INFORMATION).format(samples=count), str(module.PERFECT), steps, summary)


def _cards_of(dealt: DealWalk) -> set[str]:
    """Every card held in the deal: a game's pack may be only what is dealt face down (GOPS's
    diamonds), and its hands' cards, shown to both seats, are then no card of it."""
    return {c for t in dealt.turns for hand in t.hands for c in hand}


def information(game: str, module: ModuleType, moment: Moment, rng: random.Random, samples: int) -> Decision | None:
    """What the game's strong player makes of the moment's view (``moment.py``: its hooks)."""
    if hasattr(module, "information"):
        found: Decision | None = module.information(moment, rng, samples)
        return found
    player = kept((game, "strong", samples), lambda: module.strong(samples))
    decision: Decision = player.decide(moment.view, rng)
    return decision


def _hand(cards: list[str], known: set[str]) -> Hand:
    shown = [c for c in cards if c in known]
    return Hand(shown, len(cards) - len(shown))


def _judge(dealt: DealWalk, turn: Turn, step: int, module: ModuleType, known: set[str], samples: int,
           shown: str | None) -> Judged | None:
    """The judgement of one of the reviewed seat's turns, in step ``step`` (None: it had no choice);
    ``shown``: its action as the viewer may see it (None: face down)."""
    if len(turn.legal) < 2 or turn.view is None or turn.state is None or turn.seat is None:
        return None
    if not dealt.cards.in_value(scanned(turn.view)) <= known:  # neither its choices nor values are shown
        return Judged(turn.index, step, turn.phase, [], shown or "", note=HIDDEN_VIEW)
    judged = Judged(turn.index, step, turn.phase, list(turn.legal), turn.action)
    actions = dealt.actions()
    at = dealt.turns.index(turn)
    moment = Moment(turn.seat, turn.view, turn.action, turn.state, dealt.start, actions[:at], actions[at:])
    decision = information(dealt.game, module, moment, review_rng(dealt.seed, turn.index), samples)
    if decision is None or not decision.values:
        judged.note = NOT_VALUED
    else:
        judged.values = {a: number(decision.values[a]) for a in turn.legal if a in decision.values}
        judged.strong = decision.action
        judged.samples = decision.samples
        mix = decision.extra.get("mix")
        judged.mix = {a: number(p) for a, p in mix.items()} if mix else None
        if turn.action not in judged.values:
            judged.note = NOT_VALUED
    if all(set(hand) <= known for hand in turn.hands):
        try:
            with budget(PERFECT_NODES):
                perfect = module.perfect(moment)
        except SearchCut:
            judged.perfect_note = TOO_DEEP
        else:
            if perfect:
                judged.perfect = {a: number(perfect[a]) for a in turn.legal if a in perfect}
    return judged
