"""A real `bridge-laws serve` under generated requests: no 5xx, no dropped connection.

Two fuzzers share one server (a subprocess on a free port, exactly as users start it; the client
is asyncio + httpx with bounded concurrency, 30 s of requests each and a hard time cap; seeded,
so a failure names a reproducible request):
- search: up to 5,000 queries (at least 500) (realistic terms, FTS syntax, control characters, random code points,
  very long input) on the three search surfaces;
- every route and parameter (up to 3,000 requests, at least 500), the project's and Datasette's
  own, with hostile values (Unicode
  digits, huge numbers, NUL, invalid UTF-8, huge strings, SQL that would take the server's memory)
  and odd methods; every answer is checked for the API's contract: no 5xx, JSON errors in
  Datasette's shape, CORS on every JSON answer, bounded headers, redirects that stay on the site,
  no machine path;
- issue 21: parameter counts around and far beyond the limit, one facet repeated up to 3,000 times,
  odd Host headers (no answer over 2 s, no 5xx, the server under 512 MB, no Host in a later answer);
  and files that are not a bridge-laws database renamed over the served one (never served).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import random
import shutil
import sqlite3
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx
import pytest

from tests.live_server import QUERIES, ROOT, serving

pytestmark = pytest.mark.slow

# Each fuzzer sends its seeded requests in order until it has sent them all or its time budget is
# spent (the machine may be shared), and must have had at least its minimum answered.
REQUESTS = 5000
MIN_ANSWERED = 500
TIME_BUDGET_SECONDS = 30
CONCURRENCY = 16
TIME_CAP_SECONDS = 120  # hard stop: a hung server fails the test
SEED = 20240817

FRAGMENTS = QUERIES + [
    '"',
    '""',
    "OR",
    "AND",
    "NOT",
    "NEAR(",
    "*",
    "^",
    "-",
    "(",
    ")",
    ":",
    "'",
    "\\",
    "%",
    "_",
    "\x00",
    "\x07",
    "\u200b",
    "\ufeff",
    "\u3000",
    "<script>",
    "&amp;",
    "第",
    "条",
    "項",
    "(a)",
    "ー",
    "・",
    "ｶﾀｶﾅ",
    "藏",
    "牌",
    "𠀋",
    "\U0001f0a1",
    " ",
    "\n",
]


def generated_queries(n: int, seed: int = SEED) -> list[str]:
    rng = random.Random(seed)
    queries = []
    for i in range(n):
        shape = i % 5
        if shape == 0:
            q = rng.choice(QUERIES)
        elif shape == 1:
            q = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(1, 6)))
        elif shape == 2:  # random code points, all planes, surrogates excluded
            q = "".join(
                chr(c)
                for c in (rng.randint(1, 0x2FFFF) for _ in range(rng.randint(1, 12)))
                if not 0xD800 <= c <= 0xDFFF
            )
        elif shape == 3:
            q = " ".join(rng.sample(QUERIES, rng.randint(2, 4)))
        else:
            q = rng.choice(QUERIES) * rng.choice([1, 20, 200])  # up to several KB
        queries.append(q)
    return queries


def request_for(i: int, query: str, db_name: str) -> tuple[str, dict]:
    which = i % 4
    if which == 3:
        return f"/{db_name}/sections.json", {"_search": query, "_size": "5"}
    if which == 2:
        return "/-/search", {"q": query}
    return "/-/search.json", {"q": query, **({"lang": "zh"} if i % 8 == 1 else {})}


async def send_all(base: str, jobs: list[tuple], concurrency: int, budget: float) -> tuple[Counter, list[str]]:
    """Send each job (label, method, url, params, check) at most `concurrency` at a time until
    `budget` seconds have passed (the rest count as "not sent"); count the statuses, and collect
    every transport error and what `check(response)` finds wrong with an answer."""
    statuses: Counter = Counter()
    failures: list[str] = []
    semaphore = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency)
    deadline = time.monotonic() + budget
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=30) as client:

        async def one(label: str, method: str, url, params: dict | None, check):
            async with semaphore:
                if time.monotonic() > deadline:
                    statuses["not sent"] += 1
                    return
                try:
                    response = await client.request(method, url, params=params)
                except httpx.HTTPError as error:
                    statuses[type(error).__name__] += 1
                    failures.append(f"{label}: {type(error).__name__} {error}")
                    return
            statuses[response.status_code] += 1
            failures.extend(check(response))

        await asyncio.gather(*(one(*job) for job in jobs))
    return statuses, failures


def search_problems(label: str, path: str, response: httpx.Response) -> list[str]:
    problems = []
    # the HTML search opens the unit a query cites (issue 14): the only redirect allowed
    if response.status_code == 302 and not (
        path == "/-/search" and "?from_search=" in response.headers.get("location", "")
    ):
        problems.append(f"{label}: unexpected redirect to {response.headers.get('location')}")
    if response.status_code >= 500:
        problems.append(f"{label}: {response.status_code} {response.text[:200]!r}")
    return problems


async def hammer(
    base: str, queries: list[str], db_name: str, budget: float = float("inf")
) -> tuple[Counter, list[str]]:
    jobs = []
    for i, query in enumerate(queries):
        path, params = request_for(i, query, db_name)
        label = f"{path} {query!r}"
        jobs.append(
            (
                label,
                "GET",
                path,
                params,
                lambda response, label=label, path=path: search_problems(label, path, response),
            )
        )
    return await send_all(base, jobs, CONCURRENCY, budget)


@pytest.fixture(scope="module")
def live(laws_db_path: Path, tmp_path_factory):
    log = tmp_path_factory.mktemp("fuzz") / "server.log"
    with serving(laws_db_path, log=log) as (base, process):
        yield base, process, log


def test_thousands_of_generated_queries_never_get_a_5xx(laws_db_path: Path, live):
    base, process, log = live
    queries = generated_queries(REQUESTS)
    started = time.monotonic()
    statuses, failures = asyncio.run(
        asyncio.wait_for(hammer(base, queries, laws_db_path.stem, TIME_BUDGET_SECONDS), TIME_CAP_SECONDS)
    )
    elapsed = time.monotonic() - started
    assert process.poll() is None, "the server died under load:\n" + log.read_text(errors="replace")[-2000:]
    answered = sum(n for status, n in statuses.items() if isinstance(status, int))
    print(f"{answered} answers in {elapsed:.1f}s ({answered / elapsed:.0f}/s): {dict(statuses)}")
    assert not failures, f"{len(failures)} failures, first: " + "\n".join(failures[:10])
    assert answered + statuses["not sent"] == REQUESTS and answered >= MIN_ANSWERED, statuses
    assert statuses[200] >= answered // 2, f"most generated queries should be answered with results: {statuses}"
    assert set(statuses) <= {200, 302, 400, "not sent"}, statuses  # 302: a query that is one citation


# ---------------------------------------------------------------- every route, every parameter

ROUTE_REQUESTS = 3000
ROUTE_MIN_ANSWERED = 500
# the route table holds whole-database downloads (/laws.db, 15 MB, ~1.5 s each): 30 s answered 440 on
# CI's machine; the contract is what is checked, so the budget buys the minimum's coverage, not speed
ROUTE_TIME_BUDGET_SECONDS = 75
ROUTE_CONCURRENCY = 16
ROUTE_SEED = 20261123
MAX_HEADER = 8 * 1024
MAX_CLIENT_URL = 60_000

# raw query-string values (already percent-encoded where they must be)
HOSTILE_VALUES = [
    "",
    "%C2%B2",
    "%D9%A6%D9%A1",
    "9" * 5000,
    "-1",
    "0",
    "1e309",
    "nan",
    "%00",
    "a%00b",
    "%FF%FE",
    "%ED%A0%80",
    "%25",
    "'",
    "%22",
    "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
    "..%2F..%2Fetc%2Fpasswd",
    "%5C",
    "~",
    "%2F%2Fevil.example",
    quote("🂡" * 100),
    "x" * 20000,
    quote("リボーク" * 500),
    "%20" * 50,
    "1;drop+table+sections",
    "%0D%0ALocation:+x",
]
HOSTILE_SQL = [
    "select randomblob(1000000000)",
    "select zeroblob(1000000000)",
    "select printf('%.*c', 1000000000, 'x')",
    "select replace(printf('%.*c', 100000, 'x'), 'x', printf('%.*c', 10000, 'y'))",
    "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c",
    "with recursive c(x) as (select 1 union all select x + 1 from c limit 1001) select zeroblob(250000) from c",
    "select ltrim(printf('%.*c', 200000, 'a'), printf('%.*c', 200000, 'b') || 'a')",
    "select * from sections",
    "select count(*) from xrefs",
    "select 1; delete from sections",
    "select",
    "pragma table_info(sections)",
    "attach database '/tmp/x.db' as x",
    "select " + "(" * 300 + "1" + ")" * 300,
]
TABLE_PARAMETERS = [
    "_sort",
    "_sort_desc",
    "_facet",
    "_where",
    "_search",
    "_size",
    "_next",
    "_col",
    "_nocol",
    "_shape",
    "_labels",
    "_facet_size",
    "_timelimit",
    "_ttl",
    "_stream",
    "_json",
    "_searchmode",
    "_nl",
    "_trace",
    "_facet_array",
    "_facet_date",
    "_through",
    "text__contains",
    "id__exact",
    "position__gt",
    "doc",
    "kind__in",
    "ref__glob",
    "_nocount",
    "_nofacet",
]


def sample_of_the_database(db_path: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")]
        units = conn.execute("select doc, ref, id from sections order by random() limit 60").fetchall()
        return {
            "doc": [r[0] for r in conn.execute("select id from documents")],
            "table": tables,
            "ref": [u[1] for u in units],
            "pk": [u[2] for u in units],
            "row": ["あ", "か", "り", "わ"],
            "lang": ["ja", "zh"],
            "number": ["61", "44", "1", "93", "20"],
            "flag": ["1", "on", "0"],
            "shape": ["array", "objects", "arrays", "object", "arrayfirst"],
            "text": QUERIES,
            "sql": ["select 1", "select doc, ref from sections limit 3"],
        }
    finally:
        conn.close()


# path template, {parameter: kind of good value}; {db} is the database, the others come from the sample
ROUTE_TABLE = [
    ("/", {}),
    ("/{doc}", {}),
    ("/{doc}.json", {}),
    ("/{doc}/-/index", {"row": "row"}),
    ("/{doc}/-/index.json", {"row": "row"}),
    ("/{doc}/{ref}", {}),
    ("/{doc}/{ref}.json", {}),
    ("/-/search", {"q": "text", "doc": "doc", "lang": "lang", "limit": "number"}),
    ("/-/search.json", {"q": "text", "doc": "doc", "lang": "lang", "limit": "number"}),
    ("/-/diff", {"ref": "ref", "from": "doc", "to": "doc", "whitespace": "flag"}),
    ("/-/diff.json", {"ref": "ref", "from": "doc", "to": "doc", "whitespace": "flag"}),
    ("/-/diff/overview", {"from": "doc", "to": "doc"}),
    ("/-/diff/overview.json", {"from": "doc", "to": "doc"}),
    ("/-/citations", {"from": "number", "to": "number"}),
    ("/-/citations.json", {"from": "number", "to": "number"}),
    ("/-/glossary", {"q": "text"}),
    ("/-/glossary.json", {"q": "text"}),
    ("/-/glossary/{ref}", {}),
    ("/-/glossary/{ref}.json", {"limit": "number", "offset": "number"}),
    ("/-/databases.json", {}),
    ("/-/databases", {}),
    ("/-/threads.json", {}),
    ("/-/versions.json", {}),
    ("/-/plugins.json", {}),
    ("/-/settings.json", {}),
    ("/-/metadata.json", {}),
    ("/-/actor.json", {}),
    ("/-/static/app.css", {}),
    ("/-/static-plugins/bridge-laws/site.css", {}),
    ("/-/patterns", {}),
    ("/-/permissions", {}),
    ("/-/messages", {}),
    ("/-/allow-debug", {"actor": "text", "allow": "text"}),
    ("/-/auth-token", {"token": "text"}),
    ("/-/logout", {}),
    ("/-/create-token", {}),
    ("/{db}", {"sql": "sql"}),
    ("/{db}.json", {"sql": "sql", "_shape": "shape"}),
    ("/{db}.csv", {"sql": "sql"}),
    ("/{db}/{table}", dict.fromkeys(TABLE_PARAMETERS, "text")),
    ("/{db}/{table}.json", dict.fromkeys(TABLE_PARAMETERS, "text")),
    ("/{db}/{table}.csv", dict.fromkeys(TABLE_PARAMETERS, "text")),
    ("/{db}/sections/{pk}", {}),
    ("/{db}/sections/{pk}.json", {"_shape": "shape"}),
    ("/{db}/search_text", {"q": "text"}),
    ("/{db}/search_text.json", {"q": "text", "_shape": "shape"}),
    ("/{db}/citations.json", {"doc": "doc", "ref": "ref"}),
    ("/{db}/glossary_lookup.json", {"term": "text"}),
    ("/{db}/sections/-/insert", {}),
    ("/{db}/-/create", {}),
    ("/{db}.db", {}),
]
METHODS = ["GET"] * 90 + ["HEAD"] * 5 + ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"]


def generated_requests(n: int, sample: dict[str, list[str]], db_name: str, seed: int = ROUTE_SEED):
    """(method, raw path with query string) pairs; path segments and values are hostile a third of the time."""
    rng = random.Random(seed)
    requests = []
    for i in range(n):
        template, parameters = ROUTE_TABLE[i % len(ROUTE_TABLE)]

        def segment(kind: str) -> str:
            if rng.random() < 0.3:
                return rng.choice(HOSTILE_VALUES)[:3000] or "x"
            return quote(rng.choice(sample[kind]), safe="")

        path = template.replace("{db}", db_name)
        for kind in ("doc", "ref", "table", "pk"):
            if "{" + kind + "}" in path:
                path = path.replace("{" + kind + "}", segment(kind))
        pairs = []
        for name, kind in parameters.items():
            roll = rng.random()
            if roll < 0.4:
                continue
            if name == "sql" and roll < 0.75:
                value = quote(rng.choice(HOSTILE_SQL), safe="")
            elif roll < 0.75:
                value = quote(rng.choice(sample[kind]), safe="")
            else:
                value = rng.choice(HOSTILE_VALUES)
            pairs.append(f"{name}={value}")
        if rng.random() < 0.05:
            pairs.append(rng.choice(HOSTILE_VALUES)[:50] + "=" + rng.choice(HOSTILE_VALUES)[:50])
        while pairs and len(path) + sum(len(p) + 1 for p in pairs) > MAX_CLIENT_URL:
            pairs.pop()  # httpx refuses URLs over 64 KiB (test_api_hardening.py sends longer ones raw)
        requests.append((rng.choice(METHODS), path + ("?" + "&".join(pairs) if pairs else "")))
    return requests


def machine_paths(db_path: Path) -> list[str]:
    return [p for p in {str(ROOT), str(db_path.parent), sys.prefix, str(Path.home()) + "/"} if len(p) > 4]


def contract_problems(method: str, target: str, response: httpx.Response, forbidden: list[str]) -> list[str]:
    """Everything the API promises about one answer, as a list of what is wrong."""
    problems = []
    status = response.status_code
    if status >= 500:
        problems.append(f"status {status}")
    for name, value in response.headers.raw:
        if len(value) > MAX_HEADER:
            problems.append(f"header {name!r} is {len(value)} bytes")
    location = response.headers.get("location")
    if location is not None:
        parts = urlsplit(location)
        if (
            location.startswith(("//", "/\\"))
            or "\\" in location
            or (parts.netloc and parts.netloc != response.url.netloc.decode())
        ):
            problems.append(f"redirect off the site: {location[:100]!r}")
    if response.headers.get("content-type", "").startswith("application/json") and method != "HEAD":
        if response.headers.get("access-control-allow-origin") != "*":
            problems.append("JSON without Access-Control-Allow-Origin: *")
        try:
            data = response.json()
        except ValueError:
            problems.append("JSON that does not parse")
            data = None
        if status >= 400 and not (
            isinstance(data, dict)
            and data.get("ok") is False
            and data.get("status") == status
            and isinstance(data.get("error"), str)
            and "title" in data
        ):
            problems.append(f"JSON error not in Datasette's shape: {str(data)[:200]}")
    text = response.text if method != "HEAD" else ""
    for path in forbidden:
        if path in text:
            problems.append(f"machine path {path!r} in the body")
    return [f"{method} {target[:150]}: {p}" for p in problems]


async def hammer_routes(base: str, requests: list[tuple[str, str]], forbidden: list[str], budget: float = float("inf")):
    # each target is sent as generated, bytes and all (httpx.URL, not re-encoded params)
    jobs = [
        (
            f"{method} {target[:150]}",
            method,
            httpx.URL(base + target),
            None,
            lambda response, method=method, target=target: contract_problems(method, target, response, forbidden),
        )
        for method, target in requests
    ]
    return await send_all(base, jobs, ROUTE_CONCURRENCY, budget)


def test_every_route_and_parameter_keeps_the_api_contract(laws_db_path: Path, live):
    base, process, log = live
    requests = generated_requests(ROUTE_REQUESTS, sample_of_the_database(laws_db_path), laws_db_path.stem)
    started = time.monotonic()
    statuses, failures = asyncio.run(
        asyncio.wait_for(
            hammer_routes(base, requests, machine_paths(laws_db_path), ROUTE_TIME_BUDGET_SECONDS),
            ROUTE_TIME_BUDGET_SECONDS + 60,
        )
    )
    elapsed = time.monotonic() - started
    assert process.poll() is None, "the server died:\n" + log.read_text(errors="replace")[-2000:]
    answered = sum(n for s, n in statuses.items() if isinstance(s, int))
    print(f"{answered} answers in {elapsed:.1f}s: {dict(sorted(statuses.items(), key=str))}")
    assert not failures, f"{len(failures)} failures, first: " + "\n".join(failures[:15])
    assert answered + statuses["not sent"] == ROUTE_REQUESTS and answered >= ROUTE_MIN_ANSWERED, statuses
    assert statuses[200] >= answered // 3, statuses


# ---------------------------------------------------------------- issue 21: shapes of request that stall a server

SHAPE_REQUESTS = 600
SHAPE_MIN_ANSWERED = 150
SHAPE_SEED = 20261124
# a stall was 20-80 s; an answer here waits behind 7 others on a shared machine (the 2 s target for
# one request on its own is measured by benchmarks/server_attacks.py)
MAX_SECONDS_PER_ANSWER = 5.0
MAX_SERVER_MIB = 512
SHAPE_PATHS = [
    "/-/search.json?q=revoke",
    "/-/search?q=%E8%97%8F%E7%89%8C",
    "/{db}/sections.json?_size=1",
    "/{db}/sections?_size=1",
    "/{db}.json?sql=select+1",
    "/{db}/xrefs.json?_size=1",
    "/-/glossary.json",
    "/laws-2017-ja/61B2.json",
    "/-/citations.json",
    "/{db}/search_text.json?q=x",
]
FACET_COLUMNS = ["kind", "doc", "lang", "page", "ref", "parent_id", "target_doc", "resolved", "nope", "%00", ""]
HOSTS = [
    "evil.example",
    "EVIL.example:8443",
    "javascript:alert(1)",
    "a b",
    "x" * 300,
    "[::1]:80",
    "%0d%0a",
    "",
    "evil.example/path",
    "127.0.0.1",
    "a" * 40 + "!",
    "a." * 100 + "!",
]


def shaped_requests(n: int, db_name: str, seed: int = SHAPE_SEED) -> list[tuple[str, str, str | None]]:
    """(label, target, Host header or None): many parameters, repeated facets, odd Host headers."""
    rng = random.Random(seed)
    requests = []
    for i in range(n):
        base = rng.choice(SHAPE_PATHS).replace("{db}", db_name)
        joiner = "&" if "?" in base else "?"
        shape = i % 3
        host = None
        if shape == 0:  # parameter counts around and far beyond the limit
            count = rng.choice([1, 10, 62, 63, 64, 65, 100, 500, 1000, 3000])
            target = base + joiner + "&".join(f"p{j}={rng.randint(0, 9)}" for j in range(count))
            label = f"{count} parameters"
        elif shape == 1:  # one facet repeated, a few facets mixed
            column = rng.choice(FACET_COLUMNS)
            repeats = rng.choice([1, 2, 5, 40, 60, 600, 3000])
            extra = [f"_facet={rng.choice(FACET_COLUMNS)}" for _ in range(rng.randint(0, 7))]
            target = base + joiner + "&".join([f"_facet={column}"] * repeats + extra)
            label = f"_facet={column} x{repeats} + {len(extra)}"
        else:
            host = rng.choice(HOSTS)
            target = base + joiner + f"n={i}&limit=1"
            label = f"Host {host[:20]!r}"
        while len(target) > MAX_CLIENT_URL:
            target = target[: target.rindex("&")]
        requests.append((label, target, host))
    return requests


def peak_rss_mib(pid: int) -> float:
    """The server's peak resident set (VmHWM), 0 where procfs is missing."""
    status = Path(f"/proc/{pid}/status")
    for line in status.read_text().splitlines() if status.exists() else []:
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def shape_problems(label: str, host: str | None, response: httpx.Response, elapsed: float) -> list[str]:
    problems = []
    if response.status_code >= 500:
        problems.append(f"status {response.status_code}")
    if elapsed > MAX_SECONDS_PER_ANSWER:
        problems.append(f"took {elapsed:.1f}s")
    if (
        response.status_code == 200
        and host
        and host.split(":")[0].lower() not in ("", "127.0.0.1", "[")
        and host.lower() in response.text.lower()
    ):
        problems.append(f"the Host header {host[:30]!r} is in the answer")
    if response.headers.get("x-content-type-options") != "nosniff":
        problems.append("no nosniff")
    return [f"{label}: {p}" for p in problems]


async def hammer_shapes(base: str, requests, budget: float) -> tuple[Counter, list[str]]:
    statuses: Counter = Counter()
    failures: list[str] = []
    semaphore = asyncio.Semaphore(8)
    deadline = time.monotonic() + budget
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=8)) as client:

        async def one(label, target, host):
            async with semaphore:
                if time.monotonic() > deadline:
                    statuses["not sent"] += 1
                    return
                headers = {"Host": host} if host is not None else {}
                started = time.monotonic()
                try:
                    response = await client.get(httpx.URL(base + target), headers=headers)
                except httpx.HTTPError as error:
                    statuses[type(error).__name__] += 1
                    failures.append(f"{label}: {type(error).__name__}")
                    return
                elapsed = time.monotonic() - started
            statuses[response.status_code] += 1
            failures.extend(shape_problems(label, host, response, elapsed))

        await asyncio.gather(*(one(*request) for request in requests))
    return statuses, failures


def test_parameter_counts_repeated_facets_and_host_headers_stay_bounded(laws_db_path: Path, live):
    """Issue 21: 4,000 parameters took 20 s, 600 facets 884 MB, a Host header poisoned cached links."""
    base, process, log = live
    requests = shaped_requests(SHAPE_REQUESTS, laws_db_path.stem)
    statuses, failures = asyncio.run(
        asyncio.wait_for(hammer_shapes(base, requests, TIME_BUDGET_SECONDS), TIME_CAP_SECONDS)
    )
    assert process.poll() is None, "the server died:\n" + log.read_text(errors="replace")[-2000:]
    answered = sum(n for s, n in statuses.items() if isinstance(s, int))
    print(f"{answered} answers: {dict(sorted(statuses.items(), key=str))}")
    assert not failures, f"{len(failures)} failures, first: " + "\n".join(failures[:15])
    assert answered + statuses["not sent"] == SHAPE_REQUESTS and answered >= SHAPE_MIN_ANSWERED, statuses
    assert statuses[200] and statuses[400], statuses
    assert peak_rss_mib(process.pid) < MAX_SERVER_MIB
    with httpx.Client(base_url=base, timeout=30) as client:  # what a later client is served
        for path in ("/-/search.json?q=revoke&n=0&limit=1", "/-/glossary.json?n=2&limit=1"):
            assert "evil" not in client.get(path).text.lower(), path


# ---------------------------------------------------------------- issue 21: files that are not ours, renamed over laws.db


def foreign_database(kind: int, good: Path, path: Path, rng: random.Random) -> None:
    if kind == 0:  # another application's SQLite file
        conn = sqlite3.connect(path)
        conn.execute(f"create table t{rng.randint(0, 99)} (x)")
        conn.commit()
        conn.close()
    elif kind == 1:  # ours, less one table
        shutil.copy(good, path)
        conn = sqlite3.connect(path)
        tables = [
            r[0]
            for r in conn.execute(
                "select name from sqlite_master where type = 'table' "
                "and name not like '%fts%' and name not like 'sqlite%'"
            )
        ]
        conn.execute(f"drop table [{rng.choice(tables)}]")
        conn.commit()
        conn.close()
    elif kind == 2:  # a prefix of ours
        path.write_bytes(good.read_bytes()[: rng.randint(0, good.stat().st_size - 1)])
    else:  # random bytes, or empty
        path.write_bytes(os.urandom(rng.choice([0, 100, 4096, 100_000])))


def test_foreign_database_files_are_never_served(laws_db_path: Path, tmp_path):
    rng = random.Random(SHAPE_SEED)
    db = tmp_path / "laws.db"
    shutil.copy(laws_db_path, db)
    good = tmp_path / "good.db"
    shutil.copy(laws_db_path, good)
    digest = hashlib.sha256(good.read_bytes()).hexdigest()
    with serving(db, log=tmp_path / "server.log") as (base, process), httpx.Client(base_url=base, timeout=30) as client:
        expected = {path: client.get(path).content for path in ("/laws-2017-ja/61B2.json", "/-/search.json?q=revoke")}
        for round_ in range(12):
            foreign = tmp_path / f"foreign-{round_}.db"
            foreign_database(round_ % 4, good, foreign, rng)
            os.replace(foreign, db)
            for path, body in expected.items():
                response = client.get(path)
                assert response.status_code == 200 and response.content == body, (round_, path)
            assert client.get("/laws.db", headers={"If-None-Match": f'"{digest}"'}).status_code == 304, round_
            assert client.get("/laws.json", params={"sql": "select count(*) from sections"}).status_code == 200
        assert process.poll() is None
