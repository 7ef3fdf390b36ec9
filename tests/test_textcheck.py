"""The text checker (ingest/checks/textcheck.py), the reviewed errata of laws-2017-ja and the refs they
re-spell (table ref_aliases).

Exact candidates on small texts for each kind of check; then the real corpus: every candidate of
laws-2017-ja, verbatim and corrected, is either fixed by corpus/errata/laws-2017-ja.yml or kept
as printed there with a reason.
"""

from __future__ import annotations

import sqlite3
from collections import Counter

import pytest

from ingest.checks.text_review import covers, review
from ingest.checks.textcheck import Candidate, check_document
from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParsedDocument, Unit
from ingest.sources.corpus import DEFAULT_CORPUS, load_errata, load_sources, read_yaml
from laws_site.search import engine as searching

ERRATA_FILE = DEFAULT_CORPUS / "errata" / "laws-2017-ja.yml"


def one_unit(text: str, title: str | None = None, doc: str = "t") -> ParsedDocument:
    return ParsedDocument(doc, [Unit(doc, "1A", "section", text=text, title=title, line=1)])


def found(text: str, lang: str = "ja", known=frozenset(), **kw) -> list[tuple[str, str]]:
    return [(c.kind, c.span) for c in check_document(one_unit(text), lang, text, set(known), **kw)]


# --- each check on a small text ------------------------------------------------------------------


def test_other_script_inside_japanese():
    # 16C2 as converted: Hangul where the book prints は
    assert ("script", "서는") in found("選んで서는ならない。")
    assert found("ハート(♥)とRHOとIMP。") == []  # symbols and Latin letters belong


def test_kana_and_traditional_forms_inside_chinese():
    assert found("黑桃、红心和ダイヤ。", lang="zh") == [("script", "ダイヤ")]
    assert found("庄家的權利", lang="zh") == [("script", "權")]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("順番外のパススをしたときは", [("doubled", "スス")]),  # 30A
        ("後に認認められない", [("doubled", "認認")]),  # 36C
        ("間違っって言ったビッド", [("doubled", "っっ")]),  # a doubled small kana is never a word
        # flagged, then kept as printed by the review: か + から, 配り直し + して
        ("どちらかからこのリードの", [("doubled", "かか")]),
        ("配り直ししてはならない", [("doubled", "しし")]),
        ("ここで止める", []),  # ここ is one dictionary word
        ("ただただ", []),
    ],
)
def test_doubled_kana_or_kanji(text, expected):
    assert [f for f in found(text) if f[0] == "doubled"] == expected


def test_long_mark_and_the_kanji_one():
    assert [f for f in found("パートナ一がコールする") if f[0] == "long-vowel"] == [("long-vowel", "一")]
    assert [f for f in found("同一トリックでの") if f[0] == "long-vowel"] == [("long-vowel", "一")]
    assert [f for f in found("こと ー リボーク") if f[0] == "long-vowel"] == [("long-vowel", "ー")]
    assert [f for f in found("プレイヤーがパスする") if f[0] == "long-vowel"] == []


def test_katakana_unknown_to_the_dictionary_and_the_glossary():
    assert ("katakana", "ディクレーター") in found("ディクレーターは指定する。")
    assert found("ディクレーターは指定する。", known={"ディクレーター"}) == []
    assert [f for f in found("カードとパートナー") if f[0] == "katakana"] == []


def test_variant_spelling_against_the_majority():
    text = "ディクレアラーは、ディクレアラーが、ディクレアララーの"
    assert [f for f in found(text) if f[0] == "variant"] == [("variant", "ディクレアララー")]
    # the corpus' counts decide, not the document's: here the document alone would pick ディクレアララー
    corpus = Counter({"ディクレアラー": 80, "ディクレアララー": 60})
    minority = "ディクレアララーは、ディクレアララーが、ディクレアラーの"
    assert [f for f in found(minority, corpus_spellings=corpus) if f[0] == "variant"] == [
        ("variant", "ディクレアララー"),
        ("variant", "ディクレアララー"),
    ]


def test_stray_and_missing_characters_against_a_recurring_phrase():
    text = (
        "間違った情報に基づく。間違った情報に基づく。間違っただ情報に基づく。"
        "指定をしなければ、指定をしなければ、指定をしなれば、"
    )
    kinds = Counter(kind for kind, _ in found(text))
    spans = found(text)
    assert ("stray", "ただ") in spans  # 間違っ + ただ: the verb form wants た
    assert ("missing", "れ") in spans  # しなれば: しなければ elsewhere, twice
    assert kinds["stray"] >= 1 and kinds["missing"] == 1


# --- review: fixed / as printed / unreviewed -----------------------------------------------------


def candidate(span, kind="doubled", line=10) -> Candidate:
    return Candidate("t", "1A", "text", 0, span, kind, "", line, span)


def test_review_sorts_candidates():
    before = [candidate("スス"), candidate("かか", line=11), candidate("のの", line=12)]
    after = [candidate("かか", line=11), candidate("のの", line=12)]
    as_printed = [{"span": "かか", "kind": "doubled", "reason": "どちらかから"}]
    statuses = [(r.candidate.span, r.status) for r in review(before, after, as_printed)]
    assert statuses == [("スス", "fixed"), ("かか", "as-printed"), ("のの", "unreviewed")]


def test_as_printed_entry_narrowed_to_lines_and_kind():
    entry = {"span": "は", "kind": "stray", "lines": [1081, 1114], "reason": "wording"}
    assert covers(entry, candidate("は", "stray", 1081))
    assert not covers(entry, candidate("は", "stray", 2000))
    assert not covers(entry, candidate("は", "missing", 1081))


# --- the real corpus -----------------------------------------------------------------------------


@pytest.mark.slow
def test_every_candidate_of_the_2017_laws_is_reviewed(text_check):
    laws = text_check["laws-2017-ja"]
    assert laws.verbatim
    statuses = Counter(r.status for r in laws.reviewed)
    assert statuses["unreviewed"] == 0, [r.candidate for r in laws.unreviewed][:10]
    assert statuses["fixed"] > 150 and statuses["as-printed"] > 0
    assert laws.unreviewed == []  # the corrected text shows nothing new either
    assert all(r.reason for r in laws.reviewed + laws.remaining if r.status == "as-printed")


@pytest.mark.slow  # the whole corpus checked once a session (conftest: text_check, witness_check)
def test_the_issue_examples_are_candidates_and_fixed(text_check):
    fixed = {
        (r.candidate.kind, r.candidate.span, r.candidate.line)
        for r in text_check["laws-2017-ja"].reviewed
        if r.status == "fixed"
    }
    assert ("script", "서는", 1251) in fixed  # 16C2
    assert ("doubled", "スス", 1595) in fixed  # 30A パススを
    assert ("variant", "ディクレアララー", 734) in fixed  # the definition's heading
    assert ("long-vowel", "一", 1496) in fixed  # パートナ一


@pytest.mark.slow  # the whole corpus checked once a session (conftest: text_check, witness_check)
def test_every_document_is_checked(text_check):
    assert set(text_check) == {s.id for s in load_sources()}
    for result in text_check.values():
        assert result.verbatim or result.note


@pytest.mark.slow  # the whole corpus checked once a session (conftest: text_check, witness_check)
def test_every_erratum_and_as_printed_entry_has_a_reason_and_is_used(text_check):
    data = read_yaml(ERRATA_FILE)
    assert all(fix["reason"] for fix in data["errata"]) and all(entry["reason"] for entry in data["as_printed"])
    laws = text_check["laws-2017-ja"]
    used = [
        entry for entry in data["as_printed"] if any(covers(entry, r.candidate) for r in laws.reviewed + laws.remaining)
    ]
    assert used == data["as_printed"]


@pytest.fixture(scope="module")
def corrected():
    source = next(s for s in load_sources() if s.id == "laws-2017-ja")
    return parse_document(source.id, source.text, source.name).by_ref()


@pytest.mark.parametrize(
    "ref, printed, corrected_text",
    [
        ("16C2", "選んで서는ならない", "選んではならない"),
        ("30A", "順番外のパススをしたときは", "順番外のパスをしたときは"),
        ("36C", "後に認認められない", "後に認められない"),
        ("25A1", "パートナ一がコール", "パートナーがコール"),
        ("20F5(a)", "間違っただ説明", "間違った説明"),
        ("74C8", "テーブルルを離れる", "テーブルを離れる"),
    ],
)
def test_corrected_text_of_the_2017_laws(corrected, ref, printed, corrected_text):
    assert corrected_text in corrected[ref].text + (corrected[ref].title or "")
    assert printed not in corrected[ref].text


def test_the_definition_id_uses_the_corrected_spelling(corrected):
    assert "def:ディクレアラー" in corrected and "def:ディクレアララー" not in corrected
    assert corrected["def:ディクレアラー"].attrs["term_en"] == "Declarer"
    assert "def:ディクレアラー予定者" in corrected


# --- ref_aliases: the printed refs still find their units ----------------------------------------


@pytest.fixture(scope="module")
def db(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield conn
    conn.close()


def test_ref_aliases_rows(db):
    rows = db.execute("select doc, alias, ref, unit_id, reason from ref_aliases order by alias").fetchall()
    by_alias = {alias: (doc, ref, unit_id) for doc, alias, ref, unit_id, _ in rows}
    assert by_alias["def:ディクレアララー"] == ("laws-2017-ja", "def:ディクレアラー", "laws-2017-ja:def:ディクレアラー")
    assert by_alias["def:ディクレアララー予定者"] == (
        "laws-2017-ja",
        "def:ディクレアラー予定者",
        "laws-2017-ja:def:ディクレアラー予定者",
    )
    assert by_alias["index:ディクレアラール"][1] == "index:ディクレアラー"
    refs = {(doc, ref) for doc, ref in db.execute("select doc, ref from sections")}
    for doc, alias, ref, unit_id, reason in rows:
        assert (doc, ref) in refs and (doc, alias) not in refs, alias  # the alias names no unit now
        assert unit_id == f"{doc}:{ref}" and "corpus/errata/laws-2017-ja.yml" in reason
    assert len(rows) == 11


def test_every_re_spelt_ref_has_an_alias(db):
    """Each unit of the verbatim parse whose ref the errata changed is an alias row (computed
    here from the two parses independently of ingest.references.aliases)."""
    verbatim = next(s for s in load_sources(errata=False) if s.id == "laws-2017-ja")
    corrected_source = next(s for s in load_sources() if s.id == "laws-2017-ja")
    old = parse_document(verbatim.id, verbatim.text, verbatim.name).units
    new = parse_document(corrected_source.id, corrected_source.text, corrected_source.name).units

    # paired by where each unit starts, the n-th of its kind on its line (an erratum may add a
    # unit: 20C's lost 「1.」 makes 20C1)
    def by_place(units):
        seen: Counter = Counter()
        placed = {}
        for unit in units:
            seen[(unit.line, unit.kind)] += 1
            placed[(unit.line, unit.kind, seen[(unit.line, unit.kind)])] = unit.ref
        return placed

    printed_at, corrected_at = by_place(old), by_place(new)
    changed = {
        (printed_at[place], ref)
        for place, ref in corrected_at.items()
        if place in printed_at and printed_at[place] != ref
    }
    assert changed == set(db.execute("select alias, ref from ref_aliases where doc = 'laws-2017-ja'"))
    assert load_errata(DEFAULT_CORPUS, "laws-2017-ja")


def test_the_printed_spelling_still_finds_the_definition(db):
    results = searching.search(db, "ディクレアララー", limit=10)
    assert "laws-2017-ja:def:ディクレアラー" in [r["id"] for r in results]
    results = searching.search(db, "ディクレアララー予定者", limit=10)
    assert "laws-2017-ja:def:ディクレアラー予定者" in [r["id"] for r in results[:3]]


@pytest.mark.slow
def test_check_text_command(tmp_path):
    from click.testing import CliRunner

    from laws_site.cli import cli

    result = CliRunner().invoke(cli, ["check", "--text", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 0, result.output  # needs no database
    lines = result.output.split("\n")
    laws = next(line for line in lines if line.strip().startswith("laws-2017-ja") and "verbatim" in line)
    assert laws.split()[4] == "0"  # not reviewed: none
    assert "Source lines kept" in result.output and "reviewed documents: OK" in result.output
    as_json = CliRunner().invoke(cli, ["check", "--text", "--json"])
    import json

    data = json.loads(as_json.output)
    assert data["ok"] and data["documents"]["laws-2017-ja"]["unreviewed"] == 0
    assert all(c["rate"] >= 0.99 for c in data["coverage"].values())
