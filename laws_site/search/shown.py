"""What a search result shows of each unit besides its score, read once per build (issue 24).

A page of results read its units' texts, token offsets and labels with two statements per search
(and unpacked the offsets, parsed the labels' JSON): the same rows for every query. The whole lot is
small (3,131 units: ~0.1 M characters of text, 0.2 M of tokens, 0.7 MB of offsets, 0.2 MB of
labels), so it is read once per database file, like the rest of laws_site/search/data.py, and a
request only looks units up. Nothing here depends on a query. In Python it takes ~7 MB (texts and
offsets 2.0, labels 2.8, link labels 2.4: tracemalloc), read in 40-90 ms; a served process's RSS
after 230 searches went from 182 to 191 MiB.

Built from tables the build wrote: sections, search_offsets (ingest/search/tables.py), search_labels
(ingest/search/labels.py), search_leads (ingest/search/leads.py) and unit_labels. The site and the build ship together, so every database
the site reads has them.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from array import array
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ShownText:
    text: str  # the text a snippet is cut from: the unit's text, or its title when it has none
    padded: str  # that text's search tokens, space-separated, with a space before and after
    offsets: array  # begin of token i at 2i, end at 2i + 1 (tokenize.pack_offsets)


@dataclass(frozen=True, slots=True)
class ShownLabels:
    label: str | None  # sections.label (the Japanese interface's)
    labels: dict[str, str]  # per interface language, in unit_labels' key order; never handed out itself
    context: str | None  # the title of the nearest enclosing unit with one, for a unit without


class ShownUnits:
    """unit id -> ShownText / ShownLabels."""

    def __init__(
        self,
        texts: dict[str, ShownText],
        labels: dict[str, ShownLabels],
        full_labels: dict[str, dict[str, str]],
        leads: dict[str, str] | None = None,
    ):
        self.texts, self.labels = texts, labels
        # a unit that prints no text of its own -> what its result shows instead of its title again (stored_leads)
        self.leads = leads or {}
        # unit id -> {lang: document-qualified label} (リボーク注釈: 第63条の引用), for links to units
        self.full_labels = full_labels

    @classmethod
    def load(cls, conn: sqlite3.Connection) -> "ShownUnits":
        cursor = conn.cursor()
        cursor.row_factory = None  # the whole table, not a request's result: no per-row budget
        texts = {}
        for unit, title, text, title_tokens, text_tokens, title_offsets, text_offsets in cursor.execute(
            """select s.id, s.title, s.text, s.search_title, s.search_text, o.title, o.text
                   from sections s left join search_offsets o on o.id = s.id"""
        ):
            if text:
                texts[unit] = ShownText(text, _padded(text_tokens), unpack_offsets(text_offsets))
            else:
                texts[unit] = ShownText(title or "", _padded(title_tokens), unpack_offsets(title_offsets))
        labels = {
            unit: ShownLabels(label, json.loads(names), context)
            for unit, label, names, context in cursor.execute("select id, label, labels, context from search_labels")
        }
        full_labels: dict[str, dict[str, str]] = {}
        # languages in the order the per-page statement gave them (its index: unit_id, lang)
        for unit, lang, label in cursor.execute(
            "select unit_id, lang, full_label from unit_labels order by unit_id, lang"
        ):
            full_labels.setdefault(unit, {})[lang] = label
        return cls(texts, labels, full_labels, stored_leads(conn))


def _padded(tokens: str | None) -> str:
    return " " + (tokens or "") + " "


def unpack_offsets(blob: bytes | None) -> array:
    """Packed offsets as a flat array: begin of token i at 2i, end at 2i + 1 (tokenize.pack_offsets)."""
    packed = array("I")
    packed.frombytes(blob or b"")
    if sys.byteorder == "big":
        packed.byteswap()
    return packed


def stored_leads(conn: sqlite3.Connection) -> dict[str, tuple[tuple[str, str | None], ...]]:
    """Every unit that prints no text of its own -> its sub-units in reading order as ((head, unit), ...), made at
    build (table search_leads, ingest/search/leads.py): its search result shows their text under its title
    (presentation.lead_snippet), not the title a second time."""
    cursor = conn.cursor()
    cursor.row_factory = None  # the whole table once per build
    return {
        unit: tuple((head, child) for head, child in json.loads(lead))
        for unit, lead in cursor.execute("select id, lead from search_leads")
    }
