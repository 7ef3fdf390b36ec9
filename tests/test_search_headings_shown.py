"""A heading a part of it already shows takes no place of a sentence's first screen (ranking.headings_shown_by_parts,
ranking.first_screen).

In a situation ranked by its coverage, a part that covers more than its heading takes the heading's place
(coverage.parts_first); the heading (a title, or a lead-in announcing its parts: data.headings) then still ranked
just below it, a second result of the same Law that says nothing the part does not, and another Law's provision
fell off the first screen. It now follows the first screen, still on the first page. Real sentences, the build's
own data.
"""

from __future__ import annotations

import pytest

from laws_site.search import engine
from laws_site.search.data import search_data
from laws_site.search.ranking import first_screen
from laws_site.search.weights import FIRST_SCREEN

SENTENCES = [
    ("my opponent kept asking what our bids meant when it was not his turn to call", "en"),
    ("cards in the wrong pocket of the board", "en"),
    ("opponents explained the bid wrongly, can I change my call", "en"),
    ("ディフェンダーが順番違いでリードした ディクレアラーは受けたい", "ja"),
    ("取ったトリック数で揉めている", "ja"),
]


def shown_by_parts(data, found: list[str]) -> list[bool]:
    """For each result: whether it is a heading and one of its own parts ranks above it."""
    rowids = [data.rowids[unit] for unit in found]
    return [
        rowid in data.headings and any(part in rowids[:place] for part in data.context_below.get(rowid, ()))
        for place, rowid in enumerate(rowids)
    ]


@pytest.mark.parametrize(("query", "interface"), SENTENCES)
def test_the_first_screen_holds_no_heading_its_part_above_shows(search_conn, query, interface):
    data = search_data(search_conn)
    found = [r["id"] for r in engine.search(search_conn, query, limit=10, interface=interface)]
    shown = shown_by_parts(data, found)
    assert not any(shown[:FIRST_SCREEN]), found
    assert any(shown[FIRST_SCREEN:]), f"the heading left the first page: {found}"


def test_the_law_a_sentence_is_about_takes_the_place_its_heading_held(search_conn):
    """The example: 31B1, 31C and Law 31 itself came before 20F1, a player's right to ask for an explanation in his
    own turn (「自分がコールする順番に…対戦相手のオークションの説明を要求できる」): Law 31 follows the first screen."""
    query = "my opponent kept asking what our bids meant when it was not his turn to call"
    found = [r["id"] for r in engine.search(search_conn, query, limit=10, interface="en")]
    assert "laws-2017-ja:20F1" in found[:FIRST_SCREEN] and found[FIRST_SCREEN] == "laws-2017-ja:31", found


def test_headings_met_on_the_first_screen_follow_it_in_their_order():
    assert first_screen([1, 2, 3, 4, 5, 6], frozenset({2, 3})) == [1, 4, 5, 2, 3, 6]
    assert first_screen([2, 1, 3], frozenset({2, 3})) == [1, 2, 3]
    assert first_screen([1, 2, 3, 4], frozenset({4})) == [1, 2, 3, 4]
    assert first_screen([1, 2], frozenset()) == [1, 2]


def test_a_query_some_unit_holds_whole_keeps_its_headings_in_place(search_conn):
    """Not a sentence ranked by coverage: 「エチケット」 is a word Law 74 titles (74 振舞いとエチケット, 74B エチケット),
    ranked by bm25 and the title boost; the heading keeps the place its score gives it, on the first screen."""
    data = search_data(search_conn)
    results = engine.search(search_conn, "エチケット", limit=10)
    found = [r["id"] for r in results]
    assert any(shown_by_parts(data, found)[:FIRST_SCREEN]), found
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True), results
