"""Which offline packs a build has, where their files lie, and the build they belong to: what the
server's offline pages (pages/offline.py) and the pack maker (make.py) both name.

Its own module so that serving a pack needs nothing of the crawl that makes one (make.py, pack.py
render the site's pages, and so import every page); no Datasette here (`bridge-laws` imports make.py).
"""

from __future__ import annotations

from pathlib import Path

from ingest.build.outputs import packs_directory
from laws_site.i18n import catalog as i18n

NAMES = ("search",) + tuple(f"pages-{lang}" for lang in i18n.LANGUAGES)  # the order they are made in


def pack_file(db_path: Path, build: str, name: str) -> Path:
    return packs_directory(Path(db_path), build) / file_name(name)


def file_name(name: str) -> str:
    return f"{name}.json.gz"


def missing(db_path: Path, build: str) -> list[str]:
    return [name for name in NAMES if not pack_file(db_path, build, name).is_file()]


def current_build_id(conn) -> str:
    """Table build_info's build id."""
    return conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]
