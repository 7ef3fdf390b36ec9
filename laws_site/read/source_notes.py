"""Source typos kept as printed, for a unit page and its JSON (table ``source_notes``, written at
build by ingest/sources/source_notes.py): what the source prints, what it probably means, and why."""

from __future__ import annotations

import sqlite3

from laws_site.read.units import permalink


def source_notes(conn: sqlite3.Connection, unit_ids: list[str]) -> list[dict]:
    """The notes on these units (a page's unit and the units shown inside it), in reading order.
    Each: ``{ref, field, start, end, as_printed, means, reason, url}``."""
    if not unit_ids:
        return []
    marks = ",".join("?" * len(unit_ids))
    rows = conn.execute(
        f"""select s.doc, s.ref, n.field, n.start, n."end", n.as_printed, n.means, n.reason
            from source_notes n join sections s on s.id = n.unit_id
            where n.unit_id in ({marks}) order by s.position, n.field desc, n.start""",
        unit_ids,
    )
    names = ("doc", "ref", "field", "start", "end", "as_printed", "means", "reason")
    return [{**dict(zip(names[1:], row[1:])), "url": permalink(row[0], row[1])} for row in rows]
