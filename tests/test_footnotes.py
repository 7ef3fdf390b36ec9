"""Footnotes bear on the unit that prints their marker and on every unit under it (table
unit_footnotes, ingest/references/footnotes.py); a heading's marker is kept apart from its title.
Exact rows on the whole-corpus session build (tests/conftest.py), and the pure function on excerpts."""

from __future__ import annotations

import sqlite3

import pytest

from ingest.parsers.records import Unit
from ingest.references.footnotes import unit_footnote_rows


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(laws_db_path)
    yield connection
    connection.close()


def footnotes_of(conn, unit_id: str) -> list[tuple]:
    return conn.execute(
        "select footnote_id, label, via_id, field from unit_footnotes where unit_id = ? order by position", (unit_id,)
    ).fetchall()


def test_64a2_reaches_footnote_19_which_decides_who_won_the_trick(conn):
    assert footnotes_of(conn, "laws-2017-ja:64A2") == [("laws-2017-ja:fn:19", "19", "laws-2017-ja:64A2", "text")]
    text = conn.execute("select text from sections where id = 'laws-2017-ja:fn:19'").fetchone()[0]
    assert text.startswith("この条項の適用に当たり、ダミーが取ったトリックは")


def test_a_heading_marker_bears_on_every_unit_under_the_heading(conn):
    # 第13条 カードの過不足*2: footnote 2 says when the whole law applies
    assert footnotes_of(conn, "laws-2017-ja:13A1") == [("laws-2017-ja:fn:2", "2", "laws-2017-ja:13", "title")]
    # 75B 間違った説明*: the bare star is the law's 【日本語版注】
    assert footnotes_of(conn, "laws-2017-ja:75B2") == [("laws-2017-ja:fn:ja-75", "*", "laws-2017-ja:75B", "title")]
    # 22 次のときオークションは終了する*：, a lead-in
    assert footnotes_of(conn, "laws-2017-ja:22B") == [("laws-2017-ja:fn:ja-22", "*", "laws-2017-ja:22", "text")]


def test_every_footnote_of_the_laws_is_reached_from_the_unit_it_hangs_from(conn):
    rows = conn.execute(
        """select f.id, json_extract(f.attrs, '$.anchor_ref') from sections f
           where f.doc = 'laws-2017-ja' and f.kind = 'footnote'"""
    ).fetchall()
    assert len(rows) == 30
    for footnote, anchor in rows:
        assert conn.execute(
            "select 1 from unit_footnotes where unit_id = ? and footnote_id = ?", (f"laws-2017-ja:{anchor}", footnote)
        ).fetchone(), footnote


def test_no_title_shows_a_footnote_marker(conn):
    marked = conn.execute(
        "select id, title from sections where kind != 'footnote' and doc != 'jcbl-regs-ja' and title like '%*%'"
    ).fetchall()
    assert marked == []
    titles = dict(
        conn.execute("select id, title from sections where id in (?, ?)", ("laws-2017-ja:13", "laws-2017-ja:86B2"))
    )
    assert titles == {"laws-2017-ja:13": "カードの過不足", "laws-2017-ja:86B2": "1つ以上のテーブルで得られた複数の結果"}


def test_nearest_first_and_once_each():
    units = [
        Unit("d", "5", "law", title="法", attrs={"title_footnotes": ["1"]}),
        Unit("d", "5A", "section", text="本文*1と*2", parent_ref="5"),
        Unit("d", "fn:1", "footnote", text="一", attrs={"label": "1", "anchor_ref": "5"}),
        Unit("d", "fn:2", "footnote", text="二", attrs={"label": "2", "anchor_ref": "5A"}),
    ]
    rows = [(r["unit_id"], r["footnote_id"], r["via_id"]) for r in unit_footnote_rows(units)]
    assert rows == [("d:5", "d:fn:1", "d:5"), ("d:5A", "d:fn:1", "d:5A"), ("d:5A", "d:fn:2", "d:5A")]
