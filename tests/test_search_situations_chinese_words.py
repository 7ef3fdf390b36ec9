"""A Chinese sentence's own coverage counts its words, not the bigrams across them (issue 36).

Searched as typed, a Chinese sentence covers the 1997 Chinese units, whose current units take their
place (ranking.lift_current). Counted by bigrams, 「同伴想了很久才不叫」 was 伴想, 想了, 了很, 很久, 久才, 才不, 不叫:
the 1997 units on a pass out of rotation (30, 32), printing 同伴 and 不叫, covered all of it that they
printed and outranked the Japanese reading's 16B1 (明白な躊躇 from partner).
"""

from __future__ import annotations

import pytest

from laws_site.search import engine, translation
from laws_site.search.coverage import coverage
from laws_site.search.data import search_data
from laws_site.search.fts import OneSearch
from laws_site.search.plan import make_plan


def test_a_chinese_sentence_is_covered_by_its_words(search_conn):
    data = search_data(search_conn)
    clauses = data.chinese.clauses("同伴長考後不叫")
    assert ("同伴",) in clauses and ("长考",) in clauses
    assert ("伴长",) not in clauses and ("考后",) not in clauses
    # a word of three characters as the index holds it: bigram, character, bigram
    assert ("是不 不 不是",) in data.chinese.clauses("是不是没有了")
    assert ("pass",) in data.chinese.clauses("四家都pass了")
    own = next(b for b in make_plan(data, "同伴長考後不叫", None).branches if b.lang == "zh" and b.via is None)
    assert own.coverage_clauses == clauses


def test_a_word_the_chinese_text_never_prints_leaves_the_sentence_uncovered(search_conn):
    """长考 (a long think): the 1997 text says 迟疑. A 1997 unit printing 同伴 does not cover all of
    「同伴长考」; skipped as a word no unit covers, the word made 同伴 the whole sentence (share 1.0)."""
    data = search_data(search_conn)
    assert not OneSearch(search_conn).rowids('"长考"')
    shares = coverage(OneSearch(search_conn), data, [("同伴",), ("长考",)], "zh", "laws-1997-zh")
    assert shares and max(shares.values()) < 0.5


@pytest.mark.parametrize("query", ["同伴想了很久才不叫", "同伴犹豫了很久才叫牌", "同伴长考后加倍"])
def test_partners_hesitation_told_in_chinese_finds_16B1(search_conn, query):
    found = [r["id"] for r in engine.search(search_conn, query, limit=3, interface="zh")]
    assert "laws-2017-ja:16B1" in found, found


def test_a_call_not_clearly_heard_is_law_20A(search_conn):
    """没看清 (a call made with a bidding box is seen) and 没听清 are the everyday forms of the 1997 title
    未听清叫牌 (20A); the 2017 title はっきり認識できないコール is a call the player cannot make out: the
    director vocabulary pairs them (corpus/vocabulary.yml). Without it, Law 30-32's pass out of rotation came
    first."""
    for query in ("上家叫了什么我没看清", "没看清同伴叫的是几阶"):
        found = [r["id"] for r in engine.search(search_conn, query, limit=3, interface="zh")]
        assert "laws-2017-ja:20A" in found, (query, found)


def test_a_chinese_sentence_holding_an_english_word_is_read_as_a_sentence(search_conn):
    """「四家都pass了 要重新发牌吗」 kept only its Latin letters as an English key: the glossary's term "pass",
    so the sentence was searched as that term and never read in the Laws' words (plan.make_plan)."""
    data = search_data(search_conn)
    assert [entry.en for entry in data.glossary_lookup("pass")] == ["Pass"]
    assert data.glossary_lookup("四家都pass了") == []
    assert any(branch.sentence for branch in make_plan(data, "四家都pass了 要重新发牌吗", None).branches)


def test_a_query_that_reads_as_chinese_gets_no_japanese_synonyms(search_conn):
    """SudachiDict's synonyms cut a Chinese sentence as Japanese (pass: パース, 叫: 叫び): noise, and a synonym
    finding anything (def:パス) ranked the sentence's own units below it. A Japanese query keeps them."""
    data = search_data(search_conn)
    kinds = [alt.kind for alt in engine.query_alternatives(data, "上家叫了 我说了pass", None)]
    assert "synonym" not in kinds, kinds
    assert "synonym" in [alt.kind for alt in engine.query_alternatives(data, "取消", None)]
    top = engine.search(search_conn, "四家都pass了 要重新发牌吗", limit=1, interface="zh")
    assert top[0]["id"] != "laws-2017-ja:def:パス"


def test_misled_is_misinformation_not_a_lead(search_conn):
    """误导 (to mislead) is below the Chinese lexicon's frequency floor: cut 误 | 导, 导 ("lead") read as
    リード. The director vocabulary names it for misinformation (21B1(a) 間違った情報)."""
    data = search_data(search_conn)
    words = translation.japanese_words(data.translations, "我被误导了想改叫", data.chinese)
    assert "間違った情報" in words and "リード" not in words, words


def test_a_traditional_character_is_simplified_offline_as_on_the_server(search_conn, search_pack):
    """The pack's t2s held only the characters the Chinese texts print: 「對手叫了詐叫 我們被騙了」 was cut
    offline as 詐叫 and 騙 (no word), online as 诈叫 (a psychic) and 骗 (deceive). Every word of the Chinese
    lexicon typed in traditional characters is simplified offline as the server simplifies it."""
    from ingest.text import tokenize
    from laws_site.search.chinese_kanji import to_japanese_converters

    to_traditional = to_japanese_converters()[0]
    t2s = search_pack["t2s"]
    words = [word for (word,) in search_conn.execute("select chinese from search_chinese")]
    # the words the server reads back from their traditional spelling (a rare character may not round-trip)
    typed = [t for t, word in ((to_traditional.convert(w), w) for w in words) if tokenize.to_simplified(t) == word]
    assert "詐" in "".join(typed) and "騙" in "".join(typed)
    differ = [word for word in typed if "".join(t2s.get(c, c) for c in word) != tokenize.to_simplified(word)]
    assert not differ, differ[:20]


@pytest.mark.parametrize("query", ["防家出牌太慢", "他打得太慢了"])
def test_slow_play_told_in_chinese_finds_the_slow_play_laws(search_conn, query):
    """太慢 / 打得慢 (too slow, plays slowly) is 90B2 「不当に遅いプレイ」: the vocabulary's Slow Play had no
    Chinese word, and 慢 alone (遅い) lost to the laws on playing a card (47B, 45C) and on tempo (74C7)."""
    slow_play = {"laws-2017-ja:90B2", "laws-2017-ja:74B4", "jcbl-regs-ja:45"}
    found = [r["id"] for r in engine.search(search_conn, query, limit=3, interface="zh")]
    assert slow_play & set(found), found


def test_a_psych_told_in_chinese_is_a_psychic_call(search_conn):
    """诈叫 (a deceiving call) is how Chinese players name a psych; the 1997 text prints 心理叫. The
    definition: 「アナーの強さやスートの長さを故意かつ大幅に偽るコール」, governed by 40C."""
    found = [r["id"] for r in engine.search(search_conn, "对手诈叫了", limit=3, interface="zh")]
    assert {"laws-2017-ja:40C", "laws-2017-ja:40C1", "laws-2017-ja:def:サイキックコール"} & set(found), found


def test_the_rest_are_yours_is_a_concession(search_conn):
    """剩下的都给你 (the rest are yours) is how a Chinese player concedes: 68B1 「残りすべてのトリックの
    「取られの宣言」」. Read word by word (剩下 remain: 留まる), it named no law of claims."""
    found = [r["id"] for r in engine.search(search_conn, "防守方说剩下的都给你", limit=3, interface="zh")]
    assert {"laws-2017-ja:68", "laws-2017-ja:68B", "laws-2017-ja:68B1"} & set(found), found


def test_a_term_said_head_first_reads_as_the_term(search_conn):
    """「上家叫牌不足」 says the glossary's 不足叫牌 (Insufficient Bid) head first, its quality after as a predicate:
    cut 叫牌 | 不足 it read as コール and the cognate 不足 (printed for 過不足, a trick or hand with too many or too
    few cards), never as 不十分なビッド (Law 27). A lone character is not moved (家上 is no 上家)."""
    data = search_data(search_conn)
    read = dict(translation.read_terms(data.translations, "上家叫牌不足 我没注意就叫了", data.chinese))
    assert read["叫牌不足"] == data.translations["不足叫牌"] == ["不十分なビッド"]
    assert "上家" not in dict(translation.read_terms(data.translations, "家上", data.chinese))
    found = [r["id"] for r in engine.search(search_conn, "上家叫牌不足 我没注意就叫了", limit=5, interface="zh")]
    assert any(unit.startswith("laws-2017-ja:27") for unit in found), found


def test_a_card_played_is_said_with_chu(search_conn):
    """出 (出黑桃, 出大的) is how a Chinese player says a card is played, the verb of the 1997 text's 出牌:
    read through CC-CEDICT's "go out, come out" it was 出る, a word of no play (corpus/vocabulary.yml, Play)."""
    data = search_data(search_conn)
    for query in ("庄家要我出黑桃 可是我手里没有黑桃了", "他出了一张小的"):
        read = dict(translation.read_terms(data.translations, query, data.chinese))
        assert read["出"] == ["プレイ"], (query, read)
    # what declarer tells dummy (出大的) is 46B1's words of like meaning for high, one term (corpus/vocabulary.yml)
    read = dict(translation.read_terms(data.translations, "庄家叫明手出大的", data.chinese))
    assert read["出大的"] == ["同じ意味の言葉で指定"], read


def test_asking_is_the_laws_question(search_conn):
    """问 (ask) read through CC-CEDICT's "ask" was 尋ねる, which one unit of the Laws prints; they print asking as
    質問 (61B3 「ディフェンダーは互いに質問することができる」, 20C1), and their 索引 files 質問 under 20 and 61B."""
    data = search_data(search_conn)
    read = dict(translation.read_terms(data.translations, "防家问同伴是不是没有这门花色了", data.chinese))
    assert read["问"] == ["質問"]
    found = [r["id"] for r in engine.search(search_conn, "防家问同伴是不是没有这门花色了", limit=3, interface="zh")]
    assert any(unit.startswith("laws-2017-ja:61B") for unit in found), found
