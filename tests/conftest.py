"""Shared fixtures: one whole-corpus database per test session, and a Datasette over it.

The database is built as ``laws.db`` in a temporary directory so Datasette names it ``laws``,
the name metadata.yml is keyed on. While a parser is still being written, a document that fails
to parse is left out (with a warning naming it and the error) so the rest can still be tested;
``laws_build.skipped`` says what was left out, and ``require_documents`` skips a test that needs it.
"""
from __future__ import annotations

import asyncio
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from ingest.build import build
from ingest.corpus import DEFAULT_CORPUS, load_sources
from ingest.documents import parse_document
from ingest.records import ParseError
from laws_site.serve import METADATA, SETTINGS


@dataclass
class LawsBuild:
    path: Path
    documents: list[str]
    skipped: dict[str, str] = field(default_factory=dict)


def documents_that_parse(corpus_dir: Path) -> tuple[list[str], dict[str, str]]:
    parsed, failed = [], {}
    for source in load_sources(corpus_dir):
        try:
            parse_document(source.id, source.text, source.name)
            parsed.append(source.id)
        except Exception as error:  # noqa: BLE001 - any parser failure means "leave it out for now"
            failed[source.id] = f"{type(error).__name__}: {error}"
    return parsed, failed


def partial_corpus(corpus_dir: Path, keep: list[str], into: Path) -> Path:
    """A copy of sources.yml listing only ``keep`` (texts and errata read from the real corpus)."""
    manifest = yaml.safe_load((corpus_dir / "sources.yml").read_text(encoding="utf-8"))
    manifest["documents"] = [entry for entry in manifest["documents"] if entry["id"] in keep]
    into.mkdir(parents=True, exist_ok=True)
    for entry in manifest["documents"]:
        (into / entry["file"]).write_bytes((corpus_dir / entry["file"]).read_bytes())
    if (corpus_dir / "errata").is_dir():
        (into / "errata").mkdir(exist_ok=True)
        for erratum in (corpus_dir / "errata").iterdir():
            (into / "errata" / erratum.name).write_bytes(erratum.read_bytes())
    for extra in corpus_dir.glob("*.yml"):  # glossary, variants...: other build steps may read them
        if extra.name != "sources.yml":
            (into / extra.name).write_bytes(extra.read_bytes())
    (into / "sources.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
    return into


@pytest.fixture(scope="session")
def laws_build(tmp_path_factory) -> LawsBuild:
    """The whole corpus built once per session into <tmp>/laws.db."""
    directory = tmp_path_factory.mktemp("laws-db")
    db_path = directory / "laws.db"
    try:
        build(db_path, DEFAULT_CORPUS)
        return LawsBuild(db_path, [s.id for s in load_sources(DEFAULT_CORPUS)])
    except ParseError as error:
        parsed, failed = documents_that_parse(DEFAULT_CORPUS)
        if not parsed:
            raise
        warnings.warn(f"whole-corpus build failed ({error}); testing without {sorted(failed)}")
        build(db_path, partial_corpus(DEFAULT_CORPUS, parsed, directory / "corpus"))
        return LawsBuild(db_path, parsed, failed)


@pytest.fixture(scope="session")
def laws_db_path(laws_build) -> Path:
    return laws_build.path


@pytest.fixture
def require_documents(laws_build):
    """Call with document ids a test needs; skips it, naming the parse error, if one was left out."""
    def require(*docs: str) -> None:
        missing = {d: laws_build.skipped.get(d, "not in the corpus") for d in docs if d not in laws_build.documents}
        if missing:
            pytest.skip(f"left out of this build: {missing}")
    return require


@pytest.fixture(scope="session")
def datasette(laws_db_path):
    """Datasette configured exactly as `bridge-laws serve` runs it (immutable db, metadata, settings);
    the site's pages come from the installed plugin (entry point), as in production."""
    from datasette.app import DEFAULT_SETTINGS, Datasette

    ds = Datasette(
        immutables=[str(laws_db_path)], metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
        settings={name: typed_setting(name, value, DEFAULT_SETTINGS) for name, value in SETTINGS.items()},
    )
    asyncio.run(ds.invoke_startup())
    return ds


def typed_setting(name: str, value: str, defaults: dict):
    """`serve` passes settings as CLI strings; the constructor wants the default's type."""
    default = defaults[name]
    if isinstance(default, bool):
        return value.lower() in ("on", "1", "true")
    if isinstance(default, int):
        return int(value)
    return value
