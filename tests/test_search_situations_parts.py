"""A situation's governing provision before the unit it belongs to (issue 36): a part whose own text
holds a word of the sentence that its unit has only in its title, or not at all, takes the unit's place
(coverage.parts_first), in every language's sentences."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from laws_site.search import engine
from laws_site.search.coverage import Covered, parts_first
from laws_site.search.ranking import part_in_place


def covered(weights: list[float], credits: dict[int, dict[int, float]]) -> Covered:
    found = Covered()
    found.weights, found.credits = weights, credits
    return found


def test_the_part_covering_more_takes_its_units_place_and_only_that():
    """1 (a title: words 0 and 1) has parts 2 (under the title, and its own text prints word 2) and 3 (under
    the title only); 4 ranks between them and keeps its score."""
    data = SimpleNamespace(context_below={1: (2, 3)}, headings=frozenset(), titles_only=frozenset())
    scores = {1: 0.9, 4: 0.7, 2: 0.6, 3: 0.5}
    words = covered(
        [1.0, 1.0, 2.0], {1: {0: 1.0, 1: 1.0}, 2: {0: 0.8, 1: 0.8, 2: 0.6}, 3: {0: 0.8, 1: 0.8}, 4: {2: 1.0}}
    )
    parts_first(data, scores, words)
    assert scores == {1: 0.6, 4: 0.7, 2: 0.9, 3: 0.5}


def test_of_several_parts_the_one_covering_most_and_a_part_adding_nothing_stays():
    data = SimpleNamespace(context_below={1: (2, 3)}, headings=frozenset(), titles_only=frozenset())
    words = covered([1.0, 1.0, 3.0], {1: {0: 1.0}, 2: {0: 0.8, 1: 0.6}, 3: {0: 0.8, 2: 0.6}})
    scores = {1: 0.9, 2: 0.6, 3: 0.5}
    parts_first(data, scores, words)
    assert scores == {1: 0.5, 2: 0.6, 3: 0.9}
    alone = {1: 0.9, 2: 0.6}
    parts_first(data, alone, covered([1.0], {1: {0: 1.0}, 2: {0: 0.8}}))
    assert alone == {1: 0.9, 2: 0.6}


@pytest.mark.parametrize(
    "query, interface, part, unit",
    [
        # 61B 「リボークの可能性について質問する権利」: 61B3's text says ディフェンダーは互いに質問することができる
        ("can a defender ask his partner if he has no hearts", "en", "61B3", "61B"),
        # 92D 「上告者の同意」 does not print パートナー; 92D1 does: パートナーの双方が上告することに同意していること
        ("上告するのにパートナーの同意はいる", "ja", "92D1", "92D"),
        # 21B 「対戦相手の間違った情報に基づくコール」: 21B1(a) prints the call changed (言い直す) and the alert
        ("对方没有提醒 我被误导了想改叫", "zh", "21B1(a)", "21B"),
    ],
)
def test_the_governing_part_is_first_and_its_unit_still_found(search_conn, query, interface, part, unit):
    results = [r["id"] for r in engine.search(search_conn, query, limit=20, interface=interface)]
    assert results[0] == f"laws-2017-ja:{part}", results[:5]
    assert f"laws-2017-ja:{unit}" in results, results


def test_a_headings_part_takes_its_place_though_it_covers_no_word_better():
    """1 is a heading (a title, no text): its part 2 covers its words only under its title, yet takes its place;
    the same unit with text of its own keeps it."""
    words = covered([1.0, 1.0], {1: {0: 1.0, 1: 1.0}, 2: {0: 0.8, 1: 0.8}})
    scores = {1: 0.9, 2: 0.6}
    parts_first(
        SimpleNamespace(context_below={1: (2,)}, headings=frozenset({1}), titles_only=frozenset({1})), scores, words
    )
    assert scores == {1: 0.6, 2: 0.9}
    scores = {1: 0.9, 2: 0.6}
    parts_first(SimpleNamespace(context_below={1: (2,)}, headings=frozenset(), titles_only=frozenset()), scores, words)
    assert scores == {1: 0.9, 2: 0.6}


def test_the_headings_are_the_units_with_parts_and_no_text(search_conn):
    from laws_site.search.data import search_data

    data = search_data(search_conn)
    refs = {data.units[rowid][0] for rowid in data.headings}
    assert {"laws-2017-ja:30B", "laws-2017-ja:62C", "laws-2017-ja:79C"} <= refs
    assert not {"laws-2017-ja:24", "laws-2017-ja:68D"} & refs  # units with text (30B1's leads in: below)


def test_a_lead_in_announcing_its_parts_is_a_heading(search_conn):
    """85 「…以下のように裁定する」, 50D 「…それぞれ制限を受ける」, 22 「次のときオークションは終了する*：」, 30B1 「…パスした
    場合：」 only lead in to their parts; 16B1 (what unauthorised information is) and 68D (play ceases) decide on their own."""
    from laws_site.search.data import search_data

    data = search_data(search_conn)
    refs = {data.units[rowid][0] for rowid in data.headings}
    assert {"laws-2017-ja:85", "laws-2017-ja:50D", "laws-2017-ja:22", "laws-2017-ja:30B1"} <= refs
    assert not {"laws-2017-ja:16B1", "laws-2017-ja:68D", "laws-2017-ja:41A"} & refs
    titles_only = {data.units[rowid][0] for rowid in data.titles_only}
    assert "laws-2017-ja:27A" in titles_only and not {"laws-2017-ja:85", "laws-2017-ja:50D"} & titles_only


@pytest.mark.parametrize(
    "query, interface, first, lead_in",
    [
        # 50D's lead-in: 反則者のパートナーはリードするとき…制限を受ける; 50D2 is the partner's lead
        ("防家有罚张 同伴怎么引牌", "zh", "50D2", "50D"),
        # 85 「…事実が合意されていない場合、以下のように裁定する」 announces 85A (the weight of the evidence) and 85B
        ("両方の言い分が食い違っていて何があったのかわからない", "ja", "85A", "85"),
    ],
)
def test_a_part_comes_before_the_lead_in_announcing_it(search_conn, query, interface, first, lead_in):
    results = [r["id"] for r in engine.search(search_conn, query, limit=20, interface=interface)]
    assert results[0].startswith(f"laws-2017-ja:{first}"), results[:5]
    assert f"laws-2017-ja:{lead_in}" in results[1:], results[:5]


def test_passing_in_partners_turn_reaches_30b1_before_its_heading(search_conn):
    """30B 「パートナーまたはLHOのコールの順番」 is a title over 30B1 (the offender passed in partner's turn) and 30B2:
    it came first, 30B1 second."""
    found = [r["id"] for r in engine.search(search_conn, "パートナーの番なのに間違えてパスした", limit=2)]
    assert found[0] == "laws-2017-ja:30B1", found


def test_a_headings_part_covering_less_than_the_heading_stays_below():
    """47 (a heading) covers 引っ込める through the vocabulary and カード under its title; 47B covers カード only:
    「出したカードを引っ込めたい」 names Law 47 whole, which stays first."""
    words = covered([3.0, 1.0, 7.0], {1: {1: 1.0, 2: 0.8}, 2: {0: 0.1, 1: 0.8}})
    scores = {1: 0.9, 2: 0.6}
    parts_first(
        SimpleNamespace(context_below={1: (2,)}, headings=frozenset({1}), titles_only=frozenset({1})), scores, words
    )
    assert scores == {1: 0.9, 2: 0.6}


def test_a_boost_for_a_law_goes_to_the_part_that_took_its_place():
    """1 has parts 2 and 3; among a sentence's hits 3 ranks above 1 (it took its place): the 索引's or the
    vocabulary's boost for 1 goes to 3; with no part above it, to 1 itself."""
    data = SimpleNamespace(context_below={1: (2, 3)})
    assert part_in_place(data, {1: [0.5], 2: [0.4], 3: [0.9]}, 1) == 3
    assert part_in_place(data, {1: [0.9], 2: [0.4], 3: [0.5]}, 1) == 1
    assert part_in_place(data, {2: [0.4]}, 1) == 1


def test_premature_play_told_in_english_reaches_57a_before_57(search_conn):
    """57 「早まったリードやプレイ」 is what the 索引 files the words under; coverage puts 57A (パートナーがプレイする前
    に順番外にプレイした) in its place, and the 索引's boost must not take 57 back above it."""
    results = [
        r["id"] for r in engine.search(search_conn, "defender played before his partner", limit=5, interface="en")
    ]
    assert results[0] == "laws-2017-ja:57A", results
    assert "laws-2017-ja:57" in results, results


def paragraphs(*refs: str) -> dict[int, tuple]:
    return {rowid: (f"d:{ref}", "d", ref, "item") for rowid, ref in enumerate(refs, start=1)}


def test_of_sibling_paragraphs_covering_alike_the_one_printed_first_takes_the_place():
    """79C (a heading) over 79C1 and 79C2, both covering the sentence under its title alone: 79C1, the rule, takes
    its place though 79C2 (the exception, shorter) scored higher; a part that prints a word itself goes first."""
    data = SimpleNamespace(
        context_below={1: (2, 3)},
        headings=frozenset({1}),
        titles_only=frozenset({1}),
        units=paragraphs("79C", "79C1", "79C2"),
    )
    words = covered([1.0, 1.0], {1: {0: 1.0, 1: 1.0}, 2: {0: 0.8, 1: 0.8}, 3: {0: 0.8, 1: 0.8}})
    scores = {1: 0.9, 2: 0.5, 3: 0.6}
    parts_first(data, scores, words)
    assert scores == {1: 0.5, 2: 0.9, 3: 0.6}
    words.printed = {3: [1]}  # 79C2's own text prints word 1 (its title-level credit is no higher)
    scores = {1: 0.9, 2: 0.5, 3: 0.6}
    parts_first(data, scores, words)
    assert scores == {1: 0.6, 2: 0.5, 3: 0.9}


def test_parts_of_different_sections_are_no_siblings():
    data = SimpleNamespace(
        context_below={1: (2, 3)},
        headings=frozenset({1}),
        titles_only=frozenset({1}),
        units=paragraphs("76", "76A1", "76B4"),
    )
    words = covered([1.0], {1: {0: 1.0}, 2: {0: 0.8}, 3: {0: 0.8}})
    scores = {1: 0.9, 2: 0.5, 3: 0.6}
    parts_first(data, scores, words)
    assert scores == {1: 0.6, 2: 0.5, 3: 0.9}


@pytest.mark.parametrize(
    "query, interface, rule",
    [
        # 79C1: a score's error may be corrected until the correction period ends; 79C2: after it, only if ...
        ("スコアの記入を間違えた", "ja", "79C1"),
        # 39A: every call after the final pass is cancelled; 39B: when no further rectification follows (LHO called...)
        ("三家都pass了叫牌已经结束 他又叫了一个", "zh", "39A"),
    ],
)
def test_the_rule_before_its_exception(search_conn, query, interface, rule):
    results = [r["id"] for r in engine.search(search_conn, query, limit=5, interface=interface)]
    assert results[0] == f"laws-2017-ja:{rule}", results


def test_a_headings_part_that_is_a_title_alone_gives_its_place_on():
    """27 (a heading) gives its place to 27A (a title alone too), which gives it on to 27A1 (what LHO's call does);
    a lead-in (57A 「…以下から1つを選ぶ」) keeps the place it was given: its options are not the situation."""
    units = paragraphs("27", "27A", "27A1")
    words = covered([1.0, 1.0], {1: {0: 1.0, 1: 1.0}, 2: {0: 1.0, 1: 1.0}, 3: {0: 0.8, 1: 0.8}})
    data = SimpleNamespace(
        context_below={1: (2, 3), 2: (3,)}, headings=frozenset({1, 2}), titles_only=frozenset({1, 2}), units=units
    )
    scores = {1: 0.9, 2: 0.8, 3: 0.5}
    parts_first(data, scores, words)
    assert max(scores, key=scores.get) == 3, scores
    data.titles_only = frozenset({1})
    scores = {1: 0.9, 2: 0.8, 3: 0.5}
    parts_first(data, scores, words)
    assert max(scores, key=scores.get) == 2, scores


def test_lho_calling_over_an_insufficient_bid_reaches_27a1(search_conn):
    query = "LHO bid over the insufficient bid without noticing"
    results = [r["id"] for r in engine.search(search_conn, query, limit=5, interface="en")]
    # 27A1 takes the place of its heading (27) and of 27A, a title alone; that it also comes before 27B4, which
    # applies its rule, is ranking.cited_rule_first's (tests/test_search_situations_applied_rules.py), not this rule's
    assert "laws-2017-ja:27A1" in results[:2], results
    assert not {"laws-2017-ja:27", "laws-2017-ja:27A"} & set(results[: results.index("laws-2017-ja:27A1")]), results
