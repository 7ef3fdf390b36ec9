"""A 索引 entry covers a sentence's word for the units it cites by its heading, never by its locators
(coverage.speaks_of): 紛失したカード 「14」 and カード/発見できない 「14A2」 are Law 14's numbers, not the
fourteen cards a director is told of; on the server and offline alike (tests/test_search_parity.py runs
every situation query through both)."""

from __future__ import annotations

from benchmarks.relevance import Ancestry
from laws_site.search import engine
from laws_site.search.weights import INDEX_CREDIT, NOTE_CREDIT
from tests.test_search_situations_bound_words import credits_of


def test_a_locator_is_no_word_of_the_sentence(search_conn):
    words, credits = credits_of(search_conn, "カードが14枚あった")
    fourteen = words.index("14")
    # Law 14 (紛失したカード: a card missing) prints no 14; its 索引 entries' locators did (a note on it may)
    for unit in ("laws-2017-ja:14", "laws-2017-ja:14A2"):
        assert credits.get(unit, {}).get(fourteen, 0.0) <= NOTE_CREDIT, (unit, credits.get(unit))
    # 13 カードの過不足 governs a hand of 14 cards: it or a unit under it (its footnote fn:2 「1つ以上のハンドの
    # カードが13枚より多い場合に適用する」) comes first, where Law 14's units stood above it
    first = engine.search(search_conn, "カードが14枚あった", limit=1)[0]["id"]
    assert "laws-2017-ja:13" in Ancestry(search_conn).lineage(first), first


def test_an_entrys_heading_still_speaks_for_the_units_it_cites(search_conn):
    words, credits = credits_of(search_conn, "予想外のアラートで不当な情報が伝わった")
    # アラート/予想外の、不当な情報 -> 73C, whose text never says 予想外
    assert credits["laws-2017-ja:73C"][words.index("予想外")] == INDEX_CREDIT
