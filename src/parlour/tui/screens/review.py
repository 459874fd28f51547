"""The review of a deal at the terminal (``V``): trick by trick, every known hand, the verdicts.

Why a screen of its own: a review is read a trick at a time, beside the hands as they were, and
it may still be being worked out when it is opened (a worker thread starts it as the deal ends:
``review.worker.Reviews``), so the screen says so and shows it the moment it is ready.  The words
are the review's own (``review.say``), as line mode and ``parlour review`` print them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import Static

from ...review.report import Review
from ...review.say import head, step_lines, step_title, verdict_line
from ...review.worker import NONE, Reviews
from ...text import score_sheet
from ..cardtext import pretty_line
from .dialogs import SCROLL_KEYS, Sheet

WORKING = "The review of deal {deal} is being worked out… (it shows here as soon as it is ready)"
PAGE_KEYS = "← → or P N: trick by trick · Home End"


class ReviewScreen(Sheet[None]):
    """Deal ``deal``'s review from ``reviews`` (started here if nothing has started it)."""

    DEFAULT_CSS = """
    ReviewScreen > Vertical { width: 100; max-width: 98%; }
    """
    BINDINGS = [Binding("escape,enter,q,v", "close", "Back"), Binding("right,n", "page(1)", "Next trick"),
                Binding("left,p", "page(-1)", "Previous trick"), Binding("home", "page(-999)", show=False),
                Binding("end", "page(999)", show=False)]
    POLL = 0.25  # seconds between looks at a review being worked out

    def __init__(self, reviews: Reviews, record: dict[str, Any], deal: int, *, four_colour: bool = False) -> None:
        super().__init__()
        self.reviews = reviews
        self.record = record
        self.deal = deal
        self.four_colour = four_colour
        self.review: Review | None = None
        self.error: str | None = None
        self.page = 0
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        keys = f"{PAGE_KEYS} · {SCROLL_KEYS} · Enter or Esc: back"
        yield from self.compose_sheet(f"Review of deal {self.deal}", self.body(), keys, "review")

    def on_mount(self) -> None:
        if self.reviews.state(self.deal) == NONE and self.reviews.load(self.record, self.deal) is None:
            self.reviews.start(self.record, self.deal)
        if not self.look():
            self.timer = self.set_interval(self.POLL, self.look)

    def look(self) -> bool:
        """Whether the review is ready (or failed): then it is shown, and the screen stops looking."""
        try:
            self.review = self.reviews.get(self.deal)
        except Exception as exc:  # a review that failed says why
            self.error = f"The review of deal {self.deal} could not be worked out: {exc}"
        done = self.review is not None or self.error is not None
        if done:
            if self.timer is not None:
                self.timer.stop()
            self.show()
        return done

    @property
    def pages(self) -> list[list[str]]:
        """The review's pages: its verdict first, then each trick with the verdict above it."""
        review = self.review
        if review is None:
            return [[self.error or WORKING.format(deal=self.deal)]]
        n = len(review.steps)
        tops = [f"Deal {review.deal} · {step_title(review.game, s.trick)} ({i + 1} of {n}) · "
                + verdict_line(review.verdict, review.unit) for i, s in enumerate(review.steps)]
        first = head(review) + ["", "→ or N: the deal trick by trick (every hand as it was, each decision judged)."]
        return [first] + [[top, ""] + step_lines(review, s) for top, s in zip(tops, review.steps, strict=True)]

    def body(self) -> Text:
        return Text("\n").join(pretty_line(line, self.four_colour) for line in self.pages[self.page])

    def show(self) -> None:
        if self.is_mounted:
            self.query_one("#review-body", Static).update(self.body())

    @property
    def text(self) -> str:
        """What is on screen, as plain lines (for tests)."""
        return "\n".join(self.pages[self.page])

    def action_page(self, step: int) -> None:
        self.page = max(0, min(len(self.pages) - 1, self.page + step))
        self.show()

    def action_close(self) -> None:
        self.dismiss(None)


class ScoreSheetScreen(Sheet[None]):
    """The score sheet (``S``), with a deal chosen by ← → whose review ``V`` opens."""

    DEFAULT_CSS = """
    ScoreSheetScreen > Vertical { width: 78; max-width: 98%; }
    """
    BINDINGS = [Binding("escape,enter,space,q,s", "close", "Back"), Binding("left", "pick(-1)", show=False),
                Binding("right", "pick(1)", show=False), Binding("v", "review", "Review")]

    def __init__(self, title: str, deals: list[dict[str, Any]], num_players: int, human: int,
                 review: Callable[[int], None] | None) -> None:
        super().__init__()
        self.title_text = title
        self.deals = deals
        self.num_players = num_players
        self.human = human
        self.review = review
        self.picked = len(deals)  # the last deal

    def lines(self) -> list[str]:
        sheet = score_sheet(self.deals, self.num_players, self.human).split("\n")
        if not self.deals:
            return sheet
        return [("▶ " if i - 1 == self.picked else "  ") + line for i, line in enumerate(sheet)]

    def compose(self) -> ComposeResult:
        keys = f"{SCROLL_KEYS} · Enter or Esc: back"
        if self.deals and self.review is not None:
            keys = f"← →: choose a deal · V: its review · {keys}"
        yield from self.compose_sheet(self.title_text, Text("\n".join(self.lines())), keys, "sheet")

    def action_pick(self, step: int) -> None:
        if self.deals:
            self.picked = max(1, min(len(self.deals), self.picked + step))
            self.query_one("#sheet-body", Static).update(Text("\n".join(self.lines())))

    def action_review(self) -> None:
        if self.deals and self.review is not None:
            self.review(self.picked)

    def action_close(self) -> None:
        self.dismiss(None)
