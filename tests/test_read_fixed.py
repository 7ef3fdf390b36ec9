"""What every page's chrome reads (the documents, their short titles) is read once per served
immutable database, not per page (http/responses.read_fixed); a mutable database is read each time."""

from __future__ import annotations

import asyncio
import sqlite3

from datasette.app import Datasette

from laws_site.http.responses import read_fixed


def counted(calls: list):
    def titles(conn):
        calls.append(1)
        return [row[0] for row in conn.execute("select id from documents order by rowid")]

    return titles


def test_a_fixed_read_of_the_served_immutable_database_runs_once(datasette):
    calls: list = []

    async def twice():
        first = await read_fixed(datasette, ("test", "titles"), counted(calls))
        return first, await read_fixed(datasette, ("test", "titles"), counted(calls))

    first, second = asyncio.run(twice())
    assert first == second and "laws-2017-ja" in first
    assert len(calls) == 1


def test_a_mutable_database_is_read_each_time(laws_db_path, tmp_path):
    copy = tmp_path / "laws.db"
    with sqlite3.connect(laws_db_path) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    mutable = Datasette([str(copy)])
    calls: list = []

    async def twice():
        await mutable.invoke_startup()
        for _ in range(2):
            await read_fixed(mutable, ("test", "titles"), counted(calls))

    asyncio.run(twice())
    assert len(calls) == 2
