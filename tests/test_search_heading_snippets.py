"""A unit that prints no text of its own (a heading: 17D オークション期間の終了, whose words are its items') shows
under its title in search results the start of its sub-units' text, not its title a second time, online and
offline alike (table search_leads, ingest/search/leads.py; the pack's `leads`)."""

from __future__ import annotations

import json
import subprocess

import pytest

from laws_site.offline.search_scripts import script_paths
from laws_site.search import engine as searching
from tests.test_search_parity import NODE, RUNNER

SAMPLE = 40  # heading units searched by their own title (spread over every document)


@pytest.fixture(scope="module")
def conn(search_conn):
    return search_conn  # what every search reads loaded before the tests (engine.prepare)


def headings(conn) -> list[tuple[str, str, str]]:
    """(id, title, first text among its sub-units in reading order) of units with a title, no text and a
    sub-unit with text."""
    rows = conn.execute(
        """select s.id, s.title from sections s
            where coalesce(s.text, '') = '' and coalesce(s.title, '') != ''
              and s.kind not in ('toc', 'toc_entry', 'index', 'index_row', 'index_entry', 'part', 'chapter')
            order by s.position"""
    ).fetchall()
    found = [(unit, title, text) for unit, title in rows if (text := texts_below(conn, unit))]
    return found[:: max(1, len(found) // SAMPLE)]


def texts_below(conn, unit: str) -> str | None:
    """The texts of a unit's sub-units, in reading order, one after the other ("" when none has text)."""
    row = conn.execute(
        """with recursive below(id) as (select id from sections where parent_id = ?
                                         union all select s.id from sections s join below b on s.parent_id = b.id)
           select group_concat(text, ' ') from (select s.text from sections s join below b on b.id = s.id
            where coalesce(s.text, '') != '' and s.kind != 'footnote' order by s.position)""",
        (unit,),
    ).fetchone()
    return row[0] if row else None


def snippet_text(result: dict) -> str:
    return "".join(part["text"] for part in result["snippet"])


def test_17d_shows_its_first_item_not_its_title_again(conn):
    answer = searching.search_page(conn, "オークション期間の終了", limit=5)
    found = {r["id"]: r for r in answer["results"]}
    shown = snippet_text(found["laws-2017-ja:17D"])
    assert shown.startswith("1. オークション期間は、第22条A項に従って"), shown
    assert "オークション期間の終了" not in shown[:20]
    assert [part["text"] for part in found["laws-2017-ja:17D"]["snippet"] if part["mark"]][:3] == [
        "オークション期間",
        "オークション",
        "終了",
    ]
    # a law of sections: its first section's number, title and text, the words searched marked in the text
    law = searching.search_page(conn, "オークション期間", limit=10)
    spans = next(r for r in law["results"] if r["id"] == "laws-2017-ja:17")["snippet"]
    assert "ディールのオークション期間が始まる。 B. 最初のコール ボードにディーラーと" in snippet_text(
        {"snippet": spans}
    )
    assert [part["text"] for part in spans if part["mark"]] == ["オークション期間"]


def test_no_heading_repeats_its_title_as_its_snippet_online_or_offline(conn, search_pack_file):
    units = headings(conn)
    assert len(units) >= SAMPLE // 2
    asked = [[title, {"limit": 20}] for _, title, _ in units]
    server = [searching.search_page(conn, title, limit=20) for _, title, _ in units]
    process = subprocess.run(
        [NODE, str(RUNNER), str(search_pack_file), *map(str, script_paths())],
        input=json.dumps(asked, ensure_ascii=False) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    phone = json.loads(process.stdout)
    checked = 0
    for (unit, title, below_text), online, offline in zip(units, server, phone):
        mine = {r["id"]: r for r in online["results"]}
        if unit not in mine:
            continue
        checked += 1
        shown = snippet_text(mine[unit])
        below = below_text.replace("\n", " ")
        assert shown != title and any(shown[i : i + 12] in below for i in range(len(shown))), (unit, shown)
        assert next(r for r in offline["results"] if r["id"] == unit)["snippet"] == mine[unit]["snippet"], unit
    assert checked >= len(units) // 2


def test_leads_are_made_at_build_and_read_as_stored(conn):
    """Table search_leads (made at build, ingest/search/leads.py) holds every unit without text of its own and the
    sub-units its result shows (17D: its three items, each with its text); the server reads it as it is."""
    rows = dict(conn.execute("select id, lead from search_leads"))
    assert json.loads(rows["laws-2017-ja:17D"]) == [
        ["1.", "laws-2017-ja:17D1"],
        ["2.", "laws-2017-ja:17D2"],
        ["3.", "laws-2017-ja:17D3"],
    ]
    assert set(rows) == {unit for (unit,) in conn.execute("select id from sections where coalesce(text, '') = ''")}
    stored = {unit: tuple(tuple(part) for part in json.loads(lead)) for unit, lead in rows.items()}
    assert searching.search_data(conn).shown.leads == stored
