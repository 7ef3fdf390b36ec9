"""The figures README.md and docs/references.md print are those of a real build.

The README's `bridge-laws build`, `check` and `check --text` samples are compared, line by line,
with what the session's build (tests/conftest.py) and the text checker report; the sentence on the
unresolved references, and the table of docs/references.md, with the database.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from ingest.checks.report import check_report, format_check_report

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
REFERENCES = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")


def console_block(command: str) -> list[str]:
    """The lines README shows after `$ <command>` up to the next prompt or the end of the block."""
    lines = README.split("\n")
    start = lines.index(f"$ {command}") + 1
    block = []
    for line in lines[start:]:
        if line.startswith("$ ") or line.startswith("```") or not line.strip():
            break
        block.append(line)
    return block


@pytest.fixture(scope="module")
def db(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield conn
    conn.close()


def test_build_sample_is_a_real_build(db, require_documents):
    require_documents("laws-2017-ja", "revoke-notes-ja", "out-of-turn-notes-ja", "laws-1997-zh", "jcbl-regs-ja")
    documents = db.execute("select id, units from documents order by rowid").fetchall()
    xrefs, resolved = db.execute("select count(*), sum(resolved) from xrefs").fetchone()
    units = db.execute("select count(*) from sections").fetchone()[0]
    expected = [f"parsed {doc}: {n} units" for doc, n in documents]
    expected += [
        f"cross-references: {xrefs} ({resolved} resolved)",
        "...",
        f"{len(documents)} documents, {units} units, {xrefs} cross-references -> laws.db",
    ]
    assert console_block("bridge-laws build") == expected


def test_check_sample_is_the_real_report(laws_db_path, require_documents):
    require_documents("laws-2017-ja", "revoke-notes-ja", "out-of-turn-notes-ja", "laws-1997-zh", "jcbl-regs-ja")
    shown = console_block("bridge-laws check")
    real = format_check_report(check_report(laws_db_path)).split("\n")
    assert shown[-1] == "..." and shown[:-1] == real[: len(shown) - 1]
    assert len(shown) >= 8  # the header, five documents, the total and the verdict


@pytest.mark.slow
def test_text_check_sample_is_the_real_report():
    from ingest.checks.text_review import check_corpus, format_report

    shown = console_block("bridge-laws check --text")
    real = format_report(check_corpus()).split("\n")
    assert shown[-1] == "..." and shown[:-1] == real[: len(shown) - 1]


def test_the_unresolved_references_sentence(db):
    sentence = re.search(
        r"Of the (\d+) unresolved references, (\d+) in the Chinese text point at Laws 53–93.*?"
        r", and (\d+) are the Chinese `23A`.*?The 索引's\s+`20C2` resolves",
        README,
        re.S,
    )
    assert sentence, "README lost its sentence on the unresolved references"
    total, beyond, zh_23a = map(int, sentence.groups())
    rows = db.execute("select source_id, target_ref, reason from xrefs where not resolved").fetchall()
    assert total == len(rows)
    assert beyond == sum(1 for _, _, reason in rows if reason.startswith("beyond the end of the source"))
    assert zh_23a == sum(1 for source, ref, _ in rows if source.startswith("laws-1997-zh:") and ref == "23A")
    assert beyond + zh_23a == total
    assert db.execute(
        "select target_id, resolved from xrefs where source_id = ? and target_ref = '20C2'",
        ("laws-2017-ja:index:復唱/オークション",),
    ).fetchall() == [("laws-2017-ja:20C2", 1)]


def test_references_doc_table_is_the_database(laws_db_path):
    report = check_report(laws_db_path)
    table = {
        m.group(1): tuple(map(int, m.groups()[1:]))
        for m in re.finditer(r"^\| ([a-z0-9-]+) \| (\d+) \| (\d+) \| (\d+) \|", REFERENCES, re.M)
    }
    expected = {doc: (c["found"], c["resolved"], c["unresolved"]) for doc, c in report["documents"].items()}
    assert table == expected
    total = report["total"]
    assert (
        f"| total | {total['found']} | {total['resolved']} | {total['unresolved']} ({total['rate']:.1%} resolved) |"
        in REFERENCES
    )
