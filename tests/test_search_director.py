"""The search box answers a director (issue 14, items 2-4 and 6): director vocabulary finds the law,
titles and definitions rank above passing mentions, reprints sit under their law, totals and pages
add up, and bad input is a helpful 400. Exact expectations on the session build."""

from __future__ import annotations

import builtins
import json
import sqlite3
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from laws_site.cli import cli
from laws_site.search import engine as searching
from laws_site.search import plan

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    yield connection
    connection.close()


def ids(results, prefix="laws-2017-ja:"):
    return [r["id"].removeprefix(prefix) for r in results]


# ---------------------------------------------------------------- 2. director vocabulary

VOCABULARY = [
    # spoken word -> the laws a director means, all of them within the first len(laws) results
    ("リードアウトオブターン", ["53", "54", "55", "56"]),
    ("LOOT", ["53", "54", "55", "56"]),
    ("lead out of turn", ["53", "54", "55", "56"]),
    ("renege", ["61", "62", "63", "64"]),
    ("ペナカ", ["def:ペナルティカード", "50"]),
    ("IB", ["27"]),
    ("BIT", ["16B1"]),
    ("ヘジテーション", ["16B1"]),
    ("UI", ["def:不当な情報", "16"]),
    ("MI", ["def:間違った情報", "21"]),
    ("アジャスト", ["def:調整スコア"]),
    ("クレーム", ["69", "70", "68A"]),  # 68A defines a claim (the vocabulary's own words cut as a query is)
    ("FOLOOT", ["54"]),
    ("TD", ["81"]),
]


@pytest.mark.parametrize("query, laws", VOCABULARY, ids=[v[0] for v in VOCABULARY])
def test_director_vocabulary_finds_the_law(conn, query, laws):
    results = searching.search(conn, query, limit=len(laws))
    assert sorted(ids(results)) == sorted(laws)


@pytest.mark.parametrize(
    "query, also",
    [
        ("BIT", ["躊躇", "明白な躊躇", "明显的迟疑", "迟疑"]),
        ("リードアウトオブターン", ["順番外のリード", "越序引牌"]),
        ("revoke", ["リボーク", "藏牌"]),
        ("リボーク", ["藏牌"]),
    ],
)
def test_the_answer_says_what_else_was_searched(conn, query, also):
    assert searching.search_page(conn, query)["also_searched"] == also


def test_the_query_itself_is_not_listed_as_also_searched(conn):
    assert "リボーク" not in searching.search_page(conn, "リボーク")["also_searched"]


async def test_also_searched_on_the_page_and_in_json(datasette):
    data = (await datasette.client.get("/-/search.json?q=BIT")).json()
    assert data["also_searched"][0] == "躊躇" and data["results"][0]["id"] == "laws-2017-ja:16B1"
    page = (await datasette.client.get("/-/search?q=BIT")).text
    assert '次も検索しました: <a class="also" href="/-/search?q=%E8%BA%8A%E8%BA%87" lang="ja">躊躇</a>' in page


# ---------------------------------------------------------------- 3. ranking


def test_chinese_two_character_term_ranks_the_law_titled_with_it_in_the_top_five(conn):
    top = ids(searching.search(conn, "罚张", limit=5), "laws-1997-zh:")
    assert "50" in top
    assert "50" in ids(searching.search(conn, "罰張", limit=5), "laws-1997-zh:")  # traditional


def test_a_chinese_phrase_also_finds_units_missing_one_of_its_bigrams(conn):
    """越序叫牌 (call out of rotation): Law 31 越序实质叫牌 holds 越序 and 叫牌 but not 序叫."""
    results = searching.search(conn, "越序叫牌", lang="zh", limit=10)
    law_31 = next(r for r in results if r["id"] == "laws-1997-zh:31")
    assert law_31["match"] == "most" and results[0]["id"] == "laws-1997-zh:29"


def test_chinese_query_lists_chinese_units_first(conn):
    assert searching.search(conn, "罚张", limit=1)[0]["doc"] == "laws-1997-zh"


@pytest.mark.parametrize(
    "query, first",
    [
        ("見物人", "laws-2017-ja:76"),
        ("手順上のペナルティ", "laws-2017-ja:90"),
        ("紛失したカード", "laws-2017-ja:14"),
        ("明手的权利", "laws-1997-zh:42"),
    ],
)
def test_a_title_carrying_the_words_comes_first(conn, query, first):
    assert searching.search(conn, query, limit=1)[0]["id"] == first


def test_a_title_carries_the_words_when_it_holds_every_clause(conn):
    from laws_site.search.data import search_data

    data = search_data(conn)

    def titled(query):
        clauses = plan.make_branch(searching.search_data(conn), query, "ja").clauses
        return {data.units[rowid][0] for rowid, words in data.title_words.items() if plan.title_carries(words, clauses)}

    assert {"laws-2017-ja:62", "laws-2017-ja:62A"} <= titled("リボークの訂正")
    assert "laws-2017-ja:63" not in titled("リボークの訂正")  # リボークの成立: one word only
    assert {"jcbl-regs-ja:36", "jcbl-regs-ja:37"} <= titled("キャリオーバー")  # whole or in pieces


@pytest.mark.parametrize("query", ["リボークの訂正", "順番外のリード", "ペナルティカード", "リボーク", "revoke"])
def test_reprints_are_grouped_under_their_law(conn, query):
    results = searching.search(conn, query, limit=500)
    shown = {r["id"] for r in results}
    for result in results:
        assert not (
            result["kind"] == "quote"
            and result["reprint_of"] is None
            and f"laws-2017-ja:{result['ref'].removeprefix('quote:')}" in shown
        ), result["id"]
    law_62 = next(r for r in results if r["id"] == "laws-2017-ja:62") if query == "リボークの訂正" else None
    if law_62:
        assert [r["id"] for r in law_62["reprints"]] == ["revoke-notes-ja:quote:62"]
        assert results[0]["id"] == "laws-2017-ja:62"


# ---------------------------------------------------------------- 4. totals and paging


@pytest.mark.parametrize("query", ["リボーク", "藏牌", "dummy", "順番外"])
def test_pages_are_disjoint_and_add_up_to_the_total(conn, query):
    everything = searching.search_page(conn, query, limit=500)
    total = everything["total"]
    assert total == len(everything["results"]) > 20
    pages, offset = [], 0
    while offset < total:
        page = searching.search_page(conn, query, limit=20, offset=offset)
        assert page["total"] == total
        pages += [r["id"] for r in page["results"]]
        offset += 20
    assert pages == [r["id"] for r in everything["results"]]


async def test_json_next_url_walks_every_page_once(datasette):
    url, seen, total = "/-/search.json?q=" + quote("リボーク") + "&limit=20", [], None
    while url:
        data = (await datasette.client.get(url)).json()
        total = data["total"] if total is None else total
        assert data["total"] == total and data["count"] == len(data["results"]) <= 20
        seen += [r["id"] for r in data["results"]]
        url = data["next_url"] and data["next_url"].removeprefix("http://localhost")
    assert len(seen) == len(set(seen)) == total > 40


async def test_html_shows_the_range_and_previous_next(datasette):
    first = (await datasette.client.get("/-/search?q=" + quote("リボーク"))).text
    total = (await datasette.client.get("/-/search.json?q=" + quote("リボーク"))).json()["total"]
    assert f'「<span lang="ja">リボーク</span>」の検索結果 {total} 件中 1–20 件' in first
    assert '<a rel="next" href="/-/search?q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF&amp;offset=20">' in first
    assert 'rel="prev"' not in first
    second = (await datasette.client.get("/-/search?q=" + quote("リボーク") + "&offset=20")).text
    assert (
        f'「<span lang="ja">リボーク</span>」の検索結果 {total} 件中 21–40 件' in second
        and 'rel="prev" href="/-/search?q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF"' in second
    )


def test_cli_offset_gives_the_next_page(laws_db_path):
    runner = CliRunner()
    first = json.loads(
        runner.invoke(cli, ["search", "リボーク", "--json", "--limit", "5", "--db", str(laws_db_path)]).output
    )
    second = json.loads(
        runner.invoke(
            cli, ["search", "リボーク", "--json", "--limit", "5", "--offset", "5", "--db", str(laws_db_path)]
        ).output
    )
    both = json.loads(
        runner.invoke(cli, ["search", "リボーク", "--json", "--limit", "10", "--db", str(laws_db_path)]).output
    )
    assert [r["id"] for r in first["results"] + second["results"]] == [r["id"] for r in both["results"]]
    text = runner.invoke(cli, ["search", "リボーク", "--limit", "5", "--db", str(laws_db_path)]).output
    assert "(1-5 of " in text and "next: --offset 5)" in text and "【リボーク】" in text


# ---------------------------------------------------------------- 6. bad input

BAD = {
    "empty": {"q": ""},
    "spaces": {"q": "   "},
    "nul": {"q": "\x00"},
    "punctuation": {"q": "!?・、。"},
    "operators": {"q": "AND OR NOT"},
    "fts-syntax": {"q": '"*"()^'},
    "900-chars": {"q": "revoke " * 128 + "revo"},  # 900: past search's 500, within the site's 1,000 (asgi bounds)
    "superscript-limit": {"q": "リボーク", "limit": "²"},
    "5000-digit-limit": {"q": "リボーク", "limit": "9" * 5000},
    "5000-digit-offset": {"q": "リボーク", "offset": "1" * 5000},
    "negative-offset": {"q": "リボーク", "offset": "-1"},
    "zero-limit": {"q": "リボーク", "limit": "0"},
    "unknown-doc": {"q": "リボーク", "doc": "nope"},
}


@pytest.mark.parametrize("params", BAD.values(), ids=BAD.keys())
@pytest.mark.parametrize("path", ["/-/search", "/-/search.json"])
async def test_bad_input_is_a_helpful_400(datasette, path, params):
    query = "&".join(f"{key}={quote(value, safe='')}" for key, value in params.items())
    response = await datasette.client.get(f"{path}?{query}")
    if path == "/-/search" and not params["q"].strip("\x00 ") and len(params) == 1:
        assert response.status_code == 200 and 'name="q"' in response.text  # the bare form
        return
    assert response.status_code == 400, response.text[:300]
    if path.endswith(".json"):
        data = response.json()
        assert data["ok"] is False and data["status"] == 400 and data["title"] == "Invalid search"
        assert len(data["error"]) > 20 and "Traceback" not in data["error"]
    else:
        assert 'class="search-error" role="alert"' in response.text


async def test_too_long_query_says_how_long(datasette):
    data = (await datasette.client.get("/-/search.json?q=" + "x" * 900)).json()
    assert data["error"].startswith("The query is 900 characters long; search takes up to 500.")
    # longer than the site takes for any parameter: the request bounds answer before search runs
    data = (await datasette.client.get("/-/search.json?q=" + "x" * 10_001)).json()
    assert data["error"].startswith("q is 10,001 characters long; the limit is 10,000.")


@pytest.mark.parametrize("prefix", ["", "/en", "/zh"])
@pytest.mark.parametrize("typed", ["あ" * 5000, "<b>" * 1700])
async def test_a_refused_long_query_is_echoed_once_bounded_and_escaped(datasette, prefix, typed):
    """A 5,000-character query's 400 page weighed 277 KB: it sent the query back in the title, both
    search boxes, three alternate links and the language switcher. Now: a bounded prefix, escaped."""
    response = await datasette.client.get(f"{prefix}/-/search?q={quote(typed, safe='')}")
    assert response.status_code == 400 and 'class="search-error" role="alert"' in response.text
    assert len(response.content) < 20_000
    assert "<b>" not in response.text.split("<body", 1)[1]
    assert typed[:100].replace("<", "&lt;").replace(">", "&gt;") in response.text  # the box keeps its start
    # a search the site takes keeps its query in the language switcher's links
    kept = await datasette.client.get(f"{prefix}/-/search?q={quote('リボーク' * 100, safe='')}")
    assert kept.text.count(quote("リボーク" * 100)) >= 3


# ---------------------------------------------------------------- the read side reads laws.db only


def test_search_and_glossary_never_open_corpus_files(laws_db_path, monkeypatch):
    """With every file under corpus/ unreadable, a fresh load of the search data still answers,
    variants and vocabulary included (they come from tables written at build)."""
    from ingest.search import glossary
    from ingest.text import tokenize
    from laws_site.pages.glossary import glossary_rows
    from laws_site.search import data as search_data
    from laws_site.search import term_usage

    real_open = builtins.open

    def guarded(file, *args, **kwargs):
        if str(file).startswith(str(CORPUS)):
            raise AssertionError(f"opened {file} while serving")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", guarded)
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: guarded(self) and "")
    monkeypatch.setattr(search_data, "_loaded", {})
    monkeypatch.setattr(glossary, "_loaded", {})
    tokenize.use_variants({})
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    assert (
        searching.search(connection, "ディクレアラー予定者", limit=3)[0]["id"]
        == "laws-2017-ja:def:ディクレアラー予定者"
    )
    assert searching.search(connection, "LOOT", limit=1)[0]["id"] == "laws-2017-ja:53"
    assert term_usage.term_usage(connection, "ダミー")["total"] > 100
    assert len(glossary_rows(connection)) == 91


def test_search_data_loads_without_tokenizing(monkeypatch, laws_db_path):
    """The glossary terms and 索引 headings come with their tokens from table term_tokens: loading the
    search data runs no tokenizer (that touched ~60 MB more of the Sudachi dictionary per server)."""
    from ingest.search import glossary
    from ingest.text import tokenize
    from laws_site.search import data as search_data

    def refuse(*args, **kwargs):
        raise AssertionError(f"tokenized {args[:1]} while loading the search data")

    monkeypatch.setattr(search_data, "_loaded", {})
    monkeypatch.setattr(glossary, "_loaded", {})
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    with monkeypatch.context() as patched:
        for name in ("japanese_tokens", "query_terms", "index_tokens"):
            patched.setattr(tokenize, name, refuse)
        data = search_data.search_data(connection)
        entries = glossary.load_glossary(connection)
    assert len(data.index_entries) == 756  # of 788 entries, those citing a unit
    assert [e.ja for e in entries.lookup("ディクレアラー")] == ["ディクレアラー"]


def test_stored_term_tokens_are_what_the_tokenizer_makes(conn):
    """Every stored key equals a fresh tokenizing of its text, so the stored and the computed paths agree."""
    from ingest.search import glossary
    from ingest.search.tables import INDEX_TERMS
    from ingest.text import tokenize

    stored = glossary.stored_term_tokens(conn, glossary.GLOSSARY_KEYS)
    assert len(stored) == 90 and stored["ディクレアラー"] == glossary._ja_key("ディクレアラー")
    assert stored == {form: glossary._ja_key(form) for form in stored}
    index = glossary.stored_term_tokens(conn, INDEX_TERMS)
    assert len(index) == 788
    assert index == {words: " ".join(tokenize.query_terms(words, "ja")) for words in index}


def test_search_caches_follow_the_build_a_connection_reads(tmp_path, laws_db_path):
    """Two builds of the same corpus are two databases to the caches: each names its build."""
    import shutil
    import sqlite3

    from ingest.search.glossary import database_identity

    copy = tmp_path / "laws.db"
    shutil.copy(laws_db_path, copy)
    with sqlite3.connect(laws_db_path) as a, sqlite3.connect(copy) as b:
        assert database_identity(a) == database_identity(b)  # a copy is the same build
        b.execute("update build_info set value = 'another build' where key = 'build_id'")
        assert database_identity(a) != database_identity(b)
