"""The PostgreSQL backend (psycopg 3 and its pool): ``connect`` reaches and prepares it, ``store`` is the store.

Imported only when a ``postgresql://`` URL is opened (``opening.open_store``), so the
commands that use SQLite never load the driver.
"""

from .store import TIMEOUT, PostgreSQLStore

__all__ = ["TIMEOUT", "PostgreSQLStore"]
