"""A citation that could mean two documents: the Laws' unit opens, the other one is offered.

`27条` (or `第27条`, `27`, `２７条`) names Law 27 of the current Laws, which search opens; the
regulations (競技会運営規則) have an article 27 too, and a director who meant it must see it at once
("競技会運営規則の第27条をお探しですか"). Nothing here is a list of numbers: the cited units come from
`citations.cited_units`, which looks each candidate up in the database, so `64条` (the regulations
stop at article 51) offers nothing, and `Law 27`, `27条B項` or `運営規則27条`, which can only mean
one document, offer nothing either.

A reprint of a law in a commentary (`quote:64`) or a commentary note on it (`L61A`) is the same
provision, not another meaning: only a unit in a document of another role (laws / regulations)
is offered.
"""

from __future__ import annotations

import sqlite3

from laws_site.search.citations import cited_units
from laws_site.search.data import search_data
from laws_site.search.query import QueryError, check_query

MEANINGS = ("laws", "regulations")  # document roles whose numbers mean different rules
LANGUAGES = ("ja", "zh", "en")


def offered(conn: sqlite3.Connection, data, citation: dict | None) -> list[dict]:
    """The cited units another document holds under the same citation, when the citation opens a
    unit: [{"id", "doc", "ref", "url", "labels" {lang: full label}, "label" {lang: label},
    "document" {lang: the document's short title}}], in the order search found them; [] otherwise."""
    if not citation or not citation.get("opens") or not citation.get("units"):
        return []
    opened_role = data.role(citation["units"][0].split(":", 1)[0])
    if opened_role not in MEANINGS:
        return []
    others = [
        unit
        for unit in citation["units"]
        if data.role(unit.split(":", 1)[0]) in MEANINGS and data.role(unit.split(":", 1)[0]) != opened_role
    ]
    if not others:
        return []
    labels = _labels(conn, others)
    titles = _short_titles(conn)
    out = []
    for unit in others:
        doc, ref = unit.split(":", 1)
        out.append(
            {
                "id": unit,
                "doc": doc,
                "ref": ref,
                "url": data.url(unit, doc, ref),
                "labels": {lang: full for lang, (_, full) in labels.get(unit, {}).items()},
                "label": {lang: short for lang, (short, _) in labels.get(unit, {}).items()},
                "document": titles.get(doc, {}),
            }
        )
    return out


def for_opened_unit(conn: sqlite3.Connection, query: str, unit_id: str) -> list[dict]:
    """What a unit page opened from a search (`?from_search=27条`) offers: the alternatives of that
    citation, only when the search really opens this unit (a hand-made `from_search` on another
    page offers nothing). A query search refuses offers nothing."""
    data = search_data(conn)
    try:
        citation = cited_units(conn, data, check_query(query), None, None)
    except QueryError:
        return []
    if not citation or not citation["opens"] or citation["citations"] != 1 or citation["units"][0] != unit_id:
        return []
    return offered(conn, data, citation)


def in_language(alternatives: list[dict], lang: str) -> list[dict]:
    """Each alternative as the page shows it in the interface language: {url, label, document}."""
    return [
        {"url": a["url"], "label": a["label"].get(lang) or a["ref"], "document": a["document"].get(lang) or a["doc"]}
        for a in alternatives
    ]


def _labels(conn, ids: list[str]) -> dict[str, dict[str, tuple[str, str]]]:
    marks = ",".join("?" * len(ids))
    found: dict[str, dict[str, tuple[str, str]]] = {}
    rows = conn.execute(
        f"select unit_id, lang, label, full_label from unit_labels where unit_id in ({marks})", ids
    ).fetchall()
    for unit, lang, label, full in sorted(rows, key=lambda row: LANGUAGES.index(row[1]) if row[1] in LANGUAGES else 9):
        found.setdefault(unit, {})[lang] = (label, full)
    return found


def _short_titles(conn) -> dict[str, dict[str, str]]:
    cursor = conn.execute("select * from documents")
    names = [column[0] for column in cursor.description]
    out: dict[str, dict[str, str]] = {}
    for row in cursor:
        document = dict(zip(names, row))
        fallback = document.get("short_title") or document.get("title") or document["id"]
        out[document["id"]] = {
            lang: document.get("short_title" if lang == "ja" else f"short_title_{lang}") or fallback
            for lang in LANGUAGES
        }
    return out
