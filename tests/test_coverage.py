"""Source lines kept: every line of every source is found in the records parsed from it
(ingest/checks/coverage.py), at least 99 % per document, and what is lost is exactly the errata's not_kept lists."""

from __future__ import annotations

import pytest

from ingest.checks.coverage import TARGET, coverage, known_drops, line_words, unexplained
from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParsedDocument, Unit
from ingest.sources.corpus import load_sources


@pytest.fixture(scope="module")
def measured():
    results = {}
    for source in load_sources():
        document = parse_document(source.id, source.text, source.name)
        results[source.id] = (source, document, coverage(source.text, document))
    return results


def test_every_document_keeps_at_least_99_percent_of_its_lines(measured):
    rates = {doc: result.rate for doc, (_, _, result) in measured.items()}
    assert len(rates) == 5
    assert all(rate >= TARGET for rate in rates.values()), rates


def test_the_lines_lost_are_exactly_the_known_drops(measured):
    lost = {doc: [n for n, _ in result.lost] for doc, (_, _, result) in measured.items() if result.lost}
    drops = {doc: known_drops(doc) for doc in measured}
    assert lost == {doc: sorted(lines) for doc, lines in drops.items() if lines}
    assert all(reason for lines in drops.values() for reason in lines.values())
    assert all(unexplained(result) == [] for _, _, result in measured.values())


def test_counted_lines_are_the_lines_with_words(measured):
    source, _, result = measured["laws-2017-ja"]
    lines = source.text.split("\n")
    assert result.counted == sum(1 for line in lines if line.strip() and line_words(line))
    assert result.counted > 2500


@pytest.mark.parametrize(
    "line, words",
    [
        # labels, markers, tags and markdown are not words of the text
        ("### 第13条 カードの過不足<sup>\\*2</sup>", ["カードの過不足"]),
        ("- (a) ダミーは反則行為を指摘してはならない。", ["ダミーは反則行為を指摘してはならない"]),
        ("A.\tカードとスートのランク\t12", ["カードとスートのランク", "12"]),
        # ① is a label before NFKC turns it into 1
        (" - ①該当ラウンドまでのIMPの得失点率", ["該当ラウンドまでの", "IMP", "の得失点率"]),
        # the conversion's spaces inside Japanese split words, they do not glue them
        ("1 3トリック目の順番外のリード", ["1", "3", "トリック目の順番外のリード"]),
        # printed continuation marks are structure; a page number glued to a title splits off
        ("第53条 順番外のリードの受け入れ(再掲)", ["順番外のリードの受け入れ"]),
        ("第45条\tプレイされたカード2", ["プレイされたカード", "2"]),
        ("---", []),
    ],
)
def test_line_words(line, words):
    assert line_words(line) == words


def excerpt_document(units: list[Unit], tables=None) -> ParsedDocument:
    return ParsedDocument("t", units, tables or {})


def test_a_line_whose_words_no_unit_holds_is_lost():
    text = "## 第1条 パック\n\nA. カードとスートのランク\n\nブリッジのパックは52枚のカードからなる。\n\n見出しだけの行"
    units = [
        Unit("t", "1", "law", title="パック", line=1),
        Unit(
            "t",
            "1A",
            "section",
            title="カードとスートのランク",
            line=3,
            text="ブリッジのパックは52枚のカードからなる。",
        ),
    ]
    result = coverage(text, excerpt_document(units))
    assert (result.counted, result.kept, result.lost) == (4, 3, [(7, "見出しだけの行")])
    # the same text with one word dropped from the unit: that line is lost too
    units[1].text = "ブリッジのパックは枚のカードからなる。"
    assert [n for n, _ in coverage(text, excerpt_document(units)).lost] == [5, 7]


def test_a_table_row_is_kept_by_the_rows_that_record_its_line():
    text = "IMPs\tVPs\n0\t10.00\n1\t10.61"
    table = {"vp": [{"imp": 0, "vp": 10.0, "line": 2}, {"imp": 1, "vp": 10.61, "line": 3}]}
    units = [
        Unit(
            "t", "table-1", "table", title="VP", line=1, attrs={"header_rows": [{"line": 1, "cells": ["IMPs", "VPs"]}]}
        )
    ]
    assert coverage(text, excerpt_document(units, table)).lost == []
    table["vp"][1]["vp"] = 10.6  # a value read wrongly is a line lost
    assert [n for n, _ in coverage(text, excerpt_document(units, table)).lost] == [3]


def test_a_line_run_together_is_kept_by_the_units_it_became():
    # `**第66条 トリックの検査****A. 現行のトリック**`: two headings on one line, two units
    text = "**第66条 トリックの検査****A. 現行のトリック**"
    units = [
        Unit("t", "66", "law", title="トリックの検査", line=1),
        Unit("t", "66A", "section", title="現行のトリック", line=1, text="本文。"),
    ]
    assert coverage(text, excerpt_document(units)).lost == []
