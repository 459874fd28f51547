"""The reviews of finished deals (``parlour.review``): each kept once worked out, and the loss over time.

Why kept: a review takes a second or two of a worker's time, and a person may ask for it again
(the browser's history, ``parlour review``); and ``parlour stats`` reads each person's losses,
deal by deal, from the verdicts kept beside them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from .plumbing import Plumbing


@dataclass(frozen=True)
class LossTrend:
    """One game's average loss per deal in the reviews of a person's deals: the latest ones, and those before."""

    game: str
    unit: str
    recent: float
    recent_deals: int
    earlier: float | None
    earlier_deals: int


class ReviewQueries(Plumbing):
    def save_review(self, key: str, deal: int, seat: int, samples: int, verdict: dict[str, Any], review: str, *,
                    counted: bool) -> None:
        """Keep a deal's review (its JSON text) and its verdict: ``game``, ``unit``, ``loss``,
        ``decisions``, ``accuracy``; ``counted``: it is a person's own deal, for their statistics."""
        self._run("INSERT INTO reviews (game_key, deal, seat, samples, game, unit, loss, decisions, accuracy, counted,"
                  " review, made) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                  " ON CONFLICT (game_key, deal, seat, samples) DO UPDATE SET review = excluded.review,"
                  " loss = excluded.loss, decisions = excluded.decisions, accuracy = excluded.accuracy,"
                  " counted = excluded.counted, made = excluded.made",
                  (key, deal, seat, samples, verdict["game"], verdict["unit"], float(verdict["loss"]),
                   int(verdict["decisions"]), verdict.get("accuracy"), int(counted), review, time.time()))

    def load_review(self, key: str, deal: int, seat: int, samples: int) -> str | None:
        row = self._fetch_one("SELECT review FROM reviews WHERE game_key = ? AND deal = ? AND seat = ? AND samples = ?",
                              (key, deal, seat, samples))
        return None if row is None else str(row[0])

    def loss_trends(self, window: int = 20) -> list[LossTrend]:
        """Per game, the average loss per deal of the counted reviews: the latest ``window`` deals,
        and the ``window`` before them (``parlour stats``: is the player getting better?)."""
        out = []
        for (game,) in sorted(self._fetch("SELECT DISTINCT game FROM reviews WHERE counted = 1")):
            rows = self._fetch("SELECT loss, unit FROM reviews WHERE counted = 1 AND game = ?"
                               " ORDER BY made DESC, game_key DESC, deal DESC LIMIT ?", (game, 2 * window))
            recent, earlier = rows[:window], rows[window:]
            out.append(LossTrend(str(game), str(rows[0][1]), sum(float(r[0]) for r in recent) / len(recent),
                                 len(recent), sum(float(r[0]) for r in earlier) / len(earlier) if earlier else None,
                                 len(earlier)))
        return out
