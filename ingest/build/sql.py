"""What the modules that make tables share when they write a value or a derived table."""

from __future__ import annotations

import json
import sqlite3


def json_text(value) -> str:
    """A value as the JSON text a column stores (as sqlite-utils stores a list or a dict)."""
    return json.dumps(value, ensure_ascii=False)


def replace_derived_table(conn: sqlite3.Connection, name: str, schema: str, rows: list[tuple]) -> None:
    """(Re)create a table made from the database being built (its schema, then its rows, one transaction)."""
    quoted = '"{}"'.format(name.replace('"', '""'))
    with conn:
        conn.execute(f"drop table if exists {quoted}")
        conn.execute(schema)
        if rows:
            conn.executemany(f"insert into {quoted} values ({', '.join('?' * len(rows[0]))})", rows)
