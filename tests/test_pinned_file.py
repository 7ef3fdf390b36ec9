"""The file the server started with is the file it serves (laws_site/sql/pinned_file.py): a file renamed
over laws.db afterwards is read by no SQL thread, however many there are and whichever reads first."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import time

import yaml
from datasette.app import Datasette

from tests.conftest import METADATA


def test_a_file_renamed_over_the_database_after_start_is_not_read(laws_db_path, tmp_path):
    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    ds = Datasette(
        immutables=[str(db)],
        metadata=yaml.safe_load(METADATA.read_text(encoding="utf-8")),
        settings={"num_sql_threads": 4},
    )

    async def every_thread_counts_units() -> list[int]:
        await ds.invoke_startup()
        foreign = tmp_path / "foreign.db"
        other = sqlite3.connect(foreign)
        other.execute("create table t (x)")
        other.commit()
        other.close()
        foreign.replace(db)

        def count(conn) -> int:
            time.sleep(0.05)  # held, so that the reads below go to every thread
            return conn.execute("select count(*) from sections").fetchone()[0]

        return await asyncio.gather(*(ds.get_database("laws").execute_fn(count) for _ in range(12)))

    counts = asyncio.run(every_thread_counts_units())
    with sqlite3.connect(laws_db_path) as conn:
        units = conn.execute("select count(*) from sections").fetchone()[0]
    assert counts == [units] * 12
