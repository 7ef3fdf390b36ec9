"""A word the Laws print in kanji more often than in kana carries a situation (issue 36): SudachiDict reads
忘れる and 間違える written in kana as words that may serve another (し忘れる, 非自立可能), and a single kana
spelling in the corpus made them light, so 「アラートし忘れた」 and 「言い間違えて」 counted only their other
words. laws_site/search/words.py LIGHT_OUTNUMBERED; the offline pack carries the same light words."""

from __future__ import annotations

from laws_site.search import engine
from laws_site.search.data import search_data
from laws_site.search.words import light_words


def test_a_word_printed_in_kanji_three_times_as_often_as_in_kana_is_content():
    rows = [
        ("わすれる", "忘れる", 0, 1, 1),
        ("忘れ", "忘れる", 0, 0, 2),
        ("忘れる", "忘れる", 0, 0, 1),
        ("まちがえ", "間違える", 0, 1, 1),
        ("まちがえる", "間違える", 0, 1, 1),
        ("間違え", "間違える", 0, 0, 13),
        ("達", "達", 0, 0, 3),
        ("たち", "達", 0, 1, 3),
    ]
    assert light_words(rows) == {"達"}


def test_the_corpus_reads_forgetting_and_mistaking_as_content(search_conn):
    light = search_data(search_conn).lexicon.light
    assert not {"忘れる", "間違える"} & light
    assert {"過ぎる", "達", "出来る", "為る"} <= light  # printed in kana as often, or serving another


def test_forgetting_to_alert_reaches_the_law_before_the_definition(search_conn):
    """「アラートし忘れた」: 20F5(a) prints 「アラートやアナウンスのし忘れ」; with 忘れる light the query was the
    one word アラート, and the definition of アラート came first."""
    found = [r["id"] for r in engine.search(search_conn, "アラートし忘れた", limit=1)]
    assert found == ["laws-2017-ja:20F5(a)"], found
