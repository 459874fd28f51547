"""Make the README's picture of the table with Textual's own SVG export.

    .venv/bin/python -m parlour.tui.screenshot [--game sixbid] [--moves 14] [--out docs/tui-table.svg]

Why a script: the picture should show the real program, so it runs the app headless on a
throw-away database, lets the computer play the human's first moves with the ``.`` key,
and saves the screen in the middle of a trick.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from ..registry import names
from ..store import open_store


async def _shoot(game: str, moves: int, seed: int, size: tuple[int, int], out: Path, four_colour: bool) -> None:
    from .app import ParlourApp
    from .screens.summary import DealSummary
    from .screens.table import TableScreen

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "shot.db")
        if four_colour:
            store.set_options("tui", {"four_colour": True})
        app = ParlourApp(store, delay=0.0, seed=seed)
        async with app.run_test(size=size) as pilot:
            await pilot.press(str(names().index(game) + 1))
            await pilot.pause(0.2)
            table = app.screen
            assert isinstance(table, TableScreen)
            deadline = time.monotonic() + 60
            while len(table.table.state.actions) < moves and time.monotonic() < deadline:
                if isinstance(app.screen, DealSummary):
                    break
                if table.my_turn() and not table.busy:
                    await pilot.press(".")
                await pilot.pause(0.01)
            app.settings.delay = 1.0
            while not (table.my_turn() and not table.busy) and not isinstance(app.screen, DealSummary):
                await pilot.pause(0.01)
            await pilot.pause(0.3)
            app.save_screenshot(filename=out.name, path=str(out.parent))
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="sixbid", choices=names())
    parser.add_argument("--moves", type=int, default=14, help="actions to play before the picture")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--size", default="100x30", help="columns x rows")
    parser.add_argument("--four-colour", action="store_true")
    parser.add_argument("--out", default="docs/tui-table.svg")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(_shoot(args.game, args.moves, args.seed, (width, height), out, args.four_colour))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
