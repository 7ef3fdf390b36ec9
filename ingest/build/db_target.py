"""What `build --db PATH` may replace: nothing at PATH, or a regular file.

The build renames its finished file over PATH; over a FIFO, a device node, a socket or a
directory that would replace something that is not a database (run as root on a device node it
replaced the device), so those are refused before any work starts and again just before the rename.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

DEFAULT_DB = Path("laws.db")  # what `bridge-laws` builds and serves without --db

KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class TargetError(Exception):
    """PATH cannot be the database file; the message names it and why. ``special_file``: it is
    a directory, FIFO, device or socket (rather than a broken link or an impossible name)."""

    def __init__(self, message: str, special_file: bool = False):
        super().__init__(message)
        self.special_file = special_file


def check_target(db_path: Path) -> None:
    """TargetError unless db_path is absent or a regular file (a symlink to one is followed)."""
    db_path = Path(db_path)
    try:
        os.lstat(db_path)
    except FileNotFoundError:
        return  # nothing there: the build creates it
    except OSError as error:  # a name too long, a file where a directory should be
        raise TargetError(f"{db_path} cannot be a database file: {error.strerror or error}") from error
    try:
        mode = os.stat(db_path).st_mode
    except OSError as error:
        what = {errno.ELOOP: "a loop of symbolic links", errno.ENOENT: "a symbolic link to nothing"}.get(
            error.errno, error.strerror or str(error)
        )
        raise TargetError(f"{db_path} is {what}, not a database file; choose another --db") from error
    if stat.S_ISREG(mode):
        return
    what = next((name for test, name in KINDS if test(mode)), "not a regular file")
    raise TargetError(
        f"{db_path} is {what}, not a database file; the build replaces only a regular file", special_file=True
    )
