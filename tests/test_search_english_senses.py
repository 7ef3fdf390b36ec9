"""An English word read in the sense the director's sentence gives it (issue 36, situations-en13): a
preposition the Laws print as a suffix, the director's own "me", a phrasal verb whose object stands
between the verb and its particle."""

from __future__ import annotations

from laws_site.search import translation
from laws_site.search.data import search_data


def read(search_conn, query: str) -> list[str]:
    data = search_data(search_conn)
    return translation.japanese_words(data.translations, query, data.chinese)


def test_during_reads_nothing_not_inside(search_conn):
    """The Laws print "during play" as the suffix 中 (プレイ中, 43A1(b)); JMdict's first senses read
    "during" as 内, "inside", which the director never said."""
    assert read(search_conn, "dummy called the director during play") == ["ダミー", "ディレクターを呼ぶ", "プレイ"]


def test_the_director_called_me_is_the_director_summoned(search_conn):
    """A director telling what happened says "called me": the Laws' ディレクターを呼ぶ (9B1(a), 11A), not
    コール, a call of the auction."""
    words = read(search_conn, "the next player followed before anyone called me")
    assert "ディレクターを呼ぶ" in words and "コール" not in words, words
