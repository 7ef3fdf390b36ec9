"""Build laws.db from the corpus: the only module that writes the database.

corpus (manifest + texts + errata) -> parse each document -> resolve cross-references -> the
tables every page reads (labels, editions, diffs, search) -> tokenize for search -> write them all
into a new file with sqlite-utils -> give the file its build id (ingest/build/identity.py).

`build` writes into a staging directory beside the target and renames the finished file into place
(ingest/build/outputs.py): a failure at any step leaves the previous database byte-for-byte
untouched. `write_database` is the step that writes a new file.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from ingest.build.db_target import DEFAULT_DB
from ingest.build.identity import build_info_rows, built_at, set_build_id
from ingest.build.outputs import staged
from ingest.build.schema import SECTION_COLUMNS, TABLES, create_indexes
from ingest.build.sql import json_text
from ingest.editions.align import Concordance, align_pairs, alignment_rows, load_concordance
from ingest.editions.diff import diff_tables
from ingest.editions.editorial_notes import editorial_note_rows
from ingest.editions.tables import edition_tables, follow_provisions, older_edition_flags
from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParsedDocument, Unit
from ingest.parsers.tables import table_rows
from ingest.references.aliases import ref_aliases
from ingest.references.citations import citation_tables
from ingest.references.contents_rows import write_contents_rows
from ingest.references.footnotes import unit_footnote_rows
from ingest.references.labels import DocumentNames, label_rows, unit_labels
from ingest.references.moved import repoint as repoint_moved_references
from ingest.references.reading import commentary_rows, reading_rows
from ingest.references.xrefs import build_xrefs
from ingest.search.glossary import glossary_rows as pair_terms
from ingest.search.labels import write_search_labels
from ingest.search.leads import write_search_leads
from ingest.search.tables import install_variants, search_tables
from ingest.search.vocabulary import vocabulary_rows
from ingest.sources.corpus import DEFAULT_CORPUS, Source, load_errata, load_sources, read_every_yaml
from ingest.sources.guide_tables import guide_tables
from ingest.sources.registry import Registry
from ingest.sources.source_notes import source_note_rows
from ingest.text import tokenize

Progress = Callable[[str], None]


def build(
    db_path: Path | str = DEFAULT_DB,
    corpus_dir: Path | str = DEFAULT_CORPUS,
    progress: Progress = lambda message: None,
    site_digest: str = "",
) -> dict:
    """Write the database of the corpus at db_path, atomically (no offline packs: `bridge-laws
    build` makes those too, laws_site/offline/make.py). Returns counts for the caller to show."""
    with staged(Path(db_path)) as stage:
        counts = write_database(stage.database, corpus_dir, progress, site_digest)
        stage.publish(counts["build_id"])
    return counts


def write_database(
    db_path: Path, corpus_dir: Path | str = DEFAULT_CORPUS, progress: Progress = lambda m: None, site_digest: str = ""
) -> dict:
    """Parse everything, then write a new database file at db_path (which must not exist yet).
    ``site_digest``: what else the outputs of this build depend on (the site's code: see
    ingest/build/identity.py). Returns counts, seconds and the build id."""
    started = time.perf_counter()
    corpus_dir = Path(corpus_dir)
    built_at(corpus_dir)  # a SOURCE_DATE_EPOCH that is no time stops the build before the work, not after
    parsed, tables = corpus_tables(corpus_dir, progress)
    db = sqlite_utils.Database(db_path)
    # a fresh file nobody reads until it is renamed into place: no journal; outputs.py fsyncs it
    db.conn.execute("pragma journal_mode = off")
    db.conn.execute("pragma synchronous = off")
    populate(db, parsed, tables)
    db.conn.commit()
    db.close()
    build_id = set_build_id(db_path, site_digest)
    elapsed = time.perf_counter() - started
    progress(f"wrote {db_path.name} in {elapsed:.1f}s (build {build_id[:8]})")
    return {
        "documents": len(parsed),
        "units": len(tables["sections"]),
        "xrefs": len(tables["xrefs"]),
        "seconds": elapsed,
        "build_id": build_id,
    }


def corpus_tables(corpus_dir: Path, progress: Progress) -> tuple[list[tuple[Source, ParsedDocument]], dict]:
    """The parsed documents and every table's rows, by name (schema.TABLES, and sections)."""
    read_every_yaml(corpus_dir)
    sources = load_sources(corpus_dir)
    variants = install_variants(corpus_dir)  # before anything folds katakana (xrefs, tokens)
    languages = {source.id: source.language for source in sources}
    registry = Registry.from_rows(source.meta for source in sources)
    parsed = []
    for source in sources:
        document = parse_document(source.id, source.text, source.name, source.parser)
        progress(f"parsed {source.id}: {len(document.units)} units")
        parsed.append((source, document))
    units = [unit for _, document in parsed for unit in document.units]

    xrefs = build_xrefs(units, registry)
    progress(f"cross-references: {len(xrefs)} ({sum(1 for x in xrefs if x['resolved'])} resolved)")
    concordance_path = corpus_dir / "concordance.yml"  # --corpus, not the package copy
    concordance = load_concordance(concordance_path)
    # 付表7-4's 23条 (written for the 2007 Laws) means 72C: flagged as printed, then pointed there
    regulation_flags = older_edition_flags(xrefs, registry, concordance)
    repoint_moved_references(xrefs, regulation_flags)
    glossary = pair_terms(units, registry, corpus_dir / "glossary.yml", vocabulary_rows(corpus_dir / "vocabulary.yml"))
    progress(f"glossary: {len(glossary)} terms")
    labels = unit_labels(units, document_names(sources))
    editions = edition_work(
        units, registry, concordance, concordance_path, glossary, languages, xrefs, regulation_flags
    )
    pages = page_tables(parsed, units, xrefs, registry, languages)
    progress(
        f"page tables: {len(pages['unit_tables'])} printed tables, "
        f"{len(pages['law_citations'])} law-to-law citation pairs"
    )

    tokens = {key: tokenize.index_tokens_and_offsets(*key) for key in search_keys(units, languages)}
    progress(f"tokenized {len(units)} units")
    tables = {
        "sections": section_rows(units, languages, labels, tokens),
        "xrefs": xrefs,
        "glossary": glossary,
        "concordance": concordance_rows(concordance),
        "ref_aliases": [
            row
            for source, document in parsed
            for row in ref_aliases(source, document, load_errata(corpus_dir, source.id))
        ],
        "source_notes": [row for _, document in parsed for row in source_note_rows(document, corpus_dir)],
        "editorial_notes": editorial_note_rows(concordance_path),
        **pages,
        **editions,
        "build_info": build_info_rows(sources, corpus_dir),
        "unit_labels": label_rows(labels),
        "unit_reading": reading_rows(units),
        "unit_commentary": commentary_rows(units, xrefs),
        "unit_footnotes": unit_footnote_rows(units),
        # the ruling guides, checked against the Laws as parsed: a quote not in its unit fails the build
        **guide_tables(corpus_dir, units, registry),
        **search_tables(units, languages, tokens, variants, corpus_dir, glossary),
    }
    return parsed, tables


def search_keys(units: list[Unit], languages: dict[str, str]) -> dict[tuple[str | None, str], None]:
    """Every distinct (text, language) the full-text index holds: each unit's title and text."""
    return dict.fromkeys((field, languages[unit.doc]) for unit in units for field in (unit.title, unit.text))


def populate(db: sqlite_utils.Database, parsed: list[tuple[Source, ParsedDocument]], tables: dict) -> None:
    """Every table the site reads, in one order: the documents, the sections, schema.TABLES, the
    regulations' printed tables; then the indexes, the full-text index and the tables derived from
    what is written (the contents rows, the search results' labels)."""
    with db.conn:
        db["documents"].insert_all((document_row(source, len(document.units)) for source, document in parsed), pk="id")
        db["sections"].create(
            SECTION_COLUMNS,
            pk="id",
            not_null={"doc", "ref", "kind"},
            foreign_keys=[("doc", "documents", "id"), ("parent_id", "sections", "id")],
        )
        insert_rows(db, "sections", SECTION_COLUMNS, tables["sections"])
        for name, (columns, options) in TABLES.items():
            db[name].create(columns, **options)
            insert_rows(db, name, columns, tables[name])
        for source, document in parsed:
            for table, printed_rows in document.tables.items():
                start = db[table].count + 1 if db[table].exists() else 1  # an explicit key, as everywhere
                keyed = ({"id": start + n, "doc": source.id, **row} for n, row in enumerate(printed_rows))
                db[table].insert_all(keyed, pk="id", alter=True, foreign_keys=[("doc", "documents", "id")])
    create_indexes(db)
    db["sections"].enable_fts(
        ["search_title", "search_text"], tokenize="unicode61 remove_diacritics 2", create_triggers=False
    )
    write_contents_rows(db)  # the contents page's 目次 rows (ingest/references/contents_rows.py)
    write_search_labels(db)  # what a search result shows besides its text (ingest/search/labels.py)
    write_search_leads(db)  # what a heading's result shows under its title (ingest/search/leads.py)


def insert_rows(db: sqlite_utils.Database, table: str, columns: dict, rows: list[dict]) -> None:
    """Rows into a table created from ``columns``, None where a row lacks a column: one executemany
    (sqlite-utils' insert_all looks at every value of every row for one to store as JSON: none is
    here, and it would triple the time of writing)."""
    names = list(columns)
    sql = f"insert into [{table}] ({', '.join(f'[{n}]' for n in names)}) values ({', '.join('?' for _ in names)})"
    db.conn.executemany(sql, ([row.get(name) for name in names] for row in rows))


def section_rows(
    units: list[Unit],
    languages: dict[str, str],
    labels: dict[str, dict[str, dict[str, str]]],
    tokens: dict[tuple[str | None, str], tuple[str, bytes]],
) -> list[dict]:
    """One row per unit (SECTION_COLUMNS), in reading order, with its title and text as search tokens."""
    rows = []
    for position, unit in enumerate(units, start=1):
        lang = languages[unit.doc]
        rows.append(
            {
                "id": unit.id,
                "doc": unit.doc,
                "ref": unit.ref,
                "parent_id": unit.parent_id,
                "kind": unit.kind,
                "title": unit.title,
                "text": unit.text,
                "position": position,
                "page": unit.page,
                "line": unit.line,
                "lang": lang,
                "attrs": json_text(unit.attrs) if unit.attrs else None,
                "search_title": tokens[(unit.title, lang)][0],
                "search_text": tokens[(unit.text, lang)][0],
                "label": labels[unit.id]["ja"]["label"],
            }
        )
    return rows


def edition_work(
    units: list[Unit],
    registry: Registry,
    concordance: Concordance,
    concordance_path: Path,
    glossary: list[dict],
    languages: dict[str, str],
    xrefs: list[dict],
    regulation_flags: list[dict],
) -> dict[str, list[dict]]:
    """Alignments across editions and reprints, their diffs, the provision concordance: the tables."""
    aligned, provisions = follow_provisions(
        align_pairs(units, registry.diff_pairs(), concordance),
        units,
        glossary,
        languages,
        concordance,
        concordance_path,
    )
    diff_rows, diff_laws = diff_tables(units, aligned, languages, glossary, concordance)
    return {
        "alignments": alignment_rows(aligned),
        "diff_rows": diff_rows,
        "diff_laws": diff_laws,
        **edition_tables(units, provisions, xrefs, diff_rows, registry, concordance, regulation_flags),
    }


def page_tables(
    parsed: list[tuple[Source, ParsedDocument]],
    units: list[Unit],
    xrefs: list[dict],
    registry: Registry,
    languages: dict[str, str],
) -> dict[str, list[dict]]:
    """Printed tables (ingest/parsers/tables.py) and citation counts for every edition of the Laws
    (ingest/references/citations.py)."""
    citations = citation_tables(units, xrefs, [d.id for d in registry.laws])
    return {"unit_tables": table_rows(units, {d.doc: d.tables for _, d in parsed}, languages), **citations}


def document_names(sources: list[Source]) -> dict[str, DocumentNames]:
    return {
        source.id: DocumentNames(
            id=source.id,
            language=source.language,
            role=source.kind,
            short_titles={
                "ja": source.meta.get("short_title") or source.title,
                "zh": source.meta.get("short_title_zh") or "",
                "en": source.meta.get("short_title_en") or "",
            },
        )
        for source in sources
    }


def concordance_rows(concordance: Concordance) -> list[dict]:
    return [
        {
            "id": m.id,
            "kind": m.kind,
            "from_doc": m.from_doc,
            "from_ref": m.from_ref,
            "to_doc": m.to_doc,
            "to_ref": m.to_ref,
            "older_meaning": m.older_meaning,
            "note": m.note,
            "sources": json.dumps(list(m.sources), ensure_ascii=False),
        }
        for m in concordance.moves
    ]


def document_row(source: Source, unit_count: int) -> dict:
    return {
        "id": source.id,
        "title": source.title,
        "title_en": source.meta.get("title_en"),
        "short_title": source.meta.get("short_title"),
        "short_title_zh": source.meta.get("short_title_zh"),
        "short_title_en": source.meta.get("short_title_en"),
        "language": source.language,
        "edition": source.edition,
        "version_date": source.version_date,
        "version_note": source.meta.get("version_note"),
        "publisher": source.publisher,
        # the version note in Japanese and Chinese (corpus/sources.yml), for those interfaces
        "version_note_ja": source.meta.get("version_note_ja"),
        "version_note_zh": source.meta.get("version_note_zh"),
        "copyright": source.copyright,
        "kind": source.kind,
        "file": source.file,
        "parser": source.parser,
        "comments_on": source.meta.get("comments_on"),
        "sha256": hashlib.sha256(source.path.read_bytes()).hexdigest(),
        "units": unit_count,
    }
