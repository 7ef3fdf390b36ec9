"""The search surfaces over HTTP (Datasette test client, fixture in tests/conftest.py):
/-/search, /-/search.json and Datasette's own ?_search= on the sections table.
Whatever is typed, the answer is results or a message: never a 5xx."""

from urllib.parse import quote

import pytest

HOSTILE = {
    "quote": '"',
    "unbalanced": '"リボーク',
    "parens": "(リボーク",
    "operators": "リボーク AND OR NOT",
    "near": "NEAR(リボーク 訂正, 2)",
    "star": "*",
    "prefix-star": "リボ*",
    "colon": "search_text:リボーク",
    "caret": "^リボーク",
    "minus": "-リボーク",
    "emoji": "😀🂡",
    "nul": "リボーク\x00訂正",
    "long": "リボーク" * 1250,  # 5,000 characters
    "sql": "'; drop table sections; --",
    "html": "<script>alert(1)</script>",
    "percent": "%",
    "backslash": "\\",
    "only-spaces": "   ",
    "traditional": "罰張",
    "latin-1": "é",
}


def url(path: str, **params) -> str:
    return path + "?" + "&".join(f"{key}={quote(value, safe='')}" for key, value in params.items())


@pytest.mark.parametrize("query", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("path", ["/-/search", "/-/search.json"])
async def test_search_page_never_fails(datasette, path, query):
    response = await datasette.client.get(url(path, q=query))
    assert response.status_code in (200, 400), response.text[:500]
    if path.endswith(".json"):
        data = response.json()
        assert ("results" in data) if response.status_code == 200 else data["error"]


@pytest.mark.parametrize("query", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("mode", ["escaped", "raw"])
async def test_table_search_box_never_fails(datasette, query, mode):
    response = await datasette.client.get(url("/laws/sections.json", _search=query, _searchmode=mode))
    assert response.status_code < 500, response.text[:500]


async def test_html_in_the_query_is_escaped(datasette):
    response = await datasette.client.get(url("/-/search", q="<script>alert(1)</script>リボーク"))
    assert "<script>alert(1)</script>" not in response.text
    assert "&lt;script&gt;" in response.text


async def test_empty_json_query_is_a_400_with_a_message(datasette):
    response = await datasette.client.get("/-/search.json?q=")
    assert response.status_code == 400 and "q=" in response.json()["error"]


async def test_bare_search_page_shows_the_form(datasette):
    response = await datasette.client.get("/-/search")
    assert response.status_code == 200 and 'name="q"' in response.text


@pytest.mark.parametrize(
    "params, message",
    [
        ({"q": "リボーク", "doc": "no-such-doc"}, "Unknown document"),
        ({"q": "リボーク", "lang": "fr"}, "Unknown language"),
    ],
    ids=["unknown-doc", "unknown-lang"],
)
async def test_bad_filters_are_400_with_a_message(datasette, params, message):
    for path in ("/en/-/search", "/-/search.json"):  # (the Japanese page says it in Japanese: test_datasette_pages)
        response = await datasette.client.get(url(path, **params))
        assert response.status_code == 400 and message in response.text


# ---------------------------------------------------------------- answers

PAGE_CASES = [
    ("リボーク", "/laws-2017-ja/61"),
    ("順番外のリード", "/laws-2017-ja/53"),
    ("藏牌", "/laws-1997-zh/def:%E8%97%8F%E7%89%8C"),
    ("revoke", "/laws-2017-ja/63"),
]


@pytest.mark.parametrize("query, link", PAGE_CASES, ids=[c[0] for c in PAGE_CASES])
async def test_page_links_results_to_unit_pages(datasette, query, link):
    response = await datasette.client.get(url("/-/search", q=query))
    assert response.status_code == 200 and f'href="{link}"' in response.text


async def test_page_groups_results_by_law(datasette):
    response = await datasette.client.get(url("/-/search", q="リボーク", doc="laws-2017-ja"))
    assert "<h2>第61条 " in response.text and "<mark>リボーク</mark>" in response.text
    english = await datasette.client.get(url("/en/-/search", q="リボーク", doc="laws-2017-ja"))
    assert "<h2>Law 61 " in english.text and '<span class="label">Law 61B</span>' in english.text


async def test_json_has_the_cli_fields_and_filters(datasette):
    response = await datasette.client.get(url("/-/search.json", q="リボーク", doc="laws-2017-ja", limit="5"))
    data = response.json()
    assert data["count"] == 5 and {r["doc"] for r in data["results"]} == {"laws-2017-ja"}
    assert {"doc", "ref", "id", "kind", "title", "snippet", "score", "law"} <= set(data["results"][0])


TABLE_SEARCH_CASES = [
    ("順番外のリード", {}, "laws-2017-ja:53"),
    ("ディクレアラーが見せたカード", {}, "laws-2017-ja:48"),  # text spells ディクレアラール
    ("藏牌", {}, "laws-1997-zh:def:藏牌"),
    ("罰張", {"lang": "zh"}, "laws-1997-zh:50B"),  # traditional, simplified text
    ("調整スコア", {}, "laws-2017-ja:def:調整スコア"),
]


@pytest.mark.parametrize("query, extra, expected", TABLE_SEARCH_CASES, ids=[c[0] for c in TABLE_SEARCH_CASES])
async def test_table_search_box_finds_japanese_and_chinese(datasette, query, extra, expected):
    response = await datasette.client.get(
        url("/laws/sections.json", _search=query, _shape="array", _col="id", _size="max", **extra)
    )
    assert response.status_code == 200
    assert expected in {row["id"] for row in response.json()}


async def test_table_search_box_keeps_the_typed_query(datasette):
    response = await datasette.client.get(url("/laws/sections", _search="順番外のリード"))
    assert 'value="順番外のリード"' in response.text


async def test_searches_asked_at_once_run_one_after_another_and_all_answer(datasette, monkeypatch):
    """Concurrent searches do not run side by side in Datasette's read threads: each runs on the
    event loop's own connection (responses.read_here), so at most one is inside search_page at any
    moment, and every one answers."""
    import asyncio
    import threading
    import time

    from laws_site.search import engine as searching

    real = searching.search_page
    inside, most = [0], [0]
    lock = threading.Lock()

    def counted(*args, **kwargs):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        try:
            time.sleep(0.01)  # long enough for another request to arrive meanwhile
            return real(*args, **kwargs)
        finally:
            with lock:
                inside[0] -= 1

    monkeypatch.setattr(searching, "search_page", counted)
    queries = ["リボーク", "ダミー", "claim", "罚张", "ペナルティカード", "順番外のリード"]
    responses = await asyncio.gather(
        *(datasette.client.get(f"/-/search.json?q={quote(q)}&_concurrent={n}") for n, q in enumerate(queries))
    )
    assert [r.status_code for r in responses] == [200] * len(queries)
    assert all(r.json()["results"] for r in responses)
    assert most[0] == 1


@pytest.mark.slow
async def test_the_first_search_of_a_build_is_not_cut_short_by_the_query_time_limit(
    datasette, monkeypatch, fresh_answers
):
    """Reading a build's search data (~0.12 s, once per database file) is bounded by the data, not by
    the query: on a busy machine it took longer than the query's time limit and the first search
    after a rebuild failed (test_a_rebuilt_database_is_served_without_a_restart, once at load 5)."""
    import time
    from collections import OrderedDict

    from laws_site.search import data as data_module

    limit = datasette.setting("sql_time_limit_ms") / 1000
    load = data_module._load

    def slow_load(conn):
        time.sleep(limit + 0.1)  # a machine this busy: the time limit has passed before the reads
        return load(conn)

    monkeypatch.setattr(data_module, "_loaded", OrderedDict())
    monkeypatch.setattr(data_module, "_load", slow_load)
    response = await datasette.client.get("/-/search.json?q=revoke&limit=1")
    assert response.status_code == 200, response.text[:300]
    assert response.json()["results"][0]["id"]


@pytest.mark.slow
async def test_a_search_whose_sentence_tables_are_not_made_yet_is_not_cut_short(datasette, monkeypatch, fresh_answers):
    """The tables a sentence search makes from the build's data (coverage.vocabulary_named) were made by the
    first search needing them, inside the query's time limit: ~1.5 s on a busy machine, so the first
    /zh/-/search?q=罚牌 of a server, and the first after the memo was emptied, was a 400 "took too long"."""
    import time

    from laws_site.search import coverage
    from laws_site.search import data as data_module

    limit = datasette.setting("sql_time_limit_ms") / 1000
    make = coverage._vocabulary_units

    def slow_make(data):
        time.sleep(limit + 0.1)  # a machine this busy
        return make(data)

    for loaded in data_module._loaded.values():
        monkeypatch.setattr(loaded, "_lookups", {})  # as a fresh server's, or after MAX_CACHED queries
    monkeypatch.setattr(coverage, "_vocabulary_units", slow_make)
    for path in ("/zh/-/search?q=%E7%BD%9A%E7%89%8C", "/-/search.json?q=%E7%BD%9A%E7%89%8C"):
        response = await datasette.client.get(path)
        assert response.status_code == 200, response.text[:300]
