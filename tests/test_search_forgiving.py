"""Search that forgives what people type, and citations that never open the wrong document
(issue 24). Exact expectations on the whole-corpus session build (tests/conftest.py)."""

from __future__ import annotations

import sqlite3
from urllib.parse import quote

import pytest

from ingest.text import forgiving
from laws_site.search import engine as searching
from laws_site.search import expansions as expansions_module
from laws_site.search import plan


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    yield connection
    connection.close()


# ---------------------------------------------------------------- 1. citations without 第

NO_DAI = [
    ("27条", ["laws-2017-ja:27", "laws-1997-zh:27", "jcbl-regs-ja:27"]),  # the Laws first, the regulation offered
    ("64条", ["laws-2017-ja:64", "revoke-notes-ja:quote:64"]),  # was "no such unit"
    ("27条B項", ["laws-2017-ja:27B", "laws-1997-zh:27B"]),  # opened 23C
    ("27条B項1(b)", ["laws-2017-ja:27B1(b)", "laws-1997-zh:27B1(b)"]),
    ("16条B", ["laws-2017-ja:16B", "laws-1997-zh:16B"]),
    ("１６条Ｂ", ["laws-2017-ja:16B", "laws-1997-zh:16B"]),
    ("競技会運営規則第27条", ["jcbl-regs-ja:27"]),  # the regulations by their name
    ("運営規則27条", ["jcbl-regs-ja:27"]),
]


@pytest.mark.parametrize("typed, units", NO_DAI, ids=[c[0] for c in NO_DAI])
def test_a_citation_without_dai_names_the_current_laws(conn, typed, units):
    citation = searching.search_page(conn, typed, limit=50)["citation"]
    assert citation["units"] == units and citation["opens"]


def test_a_citation_nobody_holds_says_so(conn):
    citation = searching.search_page(conn, "99条")["citation"]
    assert citation["found"] is False and citation["message"] == "No such unit: 99条."


def test_the_document_filter_reaches_the_regulations(conn):
    citation = searching.search_page(conn, "27条", doc="jcbl-regs-ja")["citation"]
    assert citation["units"] == ["jcbl-regs-ja:27"] and citation["opens"]


@pytest.mark.parametrize(
    "typed, location",
    [
        ("27条", "/laws-2017-ja/27?from_search=27%E6%9D%A1"),
        ("27条B項1(b)", "/laws-2017-ja/27B1(b)?from_search=27%E6%9D%A1B%E9%A0%851%28b%29"),
        ("運営規則27条", "/jcbl-regs-ja/27?from_search=%E9%81%8B%E5%96%B6%E8%A6%8F%E5%89%8727%E6%9D%A1"),
    ],
)
async def test_the_page_opens_the_unit_named(datasette, typed, location):
    response = await datasette.client.get("/-/search?q=" + quote(typed))
    assert response.status_code == 302 and response.headers["location"] == location


# ---------------------------------------------------------------- 2. keys made at build and at query time


@pytest.mark.parametrize(
    "typed, key",
    [
        ("リボーク", "リボク"),
        ("りぼーく", "リボク"),
        ("リボック", "リボク"),
        ("りぼおく", "リボク"),
        ("じゅんばんがい", "ジユンバンガイ"),
        ("プレイヤー", "プレヤ"),
        ("プレーヤー", "プレヤ"),
    ],
)
def test_kana_key(typed, key):
    assert forgiving.kana_key(typed) == key


@pytest.mark.parametrize(
    "typed, kana",
    [
        ("ribooku", "りぼおく"),
        ("junbangai", "じゅんばんがい"),
        ("fujuubun na biddo", "ふじゅうぶんなびっど"),
        ("revoek", None),
        ("dummy", None),  # not romaji: English, searched as English
    ],
)
def test_romaji_to_kana(typed, kana):
    assert forgiving.romaji_to_kana(typed) == kana


@pytest.mark.parametrize(
    "katakana, english",
    [
        ("アジャスティッドスコア", "adjusted score"),
        ("リボーク", "revoke"),
        ("ディクレアラー", "declarer"),
        ("チェンジオブコール", "change of call"),
        ("マッチポイント", "matchpoint"),
        ("トランプ", "trump"),
    ],
)
def test_a_loanword_and_its_english_share_a_sound_key(katakana, english):
    assert forgiving.sound_key(katakana, japanese=True) == forgiving.sound_key(english, japanese=False)


def test_the_build_stores_every_kind_of_expansion(conn):
    rows = dict(conn.execute("select kind, count(*) from search_expansions group by kind").fetchall())
    assert (
        set(rows) == {"reading", "sound", "synonym", "zh"} and rows["zh"] == 13
    )  # 大罚牌, 小罚牌: the ruling guides' words
    assert conn.execute(
        "select term, weight from search_expansions where kind = 'reading' and key = 'ジユンバンガイ'"
    ).fetchall() == [("順番外", 29)]  # in 29 titles
    assert ("jstdsk", "adjusted score") in conn.execute(
        "select key, term from search_expansions where kind = 'sound'"
    ).fetchall()


# ---------------------------------------------------------------- 3. forgiving search, shown


@pytest.mark.parametrize(
    "typed, also, first",
    [
        ("りぼーく", ["リボーク", "revoke"], "laws-2017-ja:61"),
        ("ribooku", ["リボーク", "revoke"], "laws-2017-ja:61"),
        ("リボック", ["リボーク", "revoke"], "laws-2017-ja:61"),
        ("アジャスティッドスコア", ["adjusted score"], "laws-2017-ja:def:調整スコア"),
        # Taiwan's 夢家 reads as 明手 does: ダミー; 权利 as the Laws print it in its own kanji (42 ダミーの権利)
        ("夢家的權利", ["ダミー 権利", "明手的权利"], "laws-1997-zh:42"),
    ],
)
def test_also_searched(conn, typed, also, first):
    page = searching.search_page(conn, typed, limit=5)
    assert page["also_searched"] == also and page["results"][0]["id"] == first
    assert page["did_you_mean"] == []


def test_did_you_mean_when_the_query_finds_nothing(conn):
    page = searching.search_page(conn, "revoek", limit=4)
    assert page["did_you_mean"] == ["revoke"]
    assert [r["id"] for r in page["results"]] == [
        "laws-2017-ja:61",
        "laws-2017-ja:62",
        "laws-2017-ja:63",
        "laws-2017-ja:64",
    ]


def test_exact_searches_only_what_was_typed(conn):
    page = searching.search_page(conn, "りぼーく", expand=False)
    assert page["total"] == 0 and page["also_searched"] == [] and page["exact"] is True


def test_expansions_rank_below_what_the_query_itself_finds(conn):
    """じゅんばんがい: the lexicon reads じゅんばん as 順番 (and が い as words of the corpus), so the 索引's 順番
    and the units holding those words come first; 順番外, the reading, follows them."""
    exact = searching.search_page(conn, "じゅんばんがい", expand=False, limit=500)["results"]
    assert exact[0]["id"] == "laws-2017-ja:def:順番" and {r["expansion"] for r in exact} == {None}
    expanded = searching.search_page(conn, "じゅんばんがい", limit=500)["results"]
    assert expanded[0]["id"] == "laws-2017-ja:def:順番"
    places = {r["id"]: place for place, r in enumerate(expanded)}
    reading = [r for r in expanded if r["expansion"] == "reading"]
    assert {"laws-2017-ja:29", "laws-2017-ja:53"} <= {r["id"] for r in reading}
    own = [places[r["id"]] for r in exact if r["match"] in ("all", "index")]
    assert max(own) < min(places[r["id"]] for r in reading)  # below every unit the query itself finds


def test_a_correct_query_is_untouched(conn):
    page = searching.search_page(conn, "不十分なビッド", limit=20)
    assert page["did_you_mean"] == [] and [e["kind"] for e in page["expansions"]] == []


async def test_the_page_offers_the_exact_search(datasette):
    html = (await datasette.client.get("/-/search?q=" + quote("りぼーく"))).text
    assert (
        '次も検索しました: <a class="also" href="/-/search?q=%E3%83%AA%E3%83%9C%E3%83%BC%E3%82%AF" lang="ja">リボーク</a>'
        in html
    )
    assert '<a class="exact" href="/-/search?q=%E3%82%8A%E3%81%BC%E3%83%BC%E3%81%8F&amp;exact=1">' in html
    data = (await datasette.client.get("/-/search.json?q=revoek&limit=1")).json()
    assert data["did_you_mean"] == ["revoke"] and data["expansions"] == [
        {"kind": "typo", "text": "revoke", "found": 127}
    ]


async def test_results_show_labels_not_ids(datasette):
    html = (await datasette.client.get("/-/search?q=" + quote("不十分なビッド"))).text
    assert '<span class="label">第27条B項4</span>' in html
    # 27B4 has no title of its own: its parent's tells what it is about
    assert '<span class="context" lang="ja">不十分なビッドが受け入れられなかった場合</span>' in html
    html = (await datasette.client.get("/-/search?q=" + quote("同等なコール"))).text
    assert "quote:" not in html.split('<section class="content">', 1)[-1].replace("quote%3A", "").replace("/quote:", "")


# ---------------------------------------------------------------- 4. synonyms and variants that reach their law


def test_a_synonym_keeps_its_part_of_speech_and_one_spelling(conn):
    """過誤 (a noun): SudachiDict's group also holds the verbs 間違う, 間違える, 誤る and the kana
    spellings まちがい...; the nouns the corpus prints are kept, one spelling per search key."""
    assert conn.execute(
        "select term, weight from search_expansions where kind = 'synonym' and key = '過誤' order by weight desc, term"
    ).fetchall() == [("間違い", 54), ("失敗", 3), ("誤り", 3), ("過失", 2)]


@pytest.mark.parametrize("typed", ["過誤", "落ち度", "ミステイク"])
def test_a_synonym_of_error_finds_the_directors_error(conn, typed):
    page = searching.search_page(conn, typed, limit=5)
    assert page["also_searched"] == ["間違い", "失敗"]
    assert [r["id"] for r in page["results"]] == [
        "laws-2017-ja:82",
        "laws-2017-ja:79C",
        "laws-2017-ja:75",
        "laws-2017-ja:82C",
        "jcbl-regs-ja:46",
    ]
    assert {r["expansion"] for r in page["results"]} == {"synonym"}


def test_a_word_of_both_languages_is_answered_in_both(conn):
    """錯誤 is the Japanese word for an error and the traditional form of the 1997 Chinese text's 错误:
    the Chinese articles it finds as printed come first (an expansion never outranks what the query
    itself finds), the Japanese synonym's units follow, the director's error (82C) among them."""
    page = searching.search_page(conn, "錯誤", limit=20)
    ids = [r["id"] for r in page["results"]]
    assert ids[:5] == [
        "laws-1997-zh:21",
        "laws-1997-zh:46",
        "laws-1997-zh:21B",
        "laws-1997-zh:47E",
        "laws-1997-zh:12A3",
    ]
    assert {r["expansion"] for r in page["results"] if r["lang"] == "zh"} == {None}
    assert "laws-2017-ja:82C" in ids
    assert {r["expansion"] for r in page["results"] if r["lang"] == "ja"} == {"synonym"}
    # 错误 read in the Laws' words (CC-CEDICT "mistaken", the glossary's Mistaken: 間違った), then the synonyms
    assert page["also_searched"] == ["間違った", "間違い", "失敗"]


def test_a_see_entry_of_the_index_bridges_a_word_to_its_law(conn):
    """索引: 合意 -> see パートナー間の了解事項 (Law 40); in Law 40, 40A's title carries 合意."""
    from laws_site.search.data import search_data

    data = search_data(conn)
    assert data.see_also[frozenset({"合意"})] == ("index:合意", ("laws-2017-ja:40",))
    # a "see also" beside units of its own is not a bridge (取り消した cites 47 itself)
    assert not [terms for terms in data.see_also if "取り消す" in terms]
    for typed, first_five, expansion in [
        ("合意", ["40A", "79A", "84", "65D", "69"], None),
        ("賛同", ["40A", "84", "79A", "69", "92D"], "synonym"),
    ]:
        results = searching.search_page(conn, typed, limit=5)["results"]
        assert [r["id"].removeprefix("laws-2017-ja:") for r in results] == first_five
        assert results[0]["index"] == ["index:合意"] and results[0]["expansion"] == expansion


def test_a_reviewed_chinese_variant_ranks_with_the_query_itself(conn):
    """首攻 is printed once as a title (48B1); its variant's 首引 units rank with it, not below."""
    results = searching.search_page(conn, "首攻", limit=5)["results"]
    assert [(r["id"], r["expansion"]) for r in results] == [
        ("laws-1997-zh:def:首引", "zh"),
        ("laws-1997-zh:48B1", None),
        ("laws-1997-zh:20C1", "zh"),
        ("laws-2017-ja:def:オープニングリード", None),
        ("laws-1997-zh:41A", "zh"),
    ]


def test_a_unit_whose_title_is_the_word_ranks_above_titles_that_repeat_it(conn):
    """賭倍 -> 加倍: 19A is titled 加倍; 32 越序加倍或再加倍 holds it twice (bm25 likes that)."""
    results = searching.search_page(conn, "賭倍", limit=5)["results"]
    assert [r["id"] for r in results] == [
        "laws-1997-zh:def:加倍",
        "laws-1997-zh:19",
        "laws-1997-zh:19A",
        "laws-1997-zh:32",
        "laws-1997-zh:def:再加倍",
    ]


@pytest.mark.parametrize(
    "title, lang, key",
    [
        ("間違った説明*", "ja", "間違った説明"),
        (
            "オークション期間中に間違ったボードを発見した場合*4",
            "ja",
            "オークション期間中に間違ったボードを発見した場合",
        ),
        ("加倍", "zh", "加倍"),
        ("賭倍", "zh", "赌倍"),
        ("取消叫牌及引牌判罚", "zh", "取消叫牌及引牌判罚"),
        ("Law 73", "ja", "law73"),
        ("", "ja", ""),
        (None, "zh", ""),
    ],
)
def test_title_key(title, lang, key):
    assert plan.title_key(title, lang) == key


# ---------------------------------------------------------------- the data files


def test_synonym_keys_agree_with_the_tokenizer():
    """corpus/synonyms.csv stores each word's search tokens so the build need not make them: a new
    Sudachi dictionary that tokenizes differently must be noticed (re-run scripts/extract_synonyms.py)."""
    import csv
    from pathlib import Path

    from ingest.text import tokenize

    path = Path(__file__).resolve().parent.parent / "corpus" / "synonyms.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.reader(handle) if r and not r[0].startswith("#")]
    assert len(rows) > 3000
    wrong = [(word, key) for _, _, word, key in rows if " ".join(tokenize.query_terms(word, "ja")) != key]
    assert wrong == []


def test_a_bad_synonyms_line_names_file_and_line(tmp_path):
    from collections import Counter

    from ingest.parsers.records import ParseError
    from ingest.search.expansions import synonym_rows

    path = tmp_path / "synonyms.csv"
    path.write_text("# comment\n000001,0,曖昧,曖昧\n000001,7,あいまい\n", encoding="utf-8")
    with pytest.raises(ParseError, match=r"synonyms.csv:3: expected `group,expansion flag"):
        synonym_rows(path, Counter({"曖昧": 1}))


def test_a_bad_variants_file_names_the_file(tmp_path):
    from ingest.parsers.records import ParseError
    from ingest.search.expansions import zh_variant_rows

    path = tmp_path / "zh_variants.yml"
    path.write_text("variants:\n  明手: 夢家\n", encoding="utf-8")
    with pytest.raises(ParseError, match=r"zh_variants.yml: the variants of '明手' must be a list"):
        zh_variant_rows(path)


# ---------------------------------------------------------------- nothing typed breaks the keys

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_the_keys_take_any_text(text):
    assert isinstance(forgiving.kana_key(text), str)
    assert forgiving.romaji_to_kana(text) is None or forgiving.is_kana(forgiving.romaji_to_kana(text))
    assert isinstance(forgiving.sound_key(text, japanese=True), str)
    assert isinstance(forgiving.sound_key(text, japanese=False), str)


@settings(max_examples=150, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            "あいうえおかきくけこりぼーくじゅんばがいのっゃリボークアジャスティッドスコrevokdumy 夢家權"
        ),
        min_size=1,
        max_size=20,
    )
)
def test_expansions_take_any_kana_or_romaji(conn, text):
    from laws_site.search.data import search_data
    from laws_site.search.expansions import alternatives, corrections

    data = search_data(conn).expansions
    for alternative in alternatives(data, text, None) + corrections(data, text, None):
        assert alternative.text and alternative.text != text


@pytest.mark.parametrize(
    "typed, word", [("クレームした", "クレーム"), ("クレームしてしまった", "クレーム"), ("遅刻した", "遅刻")]
)
def test_a_word_with_a_light_verb_finds_what_the_word_finds(conn, typed, word):
    """A director adds a light verb to a word (クレームした): the glossary and the director vocabulary
    know the word, not the phrase, and no unit prints クレーム with する - it found nothing (遅刻した:
    only the two regulations printing 遅刻 and する, not Law 90B1). Now the word's own results."""
    page = searching.search_page(conn, typed, limit=5)
    alone = searching.search_page(conn, word, limit=5)
    assert [r["id"] for r in page["results"]] == [r["id"] for r in alone["results"]]


def test_a_query_of_light_words_only_is_searched_as_typed(conn):
    assert plan.lookup_text(searching.search_data(conn), "してしまった") == "してしまった"
    assert plan.lookup_text(searching.search_data(conn), "クレームした") == "クレーム"


@pytest.mark.parametrize(
    "query, law",
    [
        ("seat", "laws-2017-ja:5"),
        ("drop", "laws-2017-ja:48A"),
        ("heart", "laws-2017-ja:18E"),
        ("spade", "laws-2017-ja:18E"),
    ],
)
def test_one_english_word_is_searched_as_the_laws_word(conn, query, law):
    """An English query of one everyday word read as one Japanese word (seat: 席, drop: 落とす, the suits: the
    glossary's ハート, スペード) is searched as that word: as a one-word "sentence" it found nothing (a
    sentence is ranked by its coverage, which needs two words), or a spelling correction (spade: 側)."""
    found = [r["id"] for r in searching.search(conn, query, limit=3, interface="en")]
    assert any(unit.startswith(law) for unit in found), found


# ---------------------------------------------------------------- kana read as almost nothing typed


@pytest.mark.parametrize(
    "query, results",
    [
        ("うずすね", 0),  # す read as する between particles: 899 units
        ("さもが", 0),  # さ read as する: 899
        ("けむた", 0),  # two auxiliaries, matched any: 793
        ("なはれ", 0),  # だ and はる, auxiliaries: 594
        ("ごてお", 0),  # ご and お read as 御: 4 (a preface's 御)
        ("ほげほげ", 0),  # a kana word no unit prints: nothing, as before
        ("りぼーく", None),  # a reading, as typed before conversion: リボーク
        ("じゅんばんがいのりーど", None),  # 順番外のリード
        ("パスしないといけないのにビッドしてしまった", None),
    ],
)
def test_kana_read_as_grammar_and_single_letters_finds_nothing(conn, query, results):
    """A query typed in kana that holds no word of two letters but particles, auxiliaries and light words is
    not searched as those words (laws_site/search/words.py reads_kana_as_words): it found hundreds of units
    that print する or た. A kana query with a word in it is read as before."""
    total = searching.search_page(conn, query, limit=5)["total"]
    assert total == results if results is not None else total > 0, total


# ---------------------------------------------------------------- far-fetched readings of nonsense


@pytest.mark.parametrize(
    "query, results",
    [
        ("ゼヤキヤセ", 0),  # consonants s-k-s only: success (4 units)
        ("やぢぼぷ", 0),  # j-b-p: give up (27)
        ("ベプシ", 0),  # b-p-s: vps, an abbreviation said letter by letter (32)
        ("えどかり", 0),  # d-k-r: declarer (187)
        ("あいうえお", 0),  # 上 of うえ, 2 of 5 letters (54)
        ("せるえうえ", 0),  # 上 again, after an auxiliary and a stem (54)
        ("アジャスティッドスコア", None),  # adjusted score, as before
        ("デクレアラー", None),  # declarer, as before
        ("まちがったじょうほう", None),  # 間違った情報: words make up the query
        ("うえ", None),  # 上, the whole query
    ],
)
def test_nonsense_read_by_consonants_or_one_word_inside_finds_nothing(conn, query, results):
    """A kana query is read as an English loanword only when its sound, vowels where they fall, is close to the
    word's (expansions.sounds_close), and as its Japanese words only when they make up half its letters
    (words.Lexicon.reads_kana_as_words): a mistyped query found 187 units through declarer, 54 through 上."""
    page = searching.search_page(conn, query, limit=5)
    assert page["total"] == results if results is not None else page["total"] > 0, page["total"]
    if results == 0:
        assert not page.get("also_searched"), page.get("also_searched")


@pytest.mark.parametrize(
    "kana, term, close",
    [
        ("デクレアラー", "declarer", True),
        ("スクリーン", "screens", True),
        ("アジャスティッドスコア", "adjusted score", True),
        ("えどかり", "declarer", False),
        ("ゼヤキヤセ", "success", False),
        ("ベプシ", "vps", False),  # no vowel: an abbreviation is no sound
    ],
)
def test_a_sound_is_close_only_with_its_vowels_where_they_fall(kana, term, close):
    heard = forgiving.sound_pattern(kana, japanese=True)
    assert expansions_module.sounds_close(heard, term) is close
