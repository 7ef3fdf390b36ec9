"""A Chinese word read through its dictionary glosses: the first two senses count (issue 36)."""

from __future__ import annotations

from laws_site.search import engine, translation
from laws_site.search.data import search_data


def test_a_second_gloss_reads_a_word_whose_first_sense_names_nothing(search_conn):
    """掉 is "fall; drop" in CC-CEDICT: "fall" names no telling word, "drop" names 落とす (50B 偶然落とした
    カード, 48A). Read by its first gloss only, 掉 read as nothing and a dropped card was two words short."""
    data = search_data(search_conn)
    assert "落とす" in translation.japanese_words(data.translations, "掉了一张牌", data.chinese)
    found = [r["id"] for r in engine.search(search_conn, "明手掉了一张牌", limit=10, interface="zh")]
    assert any(unit.startswith(("laws-2017-ja:48", "laws-2017-ja:50")) for unit in found), found


def test_the_other_side_at_the_table_is_the_opponents(search_conn):
    """对方 is "counterpart; ...; other side" in CC-CEDICT; read by its glosses it named 裏 (a card's back).
    At the table it names the opponents: the director vocabulary files it under 対戦相手."""
    data = search_data(search_conn)
    words = translation.japanese_words(data.translations, "对方解释错了", data.chinese)
    assert "対戦相手" in words and "裏" not in words


def test_a_late_everyday_sense_is_not_read_but_a_late_term_of_the_laws_is(search_conn):
    """说 is "speak, talk, say, explain, comment" in CC-CEDICT: its fifth gloss, "comment", is a word the
    vocabulary lists as spoken for Remark (論評), and read through it 「防家说剩下的都给你们」 was a remark
    (73B1, 16B1 first). A word people say names only one of an entry's first senses; a term of the Laws'
    own English does anywhere: 墩's fifth gloss, "trick", is the Laws' Trick."""
    data = search_data(search_conn)
    assert "論評" not in (data.translations.get("说") or [])
    assert "トリック" in data.translations["墩"]
    assert "論評" in data.translations["评论"]  # "comment on, discuss, comment": its third sense


def test_a_one_character_word_people_say_is_read_inside_a_sentence(search_conn):
    """垫 (垫了一张黑桃: discarded a spade) is the verb of 垫牌 (discard); CC-CEDICT knows it only as pad or
    cushion. A one-character term inside a sentence is the everyday word (牌 a card, not the glossary's
    pack), so 垫 read nothing; a word the vocabulary lists as spoken is the everyday word itself."""
    data = search_data(search_conn)
    assert "ディスカード" in translation.japanese_words(data.translations, "庄家垫了一张黑桃", data.chinese)
    assert "牌" not in data.translations  # the glossary's one-character term still reads as the dictionary does
    found = [r["id"] for r in engine.search(search_conn, "庄家垫了一张黑桃", limit=3, interface="zh")]
    assert "laws-2017-ja:44D" in found, found


def test_a_card_shown_is_not_a_card_dropped(search_conn):
    """亮出 (to show a card) read as every Japanese term of Exposed Card, 偶然落としたカード too, which only
    48A prints (declarer's card dropped accidentally). A dropped card is shown as well, not the reverse."""
    data = search_data(search_conn)
    shown = translation.japanese_words(data.translations, "叫牌时亮出了一张牌", data.chinese)
    assert "見せたカード" in shown and "偶然落としたカード" not in shown
    assert {"見せたカード", "偶然落としたカード"} <= set(translation.japanese_words(data.translations, "dropped card"))
