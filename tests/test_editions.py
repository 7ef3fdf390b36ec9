"""The provision concordance laws-1997-zh -> laws-2017-ja (ingest/editions/concordance.py, corpus/concordance.yml):
exact pairs on real excerpts, whole-corpus invariants, references to moved provisions, histories,
and the decision file's errors."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ingest.checks.report import check_report
from ingest.editions.align import load_concordance
from ingest.editions.concordance import figures, load_provisions
from ingest.parsers.records import ParseError

OLD, NEW = "laws-1997-zh", "laws-2017-ja"


@pytest.fixture(scope="module")
def db(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    yield connection
    connection.close()


@pytest.fixture
def conn(db, require_documents):
    require_documents(OLD, NEW, "jcbl-regs-ja")
    return db


def pairs(conn, law: int) -> list[tuple]:
    """(1997 ref, 2017 ref, relation) of the 1997 units of one law, in 2017 reading order."""
    return [
        tuple(r)
        for r in conn.execute(
            "select from_ref, to_ref, relation from provision_pairs where from_law = ? order by position", (law,)
        )
    ]


def targets(conn, ref: str) -> list[tuple]:
    return [
        tuple(r)
        for r in conn.execute(
            "select to_ref, relation from provision_pairs where from_ref = ? order by position", (ref,)
        )
    ]


# --- exact pairs: what the reading of both texts decided -------------------------------------------


def test_law_15_wrong_board(conn):
    # 1997 15A (nobody at the table had played the board) is 2017 15B2; 2017 15A (cards taken from the
    # wrong board) is 1997 17D; 1997 15A1/15A2 are not 2017 15A1/15A2
    assert pairs(conn, 15) == [
        ("15", "15", "reworded"),
        ("15C", "15B", "partial"),
        ("15B", "15B1", "split"),
        ("15A", "15B2", "moved"),
        ("15A1", "15B2", "merged"),
        ("15A2", "15B2", "merged"),
        ("15B", "15B3", "split"),
    ]
    assert targets(conn, "17D") == [
        ("15A", "moved"),
        ("15A1", "moved"),
        ("15A2", "moved"),
        ("15A2(b)", "moved"),
        ("15A3", "moved"),
        ("15A4", "moved"),
    ]


def test_law_16_information(conn):
    assert pairs(conn, 16) == [
        ("16", "16", "split"),
        ("16", "16A", "split"),
        ("16", "16A1", "split"),
        ("16", "16A1(a)", "split"),
        ("16A", "16B", "moved"),
        ("16A", "16B1", "moved"),
        ("16A", "16B1(a)", "moved"),
        ("16A1", "16B2", "moved"),
        ("16A2", "16B3", "moved"),
        ("16C", "16C", "same"),
        ("16C1", "16C1", "same"),
        ("16C2", "16C2", "same"),
        ("16B", "16D", "moved"),
        ("16B", "16D1", "moved"),
        ("16B", "16D2", "moved"),
        ("16B1", "16D2(a)", "moved"),
        ("16B2", None, "removed"),
        ("16B3", "16D2(d)", "moved"),
    ]


def test_1997_law_23_is_2017_72C_and_2017_law_23_is_new(conn):
    assert targets(conn, "23") == [("72C", "moved")]
    new = conn.execute("select relation, basis, reason, reason_ja from provision_pairs where to_ref = '23'").fetchone()
    assert (new["relation"], new["basis"]) == ("new", "reviewed")
    assert new["reason"].startswith("2017 Law 23 (同等なコール, Comparable Call) is new in 2017")
    assert new["reason_ja"].startswith("2017年版の第23条（同等なコール）は2017年版で新設された規定です。")
    assert (
        conn.execute(
            "select count(*) from provision_pairs where to_ref like '23%' and from_ref is not null"
        ).fetchone()[0]
        == 0
    )


def test_law_30_pass_out_of_rotation(conn):
    # 1997 divides by "before / after any bid", 2017 by seat: 1997 30B is not 2017 30B
    assert pairs(conn, 30) == [
        ("30", "30", "reworded"),
        ("30A", "30A", "partial"),
        ("30B", "30A", "split"),
        ("30B1", "30A", "moved"),
        ("30B", "30B", "split"),
        ("30A", "30B1", "partial"),
        ("30B2", "30B1", "partial"),
        ("30B2(b)", "30B1(a)", "partial"),
        ("30B2(a)", "30B1(b)", "partial"),
        ("30B3", "30B2", "moved"),
        ("30C", "30C", "reworded"),  # 2017 adds a pass of an artificial call, drops the definition (issue 37)
    ]


def test_13A1_is_only_in_part_the_same(conn):
    assert targets(conn, "13A1") == [("13A1", "partial")]
    assert targets(conn, "13B") == [("13A2", "moved")]
    assert targets(conn, "13C") == [("13D", "moved")]


def test_other_laws_the_review_changed(conn):
    assert targets(conn, "11C") == [("11B", "moved")]
    assert targets(conn, "11B") == [(None, "removed")]
    assert targets(conn, "17E") == [("17D", "moved"), ("17D1", "moved"), ("17D2", "moved")]
    assert targets(conn, "22A") == [("22B", "moved")] and targets(conn, "22B") == [("22A", "moved")]
    assert targets(conn, "32A") == [("32B", "partial"), ("32B1", "partial"), ("32B2", "partial")]
    assert targets(conn, "32B") == [("32A", "moved")]
    assert targets(conn, "39A") == [("39B", "moved")] and targets(conn, "39B") == [("39C", "moved")]
    assert targets(conn, "40C") == [("40B3(a)", "split"), ("40B5(b)", "split")]
    assert targets(conn, "43C") == [("43B3", "moved")]
    assert targets(conn, "14B3") == [("14B4", "moved")]
    assert targets(conn, "7B1") == [("7B2", "moved")]
    assert targets(conn, "27C") == [("27A2", "moved")]


def test_2017_laws_beyond_the_1997_text_say_so(conn):
    rows = conn.execute(
        "select to_ref, relation, reason from provision_pairs where to_law >= 52 and from_ref is null"
    ).fetchall()
    assert {r["relation"] for r in rows} == {"not_in_source"}
    assert {r["to_ref"] for r in rows if r["to_ref"].startswith("52")} == {
        "52B",
        "52B1",
        "52B1(a)",
        "52B1(b)",
        "52B1(c)",
        "52B2",
    }
    assert rows[0]["reason"] == "the 1997 text in this corpus stops inside 52A: no 1997 text to compare"


# --- whole-corpus invariants -----------------------------------------------------------------------


def test_every_1997_unit_of_laws_1_to_52_is_paired_or_removed_with_a_reason(conn):
    units = {
        r[0]
        for r in conn.execute(
            "select ref from sections where doc = ? and kind in ('law', 'section', 'item', 'subitem', 'subsubitem')",
            (OLD,),
        )
    }
    rows = conn.execute(
        "select from_ref, to_ref, relation, basis, reason from provision_pairs where from_ref is not null"
    ).fetchall()
    assert {r["from_ref"] for r in rows} == units
    for row in rows:
        assert row["reason"], row["from_ref"]
        assert (row["to_ref"] is None) == (row["relation"] == "removed"), row["from_ref"]
        # read in both texts, or saying it was not
        assert row["basis"] == "reviewed" or "not yet read" in row["reason"], row["from_ref"]


def test_no_pair_is_same_when_its_cross_language_evidence_disagrees(conn):
    rows = conn.execute(
        "select from_ref, to_ref, relation, basis, evidence from provision_pairs "
        "where from_ref is not null and to_ref is not null"
    ).fetchall()
    same = [r for r in rows if r["relation"] == "same" and r["basis"] != "reviewed"]
    for row in same:  # the build's rule says same only when the evidence agrees (a reading may say otherwise)
        evidence = json.loads(row["evidence"])
        assert evidence["refs_agree"] and evidence["numbers_agree"], row["from_ref"]


def test_figures(conn):
    rows = [dict(r) for r in conn.execute("select * from provision_pairs")]
    found = figures(rows)
    assert found["number_only_1_52"] == 0
    # every pair of laws 1-52 read in both texts (issue 37: 297 the build's rule had made, re-read)
    assert found["bases"] == {"reviewed": 504, "content": 0, "number": 0}
    assert found["not_yet_read"] == {}
    assert sum(found["relations"].values()) == len(rows)
    assert {15, 16, 22, 23, 30, 32, 39, 40} <= set(found["laws_changed_from_number"])


def test_diff_rows_follow_the_pairs(conn):
    stored = {
        (r["from_id"], r["to_id"])
        for r in conn.execute(
            "select from_id, to_id from diff_rows where from_doc = ? and to_doc = ? and whitespace = 0", (OLD, NEW)
        )
    }
    concorded = {(r["from_id"], r["to_id"]) for r in conn.execute("select from_id, to_id from provision_pairs")}
    assert stored == concorded


# --- references printed against an older edition --------------------------------------------------


def test_references_to_moved_provisions_are_flagged(conn):
    flags = {(r["source_id"], r["surface"]): json.loads(r["now"]) for r in conn.execute("select * from edition_flags")}
    assert [n["id"] for n in flags[("jcbl-regs-ja:appendix-7-4-a-ii", "23条")]] == ["laws-2017-ja:72C"]
    assert [n["ref"] for n in flags[("laws-1997-zh:24B", "第23条")]] == ["72C"]
    assert [n["ref"] for n in flags[("laws-1997-zh:6D3", "第22条A款")]] == ["22B"]
    # a reference to a provision still under its own number is not flagged (1997 第16条C款 is 2017 16C)
    assert not [key for key in flags if key[1] == "第16条C款"]


def test_check_lists_the_moved_references(laws_db_path, require_documents):
    require_documents(OLD, "jcbl-regs-ja")
    moved = check_report(laws_db_path)["moved_references"]
    assert {
        "source_id": "jcbl-regs-ja:appendix-7-4-a-ii",
        "line": 1033,
        "surface": "23条",
        "target_ref": "23",
        "cited_edition": "2007",
        "relation": "moved",
        "now": ["72C"],
    }.items() <= {
        k: v
        for k, v in next(m for m in moved if m["source_id"] == "jcbl-regs-ja:appendix-7-4-a-ii").items()
        if k != "message"
    }.items()
    assert len(moved) == 23


# --- histories --------------------------------------------------------------------------------------


def test_history_of_law_61_has_the_reprint_and_no_1997_text(conn):
    history = json.loads(conn.execute("select history from law_history where law = 61").fetchone()[0])
    old, reprint, new = history["versions"]
    assert (old["reaches"], reprint["reaches"], new["reaches"]) == (False, True, True)
    assert old["note"] == "No 1997 text of Law 61 is in the corpus: the 1997 text stops inside 52A."
    changed = [(row["ref"], r["doc"]) for row in history["rows"] for r in row["reprints"] if r["status"] == "changed"]
    assert changed and all(doc == "revoke-notes-ja" for _, doc in changed)


def test_history_of_law_52_says_where_the_1997_text_stops(conn):
    history = json.loads(conn.execute("select history from law_history where law = 52").fetchone()[0])
    assert history["versions"][0]["note"] == (
        "The 1997 text in this corpus stops inside 52A: what follows has no 1997 text to compare."
    )


# --- the decision file -------------------------------------------------------------------------------


def decisions_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "concordance.yml"
    path.write_text(
        'provisions:\n  from: laws-1997-zh\n  to: laws-2017-ja\n  reviewed: {laws: "1-52"}\n  decisions:\n' + body,
        encoding="utf-8",
    )
    return path


def test_a_decision_without_a_reason_names_its_line(tmp_path):
    path = decisions_file(tmp_path, '    - {from: "16A", to: "16B", reason: "x"}\n    - {from: "16B", to: "16D"}\n')
    with pytest.raises(ParseError) as error:
        load_provisions(path)
    assert (error.value.line, "no reason" in error.value.message) == (7, True)


def test_a_decision_with_a_bad_ref_or_relation_is_an_error(tmp_path):
    with pytest.raises(ParseError, match="not a law ref"):
        load_provisions(decisions_file(tmp_path, '    - {from: "16A", to: "sixteen", reason: "x"}\n'))
    with pytest.raises(ParseError, match="relation 'renamed'"):
        load_provisions(decisions_file(tmp_path, '    - {from: "16A", to: "16B", relation: renamed, reason: "x"}\n'))
    with pytest.raises(ParseError, match="decided twice"):
        load_provisions(
            decisions_file(
                tmp_path, '    - {from: "16A", to: "16B", reason: "x"}\n    - {from: "16A", to: "16C", reason: "y"}\n'
            )
        )


def test_provisions_without_their_editions_is_an_error(tmp_path):
    path = tmp_path / "concordance.yml"
    path.write_text("provisions:\n  decisions: []\n", encoding="utf-8")
    with pytest.raises(ParseError, match="needs 'from' and 'to'"):
        load_provisions(path)


def test_the_corpus_decisions_load():
    provisions = load_provisions()
    assert provisions.reviewed_laws == frozenset(range(1, 53))
    assert provisions.decisions["16A"].to_refs == ("16B", "16B1", "16B1(a)")
    assert provisions.decisions["16B2"].relation == "removed"


def test_every_reviewed_pair_the_content_proposal_disputes_is_recorded(conn):
    """Where the proposal from content points at another 2017 unit than the pair, the pair is a
    decision or a confirmation in corpus/concordance.yml, with its reason."""
    provisions = load_provisions(concordance=load_concordance())  # the curated moves are decisions too
    disputed = []
    for row in conn.execute(
        "select from_ref, to_ref, reason, evidence from provision_pairs "
        "where from_ref is not null and to_ref is not null"
    ):
        proposed = json.loads(row["evidence"]).get("proposed")
        if proposed and proposed != row["to_ref"]:
            disputed.append(row["from_ref"])
            assert row["from_ref"] in provisions.decisions or row["from_ref"] in provisions.confirmed, row["from_ref"]
            assert row["reason"] != "read in both texts: the same provision", row["from_ref"]
    assert disputed
