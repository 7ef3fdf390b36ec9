"""Shared fixtures: one whole-corpus database per test session, and a Datasette over it.

The database is built as ``laws.db`` in a temporary directory so Datasette names it ``laws``,
the name metadata.yml is keyed on. A document that fails to parse fails the build, and with it
every test that needs the database, with the parser's file and line: nothing is left out quietly.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from ingest.build.database import build
from ingest.parsers.records import ParseError
from ingest.sources.corpus import DEFAULT_CORPUS, load_sources
from laws_site.http.serve import METADATA, SETTINGS

# the page tests' Chromium, server and pages (tests/browser_fixtures.py), shared by every browser test module
pytest_plugins = ["tests.browser_fixtures"]


# ---------------------------------------------------------------- two tiers
# `pytest` runs the fast tier: unit tests on excerpts, whole-corpus invariants, HTTP tests through
# ds.client, each well under 2 s. `pytest --full` adds the tests marked slow, browser or live (real
# servers, Chromium, fuzzing, whole offline packs); `.ci/run` runs both. A `-m` expression given on
# the command line selects as written.
FULL_TIER_MARKS = ("slow", "browser", "live")


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", help="also run the slow, browser and live tests")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--full") or config.getoption("markexpr"):
        return
    fast = [item for item in items if not any(item.get_closest_marker(mark) for mark in FULL_TIER_MARKS)]
    if len(fast) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in fast])
        items[:] = fast


@dataclass
class LawsBuild:
    path: Path
    documents: list[str]


@pytest.fixture(scope="session")
def laws_build(tmp_path_factory) -> LawsBuild:
    """The whole corpus built once per session into <tmp>/laws.db."""
    db_path = tmp_path_factory.mktemp("laws-db") / "laws.db"
    try:
        build(db_path, DEFAULT_CORPUS)
    except ParseError as error:
        pytest.fail(f"the corpus does not build: {error}", pytrace=False)
    return LawsBuild(db_path, [s.id for s in load_sources(DEFAULT_CORPUS)])


@pytest.fixture(scope="session")
def laws_db_path(laws_build) -> Path:
    return laws_build.path


@pytest.fixture(scope="module")
def search_conn(laws_db_path):
    """A read-only connection to this session's build with what every search reads loaded
    (engine.prepare), as the server holds one."""
    import sqlite3

    from laws_site.search import engine

    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    engine.prepare(connection)
    yield connection
    connection.close()


@pytest.fixture(scope="session")
def search_pack(laws_db_path) -> dict:
    """The offline search pack of this session's build, made once (a few seconds) for every test that reads it."""
    import sqlite3

    from laws_site.offline import search_data

    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    try:
        build_id = conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]
        return search_data.export(conn, build_id)
    finally:
        conn.close()


@pytest.fixture(scope="session")
def search_pack_file(search_pack, tmp_path_factory) -> Path:
    """The same pack as the file the Node runners read (tests/node)."""
    import json

    path = tmp_path_factory.mktemp("search-pack") / "search.json"
    path.write_text(json.dumps(search_pack, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def require_documents(laws_build):
    """Call with the document ids a test reads: a test fails (never skips) if one is not in the build."""

    def require(*docs: str) -> None:
        missing = [d for d in docs if d not in laws_build.documents]
        assert not missing, f"not in this build: {missing}"

    return require


@pytest.fixture(scope="session")
def datasette(laws_db_path):
    """Datasette configured exactly as `bridge-laws serve` runs it (immutable db, metadata, settings);
    the site's pages come from the installed plugin (entry point), as in production."""
    from datasette.app import DEFAULT_SETTINGS, Datasette

    ds = Datasette(
        immutables=[str(laws_db_path)],
        metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
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


@pytest.fixture
def fresh_answers(monkeypatch):
    """No answer kept from another request: each view runs (laws_site/http/responses.py made_once)."""
    from collections import OrderedDict

    from laws_site.http import responses

    monkeypatch.setattr(responses, "_answers", OrderedDict())
    monkeypatch.setattr(responses, "_kept_bytes", 0)


# ---------------------------------------------------------------- the corpus checks, once per session
# `bridge-laws check --text` over the whole corpus (~6 s of CPU: every document tokenized twice,
# verbatim and corrected) and the witness check (~2 s): computed once for every test that reads
# them, which are in the full tier (marked slow); the fast tier checks the same code on excerpts.


@pytest.fixture(scope="session")
def text_check():
    from ingest.checks.text_review import check_corpus

    return check_corpus()


@pytest.fixture(scope="session")
def witness_check():
    from ingest.checks.witness_check import check_witnesses

    return check_witnesses()
