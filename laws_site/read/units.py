"""Read one unit back from the database, as `show`, `refs` and the permalink pages present it."""

from __future__ import annotations

import difflib
import json
import sqlite3
from contextlib import closing
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from rapidfuzz import process
from rapidfuzz.distance import OSA

from ingest.build.read_only import connect_readonly
from ingest.references.labels import printed_marker

NEAREST_REFS = 5  # the close spellings offered for a ref no unit has
PERMALINK_SAFE = "()-,:~"  # kept as typed in a unit's address, besides letters, digits and _.-~


@lru_cache(maxsize=16384)  # every page links dozens of units; percent-encoding is half of reading them
def permalink(doc: str, ref: str) -> str:
    """The unit's page on the server: /<doc>/<ref>, the ref percent-encoded where it must be."""
    return f"/{doc}/{quote(ref, safe=PERMALINK_SAFE)}"


def load_unit(conn: sqlite3.Connection, doc: str, ref: str) -> dict | None:
    cursor = conn.cursor()
    cursor.row_factory = sqlite3.Row  # this query's rows only: the connection may be Datasette's, shared
    row = cursor.execute("select * from sections where doc = ? and ref = ?", (doc, ref)).fetchone()
    if row is None:
        return None
    children = [
        r[0] for r in conn.execute("select ref from sections where parent_id = ? order by position", (row["id"],))
    ]
    parent = None
    if row["parent_id"]:
        parent_row = conn.execute("select ref from sections where id = ?", (row["parent_id"],)).fetchone()
        parent = parent_row[0] if parent_row else None
    return {
        "id": row["id"],
        "doc": row["doc"],
        "ref": row["ref"],
        "kind": row["kind"],
        "title": row["title"],
        "text": row["text"],
        "parent": parent,
        "children": children,
        "page": row["page"],
        "url": permalink(row["doc"], row["ref"]),
        "attrs": json.loads(row["attrs"]) if row["attrs"] else {},
    }


def nearest_refs(conn: sqlite3.Connection, doc: str, ref: str, n: int = NEAREST_REFS) -> list[str]:
    """The document's refs closest to `ref` in spelling (OSA: a swap of neighbours is one edit; the
    nearest only, as search's corrections), the later units first, so that a ref past the end of its
    level (`99`, `24-9`, `appendix-9`) is offered the last units before it. The offline search offers
    the same, from the pack's units (static/offline-search-citations.js nearestUnits)."""
    refs = [r[0] for r in conn.execute("select ref from sections where doc = ? order by rowid desc", (doc,))]
    if not refs:
        docs = [r[0] for r in conn.execute("select id from documents")]
        return [f"document {d}" for d in difflib.get_close_matches(doc, docs, n=3, cutoff=0.3)]
    close = process.extract(ref, refs, scorer=OSA.distance, limit=n)
    return [choice for choice, distance, _index in close if distance == close[0][1]]  # the nearest only


OUTGOING_SQL = """
select surface, target_doc as doc, target_ref as ref, target_id as id, kind, resolved
from xrefs where source_id = ? order by field, start
"""
INCOMING_SQL = """
select x.source_id as id, s.doc, s.ref, x.surface, x.kind
from xrefs x join sections s on s.id = x.source_id
where x.target_id in ({targets}) order by s.doc, s.position, x.start
"""
DESCENDANTS_SQL = """
with recursive tree(id) as (select ? union all select s.id from sections s join tree on s.parent_id = tree.id)
select id from tree
"""


def refs_for(db_path: str | Path, doc: str, ref: str, deep: bool = False) -> dict:
    """What unit DOC:REF cites (outgoing) and what cites it (incoming).

    With ``deep``, incoming also counts references to the unit's sub-units (61 gathers what
    cites 61B2(a)). Raises KeyError for a unit that does not exist.
    """
    unit = f"{doc}:{ref}"
    with closing(connect_readonly(db_path)) as conn:
        if conn.execute("select 1 from sections where id = ?", [unit]).fetchone() is None:
            raise KeyError(f"no unit {unit}")
        targets = [r[0] for r in conn.execute(DESCENDANTS_SQL, [unit])] if deep else [unit]
        outgoing = [dict(r, resolved=bool(r["resolved"])) for r in conn.execute(OUTGOING_SQL, [unit])]
        sql = INCOMING_SQL.format(targets=",".join("?" * len(targets)))
        incoming = [dict(r) for r in conn.execute(sql, targets)]
    return {"outgoing": outgoing, "incoming": incoming}


def labels(conn: sqlite3.Connection, unit_ids, lang: str, full: bool = False) -> dict[str, str]:
    """What people read for these units in the interface language (unit_labels, made at build):
    {id: 「第61条B項2」} (full: 「リボーク注釈: 第63条の引用」). A unit without a label is left out."""
    ids = list(dict.fromkeys(i for i in unit_ids if i))
    if not ids:
        return {}
    column = "full_label" if full else "label"
    out: dict[str, str] = {}
    for start in range(0, len(ids), 500):  # SQLite's variable limit
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        out.update(
            conn.execute(
                f"select unit_id, {column} from unit_labels where lang = ? and unit_id in ({marks})", [lang, *chunk]
            ).fetchall()
        )
    return out


def labels_by_language(conn: sqlite3.Connection, unit_id: str) -> tuple[dict[str, str], dict[str, str]]:
    """One unit's labels and full labels in every interface language, in one read (what its
    citation offers): ({"ja": 「第61条B項2」, ...}, {"ja": full label, ...}); a language without one
    is left out."""
    rows = conn.execute("select lang, label, full_label from unit_labels where unit_id = ?", [unit_id]).fetchall()
    return {lang: label for lang, label, _ in rows}, {lang: full for lang, _, full in rows}


def composed_text(units: list[dict]) -> str:
    """A unit's full text with its sub-items, as printed: each part on its own line, after its
    printed number (B. / 1. / (a)); footnotes are left out. ``units`` is the subtree in reading order."""
    lines = []
    for n, unit in enumerate(units):
        if unit["kind"] == "footnote":
            continue
        head = " ".join(
            p
            for p in ((printed_marker(unit["kind"], unit["attrs"]) if n else None), unit.get("title") if n else None)
            if p
        )
        text = unit.get("text") or ""
        line = " ".join(p for p in (head, text) if p)
        if line:
            lines.append(line)
    return "\n".join(lines)
