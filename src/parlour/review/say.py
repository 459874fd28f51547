"""A review in words: what the terminal steps through, and what line mode and ``parlour review`` print.

Why one module: the terminal table, line mode and the command line say a review alike (the
browser draws the same data, ``report.py``).  Every line says which kind of value it gives:
"by what you knew" (the information values: what ``strong`` makes of the seat's view) or "as
the cards lay" (every hand open, once the deal has shown them all).  Cards are written as codes,
as in every narrated line: the terminal draws them as coloured faces (``tui.cardtext.pretty_line``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..registry import game_class
from ..text import plural, seat_labels, speak_action, trick_word
from .report import Judged, Review, Step
from .verdict import NEGLIGIBLE, NONE, Verdict

#: options shown per decision, best first (the chosen one always among them)
SHOWN_OPTIONS = 5
KNEW = "by what you knew"
LAY = "as the cards lay"


def signed(value: float) -> str:
    return f"{value:+.1f}".replace("+0.0", "0.0").replace("-0.0", "0.0")


def verdict_line(v: Verdict, unit: str, what: str = "") -> str:
    """``Verdict: 2.5 points lost to best play in 9 decisions (0.28 a decision); accuracy 87 %.``"""
    if not v.decisions:
        return f"Verdict{what}: no decision with a choice to review."
    accuracy = v.accuracy
    acc = f"; accuracy {accuracy:.0f} %" if accuracy is not None else "; no choice mattered"
    return (f"Verdict{what}: {v.loss:.1f} {unit} lost to best play in {plural(v.decisions, 'decision')} "
            f"({v.per_decision:.2f} a decision){acc}.")


def step_title(game: str, trick: int) -> str:
    if trick == 0:
        return f"Before the first {trick_word(game)}"
    return f"{trick_word(game).capitalize()} {trick}"


def head(review: Review) -> list[str]:
    """The review's first lines: whose it is, the verdict, the costliest decisions, what the values are."""
    title = game_class(review.game).title or review.game
    names = seat_labels(_players(review), review.viewer)
    lines = [f"Review of deal {review.deal} of {title}, for {names[review.seat]}",
             verdict_line(review.verdict, review.unit)]
    costly = review.costliest()
    if costly:
        lines.append("The costliest: " + "; ".join(
            f"{i}) {step_title(review.game, j.trick).lower()}: {j.chosen} for "
            f"{j.best or '?'} ({j.cost:.1f} {review.unit})" for i, j in enumerate(costly, 1)))
    lines.append(f"Values in {review.unit}; {KNEW}: {review.information}.")
    if review.perfect:
        lines.append(f"{LAY.capitalize()}: {review.perfect}.")
    lines.append("Accuracy: the share of what your choices could win or lose that they kept "
                 "(100 % the best every time).")
    return lines + list(review.skipped)


def _players(review: Review) -> int:
    return len(review.steps[0].hands) if review.steps else game_class(review.game).num_players


def step_lines(review: Review, step: Step) -> list[str]:
    """One trick of the review: every hand as it began (what its person may know of it), then each
    action with its verdict."""
    names = seat_labels(len(step.hands), review.viewer)
    lines = [f"--- {step_title(review.game, step.trick)} ---"]
    for seat, hand in enumerate(step.hands):
        cards = " ".join(hand.cards)
        hidden = f"{hand.hidden} face down" if hand.hidden else ""
        lines.append(f"  {names[seat]}: {', '.join(x for x in (cards, hidden) if x) or '(no cards)'}")
    for play in step.plays:
        who = names[play.seat] if play.seat is not None else "?"
        said = speak_action(review.game, play.action) if play.action else "chooses, face down"
        lines.append(f"{who} {said}" + (f": {judged_text(play.judged, review.unit)}" if play.judged else ""))
    return lines


def judged_text(j: Judged, unit: str) -> str:
    """One decision's verdict: its cost and strong's choice, the values by what was known and as
    the cards lay."""
    if j.note:
        out = j.note
    elif j.cost is not None and j.cost >= NEGLIGIBLE:
        out = f"cost {j.cost:.1f} {unit} {KNEW} (best {j.best or '?'}"
        out += f"; strong {_strong(j)})" if j.strong and j.strong != j.best else ")"
    else:
        out = f"best {KNEW}" + (f" (strong {_strong(j)})" if j.strong else "")
    if j.values:
        out += f". {KNEW.capitalize()}: {options(j.values, j.chosen)}"
    if j.perfect:
        lost = j.perfect_cost
        cost = f" (cost {lost:.1f})" if lost else ""
        out += f". {LAY.capitalize()}: {options(j.perfect, j.chosen)}{cost}"
    elif j.perfect_note:
        out += f". {LAY.capitalize()}: {j.perfect_note}"
    return out + "."


def _strong(j: Judged) -> str:
    if j.mix and len(j.mix) > 1:
        ranked = sorted(j.mix.items(), key=lambda kv: -kv[1])[:3]
        return "mixes " + ", ".join(f"{a} {round(100 * p)} %" for a, p in ranked)
    return j.strong or "?"


def options(values: Mapping[str, float], chosen: str) -> str:
    """The options best first (at most ``SHOWN_OPTIONS``, the chosen one always), the chosen marked."""
    ranked = sorted(values.items(), key=lambda kv: -kv[1])
    shown = ranked[:SHOWN_OPTIONS]
    if chosen in values and all(a != chosen for a, _ in shown):
        shown.append((chosen, values[chosen]))
    more = len(values) - len(shown)
    text = ", ".join(f"{a}{'*' if a == chosen else ''} {signed(v)}" for a, v in shown)
    return text + (f" (and {more} more)" if more > 0 else "")


def lines(review: Review) -> list[str]:
    """The whole review, as line mode and ``parlour review`` print it."""
    out = head(review)
    for step in review.steps:
        out += [""] + step_lines(review, step)
    if review.summary:
        out += ["", "--- The deal's summary ---", *review.summary]
    return out


def game_lines(reviews: Sequence[Review]) -> list[str]:
    """Every deal's review, then the game's verdict (the sum of its deals')."""
    out: list[str] = []
    for review in reviews:
        out += lines(review) + [""]
    if reviews:
        total = sum((r.verdict for r in reviews), NONE)
        out.append(verdict_line(total, reviews[0].unit, f" of the game ({plural(len(reviews), 'deal')})"))
    return out
