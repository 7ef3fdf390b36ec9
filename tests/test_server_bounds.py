"""Issue 21, the server: no single request stalls or bloats the site. Each finding of the issue is a
test here, through the site's whole ASGI stack (in process, as `bridge-laws serve` configures it)
or on the module that bounds it; tests/test_server_live.py has those that need a real server
(time-outs, a rebuilt or foreign file, concurrency).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from urllib.parse import quote

import pytest
import yaml
from datasette.utils.asgi import Request, Response

from laws_site import compat
from laws_site.http import request_bounds, responses
from laws_site.http.serve import METADATA
from laws_site.search import query
from laws_site.sql import gate as sql_gate
from laws_site.sql import limits


def assert_error(response, status: int, *words: str) -> dict:
    assert response.status_code == status, response.text[:300]
    data = response.json()
    assert data["ok"] is False and data["status"] == status and data["title"], data
    assert "</" not in data["error"], data["error"]
    for word in words:
        assert word in data["error"], data["error"]
    return data


# ---------------------------------------------------------------- 1. bounded work before parsing


@pytest.mark.parametrize(
    "path",
    ["/-/search.json?q=revoke", "/laws.json?sql=select+1", "/laws/sections.json?_size=1", "/-/glossary.json?q=a"],
)
async def test_too_many_parameters_is_a_400_before_any_view(datasette, path):
    too_many = path + "&" + "&".join(f"p{i}=1" for i in range(request_bounds.MAX_PARAMETERS))
    started = time.perf_counter()
    response = await datasette.client.get(too_many, follow_redirects=True)
    assert time.perf_counter() - started < 1
    assert_error(
        response,
        400,
        f"{request_bounds.MAX_PARAMETERS + 1} query parameters",
        f"the limit is {request_bounds.MAX_PARAMETERS}",
    )
    just_enough = path + "&" + "&".join(f"p{i}=1" for i in range(request_bounds.MAX_PARAMETERS - 1))
    assert (await datasette.client.get(just_enough, follow_redirects=True)).status_code == 200


async def test_too_many_parameters_on_an_html_page_is_the_error_page(datasette):
    response = await datasette.client.get("/-/search?q=x&" + "&".join(["a=1"] * 100))
    assert response.status_code == 400 and 'class="error-page' in response.text
    assert (
        "アドレスのパラメータが 101 個あります。" in response.text
    )  # in the interface language (a Message, laws_site/i18n/message.py)
    english = await datasette.client.get("/en/-/search?q=x&" + "&".join(["a=1"] * 100))
    assert "The address has 101 parameters" in english.text


async def test_an_oversized_query_string_is_a_400(datasette):
    response = await datasette.client.get("/-/search.json?q=x&pad=" + "x" * request_bounds.MAX_QUERY_BYTES)
    assert_error(response, 400, "the query string is", f"{request_bounds.MAX_QUERY_BYTES:,}")


def test_page_url_keeps_every_parameter_in_order_without_the_offset(datasette):
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/-/search.json",
        "headers": [(b"host", b"evil.example")],
        "query_string": b"q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF&offset=5&doc=laws-2017-ja&k=1&k=2",
    }
    url = responses.page_url(datasette, Request(scope, None), 10, absolute=True)
    assert url == "/-/search.json?q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF&doc=laws-2017-ja&k=1&k=2&offset=10"


async def test_a_repeated_facet_is_computed_once(datasette):
    started = time.perf_counter()
    response = await datasette.client.get("/laws/sections.json?_size=1&" + "&".join(["_facet=kind"] * 60))
    assert time.perf_counter() - started < 2
    assert response.status_code == 200
    facets = response.json()["facet_results"]
    facets = facets.get("results", facets)  # 1.0 nests them under "results"
    # the table's configured facets (doc, kind) and the one asked for: before, one facet query per
    # repetition (600: a 124 MB answer)
    assert sorted(facets) == ["doc", "kind", "kind_2"]
    assert len(response.content) < 100_000
    too_many = await datasette.client.get("/laws/sections.json?_size=1&" + "&".join(["_facet=kind"] * 600))
    assert_error(too_many, 400, "601 query parameters")


async def test_more_distinct_facets_than_the_limit_is_a_400(datasette):
    columns = ["doc", "kind", "lang", "page", "parent_id", "ref"]
    response = await datasette.client.get("/laws/sections.json?" + "&".join(f"_facet={c}" for c in columns))
    assert_error(response, 400, "6 different facets", f"the limit is {request_bounds.MAX_FACETS}")
    ok = await datasette.client.get("/laws/sections.json?_size=1&" + "&".join(f"_facet={c}" for c in columns[:5]))
    assert ok.status_code == 200


def test_table_search_cap_is_search_pages_cap():
    assert request_bounds.MAX_SEARCH_CHARS == query.MAX_QUERY_CHARS


async def test_table_search_over_the_cap_is_a_400_without_tokenizing(datasette):
    huge = quote("藏牌的确定" * 1200)  # 6,000 characters: 2.8 s on the event loop before
    assert_error(await datasette.client.get(f"/laws/sections.json?_search={huge}"), 400, "the query string is")
    long = quote("藏牌的确定" * 240)  # 1,200 characters
    started = time.perf_counter()
    response = await datasette.client.get(f"/laws/sections.json?_search={long}")
    assert time.perf_counter() - started < 0.5
    assert_error(response, 400, "_search is 1,200 characters long", "the limit is 500")
    assert_error(await datasette.client.get(f"/laws/sections.json?_search_text={long}"), 400, "_search_text")
    at_cap = await datasette.client.get("/laws/sections.json?_size=1&_search=" + quote("藏牌" * 250))
    assert at_cap.status_code == 200


# ---------------------------------------------------------------- 2. the answer cache


def test_answer_cache_counts_keys_and_entries(monkeypatch):
    monkeypatch.setattr(responses, "_answers", type(responses._answers)())
    monkeypatch.setattr(responses, "_kept_bytes", 0)
    pad = "x" * 60_000
    for i in range(1000):  # 60 MB of keys, 2 KB of bodies
        responses.keep(("build", "/-/search.json", f"q=zzqqxx&k={i}&pad={pad}"), Response.json({"ok": True}))
    entries, counted = responses.cache_size()
    assert counted <= responses.PAGE_CACHE_BYTES
    assert entries <= responses.PAGE_CACHE_BYTES // 60_000  # before: all 1,000 kept (bodies only counted)
    for i in range(3 * responses.PAGE_CACHE_ENTRIES):
        responses.keep(("build", "/x", f"k={i}"), Response.text("y"))
    assert responses.cache_size()[0] == responses.PAGE_CACHE_ENTRIES


# ---------------------------------------------------------------- 3. public SQL has its own gate


async def test_the_gate_queues_then_refuses_with_429():
    gate = sql_gate.Gate(slots=1, queue=1, max_wait=0.2)
    assert await gate.enter() is None  # holds the slot
    waiting = asyncio.create_task(gate.enter())
    await asyncio.sleep(0.01)
    full = await gate.enter()
    assert full.status == 429 and "too many SQL queries" in str(full.message)
    timed_out = await waiting
    assert timed_out.status == 429 and "busy" in str(timed_out.message)
    gate.leave()
    assert await gate.enter() is None
    gate.leave()


@pytest.mark.parametrize(
    "path, names, gated",
    [
        ("/laws", {"sql"}, True),
        ("/laws.json", {"sql", "_shape"}, True),
        ("/laws.csv", {"sql"}, True),
        ("/laws/search_text.json", {"q"}, True),
        ("/laws/citations", set(), True),
        ("/laws/sections.json", {"_where"}, True),
        ("/laws/sections.json", {"_size"}, False),
        ("/laws.db", set(), False),
        ("/laws-2017-ja/61", set(), False),
        ("/-/search.json", {"q"}, False),
        ("/laws", set(), False),
    ],
)
async def test_which_requests_pass_the_sql_gate(datasette, path, names, gated):
    assert await sql_gate.runs_client_sql(datasette, path, names) is gated


# ---------------------------------------------------------------- 4. links, cached answers, ETags


@pytest.mark.parametrize(
    "path",
    [
        "/-/search.json?q=revoke&limit=1&probe=host",
        "/-/glossary.json?limit=1&probe=host",
        "/laws/sections.json?_size=1",
    ],
)
async def test_no_link_is_built_from_the_host_header(datasette, path):
    poisoned = await datasette.client.get(path, headers={"host": "evil.example"})
    assert poisoned.status_code == 200 and "evil.example" not in poisoned.text
    later = await datasette.client.get(path)
    assert "evil.example" not in later.text and later.json()["next_url"] == poisoned.json()["next_url"]


async def test_absolute_links_come_from_the_configured_public_url(laws_db_path):
    """`plugins: bridge-laws: public_url:` in metadata.yml makes next_url absolute, whatever the Host."""
    from datasette.app import Datasette

    metadata = yaml.safe_load(METADATA.read_text(encoding="utf-8"))
    metadata.setdefault("plugins", {})["bridge-laws"] = {"public_url": "https://laws.example.org/"}
    site = Datasette(immutables=[str(laws_db_path)], metadata=metadata)
    await site.invoke_startup()
    for host in (None, "evil.example"):
        answer = await site.client.get("/-/search.json?q=revoke&limit=1", headers={"host": host} if host else {})
        assert answer.status_code == 200
        assert answer.json()["next_url"].startswith("https://laws.example.org/-/search.json?")


@pytest.mark.parametrize(
    "host",
    [
        "javascript:alert(1)",
        "evil.example/path",
        "a b",
        "<x>",
        "a" * 40 + "!",
        "a." * 200 + "!",
        "x" * 300,
        "evil..example",
    ],
)
async def test_a_host_header_that_is_no_host_is_a_400(datasette, host):
    started = time.perf_counter()
    response = await datasette.client.get("/-/search.json?q=revoke", headers={"host": host})
    assert time.perf_counter() - started < 0.5  # the check itself cannot be made slow (no backtracking)
    assert_error(response, 400, "Host header")


@pytest.mark.parametrize(
    "host", ["laws.example.org", "127.0.0.1:8001", "localhost", "[::1]:8001", "xn--r8jz45g.jp.", "a-b.c-d.example:443"]
)
async def test_real_host_names_are_accepted(datasette, host):
    response = await datasette.client.get("/-/search.json?q=revoke&limit=1", headers={"host": host})
    assert response.status_code == 200


async def test_etags_are_per_answer(datasette):
    one = await datasette.client.get("/laws-2017-ja/61.json")
    other = await datasette.client.get("/laws-2017-ja/62.json")
    assert one.headers["etag"] != other.headers["etag"]
    assert (await datasette.client.get("/laws-2017-ja/61.json")).headers["etag"] == one.headers["etag"]
    sql = compat.query_path(datasette, "laws", ".json") + "?sql="
    random = await datasette.client.get(sql + "select+random()")
    again = await datasette.client.get(sql + "select+random()", headers={"if-none-match": random.headers["etag"]})
    assert again.status_code == 200  # before: one ETag for every URL, so a new random() was a 304
    stable = await datasette.client.get(sql + "select+1")  # its query_ms differs each time
    assert (
        await datasette.client.get(sql + "select+1", headers={"if-none-match": stable.headers["etag"]})
    ).status_code == 304


# ---------------------------------------------------------------- 6. bad values of known parameters


@pytest.mark.parametrize(
    "path, words",
    [
        ("/-/citations.json?from=zzz", ["from='zzz'", "law number"]),
        ("/-/citations.json?from=61&to=%C2%B2", ["to='²'"]),
        ("/-/citations.json?law=" + "9" * 5000, ["law="]),
        ("/-/glossary.json?lang=xx", ["lang='xx'", "ja, en, zh"]),
        ("/-/diff.json?ref=61&from=laws-1997-zh&to=laws-2017-ja&whitespace=maybe", ["whitespace='maybe'"]),
        # search read exact=0 and list=zzz as on, silently (docs/api.md: a bad value is a 400)
        ("/-/search.json?q=revoke&exact=maybe", ["exact='maybe'", "one of 1"]),
        ("/-/search.json?q=revoke&exact=0", ["exact='0'"]),
        ("/-/search.json?q=61&list=zzz", ["list='zzz'"]),
    ],
)
async def test_a_bad_value_of_a_known_parameter_is_a_400(datasette, path, words):
    assert_error(await datasette.client.get(path), 400, *words)


@pytest.mark.parametrize(
    "path",
    [
        "/-/citations.json?from=61&to=44",
        "/-/citations.json?from=",
        "/-/glossary.json?lang=zh",
        "/-/search.json?q=revoke&lang=zh",
        "/-/citations?law=61",
        "/-/search.json?q=revoke&exact=1",
        "/-/search.json?q=revoke&exact=",
        "/-/search.json?q=61&list=1",
    ],
)
async def test_good_values_still_answer(datasette, path):
    assert (await datasette.client.get(path)).status_code == 200


@pytest.mark.parametrize(
    "path, words",
    [
        # the first q was answered and the second dropped unseen, in HTML and JSON alike
        ("/-/search.json?q=revoke&q=claim", ["q is given 2 times", "'revoke', 'claim'", "give q once"]),
        ("/-/search.json?q=revoke&limit=5&limit=6", ["limit is given 2 times"]),
        ("/-/glossary.json?q=revoke&q=claim", ["q is given 2 times"]),
        ("/-/diff.json?ref=61&ref=62", ["ref is given 2 times"]),
    ],
)
async def test_a_parameter_a_page_reads_once_given_twice_is_a_400_naming_it(datasette, path, words):
    assert_error(await datasette.client.get(path), 400, *words)


@pytest.mark.parametrize(
    "path, words",
    [
        ("/-/search?q=revoke&q=claim", ["q が 2 回", "revoke", "claim"]),
        ("/zh/-/search?q=%E7%BD%9A%E7%89%8C&q=y", ["q 给了 2 次", "罚牌"]),
        ("/en/-/search?q=revoke&q=claim", ["q is given 2 times", "Give q once"]),
    ],
)
async def test_the_search_page_says_so_too(datasette, path, words):
    response = await datasette.client.get(path)
    assert response.status_code == 400
    for word in words:
        assert word in response.text


async def test_the_same_value_twice_is_read_as_once(datasette):
    response = await datasette.client.get("/-/search.json?q=revoke&q=revoke&limit=1")
    assert response.status_code == 200 and response.json()["query"] == "revoke"


def test_a_new_parameter_is_one_row(monkeypatch):
    rows = request_bounds._PARAMETERS + [(__import__("re").compile(r"/-/x"), "ui", request_bounds.one_of("ja", "en"))]
    monkeypatch.setattr(request_bounds, "_PARAMETERS", rows)
    refusal, _ = request_bounds.check_query("/-/x", b"ui=xx")
    assert refusal.status == 400 and "ui must be one of ja, en" in str(refusal.message)
    assert request_bounds.check_query("/-/x", b"ui=en") == (None, b"ui=en")


# ---------------------------------------------------------------- 7. the SQL surface, headers, echoes


@pytest.mark.parametrize(
    "sql, words",
    [
        ("select file from pragma_database_list", ["pragma_database_list"]),
        ("select * from pragma_database_list()", ["pragma_database_list"]),
        ("select hex(fts3_tokenizer('simple'))", ["fts3_tokenizer"]),
        ("select load_extension('x')", ["load_extension"]),
    ],
)
async def test_sql_revealing_files_or_pointers_is_refused(datasette, laws_db_path, sql, words):
    response = await datasette.client.get(compat.query_path(datasette, "laws", ".json") + "?sql=" + quote(sql))
    data = assert_error(response, 400, *words)
    assert str(laws_db_path) not in response.text and data["rows"] == []


def test_the_authorizer_leaves_datasettes_own_pragma(laws_db_path):
    conn = sqlite3.connect(laws_db_path)
    limits.prepare(conn, "laws")
    assert [row[1] for row in conn.execute("PRAGMA database_list")] == ["main"]  # Datasette's attached list
    assert conn.execute("select count(*) from pragma_table_info('sections')").fetchone()[0] > 5
    with pytest.raises(sqlite3.DatabaseError, match="prohibited"):
        conn.execute("select file from pragma_database_list")


async def test_the_sql_time_out_error_is_text(datasette):
    runaway = "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"
    query = compat.query_path(datasette, "laws", ".json") + "?sql="
    data = assert_error(await datasette.client.get(query + quote(runaway)), 400, "took too long")
    assert "textarea" not in data["error"] and "script" not in data["error"]


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/laws-2017-ja/61",
        "/-/search.json?q=revoke",
        "/laws/sections",
        "/-/static-plugins/bridge-laws/site.css",
        "/laws-2017-ja/nope",
        "/laws.json?sql=select+x",
        "/laws.csv?sql=select+1",
        "/laws.db",
        "/-/search.json?" + "&".join(["a=1"] * 70),
    ],
)
async def test_nosniff_on_every_answer(datasette, path):
    response = await datasette.client.get(path, follow_redirects=True)
    assert response.headers["x-content-type-options"] == "nosniff", (path, response.status_code)


async def test_search_errors_do_not_echo_long_input(datasette):
    response = await datasette.client.get("/-/search.json?q=" + "x" * 40_000)  # before: answered in full
    assert_error(response, 400, "q is 40,000 characters long", "the limit is 10,000")
    assert len(response.content) < 1_000
    page = await datasette.client.get("/-/search?q=" + "x" * 40_000)
    assert page.status_code == 400 and "x" * 1_000 not in page.text
    own = await datasette.client.get("/-/search?q=" + "x" * 9_000)  # search's own page: the query in its box
    assert own.status_code == 400 and 'role="alert"' in own.text and "x" * 10_001 not in own.text
    glossary = await datasette.client.get("/-/glossary.json?q=" + "x" * 40_000)
    assert_error(glossary, 400, "q is 40,000 characters long", "the limit is 1,000")


@pytest.mark.parametrize("prefix", ["", "/en", "/zh"])
async def test_datasette_pages_revalidate_in_every_language(datasette, prefix):
    """Their footer says how long the queries took (in the page's language): not part of the ETag."""
    first = await datasette.client.get(prefix + "/laws/sections")
    assert first.status_code == 200
    again = await datasette.client.get(prefix + "/laws/sections", headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304


async def test_an_overlong_from_search_is_not_shown_on_the_unit_page(datasette):
    shown = await datasette.client.get("/laws-2017-ja/61?from_search=" + quote("リボーク"))
    assert "リボーク" in shown.text and "from-search" in shown.text
    long = await datasette.client.get("/laws-2017-ja/61?from_search=" + "y" * 40_000)
    assert long.status_code == 200 and "y" * 600 not in long.text and "from-search" not in long.text


# ---------------------------------------------------------------- 5. the download is the served bytes


async def test_the_download_is_the_served_file_with_its_hash_as_etag(datasette, laws_db_path):
    import hashlib

    response = await datasette.client.get("/laws.db")
    digest = hashlib.sha256(laws_db_path.read_bytes()).hexdigest()
    assert response.status_code == 200 and hashlib.sha256(response.content).hexdigest() == digest
    assert response.headers["etag"] == f'"{digest}"'
    assert (await datasette.client.get("/laws.db", headers={"if-none-match": f'"{digest}"'})).status_code == 304


@pytest.mark.parametrize("prefix", ["", "/en", "/zh"])
@pytest.mark.parametrize("path", ["/laws-2017-ja/", "/-/glossary/", "/-/history/"])
async def test_a_long_path_s_error_page_is_small_and_links_the_languages_homes(datasette, prefix, path):
    """A 3,000-character path's 404 weighed 140 KB: the language switcher and the alternate links each
    carried the whole path (27 KB percent-encoded) to pages no language has."""
    response = await datasette.client.get(prefix + path + quote("あ" * 3000))
    assert response.status_code in (400, 404)
    assert len(response.content) < 20_000
    assert '<link rel="alternate" hreflang="en" href="/en/">' in response.text
    # a page's own path stays in its links
    kept = await datasette.client.get(prefix + "/laws-2017-ja/" + quote("index:リボーク/定義"))
    assert kept.status_code == 200 and f'hreflang="en" href="/en/laws-2017-ja/{quote("index:リボーク")}' in kept.text
