"""The benchmarks' commands say what is wrong with their arguments before they run any query."""

from __future__ import annotations

import time

import pytest

from benchmarks import relevance, situations


@pytest.mark.parametrize("command", [situations.main, relevance.main], ids=["situations", "relevance"])
def test_a_missing_against_file_is_named_before_any_query_runs(command, tmp_path, capsys, laws_db_path):
    missing = tmp_path / "ranks-never-written.json"
    started = time.perf_counter()
    with pytest.raises(SystemExit) as stopped:
        command(["--db", str(laws_db_path), "--against", str(missing)])
    assert stopped.value.code == 2
    assert f"--against {missing}: no such file" in capsys.readouterr().err
    assert time.perf_counter() - started < 1  # refused at once, not after every query ran
