"""Which sense of a Chinese word a sentence reads (issue 36): a character in its common reading, not a
sense CC-CEDICT labels as of another time or place (corpus/chinese_lexicon.tsv, made by
ingest/search/make_chinese_lexicon.py; read by laws_site/search/chinese.py)."""

from __future__ import annotations

from ingest.search.chinese_lexicon import ENTRY_SEPARATOR
from laws_site.search import translation
from laws_site.search.data import search_data


def entries(search_conn, word: str) -> list[str]:
    (english,) = search_conn.execute("select english from search_chinese where chinese = ?", [word]).fetchone()
    return english.split(ENTRY_SEPARATOR)


def test_a_character_of_two_readings_reads_its_common_one(search_conn):
    """要 is yāo "to demand, to coerce" and yào "to want, to need, will" in CC-CEDICT, listed in that (pinyin)
    order; read through both, 「庄家要我出黑桃」 said 強いる (90B7 調整スコアを強いる). Its common reading is
    yào (pypinyin): the lexicon lists it first and a character reads that entry only."""
    assert entries(search_conn, "要")[0].startswith("to want|to need")  # a verb's gloss keeps its "to"
    data = search_data(search_conn)
    for query in ("庄家要我出黑桃", "庄家不小心掉了一张牌 要罚吗"):
        assert "強いる" not in translation.japanese_words(data.translations, query, data.chinese), query
    assert "トリック" in translation.japanese_words(data.translations, "要罚墩吗", data.chinese)


def test_a_word_of_several_characters_reads_every_entry(search_conn):
    """告诉 is gào sù "to press charges" and gào su "to tell"; pypinyin reads the phrase gào sù, so a word of
    several characters keeps all its entries: "to tell" still reads 告げる."""
    assert len(entries(search_conn, "告诉")) == 2
    data = search_data(search_conn)
    assert "告げる" in data.translations["告诉"]


def test_a_sense_of_another_time_or_place_is_not_read(search_conn):
    """北 is "north; (classical) to be defeated": 「北家有十四张」 read 負ける beside ノース."""
    data = search_data(search_conn)
    assert data.translations["北"] == ["ノース"]
    assert all("defeated" not in entry for entry in entries(search_conn, "北"))


def test_of_a_words_senses_the_one_written_in_its_own_kanji_is_read(search_conn):
    """记 is "to record, to note": read through both glosses it said 記録 and ノート (a notebook); 記録
    writes its own character, the sense Chinese and Japanese share. 超 is "to exceed ... to pass": its late
    "pass" read the call パス (「超一墩」, an overtrick) where its first gloss reads 超える. 墩 "block ...
    trick" still reads the Laws' trick: no common sense of it is written 墩."""
    data = search_data(search_conn)
    assert data.translations["记"] == ["記録"]
    assert data.translations["超"] == ["超える"]
    assert data.translations["墩"] == ["トリック"]


def test_a_verbs_sense_reads_no_noun_the_laws_never_say_as_an_action(search_conn):
    """声明 "to state", 敲 "to hit", 回 "to circle, to go back": JMdict's sense of the English word kept in
    table search_english is the noun's (state 状態, hit 当たり, circle 世界), which the Laws never say with
    する; a verb's gloss reads no such noun. The verb's own reading stays (回: 戻る), and so does a noun the
    Laws say with する or one in the word's own kanji (停 "to stop": 停止)."""
    data = search_data(search_conn)
    assert "状態" not in data.translations.get("声明", [])
    assert "当たり" not in data.translations.get("敲", [])
    assert data.translations["回"] == ["戻る"]
    assert "停止" in data.translations["停"]


def test_a_term_said_clipped_to_its_modifier_is_no_chinese_words_sense(search_conn):
    """insufficient is what an English director says for an Insufficient Bid (the vocabulary's spoken form), but
    不够 "not enough, insufficient" and 不到 "not reaching, insufficient" say only the modifier, of anything
    (「我的牌不够十三张」: too few cards, Law 13): they read no 不十分なビッド; 个别 "individual" reads no 個人戦
    (Rectification in Individual Events). English keeps the clipped term."""
    data = search_data(search_conn)
    for query in ("我的牌不够十三张", "叫牌不到", "个别情况"):
        read = translation.japanese_words(data.translations, query, data.chinese)
        assert not {"不十分なビッド", "個人戦"} & set(read), (query, read)
    assert translation.japanese_words(data.translations, "the bid was insufficient", data.chinese) == [
        "ビッド",
        "不十分なビッド",
    ]


def test_a_negated_verb_the_dictionary_glosses_as_an_adverb_reads_nothing(search_conn):
    """不想 is 不 + 想 "to want" and CC-CEDICT's one word "unexpectedly": 「我不想让他取消」 (I don't want him to
    cancel, the 29A query) read 偶然, the Laws' inadvertent (25A), shown as also searched. A word the dictionary
    glosses with a negation (不够 "not enough") keeps its reading."""
    data = search_data(search_conn)
    assert "偶然" not in translation.japanese_words(data.translations, "我不想让他取消", data.chinese)
    assert "不想" not in data.translations
    assert "不小心" in data.translations  # the vocabulary's inadvertently, 偶然, is unchanged
