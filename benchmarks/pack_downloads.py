"""Issue 38: a download costs what it sends. The offline pages pack (2.2 MB stored gzipped, 24 MB of
JSON) downloaded without `Accept-Encoding: gzip` by 50 clients at once, then by 30 slow readers
(16 KB every half second for 20 s): the server's memory before, at its peak during each attack,
and the growth. Target: growth <= 100 MB.

Each run starts `bridge-laws serve` afresh over a copy of the database with its packs: of this
checkout, and, with `--checkout DIR`, of another one (the before figures: `--checkout /work/main`
on a branch without streamed packs), each in its own process, three runs each, medians printed.

    .venv/bin/python -m benchmarks.pack_downloads --db laws.db [--checkout ../main] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import statistics
import sys
import tempfile
from pathlib import Path

import httpx

from ingest.build.identity import read_build_id
from ingest.build.outputs import packs_root
from laws_site.offline.make import add_packs
from tests.live_server import serving
from tests.pack_download_clients import attack, concurrent_plain, slow_readers


def one_run(db: Path, checkout: Path) -> dict:
    build = read_build_id(db)
    path = f"/-/offline/pages.json?build={build}&lang=ja"
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    argv = [sys.executable, "-m", "laws_site.cli", "serve", "--db", str(db), "--port", "{port}"]
    with serve_checkout(db, checkout, env, argv) as (base, process):
        httpx.get(base + path, headers={"accept-encoding": "identity"}, timeout=300)  # warm: the first read
        figures = {}
        for name, run in (
            ("50 concurrent", lambda: concurrent_plain(base, path)),
            ("30 slow", lambda: slow_readers(base, path)),
        ):
            before, peak, sent = asyncio.run(attack(process.pid, run))
            figures[name] = {"before": before, "peak": peak, "growth": peak - before, "bytes": sent}
        return figures


def serve_checkout(db: Path, checkout: Path, env: dict, argv: list[str]):
    """`bridge-laws serve` of that checkout's code (its modules first on the path), on a free port."""
    from tests.live_server import free_port

    port = free_port()
    return serving(db, port=port, argv=[a.replace("{port}", str(port)) for a in argv], cwd=checkout, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--checkout", type=Path, help="also serve this checkout's code (the before figures)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    add_packs(args.db, log=lambda line: None)
    here = Path(__file__).resolve().parent.parent
    checkouts = [("this checkout", here)] + ([("--checkout", args.checkout.resolve())] if args.checkout else [])
    for label, checkout in checkouts:
        runs = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as scratch:
                db = Path(scratch) / "laws.db"
                shutil.copy(args.db, db)
                shutil.copytree(packs_root(args.db), packs_root(db))
                runs.append(one_run(db, checkout))
        for attack_name in runs[0]:
            growth = statistics.median(r[attack_name]["growth"] for r in runs)
            before = statistics.median(r[attack_name]["before"] for r in runs)
            peak = statistics.median(r[attack_name]["peak"] for r in runs)
            print(
                f"{label:14} {attack_name:14} RSS before {before:7.1f} MiB, peak {peak:7.1f} MiB, "
                f"growth {growth:7.1f} MiB (median of {len(runs)}; runs: "
                + ", ".join(f"{r[attack_name]['growth']:.0f}" for r in runs)
                + f"; each client got >= {min(r[attack_name]['bytes'] for r in runs):,} B)"
            )
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(main())
