"""Read one unit back from the database, as `show` and the permalink pages present it."""
from __future__ import annotations

import difflib
import json
import sqlite3
from urllib.parse import quote


def permalink(doc: str, ref: str) -> str:
    """The unit's page on the server: /<doc>/<ref>, the ref percent-encoded where it must be."""
    return f"/{doc}/{quote(ref, safe='()-,:~')}"


def load_unit(conn: sqlite3.Connection, doc: str, ref: str) -> dict | None:
    conn.row_factory = sqlite3.Row
    row = conn.execute("select * from sections where doc = ? and ref = ?", (doc, ref)).fetchone()
    if row is None:
        return None
    children = [r[0] for r in conn.execute(
        "select ref from sections where parent_id = ? order by position", (row["id"],))]
    parent = None
    if row["parent_id"]:
        parent_row = conn.execute("select ref from sections where id = ?", (row["parent_id"],)).fetchone()
        parent = parent_row[0] if parent_row else None
    return {
        "id": row["id"], "doc": row["doc"], "ref": row["ref"], "kind": row["kind"], "title": row["title"],
        "text": row["text"], "parent": parent, "children": children, "page": row["page"],
        "url": permalink(row["doc"], row["ref"]),
        "attrs": json.loads(row["attrs"]) if row["attrs"] else {},
    }


def nearest_refs(conn: sqlite3.Connection, doc: str, ref: str, n: int = 5) -> list[str]:
    refs = [r[0] for r in conn.execute("select ref from sections where doc = ?", (doc,))]
    if not refs:
        docs = [r[0] for r in conn.execute("select id from documents")]
        return [f"document {d}" for d in difflib.get_close_matches(doc, docs, n=3, cutoff=0.3)]
    prefix = [r for r in refs if r.startswith(ref[: max(1, len(ref) - 1)])]
    close = difflib.get_close_matches(ref, refs, n=n, cutoff=0.5)
    return list(dict.fromkeys(close + prefix))[:n]
