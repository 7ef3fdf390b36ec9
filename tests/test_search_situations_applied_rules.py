"""Of two units covering a situation exactly alike, the one whose rule the other applies comes first (issue 36,
ranking.cited_rule_first): 27B4 「反則者のLHOが言い換えた不十分なビッドを本条A項1が認めるとおり受け入れなければ」
applies 27A1's rule to a second insufficient bid; a director telling LHO calling over an insufficient bid wants
27A1, which bm25 put second because 27B4 prints 不十分なビッド three times."""

from __future__ import annotations

import pytest

from laws_site.search import engine
from laws_site.search.data import search_data
from laws_site.search.ranking import applied_rules, provided_rules


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


def test_a_rule_followed_as_it_provides_is_told_from_a_referral_and_an_exception(search_conn):
    provided = provided_rules(search_conn, search_data(search_conn))
    # 「第53条に定めるとおり」「第53条で定めたとおり」: each accepts a lead out of turn as Law 53 provides
    for unit in ("laws-2017-ja:56A", "laws-2017-ja:54B", "laws-2017-ja:55A"):
        assert "laws-2017-ja:53" in provided[unit], unit
    assert provided["laws-2017-ja:20F2"] == ("laws-2017-ja:20F1",)  # 「本条F項1と同様の原則で」
    # 48B2 「第68条を適用する」 refers the consequence on; 50D1(a) 「本条B項に定める場合を除き」 and 25B1 「A項で認められない」
    # name an exception: each applies a rule (applied_rules) but follows none as it provides
    rules = applied_rules(search_conn, search_data(search_conn))
    for unit, cited in (("48B2", "68"), ("50D1(a)", "50B"), ("25B1", "25A")):
        assert f"laws-2017-ja:{cited}" in rules[f"laws-2017-ja:{unit}"], unit
        assert f"laws-2017-ja:{cited}" not in provided.get(f"laws-2017-ja:{unit}", ()), unit


@pytest.mark.parametrize(
    "query", ["declarer accepted the defender's lead out of turn", "the defender led out of turn, declarer accepts"]
)
def test_accepting_a_lead_out_of_turn_reaches_law_53_before_the_laws_that_apply_it(search_conn, query):
    """54B (an opening lead out of turn: 「第53条で定めたとおり、この違法なリードを受け入れ」) and 55A (declarer's lead)
    cover the sentence's words as Law 53 does and printed them more often: bm25 put them first. Law 53 says what
    accepting a lead out of turn is; 54B takes the place Law 53 had (only places are exchanged)."""
    results = [r["id"] for r in engine.search(search_conn, query, limit=10, interface="en")]
    assert results[0] == "laws-2017-ja:53", results
    assert "laws-2017-ja:54B" in results, results
