"""Table `search_labels`: what a search result shows besides its text, one row per unit, made at
build (issue 24: a search reads rows; it worked this out per request).

id        the unit
label     sections.label (the Japanese interface's)
labels    its labels per interface language, a JSON object in `unit_labels`' key order (en, ja, zh)
context   for a unit without a title of its own, the title of its nearest enclosing unit that has one
          (27B1(b) -> 27B1 不十分なビッドが受け入れられなかった場合); else null

laws_site/search/presentation.py `unit_labels` reads it (one statement for a page of results, where it took three,
one of them a recursive walk up the parents); without it, the tables as before.
"""

from __future__ import annotations

import sqlite3

from ingest.build.sql import json_text, replace_derived_table

TABLE = "search_labels"
SCHEMA = f"create table {TABLE} (id text primary key, label text, labels text not null, context text)"


def search_label_rows(conn: sqlite3.Connection) -> list[tuple]:
    """(id, label, labels JSON, context) of every unit, from sections and unit_labels."""
    units = {
        unit: (parent, title, label)
        for unit, parent, title, label in conn.execute("select id, parent_id, title, label from sections")
    }
    labels: dict[str, dict[str, str]] = {}
    for unit, lang, label in conn.execute("select unit_id, lang, label from unit_labels order by unit_id, lang"):
        labels.setdefault(unit, {})[lang] = label
    return label_context_rows(units, labels)


def label_context_rows(units: dict[str, tuple], labels: dict[str, dict[str, str]]) -> list[tuple]:
    """units: id -> (parent id, title, label) in position order; labels: id -> {language: label}."""
    rows = []
    for unit, (parent, title, label) in units.items():
        context = None
        if not title:
            node, seen = parent, {unit}
            while node in units and node not in seen:
                seen.add(node)
                node_parent, node_title, _ = units[node]
                if node_title:
                    context = node_title
                    break
                node = node_parent
        rows.append((unit, label, json_text(labels.get(unit, {})), context))
    return rows


def write_search_labels(db) -> None:
    """Create and fill the table on the database being built, from its sections and unit_labels
    (ingest/build/database.py populate)."""
    replace_derived_table(db.conn, TABLE, SCHEMA, search_label_rows(db.conn))
