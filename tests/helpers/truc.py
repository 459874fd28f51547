"""The model's rules for one deal, the reference ``tests/games/truc/test_model.py`` checks against the engine.

Why here and not in ``parlour.games.truc.model``: nothing in the package plays a deal action by
action through these rules (``train`` builds its own arrays from the model, ``strong`` reads the
shipped table), so they are the test's statement of what the model assumes, played beside the
real engine deal after deal.  The payoff is the real one (the need from the actual points), as
the engine pays it, not the class representative ``train`` pays.
"""

from __future__ import annotations

from parlour.games.truc.model import TARGET, D, N, Tricks


def deal_payoff(result: int, stake: int, remainder: bool, need_n: float, need_d: float) -> float:
    """Points to the non-dealer minus the dealer's for a deal played out (result +1/-1/0)."""
    if result == 0:
        return 0.0
    if remainder:
        return need_n if result > 0 else -need_d
    return float(stake * result)


class DealModel:
    """The model's rules for one deal, any card play allowed: for tests against the engine.

    Actions are the engine's words (``play call accept refuse double remainder decline``)
    and powers (0-7) for cards.  ``payoff`` (points to the non-dealer minus the dealer's) is
    set when the deal ends; ``redeal`` is True when it ended by an accepted call.
    """

    def __init__(self, hand_n: tuple[int, ...], hand_d: tuple[int, ...], points_n: int, points_d: int) -> None:
        self.t = Tricks((hand_n, hand_d))
        self.points = (points_n, points_d)
        self.phase = "call"
        self.stake = 1
        self.remainder = False
        self.offered = False
        self.offer: tuple[int, str] | None = None
        self.payoff: float | None = None
        self.redeal = False

    @property
    def to_move(self) -> int:
        if self.phase == "call-answer":
            return D
        if self.phase == "offer-answer":
            return 1 - self.offer[0]  # type: ignore[index]
        return self.t.to_move

    def legal(self) -> list[object]:
        if self.phase == "call":
            return ["play", "call"]
        if self.phase == "call-answer":
            return ["accept", "refuse"]
        if self.phase == "offer-answer":
            return ["accept", "decline"]
        if self.phase == "over":
            return []
        seat = self.t.to_move
        acts: list[object] = []
        acts.extend(sorted(set(self.t.hands[seat])))
        if not (self.remainder or self.offered):
            acts.append("remainder" if self.points[seat] + 2 * self.stake > TARGET else "double")
        return acts

    def apply(self, action: object) -> None:
        assert action in self.legal(), (action, self.legal())
        if self.phase == "call":
            self.phase = "play" if action == "play" else "call-answer"
        elif self.phase == "call-answer":
            if action == "accept":
                self.phase, self.redeal, self.payoff = "over", True, 0.0
            else:
                self.phase = "play"
        elif self.phase == "offer-answer":
            by, kind = self.offer  # type: ignore[misc]
            self.offer = None
            if action == "decline":
                self.phase = "over"
                self.payoff = float(self.stake if by == N else -self.stake)
            else:
                if kind == "double":
                    self.stake *= 2
                else:
                    self.remainder = True
                self.phase = "play"
        elif action in ("double", "remainder"):
            self.offer = (self.t.to_move, str(action))
            self.offered = True
            self.phase = "offer-answer"
        else:
            self.t.play(int(action))  # type: ignore[call-overload]
            self.offered = False
            if self.t.over:
                self.phase = "over"
                need_n, need_d = TARGET - self.points[0], TARGET - self.points[1]
                self.payoff = deal_payoff(self.t.result or 0, self.stake, self.remainder, need_n, need_d)
