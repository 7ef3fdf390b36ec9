"""The ruling guides in the build (ingest/sources/guide_tables.py): tables ``guides`` and ``guide_units``,
and a build that fails, naming the guide's file and line, when a guide does not hold against the Laws
as built - a quote that is not an exact substring of its unit's text after errata, a cite that is no
unit, a path that does not end in a ruling.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from ingest.parsers.records import ParseError, Unit
from ingest.sources.corpus import DEFAULT_CORPUS, load_manifest
from ingest.sources.guide_tables import guide_tables
from ingest.sources.registry import Registry
from laws_site.cli import cli

GUIDES = DEFAULT_CORPUS / "guides"

# the corpus guides in the Laws' order (by the law most of each guide's rules cite)
GUIDE_IDS = [
    "unauthorised-information",
    "misinformation",
    "insufficient-bid",
    "call-out-of-rotation",
    "exposed-cards",
    "lead-out-of-turn",
    "revoke",
    "claims",
]


def guides_by_id(db_path) -> dict:
    """{guide id: laws_site.read.guides.Guide} of a built database, read as the site reads them."""
    from laws_site.read.guides import all_guides

    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return {guide.id: guide for guide in all_guides(conn)}
    finally:
        conn.close()


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry.from_rows(load_manifest(DEFAULT_CORPUS))


@pytest.fixture(scope="module")
def law_units(laws_build, registry) -> list[Unit]:
    """The Laws in force as the session's build wrote them (after errata), as the parser's records."""
    conn = sqlite3.connect(f"file:{laws_build.path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "select doc, ref, kind, text, parent_id from sections where doc = ? order by position",
            (registry.current_laws.id,),
        ).fetchall()
    finally:
        conn.close()
    return [
        Unit(doc, ref, kind, text or "", parent_ref=parent.split(":", 1)[1] if parent else None)
        for doc, ref, kind, text, parent in rows
    ]


def corpus_with(tmp_path: Path, name: str, old: str, new: str) -> tuple[Path, int]:
    """A corpus directory holding the guides, one of them edited; the line of the edit."""
    corpus = tmp_path / "corpus"
    shutil.copytree(GUIDES, corpus / "guides")
    path = corpus / "guides" / f"{name}.yml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return corpus, text[: text.index(old)].count("\n") + 1


def test_the_tables_of_the_corpus_guides(law_units, registry):
    tables = guide_tables(DEFAULT_CORPUS, law_units, registry)
    rows = tables["guides"]
    assert [row["id"] for row in rows] == GUIDE_IDS
    revoke = next(row for row in rows if row["id"] == "revoke")
    assert (revoke["doc"], revoke["start"], revoke["source"]) == ("laws-2017-ja", "established", "guides/revoke.yml")
    assert json.loads(revoke["laws"]) == ["61", "62", "63", "64"]
    rule = json.loads(revoke["rules"])["revoke-trick-and-one-more"]
    assert rule["cite"] == "64A1" and rule["quote"].startswith("リボークの起きたトリックと")
    covered = {(row["unit_id"], row["guide_id"]): row["law_ref"] for row in tables["guide_units"]}
    assert covered[("laws-2017-ja:64A1", "revoke")] == "64"
    assert covered[("laws-2017-ja:16C", "lead-out-of-turn")] == "16C"
    assert covered[("laws-2017-ja:16C", "unauthorised-information")] == "16"
    assert not [key for key in covered if key[0] == "laws-2017-ja:1"]
    by_guide = {}
    for unit_id, guide_id in covered:
        by_guide.setdefault(guide_id, set()).add(unit_id)
    assert "laws-2017-ja:61B2(a)" in by_guide["revoke"] and "laws-2017-ja:65" not in by_guide["revoke"]


def test_the_session_build_has_them(laws_build):
    conn = sqlite3.connect(f"file:{laws_build.path}?mode=ro", uri=True)
    try:
        assert conn.execute("select count(*) from guides").fetchone() == (8,)
        assert conn.execute("select count(*) from guide_units where guide_id = 'revoke'").fetchone()[0] > 40
    finally:
        conn.close()


def test_no_guides_directory_is_no_guides(tmp_path, law_units, registry):
    assert guide_tables(tmp_path, law_units, registry) == {"guides": [], "guide_units": []}


@pytest.mark.parametrize(
    "old, new, message",
    [
        (  # a quote that is not the unit's text: one character changed
            'quote: "リボークの起きたトリックと、反則側がこれより後のトリックを取ったときはその中の1つを',
            'quote: "リボークの起きたトリックと、反則側がこれより後のトリックを取ったときはその中の2つを',
            "quote is not in the text of 64A1 as built",
        ),
        ('cite: "64A1"', 'cite: "64A9"', "cite '64A9' is not a unit of the Laws in force"),
        ('laws: ["61", "62", "63", "64"]', 'laws: ["61", "62", "63", "64", "99Z"]', "laws: '99Z' is not a unit"),
    ],
)
def test_a_guide_that_does_not_hold_against_the_laws_is_an_error_at_its_line(
    tmp_path, law_units, registry, old, new, message
):
    corpus, line = corpus_with(tmp_path, "revoke", old, new)
    with pytest.raises(ParseError) as raised:
        guide_tables(corpus, law_units, registry)
    assert raised.value.source.endswith("guides/revoke.yml")
    assert message in raised.value.message
    assert raised.value.line in (line, line + 1)  # the quote's line, or the cite's (the quote follows it)


def test_a_path_that_does_not_end_in_a_ruling_is_an_error(tmp_path, law_units, registry):
    """offender-won's "No" answer pointed back at the first question: a cycle, so a path that never ends."""
    corpus, line = corpus_with(tmp_path, "revoke", "        next: side-won\n", "        next: established\n")
    with pytest.raises(ParseError) as raised:
        guide_tables(corpus, law_units, registry)
    assert (raised.value.line, "cycle" in raised.value.message) == (line, True)


def test_the_quote_is_held_to_the_text_after_errata(law_units, registry):
    """16D2(a) as printed reads 可能なならば (a doubled な the errata remove): the guide quotes the text as
    the build makes it, 可能ならば; the printed text would fail it."""
    unit = next(u for u in law_units if u.ref == "16D2(a)")
    assert "可能ならば" in unit.text
    printed = [
        Unit(u.doc, u.ref, u.kind, u.text.replace("可能ならば", "可能なならば"), parent_ref=u.parent_ref)
        if u is unit
        else u
        for u in law_units
    ]
    with pytest.raises(ParseError) as raised:
        guide_tables(DEFAULT_CORPUS, printed, registry)
    assert raised.value.source.endswith("unauthorised-information.yml")
    assert "quote is not in the text of 16D2(a) as built" in raised.value.message


@pytest.mark.slow
def test_the_build_fails_with_file_and_line_and_keeps_the_old_database(tmp_path, laws_build):
    """`bridge-laws build` over a corpus whose errata lack the fix a guide's quote needs: exit 2, one
    line naming the guide's file and line, the previous database untouched."""
    corpus = tmp_path / "corpus"
    shutil.copytree(DEFAULT_CORPUS, corpus)
    errata = corpus / "errata" / "laws-2017-ja.yml"
    data = yaml.safe_load(errata.read_text(encoding="utf-8"))
    data["errata"] = [e for e in data["errata"] if e.get("find") != "可能なならば"]
    errata.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    guide = (corpus / "guides" / "unauthorised-information.yml").read_text(encoding="utf-8")
    quote_line = next(n for n, line in enumerate(guide.splitlines(), 1) if "採点方式から可能ならば" in line)
    db = tmp_path / "laws.db"
    shutil.copy(laws_build.path, db)
    before = db.read_bytes()
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus), "--no-offline"])
    assert result.exit_code == 2, result.output
    assert f"guides/unauthorised-information.yml:{quote_line}: quote is not in the text of 16D2(a)" in result.output
    assert db.read_bytes() == before
