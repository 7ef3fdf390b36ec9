"""Of two units covering a situation exactly alike, the one whose rule the other applies comes first (issue 36,
ranking.cited_rule_first): 27B4 「反則者のLHOが言い換えた不十分なビッドを本条A項1が認めるとおり受け入れなければ」
applies 27A1's rule to a second insufficient bid; a director telling LHO calling over an insufficient bid wants
27A1, which bm25 put second because 27B4 prints 不十分なビッド three times."""

from __future__ import annotations

import pytest

from laws_site.search import engine
from laws_site.search.data import search_data
from laws_site.search.ranking import applied_rules


def test_a_reference_in_the_sentence_applies_a_rule_one_in_parentheses_does_not(search_conn):
    rules = applied_rules(search_conn, search_data(search_conn))
    assert rules["laws-2017-ja:27B4"] == ("laws-2017-ja:27A1", "laws-2017-ja:27B3")
    # 「説明は本条F項1と同様の原則で」
    assert rules["laws-2017-ja:20F2"] == ("laws-2017-ja:20F1",)
    # 10A 「（または免除する：第81条C項5参照）」 and 40A3 「(本条C項1参照)」 point to a provision to read beside them
    assert "laws-2017-ja:81C5" not in rules.get("laws-2017-ja:10A", ())
    assert "laws-2017-ja:40C1" not in rules.get("laws-2017-ja:40A3", ())


@pytest.mark.parametrize(
    "query, interface",
    [
        ("左の人が不十分なビッドに気付かずにビッドした", "ja"),
        ("LHO bid over the insufficient bid without noticing", "en"),
    ],
)
def test_lho_calling_over_an_insufficient_bid_reaches_27a1_before_27b4(search_conn, query, interface):
    results = [r["id"] for r in engine.search(search_conn, query, limit=5, interface=interface)]
    assert results[0] == "laws-2017-ja:27A1", results
    assert "laws-2017-ja:27B4" in results, results


def test_waiving_a_rectification_stays_with_10a(search_conn):
    """10A cites 81C5 in parentheses only: it keeps its place above the director's duty it points to."""
    query = "ディレクターを呼ばずに自分たちでペナルティを決めてしまった"
    results = [r["id"] for r in engine.search(search_conn, query, limit=5, interface="ja")]
    assert results.index("laws-2017-ja:10A") < results.index("laws-2017-ja:81C5"), results
