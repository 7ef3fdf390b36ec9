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
    # the law's own pair is its heading (合法的和不合法的更改叫牌 / コールの適法な言い直しと違法な言い直し): the same
    assert (law_25["headline"], law_25["changed"], law_25["added"], law_25["removed"]) == ("same", 9, 6, 1)
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


def test_no_history_cell_says_unchanged_where_the_reprint_printed_no_words(conn):
    """Whole corpus: a reprint that prints a heading and no words under it, where the Laws have words,
    is never 変更なし in a law's history: its cell says nothing was compared (50A, 50C, 50D, 50E, ...)."""
    texts = {unit: (text or "").strip() for unit, text in conn.execute("select id, text from sections")}
    children: dict[str, list[str]] = {}
    for unit, parent in conn.execute("select id, parent_id from sections"):
        children.setdefault(parent, []).append(unit)

    def prints_words(unit: str) -> bool:
        return bool(texts.get(unit)) or any(prints_words(child) for child in children.get(unit, []))

    headings_only = []
    for (history,) in conn.execute("select history from law_history"):
        for row in json.loads(history)["rows"]:
            laws = (row.get("new") or {}).get("id")
            for cell in row["reprints"] or []:
                if laws and prints_words(laws) and not prints_words(cell["id"]):
                    headings_only.append((cell["id"], cell["status"]))
    assert len(headings_only) >= 20
    assert [(unit, status) for unit, status in headings_only if status != "heading_only"] == []


def pair_rows(conn, where: str, *args) -> list[tuple]:
    return [
        tuple(r)
        for r in conn.execute(
            f"select from_ref, to_ref, relation, basis, source_ref from provision_pairs where {where} order by position",
            args,
        )
    ]


def test_2017_40A4_comes_from_1997_40E1(conn):
    # 「只限制其使用方法,而不是限制其风格与判断力」 = 「規制されるのはシステムだけで、スタイルや判断は制限されない」
    assert pair_rows(conn, "to_ref = '40A4'") == [("40E1", "40A4", "split", "reviewed", None)]
    reason = conn.execute("select reason from provision_pairs where to_ref = '40A4'").fetchone()[0]
    assert "只限制其使用方法,而不是限制其风格与判断力" in reason and "スタイルや判断は制限されない" in reason


def test_2017_50E_is_1997_50D1s_note_on_information(conn):
    assert pair_rows(conn, "to_ref like '50E%'") == [
        ("50D1", "50E", "split", "reviewed", None),
        ("50D1", "50E1", "split", "reviewed", None),
        ("50D1", "50E2", "split", "reviewed", None),
        ("50D1", "50E3", "split", "reviewed", None),
        (None, "50E4", "new", "reviewed", None),
    ]


def test_30C_is_reworded_not_the_same(conn):
    # 2017 adds "a pass of an artificial call" and drops 1997's definition of a conventional pass
    [row] = pair_rows(conn, "from_ref = '30C'")
    assert row == ("30C", "30C", "reworded", "reviewed", None)
    reason = conn.execute("select reason from provision_pairs where from_ref = '30C'").fetchone()[0]
    assert "a pass of an artificial call" in reason and "definition" in reason


def test_a_2017_unit_from_the_1997_laws_the_corpus_does_not_hold_names_its_source(conn):
    # 2017 20F4 and 20F5 come from 1997 Law 75D: not "new", and not "no 1997 unit became this one"
    rows = pair_rows(conn, "to_ref in ('20F4', '20F4(a)', '20F5', '20F5(b)(ii)')")
    assert rows == [
        (None, "20F4", "not_in_source", "reviewed", "75D1"),
        (None, "20F4(a)", "not_in_source", "reviewed", "75D1"),
        (None, "20F5", "not_in_source", "reviewed", "75D2"),
        (None, "20F5(b)(ii)", "not_in_source", "reviewed", "75D2"),
    ]
    ja = conn.execute("select reason_ja from provision_pairs where to_ref = '20F4'").fetchone()[0]
    assert "第75条D項1" in ja and "新設ではありません" in ja


def test_new_in_2017_and_source_not_held_and_past_the_1997_text_are_told_apart(conn):
    kinds = {
        (r["relation"], r["basis"], r["source_ref"] is not None)
        for r in conn.execute("select relation, basis, source_ref from provision_pairs where from_ref is null")
    }
    assert kinds == {
        ("new", "reviewed", False),  # read: new in 2017
        ("not_in_source", "reviewed", True),  # read: its 1997 source is past the corpus's 1997 text
        ("not_in_source", "content", False),  # past 52A: no 1997 text to read it against
    }
    # every unit of laws 1-52 that no 1997 unit became was read
    assert (
        conn.execute(
            "select count(*) from provision_pairs where from_ref is null and to_law < 52 and basis != 'reviewed'"
        ).fetchone()[0]
        == 0
    )


def test_the_pairing_of_the_two_editions_has_one_table(conn):
    """provision_pairs holds the 1997 -> 2017 pairs; alignments holds the reprints' pairings only."""
    compared = {tuple(r) for r in conn.execute("select distinct from_doc, to_doc from alignments")}
    assert compared == {("revoke-notes-ja", "laws-2017-ja"), ("out-of-turn-notes-ja", "laws-2017-ja")}
    assert conn.execute("select count(*) from provision_pairs").fetchone()[0] == 856
