"""Small things the pages show, found by using the site as a director does (qa13): the footer's
software version, the tab's icon (which the offline copy and a static export must be able to
answer), the search summary naming the query as typed in each interface language, and no link to
a law the Laws lack."""

from __future__ import annotations

import re

import pytest
from datasette.version import __version__ as datasette_version

PAGES = ["/", "/laws-2017-ja/61B", "/-/search?q=revoke", "/-/glossary", "/-/guides/revoke", "/-/history/61"]


@pytest.mark.parametrize("path", PAGES)
async def test_the_footer_names_the_datasette_version(datasette, path):
    html = (await datasette.client.get(path)).text
    assert f'title="Datasette v{datasette_version}"' in html  # was "Datasette v" on the site's own pages


@pytest.mark.parametrize("prefix", ["", "/zh", "/en"])
@pytest.mark.parametrize("path", PAGES)
async def test_every_page_names_its_icon_so_no_browser_asks_for_favicon_ico(datasette, prefix, path):
    """Without a rel=icon the browser asks for /favicon.ico: Datasette's logo online, a 503 offline
    (the worker has no copy) and a 404 from a static export (it writes none)."""
    html = (await datasette.client.get(prefix + path)).text
    icon = re.search(r'<link rel="icon" type="image/png" sizes="192x192" href="([^"]+)">', html)
    assert icon, "no rel=icon in the head"
    assert icon.group(1).startswith("/-/static-plugins/bridge-laws/icon-192.png?v=")
    served = await datasette.client.get(icon.group(1))
    assert served.status_code == 200 and served.headers["content-type"] == "image/png"


@pytest.mark.parametrize(
    "prefix, summary",
    [
        # the query in its own language (lang="en" inside a Japanese or Chinese sentence)
        ("", r'「<span lang="en">declarer claimed</span>」の検索結果 [\d,]+ 件中 1–20 件'),
        ("/zh", r'“<span lang="en">declarer claimed</span>”的搜索结果：共 [\d,]+ 条'),
        ("/en", r'1–20 of [\d,]+ for “<span lang="en">declarer claimed</span>”'),  # a sentence typed reads as one
    ],
)
async def test_the_search_summary_quotes_the_query_in_every_language(datasette, prefix, summary):
    html = (await datasette.client.get(prefix + "/-/search?q=declarer%20claimed")).text
    shown = re.search(r'<p class="search-summary">(.*?)</p>', html, re.S).group(1)
    assert re.search(summary, shown), shown


async def test_a_pair_with_a_law_the_laws_lack_selects_nothing(datasette):
    """/-/citations?from=61&to=999 once showed '第61条 → <a href="/laws-2017-ja/999"></a>' (an empty link
    to a missing page) and 'Law 61 does not cite Law 999'; a pair of real laws still shows."""
    html = (await datasette.client.get("/-/citations?from=61&to=999")).text
    assert 'class="selected-pair"' not in html and "/laws-2017-ja/999" not in html
    assert (await datasette.client.get("/-/citations.json?from=999&to=61")).json()["selected"] is None
    real = (await datasette.client.get("/-/citations.json?from=61&to=44")).json()["selected"]
    assert real["to_title"] and [u["ref"] for u in real["units"]] == ["61A"]


@pytest.mark.parametrize(
    "prefix, name",
    [("", "規則 2017: 第61条B項"), ("/zh", "规则 2017: 第61条B款"), ("/en", "Laws 2017: Law 61B")],
)
async def test_a_provision_past_the_end_of_the_1997_text_offers_the_current_laws_first(datasette, prefix, name):
    """The corpus's 1997 text stops inside Law 52A: /laws-1997-zh/61B offered only 51B2, 51B1, 41...,
    though 規則 2017 has 61B; now that comes first, named with its document. In any spelling."""
    for typed in ("61B", "%E7%AC%AC61%E6%9D%A1B%E9%A0%85"):  # 第61条B項
        response = await datasette.client.get(f"{prefix}/laws-1997-zh/{typed}")
        assert response.status_code == 404
        first = re.search(r'<ul class="suggestions">\s*<li><a href="([^"]+)">([^<]+)</a>', response.text)
        assert first.groups() == (f"{prefix}/laws-2017-ja/61B", name)
    data = (await datasette.client.get("/laws-1997-zh/61B.json")).json()
    assert data["suggestions"][0] == {
        "label": "61B",
        "url": "/laws-2017-ja/61B",
        "name": "規則 2017: 第61条B項",
        "doc": "laws-2017-ja",
    }
    assert data["suggestions"][1]["url"].startswith("/laws-1997-zh/")  # the 1997 text's own nearest follow
    # the current Laws' own missing units, and refs no edition has, offer no other document
    for path in ("/laws-2017-ja/99Z.json", "/laws-1997-zh/999.json", "/revoke-notes-ja/999.json"):
        suggestions = (await datasette.client.get(path)).json()["suggestions"]
        assert all(s["url"].startswith(path.rsplit("/", 1)[0] + "/") for s in suggestions), path


@pytest.mark.parametrize(
    "typed, shown", [("%20%20", ""), ("%00", ""), ("%01%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF%00", "リボーク")]
)
async def test_the_search_page_shows_the_query_as_searched(datasette, typed, shown):
    """Blank or control characters only: the empty form, as /-/search.json's 400 'Give a query' (it
    said 「  」に一致する結果はありません); control characters never stand raw in the title or the boxes."""
    html = (await datasette.client.get("/-/search?q=" + typed)).text
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert title == (f"{shown} – 検索" if shown else "検索")
    assert set(re.findall(r'name="q" value="([^"]*)"', html)) <= {shown}
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", html)
    assert ('class="no-results"' in html) is False


@pytest.mark.parametrize(
    "prefix, header, home",
    [
        ("", "リボーク · 藏牌 · 61B2(a)", "リボーク · 藏牌 · 64A1 · 第16条B項1"),
        ("/zh", "藏牌 · 罚牌 · 61B2(a)", "藏牌 · 罚牌 · 64A1 · 第16条B款1"),
        ("/en", "revoke · penalty card · 61B2(a)", "revoke · penalty card · 64A1 · Law 16B1"),
    ],
)
async def test_the_search_boxes_suggest_what_a_reader_of_the_interface_types(datasette, prefix, header, home):
    """The English interface showed only Japanese and Chinese examples, though English words and
    sentences find the Laws; each example is one the search answers (test below)."""
    html = (await datasette.client.get(prefix + "/")).text
    assert f'id="site-search-q" name="q" value="" placeholder="{header}"' in html
    assert f'placeholder="{home}" autofocus' in html


@pytest.mark.parametrize(
    "typed, found",
    [("第16条B款1", "/laws-2017-ja/16B1"), ("Law 16B1", "/laws-2017-ja/16B1"), ("64A1", "/laws-2017-ja/64A1")],
)
async def test_the_example_citations_open_their_units(datasette, typed, found):
    response = await datasette.client.get("/-/search", params={"q": typed})
    assert response.status_code == 302 and response.headers["location"].startswith(found + "?")


REVOKE_LAWS, PENALTY_CARD_LAWS = {"61", "62", "63", "64"}, {"50", "51", "52"}


@pytest.mark.parametrize(
    "typed, laws",
    [("penalty card", PENALTY_CARD_LAWS), ("罚牌", PENALTY_CARD_LAWS), ("revoke", REVOKE_LAWS), ("藏牌", REVOKE_LAWS)],
)
async def test_the_example_words_find_their_laws(datasette, typed, laws):
    results = (await datasette.client.get("/-/search.json", params={"q": typed})).json()["results"]
    top = [str(r["law"]) for r in results[:5]]  # in either edition: 罚牌 finds the 1997 text's 50-52 first
    assert laws & set(top), top


@pytest.mark.parametrize("prefix, index", [("", "索引"), ("/zh", "索引"), ("/en", "Index")])
async def test_the_offline_not_available_page_links_in_the_interface_language(datasette, prefix, index):
    """The offline page's 'Not available offline' links said 索引 in the English interface too."""
    html = (await datasette.client.get(prefix + "/-/offline/page")).text
    block = re.search(r'<div id="offline-unavailable" hidden>(.*?)</div>', html, re.S).group(1)
    assert f'<a href="{prefix}/laws-2017-ja/-/index">{index}</a>' in block


@pytest.mark.parametrize("prefix", ["", "/zh", "/en"])
async def test_search_results_mark_the_documents_words_with_their_language(datasette, prefix):
    """A result's title, context and snippet are the document's words: lang="ja" or "zh" as on the unit
    pages (site.css picks the font by [lang]: Japanese showed in the Chinese font under /zh/, Chinese in
    the Japanese one at the root); the label ("Law 61B") stays in the interface's language, but for the
    document's words it names a unit by (定義: <span lang="zh">藏牌</span>)."""
    html = (await datasette.client.get(prefix + "/-/search?q=revoke")).text
    label = r'<span class="label">(?:[^<]|<span lang="\w+">[^<]*</span>)*</span>'
    # a result without a title has no title mark (no empty <span lang>)
    items = re.findall(
        r'<li><a href="[^"]+">' + label + r'(?:<span lang="(\w+)">[^<]+</span>)?</a>.*?</li>', html, re.S
    )
    snippets = re.findall(r'<div class="snippet" lang="(\w+)">', html)
    assert len(items) == len(snippets) == html.count('<div class="snippet"') > 5
    assert set(snippets) == {"ja", "zh"}  # 藏牌's definition in the 1997 text among them
    assert set(items) - {""} <= set(snippets)
    chinese = re.search(r'href="[^"]*/laws-1997-zh/def:%E8%97%8F%E7%89%8C">.*?</li>', html, re.S).group(0)
    named = chinese.split("</a>")[0]  # its label and title: 藏牌 marked zh but on the Chinese page (zh already)
    assert (prefix == "/zh" or '<span lang="zh">藏牌</span>' in named) and '<div class="snippet" lang="zh">' in chinese
    if not prefix:
        assert '<span class="label">定義: <span lang="zh">藏牌</span></span>' in chinese


@pytest.mark.parametrize(
    "path, english, japanese",
    [
        ("/-/glossary/zzz", "“zzz” is not in the glossary", "「zzz」は用語集にも"),
        ("/laws-2017-ja/-/index?row=x", "“x” is not a kana", "「x」はかなではありません"),
    ],
)
async def test_english_messages_quote_with_english_marks(datasette, path, english, japanese):
    """English sentences quoted the reader's word in Japanese brackets (「zzz」 is not in the glossary)."""
    assert english in (await datasette.client.get("/en" + path)).text
    assert japanese in (await datasette.client.get(path)).text
    if path.startswith("/-/glossary/"):
        assert (await datasette.client.get(path + ".json")).json()["error"].startswith(english)


@pytest.mark.parametrize("typed, shown", [("%F0%9F%98%80", "😀"), ("%E7%AC%AC61%E6%9D%A1%E3%81%AE", "第61条の")])
async def test_the_history_error_names_what_was_typed(datasette, typed, shown):
    """/-/history/😀 said 「%F0%9F%98%80」は 16 や 72 のような条番号ではありません: the address's encoding."""
    page = await datasette.client.get(f"/-/history/{typed}")
    assert page.status_code == 404 and f"「{shown}」は 16 や 72 のような条番号ではありません" in page.text
    data = (await datasette.client.get(f"/-/history/{typed}.json")).json()
    assert data["error"] == f"'{shown}' is not a law number like 16 or 72"


@pytest.mark.parametrize(
    "prefix, none, search",
    [
        ("", "「ためらい」を含む用語は用語集にありません。", "規則から「ためらい」を検索 →"),
        ("/zh", "术语表中没有包含“ためらい”的术语。", "在规则中搜索“ためらい” →"),
        ("/en", "No term in the glossary contains “ためらい”.", "Search the Laws for “ためらい” →"),
    ],
)
async def test_a_glossary_filter_nothing_matches_offers_the_search(datasette, prefix, none, search):
    """'0 terms' over an empty table was all a director got for a word no term holds; the Laws may
    still hold it (ためらい finds 16B1's 躊躇 through the vocabulary)."""
    html = (await datasette.client.get(prefix + "/-/glossary?q=%E3%81%9F%E3%82%81%E3%82%89%E3%81%84")).text
    assert none in html and '<table class="glossary"' not in html
    link = f'<a href="{prefix}/-/search?q=%E3%81%9F%E3%82%81%E3%82%89%E3%81%84">{search}</a>'
    assert link in html
    found = (await datasette.client.get("/-/search.json?q=%E3%81%9F%E3%82%81%E3%82%89%E3%81%84")).json()
    assert found["total"] > 0
    matched = (await datasette.client.get(prefix + "/-/glossary?q=dummy")).text  # a match keeps its table
    assert '<table class="glossary"' in matched and "glossary-none" not in matched


async def test_an_index_row_that_is_no_kana_is_a_400_in_json(datasette):
    """/laws-2017-ja/-/index.json?row=zzz answered 200 with every row (and "row": null), silently; the
    page says “zzz” is not a kana beside every row, and keeps doing so."""
    response = await datasette.client.get("/laws-2017-ja/-/index.json?row=zzz")
    assert response.status_code == 400
    assert response.json()["error"].startswith("row='zzz' is not a kana")
    page = await datasette.client.get("/en/laws-2017-ja/-/index?row=zzz")
    assert page.status_code == 200 and "“zzz” is not a kana" in page.text
    row = (await datasette.client.get("/laws-2017-ja/-/index.json?row=%E3%82%8A")).json()  # り: the ら row
    assert [r["row"] for r in row["rows"]] == ["ら"]


@pytest.mark.parametrize(
    "typed, target",
    [
        ("61A", "/-/history/61#h-61A"),
        ("%E7%AC%AC61%E6%9D%A1B%E9%A0%852", "/-/history/61#h-61B2"),  # 第61条B項2
        ("61B2(a)", "/-/history/61#h-61B2(a)"),
        ("61A.json", "/-/history/61.json"),
    ],
)
async def test_a_section_typed_for_a_history_opens_its_laws_history_at_its_row(datasette, typed, target):
    """/-/history/61A answered 404 '61A is not a law number', though the search box opens 61A."""
    response = await datasette.client.get("/-/history/" + typed)
    assert response.status_code == 302 and response.headers["location"] == target
    row = target.split("#h-")[-1] if "#" in target else None
    if row:
        assert f'id="h-{row}"' in (await datasette.client.get(target.split("#")[0])).text
    english = await datasette.client.get("/en/-/history/" + typed)
    assert english.headers["location"] == ("" if typed.endswith(".json") else "/en") + target  # JSON has no prefix


@pytest.mark.parametrize("typed", ["16x", "99Z", "61Z"])
async def test_a_section_no_edition_has_is_still_named_in_the_history_error(datasette, typed):
    response = await datasette.client.get(f"/-/history/{typed}.json")
    assert response.status_code == 404 and response.json()["error"] == f"'{typed}' is not a law number like 16 or 72"
