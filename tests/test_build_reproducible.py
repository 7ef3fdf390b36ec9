"""The same corpus gives the same bytes wherever it lies: a git checkout, a fresh clone and a
`git archive` of one commit are built at that commit's time (ingest/build/identity.py), not at
when their files were written to disk, so their databases, build ids and packs are the same."""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from ingest.build.identity import built_at, read_build_id
from laws_site.cli import cli

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
COMMITTED = 1_700_000_000  # the commit's time in these repositories: 2023-11-14T22:13:20+00:00
LATER = 1_800_000_000


def iso(seconds: int) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")


def git(repo: Path, *args: str) -> str:
    dated = {"GIT_AUTHOR_DATE": f"{COMMITTED} +0000", "GIT_COMMITTER_DATE": f"{COMMITTED} +0000"}
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=test", "-c", "user.email=test@example.org", *args],
        env={**os.environ, **dated},
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def committed_corpus(repo: Path, fill) -> Path:
    """``fill(corpus dir)``, committed at COMMITTED in a new repository; every file's modification time
    then LATER, as a checkout made after the commit has them."""
    corpus = repo / "corpus"
    fill(corpus)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "corpus")
    for path in corpus.rglob("*"):
        os.utime(path, (LATER, LATER))
    return corpus


def archived(repo: Path, target: Path) -> Path:
    """`git archive HEAD` unpacked into ``target`` (every file dated the commit's time); its corpus."""
    tar = target.with_suffix(".tar")
    git(repo, "archive", "--format=tar", "-o", str(tar), "HEAD")
    with tarfile.open(tar) as archive:
        archive.extractall(target, filter="tar")
    return target / "corpus"


def small_corpus(corpus: Path) -> None:
    corpus.mkdir(parents=True)
    (corpus / "sources.yml").write_text("documents: []\n", encoding="utf-8")
    (corpus / "laws.txt").write_text("第1条\n", encoding="utf-8")


@pytest.fixture
def no_source_date(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


def test_a_checkout_and_an_archive_of_one_commit_are_built_at_the_commits_time(tmp_path, no_source_date):
    corpus = committed_corpus(tmp_path / "repo", small_corpus)
    assert built_at(corpus) == iso(COMMITTED)  # not the checkout's files' time
    assert built_at(archived(tmp_path / "repo", tmp_path / "archive")) == iso(COMMITTED)


@pytest.mark.parametrize(
    "change",
    [
        lambda corpus: (corpus / "laws.txt").write_text("第2条\n", encoding="utf-8"),
        lambda corpus: (corpus / "new.yml").write_text("x: 1\n", encoding="utf-8"),
    ],
    ids=["a file edited", "a file added"],
)
def test_a_corpus_changed_since_its_commit_is_built_at_its_newest_file(tmp_path, no_source_date, change):
    corpus = committed_corpus(tmp_path / "repo", small_corpus)
    change(corpus)
    newest = LATER + 60
    os.utime(corpus / "laws.txt", (newest, newest))
    assert built_at(corpus) == iso(newest)


def test_outside_git_and_with_source_date_epoch_as_before(tmp_path, monkeypatch):
    small_corpus(tmp_path / "corpus")
    os.utime(tmp_path / "corpus" / "laws.txt", (LATER, LATER))
    os.utime(tmp_path / "corpus" / "sources.yml", (COMMITTED, COMMITTED))
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    assert built_at(tmp_path / "corpus") == iso(LATER)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1600000000")
    assert built_at(tmp_path / "corpus") == iso(1_600_000_000)


@pytest.mark.slow
def test_one_commit_built_in_two_directories_gives_the_same_database_and_packs(tmp_path, no_source_date):
    """The whole corpus committed, built from the checkout and from an archive of the commit in
    another directory: the same laws.db byte for byte, so the same build id, and the same packs (the
    search pack made from each here; the pages packs are made from the database as the search pack
    is, tests/test_offline.py makes them twice from one database: the same bytes)."""
    from laws_site.offline.make import make_one

    checkout = committed_corpus(tmp_path / "repo", lambda corpus: shutil.copytree(CORPUS, corpus))
    corpora = {"checkout": checkout, "archive": archived(tmp_path / "repo", tmp_path / "elsewhere")}
    packs = {}
    for where, corpus in corpora.items():
        db = tmp_path / where / "laws.db"
        db.parent.mkdir(exist_ok=True)
        result = CliRunner().invoke(cli, ["build", "--db", str(db), "--corpus", str(corpus), "--no-offline"])
        assert result.exit_code == 0, result.output
        make_one(str(db), read_build_id(db), "search", str(db.parent))
        packs[where] = (db.read_bytes(), (db.parent / "search.json.gz").read_bytes())
    assert packs["checkout"][0] == packs["archive"][0]
    assert packs["checkout"][1] == packs["archive"][1]
