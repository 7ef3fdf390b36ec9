"""A unit's list of reprints holds reprints of that unit (or of its parts) only: quote:43 prints
第42条 because Law 43 does, which does not make it a reprint of Law 42 (table unit_commentary,
ingest/references/reading.py). Issue 37.5: Law 42's page listed 「リボーク注釈に再録: 第43条の引用」 and
its compare link opened an empty comparison (also 41, 44, 53, 57, 64A2)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from ingest.parsers.records import Unit
from ingest.references.reading import commentary_rows
from ingest.text.refs import law_ancestors, parse_law_ref


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(laws_db_path)
    yield connection
    connection.close()


def reprints_on(conn, unit_id: str) -> list[str]:
    return [
        r[0]
        for r in conn.execute(
            "select source_id from unit_commentary where unit_id = ? and source_kind = 'quote' order by position",
            (unit_id,),
        )
    ]


@pytest.mark.parametrize("ref", ["42", "41", "44", "57", "64A2"])
def test_laws_a_reprint_only_cites_list_no_reprint_of_it(conn, ref):
    for source in reprints_on(conn, f"laws-2017-ja:{ref}"):
        reprinted = source.split(":quote:")[1]
        assert ref == reprinted or ref in law_ancestors(reprinted), source


def test_law_43_lists_its_own_reprints(conn):
    listed = reprints_on(conn, "laws-2017-ja:43")
    assert "revoke-notes-ja:quote:43" in listed and "revoke-notes-ja:quote:43B2(b)" in listed
    assert "revoke-notes-ja:quote:61B2(a)" not in listed  # it cites 43B2(b); it reprints 61B2(a)


def test_every_listed_reprint_reprints_the_unit_or_one_of_its_parts(conn):
    rows = conn.execute(
        """select c.unit_id, s.ref, q.attrs from unit_commentary c join sections s on s.id = c.unit_id
           join sections q on q.id = c.source_id where c.source_kind = 'quote'"""
    ).fetchall()
    assert len(rows) > 300
    wrong = [
        (unit, json.loads(attrs)["law_ref"])
        for unit, ref, attrs in rows
        if parse_law_ref(ref)  # (a part or chapter holds the laws it heads)
        and ref != json.loads(attrs)["law_ref"]
        and ref not in law_ancestors(json.loads(attrs)["law_ref"])
    ]
    assert wrong == []


def test_a_reprint_is_not_listed_on_what_its_text_cites():
    law = [Unit("l", "42", "law"), Unit("l", "43", "law")]
    quote = Unit("c", "quote:43", "quote", text="第42条", attrs={"law_ref": "43"})
    xrefs = [
        {"source_id": quote.id, "target_id": "l:43", "resolved": 1, "kind": "reprints"},
        {"source_id": quote.id, "target_id": "l:42", "resolved": 1, "kind": "cites"},
    ]
    rows = commentary_rows([*law, quote], xrefs)
    assert [(r["unit_id"], r["source_id"]) for r in rows] == [("l:43", "c:quote:43")]
