"""What can go wrong with the saved-games database, one type per cause.

Why one type per cause: the command line turns every ``StoreError`` into one line and exit
status 2, but its callers act on the cause -- the terminal table offers another window's
game back later (``GameInUse``), the reading commands retry read-only (``StoreReadOnly``),
``parlour db copy`` stops before writing anything (``CopyConflict``).  ``str()`` is always
one line for the user, and never holds a password (``opening.shown``).
"""

from __future__ import annotations


class StoreError(Exception):
    """The database cannot be used; ``str()`` is one line for the user (the CLI exits with status 2)."""


class NotParlourDatabase(StoreError):
    """The path or database holds something that is not a Parlour database; it was left exactly as it was."""


class NewerDatabase(NotParlourDatabase):
    """A Parlour database with a newer schema than this program reads; left as it was."""


class StoreBusy(StoreError):
    """Another process kept the database locked for longer than the busy timeout."""


class StoreReadOnly(StoreError):
    """The database (or its folder, or the database role) cannot be written."""


class StoreUnreachable(StoreError):
    """The database server could not be reached or refused the connection (address, password, database name)."""


class GameInUse(StoreError):
    """The saved game is open in another Parlour process."""


class CopyConflict(StoreError):
    """``parlour db copy``: the target already holds a different row under the same key; nothing was copied."""
