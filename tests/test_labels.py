"""Human labels (ingest/references/labels.py): what people read wherever the site would otherwise show an id."""

from __future__ import annotations

import re
import sqlite3

import pytest

from ingest.parsers.records import Unit
from ingest.references.labels import DocumentNames, law_citation, unit_labels

# (unit id, ja, zh, en), read off the whole-corpus build: each is how the book or a reader cites it
EXPECTED = [
    ("laws-2017-ja:61", "第61条", "第61条", "Law 61"),
    ("laws-2017-ja:61B2", "第61条B項2", "第61条B款2", "Law 61B2"),
    ("laws-2017-ja:40B2(a)(v)", "第40条B項2(a)(v)", "第40条B款2(a)(v)", "Law 40B2(a)(v)"),
    ("laws-1997-zh:16A", "第16条A項", "第16条A款", "Law 16A"),
    ("laws-2017-ja:71/closing", "第71条 結び", "第71条 末段", "Law 71, closing paragraph"),
    ("laws-1997-zh:def:藏牌", "定義: 藏牌", "定义: 藏牌", "Definition: REVOKE"),
    # two definitions print the same term: the ref's (2) tells them apart
    ("laws-1997-zh:def:宕墩(2)", "定義: 宕墩(2)", "定义: 宕墩(2)", "Definition: UNDER TRICK (2)"),
    ("laws-2017-ja:fn:19", "脚注19", "脚注19", "Footnote 19"),
    ("laws-2017-ja:fn:ja-22", "日本語版注（第22条）", "日文版注（第22条）", "Japanese edition note (Law 22)"),
    (
        "laws-2017-ja:def:アーティフィシャルコール",
        "定義: アーティフィシャルコール",
        "定义: アーティフィシャルコール",
        "Definition: Artificial call",
    ),
    ("laws-2017-ja:index:ダミー", "索引: ダミー", "索引: ダミー", "Index: “ダミー”"),
    (
        "laws-2017-ja:index:アーティフィシャルコール/アーティフィシャルなパス",
        "索引: アーティフィシャルコール / アーティフィシャルなパス",
        "索引: アーティフィシャルコール / アーティフィシャルなパス",
        "Index: “アーティフィシャルコール / アーティフィシャルなパス”",
    ),
    ("laws-2017-ja:index-row:あ", "索引: あ行", "索引: あ行", "Index: “あ” row"),
    ("laws-2017-ja:toc:61", "目次: 第61条", "目录: 第61条", "Contents: Law 61"),
    ("revoke-notes-ja:quote:63", "第63条の引用", "第63条（引文）", "Law 63 (as reprinted)"),
    ("revoke-notes-ja:L62A", "注釈 L62A", "注释 L62A", "Note L62A"),
    ("out-of-turn-notes-ja:note:57-1", "第57条への注釈", "第57条注释", "Note on Law 57"),
    ("revoke-notes-ja:ruling:1", "裁定 1", "裁定 1", "Ruling 1"),
    # headings the book prints in Japanese, said in each reader's language
    ("laws-2017-ja:introduction", "前書き", "导言", "Introduction"),
    (
        "laws-2017-ja:introduction/ja-note",
        "日本語版注（前書き）",
        "日文版注（导言）",
        "Japanese edition note (Introduction)",
    ),
    ("laws-2017-ja:definitions", "定義", "定义", "Definitions"),
    ("laws-2017-ja:def:競技会", "定義: 競技会", "定义: 競技会", "Definition: Event or Tournament"),
    (
        "laws-2017-ja:def:サイキックコール",
        "定義: サイキックコール",
        "定义: サイキックコール",
        "Definition: Psychic Call",
    ),
    ("revoke-notes-ja:essay:規則の目的", "規則の目的", "规则的目的", "The purpose of the Laws"),
    (
        "laws-2017-ja:preface:laws-2017",
        "2017年版デュプリケートブリッジの規則への前書き",
        "2017年版复式桥牌规则前言",
        "Preface to the 2017 Laws of Duplicate Bridge",
    ),
    ("laws-1997-zh:preface:web", "桥牌（ウェブページの紹介文）", "桥牌", "Bridge (the web page's introduction)"),
    ("revoke-notes-ja:toc", "索引", "目录", "Contents"),
    (
        "laws-1997-zh:division:5-2-3",
        "第五章 第二部分 第三节",
        "第五章 第二部分 第三节",
        "Chapter 5, part 2, division 3",
    ),
    ("jcbl-regs-ja:24", "第24条", "第24条", "Article 24"),
    ("jcbl-regs-ja:24-5-1", "第24条5項1号", "第24条5项1号", "Article 24(5)(1)"),
    ("jcbl-regs-ja:2-1-1", "第2条1項1号", "第2条1项1号", "Article 2(1)(1)"),
    ("jcbl-regs-ja:27-2-3-1", "第27条2項3号①", "第27条2项3号①", "Article 27(2)(3)①"),
    ("jcbl-regs-ja:appendix-7-4-a-ii", "付表7-4(a)(ii)", "附表7-4(a)(ii)", "Appendix 7-4(a)(ii)"),
    ("jcbl-regs-ja:appendix-5-2-1", "付表5-2(1)", "附表5-2(1)", "Appendix 5-2(1)"),
    ("jcbl-regs-ja:appendix-1-table-1", "付表1 表1", "附表1 表1", "Appendix 1, table 1"),
]


@pytest.fixture(scope="module")
def db(laws_db_path):
    connection = sqlite3.connect(laws_db_path)
    yield connection
    connection.close()


def labels_of(db, unit_id: str) -> dict[str, tuple[str, str]]:
    return {
        lang: (label, full)
        for lang, label, full in db.execute(
            "select lang, label, full_label from unit_labels where unit_id = ?", [unit_id]
        )
    }


@pytest.mark.parametrize("unit_id,ja,zh,en", EXPECTED, ids=[row[0] for row in EXPECTED])
def test_label_in_each_interface_language(db, unit_id, ja, zh, en):
    labels = labels_of(db, unit_id)
    assert {lang: label for lang, (label, _) in labels.items()} == {"ja": ja, "zh": zh, "en": en}
    # sections.label is the Japanese interface's label (the site's default language)
    assert db.execute("select label from sections where id = ?", [unit_id]).fetchone()[0] == ja


def test_full_label_names_the_document(db):
    assert labels_of(db, "revoke-notes-ja:quote:63")["ja"][1] == "リボーク注釈: 第63条の引用"
    assert labels_of(db, "revoke-notes-ja:quote:63")["en"][1] == "Revoke notes: Law 63 (as reprinted)"
    assert labels_of(db, "laws-1997-zh:def:藏牌")["zh"][1] == "规则 1997: 定义: 藏牌"


# what an id looks like; a label must never read like one
ID_PATTERN = re.compile(
    r"\b(?:quote|def|index|fn|division|toc|note|part|chapter|ruling|index-row|preface|essay):"
    r"|appendix-\d|[A-Za-z-]+-(?:ja|zh)\b"
)


def test_every_unit_has_a_label_in_every_language_and_none_reads_like_an_id(db):
    units = db.execute("select count(*) from sections").fetchone()[0]
    rows = db.execute("select unit_id, lang, label from unit_labels").fetchall()
    assert len(rows) == 3 * units
    assert {lang for _, lang, _ in rows} == {"ja", "zh", "en"}
    assert [row for row in rows if not row[2] or ID_PATTERN.search(row[2])] == []


def test_labels_tell_units_of_one_document_apart(db):
    """Within a document, two units never share a label (a list of labels must be unambiguous)."""
    same = db.execute("""select s.doc, l.lang, l.label, count(*) from unit_labels l join sections s on s.id = l.unit_id
                         group by s.doc, l.lang, l.label having count(*) > 1""").fetchall()
    assert same == []


def test_law_citation_follows_the_readers_language():
    assert law_citation("61B2(a)", "ja") == "第61条B項2(a)"
    assert law_citation("61B2(a)", "zh") == "第61条B款2(a)"
    assert law_citation("61B2(a)", "en") == "Law 61B2(a)"
    assert law_citation("def:X", "ja") is None


LAW_KINDS = ("law", "section", "item", "subitem", "subsubitem", "quote", "toc_entry", "closing")


def test_every_chinese_label_of_a_law_unit_cites_it_the_chinese_way(db):
    """The corpus's Chinese text cites 第42条B款2; 1,188 zh labels of Japanese units said 第61条B項2.
    (The regulations' paragraphs are 项 in Chinese: 第24条5项1号.)"""
    rows = db.execute(
        f"""select l.unit_id, l.label from unit_labels l join sections s on s.id = l.unit_id
            where l.lang = 'zh' and s.doc != 'jcbl-regs-ja' and s.kind in ({",".join("?" * len(LAW_KINDS))})""",
        LAW_KINDS,
    ).fetchall()
    assert len(rows) > 1500
    assert [row for row in rows if "項" in row[1] or "项" in row[1]] == []
    japanese = db.execute(
        f"""select l.unit_id, l.label from unit_labels l join sections s on s.id = l.unit_id
            where l.lang = 'ja' and s.kind in ({",".join("?" * len(LAW_KINDS))})""",
        LAW_KINDS,
    ).fetchall()
    assert [row for row in japanese if "款" in row[1]] == []


# kana or kanji outside a quoted term (“ダミー”)
JAPANESE_OR_CHINESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def test_every_english_label_is_english_but_for_quoted_terms(db):
    rows = db.execute("select unit_id, label from unit_labels where lang = 'en'").fetchall()
    unquoted = [(unit, label) for unit, label in rows if JAPANESE_OR_CHINESE.search(re.sub(r"“[^”]*”", "", label))]
    assert unquoted == []


def test_a_parent_comes_first_so_regulation_items_read_their_paragraph():
    names = {"regs": DocumentNames("regs", "ja", "regulations", {"ja": "規則"})}
    units = [
        Unit("regs", "24", "article", attrs={"number": 24}),
        Unit("regs", "24-5", "paragraph", parent_ref="24", attrs={"number": 5}),
        Unit("regs", "24-5-1", "item", parent_ref="24-5", attrs={"label": "1."}),
    ]
    labels = unit_labels(units, names)
    assert labels["regs:24-5-1"]["ja"] == {"label": "第24条5項1号", "full_label": "規則: 第24条5項1号"}


async def test_a_regulation_is_cited_wholly_in_each_language(datasette):
    """/en/ copied 「競技会運営規則 Appendix 7(4)」: the Japanese title with an English word and the Japanese
    numbering. Each language's citation now reads wholly in that language, from the unit's labels."""
    import json

    html = (await datasette.client.get("/en/jcbl-regs-ja/appendix-7-4")).text
    forms = json.loads(re.search(r'data-cite-forms="([^"]+)"', html).group(1).replace("&#34;", '"'))
    assert forms == {
        "ja": "競技会運営規則 付表7-4",
        "zh": "竞赛运营规则 附表7-4",
        "en": "JCBL tournament regulations, Appendix 7-4",
    }
    article = (await datasette.client.get("/en/jcbl-regs-ja/24-5-1")).text
    assert "JCBL tournament regulations, Article 24(5)(1)" in article


@pytest.mark.parametrize("prefix", ["", "/zh", "/en"])
async def test_a_note_is_named_once_in_search_results(datasette, prefix):
    """Search results printed 「注釈 L62A L62A」: a note's title is its printed label."""
    html = (
        await datasette.client.get(f"{prefix}/-/search", params={"q": "リボークの訂正", "doc": "revoke-notes-ja"})
    ).text
    # a note's title is not shown again (no empty <span lang> either: test_offline_page_markup)
    items = re.findall(r'<span class="label">([^<]*)</span>(?:<span lang="ja">([^<]*)</span>)?</a>', html)
    notes = [(label, title) for label, title in items if "L62" in label]
    assert len(notes) >= 3 and all(title == "" for _, title in notes), notes


@pytest.mark.parametrize(
    ("path", "citation"),
    [
        ("/zh/laws-2017-ja/40B2(a)(v)", "第40条B款2(a)(v)"),  # was 第40条B項2(a)(v) under a heading of 款
        ("/laws-2017-ja/40B2(a)(v)", "第40条B項2(a)(v)"),
        ("/laws-1997-zh/20F1", "第20条F項1"),
        ("/zh/laws-1997-zh/20F1", "第20条F款1"),
        ("/en/laws-1997-zh/20F1", "Law 20F1"),
    ],
)
async def test_the_citation_shown_without_script_is_in_the_interface_language(datasette, path, citation):
    """The permalink's text (what a page without script shows, and the copy button starts from) cites the
    unit in the interface language's convention, as the heading's label above it does (issue 37.4)."""
    html = (await datasette.client.get(path, headers={"Accept-Language": "ja"})).text
    assert re.search(r'<a class="cite-link"[^>]*>([^<]*)</a>', html).group(1) == citation
