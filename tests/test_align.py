"""Alignment of law units across the 1997/2017 editions and the commentaries' reprints (real corpus)."""

from __future__ import annotations

import pytest

from ingest.editions.align import (
    align,
    align_pairs,
    alignment_rows,
    comparable_units,
    law_ref_of,
    load_concordance,
)
from ingest.parsers.documents import parse_document
from ingest.parsers.records import ParseError
from ingest.sources.corpus import load_sources


@pytest.fixture(scope="module")
def units():
    found = []
    for source in load_sources():
        if source.id in ("laws-1997-zh", "laws-2017-ja", "revoke-notes-ja", "out-of-turn-notes-ja"):
            found += parse_document(source.id, source.text, source.name).units
    return found


@pytest.fixture(scope="module")
def rows(units):
    from ingest.sources.corpus import DEFAULT_CORPUS, load_manifest
    from ingest.sources.registry import Registry

    return alignment_rows(align_pairs(units, Registry.from_rows(load_manifest(DEFAULT_CORPUS)).diff_pairs()))


def row_for(rows, from_id=None, to_id=None, from_doc="laws-1997-zh"):
    if from_id:
        from_doc = from_id.rsplit(":", 1)[0].removesuffix(":quote")
    matches = [
        r
        for r in rows
        if r["from_doc"] == from_doc
        and (from_id is None or r["from_id"] == from_id)
        and (to_id is None or r["to_id"] == to_id)
    ]
    assert len(matches) == 1, (from_id, to_id, matches)
    return matches[0]


def test_same_ref_pairs_the_editions_unit_by_unit(rows):
    row = row_for(rows, "laws-1997-zh:6D3", "laws-2017-ja:6D3")
    assert (row["method"], row["confidence"]) == ("same_ref", 0.7)


def test_a_quote_aligns_with_the_unit_it_reprints(rows):
    row = row_for(rows, "revoke-notes-ja:quote:61A")
    assert row["from_doc"] == "revoke-notes-ja"
    assert (row["to_id"], row["method"], row["confidence"]) == ("laws-2017-ja:61A", "reprint", 1.0)
    assert row_for(rows, "out-of-turn-notes-ja:quote:53A")["to_id"] == "laws-2017-ja:53A"


def test_every_quote_finds_its_law_unit(rows, units):
    quotes = [u for u in units if u.kind == "quote"]
    assert quotes, "the commentary parser emits quote units"
    unpaired = [r for r in rows if r["from_id"] and ":quote:" in r["from_id"] and r["to_id"] is None]
    assert unpaired == []


def test_concordance_moves_the_damaging_enforced_pass_to_72C(rows):
    row = row_for(rows, "laws-1997-zh:23")
    assert (row["to_id"], row["method"]) == ("laws-2017-ja:72C", "concordance")
    assert row["note"].startswith("The rule for an enforced pass that may damage")  # the note, no internal id


def test_the_new_2017_law_23_is_not_paired_with_the_1997_law_23(rows):
    row = row_for(rows, to_id="laws-2017-ja:23")
    assert row["from_id"] is None
    assert row["note"].startswith("2017 Law 23 (同等なコール, Comparable Call) is new in 2017")


def test_a_1997_section_absent_in_2017(rows):
    for ref in ("40D", "40E", "40E1", "40E2"):
        row = row_for(rows, f"laws-1997-zh:{ref}")
        assert (row["to_id"], row["note"]) == (None, "not in laws-2017-ja")


def test_law_53_is_beyond_the_cut_off_1997_page(rows):
    row = row_for(rows, to_id="laws-2017-ja:53")
    assert row["from_id"] is None
    assert "cut off in Law 52" in row["note"]


def test_each_unit_appears_once_per_document_pair(rows, units):
    laws_1997 = comparable_units(units, "laws-1997-zh")
    from_1997 = [r["from_id"] for r in rows if r["from_id"] and r["from_id"].startswith("laws-1997-zh:")]
    assert sorted(from_1997) == sorted(u.id for u in laws_1997)


def test_rows_follow_reading_order(units):
    aligned = align(comparable_units(units, "laws-1997-zh"), comparable_units(units, "laws-2017-ja"))
    refs = [r["to_ref"] or r["from_ref"] for r in aligned]
    # 1997 40D/40E come after all of 2017 Law 40C, before Law 41
    assert refs.index("40C2") < refs.index("40D") < refs.index("40E2") < refs.index("41")


def test_law_ref_of_a_quote():
    from ingest.parsers.records import Unit

    assert law_ref_of(Unit("revoke-notes-ja", "quote:61B2", "quote", attrs={"law_ref": "61B2"})) == "61B2"
    assert law_ref_of(Unit("laws-2017-ja", "def:ダミー", "definition")) is None


def test_reversed_direction_flips_the_moves():
    concordance = load_concordance()
    forward = {m.id: m for m in concordance.between("laws-1997-zh", "laws-2017-ja")}
    backward = {m.id: m for m in concordance.between("laws-2017-ja", "laws-1997-zh")}
    assert (forward["damaging-enforced-pass"].from_ref, forward["damaging-enforced-pass"].to_ref) == ("23", "72C")
    assert (backward["damaging-enforced-pass"].from_ref, backward["damaging-enforced-pass"].to_ref) == ("72C", "23")
    assert backward["comparable-call"].kind == "removed"


def test_every_concordance_move_has_sources():
    assert all(move.sources for move in load_concordance().moves)


def test_a_move_without_sources_is_rejected(tmp_path):
    path = tmp_path / "concordance.yml"
    path.write_text(
        "moves:\n  - id: x\n    kind: moved\n    from: {doc: laws-1997-zh, ref: '23'}\n"
        "    to: {doc: laws-2017-ja, ref: 72C}\n",
        encoding="utf-8",
    )
    with pytest.raises(ParseError, match="no sources"):
        load_concordance(path)
