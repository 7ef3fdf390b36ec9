"""Issue 37.1: every statement about an edition relation is true. A pair is read in both texts (basis
``reviewed``, its reason recorded in corpus/concordance.yml) or says the build's rule made it and
nobody has read it; "new in 2017" is told apart from "its 1997 source is in the part of the 1997 Laws
this corpus does not hold"; a law's headline relation comes with what happened to its parts; a
history cell of a heading-only reprint says nothing was compared; no reason shows an internal id.
Exact rows on the whole-corpus session build (tests/conftest.py)."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    yield connection
    connection.close()


# an id a reader must never see: a move's id, "(concordance: …)", a document id
INTERNAL_ID = re.compile(
    r"concordance:|damaging-enforced-pass|comparable-call|penalty-after-forfeiture|spectator-irregularity|"
    r"end-of-auction-period|cards-from-wrong-board|\blaws-(?:1997-zh|2017-ja)\b"
)


def test_no_reason_shows_an_internal_id_and_each_reads_in_three_languages(conn):
    rows = conn.execute("select from_ref, to_ref, reason, reason_ja, reason_zh from provision_pairs").fetchall()
    assert [tuple(r) for r in rows if INTERNAL_ID.search(r["reason"])] == []
    missing = [(r["from_ref"], r["to_ref"]) for r in rows if not (r["reason_ja"] and r["reason_zh"])]
    assert missing == []
    notes = conn.execute("select en from editorial_notes").fetchall()
    assert [n[0] for n in notes if INTERNAL_ID.search(n[0])] == []


def test_every_pair_is_read_or_says_the_rule_made_it(conn):
    for row in conn.execute("select from_ref, to_ref, relation, basis, reason from provision_pairs"):
        if row["basis"] != "reviewed":
            assert "not yet read" in row["reason"] or "stops inside" in row["reason"], tuple(row)


def law_change(conn, doc: str, law: int) -> dict:
    return dict(conn.execute("select * from law_changes where doc = ? and law = ?", (doc, law)).fetchone())


def test_a_laws_headline_comes_with_what_happened_to_its_parts(conn):
    law_25 = law_change(conn, "laws-2017-ja", 25)
    assert (law_25["headline"], law_25["changed"], law_25["added"], law_25["removed"]) == ("reworded", 9, 6, 1)
    assert law_25["summary"] == "revised: 9 parts changed, 6 added, 1 removed"
    assert law_25["summary_ja"] == "改訂：変更9、追加6、削除1"
    assert law_25["summary_zh"] == "修订：修改9处，新增6处，删除1处"
    law_23 = law_change(conn, "laws-2017-ja", 23)
    assert (law_23["headline"], law_23["added"], law_23["summary"]) == ("new", 6, "new in 2017: 6 parts added")
    assert law_change(conn, "laws-1997-zh", 23)["headline"] == "moved"  # to 72C; 2017 Law 23 is another rule
    assert law_change(conn, "laws-2017-ja", 61)["summary"] == "no 1997 text in the corpus"


def test_every_law_of_both_editions_has_its_summary(conn):
    counted = dict(
        conn.execute("select doc, count(*) from law_changes group by doc").fetchall()  # 93 laws; 1997: 1-52
    )
    assert counted == {"laws-2017-ja": 93, "laws-1997-zh": 52}


def test_history_cells_of_a_heading_only_reprint_say_nothing_was_compared(conn):
    history = json.loads(conn.execute("select history from law_history where law = 50").fetchone()[0])
    cells = {row["ref"]: row["reprints"] for row in history["rows"] if row["reprints"]}
    for ref in ("50A", "50C", "50D", "50E"):
        [cell] = cells[ref]
        assert (cell["status"], cell["heading_only"]) == ("heading_only", True), ref
    [printed] = cells["50B"]
    assert (printed["status"], printed["heading_only"]) == ("same", False)
    steps = {row["ref"]: row["steps"]["reprint_to_new"] for row in history["rows"] if row["reprints"]}
    assert steps["50A"] == [{"doc": "revoke-notes-ja", "status": "heading_only", "changed": False, "compared": False}]
    assert history["counts"]["heading_only_in_reprint"] >= 4
