"""What a build is: table build_info's rows, the same for the same inputs.

- `build_id`: the first 32 hex digits of the SHA-256 of the database file as written (with an empty
  id) and of ``site_digest``, what else the build's outputs depend on (`bridge-laws build` passes
  the digest of the site's code, templates and static files, which render the offline packs). The
  same corpus and code give the same id, and the same bytes; anything else, another id. Caches
  (ETags, the service worker's copy, the packs' directory) are keyed on it.
- `built_at`: when the corpus was last changed, not when the build ran, so that a rebuild gives
  the same bytes: `SOURCE_DATE_EPOCH` if set (the reproducible-builds convention); else, in a git
  checkout whose corpus is as committed, the checked-out commit's time - what `git archive` gives
  every file as its modification time, so a checkout, a fresh clone and an archive of one commit
  build the same bytes wherever they lie (a file's modification time in a checkout is when it was
  checked out); else (no git, or the corpus edited) the newest modification time of its files.
- `sources_sha256`: the SHA-256 of the documents' texts.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
from datetime import datetime, timezone
from pathlib import Path

from ingest.parsers.records import ParseError
from ingest.sources.corpus import Source

ID_LENGTH = 32


def build_info_rows(sources: list[Source], corpus_dir: Path) -> list[dict]:
    digest = hashlib.sha256("".join(s.id + s.text for s in sources).encode("utf-8")).hexdigest()
    return [
        {"key": "build_id", "value": ""},  # set_build_id writes it once the file is complete
        {"key": "sources_sha256", "value": digest},
        {"key": "built_at", "value": built_at(corpus_dir)},
    ]


def built_at(corpus_dir: Path) -> str:
    """SOURCE_DATE_EPOCH, else the commit's time of a checkout with the corpus as committed, else the
    newest corpus file's modification time; in UTC, to the second."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is not None:
        if not epoch.strip().isdigit():
            raise ParseError("SOURCE_DATE_EPOCH", None, f"{epoch!r} is not a number of seconds since 1970")
        seconds = int(epoch)
    else:
        seconds = commit_time(Path(corpus_dir))
        if seconds is None:
            seconds = max(
                (int(path.stat().st_mtime) for path in Path(corpus_dir).rglob("*") if path.is_file()), default=0
            )
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")


GIT_SECONDS = 20


def commit_time(corpus_dir: Path) -> int | None:
    """The checked-out commit's time when ``corpus_dir`` is tracked by git and every file in it is as
    that commit has it (none changed, untracked or ignored); else None (no git, not a checkout, edited)."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(corpus_dir), *args], capture_output=True, text=True, timeout=GIT_SECONDS, check=True
        ).stdout.strip()

    try:
        if not git("ls-files", "--", "."):
            return None
        if git("status", "--porcelain", "--untracked-files=all", "--ignored", "--", "."):
            return None
        return int(git("log", "-1", "--format=%ct"))
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def set_build_id(db_path: Path, site_digest: str = "") -> str:
    """Write the build id of a complete database file (see the module docstring) into it; returns it."""
    digest = hashlib.sha256()
    with open(db_path, "rb") as written:
        for chunk in iter(lambda: written.read(1 << 20), b""):
            digest.update(chunk)
    digest.update(site_digest.encode("utf-8"))
    build_id = digest.hexdigest()[:ID_LENGTH]
    conn = sqlite3.connect(db_path)
    try:
        conn.execute("pragma journal_mode = off")
        with conn:
            conn.execute("update build_info set value = ? where key = 'build_id'", [build_id])
    finally:
        conn.close()
    return build_id


def read_build_id(db_path: Path) -> str:
    """The build id of the database at db_path ('' if there is none, or it is not a database)."""
    if not Path(db_path).is_file():
        return ""
    try:
        conn = sqlite3.connect(f"file:{Path(db_path).resolve()}?mode=ro", uri=True)
        try:
            row = conn.execute("select value from build_info where key = 'build_id'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return ""
    return row[0] if row else ""
