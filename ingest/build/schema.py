"""The database's tables: their columns, keys and indexes, in the order the build creates them.

Columns and options are sqlite-utils' (`Table.create`); every table has an explicit key, because
VACUUM may renumber implicit rowids. `ingest/build/database.py` fills them.
"""

from __future__ import annotations

from ingest.editions.editorial_notes import COLUMNS as EDITORIAL_NOTE_COLUMNS
from ingest.editions.tables import EDITION_SCHEMAS
from ingest.parsers.tables import TABLE_COLUMNS
from ingest.references.aliases import ALIAS_COLUMNS
from ingest.references.citations import PAIR_COLUMNS, PART_COLUMNS, TOTAL_COLUMNS
from ingest.references.footnotes import FOOTNOTE_COLUMNS
from ingest.references.reading import COMMENTARY_COLUMNS, READING_COLUMNS
from ingest.search.tables import SCHEMAS as SEARCH_SCHEMAS
from ingest.sources.guide_tables import SCHEMAS as GUIDE_SCHEMAS
from ingest.sources.source_notes import SOURCE_NOTE_COLUMNS

SECTION_COLUMNS = {
    "id": str,
    "doc": str,
    "ref": str,
    "parent_id": str,
    "kind": str,
    "title": str,
    "text": str,
    "position": int,
    "page": int,
    "line": int,
    "lang": str,
    "attrs": str,
    "search_title": str,
    "search_text": str,
    "label": str,
}
XREF_COLUMNS = {
    "id": str,
    "source_id": str,
    "surface": str,
    "target_doc": str,
    "target_ref": str,
    "target_id": str,
    "kind": str,
    "resolved": int,
    "reason": str,
    "field": str,
    "start": int,
    "end": int,
    "resolved_to_parent": str,
    "as_printed_ref": str,
}
GLOSSARY_COLUMNS = {"id": str, "ja": str, "en": str, "zh": str, "source": str, "ja_ref": str, "zh_ref": str}
ALIGNMENT_COLUMNS = {
    "from_doc": str,
    "to_doc": str,
    "from_id": str,
    "to_id": str,
    "method": str,
    "confidence": float,
    "note": str,
}
# the diff of every pair the site offers, made once here and read by the diff pages
DIFF_ROW_COLUMNS = {
    "from_doc": str,
    "to_doc": str,
    "whitespace": int,
    "position": int,
    "ref": str,
    "from_id": str,
    "to_id": str,
    "from_law": int,
    "to_law": int,
    "row": str,
}
DIFF_LAW_COLUMNS = {"from_doc": str, "to_doc": str, "law": int, "summary": str}
# corpus/concordance.yml: where a Law unit moved between editions, each move with its sources
CONCORDANCE_COLUMNS = {
    "id": str,
    "kind": str,
    "from_doc": str,
    "from_ref": str,
    "to_doc": str,
    "to_ref": str,
    "older_meaning": str,
    "note": str,
    "sources": str,
}

# What this build is (ingest/build/identity.py): `build_id` is derived from what the build made, so a
# cache keyed on it never serves a rebuilt file's predecessor, and the same corpus gives the same id
BUILD_INFO_COLUMNS = {"key": str, "value": str}
# What people read for a unit, per interface language (ingest/references/labels.py): 「第61条B項2」, "Law 61B2"
UNIT_LABEL_COLUMNS = {"id": str, "unit_id": str, "lang": str, "label": str, "full_label": str}

# Every table beside sections, in the order written: (columns, sqlite-utils create options).
# Explicit keys throughout: VACUUM may renumber implicit rowids.
TABLES = {
    "xrefs": (
        XREF_COLUMNS,
        {
            "pk": "id",
            "foreign_keys": [
                ("source_id", "sections", "id"),
                ("target_id", "sections", "id"),
                ("target_doc", "documents", "id"),
            ],
        },
    ),
    "alignments": (
        ALIGNMENT_COLUMNS,
        {
            "foreign_keys": [
                ("from_id", "sections", "id"),
                ("to_id", "sections", "id"),
                ("from_doc", "documents", "id"),
                ("to_doc", "documents", "id"),
            ]
        },
    ),
    "glossary": (GLOSSARY_COLUMNS, {"pk": "id"}),
    "diff_rows": (
        DIFF_ROW_COLUMNS,
        {
            "foreign_keys": [
                ("from_doc", "documents", "id"),
                ("to_doc", "documents", "id"),
                ("from_id", "sections", "id"),
                ("to_id", "sections", "id"),
            ]
        },
    ),
    "diff_laws": (DIFF_LAW_COLUMNS, {"pk": ("from_doc", "to_doc", "law")}),
    "concordance": (CONCORDANCE_COLUMNS, {"pk": "id"}),
    # the concordance's notes in Japanese and Chinese beside their English (ingest/editions/editorial_notes.py)
    "editorial_notes": (EDITORIAL_NOTE_COLUMNS, {"pk": "en"}),
    "build_info": (BUILD_INFO_COLUMNS, {"pk": "key"}),
    "unit_labels": (UNIT_LABEL_COLUMNS, {"pk": "id", "foreign_keys": [("unit_id", "sections", "id")]}),
    "ref_aliases": (
        ALIAS_COLUMNS,
        {"pk": "id", "foreign_keys": [("doc", "documents", "id"), ("unit_id", "sections", "id")]},
    ),
    # what the pages show that costs work: printed tables as tables, citation counts between laws
    "unit_tables": (
        TABLE_COLUMNS,
        {"pk": "id", "foreign_keys": [("doc", "documents", "id"), ("unit_id", "sections", "id")]},
    ),
    "law_citations": (
        PAIR_COLUMNS,
        {"pk": ("doc", "from_law", "to_law"), "foreign_keys": [("doc", "documents", "id")]},
    ),
    "law_citation_totals": (TOTAL_COLUMNS, {"pk": ("doc", "law"), "foreign_keys": [("doc", "documents", "id")]}),
    "part_citations": (
        PART_COLUMNS,
        {"pk": ("doc", "from_part", "to_part"), "foreign_keys": [("doc", "documents", "id")]},
    ),
    # around a unit on its page (ingest/references/reading.py): previous/next in reading order, the commentary on it
    "unit_reading": (
        READING_COLUMNS,
        {
            "pk": "unit_id",
            "foreign_keys": [
                ("unit_id", "sections", "id"),
                ("previous_id", "sections", "id"),
                ("next_id", "sections", "id"),
            ],
        },
    ),
    "unit_commentary": (
        COMMENTARY_COLUMNS,
        {"pk": "id", "foreign_keys": [("unit_id", "sections", "id"), ("source_id", "sections", "id")]},
    ),
    # the footnotes each unit's markers and its parents' refer to (ingest/references/footnotes.py)
    "unit_footnotes": (
        FOOTNOTE_COLUMNS,
        {"pk": "id", "foreign_keys": [("unit_id", "sections", "id"), ("footnote_id", "sections", "id")]},
    ),
    # the provision concordance 1997 -> 2017, references to moved provisions, each law's history
    **EDITION_SCHEMAS,
    # what search reads at request time (ingest/search/tables.py): serving opens no corpus file
    **SEARCH_SCHEMAS,
    # source typos kept as printed, with what they probably mean (ingest/sources/source_notes.py)
    "source_notes": (
        SOURCE_NOTE_COLUMNS,
        {"pk": "id", "foreign_keys": [("doc", "documents", "id"), ("unit_id", "sections", "id")]},
    ),
    # the ruling guides of corpus/guides, checked against the Laws as built (ingest/sources/guide_tables.py)
    **GUIDE_SCHEMAS,
}


def create_indexes(db) -> None:
    """The indexes, in one order, once every table is filled."""
    db["sections"].create_index(["doc", "ref"], unique=True)
    db["sections"].create_index(["parent_id"])
    db["sections"].create_index(["kind"])
    db["xrefs"].create_index(["source_id"])
    db["xrefs"].create_index(["target_id"])
    db["xrefs"].create_index(["target_doc", "target_ref"])
    db["alignments"].create_index(["from_id"])
    db["alignments"].create_index(["to_id"])
    db["diff_rows"].create_index(["from_doc", "to_doc", "whitespace", "from_law"])
    db["diff_rows"].create_index(["from_doc", "to_doc", "whitespace", "to_law"])
    db["unit_tables"].create_index(["unit_id"])
    db["provision_pairs"].create_index(["from_id"])
    db["provision_pairs"].create_index(["to_id"])
    db["edition_flags"].create_index(["source_id"])
    db["source_notes"].create_index(["unit_id"])
    db["unit_labels"].create_index(["unit_id", "lang"], unique=True)
    db["unit_commentary"].create_index(["unit_id", "position"])
    db["unit_footnotes"].create_index(["unit_id", "position"])
    db["law_citations"].create_index(["doc", "to_law"])
