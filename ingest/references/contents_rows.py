"""Table `contents_rows`: each document's printed 目次 as the contents page lists it, made at build
from the `toc_entry` units (issue 22: a page reads rows and renders a template).

doc, position   the entry's document and place (sections.position)
ref             the unit it opens: a law (`61`) or a section (`61B`)
title           as printed in the 目次
depth           0 for a law, 1 for a section
part            the part it is printed under (予備規則 ...)

An entry naming no unit is left out, as the page leaves it out. The page read every entry's whole
row and parsed its attrs JSON per request: 80 % of the contents page's reading
(laws_site/pages/contents.py `printed_toc` reads this table; without it, the units as before).
"""

from __future__ import annotations

import json
import sqlite3

from ingest.build.sql import replace_derived_table

TABLE = "contents_rows"
SCHEMA = f"""create table {TABLE} (
    doc text not null, position integer not null, ref text not null, title text,
    depth integer not null, part text, primary key (doc, position)
)"""


def contents_rows(conn: sqlite3.Connection) -> list[tuple]:
    """(doc, position, ref, title, depth, part) of every 目次 entry that names a unit, in order."""
    rows = []
    for doc, position, title, attrs in conn.execute(
        "select doc, position, title, attrs from sections where kind = 'toc_entry' order by doc, position"
    ):
        values = json.loads(attrs) if attrs else {}
        target = values.get("target_ref") or values.get("law")
        if not target:
            continue
        rows.append((doc, position, target, title, 0 if target.isdigit() else 1, values.get("part")))
    return rows


def write_contents_rows(db) -> None:
    """Create and fill the table on the database being built (ingest/build/database.py populate)."""
    replace_derived_table(db.conn, TABLE, SCHEMA, contents_rows(db.conn))
