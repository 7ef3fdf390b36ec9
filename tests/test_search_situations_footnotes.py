"""A footnote's marker is no number of the text (issue 36): the footnote titled *14 and the 14 printed
after ペナルティカード in 50D2(b) must not answer a situation that counts 14 cards."""

from __future__ import annotations

from ingest.text import tokenize
from laws_site.search import engine


def test_a_footnote_marker_indexes_no_number():
    column, _ = tokenize.index_tokens_and_offsets("ペナルティカード*14として残る", "ja")
    assert "14" not in column.split()
    assert "カド" in column.split()  # the words around the marker are kept
    assert tokenize.index_tokens_and_offsets("*14", "ja")[0] == ""


def test_a_printed_number_is_still_indexed():
    assert "14" in tokenize.index_tokens_and_offsets("カードが14枚あった", "ja")[0].split()


def test_no_footnote_is_indexed_by_its_marker(search_conn):
    titled = search_conn.execute(
        "select id, search_title from sections where kind = 'footnote' and title glob '[*][0-9]*'"
    ).fetchall()
    assert titled, "the 2017 Laws' footnotes are titled by their markers"
    assert all(search_title == "" for _, search_title in titled), titled[:3]


def test_a_count_of_cards_does_not_find_a_footnote_numbered_alike(search_conn):
    found = [result["id"] for result in engine.search(search_conn, "カードが14枚あった", limit=10)]
    assert "laws-2017-ja:fn:14" not in found, found  # it was first: its title *14 was read as 14
