"""Are two builds the same database? Every schema entry (`sqlite_master` text, in the same order)
and every table's rows with their rowids (FTS5 shadow tables row for row), build_info's per-build
values left out.

    .venv/bin/python -m benchmarks.same_db main.db laws.db     # exit status 0 when identical
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

PER_BUILD = ("build_id", "built_at")  # build_info rows that differ on every build by design


def contents(path: Path | str) -> dict:
    """(type, name) -> schema text, ("rows", table) -> its rows with rowids (shadow tables without)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    found = {
        ("schema", "in order"): conn.execute(  # every entry but rootpage (where its pages start)
            "select type, name, tbl_name, sql from sqlite_master order by rowid"
        ).fetchall()
    }
    for kind, name, sql in conn.execute("select type, name, sql from sqlite_master order by type, name"):
        found[(kind, name)] = sql
        if kind == "table":
            shadow = name.endswith(("_config", "_data", "_idx", "_docsize", "_content"))
            rows = conn.execute(f'select * from "{name}"' if shadow else f'select rowid, * from "{name}"').fetchall()
            found[("rows", name)] = [row for row in rows if name != "build_info" or row[1] not in PER_BUILD]
    conn.close()
    return found


def differences(one: Path | str, other: Path | str) -> list:
    a, b = contents(one), contents(other)
    return sorted(set(a) ^ set(b)) + [key for key in a if key in b and a[key] != b[key]]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        raise SystemExit(__doc__)
    found = differences(*argv)
    print("identical" if not found else f"DIFFERENT: {found}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
