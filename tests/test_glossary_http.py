"""The glossary pages over HTTP (issue 14, items 4-6): a clean table whose Source column names and
links the unit each term comes from, JSON pages, and every term in context across the Japanese
and Chinese documents. Exact expectations on the session build."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

import pytest


async def get(datasette, path):
    return await datasette.client.get(path)


async def test_the_table_has_no_none_cells_and_one_row_per_english_term(datasette):
    html = (await get(datasette, "/-/glossary")).text
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html, re.S)
    assert cells and not [cell for cell in cells if cell.strip() in ("None", "none")]
    english = re.findall(r'<td lang="en">(.*?)</td>', html)
    assert len(english) == 91 and len(set(english)) == 91


async def test_the_source_column_names_and_links_the_unit(datasette):
    rows = (await get(datasette, "/-/glossary.json?q=dummy")).json()["rows"]
    assert [row["en"] for row in rows] == ["Dummy"]
    assert [(s["doc"], s["ref"], unquote(s["url"]), s["document"]) for s in rows[0]["sources"]] == [
        ("laws-2017-ja", "def:ダミー", "/laws-2017-ja/def:ダミー", "規則 2017"),
        ("laws-1997-zh", "def:明手", "/laws-1997-zh/def:明手", "规则 1997"),
    ]
    html = (await get(datasette, "/-/glossary?q=" + quote("リボーク"))).text
    sources = re.search(r'<td class="sources">(.*?)</td>', html, re.S).group(1)
    assert [unquote(href) for href in re.findall(r'href="([^"]+)"', sources)] == [
        "/laws-2017-ja/61A",
        "/laws-1997-zh/def:藏牌",
    ]
    assert '<a class="usage" href="/-/glossary/%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF">用例</a>' in html  # ja interface


@pytest.mark.parametrize(
    "typed, english", [("罰張", "Penalty Card"), ("ﾀﾞﾐｰ", "Dummy"), ("DUMMY", "Dummy"), ("ディクレアラー", "Declarer")]
)
async def test_the_filter_folds_like_search(datasette, typed, english):
    rows = (await get(datasette, "/-/glossary.json?q=" + quote(typed))).json()["rows"]
    assert english in [row["en"] for row in rows]


async def test_glossary_json_pages_like_search(datasette):
    url, seen = "/-/glossary.json?limit=30", []
    while url:
        data = (await get(datasette, url)).json()
        assert data["total"] == 91 and data["count"] == len(data["rows"]) <= 30
        seen += [row["id"] for row in data["rows"]]
        url = data["next_url"] and data["next_url"].removeprefix("http://localhost")
    assert len(seen) == len(set(seen)) == 91


@pytest.mark.parametrize(
    "path",
    [
        "/-/glossary?q=" + "a" * 50_001,
        "/-/glossary.json?q=" + "a" * 50_001,
        "/-/glossary.json?limit=%C2%B2",
        "/-/glossary.json?offset=" + "9" * 5000,
        "/-/glossary/" + "a" * 50_001 + ".json",
        "/-/glossary/%00.json",
    ],
)
async def test_bad_glossary_input_is_a_400_with_a_message(datasette, path):
    response = await get(datasette, path)
    assert response.status_code == 400
    if ".json" in path:
        data = response.json()
        assert data["ok"] is False and data["status"] == 400 and data["error"]
    else:  # the page's own message, or (a filter too long to quote, issue 21) the site's error page
        assert 'role="alert"' in response.text or 'class="error-page' in response.text


# ---------------------------------------------------------------- 5. the term in context


async def test_a_term_in_context_across_documents_and_languages(datasette):
    data = (await get(datasette, "/-/glossary/" + quote("ダミー") + ".json")).json()
    assert data["entry"] == {"id": "definition:dummy", "ja": "ダミー", "en": "Dummy", "zh": "明手"}
    assert data["forms"] == {"ja": ["ダミー"], "zh": ["明手"]}
    assert [(g["doc"], g["lang"]) for g in data["groups"]] == [
        ("laws-2017-ja", "ja"),
        ("laws-1997-zh", "zh"),
        ("revoke-notes-ja", "ja"),
        ("out-of-turn-notes-ja", "ja"),
        ("jcbl-regs-ja", "ja"),
    ]
    assert data["total"] == len(data["usages"]) == sum(g["count"] for g in data["groups"])
    assert len({u["id"] for u in data["usages"]}) == data["total"]
    for usage in data["usages"]:
        word = "ダミー" if usage["lang"] == "ja" else "明手"
        assert {"text": word, "mark": True} in usage["spans"], usage
        assert word in usage["context"] and "".join(s["text"] for s in usage["spans"]) == usage["context"]
        assert usage["url"] == "/" + usage["doc"] + "/" + quote(usage["ref"], safe="()-,:~")
    first, second = data["usages"][:2]  # reading order; the sentence around the first occurrence
    assert (first["id"], first["context"], first["occurrences"]) == (
        "laws-2017-ja:def:ダミー",
        "オープニングリードが表向きになるとダミーになり、プレイが終了するとダミーではなくなる。",
        2,
    )
    assert second["id"] == "laws-2017-ja:7B3" and second["context"].startswith("…") and second["context"].endswith("。")


async def test_the_same_term_from_any_of_its_words(datasette):
    totals = {
        (await get(datasette, "/-/glossary/" + quote(word) + ".json")).json()["total"]
        for word in ("ダミー", "dummy", "Dummy", "明手")
    }
    assert len(totals) == 1 and totals.pop() > 150


async def test_spelling_variants_are_found_and_marked_as_printed(datasette):
    data = (await get(datasette, "/-/glossary/" + quote("ディクレアラー") + ".json")).json()
    marked = {span["text"] for usage in data["usages"] for span in usage["spans"] if span["mark"]}
    # the spellings each book prints; the garbled ディクレアララー / ディクレアラール are corrected by
    # the errata of laws-2017-ja and of the revoke notes alike, so no usage prints them now
    assert {"ディクレアラー", "ディクレアラ", "庄家"} <= marked
    assert not {"ディクレアララー", "ディクレアラール", "ディクレーラー"} & marked


async def test_the_term_page_groups_by_document(datasette):
    html = (await get(datasette, "/-/glossary/" + quote("明手"))).text
    assert '<section class="usage-group" lang="zh">' in html and "<mark>明手</mark>" in html
    assert '<section class="usage-group" lang="ja">' in html and "<mark>ダミー</mark>" in html


async def test_a_vocabulary_word_opens_its_glossary_term(datasette):
    data = (await get(datasette, "/-/glossary/LOOT.json")).json()
    assert data["entry"]["id"] == "curated:leadoutofturn" and data["forms"] == {
        "ja": ["順番外のリード"],
        "zh": ["越序引牌"],
    }
    assert "laws-2017-ja:53A" in {u["id"] for u in data["usages"]}


async def test_an_unknown_term_is_a_404_with_close_terms(datasette):
    response = await get(datasette, "/-/glossary/" + quote("ペナルティカーズ") + ".json")
    assert response.status_code == 404
    assert response.json()["suggestions"][0]["term"] == "ペナルティカード"


@pytest.mark.parametrize(
    "unit, term", [("/laws-2017-ja/def:" + quote("ダミー"), "ダミー"), ("/laws-1997-zh/def:" + quote("藏牌"), "藏牌")]
)
async def test_each_definition_links_to_its_term_in_context(datasette, unit, term):
    html = (await get(datasette, unit)).text
    link = re.search(r'<a class="term-usage" href="([^"]+)">', html).group(1)
    assert unquote(link) == f"/-/glossary/{term}"
    assert (await get(datasette, link)).status_code == 200


async def test_the_whole_glossary_page_can_be_filtered_in_place_offline(datasette):
    """Offline the copy holds the whole glossary's page, not a filtered one: the page says it holds every row
    and where the offline search's folding is (site.js filters its rows with it; tests/test_offline_reading_browser.py)."""
    html = (await get(datasette, "/zh/-/glossary")).text
    assert '<table class="glossary" data-complete="">' in html
    assert re.search(
        r'<form class="glossary-filter" action="/zh/-/glossary" method="get" data-engine="[^"]*/offline-search-text\.js [^"]*/offline-search\.js">',
        html,
    )
    assert 'data-filtered="共 {total} 个术语，显示 {shown} 个"' in html
    filtered = (await get(datasette, "/-/glossary?q=dummy")).text
    assert "data-complete" not in filtered  # a filtered page holds some rows only


async def test_a_term_in_context_pages_as_the_api_documents(datasette):
    """docs/api.md pages the term's JSON with limit and offset; they were once ignored (every
    usage, whatever was asked) and a bad value answered 200."""
    path = "/-/glossary/" + quote("ダミー") + ".json"
    whole = (await get(datasette, path)).json()
    first = (await get(datasette, path + "?limit=2")).json()
    assert (first["count"], first["offset"], first["limit"]) == (2, 0, 2)
    assert first["usages"] == whole["usages"][:2] and first["total"] == whole["total"] > 2
    assert first["next_url"].endswith("?limit=2&offset=2") and first["previous_url"] is None
    second = (await get(datasette, first["next_url"])).json()
    assert second["usages"] == whole["usages"][2:4] and second["previous_url"].endswith("?limit=2")
    last = (await get(datasette, path + f"?offset={whole['total'] - 1}")).json()
    assert last["usages"] == whole["usages"][-1:] and last["next_url"] is None and last["limit"] is None
    for bad in ("limit=abc", "limit=0", "limit=-1", "offset=abc", "limit=501"):
        response = await get(datasette, path + "?" + bad)
        assert response.status_code == 400, bad
        assert response.json()["error"].startswith(bad.split("=")[0] + " must be a whole number"), bad
