"""Dump every search answer, to prove a speed-up changes none: `search_page`'s full JSON for each
query of benchmarks/qrels.yml (the 索引 group included), the load queries (tests/live_server.py
QUERIES, benchmarks/search_load.py FORGIVING_QUERIES), in 4 variants (default; lang=ja; exact;
limit=50 offset=5), plus the HTTP JSON of /-/search.json for a sample of them.

    PYTHONHASHSEED=0 .venv/bin/python -m scripts.search_answers --db laws.db -o before.jsonl
    (change the code)
    PYTHONHASHSEED=0 .venv/bin/python -m scripts.search_answers --db laws.db -o after.jsonl
    cmp before.jsonl after.jsonl

PYTHONHASHSEED=0: the order of a result's 索引 entries follows set iteration order, which differs
between processes with random hashing (before as after).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
from pathlib import Path

from benchmarks.relevance import file_qrels, index_qrels
from benchmarks.search_load import FORGIVING_QUERIES
from laws_site.search import engine as search
from tests.live_server import QUERIES

VARIANTS = {
    "default": {},
    "lang=ja": {"lang": "ja"},
    "exact": {"expand": False},
    "limit=50,offset=5": {"limit": 50, "offset": 5},
}
HTTP_SAMPLE_EVERY = 7  # every 7th query over HTTP too (with and without lang=ja)


def queries(conn) -> list[tuple[str, str | None, str | None]]:
    """(query, lang, doc), each once, in a stable order."""
    found = [(q, None, None) for q in QUERIES + FORGIVING_QUERIES]
    found += [(j.query, j.lang, j.doc) for j in file_qrels() + index_qrels(conn)]
    return list(dict.fromkeys(found))


def answer(conn, query: str, lang, doc, variant: dict) -> dict:
    arguments = {"lang": lang, "doc": doc, **variant}
    try:
        return search.search_page(conn, query, **arguments)
    except search.QueryError as error:
        return {"error": str(error)}


async def http_answers(db: str, sample: list[str]) -> list[dict]:
    import httpx
    from datasette.app import Datasette
    from datasette.utils import parse_metadata

    from laws_site.http.serve import METADATA, SETTINGS

    datasette = Datasette(
        [db],
        metadata=parse_metadata(Path(METADATA).read_text()),
        settings={k: (int(v) if str(v).isdigit() else v) for k, v in SETTINGS.items()},
    )
    await datasette.invoke_startup()
    out = []
    transport = httpx.ASGITransport(app=datasette.app())
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        for query in sample:
            for params in ({"q": query}, {"q": query, "lang": "ja", "limit": "50", "offset": "5"}):
                response = await client.get("/-/search.json", params=params)
                out.append(
                    {
                        "http": params,
                        "status": response.status_code,
                        "etag": response.headers.get("etag"),
                        "body": response.text,
                    }
                )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="laws.db")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()
    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("run with PYTHONHASHSEED=0 (see the docstring)")
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    asked = queries(conn)
    with open(args.output, "w", encoding="utf-8") as out:
        for query, lang, doc in asked:
            for name, variant in VARIANTS.items():
                page = answer(conn, query, lang, doc, variant)
                out.write(
                    json.dumps(
                        {"q": query, "lang": lang, "doc": doc, "variant": name, "answer": page}, ensure_ascii=False
                    )
                    + "\n"
                )
        sample = [q for i, (q, _lang, _doc) in enumerate(asked) if i % HTTP_SAMPLE_EVERY == 0]
        for line in asyncio.run(http_answers(args.db, sample)):
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{len(asked)} queries x {len(VARIANTS)} variants, {len(sample)} x 2 over HTTP -> {args.output}")


if __name__ == "__main__":
    main()
