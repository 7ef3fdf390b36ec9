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
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from .background_tokens import BackgroundTokens
from .corpus import DEFAULT_CORPUS, Source, load_sources
from .documents import parse_document
from .records import ParsedDocument, Unit

DEFAULT_DB = Path("laws.db")

SECTION_COLUMNS = {
    "id": str, "doc": str, "ref": str, "parent_id": str, "kind": str, "title": str, "text": str,
    "position": int, "page": int, "line": int, "lang": str, "attrs": str,
    "search_title": str, "search_text": str,
}
XREF_COLUMNS = {
    "id": str, "source_id": str, "surface": str, "target_doc": str, "target_ref": str, "target_id": str,
    "kind": str, "resolved": int, "reason": str, "field": str, "start": int, "end": int,
    "resolved_to_parent": str,
}
GLOSSARY_COLUMNS = {"id": str, "ja": str, "en": str, "zh": str, "source": str, "ja_ref": str, "zh_ref": str}
ALIGNMENT_COLUMNS = {
    "from_doc": str, "to_doc": str, "from_id": str, "to_id": str, "method": str, "confidence": float, "note": str,
}


def build(db_path: Path | str = DEFAULT_DB, corpus_dir: Path | str = DEFAULT_CORPUS,
          progress: Callable[[str], None] = lambda message: None) -> dict:
    """Parse everything, then write the database atomically. Returns counts for the caller to show."""
    started = time.perf_counter()
    db_path = Path(db_path)
    sources = load_sources(corpus_dir)
    parsed: list[tuple[Source, ParsedDocument]] = []
    for source in sources:
        document = parse_document(source.id, source.text, source.name, source.parser)
        progress(f"parsed {source.id}: {len(document.units)} units")
        parsed.append((source, document))
    units = [unit for _, document in parsed for unit in document.units]
    languages = {source.id: source.language for source in sources}
    # half the tokenizing runs in a forked child while cross-references, alignments and glossary are made
    tokens = BackgroundTokens({(field, languages[u.doc]) for u in units for field in (u.title, u.text)})
    try:
        xrefs = resolve_references(units)
        progress(f"cross-references: {len(xrefs)} ({sum(1 for x in xrefs if x['resolved'])} resolved)")
        alignments = alignment_rows(units)
        progress(f"alignments across editions and reprints: {len(alignments)}")
        glossary = glossary_rows(units)
        progress(f"glossary: {len(glossary)} terms")
        rows = section_rows(units, languages, tokens.result())
    finally:
        tokens.close()
    progress(f"tokenized {len(rows)} units")
    write_atomically(db_path, lambda db: populate(db, parsed, rows, xrefs, alignments, glossary))
    elapsed = time.perf_counter() - started
    progress(f"wrote {db_path} in {elapsed:.1f}s")
    return {"documents": len(sources), "units": len(rows), "xrefs": len(xrefs), "seconds": elapsed}


def alignment_rows(units: list[Unit]) -> list[dict]:
    from .align import alignment_rows as align_units  # editions and reprints, unit by unit

    return align_units(units)


def glossary_rows(units: list[Unit]) -> list[dict]:
    from .glossary import glossary_rows as pair_terms  # JA <-> EN <-> ZH from both definition chapters

    return pair_terms(units)


def resolve_references(units: list[Unit]) -> list[dict]:
    from .xrefs import build_xrefs  # the reference grammar and resolver live in refs/xrefs

    return build_xrefs(units)


def section_rows(units: list[Unit], languages: dict[str, str], tokens: dict[tuple[str | None, str], str]) -> list[dict]:
    rows = []
    for position, unit in enumerate(units, start=1):
        lang = languages[unit.doc]
        rows.append({
            "id": unit.id, "doc": unit.doc, "ref": unit.ref, "parent_id": unit.parent_id,
            "kind": unit.kind, "title": unit.title, "text": unit.text, "position": position,
            "page": unit.page, "line": unit.line, "lang": lang,
            "attrs": json.dumps(unit.attrs, ensure_ascii=False) if unit.attrs else None,
            "search_title": tokens[(unit.title, lang)],
            "search_text": tokens[(unit.text, lang)],
        })
    return rows


def write_atomically(db_path: Path, fill: Callable[[sqlite_utils.Database], None]) -> None:
    """Write into a temporary file beside the target, then rename it into place, keeping the
    target's file mode (a new file gets the usual mode for the umask, not mkstemp's 0600).

    The temporary file is locked (flock) while it is written; temporary files of builds that were
    killed mid-write carry no lock and are removed first."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    remove_abandoned_temporaries(db_path)
    mode = file_mode_for(db_path)
    handle, temp_name = tempfile.mkstemp(prefix=f".{db_path.name}.", suffix=".tmp", dir=db_path.parent)
    temp_path = Path(temp_name)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)  # "being written": see remove_abandoned_temporaries
        db = sqlite_utils.Database(temp_path)
        # a fresh file nobody reads until the rename: no journal, one fsync at the end instead
        db.conn.execute("pragma journal_mode = off")
        db.conn.execute("pragma synchronous = off")
        fill(db)
        db.close()
        with open(temp_path, "rb+") as written:
            os.fsync(written.fileno())
        os.chmod(temp_path, mode)
        os.replace(temp_path, db_path)
    finally:
        if temp_path.exists():
            temp_path.unlink()
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


def populate(db: sqlite_utils.Database, parsed: list[tuple[Source, ParsedDocument]], rows: list[dict],
             xrefs: list[dict], alignments: list[dict], glossary: list[dict]) -> None:
    with db.conn:
        db["documents"].insert_all(
            (document_row(source, len(document.units)) for source, document in parsed), pk="id")
        db["sections"].create(SECTION_COLUMNS, pk="id", not_null={"doc", "ref", "kind"},
                              foreign_keys=[("doc", "documents", "id"), ("parent_id", "sections", "id")])
        insert_rows(db, "sections", SECTION_COLUMNS, rows)
        db["xrefs"].create(XREF_COLUMNS, pk="id",
                           foreign_keys=[("source_id", "sections", "id"), ("target_id", "sections", "id"),
                                         ("target_doc", "documents", "id")])
        insert_rows(db, "xrefs", XREF_COLUMNS, xrefs)
        db["alignments"].create(ALIGNMENT_COLUMNS, foreign_keys=[
            ("from_id", "sections", "id"), ("to_id", "sections", "id"),
            ("from_doc", "documents", "id"), ("to_doc", "documents", "id")])
        db["alignments"].insert_all(alignments, batch_size=1000)
        db["glossary"].create(GLOSSARY_COLUMNS, pk="id")
        db["glossary"].insert_all(glossary)
        for source, document in parsed:
            for table, table_rows in document.tables.items():
                # an explicit key: VACUUM may renumber implicit rowids
                start = db[table].count + 1 if db[table].exists() else 1
                keyed = ({"id": start + n, "doc": source.id, **row} for n, row in enumerate(table_rows))
                db[table].insert_all(keyed, pk="id", alter=True,
                                     foreign_keys=[("doc", "documents", "id")])
    db["sections"].create_index(["doc", "ref"], unique=True)
    db["sections"].create_index(["parent_id"])
    db["sections"].create_index(["kind"])
    db["xrefs"].create_index(["source_id"])
    db["xrefs"].create_index(["target_id"])
    db["xrefs"].create_index(["target_doc", "target_ref"])
    db["alignments"].create_index(["from_id"])
    db["alignments"].create_index(["to_id"])
    db["sections"].enable_fts(["search_title", "search_text"], tokenize="unicode61 remove_diacritics 2",
                              create_triggers=False)


def insert_rows(db: sqlite_utils.Database, table: str, columns: dict, rows: list[dict]) -> None:
    """Bulk insert into a table sqlite-utils created: one executemany, no per-row type sniffing."""
    names = list(columns)
    sql = f"insert into [{table}] ({', '.join(f'[{n}]' for n in names)}) values ({', '.join('?' for _ in names)})"
    db.conn.executemany(sql, ([row.get(name) for name in names] for row in rows))


def document_row(source: Source, unit_count: int) -> dict:
    return {
        "id": source.id, "title": source.title, "title_en": source.meta.get("title_en"),
        "short_title": source.meta.get("short_title"),
        "language": source.language, "edition": source.edition, "version_date": source.version_date,
        "version_note": source.meta.get("version_note"), "publisher": source.publisher,
        "copyright": source.copyright, "kind": source.kind, "file": source.file, "parser": source.parser,
        "comments_on": source.meta.get("comments_on"),
        "sha256": hashlib.sha256(source.path.read_bytes()).hexdigest(), "units": unit_count,
    }
