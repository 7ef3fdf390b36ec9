"""Every answer search gives, saved from one checkout and compared with another's: proof that a change
made for speed changed no answer (issue 36's latency work).

The queries: the load's 34 (tests/live_server.QUERIES) and the forgiving ones (benchmarks/search_load),
every query of benchmarks/qrels.yml (with its document and language filters), every situation of
benchmarks/situations.yml, and the 索引's entries as benchmarks/relevance reads them. Each is searched
with `engine.search_page` in the three interfaces (ja, zh, en: the order differs where the current law is
lifted), first page of 20 and the second page, exact and forgiving; the whole answer is kept (results
with scores, snippets, labels, why, paired units; also_searched, did_you_mean, expansions, citation),
or the QueryError's message. Then the site itself, in-process through the ASGI app `bridge-laws serve`
runs (laws_site/http/serve.site_app, no socket): /-/search.json and the HTML page /-/search in ja, zh
and en for the load's and the forgiving queries - status, content type and body bytes.

    .venv/bin/python -m benchmarks.search_answers --db laws.db --save /tmp/answers-before.json   # on main
    .venv/bin/python -m benchmarks.search_answers --db laws.db --against /tmp/answers-before.json

`--against` prints each answer that differs (the first 10 in full) and exits 1 if any does.

Both sides run with the same string hash seed (PYTHONHASHSEED, 0 unless set: the script runs itself
again with it): the 索引 entries a result lists, and so the order of some ties, follow the iteration
order of a set of words (data.index_entries_with), which differs from one process to the next.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import yaml

from benchmarks.search_load import FORGIVING_QUERIES
from laws_site.search import engine
from tests.live_server import QUERIES

ROOT = Path(__file__).resolve().parent.parent
INTERFACES = ("ja", "zh", "en")
PAGES = ((20, 0), (20, 20))
SITE_PREFIXES = ("", "/zh", "/en")
HASH_SEED = "0"


def judged_searches(conn: sqlite3.Connection) -> list[dict]:
    """{query, doc, lang} of every judged and load query, without repeats, in a stable order (the 索引's
    entries come after, searched in fewer ways: index_queries)."""
    searches = [{"query": q} for q in QUERIES + FORGIVING_QUERIES]
    qrels = yaml.safe_load((ROOT / "benchmarks" / "qrels.yml").read_text(encoding="utf-8")) or {}
    for entries in (qrels.get("groups") or {}).values():
        for entry in entries or []:
            if isinstance(entry, dict) and "query" in entry:
                searches.append({"query": str(entry["query"]), "doc": entry.get("doc"), "lang": entry.get("lang")})
    situations = yaml.safe_load((ROOT / "benchmarks" / "situations.yml").read_text(encoding="utf-8"))["situations"]
    searches += [{"query": str(entry["query"])} for group in situations.values() for entry in group or []]
    unique = {json.dumps(s, sort_keys=True, ensure_ascii=False): s for s in searches}
    return list(unique.values())


def index_queries(conn: sqlite3.Connection) -> list[str]:
    """The 索引 entries of the current Laws as queries (heading and sub-term), as benchmarks/relevance reads them."""
    current = engine.search_data(conn).registry.current_laws
    rows = conn.execute(
        "select ref from sections where doc = ? and kind = 'index_entry' order by position",
        (current.id if current else None,),
    )
    return [ref.removeprefix("index:").replace("/", " ") for (ref,) in rows]


def engine_answers(conn: sqlite3.Connection) -> dict[str, str]:
    """{the search as JSON: its whole answer as JSON}; the 索引's ~900 entries in the ja interface, first
    page, forgiving only (the other ways cost 11 times as much and the judged queries cover them)."""
    ways = [(interface, page, expand) for interface in INTERFACES for page in PAGES for expand in (True, False)]
    answers: dict[str, str] = {}
    searches = [(search, ways) for search in judged_searches(conn)]
    searches += [({"query": query}, [("ja", PAGES[0], True)]) for query in index_queries(conn)]
    for search, chosen in searches:
        for interface, (limit, offset), expand in chosen:
            key = json.dumps(
                {**search, "interface": interface, "limit": limit, "offset": offset, "expand": expand},
                sort_keys=True,
                ensure_ascii=False,
            )
            try:
                page = engine.search_page(
                    conn,
                    search["query"],
                    doc=search.get("doc"),
                    lang=search.get("lang"),
                    limit=limit,
                    offset=offset,
                    expand=expand,
                    interface=interface,
                )
            except engine.QueryError as error:
                page = {"error": str(error)}
            answers[key] = json.dumps(page, sort_keys=True, ensure_ascii=False)
    return answers


def site_answers(db: Path) -> dict[str, str]:
    """The JSON and HTML search pages through the ASGI app the server runs (no socket)."""
    from laws_site.http import serve

    app = serve.site_app(serve.datasette_for(db))

    async def get(target: str) -> tuple[int, str, bytes]:
        path, _, query_string = target.partition("?")
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query_string.encode(),
            "root_path": "",
            "headers": [(b"host", b"127.0.0.1:8000")],
            "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 8000),
        }
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict) -> None:
            sent.append(message)

        await app(scope, receive, send)
        headers = dict(sent[0].get("headers", []))
        return sent[0]["status"], headers.get(b"content-type", b"").decode(), b"".join(m.get("body", b"") for m in sent)

    async def all_pages() -> dict[str, str]:
        found = {}
        for query in QUERIES + FORGIVING_QUERIES:
            for prefix in SITE_PREFIXES:
                for page in ("/-/search.json", "/-/search"):
                    target = prefix + page + "?" + urlencode({"q": query, "list": "1"})
                    status, content_type, body = await get(target)
                    found[target] = json.dumps(
                        {"status": status, "type": content_type, "body": body.decode("utf-8", "replace")},
                        ensure_ascii=False,
                    )
        return found

    return asyncio.run(all_pages())


def collect(db: Path) -> dict[str, str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    engine.prepare(conn)
    answers = {"engine " + key: value for key, value in engine_answers(conn).items()}
    conn.close()
    answers.update({"site " + key: value for key, value in site_answers(db).items()})
    return answers


def main() -> int:
    if "PYTHONHASHSEED" not in os.environ:  # the same seed on both sides (module docstring)
        os.environ["PYTHONHASHSEED"] = HASH_SEED
        return subprocess.run([sys.executable, "-m", "benchmarks.search_answers", *sys.argv[1:]], cwd=ROOT).returncode
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--save", type=Path, help="write every answer to this JSON file")
    action.add_argument("--against", type=Path, help="compare every answer with those saved in this file")
    args = parser.parse_args()
    answers = collect(args.db)
    if args.save:
        args.save.write_text(json.dumps(answers, ensure_ascii=False, indent=0), encoding="utf-8")
        print(f"{len(answers)} answers saved to {args.save}")
        return 0
    before = json.loads(args.against.read_text(encoding="utf-8"))
    differ = [key for key in sorted(set(before) | set(answers)) if before.get(key) != answers.get(key)]
    for key in differ[:10]:
        print(
            f"DIFFERS {key}\n  before: {before.get(key, '(none)')[:2000]}\n  after:  {answers.get(key, '(none)')[:2000]}"
        )
    print(
        f"{len(answers)} answers (hash seed {os.environ['PYTHONHASHSEED']}), {len(before)} before: {len(differ)} differ"
        + ("" if differ else " - identical")
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
