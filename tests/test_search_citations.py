"""A citation typed into any search box opens (or lists first) the unit it names (issue 14, item 1).

Every way a director writes one: WBF style, Japanese 第…条…項, Chinese 第…条…款, `Law 73`,
commentary labels, regulation articles, full-width digits and letters. The current Laws first,
then every other document holding the same ref, then the units citing them. Exact expectations
on the whole-corpus session build (tests/conftest.py).
"""

from __future__ import annotations

import json
import re
import sqlite3
from urllib.parse import quote, unquote

import pytest
from click.testing import CliRunner

from ingest.text import spelling as ref_spelling
from laws_site.cli import cli
from laws_site.search import engine as searching


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    yield connection
    connection.close()


# typed -> the cited units, in the order they are listed
CITED = [
    ("64A1", ["laws-2017-ja:64A1", "revoke-notes-ja:quote:64A1"]),
    ("６４Ａ１", ["laws-2017-ja:64A1", "revoke-notes-ja:quote:64A1"]),  # a phone's full-width keys
    ("20F5(b)(ii)", ["laws-2017-ja:20F5(b)(ii)"]),
    ("20f5bii", ["laws-2017-ja:20F5(b)(ii)"]),
    ("第16条B項1", ["laws-2017-ja:16B1", "laws-1997-zh:16B1"]),
    ("第 16 条 B 項 1", ["laws-2017-ja:16B1", "laws-1997-zh:16B1"]),
    ("第73条", ["laws-2017-ja:73"]),
    ("第25条B款", ["laws-2017-ja:25B", "laws-1997-zh:25B"]),  # Chinese: 2017 Laws first
    ("25B", ["laws-2017-ja:25B", "laws-1997-zh:25B"]),
    ("Law 73", ["laws-2017-ja:73"]),
    ("ＬＡＷ　７３", ["laws-2017-ja:73"]),
    ("Law-73", ["laws-2017-ja:73"]),  # the dash goes with the word
    ("L62C3", ["revoke-notes-ja:L62C3", "laws-2017-ja:62C3", "revoke-notes-ja:quote:62C3"]),
    ("l61a", ["revoke-notes-ja:L61A", "laws-2017-ja:61A", "revoke-notes-ja:quote:61A"]),
    ("第24条5項1号", ["jcbl-regs-ja:24-5-1"]),
    ("24-5-1", ["jcbl-regs-ja:24-5-1"]),
    ("２４－５－１", ["jcbl-regs-ja:24-5-1"]),
    ("付表5", ["jcbl-regs-ja:appendix-5"]),
    # a separator typed after one citation (a phone keyboard's 、 or ，): that citation, not a text search
    ("64A1、", ["laws-2017-ja:64A1", "revoke-notes-ja:quote:64A1"]),
    ("第16条B項1，", ["laws-2017-ja:16B1", "laws-1997-zh:16B1"]),
    ("Law 73,", ["laws-2017-ja:73"]),
    ("laws-1997-zh:50", ["laws-1997-zh:50"]),
    (
        "61B、64A1",
        [
            "laws-2017-ja:61B",
            "revoke-notes-ja:L61B",
            "revoke-notes-ja:quote:61B",
            "laws-2017-ja:64A1",
            "revoke-notes-ja:quote:64A1",
        ],
    ),
]


@pytest.mark.parametrize("typed, units", CITED, ids=[c[0] for c in CITED])
def test_a_citation_lists_the_cited_units_first(conn, typed, units):
    page = searching.search_page(conn, typed, limit=50)
    assert page["citation"]["found"] and page["citation"]["units"] == units
    results = page["results"]
    assert [r["id"] for r in results[: len(units)]] == units
    assert {r["match"] for r in results[: len(units)]} == {"citation"}
    assert {r["match"] for r in results[len(units) :]} <= {"cites"}
    assert page["total"] == len(results)


def test_units_citing_it_follow_with_the_reference_marked(conn):
    results = searching.search(conn, "第16条B項1", limit=10)
    assert [r["id"] for r in results] == [
        "laws-2017-ja:16B1",
        "laws-1997-zh:16B1",
        "laws-2017-ja:16A1(c)",
        "laws-2017-ja:20F3",
    ]
    assert {"text": "第16条B項1", "mark": True} in results[3]["snippet"]


def test_a_citation_outside_the_filters_says_so(conn):
    page = searching.search_page(conn, "64A1", lang="zh")  # the 1997 text stops in Law 52
    assert page["citation"]["message"] == "No such unit in the document or language chosen: 64A1."


def test_filters_apply_to_citations(conn):
    assert searching.search_page(conn, "第16条B項1", lang="zh")["citation"]["units"] == ["laws-1997-zh:16B1"]
    assert searching.search_page(conn, "64A1", doc="revoke-notes-ja")["citation"]["units"] == [
        "revoke-notes-ja:quote:64A1"
    ]


def test_an_unknown_citation_says_so_with_the_nearest_units(conn):
    page = searching.search_page(conn, "61Z")
    citation = page["citation"]
    assert not citation["found"] and citation["message"] == "No such unit: 61Z."
    # the enclosing law, then the closest spellings, the later units first (6E1 and 6D1 were offered before)
    assert [unit["id"] for unit in citation["nearest"]] == [
        "laws-2017-ja:61",
        "laws-2017-ja:61C",
        "laws-2017-ja:61B",
        "laws-2017-ja:61A",
    ]
    assert page["results"] == []  # 61Z is not searched word by word (61 alone would match noise)


@pytest.mark.parametrize(
    "typed, doc, kind, number",
    [("第99条", "laws-2017-ja", "law", r"[0-9]+"), ("付表9", "jcbl-regs-ja", "appendix", r"appendix-[0-9]+")],
)
def test_a_citation_past_the_end_is_offered_the_last_units_before_it(conn, typed, doc, kind, number):
    """Law 99 of 93 laws, Appendix 9 of 7: the last ones first (the closest spellings were 9, 9C, 9B)."""
    refs = [ref for (ref,) in conn.execute("select ref from sections where doc = ? and kind = ?", (doc, kind))]
    last = max((ref for ref in refs if re.fullmatch(number, ref)), key=lambda ref: int(re.sub(r"[^0-9]", "", ref)))
    citation = searching.search_page(conn, typed)["citation"]
    assert not citation["found"] and citation["nearest"][0]["id"] == f"{doc}:{last}"


def test_a_number_no_unit_has_is_still_searched_as_text(conn):
    page = searching.search_page(conn, "2017")
    assert not page["citation"]["found"]
    # the Laws' cover (2017年版) is found as text; the commentaries' covers print 2017年版 too
    assert "laws-2017-ja:front-matter" in [r["id"] for r in page["results"][:3]]


@pytest.mark.parametrize(
    "typed",
    # a separator with no level on one side is a minus or a dash, not Law 1's: `-1` is not a citation
    ["リボーク", "BIT", "IMP", "5枚目のカード", "12トリック目のリボーク", "revoke", "-1", "1-", "(1)", "1.", "-64A1"],
)
def test_words_are_not_citations(typed):
    assert ref_spelling.split_citations(typed) is None


@pytest.mark.parametrize("typed", ["-1", "1-"])
def test_a_lone_number_with_a_dash_does_not_open_law_1(conn, typed):
    page = searching.search_page(conn, typed)
    assert page["citation"] is None
    assert "laws-2017-ja:1" not in [r["id"] for r in page["results"][:1]]


@pytest.mark.parametrize(
    "typed, candidates",
    [
        ("6-1", [("regulations", "6-1")]),  # two numbers apart: a regulation, never Law 61
        ("第24条5項", [("regulations", "24-5")]),  # a numbered 項 is the regulations'
        ("第61条B項2号", [("laws", "61B2"), ("commentary", "L61B2"), ("commentary", "quote:61B2")]),
        ("24", [("laws", "24"), ("commentary", "L24"), ("commentary", "quote:24"), ("regulations", "24")]),
    ],
)
def test_where_a_typed_citation_may_point(typed, candidates):
    assert ref_spelling.citation_candidates(typed) == candidates


# ---------------------------------------------------------------- over HTTP and in the CLI


async def test_the_search_page_opens_the_one_cited_unit(datasette):
    response = await datasette.client.get("/-/search?q=" + quote("第16条B項1"))
    assert response.status_code == 302
    assert unquote(response.headers["location"]) == "/laws-2017-ja/16B1?from_search=第16条B項1"
    landing = await datasette.client.get(response.headers["location"])
    assert landing.status_code == 200 and 'class="from-search"' in landing.text
    assert 'href="/-/search?q=%E7%AC%AC16%E6%9D%A1B%E9%A0%851&amp;list=1"' in landing.text


async def test_full_width_law_number_from_the_home_box(datasette):
    response = await datasette.client.get("/-/search?q=" + quote("ＬＡＷ　７３"))
    assert response.status_code == 302 and response.headers["location"].startswith("/laws-2017-ja/73?from_search=")


async def test_list_shows_every_document_holding_it(datasette):
    response = await datasette.client.get("/-/search?list=1&q=64A1")
    assert response.status_code == 200
    assert 'href="/laws-2017-ja/64A1"' in response.text and 'href="/revoke-notes-ja/quote:64A1"' in response.text
    assert "「64A1」の検索結果 2 件中 1–2 件" in response.text  # a citation is no English: not lang="en"
    assert "第64条A項1" in response.text and "第64条A項1の引用" in response.text  # labels, not ids


async def test_json_never_redirects(datasette):
    response = await datasette.client.get("/-/search.json?q=64A1")
    data = response.json()
    assert response.status_code == 200 and data["results"][0]["id"] == "laws-2017-ja:64A1"
    assert data["citation"]["units"] == ["laws-2017-ja:64A1", "revoke-notes-ja:quote:64A1"]


async def test_unknown_citation_page_names_the_nearest_units(datasette):
    response = await datasette.client.get("/-/search?q=61Z")
    assert response.status_code == 200
    assert "「61Z」という条項はありません。" in response.text and 'href="/laws-2017-ja/61C"' in response.text
    # in the interface's language (it was English in every one); JSON keeps the English
    assert "没有“61Z”这一条款。" in (await datasette.client.get("/zh/-/search?q=61Z")).text
    assert "No such unit: 61Z." in (await datasette.client.get("/en/-/search?q=61Z")).text
    assert (await datasette.client.get("/-/search.json?q=61Z")).json()["citation"]["message"] == "No such unit: 61Z."


def test_cli_lists_the_cited_unit_first(laws_db_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["search", "64A1", "--json", "--db", str(laws_db_path)])
    assert result.exit_code == 0, result.output
    assert [r["id"] for r in json.loads(result.output)["results"]] == [
        "laws-2017-ja:64A1",
        "revoke-notes-ja:quote:64A1",
    ]
    result = runner.invoke(cli, ["search", "61Z", "--db", str(laws_db_path)])
    assert result.exit_code == 0 and result.output.startswith("No such unit: 61Z. Nearest: laws-2017-ja 61,")


# ---------------------------------------------------------------- a citation that could mean two documents (issue 24)

REGULATION_27 = {
    "id": "jcbl-regs-ja:27",
    "doc": "jcbl-regs-ja",
    "ref": "27",
    "url": "/jcbl-regs-ja/27",
    "labels": {
        "ja": "競技会運営規則: 第27条",
        "zh": "竞赛运营规则: 第27条",
        "en": "Tournament regulations: Article 27",
    },
    "label": {"ja": "第27条", "zh": "第27条", "en": "Article 27"},
    "document": {"ja": "競技会運営規則", "zh": "竞赛运营规则", "en": "Tournament regulations"},
}


@pytest.mark.parametrize("typed", ["27条", "第27条", "27", "２７条"])
def test_a_bare_article_number_opens_the_law_and_offers_the_regulation(conn, typed):
    citation = searching.search_page(conn, typed)["citation"]
    assert citation["opens"] and citation["units"][0] == "laws-2017-ja:27"
    assert citation["alternatives"] == [REGULATION_27]


@pytest.mark.parametrize(
    "typed, opened",
    [
        ("64条", "laws-2017-ja:64"),  # the regulations stop at article 51: nothing to offer
        ("52条", "laws-2017-ja:52"),
        ("27条B項", "laws-2017-ja:27B"),  # a lettered 項 is the Laws' only
        ("27条B項1(b)", "laws-2017-ja:27B1(b)"),
        ("16条B", "laws-2017-ja:16B"),
        ("Law 27", "laws-2017-ja:27"),  # named: the Laws
        ("運営規則27条", "jcbl-regs-ja:27"),  # named: the regulations
        ("競技会運営規則第27条", "jcbl-regs-ja:27"),
        ("24-5-1", "jcbl-regs-ja:24-5-1"),  # the regulations' only
        ("L61A", "revoke-notes-ja:L61A"),  # a commentary note and its law are one provision
    ],
)
def test_a_citation_that_means_one_document_offers_nothing(conn, typed, opened):
    citation = searching.search_page(conn, typed)["citation"]
    assert citation["opens"] and citation["units"][0] == opened
    assert citation["alternatives"] == []


def test_the_last_regulation_article_is_offered_and_the_filter_leaves_one_meaning(conn):
    assert [a["id"] for a in searching.search_page(conn, "51条")["citation"]["alternatives"]] == ["jcbl-regs-ja:51"]
    assert searching.search_page(conn, "27条", doc="laws-2017-ja")["citation"]["alternatives"] == []
    assert searching.search_page(conn, "27条", doc="jcbl-regs-ja")["citation"]["alternatives"] == []
    # several citations: each one's other meaning, in order
    assert [a["id"] for a in searching.search_page(conn, "27、28")["citation"]["alternatives"]] == [
        "jcbl-regs-ja:27",
        "jcbl-regs-ja:28",
    ]
    assert searching.search_page(conn, "99条")["citation"]["alternatives"] == []  # nobody holds it


async def test_the_search_json_carries_the_alternatives(datasette):
    data = (await datasette.client.get("/-/search.json?q=" + quote("27条"))).json()
    assert data["citation"]["units"][0] == "laws-2017-ja:27"
    assert data["citation"]["alternatives"] == [REGULATION_27]
    assert (await datasette.client.get("/-/search.json?q=" + quote("64条"))).json()["citation"]["alternatives"] == []


OFFER = '<p class="citation-alternatives" lang="{tag}"><a href="{href}">{text}</a></p>'


@pytest.mark.parametrize(
    "prefix, tag, href, text",
    [
        ("", "ja", "/jcbl-regs-ja/27", "競技会運営規則の第27条をお探しですか？"),
        ("/zh", "zh-Hans", "/zh/jcbl-regs-ja/27", "您要找的是竞赛运营规则第27条吗？"),
        ("/en", "en", "/en/jcbl-regs-ja/27", "Looking for Article 27 of the Tournament regulations?"),
    ],
)
async def test_the_law_page_opened_by_27jo_offers_regulation_27(datasette, prefix, tag, href, text):
    response = await datasette.client.get(prefix + "/-/search?q=" + quote("27条"))
    assert response.status_code == 302
    location = response.headers["location"]
    assert location == prefix + "/laws-2017-ja/27?from_search=27%E6%9D%A1"
    html = (await datasette.client.get(location)).text
    assert OFFER.format(tag=tag, href=href, text=text) in html
    # under the note that says the page was opened from the search, before the text
    assert (
        html.index('class="from-search"')
        < html.index('class="citation-alternatives"')
        < html.index('class="unit-body"')
    )


@pytest.mark.parametrize(
    "path",
    [
        "/laws-2017-ja/64?from_search=" + quote("64条"),  # no regulation 64
        "/laws-2017-ja/27B?from_search=" + quote("27条B項"),
        "/laws-2017-ja/27?from_search=" + quote("Law 27"),
        "/laws-2017-ja/27",  # not opened from a search
        "/laws-2017-ja/61?from_search=" + quote("27条"),  # a hand-made from_search: not what it opens
        "/jcbl-regs-ja/27?from_search=" + quote("運営規則27条"),
        "/laws-2017-ja/27?from_search=" + quote("AND"),  # a query search refuses
    ],
)
async def test_no_offer_where_the_citation_means_one_document(datasette, path):
    response = await datasette.client.get(path)
    assert response.status_code == 200 and "citation-alternatives" not in response.text


async def test_the_citation_answer_matches_the_documented_schema(datasette):
    from jsonschema import Draft202012Validator

    from tests.test_api_schemas import SCHEMAS

    for query in ("27条", "64条", "99条", "27、28"):
        answer = (await datasette.client.get("/-/search.json?q=" + quote(query))).json()
        errors = [e.message for e in Draft202012Validator(SCHEMAS["search"]).iter_errors(answer)]
        assert errors == [], (query, errors)


CITABLE_KINDS = ("article", "paragraph", "item", "appendix", "table")


def regulation_labels(conn) -> list[tuple[str, str]]:
    """(label, unit id) of every citable regulation unit, as its label reads in each interface language."""
    rows = conn.execute(
        "select s.id, l.labels from sections s join search_labels l on l.id = s.id "
        f"where s.doc = 'jcbl-regs-ja' and s.kind in ({', '.join('?' * len(CITABLE_KINDS))})",
        CITABLE_KINDS,
    )
    return [(label, unit) for unit, labels in rows for label in json.loads(labels).values() if label]


def test_every_label_a_regulation_prints_reads_back_as_its_citation(conn):
    # what a director sees on a page (付表7-4(a)(ii), 附表5-2(1), Article 25(4)(1)①(a), 付表1 表1), typed
    labels = regulation_labels(conn)
    assert len(labels) > 900
    unread = [
        (label, unit)
        for label, unit in labels
        if unit not in ((searching.search_page(conn, label, limit=1).get("citation") or {}).get("units") or [])
    ]
    assert not unread, unread[:20]
