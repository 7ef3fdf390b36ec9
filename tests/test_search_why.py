"""Why each result was found (issue 36 item 3, laws_site/search/why.py): the words of the query it holds
and through which expansion, the same online and offline (tests/test_search_parity.py compares it for
every query), shown in the interface language (templates/_search_results.html)."""

from __future__ import annotations

import re
import sqlite3
from urllib.parse import quote

import pytest

from laws_site.search import engine as searching
from laws_site.search.data import search_data
from laws_site.search.hits import load_hits
from laws_site.search.plan import make_plan
from laws_site.search.presentation import present


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    yield connection
    connection.close()


def why_of(conn, query: str, unit: str, **options) -> dict | None:
    """The why of `unit` among the first 50 results of `query` (it must be there)."""
    results = searching.search_page(conn, query, limit=50, **options)["results"]
    found = {result["id"]: result["why"] for result in results}
    assert unit in found, f"{unit} is not in the first 50 results of {query}"
    return found[unit]


def test_a_citation_needs_no_why(conn):
    results = searching.search_page(conn, "64A1", limit=10)["results"]
    assert [r["match"] for r in results[:1]] == ["citation"]
    assert all(r["why"] is None for r in results)


def test_a_keyword_found_as_typed_needs_no_why(conn):
    assert why_of(conn, "リボーク", "laws-2017-ja:61") is None


@pytest.mark.parametrize(
    ("query", "unit", "why"),
    [
        ("revoek", "laws-2017-ja:61", {"from": "revoek", "sign": "≈", "words": ["リボーク"]}),  # a typo corrected
        ("ribooku", "laws-2017-ja:61", {"from": "ribooku", "sign": "→", "words": ["リボーク"]}),  # romaji
        ("罚牌", "laws-1997-zh:50", {"from": "罚牌", "sign": "≈", "words": ["罚张"]}),  # a Chinese variant
        (
            "penaruti kaado",
            "laws-2017-ja:50",
            {"from": "penaruti kaado", "sign": "→", "words": ["penalty card"]},  # its English sound-alike
        ),
    ],
    ids=["typo", "romaji", "zh-variant", "sound"],
)
def test_a_forgiving_expansion_says_what_was_searched_instead(conn, query, unit, why):
    assert why_of(conn, query, unit) == why


@pytest.mark.parametrize(
    ("query", "options", "unit", "why"),
    [
        ("revoke", {}, "laws-2017-ja:61", {"from": "revoke", "sign": "→", "words": ["リボーク"]}),  # English
        ("藏牌", {"lang": "ja"}, "laws-2017-ja:61", {"from": "藏牌", "sign": "→", "words": ["リボーク"]}),  # Chinese
    ],
    ids=["en", "zh"],
)
def test_a_translated_query_names_the_word_of_the_text(conn, query, options, unit, why):
    assert why_of(conn, query, unit, **options) == why


@pytest.mark.parametrize(
    "query, interface, typed",
    [
        ("partner hesitated then bid", "en", "partner · hesitated"),  # not "bid": 16B1 prints no ビッド
        ("同伴犹豫后叫牌", "zh", "同伴 · 犹豫 · 叫牌"),
        ("Partner  HESITATED then bid", "en", "partner · hesitated"),  # as written: its words, read
    ],
)
def test_a_translated_sentence_names_the_directors_own_words_the_unit_holds(conn, query, interface, typed):
    """A Chinese or English sentence read in the Laws' Japanese words: the result names the terms of the
    query it holds, as the director wrote them, beside the Japanese words (a reader of English or
    Chinese sees which of their words the law holds, not only パートナー · 躊躇)."""
    why = why_of(conn, query, "laws-2017-ja:16B1", interface=interface)
    assert why["from"] == typed and why["sign"] == "→"
    assert "躊躇" in why["words"] and "パートナー" in why["words"]


@pytest.mark.parametrize("query", ["defender dropped <> a card face up"])
def test_a_term_is_named_by_its_words_not_by_what_stands_between_them(conn, query):
    why = why_of(conn, query, "laws-2017-ja:49", interface="en")
    assert "dropped a card" in why["from"] and "<>" not in why["from"]


@pytest.mark.parametrize(
    "query, interface, unit, unnamed",
    [
        # "wrong way" reads トリックの並べ方 · 縦向き · 横向き: 65B3 holds none of them whole, so its 向き is no
        # word of the director's situation
        ("he put his card down the wrong way", "en", "laws-2017-ja:65B3", "向き"),
        ("墩牌放错方向 已经出了下一墩", "zh", "laws-2017-ja:65B3", "向き"),
        ("叫牌过程中亮出了一张A", "zh", "laws-2017-ja:24", "オークション"),
    ],
)
def test_a_snippet_marks_only_the_words_its_why_names(conn, query, interface, unit, unnamed):
    """A result found for some of the words, or through a translation, marks the words of the clauses it
    holds - what its why names - not each word of a clause it holds in part; and so for every such result
    of every judged situation (another surface of a named word, 呼ぶ for 呼ん, counts as named)."""
    results = {r["id"]: r for r in searching.search_page(conn, query, limit=10, interface=interface)["results"]}
    assert unit in results, f"{unit} is not in the first 10 results of {query}"
    marks = [span["text"] for span in results[unit]["snippet"] if span["mark"]]
    assert marks and unnamed not in marks, (marks, results[unit]["why"])


def test_every_situations_snippet_marks_what_its_why_names(conn):
    from benchmarks.situations import load
    from laws_site.search.why import MAX_WORDS

    norm = dict(conn.execute("select surface, norm from search_lexicon"))
    unnamed = []
    for situation in load():
        for result in searching.search_page(conn, situation.query, limit=5, interface=situation.lang)["results"]:
            why = result["why"]
            # a why names at most MAX_WORDS words; an expansion the unit holds whole is named whole
            if not why or len(why["words"]) >= MAX_WORDS or why["words"] == [result["via"]]:
                continue
            named = {norm.get(word, word) for word in why["words"]} | set(why["words"])
            marks = {span["text"] for span in result["snippet"] if span["mark"]}
            unnamed += [(situation.query, result["id"], m) for m in marks if norm.get(m, m) not in named]
    assert not unnamed, unnamed[:10]


def test_a_sentence_matched_by_coverage_lists_the_content_words_each_unit_holds(conn, laws_db_path):
    """The words as 54A prints them, in its order: not the light words (した, ようと) of the sentence."""
    sentence = "ダミーがディクレアラーの間違ったハンドからのリードを止めようとした"
    data = search_data(conn)
    branch = make_plan(data, sentence, "ja").branches[0]
    hit = load_hits(data, ["laws-2017-ja:54A"])["laws-2017-ja:54A"]
    hit.branch, hit.match = branch, "any"
    (result,) = present(conn, data, [hit], sentence)
    assert result["why"] == {"from": None, "sign": None, "words": ["リード", "ディクレアラー", "ハンド", "ダミー"]}
    hit.match = "all"  # a unit holding every word: nothing to explain
    assert present(conn, data, [hit], sentence)[0]["why"] is None


@pytest.mark.parametrize(
    ("prefix", "shown"),
    # the words found in the unit's language (lang="ja" inside a Chinese or English sentence), the typed ones in theirs
    [
        ("", '「<span lang="en">revoek</span>」≈「<span lang="ja">リボーク</span>」'),
        ("/zh", '“<span lang="en">revoek</span>”≈“<span lang="ja">リボーク</span>”'),
        ("/en", '<span lang="en">revoek</span> ≈ <span lang="ja">リボーク</span>'),
    ],
    ids=["ja", "zh", "en"],
)
async def test_the_page_shows_why_in_the_interface_language(datasette, prefix, shown):
    html = (await datasette.client.get(f"{prefix}/-/search?q=revoek")).text
    whys = re.findall(r'<span class="why" title="[^"]+">((?:[^<]|<span lang="[a-z]+">[^<]*</span>)*)</span>', html)
    assert whys and whys[0] == shown.replace("&", "&amp;")
    coverage = (
        await datasette.client.get(f"{prefix}/-/search?q=" + quote("パートナーが長考した後にパス、そのあとのビッド"))
    ).text
    matched = {"": "一致: ", "/zh": "匹配：", "/en": "Matched: "}[prefix]
    assert re.search(r'<span class="why" title="[^"]+">' + matched + r'<span lang="ja">[^<]*パス', coverage)


async def test_the_offline_page_holds_the_same_parts_with_slots(datasette):
    """The why parts offline-search.js fills: the search page's markup and wording (_search_results.html)."""
    html = (await datasette.client.get("/en/-/offline/page")).text
    parts = dict(re.findall(r'<template data-part="(why-[a-z]+)">(.*?)</template>', html))
    title = ' title="Why this result was found"'
    assert parts == {
        "why-matched": f' <span class="why"{title}>Matched: <span lang="{{lang}}">{{words}}</span></span>',
        "why-sentence": f' <span class="why"{title}>→ <span lang="{{lang}}">{{words}}</span></span>',
        "why-same": f' <span class="why"{title}><span lang="{{typedlang}}">{{from}}</span> ≈ <span lang="{{lang}}">{{words}}</span></span>',
        "why-arrow": f' <span class="why"{title}><span lang="{{typedlang}}">{{from}}</span> → <span lang="{{lang}}">{{words}}</span></span>',
        "why-through": '<span lang="{typedlang}">{typed}</span> → {word}',
    }


@pytest.mark.parametrize(
    ("query", "unit", "why"),
    [
        # the query as typed, 故意 held for わざと (its neighbour): not a bare "Matched: 故意" nobody typed
        (
            "わざと止めた",
            "laws-2017-ja:72B1",
            {"from": None, "sign": None, "words": ["故意"], "through": {"故意": "わざと"}},
        ),
        # every word held, one only through the Laws' word for it: a why where there was none
        (
            "ためらい",
            "laws-2017-ja:73D2",
            {"from": None, "sign": None, "words": ["躊躇"], "through": {"躊躇": "ためらい"}},
        ),
        (
            "パートナーがためらった",
            "laws-2017-ja:16B1",
            {"from": None, "sign": None, "words": ["パートナー", "躊躇"], "through": {"躊躇": "ためらった"}},
        ),
        (
            "ためらってパス",
            "laws-2017-ja:73D2",
            {"from": None, "sign": None, "words": ["躊躇"], "through": {"躊躇": "ためらって"}},
        ),
        # a katakana compound as typed, not its search key (ビツドボツクス)
        (
            "ビッドボックスから違うカードを出してしまった すぐ直したい",
            "laws-2017-ja:25A2",
            {
                "from": None,
                "sign": None,
                "words": ["ビディングカード"],
                "through": {"ビディングカード": "ビッドボックス"},
            },
        ),
    ],
    ids=["some-words", "one-word", "every-word", "inflected", "katakana-compound"],
)
def test_a_word_found_through_the_laws_word_for_a_typed_one_says_so(conn, query, unit, why):
    assert why_of(conn, query, unit) == why


@pytest.mark.parametrize(
    ("prefix", "shown"),
    [
        ("", '一致: <span lang="ja">「<span lang="ja">わざと</span>」→「故意」</span>'),
        ("/en", 'Matched: <span lang="ja"><span lang="ja">わざと</span> → 故意</span>'),
    ],
    ids=["ja", "en"],
)
async def test_the_page_names_the_typed_word_a_word_was_found_through(datasette, prefix, shown):
    html = (await datasette.client.get(f"{prefix}/-/search?q=" + quote("わざと止めた"))).text
    assert shown in html


@pytest.mark.parametrize(
    "query, interface",
    [
        ("パートナーが長考した後にパス、そのあとのビッド", "ja"),  # 長考 reads 明白な躊躇: not its な
        ("opponents explained the bid wrongly, can I change my call", "en"),  # コール in Law 75's title only
        ("同伴犹豫后叫牌", "zh"),
        ("ダミーがディクレアラーの間違ったハンドからのリードを止めようとした", "ja"),
    ],
)
def test_every_word_a_why_names_is_printed_in_the_unit(conn, query, interface):
    """A why names words as printed: never a particle from inside a phrase the query was read as (な of
    明白な躊躇, which nearly every unit prints), never a search form (コル for コール, パトナ)."""
    results = searching.search_page(conn, query, limit=20, interface=interface)["results"]
    named = [(r["id"], w) for r in results if r["why"] for w in r["why"]["words"]]
    assert named
    printed = {
        unit: (title or "") + (text or "")
        for unit, title, text in conn.execute(
            f"select id, title, text from sections where id in ({','.join('?' * len(results))})",
            [r["id"] for r in results],
        )
    }
    corpus = dict(conn.execute("select surface, dropped from search_lexicon where count > 0"))
    # in the unit's text, or (a word of its title only: 75's 間違い named 間違っ) a word as the corpus prints it
    assert all(word in printed[unit] or word in corpus for unit, word in named), named
    assert not [word for _, word in named if corpus.get(word)], named  # no particle or auxiliary


@pytest.mark.parametrize(
    "query, interface, term",
    [
        ("penalty cards returned to hand", "en", "penalty cards"),  # it said "returned · hand → ペナルティカード · …"
        ("庄家禁止首攻罚牌的花色", "zh", "罚牌"),
    ],
)
def test_a_sentence_names_the_term_it_read_as_a_compound(conn, query, interface, term):
    """ペナルティカード is one clause (its key the compound, spelt ペナルティ カード too): a term read as it is named
    among the director's words when the unit holds it, as the words it holds name ペナルティカード (51B1(b))."""
    why = why_of(conn, query, "laws-2017-ja:51B1(b)", interface=interface)
    assert "ペナルティカード" in why["words"] and term in why["from"].split(" · "), why


@pytest.mark.parametrize(
    "query, interface",
    [
        ("ディクレアラーがペナルティカードのスートのリードを禁止した", "ja"),
        ("defender has two penalty cards in one suit and declarer forbids that suit", "en"),
    ],
)
def test_a_compound_is_named_once_not_also_by_its_part(conn, query, interface):
    """51B1(b) prints ペナルティカード and, elsewhere, カード: the query said ペナルティカード, and its why named カード
    too, as if the director had said it (the compound's split spelling, ペナルティ カード, counted apart)."""
    results = {r["id"]: r for r in searching.search_page(conn, query, limit=10, interface=interface)["results"]}
    result = results["laws-2017-ja:51B1(b)"]
    assert "ペナルティカード" in result["why"]["words"] and "カード" not in result["why"]["words"], result["why"]
    assert "カード" not in [part["text"] for part in result["snippet"] if part["mark"]]


@pytest.mark.parametrize(
    ("query", "interface", "unit", "unnamed"),
    [
        # クレーム's neighbour phrase 「取りの宣言」または「取られの宣言」: its また is no word 48B2 was found by
        ("ディクレアラーがクレームした", "ja", "laws-2017-ja:48B2", {"また"}),
        # a light word inside a held phrase (する of プレイする), no kana stem (さ, し) of one
        ("the defender played a card and now wants to take it back", "en", "laws-2017-ja:52A", {"さ", "し"}),
        ("declarer told dummy to play anything, who decides which card is played", "en", "laws-2017-ja:46A", {"する"}),
    ],
)
def test_a_why_names_no_light_word_of_a_held_phrase(conn, query, interface, unit, unnamed):
    """words.Lexicon.unnamed: a why names, and a snippet marks, the words a unit was found by - not the conjunctions,
    auxiliaries and light verbs inside a phrase it holds ('Matched: 取り · また · 取ら · 宣言' said また was sought)."""
    why = why_of(conn, query, unit, interface=interface)
    assert why and why["words"] and not unnamed & set(why["words"]), why
    assert not unnamed & set((why.get("through") or {}).keys()), why
