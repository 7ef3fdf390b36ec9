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
# each pack is stored in both: gzip for every client (and the static export, whose host sends files as
# they are), brotli for a browser that accepts it from the server (laws_site/http/stored.py)
SUFFIXES = {"gzip": ".json.gz", "br": ".json.br"}


def pack_file(db_path: Path, build: str, name: str, coding: str = "gzip") -> Path:
    return packs_directory(Path(db_path), build) / file_name(name, coding)


def file_name(name: str, coding: str = "gzip") -> str:
    return name + SUFFIXES[coding]


def stored_forms(db_path: Path, build: str, name: str) -> dict[str, Path]:
    """{coding: path} of one pack's stored files."""
    return {coding: pack_file(db_path, build, name, coding) for coding in SUFFIXES}


def missing(db_path: Path, build: str) -> list[str]:
    """The packs of a build not (wholly) made: a name whose files are not all there."""
    return [name for name in NAMES if not all(path.is_file() for path in stored_forms(db_path, build, name).values())]


def current_build_id(conn) -> str:
    """Table build_info's build id."""
    return conn.execute("select value from build_info where key = 'build_id'").fetchone()[0]
