"""Issue 38 item 3 on a real `bridge-laws serve`: a download costs what it sends. An offline pages
pack of the real pack's size (24 MB of JSON, stored gzipped) downloaded without `Accept-Encoding:
gzip` by 50 clients at once, then by 30 slow readers: the server's memory grows by at most 100 MB.
Was: each plain download expanded the pack whole in memory (50 at once: 255 -> 2,229 MiB).

The pack here is written by the test at the path `bridge-laws build` gives it (making the real
packs costs minutes of CPU); the serving code reads any stored pack alike. The real packs' figures:
benchmarks/pack_downloads.py.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil

import brotli
import pytest

from ingest.build.identity import read_build_id
from laws_site.offline.pack_files import pack_file
from tests.live_server import serving
from tests.pack_download_clients import CONCURRENT, SLOW, attack, concurrent_plain, slow_readers

pytestmark = [pytest.mark.live, pytest.mark.slow]

PACK_BYTES = 24 * 1024 * 1024  # the Japanese pages pack, decompressed (24,712,706 B)
MAX_GROWTH_MIB = 100 * 1000 * 1000 / 2**20  # the 100 MB


@pytest.fixture(scope="module")
def served_pack(laws_db_path, tmp_path_factory):
    """(base, pid, path, size): a server over a copy of the session's database and a pages pack."""
    directory = tmp_path_factory.mktemp("downloads")
    db = directory / "laws.db"
    shutil.copy(laws_db_path, db)
    build = read_build_id(db)
    pack = pack_file(db, build, "pages-ja")
    pack.parent.mkdir(parents=True)
    page = {"path": "/laws-2017-ja/61B", "html": "<p>リボークの成立</p>" * 40}
    text = json.dumps({"build": build, "pages": [page] * (PACK_BYTES // len(json.dumps(page)))}).encode()
    pack.write_bytes(gzip.compress(text, compresslevel=1))
    pack_file(db, build, "pages-ja", "br").write_bytes(brotli.compress(text, quality=1))  # a pack is stored in both
    with serving(db, log=directory / "server.log") as (base, process):
        yield base, process.pid, f"/-/offline/pages.json?build={build}&lang=ja", len(text)


@pytest.mark.parametrize(
    "attacker, clients", [(concurrent_plain, CONCURRENT), (slow_readers, SLOW)], ids=["concurrent", "slow"]
)
def test_plain_pack_downloads_grow_the_server_by_at_most_100_mb(served_pack, attacker, clients):
    base, pid, path, size = served_pack
    before, peak, sent = asyncio.run(attack(pid, lambda: attacker(base, path)))
    print(f"{clients} plain downloads: server RSS {before:.1f} -> {peak:.1f} MiB")  # shown with -s
    assert peak - before <= MAX_GROWTH_MIB, f"{clients} downloads: {before:.0f} -> {peak:.0f} MiB"
    if attacker is concurrent_plain:
        assert sent == size  # every client got the whole pack, decompressed
    else:
        assert sent > 0  # every slow reader was being served
