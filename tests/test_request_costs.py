"""Per-request costs taken out of a search (issue 24) and out of the contents and citations pages
(issue 22) stay out. No timing: each test observes that a costly step is not taken at all.
"""
import hashlib
import json
import sqlite3

import pytest

from laws_site import asgi, limits
from laws_site import search as searching


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    limits.prepare(connection, "laws")
    yield connection
    connection.close()


class CountingPattern:
    """Stands in for asgi.TIMING: counts every call and answers as the real pattern."""

    def __init__(self, pattern):
        self.pattern, self.calls = pattern, 0

    def sub(self, *args):
        self.calls += 1
        return self.pattern.sub(*args)

    def match(self, *args):
        self.calls += 1
        return self.pattern.match(*args)


def test_etag_of_an_answer_without_timing_never_runs_the_timing_pattern(conn, monkeypatch):
    """The pattern stopped at every kana's first byte (0xE3): 25x the SHA-256 of a search answer."""
    page = searching.search_page(conn, "リボーク", limit=20)
    body = json.dumps({"ok": True, **page}, ensure_ascii=False, separators=(",", ":")).encode()
    counting = CountingPattern(asgi.TIMING)
    monkeypatch.setattr(asgi, "TIMING", counting)
    etag = asgi.content_etag(body)
    assert counting.calls == 0
    assert etag == '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


@pytest.mark.parametrize("body", [
    '{"ok":true,"query_ms":12.5,"rows":["リボーク"]}',
    '{"query_ms": 1e-3,"x":"query_ms"}',
    "<footer>Queries took 12.3 ms · クエリ時間 4.5ミリ秒 · 查询用时 3 毫秒</footer><p>リボーク</p>",
    "<p>Queries took many ms</p><p>query_ms</p>",
])
def test_timing_is_taken_out_as_the_pattern_does(body, monkeypatch):
    raw = body.encode()
    expected = asgi.TIMING.sub(b"", raw)
    counting = CountingPattern(asgi.TIMING)
    monkeypatch.setattr(asgi, "TIMING", counting)
    assert asgi.without_timing(raw) == expected
    assert counting.calls >= 1 or expected == raw


def test_search_reads_fts_scores_as_plain_tuples(conn):
    """The (rowid, score) rows of the FTS queries (hundreds per search) are numbers, which the
    result budget counts as 0: they are not made into sqlite3.Row through limits.budgeted_row."""
    seen = []

    def counting(cursor, values):
        seen.append(values)
        return limits.budgeted_row(cursor, values)

    conn.row_factory = counting
    try:
        page = searching.search_page(conn, "リボーク", limit=20)
    finally:
        limits.guard_results(conn)
    assert page["total"] > 20
    scores = [row for row in seen if len(row) == 2 and isinstance(row[0], int) and isinstance(row[1], float)]
    assert scores == []
    assert len(seen) < 200  # the page's own rows (texts, labels), not the hundreds of FTS hits
