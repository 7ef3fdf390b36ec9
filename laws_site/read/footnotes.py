"""The footnotes a unit page shows in full at its foot, and the markers its headings print, read
from table unit_footnotes (ingest/references/footnotes.py): a footnote bears on the unit that prints
its marker and on every unit under it, so 64A2's page shows *19 (who won the trick), and 13A1's the
*2 its law's heading carries (カードの過不足*2 is the title カードの過不足 and its marker)."""

from __future__ import annotations

import sqlite3

from laws_site.read import queries

ROW_SQL = """
select unit_id, footnote_id, label, via_id, field from unit_footnotes
where unit_id in ({marks}) order by position
"""


def carried(conn: sqlite3.Connection, unit_ids: list[str]) -> list[dict]:
    """The unit_footnotes rows of these units."""
    if not unit_ids:
        return []
    rows = conn.execute(ROW_SQL.format(marks=",".join("?" * len(unit_ids))), unit_ids)
    return [dict(zip(("unit_id", "footnote_id", "label", "via_id", "field"), r)) for r in rows]


def page_footnotes(conn: sqlite3.Connection, unit: dict, units: list[dict], chain: list[dict]) -> tuple[list, dict]:
    """(footnotes, title_marks): the footnotes bearing on the shown units, in the book's order, and
    for each shown heading (the unit's, its parts', its parents' in the context box) the markers it
    prints, as reference segments to the footnote on this page."""
    shown = [u["id"] for u in units]
    rows = carried(conn, shown + [a["id"] for a in chain])
    wanted = [r["footnote_id"] for r in rows if r["unit_id"] in set(shown)]
    wanted += [u["id"] for u in units if u["kind"] == "footnote" and u["id"] != unit["id"]]
    footnotes = [f for f in (queries.unit_by_id(conn, i) for i in dict.fromkeys(wanted)) if f]
    footnotes.sort(key=lambda f: f.get("position") or 0)
    anchors = {f["id"]: f"#fn-{f['ref']}" for f in footnotes}
    title_marks: dict[str, list[dict]] = {}
    for row in rows:
        marks = title_marks.setdefault(row["via_id"], []) if row["field"] == "title" else None
        if marks is None or row["footnote_id"] not in anchors or any(m["id"] == row["footnote_id"] for m in marks):
            continue
        marks.append(marker_segment(row, anchors[row["footnote_id"]]))
    return footnotes, title_marks


def marker_segment(row: dict, href: str) -> dict:
    """A heading's marker as the `linked` macro draws a text's (*2, or a bare * for a 【日本語版注】)."""
    text = "*" if row["label"] == "*" else f"*{row['label']}"
    return {"text": text, "href": href, "title": text, "footnote": True, "id": row["footnote_id"]}
