"""The build: schema, atomic replacement, and bad corpus input that loses nothing."""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from laws_site.cli import cli

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("build") / "laws.db"
    result = CliRunner().invoke(cli, ["build", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def copy_corpus(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS, target)
    return target


def test_schema_and_counts(built):
    conn = sqlite3.connect(built)
    docs = [r[0] for r in conn.execute("select id from documents order by id")]
    assert docs == ["jcbl-regs-ja", "laws-1997-zh", "laws-2017-ja", "out-of-turn-notes-ja", "revoke-notes-ja"]
    row = conn.execute("select doc, ref, parent_id, kind, title, page from sections where id = 'laws-2017-ja:61B2(a)'").fetchone()
    assert row == ("laws-2017-ja", "61B2(a)", "laws-2017-ja:61B2", "subitem", None, 93)
    assert conn.execute("select count(*) from sections where doc = 'laws-2017-ja' and kind = 'law'").fetchone() == (93,)
    # foreign keys are declared so Datasette links parent and document
    fks = {(fk[2], fk[3]) for fk in conn.execute("pragma foreign_key_list(sections)")}
    assert ("documents", "doc") in fks and ("sections", "parent_id") in fks
    # every parent exists
    orphans = conn.execute("select count(*) from sections s where parent_id is not null "
                           "and not exists (select 1 from sections p where p.id = s.parent_id)").fetchone()
    assert orphans == (0,)


def test_fts_table_is_detected_by_datasette(built):
    conn = sqlite3.connect(built)
    sql = conn.execute("select sql from sqlite_master where name = 'sections_fts'").fetchone()[0]
    assert "content=[sections]" in sql or 'content="sections"' in sql or "content='sections'" in sql


def test_rebuild_replaces_atomically(built, tmp_path):
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    result = CliRunner().invoke(cli, ["build", "--db", str(db)])
    assert result.exit_code == 0
    assert not list(tmp_path.glob(".laws.db.*.tmp")), "temporary file left behind"


def corrupt(tmp_path: Path, how: str) -> tuple[Path, str]:
    """A corpus copy broken in one way; returns it and the file name the error must name."""
    corpus = copy_corpus(tmp_path)
    laws = corpus / "laws-2017-ja.txt"
    text = laws.read_text(encoding="utf-8")
    if how == "truncated":
        laws.write_text(text[: text.index("### 第53条")], encoding="utf-8")
    elif how == "shift_jis":
        laws.write_bytes(text.encode("shift_jis", errors="replace"))
    elif how == "empty":
        laws.write_text("", encoding="utf-8")
    elif how == "duplicated_law_heading":
        laws.write_text(text.replace("### 第53条 順番外のリードの受け入れ", "### 第52条 順番外のリードの受け入れ"), encoding="utf-8")
    elif how == "missing_file":
        manifest = yaml.safe_load((corpus / "sources.yml").read_text(encoding="utf-8"))
        manifest["documents"][0]["file"] = "no-such-file.txt"
        (corpus / "sources.yml").write_text(yaml.safe_dump(manifest, allow_unicode=True), encoding="utf-8")
        return corpus, "no-such-file.txt"
    return corpus, "laws-2017-ja.txt"


@pytest.mark.parametrize("how, line_expected", [
    ("truncated", True),
    ("shift_jis", True),
    ("empty", False),
    ("duplicated_law_heading", True),
    ("missing_file", False),
])
def test_bad_corpus_fails_and_leaves_the_database_byte_identical(built, tmp_path, how, line_expected):
    db = tmp_path / "laws.db"
    shutil.copy(built, db)
    before = db.read_bytes()
    corpus, named_file = corrupt(tmp_path, how)
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus)])
    assert result.exit_code != 0
    assert named_file in result.output
    if line_expected:
        assert f"{named_file}:" in result.output and any(ch.isdigit() for ch in result.output.split(named_file + ":")[1][:6])
    assert "left unchanged" in result.output
    assert db.read_bytes() == before
    assert not list(tmp_path.glob(".laws.db.*.tmp"))
