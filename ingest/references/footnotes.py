"""Which footnotes bear on each unit, made at build: table ``unit_footnotes``.

A footnote hangs from a marker the book prints in a heading (13 カードの過不足*2, kept apart from the
title in ``attrs.title_footnotes``) or in a text (64A2 反則したプレイヤー*19). It bears on the unit that
prints the marker and on every unit under it: a condition carried by a parent's lead-in (64A
リボークが成立したとき：) or a heading (Law 13's footnote 2 says when the whole law applies) is part of
reading each provision below. One row per (unit, footnote): the footnote, its printed label, the unit
that prints the marker (``via_id``: the unit itself or an ancestor) and the field it is printed in.

Pure: units in, rows out.
"""

from __future__ import annotations

import re

from ingest.parsers.records import Unit
from ingest.text.refs import law_number

FOOTNOTE_COLUMNS = {
    "id": str,
    "unit_id": str,
    "footnote_id": str,
    "label": str,
    "via_id": str,
    "field": str,
    "position": int,
}
# *19 (or a bare * for a 【日本語版注】) as the parsers leave markers in a text
TEXT_MARKER = re.compile(r"\*(\d*)")


def footnote_index(units: list[Unit]) -> dict[tuple[str, str], str]:
    """(doc, key) -> footnote id; key is the label (`19`) or, for a bare `*`, `*<law>` (the
    【日本語版注】 of Law 22 is fn:ja-22, hung from the law that prints the star)."""
    found: dict[tuple[str, str], str] = {}
    for unit in units:
        if unit.kind != "footnote":
            continue
        label = str(unit.attrs.get("label") or unit.ref.removeprefix("fn:"))
        if label == "*":
            anchor = str(unit.attrs.get("anchor_ref") or "").removeprefix("quote:")
            found[(unit.doc, f"*{law_number(anchor)}")] = unit.id
        else:
            found[(unit.doc, label)] = unit.id
    return found


def own_markers(unit: Unit) -> list[tuple[str, str]]:
    """(field, label) of each footnote marker the unit prints, in reading order, once each."""
    marks = [("title", str(label)) for label in unit.attrs.get("title_footnotes") or []]
    marks += [("text", m.group(1) or "*") for m in TEXT_MARKER.finditer(unit.text or "")]
    return list(dict.fromkeys(marks))


def resolve(unit: Unit, label: str, index: dict[tuple[str, str], str]) -> str | None:
    if label == "*":
        return index.get((unit.doc, f"*{law_number(unit.ref.removeprefix('quote:'))}"))
    return index.get((unit.doc, label))


def unit_footnote_rows(units: list[Unit]) -> list[dict]:
    """Rows of table ``unit_footnotes``: each unit with the footnotes it and its ancestors carry
    (nearest first: its own, then its parent's, ...)."""
    index = footnote_index(units)
    if not index:
        return []
    documents = {doc for doc, _ in index}
    by_id = {u.id: u for u in units}
    carried: dict[str, list[tuple[str, str, str]]] = {}  # unit id -> (field, label, footnote id) it prints
    for unit in units:
        if unit.doc in documents and unit.kind != "footnote":
            marks = [(field, label, resolve(unit, label, index)) for field, label in own_markers(unit)]
            carried[unit.id] = [mark for mark in marks if mark[2]]
    rows: list[dict] = []
    for unit in units:
        if unit.id not in carried:
            continue
        seen: set[str] = set()
        node, steps = unit, 0
        while node is not None and steps < 50:
            for field, label, footnote in carried.get(node.id, []):
                if footnote not in seen:
                    seen.add(footnote)
                    rows.append(
                        {
                            "id": f"{unit.id}->{footnote}",
                            "unit_id": unit.id,
                            "footnote_id": footnote,
                            "label": label,
                            "via_id": node.id,
                            "field": field,
                            "position": len(rows),
                        }
                    )
            node, steps = by_id.get(node.parent_id) if node.parent_id else None, steps + 1
    return rows
