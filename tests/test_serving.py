"""The public site as `bridge-laws serve` runs it: read-only, bounded, and safe with hostile text.

A real server subprocess serves a database built from a temporary copy of the corpus in which
one unit (laws-2017-ja 45B) carries a <script> element: it must come out escaped on the unit
page, in search snippets and on the diff page. The same server must be immutable, cut off a
runaway SQL query at sql_time_limit_ms, and refuse every write.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

import httpx
import pytest
import yaml

from ingest.build.database import build
from ingest.sources.corpus import DEFAULT_CORPUS
from laws_site.http.serve import METADATA, SETTINGS
from tests.live_server import serving

pytestmark = pytest.mark.slow

DOC, UNIT = "laws-2017-ja", "45B"
UNIT_TEXT_START = "ディクレアラはカードを名指し、その後ダミーは"
PROBE = "xssprobe"
SCRIPT = f'<script>alert("{PROBE}")</script>'
# the build drops stray HTML image tags (PDF-conversion noise); the <script> must survive as text
PAYLOAD = SCRIPT + "<img src=x onerror=alert(1)>"
RUNAWAY_SQL = "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory) -> Path:
    """The whole corpus, with PAYLOAD appended to the first line of 45B's text (same line count)."""
    root = tmp_path_factory.mktemp("hostile")
    corpus = shutil.copytree(DEFAULT_CORPUS, root / "corpus")
    laws = corpus / f"{DOC}.txt"
    lines = laws.read_text(encoding="utf-8").split("\n")
    hits = [i for i, line in enumerate(lines) if line.startswith(UNIT_TEXT_START)]
    assert len(hits) == 1, f"45B's text line moved: {hits}"
    lines[hits[0]] += PAYLOAD
    laws.write_text("\n".join(lines), encoding="utf-8")
    db = root / "laws.db"
    build(db, corpus)
    return db


@pytest.fixture(scope="module")
def server(hostile_db, tmp_path_factory):
    log = tmp_path_factory.mktemp("log") / "server.log"
    with serving(hostile_db, log=log) as (base, _process):
        with httpx.Client(base_url=base, timeout=30) as client:
            yield client


def test_the_payload_is_in_the_database(hostile_db):
    import sqlite3

    text = (
        sqlite3.connect(hostile_db)
        .execute("select text from sections where doc = ? and ref = ?", (DOC, UNIT))
        .fetchone()[0]
    )
    assert SCRIPT in text


def assert_escaped(html: str, where: str) -> None:
    assert "<script>alert" not in html and "<img src=x" not in html, f"{where}: raw markup from the text"
    assert "&lt;script&gt;" in html or "&#60;script&#62;" in html or "&lt;script>" in html, (
        f"{where}: the text's <script> should be shown, escaped"
    )


def test_unit_page_escapes_the_text(server):
    response = server.get(f"/{DOC}/{UNIT}")
    assert response.status_code == 200
    assert_escaped(response.text, "unit page")
    data = server.get(f"/{DOC}/{UNIT}.json").json()
    assert SCRIPT in data["text"], "JSON carries the text as it is (escaping is the renderer's job)"


def test_parent_page_escapes_the_text(server):
    response = server.get(f"/{DOC}/45")
    assert response.status_code == 200
    assert_escaped(response.text, "law page")


def test_search_snippets_escape_the_text(server):
    data = server.get("/-/search.json", params={"q": PROBE}).json()
    ours = [r for r in data["results"] if r["doc"] == DOC and r["ref"] == UNIT]
    assert ours, f"the probe word should find 45B: {data}"
    spans = ours[0]["snippet"]  # data: [{"text", "mark"}], the text as printed; the page escapes it
    assert {"text": PROBE, "mark": True} in spans and "<script>" in "".join(s["text"] for s in spans)
    page = server.get("/-/search", params={"q": PROBE})
    assert page.status_code == 200 and f"<mark>{PROBE}</mark>" in page.text
    assert_escaped(page.text, "search page")


def test_datasette_table_pages_escape_the_text(server):
    response = server.get("/laws/sections", params={"_search": PROBE})
    assert response.status_code == 200 and "45B" in response.text
    assert_escaped(response.text, "Datasette table search")


def test_diff_page_escapes_the_text(server):
    response = server.get("/-/diff", params={"ref": "45", "from": "laws-1997-zh", "to": DOC})
    assert response.status_code == 200, response.text[:300]
    assert_escaped(response.text, "diff page")
    data = server.get("/-/diff.json", params={"ref": "45", "from": "laws-1997-zh", "to": DOC}).json()
    assert PROBE in str(data)


# ---------------------------------------------------------------- read-only and bounded


def test_database_is_served_immutable(server):
    databases = {d["name"]: d for d in server.get("/-/databases.json").json()}
    assert databases["laws"]["is_mutable"] is False
    settings = server.get("/-/settings.json").json()
    for name, value in SETTINGS.items():
        assert str(settings[name]).lower() in (value.lower(), {"on": "true", "off": "false"}.get(value, value))


def test_runaway_sql_is_cut_off(server):
    limit_seconds = int(SETTINGS["sql_time_limit_ms"]) / 1000
    started = time.monotonic()
    response = server.get("/laws.json", params={"sql": RUNAWAY_SQL, "_shape": "array"})
    elapsed = time.monotonic() - started
    assert elapsed < limit_seconds + 5, f"a runaway query ran {elapsed:.1f}s"
    assert response.status_code >= 400, response.text[:300]
    assert "too long" in response.text.lower() or "interrupted" in response.text.lower(), response.text[:300]
    html = server.get("/en/laws", params={"sql": RUNAWAY_SQL})  # the Japanese page says it in Japanese
    assert html.status_code >= 400 and "too long" in html.text.lower()
    assert server.get("/-/search.json", params={"q": "リボーク"}).status_code == 200, "server still answers"


WRITES = [
    ("GET", "/laws.json", {"sql": "insert into documents (id) values ('x')"}),
    ("GET", "/laws.json", {"sql": "delete from sections"}),
    ("GET", "/laws.json", {"sql": "update sections set text = 'x'"}),
    ("GET", "/laws.json", {"sql": "drop table xrefs"}),
    ("GET", "/laws.json", {"sql": "attach database '/tmp/evil.db' as evil"}),
    ("GET", "/laws.json", {"sql": "pragma writable_schema = 1"}),
    ("GET", "/laws.json", {"sql": "select 1; delete from sections"}),
    ("POST", "/laws", {"sql": "delete from sections"}),
    ("POST", "/laws/sections/-/insert", {"row": {"id": "x"}}),
    ("POST", "/laws/sections/-/upsert", {"rows": [{"id": "x"}]}),
    ("POST", "/laws/-/create", {"table": "evil", "row": {"id": 1}}),
    ("POST", "/laws/sections/-/drop", {}),
    ("POST", "/laws/sections/laws-2017-ja:45B/-/delete", {}),
    ("PUT", "/laws/sections", {}),
    ("DELETE", "/laws/sections", {}),
]


def test_no_write_path(server, hostile_db):
    before = hashlib.sha256(hostile_db.read_bytes()).hexdigest()
    count = server.get("/laws.json", params={"sql": "select count(*) as n from sections", "_shape": "array"}).json()
    for method, path, payload in WRITES:
        if method == "GET":
            response = server.get(path, params=payload)
        else:
            response = server.request(method, path, json=payload)
        assert response.status_code in (400, 403, 404, 405), f"{method} {path} {payload}: {response.status_code}"
    after = server.get("/laws.json", params={"sql": "select count(*) as n from sections", "_shape": "array"}).json()
    assert after == count
    assert hashlib.sha256(hostile_db.read_bytes()).hexdigest() == before


def test_no_canned_query_writes():
    metadata = yaml.safe_load(METADATA.read_text(encoding="utf-8")) or {}
    for db_name, database in (metadata.get("databases") or {}).items():
        for name, query in (database.get("queries") or {}).items():
            assert not (isinstance(query, dict) and query.get("write")), f"canned query {db_name}.{name} writes"
