"""Solve a two-player zero-sum matrix game: its value and an optimal mixed strategy for each side.

Why a linear program from a library: every simultaneous move of GOPS is such a game, and
the solver meets tens of thousands of them; HiGHS (through ``scipy.optimize.linprog``) is a
maintained, exact-to-tolerance simplex/IPM with the dual values we need for the column
player, so no home-made simplex is needed.  Why the shortcuts before it: most games met in
practice have a pure saddle point or dominated rows and columns, and a 1xn or 2x2 game has a
closed form; these are exact and a hundred times cheaper than a call into HiGHS.  A test
checks every shortcut against the LP.

Convention: ``matrix[i][j]`` is what the row player gains (and the column player loses)
when row ``i`` meets column ``j``.  ``solve`` returns ``(value, rows, cols)`` with ``rows``
and ``cols`` probability lists over all rows and columns (dominated ones get 0).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

EPS = 1e-12


def solve(matrix: Sequence[Sequence[float]], *, use_lp_only: bool = False) -> tuple[float, list[float], list[float]]:
    """The value and an optimal strategy of each player (see the module docstring)."""
    m, n = len(matrix), len(matrix[0])
    if not use_lp_only:
        pure = _saddle(matrix)
        if pure is not None:
            i, j = pure
            return float(matrix[i][j]), _unit(m, i), _unit(n, j)
        rows, cols = _undominated(matrix)
        if len(rows) < m or len(cols) < n:
            sub = [[matrix[i][j] for j in cols] for i in rows]
            value, x, y = solve(sub)
            return value, _spread(m, rows, x), _spread(n, cols, y)
        if m == 2 and n == 2:
            return _two_by_two(matrix)
    return _lp(matrix)


def _unit(size: int, index: int) -> list[float]:
    out = [0.0] * size
    out[index] = 1.0
    return out


def _spread(size: int, kept: list[int], probs: list[float]) -> list[float]:
    out = [0.0] * size
    for k, p in zip(kept, probs, strict=True):
        out[k] = p
    return out


def _saddle(matrix: Sequence[Sequence[float]]) -> tuple[int, int] | None:
    """A pure equilibrium (row maximin equals column minimax), if there is one."""
    row_mins = [min(row) for row in matrix]
    i = max(range(len(matrix)), key=row_mins.__getitem__)
    n = len(matrix[0])
    col_maxs = [max(row[j] for row in matrix) for j in range(n)]
    j = min(range(n), key=col_maxs.__getitem__)
    if col_maxs[j] - row_mins[i] <= EPS:
        return i, j
    return None


def _undominated(matrix: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
    """Rows and columns left after removing weakly dominated ones, repeatedly.

    Why weak dominance is safe here: in a zero-sum game an optimal strategy of the reduced
    game is optimal in the full one (a removed row never does better than the row that
    dominates it, whatever the column player mixes), and the value is unchanged.
    """
    rows = list(range(len(matrix)))
    cols = list(range(len(matrix[0])))
    changed = True
    while changed and len(rows) > 1 and len(cols) > 1:
        changed = False
        for a in rows:
            if any(b != a and all(matrix[b][j] >= matrix[a][j] - EPS for j in cols) for b in rows):
                rows.remove(a)
                changed = True
                break
        for a in cols:
            if any(b != a and all(matrix[i][b] <= matrix[i][a] + EPS for i in rows) for b in cols):
                cols.remove(a)
                changed = True
                break
    return rows, cols


def _two_by_two(matrix: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """A 2x2 game without a saddle point: both players mix so the other is indifferent."""
    (a, b), (c, d) = matrix[0], matrix[1]
    den = a - b - c + d
    p = (d - c) / den
    q = (d - b) / den
    value = (a * d - b * c) / den
    return value, [p, 1.0 - p], [q, 1.0 - q]


def _lp(matrix: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """Maximise v subject to sum_i x_i A[i][j] >= v for every column, x a distribution.

    The column player's optimal strategy is the dual of the column constraints.  HiGHS is
    called through ``highspy`` (its own Python binding, a quarter of the cost of a call
    through ``scipy.optimize.linprog``, which wraps the same solver) when it is installed,
    else through scipy.
    """
    if _HIGHS is not None:
        return _lp_highspy(matrix)
    return lp_scipy(matrix)


def lp_scipy(matrix: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """The LP of ``_lp`` through ``scipy.optimize.linprog(method="highs")``."""
    import numpy as np
    from scipy.optimize import linprog

    a = np.asarray(matrix, dtype=float)
    m, n = a.shape
    c = np.zeros(m + 1)
    c[-1] = -1.0  # minimise -v
    a_ub = np.hstack([-a.T, np.ones((n, 1))])  # v - sum_i x_i A[i][j] <= 0
    a_eq = np.ones((1, m + 1))
    a_eq[0, -1] = 0.0
    bounds = [(0.0, None)] * m + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(n), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if res.status != 0:  # pragma: no cover - a finite matrix game always has a solution
        raise RuntimeError(f"matrix game LP failed: {res.message}")
    return _normalised(float(res.x[-1]), list(res.x[:m]), [-d for d in res.ineqlin.marginals])


def _normalised(value: float, x: list[float], y: list[float]) -> tuple[float, list[float], list[float]]:
    x = [max(float(p), 0.0) for p in x]
    y = [max(float(p), 0.0) for p in y]
    sx, sy = sum(x), sum(y)
    return value, [p / sx for p in x], [p / sy for p in y]


def _make_highs() -> object | None:
    """One quiet ``highspy.Highs`` (its constructor prints a banner on the C level stdout,
    which would land in the middle of line mode, so fd 1 is pointed at /dev/null meanwhile)."""
    try:
        import highspy
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    h.setOptionValue("output_flag", False)
    return h


_HIGHS = _make_highs()


def _lp_highspy(matrix: Sequence[Sequence[float]]) -> tuple[float, list[float], list[float]]:
    """The LP of ``_lp`` passed to one reused ``highspy.Highs`` (column-wise matrix)."""
    import highspy
    import numpy as np

    m, n = len(matrix), len(matrix[0])
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_ = m + 1
    lp.num_row_ = n + 1
    lp.col_cost_ = np.array([0.0] * m + [-1.0])
    lp.col_lower_ = np.array([0.0] * m + [-inf])
    lp.col_upper_ = np.array([inf] * (m + 1))
    lp.row_lower_ = np.array([-inf] * n + [1.0])
    lp.row_upper_ = np.array([0.0] * n + [1.0])
    index: list[int] = []
    value: list[float] = []
    starts = []
    for row in matrix:  # column i of the LP is x_i: -A[i][j] in row j, 1 in the sum row
        starts.append(len(index))
        index.extend(range(n + 1))
        value.extend([-float(a) for a in row])
        value.append(1.0)
    starts.append(len(index))  # column v: 1 in every row j
    index.extend(range(n))
    value.extend([1.0] * n)
    starts.append(len(index))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value)
    h = _HIGHS
    h.passModel(lp)  # type: ignore[attr-defined]
    h.run()  # type: ignore[attr-defined]
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:  # type: ignore[attr-defined]  # pragma: no cover
        raise RuntimeError("matrix game LP failed")
    sol = h.getSolution()  # type: ignore[attr-defined]
    return _normalised(float(sol.col_value[m]), list(sol.col_value[:m]), [-d for d in sol.row_dual[:n]])
