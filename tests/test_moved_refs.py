"""Issue 23's residual: 付表7-4's 「23条」 (the 2016 regulations, written for the 2007 Laws) means the
damaging-pass rule, 2017 Law 72C. The pages said so; the build's xrefs rows now say so too, so the
table, the JSON references, "cited by" of 2017 Law 23 and 72C, `bridge-laws refs` and search's
citing units all agree. Exact rows on the whole-corpus session build (tests/conftest.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest
from click.testing import CliRunner

from ingest.references.moved import repoint
from laws_site.cli import cli
from laws_site.search import engine as searching

REGULATION_ROWS = [
    {
        "id": "jcbl-regs-ja:appendix-7-4-a-ii#text:29-32>23",
        "source_id": "jcbl-regs-ja:appendix-7-4-a-ii",
        "surface": "23条",
        "target_doc": "laws-2017-ja",
        "target_ref": "72C",
        "target_id": "laws-2017-ja:72C",
        "kind": "cites",
        "resolved": 1,
        "reason": None,
        "field": "text",
        "start": 29,
        "end": 32,
        "resolved_to_parent": None,
        "as_printed_ref": "23",
    },
    {
        "id": "jcbl-regs-ja:appendix-7-4-c-ii#text:63-66>23",
        "source_id": "jcbl-regs-ja:appendix-7-4-c-ii",
        "surface": "23条",
        "target_doc": "laws-2017-ja",
        "target_ref": "72C",
        "target_id": "laws-2017-ja:72C",
        "kind": "cites",
        "resolved": 1,
        "reason": None,
        "field": "text",
        "start": 63,
        "end": 66,
        "resolved_to_parent": None,
        "as_printed_ref": "23",
    },
]


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    connection.row_factory = sqlite3.Row
    yield connection
    connection.close()


def test_the_xrefs_rows_of_appendix_7_4_name_72c(conn):
    rows = [dict(r) for r in conn.execute("select * from xrefs where as_printed_ref is not null order by id")]
    assert rows == REGULATION_ROWS  # and no other row of the corpus was re-pointed


def test_2017_law_23_is_cited_only_by_the_index_and_72c_by_the_regulation(conn):
    cites_23 = [
        tuple(r)
        for r in conn.execute(
            "select source_id, surface from xrefs where target_id = 'laws-2017-ja:23' order by source_id"
        )
    ]
    assert cites_23 == [("laws-2017-ja:index:コール/同等な", "23"), ("laws-2017-ja:index:同等なコール", "23")]
    from_regulations = [
        tuple(r)
        for r in conn.execute(
            "select source_id, surface from xrefs where target_id = 'laws-2017-ja:72C' and source_id like 'jcbl-regs-ja:%' "
            "order by source_id"
        )
    ]
    assert from_regulations == [("jcbl-regs-ja:appendix-7-4-a-ii", "23条"), ("jcbl-regs-ja:appendix-7-4-c-ii", "23条")]


def test_the_flags_still_say_what_was_printed(conn):
    flags = [
        (
            r["source_id"],
            r["surface"],
            r["target_id"],
            r["target_ref"],
            r["cited_edition"],
            [n["id"] for n in json.loads(r["now"])],
        )
        for r in conn.execute("select * from edition_flags where source_doc = 'jcbl-regs-ja' order by id")
    ]
    assert flags == [
        ("jcbl-regs-ja:appendix-7-4-a-ii", "23条", "laws-2017-ja:23", "23", "2007", ["laws-2017-ja:72C"]),
        ("jcbl-regs-ja:appendix-7-4-c-ii", "23条", "laws-2017-ja:23", "23", "2007", ["laws-2017-ja:72C"]),
    ]


async def test_unit_json_references_agree_with_the_page(datasette):
    regulation = (await datasette.client.get("/jcbl-regs-ja/appendix-7-4-a-ii.json")).json()
    [outgoing] = [x for x in regulation["outgoing"] if x["surface"] == "23条"]
    assert (outgoing["target_doc"], outgoing["target_ref"], outgoing["url"], outgoing["resolved"]) == (
        "laws-2017-ja",
        "72C",
        "/laws-2017-ja/72C",
        True,
    )
    page = (await datasette.client.get("/jcbl-regs-ja/appendix-7-4-a-ii")).text
    assert '<a href="/laws-2017-ja/72C"' in page and '<a href="/laws-2017-ja/23"' not in page
    law_23 = (await datasette.client.get("/laws-2017-ja/23.json")).json()
    assert not [x for x in law_23["incoming"] if x["source_doc"] == "jcbl-regs-ja"]
    law_72c = (await datasette.client.get("/laws-2017-ja/72C.json")).json()
    assert [(x["source_ref"], x["surface"]) for x in law_72c["incoming"] if x["source_doc"] == "jcbl-regs-ja"] == [
        ("appendix-7-4-a-ii", "23条"),
        ("appendix-7-4-c-ii", "23条"),
    ]
    table = (
        await datasette.client.get(
            "/laws/xrefs.json?target_id=laws-2017-ja:23&source_id__startswith=jcbl-regs-ja&_shape=array"
        )
    ).json()
    assert table == []


def test_refs_cli_agrees(laws_db_path):
    runner = CliRunner()
    incoming_72c = json.loads(
        runner.invoke(cli, ["refs", "laws-2017-ja", "72C", "--json", "--db", str(laws_db_path)]).output
    )
    assert {("jcbl-regs-ja:appendix-7-4-a-ii", "23条"), ("jcbl-regs-ja:appendix-7-4-c-ii", "23条")} <= {
        (row["id"], row["surface"]) for row in incoming_72c["incoming"]
    }
    incoming_23 = json.loads(
        runner.invoke(cli, ["refs", "laws-2017-ja", "23", "--json", "--db", str(laws_db_path)]).output
    )
    assert not [row for row in incoming_23["incoming"] if row["id"].startswith("jcbl-regs-ja:")]


def test_search_lists_the_regulation_under_72c_not_23(conn):
    citing_72c = [
        (r["id"], [s["text"] for s in r["snippet"] if s["mark"]])
        for r in searching.search_page(conn, "72C", limit=50)["results"]
        if r["match"] == "cites"
    ]
    assert citing_72c[-2:] == [
        ("jcbl-regs-ja:appendix-7-4-a-ii", ["23条"]),
        ("jcbl-regs-ja:appendix-7-4-c-ii", ["23条"]),
    ]
    citing_23 = [r["id"] for r in searching.search_page(conn, "23条", limit=50)["results"] if r["match"] == "cites"]
    assert citing_23 and not [unit for unit in citing_23 if unit.startswith("jcbl-regs-ja:")]


# ---------------------------------------------------------------- the re-pointing on its own


def _row(source="jcbl-regs-ja:appendix-7-4-a-ii", target_doc="laws-2017-ja", ref="23", resolved=True, start=29):
    return {
        "source_id": source,
        "field": "text",
        "start": start,
        "target_doc": target_doc,
        "target_ref": ref,
        "target_id": f"{target_doc}:{ref}" if resolved else None,
        "resolved": resolved,
        "as_printed_ref": None,
    }


FLAG = {
    "source_id": "jcbl-regs-ja:appendix-7-4-a-ii",
    "field": "text",
    "start": 29,
    "target_ref": "23",
    "now_at": "laws-2017-ja:72C",
}


def test_repoint_moves_only_the_flagged_reference():
    flagged, elsewhere, other_place = _row(), _row(source="jcbl-regs-ja:8"), _row(start=63)
    assert repoint([flagged, elsewhere, other_place], [FLAG]) == 1
    assert (flagged["target_ref"], flagged["target_id"], flagged["as_printed_ref"]) == ("72C", "laws-2017-ja:72C", "23")
    assert elsewhere == _row(source="jcbl-regs-ja:8") and other_place == _row(start=63)


def test_repoint_never_leaves_the_document_nor_resolves_what_did_not():
    another_document = _row(target_doc="laws-1997-zh")
    unresolved = _row(resolved=False)
    assert repoint([another_document], [{**FLAG}]) == 0 and another_document == _row(target_doc="laws-1997-zh")
    assert repoint([unresolved], [FLAG]) == 0 and unresolved == _row(resolved=False)
