"""One law's history: the law through every version in the corpus, aligned unit by unit.

Versions, oldest first: the 1997 Laws (laws-1997-zh), the 2017 Laws as the commentaries of
2018 reprint them (``quote:<ref>`` units), the 2017 Laws as published on the web (2019 PDF). A row
is one provision: its unit in each version (or why there is none) and what happened at each step:
1997 -> 2017 the provision concordance's relation (ingest.editions.concordance: moved, renumbered, reworded,
split, merged, partial, added, removed), 2018 reprint -> 2019 PDF the wording diff within Japanese
(ingest.editions.diff ops). Made once at build: table ``law_history`` (one JSON document per law).
"""

from __future__ import annotations

import json

from ingest.editions.align import LAW_KINDS
from ingest.editions.relations import relation_words
from ingest.parsers.records import Unit
from ingest.sources.registry import Registry
from ingest.text.refs import law_number

HISTORY_COLUMNS = {"law": int, "history": str}


def version_list(registry: Registry, old_doc: str, new_doc: str) -> list[dict]:
    old, new = registry.get(old_doc), registry.get(new_doc)
    reprints = [c for c in registry.commentaries if c.comments_on == new_doc]
    dates = sorted({c.version_date for c in reprints})
    return [
        {
            "key": "old",
            "docs": [old_doc],
            "edition": old.edition,
            "lang": old.language,
            "date": old.version_date,
            "label": f"{old.edition} ({old.short_title or old.title})",
        },
        {
            "key": "reprint",
            "docs": [c.id for c in reprints],
            "edition": new.edition,
            "lang": new.language,
            "date": dates[0] if dates else None,
            "label": f"{new.edition} as reprinted by the commentaries ({dates[0][:4] if dates else ''})",
        },
        {
            "key": "new",
            "docs": [new_doc],
            "edition": new.edition,
            "lang": new.language,
            "date": new.version_date,
            "label": f"{new.edition} ({new.short_title or new.title}, {new.version_date[:4]})",
        },
    ]


def history_rows(
    units: list[Unit],
    pairs: list[dict],
    diff_rows: list[dict],
    registry: Registry,
    old_doc: str,
    new_doc: str,
    old_last_law: int | None,
) -> list[dict]:
    """Rows of table ``law_history``: one per law either edition has."""
    by_id = {u.id: u for u in units}
    old_laws = [u for u in units if u.doc == old_doc and u.kind in ("law", "section", "item", "subitem", "subsubitem")]
    old_last_ref = old_laws[-1].ref if old_laws else None
    versions = version_list(registry, old_doc, new_doc)
    reprint_docs = set(versions[1]["docs"])
    reprinted: dict[str, list[dict]] = {}
    stored_reprints = [
        (stored, json.loads(stored["row"]))
        for stored in diff_rows
        # a reprinted unit and its 2017 unit (the row's own columns say so: its JSON is read only then)
        if not stored["whitespace"]
        and stored["from_doc"] in reprint_docs
        and stored["to_doc"] == new_doc
        and stored["from_id"]
        and stored["to_id"]
    ]
    printed_in = {(stored["from_doc"], row["to_id"]) for stored, row in stored_reprints}
    children: dict[str, list[str]] = {}
    for unit in units:
        if unit.parent_id and unit.kind in LAW_KINDS:
            children.setdefault(unit.parent_id, []).append(unit.id)
    for stored, row in stored_reprints:
        reprint = registry.get(stored["from_doc"])
        heading_only = row.get("heading_only") or headings_alone(
            by_id[row["from_id"]], by_id[row["to_id"]], stored["from_doc"], printed_in, children
        )
        reprinted.setdefault(row["to_id"], []).append(
            {
                **cell(by_id[row["from_id"]]),
                "law_ref": row["from_ref"],
                "doc_title": (reprint.short_title or reprint.title) if reprint else stored["from_doc"],
                # a heading-only reprint (50A, 50C in the 2018 commentary): nothing was compared
                "status": "heading_only" if heading_only else row["status"],
                "heading_only": bool(heading_only),
                "ops": row["ops"],
                "title_ops": row["title_ops"],
                "note": row.get("note"),
            }
        )
    by_law: dict[int, list[dict]] = {}
    for pair in pairs:  # a pair across laws (1997 23 -> 2017 72C) is in both laws' histories
        for law in {pair["from_law"], pair["to_law"]} - {None}:
            by_law.setdefault(law, []).append(pair)
    out = []
    for law, rows in sorted(by_law.items()):
        out.append(
            {
                "law": law,
                "history": json.dumps(
                    law_history(law, rows, by_id, reprinted, versions, old_last_law, old_last_ref), ensure_ascii=False
                ),
            }
        )
    return out


def headings_alone(reprint: Unit, unit: Unit, doc: str, printed_in: set, children: dict[str, list[str]]) -> bool:
    """A reprint of a heading whose provisions the commentary does not print (the 2018 commentary's
    50E ペナルティカードから得た情報 without 50E1-50E4): its heading agrees, but nothing was compared."""
    if (reprint.text or "").strip() or (unit.text or "").strip():
        return False
    below = children.get(unit.id, [])
    return bool(below) and not any((doc, child) in printed_in for child in below)


def cell(unit: Unit) -> dict:
    """A unit in a history row; its text is in table sections, added when the page is read
    (laws_site/read/editions.py), not stored twice."""
    return {"doc": unit.doc, "id": unit.id, "ref": unit.ref, "title": unit.title}


def law_history(
    law: int,
    pairs: list[dict],
    by_id: dict[str, Unit],
    reprinted: dict[str, list[dict]],
    versions: list[dict],
    old_last_law: int | None,
    old_last_ref: str | None = None,
) -> dict:
    old_last_ref = old_last_ref or f"Law {old_last_law}"
    new_units = [p["to_id"] for p in pairs if p["to_id"]]
    reaches = {
        "old": any(p["from_id"] for p in pairs),
        "reprint": any(to_id in reprinted for to_id in new_units if law_number(by_id[to_id].ref) == law),
        "new": bool(new_units),
    }
    notes = {
        "old": None
        if reaches["old"]
        else (
            f"No {versions[0]['edition']} text of Law {law} is in the corpus: the {versions[0]['edition']} "
            f"text stops inside {old_last_ref}."
            if old_last_law and law > old_last_law
            else f"The {versions[0]['edition']} Laws have no Law {law}."
        ),
        "reprint": None
        if reaches["reprint"]
        else f"The commentaries of {str(versions[1]['date'])[:4]} do not reprint Law {law}.",
        "new": None if reaches["new"] else f"No unit of the {versions[2]['edition']} Laws came from Law {law}.",
    }
    if reaches["old"] and old_last_law == law:
        notes["old"] = (
            f"The {versions[0]['edition']} text in this corpus stops inside {old_last_ref}: "
            "what follows has no 1997 text to compare."
        )
    seen_old: set[str] = set()
    rows = []
    for pair in pairs:
        old = by_id.get(pair["from_id"]) if pair["from_id"] else None
        new = by_id.get(pair["to_id"]) if pair["to_id"] else None
        repeat = bool(old) and old.id in seen_old
        if old:
            seen_old.add(old.id)
        reprints = reprinted.get(new.id, []) if new else []
        rows.append(
            {
                "ref": new.ref if new else old.ref,
                "old": {**cell(old), "repeat": repeat} if old else None,
                "reprints": reprints,
                "new": cell(new) if new else None,
                "steps": {
                    "old_to_new": {
                        "relation": pair["relation"],
                        "words": relation_words(pair["relation"]),
                        "basis": pair["basis"],
                        "reason": pair["reason"],
                        "reason_ja": pair.get("reason_ja"),
                        "reason_zh": pair.get("reason_zh"),
                        "source_ref": pair.get("source_ref"),
                        "moved": bool(old and new and old.ref != new.ref),
                    },
                    "reprint_to_new": [
                        {
                            "doc": r["doc"],
                            "status": r["status"],
                            "changed": r["status"] == "changed",
                            "compared": not r["heading_only"],
                        }
                        for r in reprints
                    ],
                },
            }
        )
    return {
        "law": law,
        "versions": [{**v, "reaches": reaches[v["key"]], "note": notes[v["key"]]} for v in versions],
        "counts": counts(rows),
        "rows": rows,
    }


def counts(rows: list[dict]) -> dict:
    out: dict[str, int] = {}
    for row in rows:
        relation = row["steps"]["old_to_new"]["relation"]
        out[relation] = out.get(relation, 0) + 1
    out["reworded_in_reprint"] = sum(1 for row in rows for r in row["reprints"] if r["status"] == "changed")
    out["heading_only_in_reprint"] = sum(1 for row in rows for r in row["reprints"] if r["heading_only"])
    return out
