"""A review as data: the deal trick by trick, each judged decision, the verdict; and its JSON.

Why its own module: every interface shows the same review (the terminal steps through it, line
mode and ``parlour review`` print it, the browser draws it, ``--json`` hands it to tools), so it
is built once, here, as plain data, and each says it in its own way (``say.py``, the page).
The JSON is made so that the same review is the same bytes: keys in a fixed order, and every
value rounded to ``DIGITS`` decimals as the review is made (``judge.py``), so that what is worked
out from the values (a cost, a verdict) is the same from the review and from its JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .verdict import NONE, Verdict, best_of, cost, costliest, verdict

FORMAT = "parlour-review"
VERSION = 1
DIGITS = 3


def number(value: float) -> float:
    """``value`` as the JSON shows it: rounded to ``DIGITS`` decimals, never ``-0.0``."""
    rounded = round(float(value), DIGITS)
    return 0.0 if rounded == 0 else rounded


def numbers(values: dict[str, float] | None) -> dict[str, float] | None:
    return None if values is None else {a: number(v) for a, v in values.items()}


@dataclass
class Judged:
    """One decision of the seat under review.

    ``values``: the information values (what ``strong`` makes of the seat's view), ``strong`` its
    choice and ``mix`` its mix (a mixing player's); ``perfect``: the values with the cards as they
    lay, where the deal showed every hand.  ``note`` says why a decision has no values, and
    ``perfect_note`` why it has none as the cards lay though the deal showed every hand.
    """

    index: int
    trick: int
    phase: str
    legal: list[str]
    chosen: str
    strong: str | None = None
    mix: dict[str, float] | None = None
    values: dict[str, float] | None = None
    samples: int = 0
    perfect: dict[str, float] | None = None
    note: str | None = None
    perfect_note: str | None = None

    @property
    def cost(self) -> float | None:
        return cost(self.values, self.chosen)

    @property
    def best(self) -> str | None:
        return best_of(self.values) if self.values else None

    @property
    def perfect_cost(self) -> float | None:
        return cost(self.perfect, self.chosen)

    @property
    def perfect_best(self) -> str | None:
        return best_of(self.perfect) if self.perfect else None

    def to_dict(self) -> dict[str, Any]:
        c, pc = self.cost, self.perfect_cost
        return {"index": self.index, "trick": self.trick, "phase": self.phase, "legal": list(self.legal),
                "chosen": self.chosen, "strong": self.strong, "mix": numbers(self.mix), "values": numbers(self.values),
                "samples": self.samples, "cost": None if c is None else number(c), "best": self.best,
                "perfect": numbers(self.perfect), "perfect_cost": None if pc is None else number(pc),
                "perfect_best": self.perfect_best, "note": self.note, "perfect_note": self.perfect_note}


@dataclass
class Play:
    """One action of the deal as the review shows it: who, what (``None``: face down), and the
    decision's judgement when it is the reviewed seat's."""

    seat: int | None
    action: str | None
    judged: Judged | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.action,
                "decision": None if self.judged is None else self.judged.to_dict()}


@dataclass
class Hand:
    """A seat's hand at a trick's start: the cards its person may know, and how many others."""

    cards: list[str]
    hidden: int

    def to_dict(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "hidden": self.hidden}


@dataclass
class Step:
    """One trick of the deal (0: what came before its tricks, the bidding), with every seat's
    hand as it began and what each seat did in it."""

    trick: int
    hands: list[Hand]
    plays: list[Play] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"trick": self.trick, "hands": [h.to_dict() for h in self.hands],
                "plays": [p.to_dict() for p in self.plays]}


@dataclass
class Review:
    """The review of one deal for one seat, as its person (``viewer``) may see it."""

    game: str
    deal: int
    seat: int
    viewer: int
    unit: str
    samples: int
    information: str
    perfect: str
    steps: list[Step]
    summary: list[str]
    skipped: list[str] = field(default_factory=list)

    @property
    def judged(self) -> list[Judged]:
        return [p.judged for s in self.steps for p in s.plays if p.judged is not None]

    @property
    def verdict(self) -> Verdict:
        return verdict((j.values, j.chosen) for j in self.judged if j.values)

    def costliest(self) -> list[Judged]:
        judged = self.judged
        places = costliest([(j.cost or 0.0, i) for i, j in enumerate(judged)])
        return [judged[i] for i in places]

    def to_dict(self) -> dict[str, Any]:
        v = self.verdict
        return {"format": FORMAT, "version": VERSION, "game": self.game, "deal": self.deal, "seat": self.seat,
                "viewer": self.viewer, "unit": self.unit, "samples": self.samples,
                "kinds": {"information": self.information, "perfect": self.perfect or None},
                **verdict_dict(v), "costliest": [j.index for j in self.costliest()],
                "steps": [s.to_dict() for s in self.steps], "summary": list(self.summary),
                "skipped": list(self.skipped)}


def from_dict(data: dict[str, Any]) -> Review:
    """A review again from its JSON (``Review.to_dict``): one kept in the store, or sent to a page."""
    def judged(d: dict[str, Any] | None) -> Judged | None:
        if d is None:
            return None
        return Judged(d["index"], d["trick"], d["phase"], list(d["legal"]), d["chosen"], d["strong"], d["mix"],
                      d["values"], d["samples"], d["perfect"], d["note"], d.get("perfect_note"))

    steps = [Step(s["trick"], [Hand(list(h["cards"]), h["hidden"]) for h in s["hands"]],
                  [Play(p["seat"], p["action"], judged(p["decision"])) for p in s["plays"]]) for s in data["steps"]]
    kinds = data["kinds"]
    return Review(data["game"], data["deal"], data["seat"], data["viewer"], data["unit"], data["samples"],
                  kinds["information"], kinds["perfect"] or "", steps, list(data["summary"]), list(data["skipped"]))


def verdict_dict(v: Verdict) -> dict[str, Any]:
    """The verdict's figures as the JSON gives them."""
    accuracy = v.accuracy
    return {"loss": number(v.loss), "decisions": v.decisions, "per_decision": number(v.per_decision),
            "accuracy": None if accuracy is None else number(accuracy)}


def game_dict(reviews: list[Review]) -> dict[str, Any]:
    """Every deal's review of one game and the game's verdict (the sum of its deals')."""
    total = sum((r.verdict for r in reviews), NONE)
    judged = [(j, r.deal) for r in reviews for j in r.judged]
    places = costliest([(j.cost or 0.0, i) for i, (j, _) in enumerate(judged)])
    first = reviews[0] if reviews else None
    return {"format": FORMAT, "version": VERSION, "game": first.game if first else None,
            "seat": first.seat if first else None, "unit": first.unit if first else None, **verdict_dict(total),
            "costliest": [{"deal": judged[i][1], "index": judged[i][0].index} for i in places],
            "deals": [r.to_dict() for r in reviews]}


def dumps(data: dict[str, Any]) -> str:
    """The JSON text of a review: the same review is the same bytes."""
    return json.dumps(data, ensure_ascii=False, indent=1)
