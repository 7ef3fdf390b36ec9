"""Source typos kept as printed, for a unit page and its JSON (table ``source_notes``, written at
build by ingest/sources/source_notes.py): what the source prints, what it probably means, and why."""

from __future__ import annotations

import sqlite3

from laws_site.read.units import labels, permalink


def source_notes(conn: sqlite3.Connection, unit_ids: list[str], lang: str = "ja") -> list[dict]:
    """The notes on these units (a page's unit and the units shown inside it), in reading order.
    Each: ``{ref, label, field, start, end, as_printed, means, reason, url}``; ``label`` is what a reader
    of ``lang`` reads for the unit (定義: 裁判, not def:裁判)."""
    if not unit_ids:
        return []
    marks = ",".join("?" * len(unit_ids))
    rows = conn.execute(
        f"""select s.doc, s.ref, s.id, n.field, n.start, n."end", n.as_printed, n.means, n.reason
            from source_notes n join sections s on s.id = n.unit_id
            where n.unit_id in ({marks}) order by s.position, n.field desc, n.start""",
        unit_ids,
    ).fetchall()
    names = ("ref", "field", "start", "end", "as_printed", "means", "reason")
    shown = labels(conn, [row[2] for row in rows], lang)
    return [
        {**dict(zip(names, row[1:2] + row[3:])), "label": shown.get(row[2], row[1]), "url": permalink(row[0], row[1])}
        for row in rows
    ]
