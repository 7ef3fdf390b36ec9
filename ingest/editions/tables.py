"""The build's one call into the edition work: the provision concordance (ingest.editions.concordance) made
once, the 1997 -> 2017 alignment replaced by it (so the diffs follow the same pairs), and the
tables written from it: provision_pairs, edition_flags, law_history, law_changes."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ingest.editions.align import CONCORDANCE_PATH, Concordance, comparable_units, last_law_number
from ingest.editions.concordance import (
    PAIR_COLUMNS,
    Provisions,
    aligned_rows,
    load_provisions,
    provision_pairs,
)
from ingest.editions.edition_flags import FLAG_COLUMNS, flags_for, moved_reference_flags
from ingest.editions.history import HISTORY_COLUMNS, history_rows
from ingest.editions.law_changes import LAW_CHANGE_COLUMNS, law_change_rows
from ingest.parsers.records import Unit
from ingest.sources.registry import Registry

EDITION_SCHEMAS = {
    "provision_pairs": (
        PAIR_COLUMNS,
        {
            "pk": "position",
            "foreign_keys": [
                ("from_id", "sections", "id"),
                ("to_id", "sections", "id"),
                ("from_doc", "documents", "id"),
                ("to_doc", "documents", "id"),
            ],
        },
    ),
    "edition_flags": (FLAG_COLUMNS, {"pk": "id", "foreign_keys": [("source_id", "sections", "id")]}),
    "law_history": (HISTORY_COLUMNS, {"pk": "law"}),
    # each law's parts counted by what happened to them (ingest/editions/law_changes.py)
    "law_changes": (LAW_CHANGE_COLUMNS, {"pk": ("doc", "law"), "foreign_keys": [("doc", "documents", "id")]}),
}


@dataclass
class Concorded:
    provisions: Provisions
    pairs: list[dict]


def follow_provisions(
    aligned: dict,
    units: list[Unit],
    glossary: list[dict],
    languages: dict[str, str],
    concordance: Concordance,
    path: Path | None = None,
) -> tuple[dict, Concorded]:
    """The provision pairs (``path``: the corpus's concordance.yml), and ``aligned`` with the
    1997 -> 2017 comparison drawn from them."""
    provisions = load_provisions(path or CONCORDANCE_PATH, concordance=concordance)
    pairs = provision_pairs(units, glossary, languages, provisions)
    key = (provisions.from_doc, provisions.to_doc)
    if key in aligned and pairs:
        aligned = {**aligned, key: aligned_rows(pairs)}
    return aligned, Concorded(provisions, pairs)


def older_edition_flags(xrefs: list[dict], registry: Registry, concordance: Concordance) -> list[dict]:
    """References in documents written before the 2017 Laws to a number whose meaning changed
    (付表7-4's 23条), from the rows as resolved: the build flags them, then re-points the rows
    (ingest/references/moved.py)."""
    dates = {d.id: d.version_date for d in registry.documents}
    return flags_for([x for x in xrefs if x.get("target_doc") and x.get("target_ref")], concordance, dates)


def edition_tables(
    units: list[Unit],
    concorded: Concorded,
    xrefs: list[dict],
    diff_rows: list[dict],
    registry: Registry,
    concordance: Concordance,
    regulation_flags: list[dict] | None = None,
) -> dict[str, list[dict]]:
    """``regulation_flags``: `older_edition_flags` made before the rows were re-pointed (else made here)."""
    provisions, pairs = concorded.provisions, concorded.pairs
    if regulation_flags is None:
        regulation_flags = older_edition_flags(xrefs, registry, concordance)
    old_units = comparable_units(units, provisions.from_doc)
    return {
        "provision_pairs": pairs,
        "edition_flags": moved_reference_flags(xrefs, pairs, provisions, regulation_flags),
        "law_history": history_rows(
            units, pairs, diff_rows, registry, provisions.from_doc, provisions.to_doc, last_law_number(old_units)
        )
        if pairs
        else [],
        "law_changes": law_change_rows(pairs, provisions.from_doc, provisions.to_doc),
    }
