"""A build's outputs, switched together: the database and the offline packs made from it.

    laws.db                          the database (the path given with --db)
    laws.db.offline/<build id>/      its offline packs (laws_site/offline/make.py)
    .laws.db.lock                    held by the build running (flock): live builds are told from dead ones
    .laws.db.<random>.tmp/           a build in progress: laws.db and offline/, renamed into place at the end

A build works in a staging directory beside the target and publishes by renaming: first the packs'
directory (a name no served database refers to yet), then the database over the old one, which
switches the server to the new build and its packs at once. Until that last rename the previous
outputs are served whole; a build that fails or is stopped removes its staging directory, and one
that was killed leaves it for the next build, which removes it whatever its age (it holds the
lock, so no live build owns it). The previous build's packs are kept (a server started on it still
answers from the file it opened); older ones are removed.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ingest.build.db_target import check_target
from ingest.build.identity import read_build_id

OFFLINE = "offline"


def packs_root(db_path: Path) -> Path:
    """Where the offline packs of every build of db_path are: `<db>.offline/`."""
    return db_path.with_name(db_path.name + ".offline")


def packs_directory(db_path: Path, build_id: str) -> Path:
    return packs_root(db_path) / build_id


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(f".{db_path.name}.lock")


def staging_directories(db_path: Path) -> list[Path]:
    return sorted(db_path.parent.glob(f".{db_path.name}.*.tmp"))


@dataclass
class Stage:
    """A build in progress: ``database`` is written here, the packs into ``offline``."""

    target: Path
    directory: Path

    @property
    def database(self) -> Path:
        return self.directory / self.target.name

    @property
    def offline(self) -> Path:
        return self.directory / OFFLINE

    def publish(self, build_id: str) -> None:
        """Rename the outputs into place: the packs made (if any), then the database."""
        previous = read_build_id(self.target)
        if self.database.exists():
            os.chmod(self.database, file_mode_for(self.target))  # the replaced file's mode, or the umask's
            fsync(self.database)
        if self.offline.is_dir():
            publish_packs(self.offline, packs_directory(self.target, build_id))
        if self.database.exists():
            check_target(self.target)  # again: something else may have appeared there meanwhile
            os.replace(self.database, self.target)
            fsync_directory(self.target.parent)
            remove_other_packs(self.target, keep={build_id, previous})


@contextmanager
def staged(db_path: Path) -> Iterator[Stage]:
    """A staging directory beside db_path, removed on the way out (published or not), while this
    process holds the build lock; staging directories that builds killed left are removed first."""
    db_path = Path(db_path)
    check_target(db_path)  # a FIFO, device or directory at db_path is refused before any work
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with build_lock(db_path):
        for abandoned in staging_directories(db_path):
            remove(abandoned)
        directory = Path(tempfile.mkdtemp(prefix=f".{db_path.name}.", suffix=".tmp", dir=db_path.parent))
        try:
            yield Stage(db_path, directory)
        finally:
            remove(directory)


@contextmanager
def build_lock(db_path: Path) -> Iterator[None]:
    """One build of db_path at a time: a second waits for the first. The lock (flock) goes with the
    process holding it, so a killed build holds none."""
    with open(lock_path(db_path), "a") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        yield  # closing the file releases it


def publish_packs(made: Path, target: Path) -> None:
    """The packs' directory into place. A build of the same id made the same bytes: its files are
    replaced one by one (each rename atomic), so a server serving them never misses one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    for path in made.iterdir():
        fsync(path)
    if not target.exists():
        os.rename(made, target)
    else:
        for path in made.iterdir():
            os.replace(path, target / path.name)
    fsync_directory(target.parent)


def remove_other_packs(db_path: Path, keep: set[str]) -> None:
    root = packs_root(db_path)
    if not root.is_dir():
        return
    for entry in root.iterdir():
        if entry.name not in keep:
            remove(entry)


def remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def file_mode_for(db_path: Path) -> int:
    """The mode the database should have: the existing file's, else 0666 less the umask."""
    try:
        return db_path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def fsync(path: Path) -> None:
    with open(path, "rb") as handle:
        os.fsync(handle.fileno())


def fsync_directory(path: Path) -> None:
    """The renames in a directory on disk (they are its entries)."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
