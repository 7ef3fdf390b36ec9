"""Table edition_flags: references printed against an older edition, each with where the provision it
means is now - a document written before the 2017 Laws took effect citing a number whose meaning
changed (``edition_flags``, ``flags_for``: corpus/concordance.yml's moves), and the 1997 Laws citing
their own units that moved (``moved_reference_flags``: the concordance's pairs, concordance.py).
"""

from __future__ import annotations

import json
import sqlite3

from ingest.editions.align import Concordance, load_concordance
from ingest.editions.concordance_file import Provisions
from ingest.editions.relations import relation_words
from ingest.parsers.records import Unit

FLAG_COLUMNS = {
    "id": str,
    "source_id": str,
    "source_doc": str,
    "surface": str,
    "field": str,
    "start": int,
    "end": int,
    "target_id": str,
    "target_ref": str,
    "cited_edition": str,
    "relation": str,
    "now": str,
    "message": str,
}


def moved_reference_flags(
    xrefs: list[dict], pairs: list[dict], provisions: Provisions, regulation_flags: list[dict]
) -> list[dict]:
    """References printed in a document older than the 2017 Laws to a provision that has moved:

    * the 1997 Laws citing their own units (第23条 in 1997 24B is the damaging pass, now 2017 72C);
    * documents written before the 2017 Laws took effect citing a number the concordance says was
      reused (付表7-4's 「23条」: ``edition_flags`` below).

    Each flag says where the provision is now (``now``: JSON list of {id, ref, relation})."""
    went: dict[str, list[dict]] = {}
    for pair in pairs:
        if pair["from_ref"]:
            went.setdefault(pair["from_ref"], []).append(pair)
    flags = []
    for xref in xrefs:
        if not (
            xref.get("resolved")
            and xref["source_id"].startswith(provisions.from_doc + ":")
            and xref.get("target_doc") == provisions.from_doc
            and xref.get("target_ref") in went
        ):
            continue
        ref = xref["target_ref"]
        now = [p for p in went[ref] if p["to_ref"]]
        if any(p["to_ref"] == ref for p in now):
            continue  # still under its own number (a split or a partial keeps it): not moved
        relation = went[ref][0]["relation"]
        where = ", ".join(p["to_ref"] for p in now) or "nowhere (removed)"
        flags.append(
            {
                **flag_base(xref),
                "cited_edition": "1997",
                "relation": relation,
                "now": json.dumps(
                    [{"id": p["to_id"], "ref": p["to_ref"], "relation": p["relation"]} for p in now], ensure_ascii=False
                ),
                "message": f"1997 {ref} is 2017 {where} ({relation_words(relation)}): {went[ref][0]['reason']}",
            }
        )
    for flag in regulation_flags:
        doc, _, ref = flag["now_at"].partition(":")
        flags.append(
            {
                **flag_base(flag),
                "cited_edition": flag.get("cited_edition"),
                "relation": "moved",
                "target_ref": flag["target_ref"],
                "now": json.dumps([{"id": flag["now_at"], "ref": ref, "relation": "moved"}], ensure_ascii=False),
                "message": flag["message"],
            }
        )
    for number, flag in enumerate(flags, start=1):
        flag["id"] = number
    return flags


def flag_base(xref: dict) -> dict:
    return {
        "source_id": xref["source_id"],
        "source_doc": xref["source_id"].split(":", 1)[0],
        "surface": xref["surface"],
        "field": xref.get("field"),
        "start": xref.get("start"),
        "end": xref.get("end"),
        "target_id": xref.get("target_id"),
        "target_ref": xref.get("target_ref"),
    }


# --- references written against an older edition ----------------------------------------------------------------


def edition_flags(
    conn_or_units, concordance: Concordance | None = None, version_dates: dict[str, str] | None = None
) -> list[dict]:
    """References that cite a Law in an older edition's sense (JCBL 付表7: 23条が適用される).

    Rule (docs/diff.md): a reference to laws-2017-ja REF is flagged when its document's version
    date precedes the date the 2017 Laws took effect (concordance ``in_force``) and REF is a ref
    whose meaning the concordance says changed (a ``moved`` move's old number reused, or a
    ``new`` unit). Accepts a database connection (table xrefs) or a list of parsed units.
    """
    concordance = concordance or load_concordance()
    if isinstance(conn_or_units, sqlite3.Connection):
        xrefs = _xrefs_from_db(conn_or_units)
        version_dates = version_dates or _version_dates_from_db(conn_or_units)
    else:
        xrefs = _xrefs_from_units(list(conn_or_units))
        version_dates = version_dates or _version_dates_from_manifest()
    return flags_for(xrefs, concordance, version_dates)


def flags_for(xrefs: list[dict], concordance: Concordance, version_dates: dict[str, str]) -> list[dict]:
    """`edition_flags` on cross-references the build has made already (table xrefs' rows)."""
    changed = changed_meanings(concordance)
    flags = []
    for xref in xrefs:
        meaning = changed.get((xref["target_doc"], xref["target_ref"]))
        in_force = concordance.in_force.get(xref["target_doc"], {})
        source_doc = xref["source_id"].split(":", 1)[0]
        written = version_dates.get(source_doc)
        if meaning and in_force and written and written < str(in_force["date"]):
            flags.append(edition_flag(xref, meaning, in_force, written))
    return flags


def changed_meanings(concordance: Concordance) -> dict[tuple[str, str], dict]:
    """(doc, ref) of the newer edition whose number meant something else before -> the moves saying so."""
    changed: dict[tuple[str, str], dict] = {}
    new_units = {(m.to_doc, m.to_ref): m for m in concordance.moves if m.kind == "new"}
    for move in concordance.moves:
        if move.kind == "moved" and move.from_ref and (move.to_doc, move.from_ref) in new_units:
            changed[(move.to_doc, move.from_ref)] = {"old": move, "new": new_units[(move.to_doc, move.from_ref)]}
    return changed


def edition_flag(xref: dict, meaning: dict, in_force: dict, written: str) -> dict:
    old, new = meaning["old"], meaning["new"]
    return {
        "source_id": xref["source_id"],
        "surface": xref["surface"],
        "target_id": xref.get("target_id"),
        "field": xref.get("field"),
        "start": xref.get("start"),
        "end": xref.get("end"),
        "target_ref": xref["target_ref"],
        "cited_edition": in_force.get("previous_edition"),
        "document_date": written,
        "in_force": str(in_force["date"]),
        "older_meaning": old.older_meaning,
        "now_at": f"{old.to_doc}:{old.to_ref}",
        "concordance": [old.id, new.id],
        "message": (
            f"{xref['surface']} was written before the 2017 Laws took effect ({in_force['date']}): it means "
            f"{old.older_meaning or 'the older Law ' + str(old.from_ref)}, now {old.to_ref}; "
            f"2017 Law {new.to_ref} is a different rule."
        ),
    }


def _xrefs_from_db(conn: sqlite3.Connection) -> list[dict]:
    # a row the build re-pointed (ingest/references/moved.py) is read as printed: its number is what is flagged
    printed = "as_printed_ref" in {row[1] for row in conn.execute("pragma table_info(xrefs)")}
    ref, target = (
        (
            "coalesce(as_printed_ref, target_ref)",
            "case when as_printed_ref is null then target_id else target_doc || ':' || as_printed_ref end",
        )
        if printed
        else ("target_ref", "target_id")
    )
    rows = conn.execute(
        f"select source_id, surface, target_doc, {ref}, {target} from xrefs "
        "where target_doc is not null and target_ref is not null"
    ).fetchall()
    return [dict(zip(("source_id", "surface", "target_doc", "target_ref", "target_id"), r)) for r in rows]


def _version_dates_from_db(conn: sqlite3.Connection) -> dict[str, str]:
    return {r[0]: str(r[1]) for r in conn.execute("select id, version_date from documents")}


def _xrefs_from_units(units: list[Unit]) -> list[dict]:
    from ingest.references.xrefs import build_xrefs

    return build_xrefs(units)


def _version_dates_from_manifest() -> dict[str, str]:
    from ingest.sources.corpus import DEFAULT_CORPUS, load_manifest

    return {entry["id"]: str(entry["version_date"]) for entry in load_manifest(DEFAULT_CORPUS)}
