"""A word a query writes alone among light ones (issue 36): one kana the cut reads as a stem of a printed word
(もらえる cut も + ら + え + る, え read as 得る) is no word of the query; a query of one content word and light
words that no unit holds whole is searched as that word; a synonym that is the word itself is no alternative.
laws_site/search/words.py lone_kana_stem and Lexicon.lone_word, ranking.lone_content_branch, expansions.synonyms;
the offline engine reads the same lexicon and does the same (tests/test_search_parity.py)."""

from __future__ import annotations

from laws_site.search import engine
from laws_site.search.data import search_data
from laws_site.search.expansions import synonyms
from laws_site.search.words import lone_kana_stem


def test_one_kana_read_as_a_printed_words_stem_is_dropped():
    light = frozenset({"為る", "居る", "等"})
    assert lone_kana_stem("え", "得る", True, light)  # もらえる: not 得る
    assert lone_kana_stem("み", "見る", True, light)
    assert not lone_kana_stem("し", "為る", True, light)  # する's stem: a light word already, left as it is
    assert not lone_kana_stem("ら", "等", True, light)
    assert not lone_kana_stem("得", "得る", False, light)  # the kanji is the word itself
    assert not lone_kana_stem("うる", "得る", True, light)  # two kana: a word of its own


def test_morau_is_not_read_as_eru(search_conn):
    """「もらえる」 was cut も + ら + え + る and え read as 得る: 86B2 「得られた複数の結果」 came first for it."""
    lexicon = search_data(search_conn).lexicon
    assert "得る" not in lexicon.query_terms("アベレージプラスがもらえるのはどんな時")
    found = engine.search(search_conn, "アベレージプラスがもらえるのはどんな時", limit=10)
    assert all("得" not in " ".join((r.get("why") or {}).get("words") or []) for r in found), found


def test_one_content_word_among_light_ones_is_searched_as_that_word(search_conn):
    """No unit prints どんな時 beside アベレージプラス, and a sentence's coverage needs two content words: the query
    found nothing; 12C2 gives the average plus."""
    for query in ("アベレージプラスはどんな時", "アベレージプラスがもらえるのはどんな時"):
        found = [r["id"] for r in engine.search(search_conn, query, limit=5)]
        assert any(unit.startswith("laws-2017-ja:12C2") for unit in found), (query, found)


def test_no_synonym_alternative_re_spells_the_query(search_conn):
    """corpus/synonyms.csv's ＋ and プラス share the key プラス: プラス, its own synonym, re-spelt a query's words and was
    offered as 「アベレジプラス等どんな時」 (its search forms joined); a real synonym is still offered (ジャッジ: 裁定)."""
    data = search_data(search_conn)
    assert synonyms(data.expansions, "アベレージプラスがもらえるのはどんな時", data.ja_terms) == []
    assert synonyms(data.expansions, "アベレージプラスはどんな時", data.ja_terms) == []
    assert synonyms(data.expansions, "ジャッジ", data.ja_terms)


def test_a_katakana_compound_among_light_words_is_the_query_s_one_word(search_conn):
    """アベレージプラス is cut アベレージ + プラス: counted as two words, the vocabulary's entry for it (12C2(a) first)
    was never asked for the sentence."""
    lexicon = search_data(search_conn).lexicon
    assert lexicon.lone_word("アベレージプラスはどんな時") == "アベレージプラス"
    assert lexicon.lone_word("クレームした") == "クレーム"
    assert lexicon.lone_word("ダミーのリード") is None  # two words
    found = [r["id"] for r in engine.search(search_conn, "アベレージプラスがもらえるのはどんな時", limit=3)]
    assert "laws-2017-ja:12C2(a)" in found, found
