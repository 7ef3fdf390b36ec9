"""Database reads behind the pages. Each takes a sqlite3 connection (rows as sqlite3.Row).

Kept free of HTML so the JSON and HTML views answer from the same data.
"""

from __future__ import annotations

import json
import sqlite3

from ingest.sources.registry import Registry
from laws_site.read.units import permalink

UNIT_COLUMNS = "id, doc, ref, kind, title, text, parent_id, position, page, attrs"


def attrs_of(row) -> dict:
    return json.loads(row["attrs"]) if row["attrs"] else {}


def unit_dict(row) -> dict:
    return {**dict(row), "attrs": attrs_of(row), "url": permalink(row["doc"], row["ref"])}


def registry(conn: sqlite3.Connection) -> Registry:
    """Which document is the current Laws, an earlier edition, a commentary... (table documents)."""
    cursor = conn.execute("select * from documents order by rowid")
    names = [column[0] for column in cursor.description]  # works whatever the connection's row factory
    return Registry.from_rows(dict(zip(names, row)) for row in cursor)


def documents(conn: sqlite3.Connection) -> list[dict]:
    return [dict(r) for r in conn.execute("select * from documents order by rowid")]


def document(conn: sqlite3.Connection, doc: str) -> dict | None:
    row = conn.execute("select * from documents where id = ?", (doc,)).fetchone()
    return dict(row) if row else None


def unit_by_id(conn: sqlite3.Connection, unit_id: str) -> dict | None:
    row = conn.execute(f"select {UNIT_COLUMNS} from sections where id = ?", (unit_id,)).fetchone()
    return unit_dict(row) if row else None


def aliased_ref(conn: sqlite3.Connection, doc: str, alias: str) -> str | None:
    """The ref a changed id now has (ref_aliases: def:ディクレアララー -> def:ディクレアラー)."""
    row = conn.execute("select ref from ref_aliases where doc = ? and alias = ?", (doc, alias)).fetchone()
    return row[0] if row else None


def doc_refs(conn: sqlite3.Connection, doc: str) -> list[str]:
    return [r[0] for r in conn.execute("select ref from sections where doc = ? order by position", (doc,))]


def ancestors(conn: sqlite3.Connection, unit: dict) -> list[dict]:
    """Enclosing units, outermost first (part > law > section)."""
    chain = []
    parent_id = unit.get("parent_id")
    while parent_id and len(chain) < 20:  # a bound in case a parent cycle ever slips in
        parent = unit_by_id(conn, parent_id)
        if parent is None:
            break
        chain.append(parent)
        parent_id = parent["parent_id"]
    return list(reversed(chain))


def subtree(conn: sqlite3.Connection, unit_id: str) -> list[dict]:
    """The unit and all its descendants, in reading order."""
    rows = conn.execute(
        f"""
        with recursive tree(id) as (
            select ? union all select s.id from sections s join tree on s.parent_id = tree.id
        )
        select {UNIT_COLUMNS} from sections where id in (select id from tree) order by position
    """,
        (unit_id,),
    )
    return [unit_dict(r) for r in rows]


def xrefs_from(conn: sqlite3.Connection, source_ids: list[str]) -> list[dict]:
    marks = ",".join("?" * len(source_ids))
    rows = conn.execute(f"select * from xrefs where source_id in ({marks}) order by source_id, start", source_ids)
    return [dict(r) for r in rows]


def xrefs_into(conn: sqlite3.Connection, target_ids: list[str]) -> list[dict]:
    """References into these units, with the citing unit's kind, ref, title and document kind."""
    marks = ",".join("?" * len(target_ids))
    rows = conn.execute(
        f"""
        select x.*, s.doc as source_doc, s.ref as source_ref, s.kind as source_kind,
               s.title as source_title, s.text as source_text, s.position as source_position,
               d.kind as source_doc_kind, d.title as source_doc_title
        from xrefs x join sections s on s.id = x.source_id join documents d on d.id = s.doc
        where x.target_id in ({marks}) order by s.position
    """,
        target_ids,
    )
    return [dict(r) for r in rows]


def definitions(conn: sqlite3.Connection, doc: str) -> list[dict]:
    rows = conn.execute(
        f"select {UNIT_COLUMNS} from sections where doc = ? and kind = 'definition' order by position", (doc,)
    )
    return [unit_dict(r) for r in rows]


def definitions_in(conn: sqlite3.Connection, doc: str, text: str) -> list[dict]:
    """The document's definitions whose term (two characters or more) occurs in ``text``."""
    rows = conn.execute(
        f"select {UNIT_COLUMNS} from sections where doc = ? and kind = 'definition' and length(title) >= 2 "
        "and instr(?, title) > 0 order by position",
        (doc, text),
    )
    return [unit_dict(r) for r in rows]


def units_of_kinds(conn: sqlite3.Connection, doc: str, kinds: tuple[str, ...]) -> list[dict]:
    marks = ",".join("?" * len(kinds))
    rows = conn.execute(
        f"select {UNIT_COLUMNS} from sections where doc = ? and kind in ({marks}) order by position", (doc, *kinds)
    )
    return [unit_dict(r) for r in rows]


def index_entries(conn: sqlite3.Connection, doc: str, row: str | None = None) -> list[dict]:
    """The 索引's entries, of one kana row or all of them."""
    rows = conn.execute(
        f"select {UNIT_COLUMNS} from sections where doc = ? and kind = 'index_entry' "
        "and (? is null or json_extract(attrs, '$.row') = ?) order by position",
        (doc, row, row),
    )
    return [unit_dict(r) for r in rows]


def index_row_sizes(conn: sqlite3.Connection, doc: str) -> dict[str, int]:
    rows = conn.execute(
        "select json_extract(attrs, '$.row'), count(*) from sections where doc = ? and kind = 'index_entry' group by 1",
        (doc,),
    )
    return {row: count for row, count in rows}


def refs_of_kind(conn: sqlite3.Connection, doc: str, kind: str) -> set[str]:
    return {r[0] for r in conn.execute("select ref from sections where doc = ? and kind = ?", (doc, kind))}


def table_exists(conn: sqlite3.Connection, name: str) -> bool:
    return (
        conn.execute("select 1 from sqlite_master where type in ('table','view') and name = ?", (name,)).fetchone()
        is not None
    )


def unit_tables(conn: sqlite3.Connection, unit_ids: list[str]) -> list[dict]:
    """Printed tables of these units (made at build by ingest/parsers/tables.py), in unit and print order."""
    if not unit_ids:
        return []
    marks = ",".join("?" * len(unit_ids))
    rows = conn.execute(
        f"select id, unit_id, doc, ref, seq, source, caption, text_start, text_end, data "
        f"from unit_tables where unit_id in ({marks}) order by unit_id, seq",
        unit_ids,
    )
    return [
        {
            **{k: r[k] for k in ("id", "unit_id", "doc", "ref", "seq", "source", "text_start", "text_end")},
            **json.loads(r["data"]),
        }
        for r in rows
    ]


def citation_totals(conn: sqlite3.Connection, doc: str) -> list[dict]:
    """Per law: title, part, and how many units/laws it cites and is cited by (ingest/references/citations.py)."""
    return [dict(r) for r in conn.execute("select * from law_citation_totals where doc = ? order by law", (doc,))]


def citation_pairs(conn: sqlite3.Connection, doc: str) -> list[dict]:
    rows = conn.execute(
        "select from_law, to_law, from_part, to_part, units, citing_units from law_citations "
        "where doc = ? order by from_law, to_law",
        (doc,),
    )
    return [{**dict(r), "citing_units": json.loads(r["citing_units"])} for r in rows]


def part_citations(conn: sqlite3.Connection, doc: str) -> list[dict]:
    return [
        dict(r)
        for r in conn.execute("select from_part, to_part, units, law_pairs from part_citations where doc = ?", (doc,))
    ]
