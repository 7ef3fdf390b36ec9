"""How well search offers the ruling guide for a situation (issue 36, item 4): over the judged situation
queries of benchmarks/situations.yml, for each query whose governing law a guide covers, is that guide
offered above the results (laws_site/read/guides.py offered_guides: the guides covering any of the
first GUIDES_FROM_RESULTS results, at most GUIDES_OFFERED), and of the queries offered a guide, how often is it the right one.
Printed per language, for the offer's setting and for the first 1 and 5 results beside it.

    python -m benchmarks.guide_offers [--db laws.db]
"""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

import yaml

from laws_site.read import guides as reading
from laws_site.search import engine as searching

SITUATIONS = Path(__file__).resolve().parent / "situations.yml"


def offers(conn, situations: dict, top: int) -> dict[str, dict[str, int]]:
    figures = {}
    for lang, items in situations.items():
        counted = figures.setdefault(lang, {"queries": 0, "covered": 0, "right": 0, "offered": 0, "offered_right": 0})
        for item in items:
            counted["queries"] += 1
            wanted = {guide_id for guide_id, _ in reading.covering(conn, list(item["governing"]))}
            results = searching.search_page(conn, item["query"], limit=top, interface=lang)["results"]
            offered = {
                guide_id
                for guide_id, _ in reading.covering(conn, [r["id"] for r in results[:top]])[: reading.GUIDES_OFFERED]
            }
            counted["covered"] += bool(wanted)
            counted["right"] += bool(wanted and offered & wanted)
            counted["offered"] += bool(offered)
            counted["offered_right"] += bool(offered & wanted)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="laws.db")
    args = parser.parse_args()
    conn = sqlite3.connect(f"file:{Path(args.db).resolve()}?mode=ro", uri=True)
    searching.prepare(conn)
    situations = yaml.safe_load(SITUATIONS.read_text(encoding="utf-8"))["situations"]
    for top in sorted({1, reading.GUIDES_FROM_RESULTS, 5}):
        setting = " (the site's setting)" if top == reading.GUIDES_FROM_RESULTS else ""
        print(f"guides covering the first {top} results{setting}:")
        for lang, f in offers(conn, situations, top).items():
            print(
                f"  {lang}: {f['queries']} queries, {f['covered']} governed by a law a guide covers: its guide "
                f"offered for {f['right']} ({f['right'] / max(1, f['covered']):.0%}); a guide offered for "
                f"{f['offered']}, the right one for {f['offered_right']} ({f['offered_right'] / max(1, f['offered']):.0%})"
            )


if __name__ == "__main__":
    main()
