"""Japanese words inside a Chinese or English page carry lang="ja": a screen reader reads them in a
Japanese voice and the browser picks a Japanese font (under /zh/ a Chinese font draws 索引 headings'
kanji in Chinese forms). The 索引's headings in result lists and backlinks, the words a result was found
by, the kana rows of the index page."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

KANA = re.compile(r"[\u3041-\u309f\u30a1-\u30fa\u30fc]")  # kana: Japanese, whatever the page's language
VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}


class KanaOutsideJapanese(HTMLParser):
    """Kana text inside an element of one of `classes` whose nearest lang is not ja."""

    def __init__(self, classes: set[str]):
        super().__init__()
        self.classes, self.open, self.found = classes, [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            found = dict(attrs)
            self.open.append((tag, found.get("lang"), set((found.get("class") or "").split())))

    def handle_endtag(self, tag):
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                del self.open[i:]
                return

    def handle_data(self, data):
        watched = any(classes & self.classes for _, _, classes in self.open)
        lang = next((lang for _, lang, _ in reversed(self.open) if lang is not None), None)
        if watched and lang != "ja" and KANA.search(data):
            self.found.append((data.strip(), [sorted(c) for _, _, c in self.open[-3:]]))


def kana_outside_japanese(html: str, classes: set[str]) -> list:
    parser = KanaOutsideJapanese(classes)
    parser.feed(html)
    return parser.found


PAGES = [
    # an index heading ("Index: ダミー") and a translation ("ダミー → 明手": 明手 is the 1997 Laws' Chinese)
    ("/en/-/search?q=%E3%83%80%E3%83%9F%E3%83%BC&limit=100", {"via", "label", "why"}),
    ("/zh/-/search?q=revoke", {"also-searched"}),  # 也搜索了: リボーク, 藏牌
    ("/zh/-/search?q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%B0", {"did-you-mean"}),  # リボーグ: did you mean リボーク
    ("/zh/-/search?q=revoke&limit=100", {"via", "label"}),  # 定义: 見せたカード names a Japanese definition
    ("/en/laws-2017-ja/61", {"backlinks"}),
    ("/zh/laws-2017-ja/61", {"backlinks"}),
    ("/en/laws-2017-ja/-/index", {"kana-rows"}),
    ("/en/-/citations", {"citation-matrix"}),  # the picture's tooltips: Part 3 ボードの準備とプレーの進行 → ...
    ("/zh/-/citations", {"citation-matrix"}),
]


@pytest.mark.parametrize("path, classes", PAGES, ids=[p for p, _ in PAGES])
async def test_japanese_inside_a_chinese_or_english_page_is_marked(datasette, path, classes):
    response = await datasette.client.get(path)
    assert response.status_code == 200
    assert any(f'class="{c}' in response.text for c in classes), "the page no longer shows what is checked"
    assert kana_outside_japanese(response.text, classes) == []


@pytest.mark.parametrize("prefix", ["/en", "/zh"])
async def test_the_words_a_result_was_found_by_are_in_the_result_s_language(datasette, prefix):
    html = (await datasette.client.get(f"{prefix}/-/search?q=revoke&limit=20")).text
    whys = re.findall(r'<span class="why"[^>]*>(.*?)</span>\s*(?=<|$)', html)
    assert whys and all('<span lang="ja">' in why or '<span lang="zh">' in why for why in whys), whys[:3]


@pytest.mark.parametrize(
    "query, languages",
    [
        ("ダミー", {"ダミー": "ja", "明手": "zh"}),  # 明手: the 1997 Laws' Chinese for dummy
        ("revoke", {"revoke": "en", "リボーク": "ja", "藏牌": "zh"}),
        ("罚牌", {"罚牌": "zh", "罚张": "zh"}),
        ("犹豫", {"犹豫": "zh"}),  # the vocabulary lists it as Chinese (it was marked ja, a guess from its kanji)
        ("有局", {"有局": "zh"}),
        ("点差", {"点差": "ja"}),
        ("64A1", {"64A1": None}),  # a citation is in no language: read in the page's, not in English
        ("L61A", {"L61A": None}),
        ("61Z", {"61Z": None}),  # a citation nobody holds, searched as text too
    ],
)
async def test_the_search_answer_says_which_language_each_word_it_shows_is_in(datasette, query, languages):
    """The words beside the results (also searched, did you mean) and the query: data, so that a page or a
    client marks them; the page's links carry it."""
    answer = (await datasette.client.get("/-/search.json", params={"q": query})).json()
    assert {word: answer["word_langs"].get(word) for word in languages} == languages
    html = (await datasette.client.get("/en/-/search", params={"q": query})).text
    for word in set(answer["also_searched"]) & set(languages) - {query}:
        assert re.search(rf'<a class="also" href="[^"]+" lang="{languages[word]}">{word}</a>', html), word


@pytest.mark.parametrize("prefix", ["", "/zh"])
@pytest.mark.parametrize("query", ["64A1", "L61A"])
async def test_a_citation_typed_is_not_marked_english(datasette, prefix, query):
    """A screen reader reads a lang="en" span with an English voice: 64A1 in a Japanese sentence is the
    page's language, not English."""
    html = (await datasette.client.get(f"{prefix}/-/search", params={"q": query, "list": "1"})).text
    assert "search-summary" in html and query in html
    assert f'<span lang="en">{query}</span>' not in html
