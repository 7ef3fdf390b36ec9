"""Source typos kept as printed (ingest/sources/source_notes.py): the rows built from the errata files'
`as_printed` entries with `means`, the build error for one that matches nothing, and the note on
the unit page and in its JSON."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParseError
from ingest.sources.corpus import load_sources
from ingest.sources.source_notes import source_note_rows

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
HAIRCUT_REASON_START = "21B1 prints 理发 (a haircut), which makes no sense here"


def parsed(doc: str, corpus: Path = CORPUS):
    source = next(s for s in load_sources(corpus) if s.id == doc)
    return parse_document(source.id, source.text, source.name, source.parser)


def test_the_haircut_in_21b1_is_noted_where_it_is_printed():
    [row] = [r for r in source_note_rows(parsed("laws-1997-zh"), CORPUS) if r["unit_id"].endswith(":21B1")]
    assert {k: v for k, v in row.items() if k != "reason"} == {
        "id": "laws-1997-zh:21B1#text:29-31",
        "doc": "laws-1997-zh",
        "unit_id": "laws-1997-zh:21B1",
        "field": "text",
        "start": 29,
        "end": 31,
        "as_printed": "理发",
        "means": "更改",
    }
    assert row["reason"].startswith(HAIRCUT_REASON_START)
    text = parsed("laws-1997-zh").by_ref()["21B1"].text
    assert text[29:31] == "理发" and text.startswith("在竞叫阶段结束以前(参阅第17条E款),赛员可以不受判罚地理发其可能系")


def test_the_regulations_source_slips_are_noted():
    rows = source_note_rows(parsed("jcbl-regs-ja"), CORPUS)
    assert [(r["unit_id"], r["start"], r["end"], r["as_printed"], r["means"]) for r in rows] == [
        ("jcbl-regs-ja:37-3", 0, 7, "キャリオーバー", "キャリーオーバー"),
        ("jcbl-regs-ja:38-3", 0, 7, "キャリオーバー", "キャリーオーバー"),
        ("jcbl-regs-ja:appendix-3-1", 0, 15, "ビディングシートの使用するとき", "ビディングシートを使用するとき"),
        ("jcbl-regs-ja:appendix-3-5", 38, 53, "ビディングシート見えないように", "ビディングシートが見えないように"),
        ("jcbl-regs-ja:appendix-4-5", 83, 90, "抜き出されとき", "抜き出されたとき"),
        ("jcbl-regs-ja:appendix-4-5", 95, 102, "抜き出されとき", "抜き出されたとき"),
        ("jcbl-regs-ja:appendix-7", 7, 16, "不当な情報を伝わる", "不当な情報が伝わる"),
    ]


def test_documents_without_such_entries_have_no_notes():
    assert source_note_rows(parsed("laws-2017-ja"), CORPUS) == []


def test_a_noted_span_no_unit_holds_is_a_build_error_naming_the_errata_line(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    errata = corpus / "errata" / "laws-1997-zh.yml"
    text = errata.read_text(encoding="utf-8").replace("lines: [823]", "lines: [900]")
    errata.write_text(text, encoding="utf-8")
    span_line = text.split("\n").index('  - span: "理发"') + 1
    with pytest.raises(ParseError) as caught:
        source_note_rows(parsed("laws-1997-zh", corpus), corpus)
    assert (caught.value.source, caught.value.line) == (str(errata), span_line)
    assert "'理发' on lines [900] is in no unit of laws-1997-zh" in str(caught.value)


def test_the_table_is_in_the_database(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    try:
        rows = conn.execute("select unit_id, as_printed, means from source_notes order by id").fetchall()
    finally:
        conn.close()
    assert ("laws-1997-zh:21B1", "理发", "更改") in rows and len(rows) == 21


def printed_notes(laws_db_path, doc: str) -> list[tuple]:
    """(unit id, field, as printed, what it means) of each of a document's notes on its source, in order."""
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    try:
        sql = "select unit_id, field, as_printed, means from source_notes where doc = ? order by id"
        return conn.execute(sql, (doc,)).fetchall()
    finally:
        conn.close()


def test_the_1997_slips_are_noted(laws_db_path):
    """Issue 37.7: 复工桥牌 (复式), 所提人 (所提供), 。。, ,,, CONTTESTANT, and what the scan and the reading found
    besides: AUTION, OPENNINGLEAD, DIDE (the definitions' printed English), 第 for 所 and 高速分 for 调整分 in
    the definition of the adjusted score, and the bracket the definition of declarer leaves open."""
    rows = printed_notes(laws_db_path, "laws-1997-zh")
    assert sorted(rows) == sorted(
        [
            ("laws-1997-zh:21B1", "text", "理发", "更改"),
            ("laws-1997-zh:def:裁判", "text", "复工桥牌", "复式桥牌"),
            ("laws-1997-zh:25B2(b)(2)", "text", "所提人", "所提供"),
            ("laws-1997-zh:def:定约", "text", "加倍。。", "加倍。"),
            ("laws-1997-zh:34", "text", "违规,,竞叫", "违规,竞叫"),
            ("laws-1997-zh:def:参赛者", "term_printed", "(CONTTESTANT)", "(CONTESTANT)"),
            ("laws-1997-zh:def:竞叫", "term_printed", "(AUTION)", "(AUCTION)"),
            ("laws-1997-zh:def:首引", "term_printed", "(OPENNINGLEAD)", "(OPENING LEAD)"),
            ("laws-1997-zh:def:一方", "term_printed", "(DIDE)", "(SIDE)"),
            ("laws-1997-zh:def:调整分", "text", "裁判第裁定", "裁判所裁定"),
            ("laws-1997-zh:def:调整分", "text", "裁定高速分", "裁定调整分"),
            ("laws-1997-zh:def:庄家", "text", "参阅第54条A款", "参阅第54条A款)"),
        ]
    )


async def test_the_unit_json_carries_its_source_notes(datasette):
    data = (await datasette.client.get("/laws-1997-zh/21B1.json")).json()
    [note] = data["source_notes"]
    assert {k: note[k] for k in ("ref", "field", "start", "end", "as_printed", "means", "url")} == {
        "ref": "21B1",
        "field": "text",
        "start": 29,
        "end": 31,
        "as_printed": "理发",
        "means": "更改",
        "url": "/laws-1997-zh/21B1",
    }
    assert note["reason"].startswith(HAIRCUT_REASON_START)
    assert data["text"][note["start"] : note["end"]] == "理发"
    assert (await datasette.client.get("/laws-1997-zh/21A.json")).json()["source_notes"] == []


async def test_the_unit_page_shows_the_note_and_its_parent_links_to_it(datasette):
    def note(html: str) -> str:
        block = re.search(r'<aside class="source-notes" lang="[^"]+">(.*?)</aside>', html, re.S)
        assert block, "no source-notes block on the page"
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", block.group(1))).strip()

    # (the English heading said "As printed" before "as printed: 理发": a label said twice)
    assert note((await datasette.client.get("/en/laws-1997-zh/21B1")).text).startswith(
        "Printed so in the source as printed: 理发; probably means: 更改 21B1 prints 理发 (a haircut)"
    )
    assert note((await datasette.client.get("/laws-1997-zh/21B1")).text).startswith(
        "原文のまま 原文の表記: 理发; おそらく本来は: 更改"
    )
    assert note((await datasette.client.get("/zh/laws-1997-zh/21B1")).text).startswith(
        "原文如此 原文: 理发; 可能应为: 更改"
    )
    parent = (await datasette.client.get("/laws-1997-zh/21B")).text
    assert re.search(r'<a href="/laws-1997-zh/21B1">第21条B項1</a>: 原文の表記: <q lang="zh[^"]*">理发</q>', parent)
    assert 'class="source-notes"' not in (await datasette.client.get("/laws-1997-zh/21A")).text


def test_a_source_typo_without_what_it_means_is_a_build_error(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    errata = corpus / "errata" / "laws-1997-zh.yml"
    text = errata.read_text(encoding="utf-8").replace('    means: "更改"\n', "")
    errata.write_text(text, encoding="utf-8")
    with pytest.raises(ParseError) as caught:
        source_note_rows(parsed("laws-1997-zh", corpus), corpus)
    assert caught.value.line == text.split("\n").index('  - span: "理发"') + 1
    assert "needs a span, `means`" in caught.value.message


def test_the_commentarys_slips_in_the_laws_words_are_noted_on_its_pages(laws_db_path):
    """Issue 37.2: L61A reprints 44C as 可能なスート (the Laws: 可能ならスート) and L61B names Law 90
    『手順違反のペナルティ』 (the Laws: 手順上のペナルティ); the witness check decides both "commentary"
    (corpus/witnesses.yml) and the note's page says so."""
    rows = printed_notes(laws_db_path, "revoke-notes-ja")
    assert rows == [
        ("revoke-notes-ja:L61A", "text", "可能なスートにフォロー", "可能ならスートにフォロー"),
        ("revoke-notes-ja:L61B", "text", "手順違反のペナルティ", "手順上のペナルティ"),
    ]


@pytest.mark.parametrize(
    "prefix, said",
    [
        (
            "",
            '原文の表記: <q lang="ja">可能なスートにフォロー</q>; おそらく本来は: <q lang="ja">可能ならスートにフォロー</q>',
        ),
        ("/zh", '原文: <q lang="ja">可能なスートにフォロー</q>; 可能应为: <q lang="ja">可能ならスートにフォロー</q>'),
        (
            "/en",
            'as printed: <q lang="ja">可能なスートにフォロー</q>; probably means: <q lang="ja">可能ならスートにフォロー</q>',
        ),
    ],
)
async def test_l61a_shows_its_slip_in_each_interface_language(datasette, prefix, said):
    html = (await datasette.client.get(prefix + "/revoke-notes-ja/L61A")).text
    notes = re.search(r'<aside class="source-notes" lang="[^"]+">(.*?)</aside>', html, re.S).group(1)
    assert said in notes


# what a reader must not meet in a note: a document's id (laws-2017-ja) or a path of the code or corpus
NOT_FOR_READERS = re.compile(
    r"\b(?:laws-2017-ja|laws-1997-zh|revoke-notes-ja|out-of-turn-notes-ja|jcbl-regs-ja)\b|\b(?:ingest|corpus)/|\.py\b"
)


def test_no_note_shown_to_readers_names_a_document_id_or_a_code_path(laws_db_path):
    """L61A's, L61B's and 参赛者's notes said "as laws-2017-ja ... print" and "(ingest/parsers/laws_zh.py
    ENGLISH_TYPOS)" on their pages, in every interface language."""
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    try:
        reasons = conn.execute("select unit_id, reason from source_notes").fetchall()
    finally:
        conn.close()
    assert len(reasons) > 20
    assert [(unit, reason) for unit, reason in reasons if NOT_FOR_READERS.search(reason)] == []
