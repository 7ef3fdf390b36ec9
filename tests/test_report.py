"""check_report and refs_for on a small database built here from hand-made units."""

import pytest
import sqlite_utils

from ingest.checks.report import check_report, format_check_report
from ingest.editions.edition_flags import FLAG_COLUMNS
from ingest.parsers.records import Unit
from ingest.references.xrefs import build_xrefs
from laws_site.read.units import refs_for

UNITS = [
    Unit("laws-2017-ja", "16", "law", line=1216),
    Unit("laws-2017-ja", "16B", "section", parent_ref="16", line=1230),
    Unit("laws-2017-ja", "16B1", "item", parent_ref="16B", line=1232),
    Unit("laws-2017-ja", "20", "law", line=1344),
    Unit("laws-2017-ja", "20F", "section", parent_ref="20", line=1378),
    # Law 20F3, as printed: cites 16B1 (exists) ...
    Unit(
        "laws-2017-ja",
        "20F3",
        "item",
        parent_ref="20F",
        line=1385,
        text="3. 本条F項1および2の下にプレイヤーはある1つのコールに関して尋ねることができるが第16条B項1を適用することができる。",
    ),
    Unit("laws-2017-ja", "19", "law", line=1320, text="とみなす（第16条、不当な情報を適用することがある）。"),
    Unit(
        "revoke-notes-ja",
        "L61B",
        "note",
        line=80,
        attrs={"covers": ["61B"]},
        text="(b) ダミーはディフェンダーに質問することはできない。違反行為には第16条B項を適用することがある。",
    ),
]


@pytest.fixture()
def db_path(tmp_path):
    path = tmp_path / "laws.db"
    db = sqlite_utils.Database(path)
    db["sections"].insert_all(
        [
            {
                "id": u.id,
                "doc": u.doc,
                "ref": u.ref,
                "parent_id": u.parent_id,
                "kind": u.kind,
                "title": u.title,
                "text": u.text,
                "position": i,
                "page": None,
                "line": u.line,
                "attrs": u.attrs,
            }
            for i, u in enumerate(UNITS)
        ],
        pk="id",
    )
    db["xrefs"].insert_all(build_xrefs(UNITS), pk="id")
    # the build writes edition_flags beside xrefs (none among these units): the report reads it
    db["edition_flags"].create(FLAG_COLUMNS, pk="id")
    return path


def test_counts_per_citing_document(db_path):
    report = check_report(db_path)
    # 20F3: 本条F項1, 2 (no 20F1/20F2 here), 第16条B項1; 19: 第16条; L61B: 第16条B項, covers 61B (absent)
    assert {doc: (c["found"], c["resolved"], c["unresolved"]) for doc, c in report["documents"].items()} == {
        "laws-2017-ja": (4, 2, 2),
        "revoke-notes-ja": (2, 1, 1),
    }
    assert report["total"] == {"found": 6, "resolved": 3, "unresolved": 3, "rate": 0.5}
    assert report["ok"] is False and report["broken_targets"] == 0


def test_each_unresolved_reference_is_listed_with_its_location(db_path):
    listed = [
        (u["source_id"], u["line"], u["surface"], u["target_ref"], u["resolved_to_parent"])
        for u in check_report(db_path)["unresolved"]
    ]
    assert listed == [
        ("laws-2017-ja:20F3", 1385, "本条F項1", "20F1", "laws-2017-ja:20F"),
        ("laws-2017-ja:20F3", 1385, "2", "20F2", "laws-2017-ja:20F"),
        ("revoke-notes-ja:L61B", 80, "L61B", "61B", None),
    ]


def test_format_names_documents_and_unresolved_surfaces(db_path):
    text = format_check_report(check_report(db_path))
    assert "revoke-notes-ja" in text and "'本条F項1'" in text and "line 1385" in text


def test_outgoing_lists_every_reference_of_the_unit(db_path):
    out = refs_for(db_path, "laws-2017-ja", "20F3")["outgoing"]
    assert [(o["surface"], o["ref"], o["id"], o["resolved"]) for o in out] == [
        ("本条F項1", "20F1", None, False),
        ("2", "20F2", None, False),
        ("第16条B項1", "16B1", "laws-2017-ja:16B1", True),
    ]


def test_incoming_is_exact_unless_deep(db_path):
    shallow = refs_for(db_path, "laws-2017-ja", "16")["incoming"]
    deep = refs_for(db_path, "laws-2017-ja", "16", deep=True)["incoming"]
    assert [i["id"] for i in shallow] == ["laws-2017-ja:19"]
    assert sorted(i["id"] for i in deep) == ["laws-2017-ja:19", "laws-2017-ja:20F3", "revoke-notes-ja:L61B"]


def test_unknown_unit_is_a_key_error(db_path):
    with pytest.raises(KeyError):
        refs_for(db_path, "laws-2017-ja", "99Z")
