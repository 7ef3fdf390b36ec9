"""Situation queries (issue 36): does search put the governing law first?

Each query of benchmarks/situations.yml (what a director types at the table, in Japanese, Chinese or
English; judged by reading the Laws) runs through `search()` as the site's search box runs it: no
document or language filter, in the interface of the query's language (/zh/, /en/: the current law paired
with a 1997 unit first), the first 10 results.

A result answers a query if it is, or lies inside, one of the query's `governing` units or one of its
`acceptable` units (relevance.py's convention: 16B1(a) counts for 16B1, 61B2 for 61; the search page
groups results by law). rank = the first such result (1-10, or none); recall@k = share of queries
answered within the top k; MRR over the top 10. "governing only" counts `governing` units alone, and
"governing law" any unit of a governing unit's Law (61B2's Law 61: 61, 61A, 61B1 - the issue's words, "the
governing law within the top 3", read by the Law, where `acceptable` units of other Laws count for rank).

Held out: every third query of each language (its 3rd, 6th, 9th... in benchmarks/situations.yml) is
kept apart from the ranking's development: the ranking was tuned looking at the other two thirds only
(`--part dev`), and `--part held-out` shows whether what was learnt there holds on queries never looked
at. The split is by position, fixed, and needs no random seed.

`--ranks FILE` writes each query's rank as JSON; `--against FILE` (what `--ranks` wrote before a change)
then lists every query ranked worse (relevance.py's convention), and every query ranked better: a change
that moves the figures is read query by query, not only as totals.

Usage:
    python -m benchmarks.situations --db laws.db [--lang ja|zh|en] [--part all|dev|held-out] [--misses]
        [--ranks FILE] [--against FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

from benchmarks.relevance import Ancestry, worse
from laws_site.search import engine as search_module  # the same import as benchmarks/relevance.py

ROOT = Path(__file__).resolve().parent.parent

SITUATIONS_FILE = ROOT / "benchmarks" / "situations.yml"
CUTOFF = 10
RECALL_AT = (1, 3, 10)
LANGS = ("ja", "zh", "en")


HELD_OUT_EVERY = 3  # the 3rd, 6th, 9th... query of each language is held out
PARTS = ("all", "dev", "held-out")
LAW_NUMBER_RE = re.compile(r"(\d+)")  # a Law's (or an article's) number begins its units' refs


@dataclass
class Situation:
    query: str
    lang: str
    governing: frozenset[str]
    acceptable: frozenset[str]
    held_out: bool = False


@dataclass
class Outcome:
    situation: Situation
    rank: int | None  # first result in a governing or acceptable unit
    governing_rank: int | None  # first result in a governing unit
    law_rank: int | None  # first result in a governing unit's Law (any of its parts)
    top: str  # the first result's id (or the search's error)


def load(path: Path = SITUATIONS_FILE) -> list[Situation]:
    groups = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("situations") or {}
    return [
        Situation(
            str(entry["query"]),
            entry["lang"],
            frozenset(entry["governing"]),
            frozenset(entry["acceptable"]),
            held_out=place % HELD_OUT_EVERY == HELD_OUT_EVERY - 1,
        )
        for lang in groups
        for place, entry in enumerate(groups[lang] or [])
    ]


def in_part(situation: Situation, part: str) -> bool:
    return part == "all" or situation.held_out == (part == "held-out")


def first_rank(lineages: list[set[str]], wanted: frozenset[str]) -> int | None:
    return next((rank for rank, lineage in enumerate(lineages, start=1) if lineage & wanted), None)


def law_of(unit_id: str) -> tuple[str, str] | None:
    """(document, Law or article number) of a unit: laws-2017-ja:61B2 -> (laws-2017-ja, 61), jcbl-regs-ja:24-5-1 ->
    (jcbl-regs-ja, 24); None for a unit of no Law (a footnote, a definition)."""
    doc, _, ref = unit_id.partition(":")
    number = LAW_NUMBER_RE.match(ref)
    return (doc, number.group(1)) if number else None


def first_in_laws(lineages: list[set[str]], units: frozenset[str]) -> int | None:
    """The first result in the Law of one of `units`: a result counts if it, or a unit it lies in, is of that Law (a
    footnote printed in Law 13 is part of Law 13; a footnote merely numbered 13 is not)."""
    laws = {law_of(unit) for unit in units} - {None}
    return next(
        (rank for rank, lineage in enumerate(lineages, start=1) if any(law_of(unit) in laws for unit in lineage)),
        None,
    )


def evaluate(conn: sqlite3.Connection, situation: Situation, ancestry: Ancestry) -> Outcome:
    try:
        results = search_module.search(conn, situation.query, limit=CUTOFF, interface=situation.lang)
    except search_module.QueryError as error:
        return Outcome(situation, None, None, None, f"QueryError: {error}")
    lineages = [ancestry.lineage(result["id"]) for result in results]
    return Outcome(
        situation,
        first_rank(lineages, situation.governing | situation.acceptable),
        first_rank(lineages, situation.governing),
        first_in_laws(lineages, situation.governing),
        results[0]["id"] if results else "(no results)",
    )


def summary(outcomes: list[Outcome]) -> dict:
    n = len(outcomes)
    row = {"queries": n}
    for k in RECALL_AT:
        row[f"recall@{k}"] = sum(o.rank is not None and o.rank <= k for o in outcomes) / n
        row[f"governing@{k}"] = sum(o.governing_rank is not None and o.governing_rank <= k for o in outcomes) / n
        row[f"law@{k}"] = sum(o.law_rank is not None and o.law_rank <= k for o in outcomes) / n
    row["mrr"] = sum(1 / o.rank for o in outcomes if o.rank) / n
    return row


def short(unit_ids) -> str:
    """laws-2017-ja:16B1 -> 16B1; other documents keep their id."""
    return ",".join(sorted(u.removeprefix("laws-2017-ja:") for u in unit_ids))


def padded(text: str, width: int) -> str:
    """Left-justified to `width` terminal columns (CJK characters take two)."""
    columns = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(width - columns, 0)


def print_report(outcomes: list[Outcome], misses_only: bool) -> None:
    print(
        f"{'lang':<5} {'queries':>7} {'recall@1':>9} {'recall@3':>9} {'recall@10':>10} {'MRR':>6}"
        f"   governing only: {'@1':>6} {'@3':>6} {'@10':>6}   governing law: {'@1':>6} {'@3':>6}"
    )
    langs = [lang for lang in LANGS if any(o.situation.lang == lang for o in outcomes)]
    for label, group in [(lang, [o for o in outcomes if o.situation.lang == lang]) for lang in langs] + [
        ("all", outcomes)
    ]:
        row = summary(group)
        print(
            f"{label:<5} {row['queries']:>7} {row['recall@1']:>9.3f} {row['recall@3']:>9.3f} "
            f"{row['recall@10']:>10.3f} {row['mrr']:>6.3f}   {'':16}{row['governing@1']:>6.3f} "
            f"{row['governing@3']:>6.3f} {row['governing@10']:>6.3f}   {'':15}{row['law@1']:>6.3f} {row['law@3']:>6.3f}"
        )
    print()
    print(
        f"rank = first result in a governing or acceptable unit; gov = first in a governing unit; law = first in a governing"
        f" unit's Law; '-' = not in the top {CUTOFF}"
    )
    print(f"{'lang':<5} {'rank':>4} {'gov':>4} {'law':>4}  {'governing':<28} {'first result':<34} query")
    for o in outcomes:
        if misses_only and o.rank == 1:
            continue
        rank = str(o.rank) if o.rank else "-"
        gov = str(o.governing_rank) if o.governing_rank else "-"
        law = str(o.law_rank) if o.law_rank else "-"
        print(
            f"{o.situation.lang:<5} {rank:>4} {gov:>4} {law:>4}  {short(o.situation.governing):<28} "
            f"{padded(short([o.top]), 34)} {o.situation.query}"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    parser.add_argument("--situations", type=Path, default=SITUATIONS_FILE)
    parser.add_argument("--lang", choices=LANGS, help="only the queries in this language")
    parser.add_argument("--part", choices=PARTS, default="all", help="all queries, or the dev or held-out part")
    parser.add_argument("--misses", action="store_true", help="list only the queries not answered at rank 1")
    parser.add_argument("--ranks", type=Path, help="write each query's rank to this JSON file")
    parser.add_argument("--against", type=Path, help="list the queries ranked worse and better than in this file")
    args = parser.parse_args(argv)
    if args.against and not args.against.is_file():  # found out before the queries run, not after
        parser.error(f"--against {args.against}: no such file (write one first with --ranks)")
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    ancestry = Ancestry(conn)
    situations = [s for s in load(args.situations) if args.lang in (None, s.lang) and in_part(s, args.part)]
    unknown = {u for s in situations for u in ancestry.missing(s.governing | s.acceptable)}
    if unknown:
        print(f"situations name units not in {args.db}: {sorted(unknown)}", file=sys.stderr)
        return 2
    outcomes = [evaluate(conn, s, ancestry) for s in situations]
    print_report(outcomes, args.misses)
    ranks = {rank_key(o.situation): o.rank for o in outcomes}
    if args.ranks:
        args.ranks.write_text(json.dumps(ranks, ensure_ascii=False, indent=0), encoding="utf-8")
    if args.against:
        before = json.loads(args.against.read_text(encoding="utf-8"))
        print_changes(before, ranks, args.against)
    return 0


def rank_key(situation: Situation) -> str:
    return f"{situation.lang}\t{situation.query}"


def print_changes(before: dict, after: dict, against: Path) -> None:
    """The queries ranked worse, then better, than in `before` (queries in one file only are left out)."""
    shared = {key: rank for key, rank in before.items() if key in after}
    lost = worse(shared, after)
    gained = worse({key: after[key] for key in shared}, shared)
    print(f"\nqueries ranked worse than in {against}: {len(lost)}")
    for key, was, now in lost:
        print(f"  {key.replace(chr(9), ' | ')}: {was} -> {now or '-'}")
    print(f"queries ranked better than in {against}: {len(gained)}")
    for key, now, was in gained:
        print(f"  {key.replace(chr(9), ' | ')}: {was or '-'} -> {now}")


if __name__ == "__main__":
    sys.exit(main())
