"""Built once, served read-only (issue 35): `bridge-laws serve` run as a user who cannot write anything
(nobody, through setpriv: no capability to override file permissions) over a copy of the build's
outputs with every write bit off serves the whole site, the offline app included, and writes nothing."""

from __future__ import annotations

import gzip
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import httpx
import pytest

from ingest.build.identity import read_build_id
from ingest.build.outputs import packs_root
from laws_site.offline import make as offline_make
from laws_site.offline import pack_files as offline_pack_files
from tests.live_server import free_port, serve_argv, serving

pytestmark = [pytest.mark.live, pytest.mark.slow]
SETPRIV = shutil.which("setpriv")
NOBODY = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def tree(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every file and directory under root: (mode, size, modification time)."""
    return {
        str(path.relative_to(root)): (path.stat().st_mode, path.stat().st_size, path.stat().st_mtime_ns)
        for path in [root, *root.rglob("*")]
    }


@pytest.fixture(scope="module")
def read_only_outputs(laws_db_path):
    """The database and its packs in a directory nobody may write to (root's either: a-w, and the
    server runs as nobody, who could not write to it anyway)."""
    offline_make.add_packs(laws_db_path, jobs=2, log=lambda line: None)
    root = Path(tempfile.mkdtemp(prefix="bridge-laws-read-only-"))
    outputs = root / "outputs"
    outputs.mkdir()
    shutil.copy(laws_db_path, outputs / "laws.db")
    shutil.copytree(packs_root(laws_db_path), packs_root(outputs / "laws.db"))
    for path in [outputs, *outputs.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)
    root.chmod(0o755)
    yield outputs
    for path in [outputs, *outputs.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    shutil.rmtree(root)


@pytest.fixture(scope="module")
def served_as_nobody(read_only_outputs, tmp_path_factory):
    if SETPRIV is None:
        pytest.fail("setpriv (util-linux) is needed to run the server as nobody")
    db = read_only_outputs / "laws.db"
    port = free_port()
    log = Path(tempfile.mkdtemp(prefix="bridge-laws-read-only-log-")) / "server.log"
    env = {**os.environ, "HOME": "/nonexistent"}
    with serving(db, port, argv=[SETPRIV, *NOBODY, *serve_argv(db, port)], log=log, env=env) as (base, process):
        yield base, process, log


def test_the_server_really_runs_as_nobody_over_files_it_cannot_write(served_as_nobody, read_only_outputs):
    _, process, _ = served_as_nobody
    children = subprocess.run(["pgrep", "-g", str(os.getpgid(process.pid))], capture_output=True, text=True)
    owners = {Path(f"/proc/{pid}").stat().st_uid for pid in children.stdout.split()}
    assert owners == {65534}, owners
    assert (read_only_outputs / "laws.db").stat().st_mode & 0o222 == 0


def test_a_read_only_copy_serves_the_whole_site_and_the_offline_app(served_as_nobody, read_only_outputs):
    base, _, log = served_as_nobody
    before = tree(read_only_outputs)
    build = read_build_id(read_only_outputs / "laws.db")
    pages = [
        "/",
        "/laws-2017-ja/61B2(a)",
        "/en/laws-2017-ja/def:ダミー",
        "/zh/laws-2017-ja/-/index?row=ら",
        "/-/glossary/ダミー",
        "/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja",
        "/-/search?q=リボーク",
        "/-/search.json?q=revoke",
        "/laws/sections.json?_size=1",
        "/-/offline/page",
        "/sw.js",
        "/-/offline/manifest.webmanifest",
    ]
    with httpx.Client(base_url=base, timeout=60) as client:
        for path in pages:
            assert client.get(path).status_code == 200, path
        for name in offline_pack_files.NAMES:
            stored = offline_pack_files.pack_file(read_only_outputs / "laws.db", build, name).read_bytes()
            for coding in ("gzip", "br"):
                packed = client.get(f"/-/offline/{build}/{name}.json.gz", headers={"accept-encoding": coding})
                assert packed.status_code == 200 and packed.headers["content-encoding"] == coding, name
                assert packed.content == gzip.decompress(stored), name  # httpx decodes it
    assert tree(read_only_outputs) == before  # nothing written, nothing touched
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in text and "Permission denied" not in text and "Read-only" not in text, text[-2000:]


def test_the_read_only_tree_is_what_the_build_wrote(read_only_outputs):
    names = sorted(str(p.relative_to(read_only_outputs)) for p in read_only_outputs.rglob("*") if p.is_file())
    packs = len(offline_pack_files.NAMES) * len(offline_pack_files.SUFFIXES)  # each pack gzip and brotli
    assert names[0] == "laws.db" and len(names) == 1 + packs
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o444 for p in read_only_outputs.rglob("*") if p.is_file())
