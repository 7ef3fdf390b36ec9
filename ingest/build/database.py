"""Build laws.db from the corpus: the only module that writes the database.

corpus (manifest + texts + errata) -> parse each document -> resolve cross-references
-> tokenize for search -> write a temporary database -> rename it over the old one.
A failure at any step leaves the previous database byte-for-byte untouched.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import signal
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from operator import itemgetter
from pathlib import Path

from ingest.build.background_tokens import BackgroundTokens, Forked, ForkedTables, ForkedTablesAwaiting
from ingest.build.db_target import DEFAULT_DB, check_target
from ingest.build.sqlite_write import Database, json_text  # sqlite-utils' calls without importing it (0.07 s)
from ingest.editions.align import Concordance, align_pairs, alignment_rows, load_concordance
from ingest.editions.diff import diff_tables
from ingest.editions.editorial_notes import COLUMNS as EDITORIAL_NOTE_COLUMNS
from ingest.editions.editorial_notes import editorial_note_rows
from ingest.editions.tables import EDITION_SCHEMAS, edition_tables, follow_provisions, older_edition_flags
from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParsedDocument, Unit
from ingest.parsers.tables import TABLE_COLUMNS, table_rows
from ingest.references.aliases import ALIAS_COLUMNS, ref_aliases
from ingest.references.citations import PAIR_COLUMNS, PART_COLUMNS, TOTAL_COLUMNS, citation_tables
from ingest.references.contents_rows import write_contents_rows
from ingest.references.footnotes import FOOTNOTE_COLUMNS, unit_footnote_rows
from ingest.references.labels import DocumentNames, label_rows, unit_labels
from ingest.references.moved import repoint as repoint_moved_references
from ingest.references.reading import COMMENTARY_COLUMNS, READING_COLUMNS, commentary_rows, reading_rows
from ingest.search.labels import SCHEMA as SEARCH_LABELS_SCHEMA
from ingest.search.labels import TABLE as SEARCH_LABELS
from ingest.search.labels import copy_search_labels, search_label_rows_of, write_search_labels
from ingest.search.tables import SCHEMAS as SEARCH_SCHEMAS
from ingest.search.tables import install_variants, offset_rows, search_tables_awaiting_tokens
from ingest.sources.corpus import DEFAULT_CORPUS, Source, load_errata, load_sources
from ingest.sources.registry import Registry
from ingest.sources.source_notes import SOURCE_NOTE_COLUMNS, source_note_rows

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

# What this build is: `build_id` changes with every build, so a cache keyed on it never serves a
# rebuilt file's predecessor (a connection still on the old file reads the old id)
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
}


def build(
    db_path: Path | str = DEFAULT_DB,
    corpus_dir: Path | str = DEFAULT_CORPUS,
    progress: Callable[[str], None] = lambda message: None,
    keep: list | None = None,
) -> dict:
    """Parse everything, then write the database atomically. Returns counts for the caller to show.

    ``keep``: a list that takes what the build made (the parsed corpus, its rows and tokens) instead
    of freeing it on return, for a caller about to exit (ingest/build/cli.py): freeing ~10^6 objects one
    by one costs ~7 ms of CPU, the exit nothing."""
    started = time.perf_counter()
    db_path = Path(db_path)
    check_target(db_path)  # a FIFO, device or directory at db_path is refused before any work
    sources = load_sources(corpus_dir)
    variants = install_variants(Path(corpus_dir))  # before anything folds katakana (xrefs, tokens)
    languages = {source.id: source.language for source in sources}
    # the documents after the first are parsed in a forked child while the parent parses the first;
    # most of the tokenizing runs in another, on each document's texts from the moment it is parsed,
    # while the parent makes cross-references and the glossary; alignments, diffs and the provision
    # concordance run in a third child, the search tables in a fourth
    tokens, children = BackgroundTokens(), []
    scratch = scratch_directory()  # the children's own SQLite files
    try:
        parsed: list[tuple[Source, ParsedDocument]] = []
        registry = Registry.from_rows(source.meta for source in sources)
        references: dict[str, list] = {}  # unit id -> what it refers to, where a child read it already
        for source, (document, found) in zip(sources, parsed_in_order(sources, registry)):
            progress(f"parsed {source.id}: {len(document.units)} units")
            parsed.append((source, document))
            references.update(found)
            tokens.add((field, source.language) for unit in document.units for field in (unit.title, unit.text))
        units = [unit for _, document in parsed for unit in document.units]
        # refs the errata re-spelt (def:ディクレアララー -> def:ディクレアラー) keep answering
        aliases = [
            row
            for source, document in parsed
            for row in ref_aliases(source, document, load_errata(corpus_dir, source.id))
        ]
        source_notes = [row for _, document in parsed for row in source_note_rows(document, corpus_dir)]
        xrefs = resolve_references(units, registry, references)
        progress(f"cross-references: {len(xrefs)} ({sum(1 for x in xrefs if x['resolved'])} resolved)")
        concordance_path = Path(corpus_dir) / "concordance.yml"  # --corpus, not the package copy
        concordance = load_concordance(concordance_path)
        # 付表7-4's 23条 (written for the 2007 Laws) means 72C: flagged as printed, then pointed there
        regulation_flags = older_edition_flags(xrefs, registry, concordance)
        repoint_moved_references(xrefs, regulation_flags)
        glossary = glossary_rows(units, sources, Path(corpus_dir))
        progress(f"glossary: {len(glossary)} terms")
        labels = unit_labels(units, document_names(sources))  # before the search child, which needs them
        # alignments, diffs and the provision concordance in a child that writes their tables itself
        children.append(
            ForkedTables(
                edition_work,
                write_tables,
                temporary_file(scratch),
                units,
                registry,
                concordance,
                concordance_path,
                glossary,
                languages,
                xrefs,
                regulation_flags,
            )
        )
        # the search tables in another: half their work needs no tokens, the rest waits for them
        search = ForkedTablesAwaiting(
            search_work,
            write_tables,
            temporary_file(scratch),
            units,
            languages,
            variants,
            Path(corpus_dir),
            glossary,
            labels,
        )
        children.append(search)
        pages = page_tables(parsed, units, xrefs, registry, languages)
        progress(
            f"page tables: {len(pages['unit_tables'])} printed tables, "
            f"{len(pages['law_citations'])} law-to-law citation pairs"
        )
        tables = {
            "xrefs": xrefs,
            "glossary": glossary,
            "concordance": concordance_rows(concordance),
            "ref_aliases": aliases,
            "source_notes": source_notes,
            "editorial_notes": editorial_note_rows(concordance_path),
            **pages,
            "build_info": build_info(sources),
            "unit_labels": label_rows(labels),
            "unit_reading": reading_rows(units),
            "unit_commentary": commentary_rows(units, xrefs),
            "unit_footnotes": unit_footnote_rows(units),
        }
        counts, extras = {}, {}

        def later_tables():
            """What is written once the tokens are in (this process writes the other tables meanwhile):
            the sections, then the children's tables as they come (rows by name, or their file)."""
            sections = section_values(units, languages, labels)  # all but the tokens, before waiting for them
            tokens.tokenize_own()
            # a child done while the token child is not: its tables now, not once the sections are in
            early = [job for job in children if job is not search and job.done() and not tokens.child_done()]
            for job in early:
                yield job_tables(job)
            # the search child goes on with the tokens as they came while this process writes the sections
            search.supply_pickled(tokens.pickled())
            counts["sections"] = len(units)
            token_columns = tokens.result()
            # search_offsets here too: the search child has more to do once the tokens are in than this process
            yield {
                "sections": with_search_columns(sections, units, languages, token_columns),
                "search_offsets": offset_rows(units, languages, token_columns),
            }
            for job in children:
                if job not in early:
                    yield job_tables(job)

        def job_tables(job: ForkedTables) -> dict | str:
            written, extra = job.result()
            extras.update(extra)
            return written

        write_atomically(db_path, lambda db: populate(db, parsed, None, tables, later_tables()))
    finally:
        tokens.close()
        for job in children:
            job.close()
        shutil.rmtree(scratch, ignore_errors=True)
    progress(f"alignments across editions and reprints: {extras['alignments']}")
    progress(f"diffs: {extras['diff_rows']} aligned rows in {extras['diff_laws']} law summaries")
    progress(
        f"provision concordance: {extras['provision_pairs']} pairs, "
        f"{extras['edition_flags']} references to moved provisions"
    )
    progress(f"tokenized {counts['sections']} units")
    elapsed = time.perf_counter() - started
    progress(f"wrote {db_path} in {elapsed:.1f}s")
    if keep is not None:
        keep += [parsed, units, references, aliases, source_notes, xrefs, glossary, labels, tables, tokens, children]
    return {"documents": len(sources), "units": counts["sections"], "xrefs": len(xrefs), "seconds": elapsed}


def parsed_in_order(sources: list[Source], registry: Registry) -> Iterator[tuple[ParsedDocument, dict[str, list]]]:
    """Each source's document, in order, with what its units refer to where that is read already: the
    first document parsed here, the others meanwhile in a forked child, which also reads their units'
    references (the first, the 2017 Laws, takes as long as all the others; its texts go to the token
    child first)."""
    others = Forked(parse_reading_references, sources[1:], registry, parallel=None if len(sources) > 1 else False)
    try:
        yield from ((document, {}) for document in parse_documents(sources[:1]))
        yield from others.result()
    finally:
        others.close()


def parse_documents(sources: list[Source]) -> list[ParsedDocument]:
    return [parse_document(source.id, source.text, source.name, source.parser) for source in sources]


def parse_reading_references(sources: list[Source], registry: Registry) -> list[tuple[ParsedDocument, dict[str, list]]]:
    """Each document with its units' references (xrefs.unit_references, by unit id)."""
    from ingest.references.xrefs import unit_references

    return [
        (document, {unit.id: unit_references(unit, registry) for unit in document.units})
        for document in parse_documents(sources)
    ]


def edition_work(
    units: list[Unit],
    registry: Registry,
    concordance: Concordance,
    concordance_path: Path,
    glossary: list[dict],
    languages: dict[str, str],
    xrefs: list[dict],
    regulation_flags: list[dict],
) -> tuple[dict, dict]:
    """Alignments across editions and reprints, their diffs, the provision concordance: (tables, counts)."""
    aligned, provisions = follow_provisions(
        align_pairs(units, registry.diff_pairs(), concordance),
        units,
        glossary,
        languages,
        concordance,
        concordance_path,
    )
    alignments = alignment_rows(aligned)
    diff_rows, diff_laws = diff_tables(units, aligned, languages, glossary, concordance)
    editions = edition_tables(units, provisions, xrefs, diff_rows, registry, concordance, regulation_flags)
    counts = {
        "alignments": len(alignments),
        "diff_rows": len(diff_rows),
        "diff_laws": len(diff_laws),
        "provision_pairs": len(provisions.pairs),
        "edition_flags": len(editions["edition_flags"]),
    }
    return {"alignments": alignments, "diff_rows": diff_rows, "diff_laws": diff_laws, **editions}, counts


def search_work(
    units: list[Unit],
    languages: dict[str, str],
    variants: dict[str, str],
    corpus_dir: Path,
    glossary: list[dict],
    labels: dict,
) -> tuple[dict, Callable[[dict], tuple[dict, dict]]]:
    """What the search tables but search_offsets (written with the sections) and the search results'
    labels need no tokens for, done now: (the tables made, the rest as a function of the tokens giving
    (tables, {}))."""
    now, with_tokens = search_tables_awaiting_tokens(units, languages, variants, corpus_dir, glossary)
    return {**now, SEARCH_LABELS: search_label_rows_of(units, labels)}, lambda tokens: (with_tokens(tokens), {})


SCRATCH_PREFIX = "bridge-laws-build-"


def scratch_directory() -> str:
    """A directory for the children's SQLite files, named after this process; those of builds that
    were killed (SIGKILL leaves them behind: their process is gone) are removed first."""
    for stale in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*-*"):
        pid = stale.name[len(SCRATCH_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not process_exists(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-")


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def temporary_file(directory: str) -> str:
    handle, name = tempfile.mkstemp(suffix=".db", dir=directory)
    os.close(handle)
    return name


def write_tables(path: str, tables: dict[str, list]) -> None:
    """``tables`` (names of TABLES, or search_labels with its rows as tuples) into a scratch SQLite
    file, created as the build creates them."""
    db = Database(path)
    db.conn.execute("pragma journal_mode = off")
    db.conn.execute("pragma synchronous = off")
    with db.conn:
        for name, rows in tables.items():
            if name == SEARCH_LABELS:
                db.conn.execute(SEARCH_LABELS_SCHEMA)
                db.conn.executemany(f"insert into {SEARCH_LABELS} values (?, ?, ?, ?)", rows)
                continue
            columns, options = TABLES[name]
            db[name].create(columns, **options)
            insert_rows(db, name, columns, rows)
    db.close()


def build_info(sources: list[Source]) -> list[dict]:
    digest = hashlib.sha256("".join(s.id + s.text for s in sources).encode("utf-8")).hexdigest()
    return [
        {"key": "build_id", "value": uuid.uuid4().hex},
        {"key": "sources_sha256", "value": digest},
        {"key": "built_at", "value": datetime.now(timezone.utc).isoformat(timespec="seconds")},
    ]


def glossary_rows(units: list[Unit], sources: list[Source], corpus_dir: Path) -> list[dict]:
    from ingest.search.glossary import glossary_rows as pair_terms  # JA <-> EN <-> ZH from both definition chapters
    from ingest.search.vocabulary import vocabulary_rows

    return pair_terms(
        units,
        Registry.from_rows(source.meta for source in sources),
        corpus_dir / "glossary.yml",
        vocabulary_rows(corpus_dir / "vocabulary.yml"),
    )


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


def page_tables(
    parsed: list[tuple[Source, ParsedDocument]],
    units: list[Unit],
    xrefs: list[dict],
    registry: Registry,
    languages: dict[str, str],
) -> dict[str, list[dict]]:
    """Printed tables (ingest/parsers/tables.py) and citation counts for every edition of the Laws (ingest/references/citations.py)."""
    citations = citation_tables(units, xrefs, [d.id for d in registry.laws])
    return {"unit_tables": table_rows(units, {d.doc: d.tables for _, d in parsed}, languages), **citations}


def resolve_references(units: list[Unit], registry: Registry, found: dict[str, list] | None = None) -> list[dict]:
    from ingest.references.xrefs import build_xrefs  # the reference grammar and resolver live in refs/xrefs

    return build_xrefs(units, registry, found)


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


LANG, SEARCH_TITLE, SEARCH_TEXT = (
    list(SECTION_COLUMNS).index(name) for name in ("lang", "search_title", "search_text")
)


def section_values(
    units: list[Unit], languages: dict[str, str], labels: dict[str, dict[str, dict[str, str]]]
) -> list[list]:
    """The sections' rows, values in SECTION_COLUMNS' order, but for their search columns (None, filled
    by `with_search_columns`): made while the build waits for the tokens."""
    rows = []
    for position, unit in enumerate(units, start=1):
        lang = languages[unit.doc]
        rows.append(
            [
                unit.id,
                unit.doc,
                unit.ref,
                unit.parent_id,
                unit.kind,
                unit.title,
                unit.text,
                position,
                unit.page,
                unit.line,
                lang,
                json_text(unit.attrs) if unit.attrs else None,
                None,
                None,
                labels[unit.id]["ja"]["label"],
            ]
        )
    return rows


def with_search_columns(
    rows: list[list],
    units: list[Unit],
    languages: dict[str, str],
    tokens: dict[tuple[str | None, str], tuple[str, bytes]],
) -> list[list]:
    """`section_values`' rows with their search columns: each unit's title and text as tokens."""
    for row, unit in zip(rows, units):
        lang = row[LANG]
        row[SEARCH_TITLE] = tokens[(unit.title, lang)][0]
        row[SEARCH_TEXT] = tokens[(unit.text, lang)][0]
    return rows


def write_atomically(db_path: Path, fill: Callable[[Database], None]) -> None:
    """Write into a temporary file beside the target, then rename it into place, keeping the
    target's file mode (a new file gets the usual mode for the umask, not mkstemp's 0600).

    The temporary file is locked (flock) while it is written; temporary files of builds that were
    killed mid-write carry no lock and are removed first."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    remove_abandoned_temporaries(db_path)
    mode = file_mode_for(db_path)
    with temporary_beside(db_path) as (handle, temp_path):
        fcntl.flock(handle, fcntl.LOCK_EX)  # "being written": see remove_abandoned_temporaries
        db = Database(temp_path)  # a build depends on no installed sqlite-utils plugin
        # a fresh file nobody reads until the rename: no journal, one fsync at the end instead
        db.conn.execute("pragma journal_mode = off")
        db.conn.execute("pragma synchronous = off")
        fill(db)
        db.close()
        with open(temp_path, "rb+") as written:
            os.fsync(written.fileno())
        os.chmod(temp_path, mode)
        check_target(db_path)  # again: something else may have appeared there meanwhile
        os.replace(temp_path, db_path)


UNWINDING_SIGNALS = {signal.SIGTERM, signal.SIGINT}  # they raise in the build (ingest.build.cli)


@contextmanager
def temporary_beside(db_path: Path) -> Iterator[tuple[int, Path]]:
    """A new temporary file beside ``db_path`` (descriptor, path), removed on the way out unless it
    was renamed meanwhile. SIGTERM and Ctrl-C wait while it is created: handled between its creation
    and the `try` below, they would leave it behind (seen once in CI)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, UNWINDING_SIGNALS)
    handle = temp_path = None
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{db_path.name}.", suffix=".tmp", dir=db_path.parent)
        temp_path = Path(temp_name)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal unwinds from here, through finally
        held = None
        yield handle, temp_path
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        if temp_path is not None and temp_path.exists():
            temp_path.unlink()
        if handle is not None:
            os.close(handle)  # last: closing it releases the lock


def temporaries(db_path: Path) -> list[Path]:
    return sorted(db_path.parent.glob(f".{db_path.name}.*.tmp"))


ABANDONED_AFTER_SECONDS = 10


def remove_abandoned_temporaries(db_path: Path) -> list[Path]:
    """Delete `.laws.db.*.tmp` files no build is writing: unlocked and not just created (a build
    locks its file right after creating it)."""
    removed = []
    for path in temporaries(db_path):
        try:
            if time.time() - path.stat().st_mtime < ABANDONED_AFTER_SECONDS:
                continue
            with open(path, "rb") as candidate:
                try:
                    fcntl.flock(candidate.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # a build is writing it
                path.unlink()
                removed.append(path)
        except FileNotFoundError:
            continue
    return removed


def file_mode_for(db_path: Path) -> int:
    """The mode the database should have: the existing file's, else 0666 less the umask."""
    try:
        return db_path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def populate(
    db: Database,
    parsed: list[tuple[Source, ParsedDocument]],
    rows: list[dict] | None,
    tables: dict[str, list[dict]],
    later: Iterable[dict | str] = (),
    search_labels: Callable[[], list[tuple]] | None = None,
) -> None:
    """Every table the site reads: ``rows`` for sections, ``tables`` by name (TABLES); ``later``, the
    rest as they come (sections too when ``rows`` is None), each the rows by name or a SQLite file
    holding those tables (`write_tables`). Every table is created first, in one order, whatever
    comes when; rows keep their rowids whatever the order the tables are filled in. Table
    search_labels, created last, comes in ``later`` (its rows, or a file holding it), else from
    ``search_labels`` once ``later`` is done, else from the tables written."""
    with db.conn:
        db["documents"].insert_all((document_row(source, len(document.units)) for source, document in parsed), pk="id")
        db["sections"].create(
            SECTION_COLUMNS,
            pk="id",
            not_null={"doc", "ref", "kind"},
            foreign_keys=[("doc", "documents", "id"), ("parent_id", "sections", "id")],
        )
        if rows is not None:
            insert_rows(db, "sections", SECTION_COLUMNS, rows)
        for name, (columns, options) in TABLES.items():  # created in this order whatever comes when
            db[name].create(columns, **options)
            if name in tables:
                insert_rows(db, name, columns, tables[name])
        for source, document in parsed:  # the regulations' printed tables, created after the others
            for table, table_rows in document.tables.items():
                # an explicit key: VACUUM may renumber implicit rowids
                start = db[table].count + 1 if db[table].exists() else 1
                keyed = ({"id": start + n, "doc": source.id, **row} for n, row in enumerate(table_rows))
                db[table].insert_all(keyed, pk="id", alter=True, foreign_keys=[("doc", "documents", "id")])
    # every index now, on the tables written and those still empty (their rows come later), so that
    # little is left once the sections are in (the build waits for the tokens here)
    create_indexes(db)
    searchable = rows is not None and search_index(db)
    flushing = None  # the disk takes what is written while the children's tables are copied
    labels_from: list[tuple] | str | None = None  # search_labels' rows or the file holding them
    for written in later:
        if isinstance(written, dict):
            with db.conn:
                for name, table_rows in written.items():
                    if name == SEARCH_LABELS:
                        labels_from = table_rows
                        continue
                    insert_rows(db, name, SECTION_COLUMNS if name == "sections" else TABLES[name][0], table_rows)
            # the sections are in: their full-text index now, while the children finish
            if not searchable and "sections" in written:
                searchable = search_index(db)
                flushing = flush_in_background(main_file(db))  # most of the file: the final fsync then waits less
            continue
        db.conn.execute("attach database ? as written", [written])
        with db.conn:
            names = [
                name
                for (name,) in db.conn.execute(
                    "select name from written.sqlite_master where type = 'table' order by rowid"
                )
            ]
            for name in names:  # the same CREATE statement, the same rows, rowids included
                if name == SEARCH_LABELS:  # created last, below
                    labels_from = written
                    continue
                db.conn.execute(f"insert into main.[{name}] select * from written.[{name}] order by rowid")
        db.conn.execute("detach database written")
    if not searchable:
        search_index(db)
    # what a search result shows besides its text (ingest/search/labels.py)
    if isinstance(labels_from, str):
        copy_search_labels(db, labels_from)
    else:
        write_search_labels(db, labels_from if labels_from is not None else search_labels() if search_labels else None)
    if flushing is not None:
        flushing.join()


def create_indexes(db: Database) -> None:
    """The indexes, in one order: on tables written or still empty (SQLite keeps them as rows come)."""
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


def search_index(db: Database) -> bool:
    """The full-text index of the sections and the contents page's rows, once the sections are written."""
    db["sections"].enable_fts(
        ["search_title", "search_text"], tokenize="unicode61 remove_diacritics 2", create_triggers=False
    )
    write_contents_rows(db)  # the contents page's 目次 rows (ingest/references/contents_rows.py)
    return True


def main_file(db: Database) -> str:
    """The file the database being written is in."""
    return next(file for _, name, file in db.conn.execute("pragma database_list") if name == "main")


def flush_in_background(path: str) -> threading.Thread:
    """fsync what is written of ``path`` so far, in a thread, while this one goes on writing (the
    build's final fsync, before the rename, then has less to wait for; an error is that fsync's to
    report)."""

    def flush() -> None:
        try:
            handle = os.open(path, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(handle)
        except OSError:
            pass
        finally:
            os.close(handle)

    thread = threading.Thread(target=flush, name="flush", daemon=True)
    thread.start()
    return thread


def insert_rows(db: Database, table: str, columns: dict, rows: list[dict] | list[list]) -> None:
    """Bulk insert into a table sqlite-utils created: one executemany, no per-row type sniffing. Rows
    are dicts, or lists of values in the order of ``columns``."""
    names = list(columns)
    sql = f"insert into [{table}] ({', '.join(f'[{n}]' for n in names)}) values ({', '.join('?' for _ in names)})"
    db.conn.executemany(sql, rows if rows and not isinstance(rows[0], dict) else row_values(rows, names))


def row_values(rows: list[dict], names: list[str]) -> list:
    """Each row's values in the order of names, None where a row lacks one (a third of the time of
    asking each row for each name when, as mostly, every row has every column)."""
    if len(names) > 1:
        try:
            return list(map(itemgetter(*names), rows))
        except KeyError:
            pass
    return [[row.get(name) for name in names] for row in rows]


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
