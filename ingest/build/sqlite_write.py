"""The sqlite-utils calls the build makes, issued directly on sqlite3.

Importing sqlite-utils (with pluggy and dateutil) costs a build ~0.07 s of CPU, a tenth of its
whole time, for a handful of CREATE and INSERT statements. These classes write the same SQL,
character for character (sqlite-utils 4's `create_table_sql`, `create_index`, `enable_fts`,
`insert_all` type detection; tests/test_sqlite_write.py compares them with sqlite-utils itself).
Any other call, or an option not handled here, goes to sqlite-utils on the same connection,
imported then: code added to the build may use the rest of its API as before.
"""

from __future__ import annotations

import json
import sqlite3
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Iterable

# sqlite-utils' COLUMN_TYPE_MAPPING for the Python types a build writes
TYPES = {
    str: "TEXT",
    int: "INTEGER",
    float: "REAL",
    bool: "INTEGER",
    bytes: "BLOB",
    dict: "TEXT",
    list: "TEXT",
    tuple: "TEXT",
    type(None): "TEXT",
}
MAX_VARS = 999  # sqlite-utils' SQLITE_MAX_VARS: an insert batch holds at most this many values
BATCH_SIZE = 100  # sqlite-utils' default batch size: column types come from the first batch


def quote(identifier: str) -> str:
    return '"{}"'.format(identifier.replace('"', '""'))


class Database:
    def __init__(self, path: Path | str):
        self.conn = sqlite3.connect(str(path))
        self._utils = None

    def __getitem__(self, name: str) -> "Table":
        return Table(self, name)

    def sqlite_utils(self):
        """sqlite-utils on this connection, for whatever this module does not do itself."""
        if self._utils is None:
            import sqlite_utils

            self._utils = sqlite_utils.Database(self.conn, execute_plugins=False)
        return self._utils

    def __getattr__(self, name: str):
        return getattr(self.sqlite_utils(), name)

    def close(self) -> None:
        if self.conn.in_transaction:
            self.conn.commit()
        self.conn.close()


class Table:
    def __init__(self, db: Database, name: str):
        self.db, self.name = db, name

    def __getattr__(self, name: str):
        return getattr(self.db.sqlite_utils()[self.name], name)

    def exists(self) -> bool:
        return (
            self.db.conn.execute(
                "select 1 from sqlite_master where type = 'table' and name = ?", [self.name]
            ).fetchone()
            is not None
        )

    @property
    def count(self) -> int:
        return self.db.conn.execute(f"select count(*) from {quote(self.name)}").fetchone()[0]

    def create(self, columns: dict[str, Any], pk=None, foreign_keys=None, not_null=None, **options) -> "Table":
        sql = create_table_sql(self.name, columns, pk, foreign_keys, not_null) if not options else None
        if sql is None:
            self.db.sqlite_utils()[self.name].create(
                columns, pk=pk, foreign_keys=foreign_keys, not_null=not_null, **options
            )
        else:
            self.db.conn.execute(sql)
        return self

    def create_index(self, columns: list[str], unique: bool = False, **options) -> "Table":
        if options or not all(isinstance(c, str) for c in columns):
            self.db.sqlite_utils()[self.name].create_index(columns, unique=unique, **options)
            return self
        name = "idx_{}_{}".format(self.name.replace(" ", "_"), "_".join(columns))
        self.db.conn.execute(
            f"CREATE {'UNIQUE ' if unique else ''}INDEX {quote(name)}\n"
            f"    ON {quote(self.name)} ({', '.join(map(quote, columns))});"
        )
        return self

    def enable_fts(
        self, columns: list[str], tokenize: str | None = None, create_triggers: bool = False, **options
    ) -> "Table":
        if options or create_triggers:
            self.db.sqlite_utils()[self.name].enable_fts(
                columns, tokenize=tokenize, create_triggers=create_triggers, **options
            )
            return self
        fts, listed = quote(self.name + "_fts"), ", ".join(map(quote, columns))
        tokenizer = (
            "\n    tokenize=" + self.db.conn.execute("select quote(?)", [tokenize]).fetchone()[0] + ","
            if tokenize
            else ""
        )
        self.db.conn.execute(
            f"CREATE VIRTUAL TABLE {fts} USING FTS5 (\n    {listed},{tokenizer}\n    content={quote(self.name)}\n)"
        )
        self.db.conn.execute(
            f"INSERT INTO {fts} (rowid, {listed})\n    SELECT rowid, {listed} FROM {quote(self.name)};"
        )
        return self

    def insert_all(
        self, records: Iterable[dict], pk=None, foreign_keys=None, alter: bool = False, **options
    ) -> "Table":
        """Rows into this table, made from the first batch's column types if it does not exist. Rows
        whose columns the table lacks (sqlite-utils adds them with `alter`) go to sqlite-utils."""
        rows = list(records)
        if not rows:
            return self
        first = rows[: max(1, min(BATCH_SIZE, MAX_VARS // max(1, len(rows[0]))))]
        columns = column_types(first) if not self.exists() else None
        if options or (columns is not None and pk is not None and not isinstance(pk, str)):
            self.db.sqlite_utils()[self.name].insert_all(rows, pk=pk, foreign_keys=foreign_keys, alter=alter, **options)
            return self
        if columns is not None:
            sql = create_table_sql(self.name, columns, pk, foreign_keys, None)
            if sql is None:
                self.db.sqlite_utils()[self.name].insert_all(rows, pk=pk, foreign_keys=foreign_keys, alter=alter)
                return self
            self.db.conn.execute(sql)
        existing = [row[1] for row in self.db.conn.execute(f"pragma table_info({quote(self.name)})")]
        known = set(existing)
        if any(key not in known for row in rows for key in row):
            self.db.sqlite_utils()[self.name].insert_all(rows, pk=pk, foreign_keys=foreign_keys, alter=alter)
            return self
        names = [name for name in existing if any(name in row for row in rows)]
        self.db.conn.executemany(
            f"INSERT INTO {quote(self.name)} ({', '.join(map(quote, names))}) VALUES ({', '.join('?' for _ in names)})",
            values_of(rows, names),
        )
        return self


def values_of(rows: list[dict], names: list[str]) -> list:
    """Each row's values in the order of names (None where it lacks one), `as_value` of each: read
    with one itemgetter per row when every row has every name, and `as_value` asked only when some
    value is a list or mapping (the regulations' tables: a third of the time of asking each value)."""
    if len(names) > 1:
        try:
            values = list(map(itemgetter(*names), rows))
        except KeyError:
            values = None
        if values is not None:
            if any(isinstance(value, (dict, list, tuple)) for row in values for value in row):
                return [[as_value(value) for value in row] for row in values]
            return values
    return [[as_value(row.get(name)) for name in names] for row in rows]


def _json_text_function() -> Callable[[Any], str]:
    """A value as the JSON text a column stores: json.dumps(value, ensure_ascii=False). The json
    module's C encoder is made once here: JSONEncoder.encode makes a new one on every call, ~40 %
    of encoding one of the build's small rows (~14,000 of them). No check for circular references:
    the build's values are made from text and YAML, never cyclic."""
    encoder = json.JSONEncoder(ensure_ascii=False)
    if json.encoder.c_make_encoder is None:  # no C accelerator: the library's own way
        return encoder.encode
    encode = json.encoder.c_make_encoder(
        None,
        encoder.default,
        json.encoder.encode_basestring,
        None,
        encoder.key_separator,
        encoder.item_separator,
        False,
        False,
        True,
    )
    return lambda value: "".join(encode(value, 0))


json_text = _json_text_function()


def as_value(value):
    """sqlite-utils' jsonify_if_needed for the values a build writes."""
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, default=repr, ensure_ascii=False)
    return value


def column_types(rows: list[dict]) -> dict[str, type]:
    """sqlite-utils' suggest_column_types: one Python type per column, in first-seen order."""
    seen: dict[str, set[type]] = {}
    for row in rows:
        for key, value in row.items():
            seen.setdefault(key, set()).add(type(value))
    types = {}
    for key, kinds in seen.items():
        if len(kinds) > 1:
            kinds.discard(type(None))
        if kinds == {type(None)}:
            kind = str
        elif len(kinds) == 1:
            kind = next(iter(kinds))
            kind = str if issubclass(kind, (list, tuple, dict)) else kind
        elif {int, bool}.issuperset(kinds):
            kind = int
        elif {int, float, bool}.issuperset(kinds):
            kind = float
        elif {bytes, str}.issuperset(kinds):
            kind = bytes
        else:
            kind = str
        types[key] = kind
    return types


def create_table_sql(name: str, columns: dict[str, Any], pk=None, foreign_keys=None, not_null=None) -> str | None:
    """sqlite-utils' CREATE TABLE for these options, or None for anything it would do that this
    does not (types outside TYPES, foreign keys not written (column, table, column), compound ones)."""
    items = list(columns.items())
    if any(kind not in TYPES for _, kind in items):
        return None
    references = {}
    for fk in foreign_keys or []:
        if not (isinstance(fk, (tuple, list)) and len(fk) == 3 and all(isinstance(part, str) for part in fk)):
            return None
        references[fk[0]] = fk
    if isinstance(pk, (list, tuple)) and len(pk) == 1 and isinstance(pk[0], str):
        pk = pk[0]
    single_pk = pk if isinstance(pk, str) else None
    if single_pk is not None and single_pk not in columns:
        items.insert(0, (single_pk, int))
    not_null = set(not_null or ())
    definitions = []
    for column, kind in items:
        extras = (["PRIMARY KEY"] if column == single_pk else []) + (["NOT NULL"] if column in not_null else [])
        if column in references:
            extras.append(f"REFERENCES {quote(references[column][1])}({quote(references[column][2])})")
        definitions.append(f"   {quote(column)} {TYPES[kind]}" + (" " + " ".join(extras) if extras else ""))
    compound = (
        ",\n   PRIMARY KEY ({})".format(", ".join(map(quote, pk))) if single_pk is None and pk and len(pk) > 1 else ""
    )
    return "CREATE TABLE {} (\n{}{}\n);\n        ".format(quote(name), ",\n".join(definitions), compound)


def replace_derived_table(conn: sqlite3.Connection, name: str, schema: str, rows: list[tuple]) -> None:
    """(Re)create a table made from the database being built (its schema, then its rows, one transaction)."""
    with conn:
        conn.execute(f"drop table if exists {quote(name)}")
        conn.execute(schema)
        if rows:
            conn.executemany(f"insert into {quote(name)} values ({', '.join('?' * len(rows[0]))})", rows)
