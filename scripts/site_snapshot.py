"""Snapshot what the site answers, to prove a refactoring changes nothing a user sees.

    python scripts/site_snapshot.py capture --url http://127.0.0.1:8001 --db laws.db -o before.jsonl
    (change the code, rebuild, serve again)
    python scripts/site_snapshot.py capture --url http://127.0.0.1:8001 --db laws.db -o after.jsonl
    python scripts/site_snapshot.py compare before.jsonl after.jsonl

Fields an answer or a row gains (new columns, new JSON keys) are reported as additions, not
differences: a user sees nothing change. A snapshot holds every record of every table of laws.db (sorted, as JSON) and the status,
redirect target and JSON body of every route: each document, unit, index row, diff of every
law and section across every document pair the site offers, overview, citations, glossary,
a set of searches, redirects and 404s. `compare` prints what differs and exits 1 if anything does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
from urllib.parse import quote, urlencode

import httpx

DIFF_PAIRS = [
    ("revoke-notes-ja", "laws-2017-ja"),
    ("out-of-turn-notes-ja", "laws-2017-ja"),
    ("laws-1997-zh", "laws-2017-ja"),
]
SEARCHES = [
    "リボーク",
    "順番外のリード",
    "revoke",
    "藏牌",
    "罰張",
    "罚张",
    "プレイヤ",
    "ダミー",
    "取り消した",
    "61B2(a)",
    "不当な情報",
    "claim",
    "明手",
    "ディクレアララー",
    "VP",
    "ボード",
    "アラート",
    "x",
]
SPELLINGS = [
    ("laws-2017-ja", "61-B-2-a"),
    ("laws-2017-ja", "第61条B項"),
    ("laws-2017-ja", "61b2a"),
    ("jcbl-regs-ja", "第24条5項1号"),
    ("revoke-notes-ja", "l61a"),
    ("laws-2017-ja", "61Z"),
    ("laws-2017-ja", "999"),
    ("no-such-doc", "1"),
]


def routes(db_path: str) -> list[str]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    docs = [r[0] for r in conn.execute("select id from documents order by rowid")]
    paths = [f"/{doc}.json" for doc in docs]
    for doc, ref in conn.execute("select doc, ref from sections order by position"):
        paths.append(f"/{doc}/{quote(ref, safe='()-,:~')}.json")
    rows = [
        json.loads(a).get("row")
        for (a,) in conn.execute("select attrs from sections where kind = 'index_row' order by position")
    ]
    paths.append("/laws-2017-ja/-/index.json")
    paths += ["/laws-2017-ja/-/index.json?" + urlencode({"row": r}) for r in rows if r]
    for from_doc, to_doc in DIFF_PAIRS:
        paths.append("/-/diff/overview.json?" + urlencode({"from": from_doc, "to": to_doc}))
        refs = [
            r
            for (r,) in conn.execute(
                "select distinct ref from sections where doc = ? and kind in ('law','section') order by position",
                (to_doc,),
            )
        ]
        paths += ["/-/diff.json?" + urlencode({"ref": ref, "from": from_doc, "to": to_doc}) for ref in refs]
        laws = [ref for ref in refs if ref.isdigit()]
        paths += [
            "/-/diff.json?" + urlencode({"ref": ref, "from": from_doc, "to": to_doc, "whitespace": 1}) for ref in laws
        ]
    paths += [
        "/-/citations.json",
        "/-/citations.json?from=61&to=44",
        "/-/glossary.json",
        "/-/glossary.json?q=revoke",
        "/-/glossary.json?q=" + quote("ダミー"),
    ]
    paths += ["/-/search.json?" + urlencode({"q": q}) for q in SEARCHES]
    paths += ["/-/search.json?" + urlencode({"q": "リボーク", "doc": "revoke-notes-ja", "limit": 5})]
    paths += [f"/{doc}/{quote(ref)}.json" for doc, ref in SPELLINGS]
    paths += [
        "/laws/xrefs.json?target_id=" + quote("laws-2017-ja:61A") + "&_shape=array",
        "/laws/sections.json?_search=" + quote("取り消した") + "&_shape=array&_col=id",
    ]
    return paths


def table_records(db_path: str):
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    tables = [
        r[0]
        for r in conn.execute(
            "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' "
            "and name not like '%_fts%' and name != 'build_info' order by name"
        )
    ]  # build_info: new per build
    for table in tables:
        # blobs (search_offsets) as hex: JSON has no bytes
        rows = [
            {k: v.hex() if isinstance(v, bytes) else v for k, v in dict(r).items()}
            for r in conn.execute(f"select * from [{table}]")
        ]
        rows.sort(key=lambda r: json.dumps(r, ensure_ascii=False, sort_keys=True))
        for row in rows:
            yield {"table": table, "row": row}


async def fetch_all(base: str, paths: list[str], concurrency: int = 8):
    results: dict[str, dict] = {}
    queue = list(paths)

    async def worker(client):
        while queue:
            path = queue.pop()
            response = await client.get(base + path)
            try:
                # absolute links (next_url) name the server: two captures on two ports still compare
                body = json.loads(response.text.replace(base, "{origin}"))
            except ValueError:
                body = {"non_json_body_chars": len(response.text)}
            results[path] = {
                "route": path,
                "status": response.status_code,
                "location": response.headers.get("location"),
                "body": body,
            }

    async with httpx.AsyncClient(timeout=60) as client:
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
    return [results[p] for p in paths]


def capture(args) -> None:
    with open(args.output, "w", encoding="utf-8") as out:
        for record in table_records(args.db):
            out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
        for record in asyncio.run(fetch_all(args.url.rstrip("/"), routes(args.db))):
            out.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"wrote {args.output}")


def load(path: str) -> tuple[dict, dict]:
    tables: dict[str, list] = {}
    pages: dict[str, dict] = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if "table" in record:
                tables.setdefault(record["table"], []).append(record["row"])
            else:
                pages[record["route"]] = record
    return tables, pages


def covers(after, before) -> bool:
    """`after` says everything `before` said (dicts may have gained keys)."""
    if isinstance(before, dict) and isinstance(after, dict):
        return all(k in after and covers(after[k], v) for k, v in before.items())
    if isinstance(before, list) and isinstance(after, list):
        return len(before) == len(after) and all(covers(a, b) for a, b in zip(after, before))
    return after == before


def compare_table(table: str, before: list[dict], after: list[dict]) -> int:
    """Rows matched by their key ('id', else the whole row); returns the number of differences."""

    def key(row):
        return row.get("id", json.dumps(row, sort_keys=True)) if "id" in row else json.dumps(row, sort_keys=True)

    old = {key(r): r for r in before}
    new = {key(r): r for r in after}
    if all("id" not in r for r in before):  # no key: compare the rows restricted to the old columns
        columns = set().union(*(r.keys() for r in before)) if before else set()
        new = {json.dumps({k: v for k, v in r.items() if k in columns}, sort_keys=True): r for r in after}
    lost = [k for k in old if k not in new or not covers(new[k], old[k])]
    gained = [k for k in new if k not in old]
    widened = [k for k in old if k in new and new[k] != old[k] and covers(new[k], old[k])]
    if widened:
        print(f"table {table}: {len(widened)} rows gained fields (not a difference)")
    if lost or gained:
        print(f"table {table}: {len(lost)} rows lost or changed, {len(gained)} rows gained")
        for k in lost[:3]:
            print("   -", json.dumps(old[k], ensure_ascii=False)[:300])
            print("   +", json.dumps(new.get(k), ensure_ascii=False)[:300])
    return 1 if lost or gained else 0


def compare(args) -> int:
    before_tables, before_pages = load(args.before)
    after_tables, after_pages = load(args.after)
    problems = sum(
        compare_table(table, rows, after_tables.get(table, [])) for table, rows in sorted(before_tables.items())
    )
    for table in sorted(set(after_tables) - set(before_tables)):
        print(f"new table {table}: {len(after_tables[table])} rows (not a difference)")
    widened = 0
    for route, record in before_pages.items():
        after = after_pages.get(route)
        if after == record:
            continue
        if after is not None and covers(after, record):
            widened += 1
            continue
        problems += 1
        if problems < 40:
            print(
                f"route {route} differs:\n   - {json.dumps(record, ensure_ascii=False)[:400]}\n"
                f"   + {json.dumps(after, ensure_ascii=False)[:400]}"
            )
    if widened:
        print(f"{widened} routes answer with added fields (not a difference)")
    print(
        f"{len(before_pages)} routes and {sum(map(len, before_tables.values()))} records compared; "
        f"{problems} differences"
    )
    return 1 if problems else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    cap = commands.add_parser("capture")
    cap.add_argument("--url", required=True)
    cap.add_argument("--db", required=True)
    cap.add_argument("-o", "--output", required=True)
    cmp_ = commands.add_parser("compare")
    cmp_.add_argument("before")
    cmp_.add_argument("after")
    args = parser.parse_args()
    if args.command == "capture":
        capture(args)
    else:
        sys.exit(compare(args))


if __name__ == "__main__":
    main()
