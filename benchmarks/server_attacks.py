"""Issue 21's attacks on a running server, one at a time: each one's time, the server's RSS after it
(and its peak during it), and the latency of a bystander request sent while it runs.

Run it against any server (the one on this branch, or `main`'s, for the before figures):

    .venv/bin/python -m benchmarks.server_attacks --url http://127.0.0.1:8130 --pid 12345
    .venv/bin/python -m benchmarks.server_attacks --db laws.db          # starts `bridge-laws serve`

Issue 38's attacks (`--issue 38`), each on servers it starts (`bridge-laws serve` of this checkout,
or of another one with `--checkout DIR`: the before figures), each bounded in time, with a bystander
fetching a unit page every 0.5 s (tests/server_probe.py): 1,000 half-sent requests held and
reopened for 30 s, alone and behind docs/deploy/haproxy.cfg (the attacker at 127.0.0.2); wrk -c1500
for 10 s; ab -c 1000 -n 10000 with one worker and --workers 2; SIGTERM with a slow reader attached;
kill -9 of one of two workers; the 索引 page's bytes on the wire.

Attacks (issue 21): 4,000 query parameters; `_facet=kind` 600 times; 5,000 answers under 60 KB
query strings (the answer cache's keys); 8 clients running the runaway recursive CTE while a unit
page is timed; `Host: evil.example` then the cached `next_url`; 6,000 Chinese characters in
`?_search=`; SQL that reads the file's path or a pointer; CSV of bad SQL; `select random()`
revalidated; 200 connections that send nothing. Linux only (procfs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import platform
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx

from benchmarks import server_platform_attacks
from tests.live_server import serving
from tests.process_memory import memory_mib

UNIT_PAGE = "/laws-2017-ja/61B2(a)"
RUNAWAY = "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"


def rss(pid: int) -> float:
    return memory_mib(pid).get("VmRSS", float("nan"))


def reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def peak(pid: int) -> float:
    return memory_mib(pid).get("VmHWM", float("nan"))


class Bystander:
    """Requests a page again and again (one at a time) while an attack runs; their latencies. With
    `fresh`, each request adds a new dummy parameter, so the page is read and rendered, not taken
    from the answer cache."""

    def __init__(self, base: str, path: str, fresh: bool = False):
        self.base, self.path, self.fresh = base, path, fresh
        self.latencies: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        with httpx.Client(base_url=self.base, timeout=120) as client:
            n = 0
            while not self.stop.is_set():
                n += 1
                started = time.perf_counter()
                try:
                    client.get(self.path, params={"bystander": f"{time.time_ns()}-{n}"} if self.fresh else None)
                except httpx.HTTPError:
                    pass
                self.latencies.append(time.perf_counter() - started)
                self.stop.wait(0.05)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()

    def summary(self) -> str:
        if not self.latencies:
            return "no bystander answer"
        return (
            f"bystander {self.path} p50 {statistics.median(self.latencies) * 1000:.0f} ms, "
            f"max {max(self.latencies) * 1000:.0f} ms ({len(self.latencies)} answers)"
        )


def idle_p50(base: str, path: str, n: int = 40) -> float:
    """The page's median latency on an idle server, read afresh each time (not from the cache)."""
    with httpx.Client(base_url=base, timeout=30) as client:
        client.get(path)
        times = []
        for i in range(n):
            started = time.perf_counter()
            client.get(path, params={"bystander": f"idle-{time.time_ns()}-{i}"})
            times.append(time.perf_counter() - started)
            time.sleep(0.05)
    return statistics.median(times)


def timed(client: httpx.Client, method: str, url: str, **kwargs) -> tuple[object, float, int]:
    started = time.perf_counter()
    try:
        response = client.request(method, url, **kwargs)
        return response.status_code, time.perf_counter() - started, len(response.content)
    except httpx.HTTPError as error:
        return type(error).__name__, time.perf_counter() - started, 0


def attack_many_parameters(base, pid, client):
    url = "/-/search.json?q=revoke&" + "&".join(f"p{i}=1" for i in range(4000))
    with Bystander(base, "/-/versions.json") as bystander:
        status, seconds, size = timed(client, "GET", url)
    return {"status": status, "seconds": seconds, "bytes": size, "bystander": bystander.summary()}


def attack_repeated_facet(base, pid, client):
    url = "/laws/sections.json?_size=1&" + "&".join(["_facet=kind"] * 600)
    with Bystander(base, UNIT_PAGE) as bystander:
        status, seconds, size = timed(client, "GET", url)
    return {"status": status, "seconds": seconds, "bytes": size, "bystander": bystander.summary()}


def attack_cache_keys(base, pid, client, count: int, pad_bytes: int = 60_000):
    pad = "x" * pad_bytes

    async def flood():
        limits = httpx.Limits(max_connections=8)
        async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as aclient:
            semaphore = asyncio.Semaphore(8)

            async def one(i):
                async with semaphore:
                    with contextlib.suppress(httpx.HTTPError):
                        await aclient.get(f"/-/search.json?q=zzqqxx&k={i}&pad={pad}")

            await asyncio.gather(*(one(i) for i in range(count)))

    started = time.perf_counter()
    asyncio.run(flood())
    return {"status": f"{count} requests", "seconds": time.perf_counter() - started, "bytes": 0, "bystander": ""}


def attack_slow_sql(base, pid, client, clients: int = 8, seconds: float = 15.0):
    idle = idle_p50(base, UNIT_PAGE)
    stop = threading.Event()
    statuses: dict = {}

    def attacker():
        with httpx.Client(base_url=base, timeout=60) as attack_client:
            while not stop.is_set():
                status, _, _ = timed(attack_client, "GET", "/laws.json", params={"sql": RUNAWAY})
                statuses[status] = statuses.get(status, 0) + 1

    threads = [threading.Thread(target=attacker, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    with Bystander(base, UNIT_PAGE, fresh=True) as bystander:
        time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    busy = statistics.median(bystander.latencies) if bystander.latencies else float("nan")
    return {
        "status": statuses,
        "seconds": seconds,
        "bytes": 0,
        "bystander": f"unit page p50 idle {idle * 1000:.1f} ms, under {clients} slow-SQL clients "
        f"{busy * 1000:.1f} ms ({busy / idle:.1f}x), max {max(bystander.latencies) * 1000:.0f} ms",
    }


def attack_host_header(base, pid, client):
    path = "/-/glossary.json?limit=1&hostprobe=1"
    client.get(path, headers={"Host": "evil.example"})
    later = client.get(path).json().get("next_url") or ""
    javascript = client.get("/-/search.json?q=revoke&limit=1&hostprobe=2", headers={"Host": "javascript:alert(1)"})
    return {
        "status": f"later client's next_url {later[:60]!r}; Host javascript: -> {javascript.status_code}",
        "seconds": 0,
        "bytes": 0,
        "bystander": "",
    }


def attack_chinese_search(base, pid, client):
    url = "/laws/sections.json?_size=1&_search=" + quote("藏牌的确定" * 1200)
    with Bystander(base, "/-/versions.json") as bystander:
        status, seconds, size = timed(client, "GET", url)
    return {"status": status, "seconds": seconds, "bytes": size, "bystander": bystander.summary()}


def attack_sql_surface(base, pid, client):
    found = {}
    path = client.get("/laws.json", params={"sql": "select file from pragma_database_list", "_shape": "array"})
    found["pragma_database_list"] = path.status_code
    pointer = client.get("/laws.json", params={"sql": "select hex(fts3_tokenizer('simple')) as p", "_shape": "array"})
    found["fts3_tokenizer"] = pointer.status_code
    csv = client.get("/laws.csv", params={"sql": "select nonsense"})
    found["csv bad sql"] = f"{csv.status_code} ({len(csv.content)} B)"
    first = client.get("/laws.json", params={"sql": "select random()"})
    again = client.get(
        "/laws.json", params={"sql": "select random()"}, headers={"If-None-Match": first.headers.get("etag", "")}
    )
    found["random() revalidated"] = again.status_code
    found["nosniff"] = first.headers.get("x-content-type-options")
    slow = client.get("/laws.json", params={"sql": RUNAWAY}).json()
    found["time-out error has HTML"] = "<" in str(slow.get("error"))
    long_search = client.get("/-/search.json", params={"q": "x" * 60_000})
    found["search error echo (B)"] = len(long_search.content)
    unit = client.get(UNIT_PAGE, params={"from_search": "y" * 60_000})
    found["from_search reflected (chars)"] = unit.text.count("y" * 1000) * 1000
    return {"status": json.dumps(found, ensure_ascii=False), "seconds": 0, "bytes": 0, "bystander": ""}


def attack_silent_connections(base, pid, client, count: int = 200, wait: float = 15.0):
    parts = urlsplit(base)
    sockets = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            sockets.append(socket.create_connection((parts.hostname, parts.port), timeout=5))
    time.sleep(wait)
    still_open = 0
    for sock in sockets:
        sock.setblocking(False)
        try:
            still_open += sock.recv(1) != b""  # b"" when the server closed it
        except BlockingIOError:
            still_open += 1
        except OSError:
            pass
        sock.close()
    return {
        "status": f"{still_open} of {len(sockets)} silent connections still open after {wait:.0f} s",
        "seconds": wait,
        "bytes": 0,
        "bystander": "",
    }


def measure(base: str, pid: int, cache_requests: int, only: str | None = None) -> list[tuple[str, dict]]:
    attacks = [
        ("4,000 query parameters", attack_many_parameters),
        ("_facet=kind x 600", attack_repeated_facet),
        (f"{cache_requests:,} x 60 KB cache keys", lambda b, p, c: attack_cache_keys(b, p, c, cache_requests)),
        # under the query-string limit: these are answered, and kept
        (f"{cache_requests:,} x 40 KB cache keys", lambda b, p, c: attack_cache_keys(b, p, c, cache_requests, 40_000)),
        ("8 clients of runaway SQL", attack_slow_sql),
        ("Host header", attack_host_header),
        ("_search 6,000 Chinese chars", attack_chinese_search),
        ("SQL surface", attack_sql_surface),
        ("200 silent connections", attack_silent_connections),
    ]
    attacks = [(label, attack) for label, attack in attacks if not only or only in label]
    rows = []
    with httpx.Client(base_url=base, timeout=180) as client:
        print(f"idle RSS {rss(pid):.0f} MiB", flush=True)
        for label, attack in attacks:
            reset_peak(pid)
            result = attack(base, pid, client)
            result.update(rss_after=rss(pid), peak=peak(pid))
            rows.append((label, result))
            seconds = f"{result['seconds']:.2f} s" if result["seconds"] else ""
            print(
                f"{label:<30} {result['status']!s:<40} {seconds:>9} {result['bytes']:>11,d} B  "
                f"RSS after {result['rss_after']:.0f} MiB (peak {result['peak']:.0f})  {result['bystander']}",
                flush=True,
            )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="database to serve with this checkout's `bridge-laws serve`")
    parser.add_argument("--url", help="measure an already running server (needs --pid)")
    parser.add_argument("--pid", type=int)
    parser.add_argument("--cache-requests", type=int, default=5000)
    parser.add_argument("--only", help="run only the attacks whose label contains this text")
    parser.add_argument("--issue", type=int, choices=(21, 38), default=21, help="whose attacks (default 21)")
    parser.add_argument("--checkout", type=Path, help="issue 38: serve this checkout's code (the before figures)")
    args = parser.parse_args()
    print(f"{platform.node()} {platform.platform()} Python {platform.python_version()}")
    if args.issue == 38:
        if args.db is None:
            parser.error("--issue 38 needs --db")
        return server_platform_attacks.measure(args.db, args.checkout, args.only)
    if args.url:
        measure(args.url, args.pid, args.cache_requests, args.only)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            from benchmarks.search_load import build_db

            db = build_db(Path(tmp))
        with serving(db) as (base, process):
            measure(base, process.pid, args.cache_requests, args.only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
