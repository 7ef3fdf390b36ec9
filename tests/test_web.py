"""The law library over HTTP (Datasette's test client): each page type and its JSON."""

from __future__ import annotations

import html as html_lib
import re
from html.parser import HTMLParser
from urllib.parse import quote, unquote

import pytest

from laws_site import compat
from laws_site.read.units import permalink


class Links(HTMLParser):
    """(href, text, attrs) of every <a>, and the search forms' actions/inputs."""

    def __init__(self):
        super().__init__()
        self.links, self.forms, self._open = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a":
            self._open = [attrs.get("href"), "", attrs]
        elif tag == "form":
            self.forms.append({"action": attrs.get("action"), "method": attrs.get("method"), "inputs": []})
        elif tag == "input" and self.forms:
            self.forms[-1]["inputs"].append(attrs.get("name"))

    def handle_data(self, data):
        if self._open is not None:
            self._open[1] += data

    def handle_endtag(self, tag):
        if tag == "a" and self._open is not None:
            self.links.append(tuple(self._open))
            self._open = None


def parse(html: str) -> Links:
    parser = Links()
    parser.feed(html)
    return parser


async def get(datasette, path: str):
    return await datasette.client.get(path)


def assert_search_box(html: str):
    forms = parse(html).forms
    assert any(f["action"] == "/-/search" and f["method"] == "get" and "q" in f["inputs"] for f in forms), forms


# --- home -----------------------------------------------------------------------------------------


async def test_home_lists_every_document_with_edition_publisher_and_copyright(datasette, laws_build):
    response = await get(datasette, "/")
    assert response.status_code == 200
    assert_search_box(response.text)
    hrefs = [href for href, _, _ in parse(response.text).links]
    documents = (await get(datasette, "/laws/documents.json?_shape=array")).json()
    assert {d["id"] for d in documents} == set(laws_build.documents)
    for document in documents:
        assert f"/{document['id']}" in hrefs
        for field in ("title", "edition", "publisher", "copyright"):
            assert escape_text(document[field]) in response.text, (document["id"], field)
        # the date in the interface language: 2019-04-15 is 2019年4月15日 on the Japanese page
        year, month, day = (int(p) for p in document["version_date"].split("-"))
        assert f"{year}年{month}月{day}日" in response.text, document["id"]


def escape_text(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


# --- unit page -----------------------------------------------------------------------------------


async def test_law_61_links_every_reference_at_its_offsets(datasette):
    response = await get(datasette, "/laws-2017-ja/61")
    assert response.status_code == 200
    assert_search_box(response.text)
    links = parse(response.text).links
    # 61A: 「第44条で定められた…」 and 「第59条参照」; 61B2(a) cites 第43条B項2(b); 61C cites 第66条C項
    xref_links = {(unquote(href), text) for href, text, attrs in links if "xref" in (attrs.get("class") or "")}
    assert ("/laws-2017-ja/44", "第44条") in xref_links
    assert ("/laws-2017-ja/59", "第59条") in xref_links
    assert ("/laws-2017-ja/43B2(b)", "第43条B項2(b)") in xref_links
    assert ("/laws-2017-ja/66C", "第66条C項") in xref_links


async def test_unit_page_nests_descendants_with_printed_labels(datasette):
    html = (await get(datasette, "/laws-2017-ja/61")).text
    labels = [text for href, text, attrs in parse(html).links if attrs.get("class") == "unit-label"]
    assert labels[:7] == ["A.", "B.", "1.", "2.", "(a)", "(b)", "3."]
    # the sub-item sits inside the item, inside the section
    assert re.search(r'id="u-61B".*id="u-61B2".*id="u-61B2\(a\)"', html, re.S)
    assert "93ページ" in html


async def test_unit_page_breadcrumb_runs_document_part_law_section(datasette):
    html = (await get(datasette, "/laws-2017-ja/61B2(a)")).text
    crumb = re.search(r'<p class="crumbs breadcrumb">(.*?)</p>', html, re.S).group(1)
    hrefs = [unquote(href) for href, _, _ in parse(crumb).links]
    assert hrefs == [
        "/laws-2017-ja",
        "/laws-2017-ja/part:5",
        "/laws-2017-ja/61",
        "/laws-2017-ja/61B",
        "/laws-2017-ja/61B2",
    ]


async def test_unit_page_shows_backlinks_commentary_definitions_other_edition(datasette, require_documents):
    require_documents("revoke-notes-ja", "laws-1997-zh")
    html = (await get(datasette, "/laws-2017-ja/61")).text
    hrefs = {unquote(href) for href, _, _ in parse(html).links}
    assert "/revoke-notes-ja/L61A" in hrefs  # commentary note covering 61A
    assert (
        'data-group="index"' in html
        and "/laws-2017-ja/index:リボーク" in hrefs
        or any(h.startswith("/laws-2017-ja/index:") for h in hrefs)
    )  # index terms citing Law 61
    assert "/laws-2017-ja/def:ダミー" in hrefs  # ダミー is used in 61B2
    assert "/laws-1997-zh/61" not in hrefs  # the 1997 page stops inside Law 52
    html_44 = (await get(datasette, "/laws-2017-ja/44")).text
    hrefs_44 = {unquote(href) for href, _, _ in parse(html_44).links}
    assert "/laws-1997-zh/44" in hrefs_44
    assert "/-/diff?ref=44&from=laws-1997-zh&to=laws-2017-ja" in {h.replace("&amp;", "&") for h in hrefs_44}
    assert "/laws-2017-ja/61A" in hrefs_44  # 61A cites 第44条: a backlink


async def test_backlinks_are_grouped_by_citing_kind(datasette, require_documents):
    require_documents("revoke-notes-ja")
    html = (await get(datasette, "/laws-2017-ja/44")).text
    groups = re.findall(r'data-group="(\w+)"', html)
    assert groups[0] == "laws" and "index" in groups
    assert groups == sorted(groups, key=["laws", "index", "regulations"].index)
    # commentary is not repeated among the backlinks: it has its own panel
    assert "commentary" not in groups and 'class="commentary"' in html


async def test_commentary_panel_shows_label_and_first_line_expandable(datasette, require_documents):
    require_documents("revoke-notes-ja")
    html = (await get(datasette, "/laws-2017-ja/61")).text
    panel = html[html.index('<section class="commentary">') :]
    panel = panel[: panel.index("</section>")]
    notes = re.findall(
        r'<div class="commentary-note commentary-note">\s*<p class="note-head"><a class="note-label" href="([^"]+)"[^>]*>([^<]+)</a>',
        panel,
    )
    assert ("/revoke-notes-ja/L61A", "注釈 L61A") in notes  # its label, not its id
    first = re.search(r'L61A.*?<p class="note-first" lang="ja">(.*?)</p>', panel, re.S).group(1)
    assert "『プレイの順序と進行』" in first and "トリックに対してプレイするときは" not in first
    rest = re.search(r'L61A.*?<details class="note-rest">\s*<summary>続きを読む</summary>(.*?)</details>', panel, re.S)
    assert "トリックに対してプレイするときは" in rest.group(1)  # the rest, one tap below
    assert not re.search(r"<summary>(?:(?!</summary>).)*<a ", html, re.S)  # no link inside a summary
    assert "2017年版 デュプリケートブリッジの規則 リボークに関する注釈" not in panel  # short titles only
    assert re.search(r'リボーク注釈に再録:.*href="/revoke-notes-ja/quote:61A">第61条A項の引用</a>', panel, re.S)
    assert "/-/diff?ref=61&amp;from=revoke-notes-ja&amp;to=laws-2017-ja" in panel


@pytest.mark.parametrize(
    "prefix, label",
    [("", "定義: 裁判"), ("/zh", "定义: 裁判"), ("/en", "Definition: DIRECTOR")],
)
async def test_a_source_note_on_a_unit_inside_the_page_names_it_by_its_label(datasette, prefix, label):
    """Chapter 1 of the 1997 Laws shows its definitions' slips (复工桥牌 for 复式桥牌): each says which
    definition by the label a reader reads, not by its internal ref (it printed 「def:裁判: as printed」)."""
    html = (await get(datasette, prefix + "/laws-1997-zh/chapter:1")).text
    link = re.search(
        r'<li><a href="[^"]*/laws-1997-zh/def:%E8%A3%81%E5%88%A4">([^<]+)</a>: [^<]*<q lang="zh">复工桥牌', html
    )
    assert link is not None and link.group(1) == label
    assert ">def:" not in html


async def test_a_footnote_printed_under_another_unit_is_shown_in_full_where_it_is_marked(datasette):
    """64A2's *19 (the dummy's trick is not declarer's) decides who won the trick; the book prints it under 64A1,
    and 64A2's page showed only the marker's link."""
    html = (await get(datasette, "/laws-2017-ja/64A2")).text
    assert '<a class="xref footnote-marker" href="#fn-fn:19" title="脚注19">*19</a>' in html
    footnotes = html[html.index('<aside class="footnotes">') :]
    footnotes = footnotes[: footnotes.index("</aside>")]
    assert re.findall(r'<li id="fn-([^"]+)">.*?<span class="footnote-text">(.*?)</span></li>', footnotes) == [
        ("fn:19", "この条項の適用に当たり、ダミーが取ったトリックはディクレアラーが取ったことにならない。")
    ]
    # its references are links there too: *15, printed under 51B1(a), marked in 51B1(b), cites Law 59
    html = (await get(datasette, "/laws-2017-ja/51B1(b)")).text
    assert re.search(r'<li id="fn-fn:15">.*?<a class="xref" href="/laws-2017-ja/59"[^>]*>第59条</a>', html, re.S)


async def test_a_title_is_its_words_and_its_footnote_marker_a_link_of_its_own(datasette):
    """13 was 「カードの過不足*2」 in the tab, prev/next and the context ("過不足*2" reads like "×2" on a phone)."""
    html = (await get(datasette, "/laws-2017-ja/13")).text
    assert "<title>第13条 カードの過不足 — 規則 2017</title>" in html
    assert (
        '<h1><span class="ref" lang="ja">第13条</span> カードの過不足<a class="xref footnote-marker" href="#fn-fn:2"'
        in html
    )
    assert re.search(r'<li id="fn-fn:2">.*?この規則は1つ以上のハンドのカードが13枚より多い場合に適用する。', html)
    following = (await get(datasette, "/laws-2017-ja/12C4")).text
    assert re.search(
        r'<a rel="next" href="/laws-2017-ja/13"[^>]*>.*?第13条 <span lang="ja">カードの過不足</span></a>', following
    )
    # a provision under Law 13 reads its law's heading with the marker, and the footnote in full
    html = (await get(datasette, "/laws-2017-ja/13A1")).text
    assert (
        '<span class="context-title">カードの過不足<a class="xref footnote-marker" href="#fn-fn:2" title="*2">*2</a>'
        in html
    )
    assert '<li id="fn-fn:2">' in html


async def test_a_reprint_list_names_reprints_of_the_unit_and_compares_them(datasette, require_documents):
    """Law 42 listed 「リボーク注釈に再録: 第43条の引用」 and its 比較 opened an empty comparison (the reprint of 43
    cites 42): the list reads the build's unit_commentary, which now holds reprints of the unit only."""
    require_documents("revoke-notes-ja")
    assert 'class="reprints"' not in (await get(datasette, "/laws-2017-ja/42")).text
    html = (await get(datasette, "/laws-2017-ja/64A2")).text
    reprints = re.search(r'<p class="reprints">(.*?)</p>', html, re.S).group(1)
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', reprints) == [
        ("/revoke-notes-ja/quote:64A2", "第64条A項2の引用")
    ]
    compare = html_lib.unescape(re.search(r'<a class="compare" href="([^"]+)"', reprints).group(1))
    rows = (await get(datasette, compare.replace("/-/diff?", "/-/diff.json?"))).json()["rows"]
    assert [(r["from_ref"], r["to_ref"], r["status"]) for r in rows] == [("64A2", "64A2", "same")]


async def test_footnote_marker_links_to_the_footnote_on_the_page(datasette):
    html = (await get(datasette, "/laws-2017-ja/6D2")).text
    marker = [
        (href, text) for href, text, attrs in parse(html).links if "footnote-marker" in (attrs.get("class") or "")
    ]
    assert marker == [("#fn-fn:1", "*1")]
    assert 'id="fn-fn:1"' in html and "揃えられたデッキ" in html


async def test_unresolved_reference_is_marked_with_its_reason(datasette, laws_db_path):
    import sqlite3

    conn = sqlite3.connect(laws_db_path)
    row = conn.execute(
        "select s.doc, s.ref, x.surface, x.reason from xrefs x join sections s on s.id = x.source_id "
        "where x.resolved = 0 and x.start is not null and x.field = 'text' limit 1"
    ).fetchone()
    assert row, "the corpus has unresolved references (1997 page cut off in Law 52)"
    doc, ref, surface, reason = row
    html = (await get(datasette, permalink(doc, ref))).text
    # it reads as text (no link, no id); a tap (focus) shows why, in words
    assert re.search(
        r'<span class="unresolved" tabindex="0">'
        + re.escape(escape_text(surface))
        + r'<span class="unresolved-reason" role="note">[^<]+</span></span>',
        html,
    )
    assert escape_text(reason) not in html


@pytest.mark.parametrize(
    "ref, previous, following",
    [
        ("61", "60", "62"),
        ("61B", "61A", "61C"),
        ("27B1(b)", "27B1(a)", "27B2"),  # the next is in reading order within the document, not 30B1(a)
        ("61B3", "61B2", "61C"),  # not 62A: 61C comes first
        ("27B1(a)", "27B1", "27B1(b)"),
        ("27B2", "27B1", "27B3"),
        ("61C", "61B", "62"),
    ],
)
async def test_prev_next_follow_reading_order_within_the_document(datasette, ref, previous, following):
    html = (await get(datasette, permalink("laws-2017-ja", ref))).text
    prev = re.search(r'<a rel="prev" href="([^"]+)"', html).group(1)
    nxt = re.search(r'<a rel="next" href="([^"]+)"', html).group(1)
    assert (prev, nxt) == (permalink("laws-2017-ja", previous), permalink("laws-2017-ja", following))


async def test_text_is_escaped_before_markup(datasette, laws_db_path):
    """Units whose text holds '<' or '&' show it escaped, never as raw markup."""
    import sqlite3

    conn = sqlite3.connect(laws_db_path)
    rows = conn.execute(
        "select doc, ref, text from sections where text like '%<%' or text like '%&%' limit 5"
    ).fetchall()
    for doc, ref, text in rows:
        html = (await get(datasette, permalink(doc, ref))).text
        line = next(line for line in text.split("\n") if "<" in line or "&" in line)
        assert escape_text(line)[:40] in html


async def test_linked_text_escapes_text_around_and_inside_links(datasette):
    """linkify returns segments; the template macro escapes every piece of text."""
    from laws_site.read.linkify import segments

    text = "<b>第44条</b> & 第99条"
    xrefs = [
        {
            "start": 3,
            "end": 7,
            "field": "text",
            "resolved": 1,
            "target_id": "laws-2017-ja:44",
            "target_doc": "laws-2017-ja",
            "target_ref": "44",
            "kind": "cites",
        },
        {
            "start": 14,
            "end": 18,
            "field": "text",
            "resolved": 0,
            "target_id": None,
            "target_doc": "laws-2017-ja",
            "target_ref": "99",
            "kind": "cites",
            "reason": 'no "unit" <99>',
        },
    ]
    pieces = segments(text, xrefs)
    assert [p["text"] for p in pieces] == ["<b>", "第44条", "</b> & ", "第99条"]
    macros = await compat.jinja_environment(datasette).get_template("_text.html").make_module_async()
    from laws_site.i18n import catalog as i18n

    token = i18n.current.set("en")  # the reason is in the interface language (English here)
    assert str(await macros.linked(pieces)) == (
        '&lt;b&gt;<a class="xref" href="/laws-2017-ja/44" title="44">第44条</a>&lt;/b&gt; &amp; '
        '<span class="unresolved" tabindex="0">第99条<span class="unresolved-reason" role="note">'
        "This reference could not be followed: no &#34;unit&#34; &lt;99&gt;</span></span>"
    )
    i18n.current.reset(token)
    assert segments(text, xrefs, start=7, end=12) == [{"text": "</b> "}]


def test_page_modules_build_no_html():
    """Python returns data, templates own the markup: no Markup or tags in the page modules."""
    from pathlib import Path

    import laws_site

    root = Path(laws_site.__file__).parent
    for module in [
        root / "pages" / f"{name}.py" for name in ("home", "contents", "unit", "index_terms", "citations", "diff")
    ] + [root / "read" / "linkify.py"]:
        source = module.read_text(encoding="utf-8")
        assert "Markup" not in source and "<del" not in source and "<a " not in source, module.name


# --- JSON, permalinks, redirects, 404 ---------------------------------------------------------


async def test_unit_json_has_show_fields_and_references(datasette):
    response = await get(datasette, "/laws-2017-ja/61B2(a).json")
    assert response.status_code == 200
    data = response.json()
    assert {k: data[k] for k in ("id", "doc", "ref", "kind", "parent", "children", "page", "url")} == {
        "id": "laws-2017-ja:61B2(a)",
        "doc": "laws-2017-ja",
        "ref": "61B2(a)",
        "kind": "subitem",
        "parent": "61B2",
        "children": [],
        "page": 93,
        "url": "/laws-2017-ja/61B2(a)",
    }
    assert data["text"] == "ダミーはディクレアラーに質問することができる（ただし、第43条B項2(b)参照）。"
    assert [(o["surface"], o["target_ref"], o["url"]) for o in data["outgoing"]] == [
        ("第43条B項2(b)", "43B2(b)", "/laws-2017-ja/43B2(b)")
    ]
    assert data["text"][data["outgoing"][0]["start"] : data["outgoing"][0]["end"]] == "第43条B項2(b)"
    assert isinstance(data["incoming"], list)


async def test_show_json_and_web_json_agree(datasette, laws_db_path):
    import json

    from click.testing import CliRunner

    from laws_site.cli import cli

    shown = json.loads(
        CliRunner().invoke(cli, ["show", "laws-2017-ja", "61B2(a)", "--json", "--db", str(laws_db_path)]).output
    )
    web = (await get(datasette, "/laws-2017-ja/61B2(a).json")).json()
    assert {k: web[k] for k in shown} == shown


@pytest.mark.parametrize(
    "path, doc",
    [
        ("/laws-2017-ja/61B2(a)", "laws-2017-ja"),
        ("/laws-2017-ja/" + quote("def:ダミー"), "laws-2017-ja"),
        ("/laws-2017-ja/def:ダミー", "laws-2017-ja"),
        ("/jcbl-regs-ja/24-5-1", "jcbl-regs-ja"),
        ("/revoke-notes-ja/L61A", "revoke-notes-ja"),
        ("/laws-2017-ja/" + quote("index:アーティフィシャルコール/アーティフィシャルなパス", safe=":"), "laws-2017-ja"),
    ],
)
async def test_permalinks_resolve(datasette, require_documents, path, doc):
    require_documents(doc)
    response = await get(datasette, path)
    assert response.status_code == 200, path
    data = (await get(datasette, path + ".json")).json()
    assert data["url"] == permalink(data["doc"], data["ref"])
    assert unquote(path).endswith(data["ref"])


@pytest.mark.parametrize(
    "typed, canonical",
    [
        ("61-B-2-a", "/laws-2017-ja/61B2(a)"),
        ("第61条B項", "/laws-2017-ja/61B"),
        ("61b2a", "/laws-2017-ja/61B2(a)"),
        ("40b2av", "/laws-2017-ja/40B2(a)(v)"),
        ("61-b-2-a.json", "/laws-2017-ja/61B2(a).json"),
    ],
)
async def test_other_spellings_redirect_to_the_canonical_ref(datasette, typed, canonical):
    response = await get(datasette, "/laws-2017-ja/" + quote(typed, safe="()."))
    assert response.status_code == 302
    assert unquote(response.headers["location"]) == canonical


async def test_regulation_and_note_spellings_redirect(datasette, require_documents):
    require_documents("jcbl-regs-ja", "revoke-notes-ja")
    response = await get(datasette, "/jcbl-regs-ja/" + quote("第24条5項1号"))
    assert (response.status_code, response.headers["location"]) == (302, "/jcbl-regs-ja/24-5-1")
    response = await get(datasette, "/revoke-notes-ja/l61a")
    assert (response.status_code, response.headers["location"]) == (302, "/revoke-notes-ja/L61A")


async def test_unknown_ref_is_a_404_with_nearest_refs(datasette):
    response = await get(datasette, "/laws-2017-ja/61B9")
    assert response.status_code == 404
    suggestions = re.search(r'<ul class="suggestions">(.*?)</ul>', response.text, re.S).group(1)
    hrefs = [unquote(h) for h, _, _ in parse(suggestions).links]
    assert "/laws-2017-ja/61B" in hrefs and "/laws-2017-ja/61" in hrefs
    data = (await get(datasette, "/laws-2017-ja/61B9.json")).json()
    assert "61B" in [s["label"] for s in data["suggestions"]]


@pytest.mark.parametrize(
    "path",
    [
        "/no-such-doc/61",
        "/laws-2017-ja/%3Cb%3Ebold%3C%2Fb%3E",
        "/laws-2017-ja/%E3%81%82%2F..",
        "/laws-2017-ja/99ZZ(q)(xx)",
        "/no-such-doc",
        "/laws-2017-ja/-/nothing",
        "/laws-2017-ja/%FF%FE",
        "/-/citations?from=x&to=%3Cb%3E",
    ],
)
async def test_bad_addresses_are_404_not_500(datasette, path):
    response = await get(datasette, path)
    # a bad law number on /-/citations is a 400 (issue 21: bad values of known parameters)
    assert response.status_code == (400 if path.startswith("/-/citations") else 404), path
    assert "<b>bold</b>" not in response.text and "<b>" not in response.text


async def test_datasette_table_routes_are_not_shadowed(datasette):
    response = await get(datasette, "/laws/sections.json?_shape=array&_size=1")
    assert response.status_code == 200 and isinstance(response.json(), list)
    assert (await get(datasette, "/laws")).status_code == 200


# --- document pages, index, glossary, citations --------------------------------------------------


async def test_document_page_is_the_printed_contents(datasette):
    response = await get(datasette, "/laws-2017-ja")
    assert response.status_code == 200
    data = (await get(datasette, "/laws-2017-ja.json")).json()
    toc_laws = [row["ref"] for row in data["toc"] if row["depth"] == 0]
    assert toc_laws == [str(n) for n in range(1, 94)]
    assert {
        "ref": "61B",
        "title": "リボークの可能性について質問する権利",
        "depth": 1,
        "url": "/laws-2017-ja/61B",
        "part": "プレイ",
    } in data["toc"]
    assert '<a href="/laws-2017-ja/61"><span class="ref">61</span> ' in response.text


@pytest.mark.parametrize(
    "doc, expected",
    [
        ("jcbl-regs-ja", ("24", "article", 1)),
        ("laws-1997-zh", ("52", "law", None)),
        ("revoke-notes-ja", ("L61A", "note", None)),
    ],
)
async def test_other_documents_list_their_structure(datasette, require_documents, doc, expected):
    require_documents(doc)
    data = (await get(datasette, f"/{doc}.json")).json()
    ref, kind, depth = expected
    row = next(r for r in data["outline"] if r["ref"] == ref)
    assert row["kind"] == kind and row["url"] == permalink(doc, ref)
    if depth is not None:
        assert row["depth"] == depth
    html = (await get(datasette, f"/{doc}")).text
    assert f'href="{permalink(doc, ref)}"' in html


async def test_index_is_browsable_by_kana_row_with_linked_refs(datasette, laws_db_path):
    import sqlite3

    response = await get(datasette, "/laws-2017-ja/-/index")
    assert response.status_code == 200
    rows = re.findall(r'<section class="kana-row" id="row-(.)">', response.text)
    assert rows[:4] == ["あ", "か", "さ", "た"]
    conn = sqlite3.connect(laws_db_path)
    resolved_locators = conn.execute(
        "select count(*) from xrefs x join sections s on s.id = x.source_id "
        "where s.kind = 'index_entry' and x.resolved = 1 and x.field = 'text'"
    ).fetchone()[0]
    xref_links = [h for h, _, a in parse(response.text).links if a.get("class") == "xref"]
    assert len(xref_links) == resolved_locators
    only_ka = (await get(datasette, "/laws-2017-ja/-/index?row=" + quote("か"))).text
    assert re.findall(r'id="row-(.)"', only_ka) == ["か"]
    data = (await get(datasette, "/laws-2017-ja/-/index.json?row=" + quote("あ"))).json()
    imp = next(e for e in data["rows"][0]["entries"] if e["ref"] == "index:IMP")
    assert imp["refs_printed"] == "定義, 78B"
    assert '<a class="xref" href="/laws-2017-ja/78B"' in response.text


@pytest.mark.parametrize(
    "kana, row",
    [
        ("り", "ら"),
        ("リ", "ら"),
        ("ら", "ら"),
        ("が", "か"),
        ("ｶ", "か"),
        ("っ", "た"),
        ("ぽ", "は"),
        ("ゆ", "や"),
        ("に", "な"),
        ("を", "わ"),
    ],
)
async def test_any_kana_of_a_row_selects_the_row(datasette, kana, row):
    response = await get(datasette, "/laws-2017-ja/-/index?row=" + quote(kana))
    assert response.status_code == 200
    assert re.findall(r'<section class="kana-row" id="row-(.)">', response.text) == [row]
    data = (await get(datasette, "/laws-2017-ja/-/index.json?row=" + quote(kana))).json()
    assert data["row"] == row and [r["row"] for r in data["rows"]] == [row]


async def test_readme_index_url_lists_the_ra_row(datasette, laws_db_path):
    import sqlite3

    conn = sqlite3.connect(laws_db_path)
    expected = conn.execute(
        "select count(*) from sections where kind = 'index_entry' and json_extract(attrs, '$.row') = 'ら'"
    ).fetchone()[0]
    html = (await get(datasette, "/laws-2017-ja/-/index?row=" + quote("り"))).text
    assert expected > 0 and html.count("<dt class=") == expected
    # every row with entries lists them; all ten rows are offered, a row without entries says so
    everything = (await get(datasette, "/laws-2017-ja/-/index")).text
    offered = re.findall(r'href="/laws-2017-ja/-/index\?row=([^"]+)"', everything)
    assert [unquote(r) for r in offered] == list("あかさたなはまやらわ")
    rows_with_entries = [
        r
        for (r,) in conn.execute(
            "select distinct json_extract(attrs, '$.row') from sections where kind = 'index_entry'"
        )
    ]
    assert set(re.findall(r'<section class="kana-row" id="row-(.)">', everything)) == set(rows_with_entries)
    empty = [r for r in "あかさたなはまやらわ" if r not in rows_with_entries]
    for kana in empty:
        html = (await get(datasette, "/en/laws-2017-ja/-/index?row=" + quote(kana))).text
        assert "lists no terms" in html


async def test_index_renders_see_and_see_also_attrs():
    from laws_site.pages.index_terms import see_links

    assert see_links("リボーク", {"index:リボーク"}, "laws-2017-ja") == [
        {"term": "リボーク", "url": permalink("laws-2017-ja", "index:リボーク")}
    ]
    assert see_links(["ない"], set(), "laws-2017-ja") == [{"term": "ない", "url": None}]


async def test_unit_json_carries_its_printed_tables(datasette, require_documents):
    require_documents("jcbl-regs-ja")
    data = (await get(datasette, "/laws-2017-ja/77.json")).json()
    assert [t["caption"] for t in data["tables"]][:2] == ["トリック点", "ノートランプコントラクト"]
    assert data["tables"][0]["head"][0][1] == {"text": "♣ ◇", "span": 1}
    appendix = (await get(datasette, "/jcbl-regs-ja/appendix-1.json")).json()
    assert [t["unit"] for t in appendix["tables"]] == [f"appendix-1-table-{n}" for n in range(1, 7)]
    vp = (await get(datasette, "/jcbl-regs-ja/appendix-1-table-1.json")).json()
    assert len(vp["tables"][0]["groups"][0]["rows"]) == 58
    html = (await get(datasette, "/jcbl-regs-ja/appendix-1-table-1")).text
    assert '<caption class="visually-hidden">WBF VP Scale *メジャートーナメント用</caption>' in html
    assert html.count("<tr>") >= 59 and '<th scope="col">IMPs \\ Boards</th>' in html
    zh = (await get(datasette, "/laws-1997-zh/2")).text
    assert "发牌人 | 牌套号码" not in zh and '<th scope="col">发牌人</th>' in zh
    assert "每一复式比赛所用牌套" in zh and "第17副至32副牌套" in zh  # the prose around the table stays


async def test_unit_page_citation_forms(datasette, require_documents):
    require_documents("jcbl-regs-ja", "laws-1997-zh")
    import json

    async def forms(path):
        html = (await get(datasette, path)).text
        raw = re.search(r'data-cite-forms="([^"]+)"', html).group(1)
        return json.loads(raw.replace("&#34;", '"'))

    assert await forms("/laws-2017-ja/61B2(a)") == {"ja": "第61条B項2(a)", "zh": "第61条B款2(a)", "en": "Law 61B2(a)"}
    assert (await forms("/jcbl-regs-ja/24-5-1"))["ja"] == "競技会運営規則 第24条5項1号"
    assert await forms("/jcbl-regs-ja/appendix-1-table-1") == {
        "ja": "競技会運営規則 付表1 表1",
        "zh": "竞赛运营规则 附表1 表1",
        "en": "JCBL tournament regulations, Appendix 1, table 1",
    }
    assert (await forms("/laws-1997-zh/def:藏牌"))["zh"] == "定义「藏牌」"


async def test_contents_parts_collapse_with_anchors_and_linked_law_numbers(datasette):
    html = (await get(datasette, "/laws-2017-ja")).text
    parts = re.findall(r'<details class="toc-group" id="(part-\d+)">', html)
    assert parts == [f"part-{n}" for n in range(1, 11)]
    part_5 = html[html.index('id="part-5"') : html.index('id="part-6"')]
    laws = re.findall(r'<a href="/laws-2017-ja/(\d+)"><span class="ref">\1</span>', part_5)
    assert laws == [str(n) for n in range(41, 72)]
    assert '<a href="/laws-2017-ja/61B"><span class="ref">B</span> リボークの可能性について質問する権利</a>' in part_5
    zh = (await get(datasette, "/laws-1997-zh")).text
    assert re.search(r'<details class="toc-group" id="c-chapter-2">.*?1–5', zh, re.S)


async def test_diff_form_offers_only_the_comparisons_the_site_makes(datasette):
    html = (await get(datasette, "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja")).text
    start = html.index('<form class="diff-form"')
    form = html[start : html.index("</form>", start)]
    from_docs = re.findall(r'<option value="([^"]+)"', form.split('name="to"')[0])
    to_docs = re.findall(r'<option value="([^"]+)"', form.split('name="to"')[1])
    assert from_docs == ["revoke-notes-ja", "out-of-turn-notes-ja", "laws-1997-zh"] and to_docs == ["laws-2017-ja"]
    assert '<option value="revoke-notes-ja" selected>' in form
    empty = await get(datasette, "/-/diff")
    # with nothing asked (the home page's link) the form and the offered comparisons, not an error
    assert empty.status_code == 200 and "/-/diff/overview?from=laws-1997-zh&amp;to=laws-2017-ja" in empty.text


async def test_glossary_page_reads_the_table_or_explains(datasette, laws_db_path):
    import sqlite3

    conn = sqlite3.connect(laws_db_path)
    has_table = conn.execute("select 1 from sqlite_master where name = 'glossary'").fetchone()
    response = await get(datasette, "/-/glossary")
    assert response.status_code == 200
    if not has_table:
        assert "not in this build" in response.text
        assert (await get(datasette, "/-/glossary.json")).status_code == 404
        return
    count = conn.execute("select count(*) from glossary").fetchone()[0]
    data = (await get(datasette, "/-/glossary.json")).json()
    assert len(data["rows"]) == count > 0
    first = data["rows"][0]
    assert escape_text(first["ja"]) in response.text


async def test_citations_page_reads_counts_made_at_build(datasette, laws_db_path):
    import sqlite3

    response = await get(datasette, "/-/citations")
    assert response.status_code == 200
    html = response.text
    assert "<svg" in html and "<script" not in html.split("<svg", 1)[1].split("</svg>")[0]
    assert "cdn" not in html.lower()
    conn = sqlite3.connect(laws_db_path)
    # the picture: one cell per pair of parts that cite each other, labelled with the count
    cells = conn.execute("select from_part, to_part, units from part_citations where doc = 'laws-2017-ja'").fetchall()
    drawn = re.findall(
        r'class="cell" data-from="(part:\d+)" data-to="(part:\d+)">\s*<rect[^>]*><title>[^<]+</title>'
        r"</rect>\s*<text[^>]*>(\d+)</text>",
        html,
    )
    assert sorted(drawn) == sorted((a, b, str(n)) for a, b, n in cells) and len(drawn) > 20
    # every law: what it cites and what cites it, with titles and counts (one law's lists at a time)
    assert '<a href="/-/citations?law=61#law-61">' in html
    html = (await get(datasette, "/-/citations?law=61")).text
    law_61 = html[html.index('id="law-61"') :]
    law_61 = law_61[: law_61.index("</details>")]
    assert "スートにフォローしないこと" in law_61 and "参照先 5・参照元 0" in law_61
    assert '<a href="/laws-2017-ja/44">第44条</a> <span lang="ja">プレイの順序と進行</span>' in law_61
    assert '<a class="units" href="/-/citations?from=61&amp;to=44#pair">61A</a>' in law_61
    english = (await get(datasette, "/en/-/citations?law=61")).text
    assert "cites 5 · cited by 0" in english and '<a href="/en/laws-2017-ja/44">Law 44</a>' in english
    data = (await get(datasette, "/-/citations.json")).json()
    pair = next(p for p in data["pairs"] if (p["from"], p["to"]) == (61, 44))
    assert pair["citing_units"] == ["61A"] and pair["count"] == 1
    law = next(item for item in data["laws"] if item["law"] == 44)
    assert {
        "law": 61,
        "title": "スートにフォローしないこと ー リボークに関する質問",
        "units": 1,
        "citing_units": ["61A"],
    } in law["cited_by"]
    assert (
        law["cited_by_units"]
        == conn.execute(
            "select cited_by_units from law_citation_totals where doc = 'laws-2017-ja' and law = 44"
        ).fetchone()[0]
    )
    assert {"from", "to", "units", "law_pairs"} <= set(data["part_matrix"][0])
    several = next(p for p in data["pairs"] if p["count"] > 1 and p["from"] != p["to"])
    listing = (await get(datasette, f"/-/citations?from={several['from']}&to={several['to']}")).text
    listed = [unquote(h) for h, _, _ in parse(listing.split('class="selected-pair"')[1].split("</section>")[0]).links]
    assert listed[2:] == [f"/laws-2017-ja/{r}" for r in several["citing_units"]]
    between = (await get(datasette, "/-/citations?from_part=part:5&to_part=part:4")).text
    assert 'id="between"' in between and "第5部 プレイ → 第4部 オークション" in between


def test_citation_counts_are_not_computed_per_request():
    """The page module reads tables: it imports no reference grammar and groups nothing itself."""
    from pathlib import Path

    import laws_site.pages.citations as page

    source = Path(page.__file__).read_text(encoding="utf-8")
    assert "from xrefs" not in source and "ingest.text.refs" not in source and "defaultdict" not in source


async def test_metadata_canned_queries(datasette):
    data = (await get(datasette, "/laws/citations.json?doc=laws-2017-ja&ref=61&_shape=array")).json()
    by_kind = {(r["citing_doc"], r["citing_kind"]): r for r in data}
    assert "61A" not in (by_kind.get(("laws-2017-ja", "section")) or {"citing_refs": ""})["citing_refs"].split(",")
    assert by_kind[("laws-2017-ja", "index_entry")]["citations"] > 0
    rows = (await get(datasette, "/laws/search_text.json?q=" + quote("リボーク") + "&_shape=array")).json()
    assert any(r["doc"] == "laws-2017-ja" and r["ref"] == "61A" for r in rows)
    facets = (await get(datasette, "/laws/sections.json?_size=0&_extra=facet_results")).json()["facet_results"]
    assert {"doc", "kind"} <= set(facets.get("results", facets))  # 1.0 nests them under "results"


async def test_datasette_table_pages_link_refs_and_references(datasette):
    """In Datasette's own table pages a unit's ref opens its permalink, a unit's text links its
    references, and a resolved xref's target opens the target - drawn by the site's link macro."""
    row = await get(datasette, "/laws/sections?id=laws-2017-ja%3A61A")
    assert row.status_code == 200
    assert '<td class="col-ref type-str"><a class="xref" href="/laws-2017-ja/61A" title="61A">61A</a></td>' in row.text
    text_cell = re.search(r'<td class="col-text type-str">(.*?)</td>', row.text, re.S).group(1)
    assert len(re.findall(r'<a class="xref" href="/laws-2017-ja/[^"]+" title="[^"]+">', text_cell)) == 2
    xref = await get(datasette, "/laws/xrefs?source_id=laws-2017-ja%3A61A&resolved=1")
    assert xref.status_code == 200
    targets = re.findall(
        r'<td class="col-target_ref[^"]*"><a class="xref" href="/laws-2017-ja/([^"]+)" title="[^"]*">([^<]+)</a>',
        xref.text,
    )
    assert len(targets) == 2 and all(path == text for path, text in targets)


async def test_a_note_page_says_its_label_once_linked_to_its_law(datasette, require_documents):
    require_documents("revoke-notes-ja")
    page = await get(datasette, "/revoke-notes-ja/L62C3")
    heading = re.search(r"<h1>(.*?)</h1>", page.text, re.S).group(1)
    assert heading.count("L62C3") == 1
    assert 'href="/laws-2017-ja/62C3"' in heading
    law = await get(datasette, "/laws-2017-ja/61")
    assert re.search(r'<h1><span class="ref" lang="ja">第61条</span> スートにフォローしないこと', law.text)


async def test_a_changed_id_redirects_to_the_new_one(datasette):
    """The errata re-spelt the definition ディクレアララー; its printed id keeps working."""
    for suffix in ("", ".json"):
        response = await datasette.client.get(permalink("laws-2017-ja", "def:ディクレアララー") + suffix)
        assert response.status_code == 302
        assert response.headers["location"] == permalink("laws-2017-ja", "def:ディクレアラー") + suffix


async def test_index_entries_say_see_and_see_also_as_the_book_does(datasette):
    """参照 (see) and も参照 (see also) are different instructions; the page keeps them apart."""
    html = (await datasette.client.get("/laws-2017-ja/-/index")).text
    see = re.findall(r'<span class="see" title="参照">(.*?)</span>', html, re.S)
    see_also = re.findall(r'<span class="see-also" title="も参照">(.*?)</span>', html, re.S)
    assert see and see_also
    assert all(s.endswith("参照") and not s.endswith("も参照") for s in see)
    assert all(s.endswith("も参照") for s in see_also)


async def test_an_answer_asked_again_is_the_one_made_first(datasette):
    """The database never changes while served: a page asked for again comes from memory, the same
    bytes, and only for requests that carry no cookie (a login or a message could differ)."""
    from laws_site.http import responses

    first = await datasette.client.get("/laws-2017-ja/61B2")
    key = next(k for k in responses._answers if k[2] == "/laws-2017-ja/61B2")
    again = await datasette.client.get("/laws-2017-ja/61B2")
    assert again.text == first.text and key in responses._answers
    fresh = await datasette.client.get("/laws-2017-ja/61B1", cookies={"ds_actor": "x"})
    assert fresh.status_code == 200
    assert not any(k[2] == "/laws-2017-ja/61B1" for k in responses._answers)
    threads = [k for k in responses._answers if k[2].startswith("/-/threads")]
    await datasette.client.get("/-/threads.json")
    assert [k for k in responses._answers if k[2].startswith("/-/threads")] == threads == []


async def test_the_history_link_is_only_on_a_law_s_units(datasette):
    """Regulation article 8 linked 'History of this law' to the Laws' Law 8; a definition, a part or a
    regulation appendix linked it to the list of all histories."""
    for path in ["/jcbl-regs-ja/8", "/jcbl-regs-ja/appendix-7-4", "/laws-2017-ja/def:ダミー", "/laws-2017-ja/part:5"]:
        response = await datasette.client.get(path)
        assert response.status_code == 200, path
        assert 'class="history-link"' not in response.text, path
    for path, law in [("/laws-2017-ja/61B3", 61), ("/laws-1997-zh/16", 16), ("/revoke-notes-ja/L64C", 64)]:
        html = (await datasette.client.get(path)).text
        assert f'<p class="history-link"><a href="/-/history/{law}">' in html, path


async def test_a_reference_printed_against_an_older_edition_opens_the_provision_it_means_now(datasette):
    """Regulation appendix 7-4(a)(ii) prints 「23条」 in 2007 terms (damaging enforced pass, now 72C): its
    link opened 2017 Law 23 (comparable call), a different rule. The 1997 Laws' own 第23条 stays 1997 Law 23."""
    html = (await datasette.client.get("/jcbl-regs-ja/appendix-7-4")).text
    assert html.count('<a class="xref" href="/laws-2017-ja/72C" title="規則 2017: 第72条C項">23条</a>') == 2
    assert 'href="/laws-2017-ja/23"' not in html
    old = (await datasette.client.get("/laws-1997-zh/24B")).text
    assert '<a class="xref" href="/laws-1997-zh/23"' in old and 'href="/laws-2017-ja/72C"' in old  # the box's "now"


async def test_the_home_page_leads_to_the_comparisons_and_the_histories(datasette):
    """Neither the compare pages nor the law histories were reachable from the home page or the menu."""
    html = (await datasette.client.get("/en/")).text
    more = re.search(r'<p class="more">(.*?)</p>', html, re.S).group(1)
    assert (
        '<a href="/en/-/diff">Compare a law</a>' in more and '<a href="/en/-/history">Laws across editions</a>' in more
    )
    offered = (await datasette.client.get("/en/-/diff")).text
    assert '<a href="/en/-/diff/overview?from=laws-1997-zh&amp;to=laws-2017-ja">' in offered
    assert (await datasette.client.get("/-/history")).status_code == 200


async def test_the_compare_page_without_a_law_offers_the_comparisons_in_the_interface_language(datasette):
    """/-/diff (the home page's link) was a 400 'missing 'ref'' in English; the form named the documents by
    their Japanese short titles on /zh/ and /en/ pages."""
    response = await datasette.client.get("/zh/-/diff")
    assert response.status_code == 200
    assert "missing" not in response.text and 'class="diff-error"' not in response.text
    assert (
        '<a href="/zh/-/diff/overview?from=laws-1997-zh&amp;to=laws-2017-ja">规则 1997 → 规则 2017</a>' in response.text
    )
    assert '<option value="revoke-notes-ja">藏牌注释 (ver 1.05)</option>' in response.text
    assert (
        await datasette.client.get("/-/diff?from=laws-1997-zh")
    ).status_code == 400  # a half-filled form still says why
    assert (await datasette.client.get("/-/diff.json")).status_code == 400


async def test_cited_by_follows_a_reference_to_the_provision_it_means_now(datasette):
    """2017 Law 23 listed regulation appendix 7-4(a)(ii) and (c)(ii) as citing it; their 23条 means 72C."""
    law_23 = (await datasette.client.get("/laws-2017-ja/23")).text
    assert "appendix-7-4" not in law_23
    law_72c = (await datasette.client.get("/laws-2017-ja/72C")).text
    assert (
        '<a href="/jcbl-regs-ja/appendix-7-4-a-ii">' in law_72c
        and '<a href="/jcbl-regs-ja/appendix-7-4-c-ii">' in law_72c
    )
    assert (await datasette.client.get("/laws-2017-ja/72C.json")).status_code == 200


async def test_a_note_shared_by_several_rows_is_printed_once(datasette):
    """The compare page printed 1997 Law 16's split note under each of its four 2017 rows; regulation
    appendix 7-4 printed the same moved-reference message under both of its 23条."""
    diff = (await datasette.client.get("/en/-/diff?ref=16&from=laws-1997-zh&to=laws-2017-ja")).text
    assert diff.count('<p class="diff-note"><span lang="en">1997 Law 16&#39;s own text') == 1
    regulation = (await datasette.client.get("/en/jcbl-regs-ja/appendix-7-4")).text
    box = re.search(r'<div class="moved-references">.*?</div>', regulation, re.S).group(0)
    assert box.count("<li>") == 2 and box.count("23条 was written before the 2017 Laws took effect") == 1
    japanese = (await datasette.client.get("/jcbl-regs-ja/appendix-7-4")).text  # the notes in Japanese (h22)
    box = re.search(r'<div class="moved-references">.*?</div>', japanese, re.S).group(0)
    assert (
        box.count("<li>") == 2 and box.count("「23条」は2017年版規則の施行（2018年3月31日）より前に書かれたもの") == 1
    )
