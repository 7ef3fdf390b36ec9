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


def test_a_word_known_only_in_a_light_spelling_is_light():
    """せい (のせいで, 'because of') is a word SudachiDict may read as serving another; the corpus never prints
    it, so no count speaks for it as content: it is light (it counted as the rarest word of a situation)."""
    assert light_words([("せい", "せい", 0, 1, 0), ("そんな", "そんな", 0, 1, 0)]) == {"せい", "そんな"}


def test_because_of_is_not_a_word_of_the_situation(search_conn):
    data = search_data(search_conn)
    clauses = data.lexicon.query_clauses("間違った説明のせいで出したカードを取り消したい")
    assert all(clause[0] in data.lexicon.light for clause in clauses if clause[0] == "せい"), clauses
    assert any(clause[0] == "せい" for clause in clauses), clauses  # cut as a word, then not counted
