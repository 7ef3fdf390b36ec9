"""A provision read in context: its law and parents' lead-in sentences, its siblings, reading order
within the document, the notes and worked rulings that apply it, and labels (never ids) for people."""

from __future__ import annotations

import html as html_lib
import re
import sqlite3
from urllib.parse import urlencode

import pytest

from ingest.parsers.records import Unit
from ingest.references.reading import commentary_rows, reading_rows
from ingest.text.words import is_whole_word
from laws_site.read.linkify import mark_terms
from laws_site.read.units import permalink


async def page(datasette, path: str) -> str:
    response = await datasette.client.get(path)
    assert response.status_code == 200, path
    return response.text


def block(html: str, start: str, end: str) -> str:
    part = html[html.index(start) :]
    return part[: part.index(end)]


def visible_text(html: str) -> str:
    """What a reader sees: no scripts, styles, tags or attribute values."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", html))


async def test_a_sub_item_shows_its_law_title_and_the_lead_in_it_completes(datasette):
    html = await page(datasette, "/laws-2017-ja/27B1(b)")
    context = block(html, '<section class="unit-context"', "</section>")
    # the law's number and title first, always shown (never folded: a <details> closes on any tap)
    assert re.search(
        r'<li class="context-law"><a class="context-ref" href="/laws-2017-ja/27" lang="ja">第27条</a> '
        r'<span class="context-title">不十分なビッド</span></li>',
        context,
    )
    assert "<details" not in context and "<summary" not in context
    # the chain of parents with their lead-in sentences: 27B's sentence that 27B1(b) completes
    assert re.search(
        r'<a class="context-ref" href="/laws-2017-ja/27B" lang="ja">第27条B項</a> '
        r'<span class="context-title">不十分なビッドが受け入れられなかった場合</span>'
        r'<div class="lead-in">順番通りの不十分なビッドが受け入れられなかった場合（<a class="xref" '
        r'href="/laws-2017-ja/27A"[^>]*>本条A項</a>参照）、合法的なコールに言い直して訂正しなければ'
        r'ならない（ただし、<a class="xref" href="/laws-2017-ja/27B3"[^>]*>本条B項3</a>参照）。そして、</div>',
        context,
    )
    # 27B1 prints no words of its own before its sub-items: the breadcrumb names it, the box does not
    assert 'href="/laws-2017-ja/27B1"' not in context
    # its heading is its label, its siblings are one tap away
    assert '<h1><span class="ref" lang="ja">第27条B項1(b)</span></h1>' in html
    siblings = block(html, '<nav class="siblings"', "</nav>")
    assert re.findall(r">(\([ab]\))<", siblings) == ["(a)", "(b)"]
    assert '<span class="sibling current" aria-current="page">(b)</span>' in siblings


async def test_the_context_is_in_english_under_en(datasette):
    html = await page(datasette, "/en/laws-2017-ja/27B1(b)")
    assert (
        '<a class="context-ref" href="/en/laws-2017-ja/27" lang="en">Law 27</a> <span class="context-title">不十分なビッド</span>'
        in html
    )
    assert '<h2 class="context-label" id="context-label" lang="en">In context</h2>' in html
    assert '<a rel="next" href="/en/laws-2017-ja/27B2" lang="en"><span class="dir">Next →</span> Law 27B2</a>' in html


async def test_27B1b_next_is_27B2_within_the_document(datasette):
    html = await page(datasette, "/laws-2017-ja/27B1(b)")
    assert re.search(
        r'<a rel="next" href="/laws-2017-ja/27B2" lang="ja"><span class="dir">次へ →</span> 第27条B項2</a>', html
    )
    assert re.search(
        r'<a rel="prev" href="/laws-2017-ja/27B1\(a\)" lang="ja"><span class="dir">← 前へ</span> 第27条B項1\(a\)</a>',
        html,
    )


async def test_64C_lists_the_revokes_ruling_1_with_its_first_line(datasette, require_documents):
    require_documents("revoke-notes-ja")
    html = await page(datasette, "/laws-2017-ja/64C")
    rulings = block(html, '<section class="rulings">', "</section>")
    assert "<h2>裁定例</h2>" in rulings
    assert re.search(
        r'<a class="note-label" href="/revoke-notes-ja/ruling:1">裁定 1</a>\s*'
        r'<span class="note-doc">リボーク注釈</span>',
        rulings,
    )
    first = re.search(r'<p class="note-first" lang="ja">(.*?)</p>', rulings, re.S).group(1)
    assert first.startswith("リボークの裁定においては、まずリボークが成立しているかしていないかを判断する。")
    # the notes on 64C keep their own panel, named by label
    commentary = block(html, '<section class="commentary">', "</section>")
    assert '<a class="note-label" href="/revoke-notes-ja/L64C">注釈 L64C</a>' in commentary
    # a law lists what applies one of its parts: 64 has the ruling too; 64C1 (not cited) does not
    assert 'href="/revoke-notes-ja/ruling:1"' in await page(datasette, "/laws-2017-ja/64")
    assert 'class="rulings"' not in await page(datasette, "/laws-2017-ja/64C1")


async def test_out_of_turn_ruling_1_is_listed_on_laws_54_to_57(datasette, require_documents):
    require_documents("out-of-turn-notes-ja")
    for law in ("54", "55", "56", "57"):
        html = await page(datasette, f"/laws-2017-ja/{law}")
        assert 'href="/out-of-turn-notes-ja/ruling:1"' in block(html, '<section class="rulings">', "</section>"), law


async def test_a_hand_diagram_keeps_its_layout(datasette, require_documents):
    require_documents("revoke-notes-ja")
    html = await page(datasette, "/revoke-notes-ja/L64C")
    diagram = re.search(r'<pre class="diagram">(.*?)</pre>', html, re.S).group(1)
    lines = re.sub(r"<[^>]+>", "", diagram).split("\n")
    assert lines == [
        "例C項2:           ♠AKQ5",
        "                       ♠1074               ♠J9",
        "                                   ♠8632",
    ]


async def test_copy_offers_citation_citation_with_text_and_link(datasette):
    html = await page(datasette, "/zh/laws-2017-ja/61B2")
    assert [m for m in re.findall(r'data-copy="(\w+)"[^>]*>([^<]+)</button>', html)] == [
        ("citation", "引用"),
        ("text", "含正文"),
        ("link", "链接"),
    ]


async def test_unit_json_carries_the_composed_full_text(datasette):
    unit = (await datasette.client.get("/laws-2017-ja/27B1.json")).json()
    assert unit["text"] == ""
    assert unit["full_text"] == (
        "(a) 不十分なビッドが、取り消したコールによって特定されるデノミネーションと同じデノミネーションを特定する、"
        "最も低い十分なビッドに訂正された場合、オークションはこれ以上の調整なしに続行する。第26条B項および第16条C項は"
        "適用しないが本条D項参照。\n"
        "(b) (a)を除き、不十分なビッドが同等なコール（第23条A項参照）に訂正された場合、オークションはこれ以上の調整なしに"
        "続行する。第16条C項は適用しないが本条D項参照。"
    )
    leaf = (await datasette.client.get("/laws-2017-ja/27B1(b).json")).json()
    assert leaf["full_text"] == leaf["text"]


async def test_the_api_documentation_is_served_and_linked_from_every_footer(datasette):
    docs = await page(datasette, "/-/api")
    assert "<h1>The JSON API</h1>" in docs and "<h2>Unit: <code>/{doc}/{ref}.json</code></h2>" in docs
    for path in ("/", "/laws-2017-ja/61", "/en/-/glossary", "/laws/sections"):
        footer = block(await page(datasette, path), '<footer class="ft">', "</footer>")
        assert re.search(r'<a href="(/en)?/-/api">', footer), path


# ---------------------------------------------------------------- build tables on small records


def unit(ref: str, kind: str, parent: str | None = None, doc: str = "d-x") -> Unit:
    return Unit(doc=doc, ref=ref, kind=kind, parent_ref=parent)


UNITS = [
    unit("part:1", "part"),
    unit("1", "law", "part:1"),
    unit("1A", "section", "1"),
    unit("1A1", "item", "1A"),
    unit("1A1(a)", "subitem", "1A1"),
    unit("1A1(b)", "subitem", "1A1"),
    unit("1A2", "item", "1A"),
    unit("fn:1", "footnote", "1A2"),
    unit("1B", "section", "1"),
    unit("part:2", "part"),
    unit("2", "law", "part:2"),
]


def test_reading_order_steps_out_of_a_unit_and_over_headings():
    rows = {r["unit_id"].removeprefix("d-x:"): (r["previous_id"], r["next_id"]) for r in reading_rows(UNITS)}
    strip = lambda pair: tuple(p.removeprefix("d-x:") if p else None for p in pair)  # noqa: E731
    assert strip(rows["1A1(b)"]) == ("1A1(a)", "1A2")  # the last sub-item goes on to the next item
    assert strip(rows["1A2"]) == ("1A1", "1B")  # over the footnote, out of the section
    assert strip(rows["1B"]) == ("1A", "2")  # over the next part's heading to its law
    assert strip(rows["2"]) == ("1", None)
    assert strip(rows["1A1(a)"]) == ("1A1", "1A1(b)")
    assert strip(rows["part:2"]) == ("part:1", None)  # a heading keeps its own kind's neighbours


def test_commentary_is_listed_on_the_cited_unit_and_each_unit_containing_it():
    note = Unit(doc="notes", ref="ruling:1", kind="ruling")
    line = Unit(doc="notes", ref="ruling:1/p", kind="paragraph", parent_ref="ruling:1")
    xrefs = [
        {"source_id": line.id, "target_id": "d-x:1A1", "resolved": 1, "kind": "cites"},
        {"source_id": note.id, "target_id": "d-x:9", "resolved": 0, "kind": "cites"},
    ]
    rows = commentary_rows([*UNITS, note, line], xrefs)
    assert [(r["unit_id"], r["source_id"], r["direct"]) for r in rows] == [
        ("d-x:1", "notes:ruling:1", 0),
        ("d-x:1A", "notes:ruling:1", 0),
        ("d-x:1A1", "notes:ruling:1", 1),
        ("d-x:part:1", "notes:ruling:1", 0),
    ]


# ---------------------------------------------------------------- no id where people read


INTERNAL_ID = re.compile(
    r"(?<![\w/%-])(quote|def|index|fn|division|toc|part|chapter|ruling|index-row|preface|"
    r"introduction|front-matter):\S|\b(laws-2017-ja|laws-1997-zh|revoke-notes-ja|"
    r"out-of-turn-notes-ja|jcbl-regs-ja):\S"
    # a document's id alone, outside a URL ("as laws-2017-ja and every other printing of it do")
    r"|(?<![\w/%:.-])(laws-2017-ja|laws-1997-zh|revoke-notes-ja|out-of-turn-notes-ja|jcbl-regs-ja)(?![\w:/.-])"
)


def site_pages(db_path) -> list[str]:
    """Every page kind this module owns, and every unit page of every document."""
    conn = sqlite3.connect(db_path)
    docs = [r[0] for r in conn.execute("select id from documents")]
    units = [permalink(doc, ref) for doc, ref in conn.execute("select doc, ref from sections order by position")]
    terms = ["/-/glossary/" + t for t in ("ダミー", "revoke", "明手")]
    # (/-/api is the documentation of the ids themselves)
    return [
        "/",
        "/-/glossary",
        "/-/citations",
        "/-/citations?from=61&to=64",
        "/laws-2017-ja/-/index",
        "/laws-2017-ja/-/index?row=ら",
        *[f"/{d}" for d in docs],
        *terms,
        *units,
    ]


# the concordance's ids, where a sentence names a move by one: "(concordance: comparable-call)", "(see
# damaging-enforced-pass)", "Concordance move end-of-auction-period.", "damaging-enforced-pass: ..." (not the
# words themselves: "2017 27B1(b) is the comparable-call correction" is English)
def concordance_mentions(conn) -> re.Pattern:
    ids = "|".join(re.escape(r[0]) for r in conn.execute("select id from concordance"))
    return re.compile(rf"\(concordance: [\w-]+\)|\bsee (?:{ids})\b|Concordance move (?:{ids})|(?<![\w-])(?:{ids}): ")


def titles_with_markers(conn) -> re.Pattern:
    """A heading printed with a footnote marker (13 カードの過不足*2, 75B 間違った説明*) shown with the marker glued
    to it, outside the marker's own link (the tab title, prev/next, search results, history, comparisons)."""
    titles = [
        t for t, attrs in conn.execute("select title, attrs from sections") if '"title_footnotes"' in (attrs or "")
    ]
    assert len(titles) >= 4  # 13, 15B, 75B, 86B2
    return re.compile("(?:" + "|".join(re.escape(t) for t in titles) + r")\s?[*＊]")


MARKER_LINK = re.compile(r'<a class="xref footnote-marker"[^>]*>[^<]*</a>')


# a label or printed number said twice in a row (「注釈 L62A L62A」): a word with a Latin letter and a digit, repeated
LABEL_SAID_TWICE = re.compile(r"(?<!\S)(\S*[A-Za-z]\d\S*)\s+\1(?!\S)")
# what a director searches for, including a note by its label
SEARCHES = ["リボーク", "L62A", "注釈", "revoke", "藏牌", "61B2", "第23条", "claim", "ダミー", "comparable call"]


def edition_pages(conn) -> list[str]:
    """Every law's history, every law's comparison between two versions, and the overviews."""
    pairs = conn.execute("select from_doc, to_doc, law from diff_laws order by from_doc, law").fetchall()
    return [
        "/-/history",
        *[f"/-/history/{law}" for (law,) in conn.execute("select law from law_history order by law")],
        *[f"/-/diff/overview?from={a}&to={b}" for a, b in dict.fromkeys((a, b) for a, b, _ in pairs)],
        *[f"/-/diff?ref={law}&from={a}&to={b}" for a, b, law in pairs],
    ]


def search_pages() -> list[str]:
    return [f"/-/search?{urlencode({'q': q, 'list': '1'})}" for q in SEARCHES]


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["", "/zh", "/en"])
async def test_no_visible_text_names_an_internal_id_or_says_a_label_twice(datasette, laws_db_path, prefix):
    """Ids live in URLs and JSON; what people read is a label (第63条の引用, 定義: ダミー, 脚注19), said once, and
    a title without the footnote marker printed after it (its own link): on every page kind, every unit,
    every law's history and comparisons and search results, in each interface language. (The English interface showed "(concordance: comparable-call)" and "see damaging-enforced-pass"
    on 9 unit pages and Law 23's history and compare pages; search results printed 「注釈 L62A L62A」.)"""
    conn = sqlite3.connect(laws_db_path)
    checks = {
        "internal id": INTERNAL_ID,
        "concordance id": concordance_mentions(conn),
        "label said twice": LABEL_SAID_TWICE,
        "footnote marker glued to a title": titles_with_markers(conn),
    }
    offenders = []
    for path in [*site_pages(laws_db_path), *edition_pages(conn), *search_pages()]:
        text = visible_text(MARKER_LINK.sub(" ", await page(datasette, prefix + path)))
        for name, pattern in checks.items():
            found = pattern.search(text)
            if found:
                offenders.append((name, path, text[max(0, found.start() - 30) : found.end() + 30]))
    assert offenders == []


def units_under_a_lead_in(db_path) -> list[tuple[str, str, list[str]]]:
    """(doc, ref, its parents' lead-ins, nearest last) of every unit of the Laws under a parent whose
    own words its text completes (42A: 「ダミーは以下の権利を有する：」)."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    rows = {r[0]: r for r in conn.execute("select id, doc, ref, parent_id, text, kind from sections")}
    conn.close()
    found = []
    for unit_id, doc, ref, parent, _text, kind in rows.values():
        if kind == "footnote" or not doc.startswith("laws-"):
            continue
        lead_ins = []
        while parent in rows:
            lead_ins.insert(0, (rows[parent][4] or "").strip())
            parent = rows[parent][3]
        if any(lead_ins):
            found.append((doc, ref, [lead for lead in lead_ins if lead]))
    return found


@pytest.mark.slow
async def test_every_provision_shows_its_condition_unfolded(datasette, laws_db_path):
    """Whole corpus: every unit of the Laws whose parents' lead-ins set its condition shows each of them in
    its context box, never inside a <details> (43B2(a) read "either defender may choose the hand"
    without 「本条A項2に列記した制限に違反した後、ダミーが、」; Datasette's page script folds an open
    <details> on any tap). The phone's first screen is tests/test_browser.py's, on the named cases."""
    units = units_under_a_lead_in(laws_db_path)
    assert len(units) > 1000
    missing = []
    for doc, ref, lead_ins in units:
        html = await page(datasette, permalink(doc, ref))
        context = block(html, '<section class="unit-context"', "</section>")
        # (an unresolved reference's reason, shown on a tap, is not the lead-in's words)
        context = re.sub(r'<span class="unresolved-reason"[^>]*>[^<]*</span>', "", context)
        shown = re.sub(r"\s+", "", visible_text(context))
        if "<details" in context or "<summary" in context:
            missing.append((ref, "folded"))
        missing += [(ref, lead) for lead in lead_ins if re.sub(r"\s+", "", lead) not in shown]
    assert missing == []


async def test_a_defined_term_is_marked_once_for_its_definition_in_place(datasette):
    html = await page(datasette, "/laws-2017-ja/27B1(b)")
    terms = re.findall(r'<a class="term" href="([^"]+)" title="([^"]+)">([^<]+)</a>', html)
    assert (permalink("laws-2017-ja", "def:コール"), "コール (Call)", "コール") in terms
    assert [t[2] for t in terms].count("コール") == 1  # its first occurrence only


TERMS = {
    t: {"url": f"/d/def:{t}", "label": t}
    for t in ("プレイ", "プレイヤー", "コール", "アーティフィシャルコール", "IMP", "反則")
}


@pytest.mark.parametrize(
    "text, marked",
    [
        # プレイヤー is not a defined term here: プレイ is not a word of it (64A2 linked 「<a>プレイ</a>ヤー」)
        ("反則したプレイヤー*19が", ["反則"]),
        ("プレイヤがプレイする", ["プレイ"]),  # the book's spelling プレイヤ runs on too
        ("プレイヤーのプレイ", ["プレイヤー", "プレイ"]),  # the longest term where two begin at one place
        ("アーティフィシャルコールのあとのコール", ["アーティフィシャルコール", "コール"]),
        ("2 IMPs、IMPで", ["IMP"]),  # a Latin word runs on while letters do
        ("反則側", ["反則"]),  # kanji have no edge to see: the longest term decides
    ],
)
def test_glossary_terms_link_whole_words_only(text, marked):
    blocks_ = [{"segments": [{"text": text}]}]
    mark_terms(blocks_, {t: TERMS[t] for t in TERMS if t != "プレイヤー" or "プレイヤー" in marked}, set())
    assert [s["text"] for s in blocks_[0]["segments"] if s.get("term")] == marked
    assert "".join(s["text"] for s in blocks_[0]["segments"]) == text


def test_no_term_is_linked_inside_a_longer_katakana_or_latin_word_anywhere(laws_db_path):
    """Whole corpus: every defined term of each document, linked in every unit's text and title as a
    unit page links it, is a whole word there (「<a>プレイ</a>ヤー」 on 64A2 was not)."""
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    definitions: dict[str, dict] = {}
    for doc, title in conn.execute("select doc, title from sections where kind = 'definition' and title != ''"):
        definitions.setdefault(doc, {})[title] = {"url": "", "label": title}
    units = conn.execute("select doc, id, title, text from sections").fetchall()
    conn.close()
    assert sum(len(terms) for terms in definitions.values()) > 100
    runs_on, marked = [], 0
    for doc, unit_id, *fields in units:
        for text in filter(None, fields):
            blocks_ = [{"segments": [{"text": text}]}]
            mark_terms(blocks_, definitions.get(doc, {}), set())
            at = 0
            for segment in blocks_[0]["segments"]:
                end = at + len(segment["text"])
                if segment.get("term"):
                    marked += 1
                    if not is_whole_word(text, at, end):
                        runs_on.append((unit_id, text[max(0, at - 3) : end + 3]))
                at = end
    assert marked > 1000
    assert runs_on == []


def test_a_term_marked_once_is_not_found_again_inside_a_longer_one():
    """The second アーティフィシャルコール stays text, and コール is not linked inside it."""
    blocks_ = [{"segments": [{"text": "アーティフィシャルコール。アーティフィシャルコールとコール"}]}]
    mark_terms(blocks_, TERMS, set())
    texts = [(s["text"], bool(s.get("term"))) for s in blocks_[0]["segments"]]
    assert texts == [
        ("アーティフィシャルコール", True),
        ("。アーティフィシャルコールと", False),
        ("コール", True),
    ]


async def test_64A2_links_no_definition_inside_a_longer_word(datasette):
    html = await page(datasette, "/laws-2017-ja/64A2")
    body = block(html, '<div class="unit-body">', "</article>")
    assert "反則したプレイヤー<a" in body  # プレイヤー as printed, its footnote marker after it
    assert not re.search(r'<a class="term"[^>]*>[^<]*</a>[\u30a1-\u30ff]', html)  # no link ends inside a word
    assert not re.search(r'[\u30a1-\u30ff]<a class="term"', html)


@pytest.mark.parametrize(
    "prefix, first",
    [
        ("", "規則 2017: 定義: IMP"),
        ("/zh", "规则 2017: 定义: IMP"),
        ("/en", "Laws 2017: Definition: International Match Point"),
    ],
)
async def test_glossary_sources_are_named_in_the_interface_language(datasette, prefix, first):
    html = await page(datasette, prefix + "/-/glossary")
    assert re.findall(r'<td class="sources"><a[^>]*>([^<]*)</a>', html)[0] == first


def test_a_law_s_previous_is_the_law_before_it_even_one_level_deeper():
    """1997 Law 22 is in division 5-1-2, Law 23 directly under part 5-2: Law 23's 'previous' was Law 16C."""
    units = [
        Unit(doc="z", ref="part:1", kind="part"),
        Unit(doc="z", ref="16", kind="law", parent_ref="part:1"),
        Unit(doc="z", ref="16C", kind="section", parent_ref="16"),
        Unit(doc="z", ref="division:1", kind="division", parent_ref="part:1"),
        Unit(doc="z", ref="22", kind="law", parent_ref="division:1"),
        Unit(doc="z", ref="part:2", kind="part"),
        Unit(doc="z", ref="23", kind="law", parent_ref="part:2"),
    ]
    rows = {r["unit_id"]: (r["previous_id"], r["next_id"]) for r in reading_rows(units)}
    assert rows["z:23"] == ("z:22", None) and rows["z:22"][1] == "z:23"


async def test_1997_law_23_reads_after_law_22(datasette):
    html = await page(datasette, "/laws-1997-zh/23")
    assert re.search(r'rel="prev"[^>]*href="/laws-1997-zh/22"|href="/laws-1997-zh/22"[^>]*rel="prev"', html)


async def test_a_law_s_sibling_links_are_provisions_not_the_divisions_beside_it(datasette):
    """1997 Law 23 sits directly under chapter 5 part 2, beside divisions 1-6: its sibling row listed
    'Law 23' and six 'Chapter 5, part 2, division n' links."""
    html = await page(datasette, "/en/laws-1997-zh/23")
    assert "division" not in (re.search(r'<nav class="siblings".*?</nav>', html, re.S) or [""])[0]
    html = await page(datasette, "/laws-2017-ja/27B1(b)")
    assert re.search(r'<nav class="siblings".*?</nav>', html, re.S)  # (a) (b) stay
