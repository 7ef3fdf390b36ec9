"""The text checker's evidence and new kinds (ingest/checks/evidence.py), and its quality measured
against the review kept in corpus/errata (ingest/checks/quality.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from ingest.checks.evidence import (
    convention_form,
    near_words,
    small_kana_spans,
    spelling_convention,
    weighted_distance,
    witness_prints,
)
from ingest.checks.quality import corpus_quality, total
from ingest.checks.text_review import format_report
from ingest.checks.textcheck import check_document, full_morphemes
from ingest.parsers.records import ParsedDocument, Unit


@pytest.mark.parametrize(
    "word, majority, explained",
    [
        ("プレイヤ", "プレイヤー", True),  # the translation's own: a trailing ー left off
        ("アーティフィシヤル", "アーティフィシャル", True),  # large against small ヤ
        ("ディクレアララー", "ディクレアラー", False),  # a doubled ラ is a garble, not a convention
        ("ディクレアラール", "ディクレアラー", False),
        ("スーツ", "スート", False),  # another word
    ],
)
def test_spelling_conventions_explain_variants(word, majority, explained):
    assert bool(spelling_convention(word, majority)) is explained
    assert (convention_form(word) == convention_form(majority)) is explained


@pytest.mark.parametrize(
    "text, flagged",
    [
        ("カードを取つた場合", True),  # 取った with a large つ
        ("ハンドに戻つて", True),
        ("かつてないほど大がかりな", False),  # かつて is a word with つ in it
        ("一つのトリック", False),
    ],
)
def test_small_kana_inside_a_verb_form(text, flagged):
    assert bool(list(small_kana_spans(text, full_morphemes))) is flagged


def test_weighted_distance_halves_voicing():
    assert weighted_distance("リポート", "リボーク") == 1.5  # ポ/ボ half, ト/ク one
    assert weighted_distance("パス", "バス") == 0.5
    assert weighted_distance("スート", "スート") == 0


def test_near_words_against_frequent_words_and_glossary_terms():
    spellings = Counter({"リボーク": 271, "リポート": 1, "ディクレアラー": 160, "ディクレアラ": 20})
    assert near_words(spellings, set()) == {"リポート": "リボーク"}
    assert near_words(spellings, {"リポート"}) == {}  # a term the glossary names is no slip


def test_a_dictionary_word_near_a_term_needs_a_witness():
    assert witness_prints("リボーク", "リポート", ["このカードをプレイしなかったことはリボークになることもある。"])
    assert not witness_prints("リボーク", "リポート", ["リポートになる"])


def document(*texts: str) -> ParsedDocument:
    return ParsedDocument("d", [Unit("d", str(n), "law", text=t, line=n) for n, t in enumerate(texts, 1)])


def test_check_document_flags_a_garbled_term_only_where_the_reprint_disagrees():
    doc = document("このカードをプレイしなかったことはリポートになることもある。", *["リボークの訂正"] * 12)
    raw = "\n".join(u.text for u in doc.units)
    witnesses = {"1": ["このカードをプレイしなかったことはリボークになることもある。"]}
    near = [c for c in check_document(doc, "ja", raw, witnesses=witnesses) if c.kind == "near-word"]
    assert [(c.span, c.line, c.explained) for c in near] == [("リポート", 1, None)]
    assert [c for c in check_document(doc, "ja", raw) if c.kind == "near-word"] == []


def test_a_particle_the_book_writes_both_ways_is_explained():
    doc = document(
        "ディクレアラーがリードをするときには、ディフェンダーは", *["リードをするときは、ディフェンダーは"] * 3
    )
    raw = "\n".join(u.text for u in doc.units)
    strays = [c for c in check_document(doc, "ja", raw) if c.kind == "stray"]
    assert strays and all(c.explained and "word of its own" in c.explained for c in strays)


# --- the whole corpus ----------------------------------------------------------------------------


@pytest.mark.slow
def test_the_summary_counts_the_rows_it_lists(text_check):
    """`check --text` and `check --text --all` agree: as many rows under a document as its count."""
    lines = format_report(text_check, show_all=True).split("\n")
    for doc, result in text_check.items():
        header = next(line for line in lines if line.startswith(f"  {doc} "))
        assert int(header.split()[1]) == len(result.candidates)
        if f"{doc}:" in lines:
            start = lines.index(f"{doc}:") + 1
            rows = []
            for line in lines[start:]:
                if not line.startswith("  line "):
                    break
                rows.append(line)
            assert len(rows) == len(result.candidates)
        else:
            assert not result.candidates


@pytest.mark.slow  # the whole corpus checked once a session (conftest: text_check, witness_check)
def test_precision_and_recall_against_the_review(text_check):
    """Every candidate the checker shows is judged (an erratum or a kept span, each with its reason),
    and at least half of them are real errors; most known errors are flagged."""
    before, after = corpus_quality(results=text_check)
    for doc, measured in after.items():
        assert measured.unjudged == 0, doc
        if measured.true_alarms + measured.false_alarms:
            assert measured.precision >= 0.5, (doc, measured)
    assert total(after).precision >= 0.5 > total(before).precision
    assert after["laws-2017-ja"].recall >= 0.9
    assert total(after).caught >= total(before).caught - 5  # evidence costs at most a handful of real finds


@pytest.mark.slow  # the whole corpus checked once a session (conftest: text_check, witness_check)
def test_what_evidence_explains_is_listed_apart_with_its_reason(text_check):
    text = format_report(text_check, show_all=True)
    assert "laws-2017-ja (explained by evidence, not counted):" in text
    explained = text_check["laws-2017-ja"].explained
    assert explained and all(r.candidate.explained for r in explained)
    assert any(r.candidate.span == "プレイヤ" and "convention" in r.candidate.explained for r in explained)


@pytest.mark.parametrize(
    "word, explained",
    [
        ("スイスペア", True),  # スイス|ペア
        ("ヒューストントライアルペア", True),
        ("ストレートミッセル", False),  # ミッセル is no word: ミッチェル garbled (jcbl-regs-ja 35)
        ("ポートルランドクラブ", False),  # ポートル is no word: ポートランド with a stray ル
    ],
)
def test_a_compound_of_known_words_is_explained(word, explained):
    from ingest.checks.evidence import known_compound
    from ingest.checks.textcheck import known_katakana

    assert bool(known_compound(word, known_katakana, Counter({word: 2, "ペア": 5}))) is explained


def test_a_convention_explains_only_a_spelling_printed_again_and_again():
    assert spelling_convention("プレイヤ", "プレイヤー", printed=100)
    assert not spelling_convention("ビデイングシート", "ビディングシート", printed=1)  # a slip, twice at most


@pytest.mark.slow  # the whole corpus checked once a session (conftest: text_check, witness_check)
def test_readme_quotes_the_measured_quality(text_check):
    import re
    from pathlib import Path

    readme = Path(__file__).resolve().parent.parent.joinpath("README.md").read_text(encoding="utf-8")
    found = re.search(
        r"([\d.]+)% over the corpus, at least ([\d.]+)% in each document, ([\d.]+)% before the\s+"
        r"evidence\) and recall \(known errors it flags: ([\d.]+)%\)",
        readme,
    )
    assert found, "README lost its sentence on the checker's quality"
    before, after = corpus_quality(results=text_check)
    judged = [q.precision for q in after.values() if q.precision is not None]
    measured = (total(after).precision, min(judged), total(before).precision, total(after).recall)
    assert tuple(float(x) for x in found.groups()) == tuple(round(100 * m, 1) for m in measured)
