"""The terminal table: Parlour's full-screen interface, built with Textual.

``parlour`` with no arguments (and ``make play``) opens it through ``run``.  It is a thin
client of ``parlour.table.Table``: screens show views and turn keys into legal actions;
the rules, the scores and every sentence about a deal come from the engines and the shared
text layer (``parlour.text``, which line mode uses too).  The README lists the keys.
"""

from __future__ import annotations

import sys

from ..store import StoreError, open_store


def run(db: str | None = None) -> int:
    """Open the menu on the saved-games database ``db`` (the user data folder by default)."""
    from .app import ParlourApp

    try:
        store = open_store(db)
    except StoreError as exc:
        print(f"parlour: {exc}", file=sys.stderr)
        return 2
    try:
        app = ParlourApp(store)
        result = app.run()
    finally:
        store.close()
    return int(result or 0)


__all__ = ["run"]
