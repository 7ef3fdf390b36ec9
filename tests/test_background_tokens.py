"""Most of the build's tokenizing in a forked child: same tokens as one process, and a safe fallback."""

from __future__ import annotations

import os
import threading
import time

import pytest

from ingest.build import background_tokens
from ingest.build.background_tokens import BackgroundTokens
from ingest.text.tokenize import index_tokens_and_offsets as index_tokens

KEYS = {
    ("リボークが成立したとき：", "ja"),
    ("反則したプレイヤー*19がリボークの起きたトリックを取った場合", "ja"),
    ("赛员虽能跟牌或可履行引牌判罚,却打出另外花色的牌张,即为藏牌。", "zh"),
    (None, "ja"),
    ("", "zh"),
}


def test_forked_child_gives_the_same_tokens_as_one_process():
    parallel = BackgroundTokens(KEYS, parallel=True)
    assert parallel.child is not None and parallel.child.sent  # the work really was split
    pids = [parallel.child.pid]
    assert parallel.result() == {key: index_tokens(*key) for key in KEYS}
    assert parallel.child is None  # the child is gone, and reaped
    for pid in pids:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_keys_added_in_batches_are_each_tokenized_once():
    """The build adds each document's texts as it is parsed; a text seen before is not sent again."""
    batches = [sorted(KEYS, key=str)[:3], sorted(KEYS, key=str)[1:]]
    tokens = BackgroundTokens(parallel=True)
    for batch in batches:
        tokens.add(batch)
    child = tokens.child
    sent = list(tokens.own_keys) + list(child.sent)
    assert sorted(sent, key=str) == sorted(KEYS, key=str)  # every key once, none twice, one child for both
    assert tokens.result() == {key: index_tokens(*key) for key in KEYS}


def test_no_fork_while_other_threads_run(monkeypatch):
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        assert background_tokens.can_fork() is False
        tokens = BackgroundTokens(KEYS)
        assert tokens.child is None and tokens.own_keys
        assert tokens.result() == {key: index_tokens(*key) for key in KEYS}
    finally:
        stop.set()
        worker.join()


def square_sum(numbers):
    return sum(n * n for n in numbers)


def fail_in_child(marker):
    if os.getpid() != marker:
        os._exit(3)  # the child dies without an answer
    return "made by the parent"


def test_forked_gives_the_childs_answer_and_reaps_it():
    job = background_tokens.Forked(square_sum, range(1000), parallel=True)
    assert job.pid is not None and job.pid != os.getpid()
    assert job.result() == 332833500 and job.pid is None


def test_a_child_that_dies_is_not_trusted_the_parent_does_the_work():
    job = background_tokens.Forked(fail_in_child, os.getpid(), parallel=True)
    assert job.result() == "made by the parent"


def test_closing_a_running_child_kills_and_reaps_it():
    job = background_tokens.Forked(__import__("time").sleep, 60, parallel=True)
    pid = job.pid
    job.close()
    assert job.pid is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_a_token_child_that_dies_is_replaced_by_the_parent():
    tokens = BackgroundTokens(KEYS, parallel=True)
    os.kill(tokens.child.pid, 9)
    tokens.add([("反則したプレイヤーがトリックを取った", "ja")])  # sending to a dead child is no error
    expected = {key: index_tokens(*key) for key in [*KEYS, ("反則したプレイヤーがトリックを取った", "ja")]}
    assert tokens.result() == expected


def two_tables(marker):
    """(tables, extra) as ForkedTables expects; the child dies when marker is not its pid."""
    if marker is not None and os.getpid() != marker:
        os._exit(3)
    return {"t": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "u": [{"n": 7}]}, {"rows": 3}


def write_two_tables(path, tables):
    import sqlite3

    conn = sqlite3.connect(path)
    with conn:
        if "t" in tables:
            conn.execute("create table t (id integer, name text)")
            conn.executemany("insert into t values (:id, :name)", tables["t"])
        if "u" in tables:
            conn.execute("create table u (n integer)")
            conn.executemany("insert into u values (:n)", tables["u"])
        if "early" in tables:  # ForkedTablesAwaiting's tables made before the input comes
            conn.execute("create table early (pid integer)")
            conn.executemany("insert into early values (:pid)", tables["early"])
    conn.close()


def test_forked_tables_are_written_by_the_child_into_its_own_file(tmp_path):
    import sqlite3

    path = str(tmp_path / "child.db")
    job = background_tokens.ForkedTables(two_tables, write_two_tables, path, None, parallel=True)
    assert job.pid is not None
    written, extra = job.result()
    assert (written, extra) == (path, {"rows": 3}) and job.pid is None
    conn = sqlite3.connect(path)
    assert conn.execute("select rowid, * from t").fetchall() == [(1, 1, "a"), (2, 2, "b")]
    assert conn.execute("select * from u").fetchall() == [(7,)]


def test_forked_tables_of_a_child_that_dies_are_made_by_the_parent(tmp_path):
    job = background_tokens.ForkedTables(
        two_tables, write_two_tables, str(tmp_path / "child.db"), os.getpid(), parallel=True
    )
    assert job.result() == two_tables(os.getpid())  # the rows themselves: nothing to trust in the file


def test_forked_tables_without_a_fork_are_made_here(tmp_path):
    path = tmp_path / "child.db"
    job = background_tokens.ForkedTables(two_tables, write_two_tables, str(path), None, parallel=False)
    assert job.pid is None
    assert job.result() == two_tables(None) and not path.exists()


def tables_of_a_later_input(marker):
    """ForkedTablesAwaiting's fn: a table of the child's pid now (the work before the input), then the
    tables of the input."""
    before = os.getpid()

    def finish(late):
        if marker is not None and os.getpid() != marker:
            os._exit(3)
        return {"t": [{"id": n, "name": name} for n, name in enumerate(late, start=1)], "u": [{"n": before}]}, {
            "rows": len(late)
        }

    return {"early": [{"pid": before}]}, finish


def tables_in(path) -> list[str]:
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        return [name for (name,) in conn.execute("select name from sqlite_master where type = 'table' order by name")]
    finally:
        conn.close()


def test_forked_tables_awaiting_an_input_get_it_after_the_fork(tmp_path):
    import sqlite3

    path = str(tmp_path / "child.db")
    job = background_tokens.ForkedTablesAwaiting(tables_of_a_later_input, write_two_tables, path, None, parallel=True)
    assert job.pid is not None and job.pid != os.getpid()
    child = job.pid
    late = ["x" * 300_000, "y"]  # more than a pipe holds: the input goes through a file
    job.supply(late)
    assert job.result() == (path, {"rows": 2})
    conn = sqlite3.connect(path)
    assert conn.execute("select id, length(name) from t").fetchall() == [(1, 300_000), (2, 1)]
    assert conn.execute("select n from u").fetchall() == [(child,)]  # its first step ran in the child
    assert conn.execute("select pid from early").fetchall() == [(child,)]


def test_forked_tables_awaiting_an_input_write_what_they_made_before_it_comes(tmp_path):
    """The tables made before the input are in the child's file while it still waits for the input
    (what the build copies at its end is then less)."""
    path = str(tmp_path / "child.db")
    job = background_tokens.ForkedTablesAwaiting(tables_of_a_later_input, write_two_tables, path, None, parallel=True)
    try:
        deadline = time.monotonic() + 20
        while not (os.path.exists(path) and tables_in(path) == ["early"]):
            assert time.monotonic() < deadline, "the tables made before the input were not written"
            time.sleep(0.01)
        job.supply(["a"])
        assert job.result() == (path, {"rows": 1})
        assert tables_in(path) == ["early", "t", "u"]
    finally:
        job.close()


def test_an_input_supplied_in_pickled_parts_is_their_dicts_merged(tmp_path):
    import pickle

    def keys_of(marker):
        return {}, lambda late: (
            {"t": [{"id": n, "name": f"{k}={v}"} for n, (k, v) in enumerate(late.items(), 1)], "u": [{"n": len(late)}]},
            {"rows": len(late)},
        )

    parts = [pickle.dumps({"a": 1, "b": 2}), pickle.dumps({"b": 3, "c": 4})]
    for parallel in (True, False):
        path = str(tmp_path / f"child-{parallel}.db")
        job = background_tokens.ForkedTablesAwaiting(keys_of, write_two_tables, path, None, parallel=parallel)
        job.supply_pickled(parts)
        written, extra = job.result()
        assert extra == {"rows": 3}
        if parallel:
            import sqlite3

            written = {"t": [{"id": n, "name": name} for n, name in sqlite3.connect(path).execute("select * from t")]}
        assert [row["name"] for row in written["t"]] == ["a=1", "b=3", "c=4"]


def test_the_tokens_pickled_are_the_tokens():
    import pickle

    keys = [("第1条 カードの配り方", "ja"), ("第二条", "zh"), ("プレーヤー", "ja")]
    tokens = background_tokens.BackgroundTokens(keys, parallel=True)
    parts = tokens.pickled()
    merged = {}
    for part in parts:
        merged.update(pickle.loads(part))
    assert len(parts) == 2 and merged == tokens.result() == background_tokens.tokenize_all(keys)


def test_forked_tables_awaiting_an_input_of_a_child_that_dies_are_made_by_the_parent(tmp_path):
    job = background_tokens.ForkedTablesAwaiting(
        tables_of_a_later_input, write_two_tables, str(tmp_path / "child.db"), os.getpid(), parallel=True
    )
    job.supply(["a"])
    tables, extra = job.result()
    assert (tables["t"], extra) == ([{"id": 1, "name": "a"}], {"rows": 1})


def test_forked_tables_awaiting_an_input_without_a_fork_are_made_here(tmp_path):
    path = tmp_path / "child.db"
    job = background_tokens.ForkedTablesAwaiting(
        tables_of_a_later_input, write_two_tables, str(path), None, parallel=False
    )
    with pytest.raises(RuntimeError):
        job.result()  # no input supplied yet
    job.supply(["a", "b"])
    assert job.result()[1] == {"rows": 2} and not path.exists()


def test_forked_tables_awaiting_an_input_stop_their_child_on_close(tmp_path):
    job = background_tokens.ForkedTablesAwaiting(
        tables_of_a_later_input, write_two_tables, str(tmp_path / "child.db"), None, parallel=True
    )
    pid = job.pid
    job.close()  # the build failed before the input was ready
    assert job.pid is None and job.ready is None
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # reaped


def test_a_forked_job_says_when_it_has_answered():
    job = background_tokens.Forked(sum, [1, 2], parallel=True)
    deadline = time.monotonic() + 20
    while not job.done():  # the build copies a child's tables early only once it is done
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert job.result() == 3 and job.done()
    assert background_tokens.Forked(sum, [1], parallel=False).done()  # no child: done at once


def test_background_tokens_say_when_their_child_has_answered():
    tokens = background_tokens.BackgroundTokens([("第1条", "ja")], parallel=True)
    assert tokens.child is not None
    tokens.tokenize_own()
    assert not tokens.child_done()  # it answers once told that the last key was sent
    assert tokens.result() == background_tokens.tokenize_all([("第1条", "ja")])
    assert tokens.child_done()
