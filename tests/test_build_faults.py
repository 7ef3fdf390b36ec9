"""Issue 38 item 6: every file of the corpus, damaged, stops the build in one line naming the file and
the line, exit 2, the previous database as it was and no staging directory left.

Was: a YAML file or a ruling guide that is not UTF-8 was named without its line, and a cosine of
`nan` in corpus/neighbours.tsv was built into the database. Kinds of damage file by file (hostile
YAML, wrong shapes, synonyms.csv) are tests/test_build.py's.
"""

from __future__ import annotations

import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.parsers.records import ParseError
from laws_site.cli import cli
from tests.test_build import CORPUS, copy_corpus, error_line

GARBLED = b"\xff\xfe garbled\n"
EVERY_FILE = sorted(
    path.relative_to(CORPUS).as_posix() for path in CORPUS.rglob("*") if path.is_file() and path.name != "README.md"
)


def lines_of(path: Path) -> int:
    return path.read_bytes().count(b"\n")


@pytest.mark.parametrize("name", ["witnesses.yml", "zh_variants.yml", "guides/revoke.yml"])
def test_a_yaml_file_that_is_not_utf8_is_named_with_its_line(tmp_path, name):
    from ingest.sources.corpus import read_yaml
    from ingest.sources.guides import load_guide

    path = tmp_path / Path(name).name
    path.write_bytes((CORPUS / name).read_bytes() + GARBLED)
    with pytest.raises(ParseError) as raised:
        (load_guide if name.startswith("guides/") else read_yaml)(path)
    assert raised.value.line == lines_of(CORPUS / name) + 1 and "not UTF-8 (byte 0xff)" in str(raised.value)


@pytest.mark.parametrize("cosine", ["nan", "inf", "-inf", "1.5", "-2"])
def test_a_cosine_that_is_no_cosine_is_a_parse_error_naming_its_line(tmp_path, cosine):
    from ingest.search.neighbours import read_neighbours

    path = tmp_path / "neighbours.tsv"
    path.write_text("躊躇い\t躊躇\t1.0\n落とす\t見せる\t" + cosine + "\n", encoding="utf-8")
    with pytest.raises(ParseError) as raised:
        read_neighbours(path)
    assert raised.value.line == 2 and "cosine` (-1 to 1)" in str(raised.value)


@pytest.mark.slow
@pytest.mark.parametrize("name", EVERY_FILE)
def test_every_corpus_file_garbled_stops_the_build_in_one_line_naming_file_and_line(laws_db_path, tmp_path, name):
    corpus = copy_corpus(tmp_path)
    (corpus / name).write_bytes((CORPUS / name).read_bytes() + GARBLED)
    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    before = db.read_bytes()
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus), "--no-offline"])
    line = error_line(result)
    where = f"{corpus / name}:{lines_of(CORPUS / name) + 1}: not UTF-8 (byte 0xff)"
    assert f"left unchanged: {where}" in line, line
    assert db.read_bytes() == before
    assert not list(tmp_path.glob(".laws.db.*.tmp"))


@pytest.mark.slow
def test_a_nan_cosine_in_neighbours_stops_the_build_in_one_line(laws_db_path, tmp_path):
    corpus = copy_corpus(tmp_path)
    (corpus / "neighbours.tsv").write_bytes((CORPUS / "neighbours.tsv").read_bytes() + "語\t語二\tnan\n".encode())
    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    before = db.read_bytes()
    line = error_line(CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus), "--no-offline"]))
    assert f"left unchanged: {corpus / 'neighbours.tsv'}:{lines_of(CORPUS / 'neighbours.tsv') + 1}:" in line, line
    assert db.read_bytes() == before


def at_most_4_mb_per_file():
    """In the child: a write past 4 MB fails (EFBIG) as on a full disk, with no signal ending the build."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4 << 20, 4 << 20))


@pytest.mark.slow
def test_a_write_that_fails_midway_leaves_the_previous_database_and_no_temporary_file(laws_db_path, tmp_path):
    """A real write fault, not a mock: the kernel refuses the staging database's growth past 4 MB
    (RLIMIT_FSIZE, what a nearly full disk does to the build without needing a small filesystem)."""
    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    before = db.read_bytes()
    argv = [sys.executable, "-m", "laws_site.cli", "build", "--db", str(db), "--no-offline"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=600, preexec_fn=at_most_4_mb_per_file)
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert errors == [f"Error: build failed, {db} left unchanged: SQLite: disk I/O error"], result.stderr[-2000:]
    assert db.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == [".laws.db.lock", "laws.db"]


def build_process(db: Path) -> subprocess.Popen:
    argv = [sys.executable, "-m", "laws_site.cli", "build", "--db", str(db), "--no-offline"]
    return subprocess.Popen(argv, cwd=CORPUS.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def staging_of(db: Path, timeout: float = 120) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = list(db.parent.glob(f".{db.name}.*.tmp"))
        if found:
            return found[0]
        time.sleep(0.01)
    raise AssertionError(f"no staging directory beside {db} within {timeout} s")


@pytest.mark.slow
def test_a_live_builds_staging_is_left_to_it_by_a_second_build_and_a_dead_ones_is_removed(tmp_path):
    """Two real `bridge-laws build` at once: the second waits on the lock and never removes the
    first's staging directory while the first runs; both publish. Then a build killed with SIGKILL
    leaves its staging, and the next build removes it (the lock is free: nobody owns it)."""
    db = tmp_path / "laws.db"
    first = build_process(db)
    live = staging_of(db)
    second = build_process(db)
    while first.poll() is None and not db.exists():  # until the first publishes (then it removes its own)
        assert live.exists() or db.exists(), "a second build removed a live build's staging"
        time.sleep(0.01)
    assert first.wait(300) == 0 and second.wait(300) == 0, (first.stderr.read(), second.stderr.read())
    assert sorted(path.name for path in tmp_path.iterdir()) == [".laws.db.lock", "laws.db"]

    killed = build_process(db)
    dead = staging_of(db)
    killed.kill()
    killed.wait(30)
    assert dead.exists()
    assert build_process(db).wait(300) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == [".laws.db.lock", "laws.db"]
