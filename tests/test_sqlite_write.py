"""The build writes sqlite-utils' SQL without importing sqlite-utils: same schema, same rows."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import sqlite_utils

from ingest.build import database as build_module
from ingest.build import sqlite_write
from ingest.build.sqlite_write import Database, create_table_sql

ROOT = Path(__file__).resolve().parent.parent


def contents(path: Path) -> dict:
    """Every schema entry and every table's rows (with rowids), build_info's per-build values left out."""
    conn = sqlite3.connect(path)
    found = {}
    for kind, name, sql in conn.execute("select type, name, sql from sqlite_master order by type, name"):
        found[(kind, name)] = sql
        if kind == "table":
            rows = conn.execute(
                f'select rowid, * from "{name}"'
                if not name.endswith(("_config", "_data", "_idx", "_docsize"))
                else f'select * from "{name}"'
            ).fetchall()
            found[("rows", name)] = [row for row in rows if name != "build_info" or row[1] == "sources_sha256"]
    conn.close()
    return found


@pytest.mark.slow
def test_the_database_is_the_one_sqlite_utils_writes(tmp_path, monkeypatch):
    ours = tmp_path / "ours.db"
    build_module.build(ours)
    monkeypatch.setattr(build_module, "Database", lambda path: sqlite_utils.Database(path, execute_plugins=False))
    theirs = tmp_path / "theirs.db"
    build_module.build(theirs)
    mine, reference = contents(ours), contents(theirs)
    assert sorted(mine) == sorted(reference)
    assert [key for key in reference if mine[key] != reference[key]] == []


@pytest.mark.slow
def test_a_build_does_not_import_sqlite_utils():
    code = (
        "import sys, tempfile, pathlib; from ingest.build.database import build; "
        "build(pathlib.Path(tempfile.mkdtemp()) / 'laws.db'); print('sqlite_utils' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert result.stdout.strip() == "False"


def test_create_table_sql_is_sqlite_utils_text_for_text(tmp_path):
    reference = sqlite_utils.Database(tmp_path / "reference.db")
    reference["documents"].create({"id": str}, pk="id")
    reference["sections"].create({"id": str}, pk="id")
    cases = [
        ("plain", {"a": str, "b": int, "c": float, "d": bytes}, None, None, None),
        ("keyed", {"id": str, "doc": str, "n": int}, "id", [("doc", "documents", "id")], {"doc"}),
        ("compound", {"doc": str, "law": int, "x": str}, ("doc", "law"), [("doc", "documents", "id")], None),
        ("added pk", {"doc": str}, "id", None, None),
    ]
    for name, columns, pk, fks, not_null in cases:
        assert create_table_sql(name, columns, pk, fks, not_null) == reference.create_table_sql(
            name, columns, pk=pk, foreign_keys=fks, not_null=not_null
        ), name


def test_other_calls_go_to_sqlite_utils_on_the_same_connection(tmp_path):
    db = Database(tmp_path / "x.db")
    db["t"].create({"id": int, "name": str}, pk="id")
    db["t"].insert_all([{"id": 1, "name": "a", "tags": ["x"]}], pk="id", alter=True)  # a new column: sqlite-utils
    assert db["t"].columns_dict == {"id": int, "name": str, "tags": str}  # an attribute this module lacks
    assert db.table_names() == ["t"]
    db.close()
    assert sqlite3.connect(tmp_path / "x.db").execute("select * from t").fetchall() == [(1, "a", '["x"]')]


def test_children_writing_their_own_files_give_the_same_database(tmp_path):
    """The build's forked children write their tables into scratch files the parent copies from; a
    build without children (no fork: every row inserted by one process) is the same database. Each
    build runs in a fresh process: a test process may run threads, and then nothing forks."""
    code = (
        "import sys; from ingest.build import background_tokens, database as build; "
        "sys.argv[2] == 'alone' and setattr(background_tokens, 'can_fork', lambda: False); "
        "forks = []; fork = background_tokens.os.fork; "
        "background_tokens.os.fork = lambda: forks.append(1) or fork(); "
        "build.build(sys.argv[1]); print(len(forks))"
    )
    forks = {}
    for how in ("forked", "alone"):
        result = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path / f"{how}.db"), how],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        forks[how] = int(result.stdout.split()[-1])
    assert forks == {"forked": 4, "alone": 0}  # the later documents' parse, tokens, editions and diffs, search tables
    mine, reference = contents(tmp_path / "forked.db"), contents(tmp_path / "alone.db")
    assert sorted(mine) == sorted(reference)
    assert [key for key in reference if mine[key] != reference[key]] == []


@pytest.mark.parametrize(
    "value",
    [
        {"label": "第61条B項2(a)", "full_label": "ブリッジ規則: 第61条", "nested": [None, True, False, 1, -2.5, 1e-07]},
        '引用符"と\\改行\n',
        12,
        3.0,
        float("inf"),
        [],
        {},
        [{"a": {"b": ["ü", "\u2028"]}}],
        {1: "int key"},
    ],
)
def test_json_text_is_what_json_dumps_writes(value):
    assert sqlite_write.json_text(value) == json.dumps(value, ensure_ascii=False)


def test_json_text_refuses_what_json_cannot_write():
    with pytest.raises(TypeError, match="not JSON serializable"):
        sqlite_write.json_text({"when": object()})


def test_values_of_rows_are_those_asked_one_by_one():
    from ingest.build.sqlite_write import as_value, values_of

    names = ["a", "b", "c"]
    for rows in (
        [{"a": 1, "b": "x", "c": None}, {"a": 2, "b": "y", "c": 3.5}],  # every row has every name
        [{"a": 1, "b": {"k": "値"}, "c": [1, 2]}, {"a": 2, "b": "y", "c": (3,)}],  # JSON values
        [{"a": 1}, {"a": 2, "b": "y", "c": 3}],
    ):  # a row lacks some
        assert [list(row) for row in values_of(rows, names)] == [[as_value(row.get(n)) for n in names] for row in rows]
    assert values_of([{"a": [1]}], ["a"]) == [["[1]"]]
