"""Search input from anywhere: any string gives results or a helpful refusal, never a crash.

* `laws_site.search.engine.search` on any Unicode string returns a list of result dicts (snippets as
  [{text, mark}] data) or raises QueryError (with a message); nothing else escapes.
* Through HTTP (Datasette's test client, configured as `serve` runs it): /-/search.json,
  /-/search and Datasette's own ?_search= answer 200, or 400 with a message; never 500.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from laws_site.search.engine import QueryError, search

pytestmark = pytest.mark.slow

RESULT_KEYS = {"doc", "ref", "id", "kind", "title", "snippet", "score"}
# What breaks naive FTS or tokenizers: syntax, quotes, NUL and controls, huge input, odd scripts.
NASTY = [
    '"',
    '""',
    '"x',
    "a-b",
    "C++",
    "OR",
    "AND NOT",
    "NEAR(a b)",
    "*",
    "^",
    "-",
    ":",
    "(",
    ")",
    "'",
    "\\",
    "\x00",
    "\x1f",
    "\u200b",
    "\ufeff",
    "\u3000",
    "\U0001f0cf",
    "ﾘﾎﾞｰｸ",
    "ｒｅｖｏｋｅ",
    "⁉",
    "Ⅻ",
    "𠀋",
    "リボーク",
    "藏牌",
    "第61条",
    "61B2(a)",
    "ー",
    "・",
    "々",
    "\n",
    "\t",
    "%",
    "_",
    "<script>",
]
QUERIES = (
    st.text(max_size=80)
    | st.lists(st.sampled_from(NASTY), max_size=12).map("".join)
    | st.text(alphabet=st.characters(codec="utf-8"), min_size=400, max_size=700)
)
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEN = [
    "",
    " ",
    "\x00",
    '"',
    "OR",
    "NEAR(",
    "a" * 5000,
    "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"),
]


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    yield connection
    connection.close()


@FUZZ
@given(query=QUERIES, lang=st.sampled_from([None, "ja", "zh"]), doc=st.sampled_from([None, "laws-2017-ja", "nope"]))
@example(query="", lang=None, doc=None)
@example(query="\x00\x00", lang=None, doc=None)
@example(query='"' * 600, lang="zh", doc=None)
def test_search_returns_results_or_raises_query_error(conn, query, lang, doc):
    try:
        results = search(conn, query, doc=doc, lang=lang, limit=5)
    except QueryError as error:
        assert str(error).strip(), "a refusal must say why"
        return
    assert isinstance(results, list) and len(results) <= 5
    for result in results:
        assert RESULT_KEYS <= set(result), result
        spans = result["snippet"]  # data, not markup: [{"text", "mark"}]
        assert isinstance(spans, list) and all(
            set(s) == {"text", "mark"} and isinstance(s["text"], str) for s in spans
        ), spans


def quoted(text: str) -> str:
    return quote(text, safe="")


# Bytes that are not UTF-8 once percent-decoded: what a broken client or a scanner sends.
RAW_PARAMS = st.binary(max_size=30).map(lambda b: "".join(f"%{x:02X}" for x in b))


def fetch(datasette, path: str):
    return asyncio.run(datasette.client.get(path))


def assert_answered(response, path: str) -> None:
    assert response.status_code in (200, 400), f"{path} -> {response.status_code}: {response.text[:300]}"
    if response.status_code == 400:
        body = response.text
        if "json" in response.headers.get("content-type", ""):
            body = json.loads(body).get("error") or ""
        assert body.strip(), f"{path}: a 400 must carry a message"


@pytest.mark.slow
@FUZZ
@given(query=QUERIES | RAW_PARAMS.map(lambda raw: "RAW:" + raw), lang=st.sampled_from(["", "ja", "zh", "xx"]))
@example(query="", lang="")
@example(query="RAW:%FF%FE", lang="")
@example(query="RAW:%00", lang="ja")
def test_search_json_answers_200_or_400_never_500(datasette, query, lang):
    q = query[4:] if query.startswith("RAW:") else quoted(query)
    path = f"/-/search.json?q={q}" + (f"&lang={lang}" if lang else "")
    response = fetch(datasette, path)
    assert_answered(response, path)
    if response.status_code == 200:
        data = response.json()
        assert isinstance(data["results"], list)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=QUERIES, limit=st.sampled_from(["", "0", "-1", "abc", "10", "99999999999999999999"]))
@example(query="<script>alert(1)</script>", limit="")
@example(query="1", limit="")  # exactly one citation: Law 1
def test_search_page_answers_200_or_400_and_escapes_the_query(datasette, query, limit):
    path = f"/-/search?q={quoted(query)}" + (f"&limit={limit}" if limit else "")
    response = fetch(datasette, path)
    if response.status_code == 302:  # a query that is exactly one citation opens that unit (issue 14)
        location = response.headers["location"]
        assert location.startswith("/") and not location.startswith("//") and "?from_search=" in location, location
        return
    assert_answered(response, path)
    assert "<script>alert(1)" not in response.text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(query=QUERIES | RAW_PARAMS.map(lambda raw: "RAW:" + raw))
@example(query='"unbalanced')
@example(query="NEAR(")
def test_datasette_table_search_answers_200_or_400(datasette, query):
    q = query[4:] if query.startswith("RAW:") else quoted(query)
    path = f"/laws/sections.json?_search={q}&_size=3"
    response = fetch(datasette, path)
    assert_answered(response, path)


@pytest.mark.parametrize("query", SEEN)
def test_edge_queries_through_http(datasette, query):
    for path in (f"/-/search.json?q={quoted(query)}", f"/-/search?q={quoted(query)}"):
        assert_answered(fetch(datasette, path), path)
