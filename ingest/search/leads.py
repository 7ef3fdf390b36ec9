"""Table `search_leads`: what the search result of a unit that prints no text of its own shows under its title,
made at build (whatever a page needs is computed at build; the server worked this out from sections on loading).

id      a unit without text of its own (every one, sub-units or none)
lead    its sub-units in reading order as a JSON list of [head, unit]: the number and title the book prints before
        each ("1.", "A. オークション期間の開始") and the sub-unit whose text follows (null: it has none), as many as a
        snippet's window fills; [] for one without sub-units

Its search result shows their text under its title (laws_site/search/presentation.lead_snippet: 17D
オークション期間の終了 -> "1. オークション期間は、…"), not the title a second time, the snippet having been cut from
the title when a unit had no text. laws_site/search/shown.py reads it; the offline pack ships the same
(laws_site/offline/search_data.py).
"""

from __future__ import annotations

import json
import sqlite3

from ingest.build.sql import json_text, replace_derived_table
from ingest.references.labels import printed_marker

TABLE = "search_leads"
SCHEMA = f"create table {TABLE} (id text primary key references sections(id), lead text not null)"
# the width of a search result's snippet (laws_site/search/snippets.py cuts it): defined here, where the build
# reads it to fill a lead, so that the two cannot differ
SNIPPET_CHARS = 120
LEAD_CHARS = 3 * SNIPPET_CHARS  # the sub-units a heading's snippet is cut from: enough for its window


def lead_rows(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(id, lead JSON) of every unit without text of its own, in reading order."""
    children: dict[str, list[tuple]] = {}
    empty = []
    for unit, parent, kind, title, text, attrs in conn.execute(
        "select id, parent_id, kind, title, text, attrs from sections order by position"
    ):
        children.setdefault(parent, []).append((unit, kind, title, text, attrs))
        if not text:
            empty.append(unit)
    return [(unit, json_text(sub_unit_lead(unit, children))) for unit in empty]


def sub_unit_lead(unit: str, children: dict[str, list[tuple]]) -> list[tuple[str, str | None]]:
    """[(head, sub-unit with text or None)] below `unit`, depth first, footnotes left out, until LEAD_CHARS."""
    parts: list[tuple[str, str | None]] = []
    length = 0
    stack = list(reversed(children.get(unit, ())))
    while stack and length < LEAD_CHARS:
        child, kind, title, text, attrs = stack.pop()
        if kind == "footnote":
            continue
        head = " ".join(p for p in (printed_marker(kind, json.loads(attrs or "{}")), title) if p)
        if head or text:
            parts.append((head, child if text else None))
            length += len(head) + len(text or "") + 2
        stack.extend(reversed(children.get(child, ())))
    return parts


def write_search_leads(db) -> None:
    """Create and fill the table on the database being built, from its sections (ingest/build/database.py)."""
    replace_derived_table(db.conn, TABLE, SCHEMA, lead_rows(db.conn))
