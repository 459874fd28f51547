"""Line mode at parity with the table (issue 12): undo, the two-step hint, replay at any point, the score
sheet (the menu, demo and history: test_menu.py)."""

from __future__ import annotations

from parlour import registry
from parlour.bots import make
from parlour.engine import REPLAY_DEAL, effective_actions
from parlour.linemode.play import play_human, watch
from parlour.records import from_json
from parlour.table import Table


def scripted(lines: list[str]):
    feed = iter(lines)

    def inp(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return inp


def table_for(game: str, seed: int = 3) -> Table:
    state = registry.load(game).new_state(seed=seed)
    bots = [None] + [make(game, "easy") for _ in range(state.game.num_players - 1)]
    return Table(state, bots, hint_level="easy")


def test_hint_then_dot_plays_it_then_undo_takes_it_back() -> None:
    table = table_for("gops")
    out: list[str] = []
    before = list(table.state.actions)
    result = play_human(table, 0, inp=scripted([".", "."]), out=out.append)
    assert result == "eof"
    hint_line = next(line for line in out if line.startswith("Hint: "))
    hinted = hint_line.split()[1]
    assert effective_actions(table.state.actions)[len(before)] == hinted
    out.clear()
    play_human(table, 0, inp=scripted(["u", "u", "score"]), out=out.append)
    assert any("took back" in line for line in out)
    assert any(line.startswith("Cannot undo:") for line in out)
    assert effective_actions(table.state.actions) == before
    assert any("No deal has been scored" in line for line in out)
    rebuilt = from_json(table.state.to_json())
    assert rebuilt.actions == table.state.actions


def test_replay_mid_deal_and_the_score_sheet_and_watching_the_record() -> None:
    table = table_for("schafkopf", seed=6)
    out: list[str] = []
    # play the first deal with hints, then replay the deal once a move of the next one is made
    moves = [".", ""] * 60
    play_human(table, 0, inp=scripted(moves), out=out.append)
    assert table.state.deals, "a deal was finished"
    out.clear()
    pack = table.state._packs[-2][0]
    play_human(table, 0, inp=scripted(["r", "score"]), out=out.append)
    assert REPLAY_DEAL in table.state.actions and table.state.current_pack() == pack
    assert any(line.startswith("deal") for line in out)  # the sheet's heading
    watched: list[str] = []
    fresh = Table(registry.load("schafkopf").new_state(seed=6), [None] * 3, open_hands=True)
    watch(fresh, list(table.state.actions), out=watched.append)
    assert fresh.state.view(0) == table.state.view(0)
