"""The computer players of a process's tables (``parlour.web.computers``): where each move is thought."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from interfaces.web.test_tables import settled, solo_table
from parlour.store import open_store
from parlour.web import computers as computers_module
from parlour.web.tables import Tables


def test_an_inline_level_found_slow_goes_to_the_pool(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    tables = Tables(open_store(tmp_path / "s.db"), workers=0)
    try:
        from parlour.registry import load

        def first_view(game: str) -> dict[str, Any]:
            state = load(game).new_state(seed=1)
            return dict(state.view(state.current_player))

        view = first_view("gops")
        assert tables.computers._think_inline("gops", "easy", view, 1) in view["legal_actions"]
        assert tables.computers._think_inline("gops", "strong", view, 1) is None, "not an inline level"
        monkeypatch.setattr(computers_module, "INLINE_STALL", -1.0)
        assert tables.computers._think_inline("gops", "easy", view, 1) is not None  # this slow move is made, then...
        assert tables.computers._think_inline("gops", "easy", view, 1) is None  # ...the level thinks in the pool
        assert tables.computers._think_inline("clobby", "easy", first_view("clobby"), 1) is not None
    finally:
        tables.close()


def test_levels_outside_the_event_loop_play_in_worker_processes(tmp_path: Any) -> None:
    async def scenario() -> None:
        tables = Tables(open_store(tmp_path / "p.db"), workers=1, inline=())
        try:
            live = tables.get(await solo_table(tables, "gops", seed=5))
            assert live is not None
            rng = random.Random(5)
            while not live.table.is_over:
                await settled(live)
                if live.table.is_over:
                    break
                await tables.act(live, 0, rng.choice(live.table.state.legal_actions()))
            assert live.finished is not None
        finally:
            tables.close()

    asyncio.run(scenario())
