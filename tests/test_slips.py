"""The slips a Chinese source prints, found by a scan (ingest/checks/slips.py) and each judged by reading in
corpus/errata/<doc>.yml (issue 37.7): the scan on excerpts, and the whole corpus judged."""

from __future__ import annotations

from ingest.checks.slips import Slip, check_slips, judge, scan, slip_report

VOCABULARY = {"contestant", "call", "side"}


def test_repeated_punctuation_an_open_bracket_and_unknown_english_are_candidates():
    text = "定约(CONTRACT)\n无论未加倍、加倍或再加倍。。\n参赛者(CONTTESTANT)\n即成为庄家(但若参阅第54条A款\n叫牌(CALL)"
    found = [(s.line, s.kind, s.span) for s in scan("d", text, VOCABULARY)]
    assert found == [
        (1, "latin", "CONTRACT"),
        (2, "punctuation", "。。"),
        (3, "latin", "CONTTESTANT"),
        (4, "bracket", "家(但若参阅第54条A款"),  # the line's last 12 characters
    ]


def test_a_candidate_is_judged_by_the_entry_that_covers_it():
    slip = Slip("d", 69, "punctuation", "。。", "倍、加倍或再加倍。。")
    noted = {"span": "加倍。。", "lines": [69], "source_typo": True, "means": "加倍。", "reason": "a doubled stop"}
    assert judge(slip, [noted]).verdict == "slip"
    assert judge(slip, [{**noted, "lines": [70]}]).verdict == "unjudged"  # another line
    latin = Slip("d", 187, "latin", "RHO", "上家(RHO)")
    assert judge(latin, [{"span": "RHO", "kind": "latin", "reason": "an abbreviation"}]).verdict == "not a slip"
    assert judge(latin, [{"span": "RHO", "kind": "bracket", "reason": "x"}]).verdict == "unjudged"


def test_every_slip_of_the_1997_text_is_judged():
    judged = check_slips()
    report = slip_report(judged)
    assert report["ok"] and report["by_verdict"] == {"slip": 7, "not a slip": 5, "unjudged": 0}
    slips = {(j.slip.line, j.slip.span) for j in judged if j.verdict == "slip"}
    assert {(29, "CONTTESTANT"), (69, "。。"), (1095, ",,"), (131, "AUTION"), (231, "DIDE")} <= slips
