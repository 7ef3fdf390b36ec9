"""The database a build wrote, opened read-only: for `bridge-laws check`, `refs` and the other
commands that read it outside Datasette (the site reads it through Datasette)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote


def connect_readonly(db_path: str | Path) -> sqlite3.Connection:
    """The database, read-only, rows as sqlite3.Row. The path is quoted into the URI (a `?` or `#` in
    a file name is part of the name, not the URI's query)."""
    conn = sqlite3.connect(f"file:{quote(str(Path(db_path).resolve()))}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    return conn
