"""Relevance of `laws_site.search.engine.search`: recall@1, @5, @10 and MRR per query group.

Judgements (qrels) come from two places:
- group `index`: the printed 索引 of laws-2017-ja, read from the database: every index entry with
  resolved locators is a query (`heading` or `heading sub-term`) whose relevant units are the units
  it cites (xrefs with source_id = the entry);
- benchmarks/qrels.yml: queries judged by hand, in groups (Japanese, spelling variants, Chinese,
  English, citations as typed, director vocabulary).

A result counts for a relevant unit if it is that unit or lies inside it (61B2 counts for 61): the
search page groups results by law, so a director who lands in 61B has found Law 61.
recall@k = share of a query's relevant units found in the top k; MRR = mean of 1/rank of the
first relevant result (0 if none in the top 10). Goals (issue 14): citations recall@1 = 100 %
(each names one unit, which must come first); vocabulary recall@5 and MRR >= 90 %; the other
groups no lower than before. Issue 24's groups (citations without 第, kana, romaji, typos,
loanwords, synonyms, Chinese variants): citations_no_dai recall@1 = 100 %, the others recall@5 >= 95 %.

Usage:
    python -m benchmarks.relevance --db laws.db [--no-index-boost] [--zh-segmenter jieba] [-v]
`--ranks FILE` writes each query's rank (the first relevant result, 1-10, or null) as JSON;
`--against FILE` (a file `--ranks` wrote before a change) lists every query whose rank got worse
(issue 36: no query of the existing groups may lose its rank).
`--no-index-boost` shows how much the 索引 group owes to the index boosting itself (circular:
the index both judges and ranks). `--zh-segmenter jieba` re-tokenizes the Chinese rows of a copy
of the database with jieba to compare it with character bigrams.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import yaml

from ingest.text import tokenize
from laws_site.search import engine as search_module

ROOT = Path(__file__).resolve().parent.parent

QRELS_FILE = ROOT / "benchmarks" / "qrels.yml"
CUTOFF = 10
RECALL_AT = (1, 5, 10)
GOALS = {
    "citations": {"recall@1": 1.0},
    "vocabulary": {"recall@5": 0.9, "mrr": 0.9},
    # issue 24: forgiving search
    "citations_no_dai": {"recall@1": 1.0},
    **{group: {"recall@5": 0.95} for group in ("kana", "romaji", "typo", "loanword", "synonym", "zh_variants")},
}


@dataclass
class Judgement:
    group: str
    query: str
    relevant: frozenset[str]  # unit ids
    lang: str | None = None
    doc: str | None = None


# ---------------------------------------------------------------- qrels


def index_qrels(conn: sqlite3.Connection) -> list[Judgement]:
    """One judgement per 索引 entry (of the current Laws) that cites at least one unit."""
    current = search_module.search_data(conn).registry.current_laws
    rows = conn.execute(
        """
        select s.ref, group_concat(x.target_id, char(31))
        from sections s join xrefs x on x.source_id = s.id
        where s.doc = ? and s.kind = 'index_entry' and x.target_id is not null and x.field = 'text'
        group by s.id order by s.position
    """,
        (current.id if current else None,),
    ).fetchall()
    judgements = []
    for ref, targets in rows:
        query = ref.removeprefix("index:").replace("/", " ")
        judgements.append(Judgement("index", query, frozenset(targets.split("\x1f"))))
    return judgements


def file_qrels(path: Path = QRELS_FILE) -> list[Judgement]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    judgements = []
    for group, entries in (data.get("groups") or {}).items():
        for entry in entries:
            judgements.append(
                Judgement(group, str(entry["query"]), frozenset(entry["relevant"]), entry.get("lang"), entry.get("doc"))
            )
    return judgements


# ---------------------------------------------------------------- scoring


class Ancestry:
    """Unit id -> the ids of the unit and all its ancestors, from sections.parent_id."""

    def __init__(self, conn: sqlite3.Connection):
        self.parent = dict(conn.execute("select id, parent_id from sections").fetchall())

    def lineage(self, unit_id: str) -> set[str]:
        seen = set()
        while unit_id and unit_id not in seen:
            seen.add(unit_id)
            unit_id = self.parent.get(unit_id)
        return seen

    def missing(self, ids) -> list[str]:
        return [i for i in ids if i not in self.parent]


def evaluate(conn, judgement: Judgement, ancestry: Ancestry, index_boost: bool) -> tuple[dict, float, list[str]]:
    """({k: recall@k}, reciprocal rank, result ids)."""
    results = search_module.search(
        conn, judgement.query, doc=judgement.doc, lang=judgement.lang, limit=CUTOFF, index_boost=index_boost
    )
    found: set[str] = set()
    first_rank = None
    recall = {}
    for rank, result in enumerate(results, start=1):
        hit = ancestry.lineage(result["id"]) & judgement.relevant
        if hit and first_rank is None:
            first_rank = rank
        found |= hit
        if rank in RECALL_AT:
            recall[rank] = len(found) / len(judgement.relevant)
    for k in RECALL_AT:
        recall.setdefault(k, len(found) / len(judgement.relevant))
    return recall, (1.0 / first_rank if first_rank else 0.0), [r["id"] for r in results]


def run(
    conn, judgements: list[Judgement], index_boost: bool = True, verbose: bool = False, ranks: dict | None = None
) -> dict:
    """{group: its figures}; `ranks`, if given, gets each query's rank (None: not in the top 10)."""
    ancestry = Ancestry(conn)
    per_group: dict[str, list[tuple[dict, float]]] = defaultdict(list)
    for judgement in judgements:
        unknown = ancestry.missing(judgement.relevant)
        if unknown:
            print(f"  qrels error: {judgement.query!r} names units not in the database: {unknown}")
        recall, reciprocal_rank, ids = evaluate(conn, judgement, ancestry, index_boost)
        per_group[judgement.group].append((recall, reciprocal_rank))
        if ranks is not None:
            ranks[rank_key(judgement)] = round(1 / reciprocal_rank) if reciprocal_rank else None
        if verbose and (recall[CUTOFF] < 1 or reciprocal_rank < 1):
            print(
                f"  [{judgement.group}] {judgement.query!r}: recall@10 {recall[CUTOFF]:.2f} rr {reciprocal_rank:.2f}"
                f"  want {sorted(judgement.relevant)}  got {ids}"
            )
    summary = {}
    for group, scores in per_group.items():
        row = {"queries": len(scores)}
        for k in RECALL_AT:
            row[f"recall@{k}"] = sum(recall[k] for recall, _ in scores) / len(scores)
        row["mrr"] = sum(m for _, m in scores) / len(scores)
        summary[group] = row
    return summary


def rank_key(judgement: Judgement) -> str:
    return f"{judgement.group}\t{judgement.query}\t{judgement.lang or ''}\t{judgement.doc or ''}"


def worse(before: dict, after: dict) -> list[tuple[str, int | None, int | None]]:
    """(query key, rank before, rank after) of each query ranked worse after than before."""
    lost = []
    for key, was in before.items():
        now = after.get(key)
        if was is not None and (now is None or now > was):
            lost.append((key, was, now))
    return lost


def goal_note(group: str, row: dict) -> str:
    goals = GOALS.get(group)
    if not goals:
        return ""
    met = all(row[metric] >= target for metric, target in goals.items())
    wanted = ", ".join(f"{metric} >= {target:.0%}" for metric, target in goals.items())
    return f"  goal {wanted}: {'met' if met else 'MISSED'}"


# ---------------------------------------------------------------- tokenizer comparison


def retokenized_copy(db_path: Path, segmenter: str) -> Path:
    """A copy of the database whose Chinese rows are tokenized with `segmenter`."""
    tokenize.ZH_SEGMENTER = segmenter
    copy = Path(tempfile.mkdtemp()) / "relevance.db"
    shutil.copy(db_path, copy)
    conn = sqlite3.connect(copy)
    rows = conn.execute("select id, title, text from sections where lang = 'zh'").fetchall()
    columns = [
        (i, tokenize.index_tokens_and_offsets(t, "zh"), tokenize.index_tokens_and_offsets(x, "zh")) for i, t, x in rows
    ]
    with conn:
        conn.executemany(
            "update sections set search_title = ?, search_text = ? where id = ?",
            [(title[0], text[0], i) for i, title, text in columns],
        )
        conn.executemany(
            "update search_offsets set title = ?, text = ? where id = ?",
            [(title[1], text[1], i) for i, title, text in columns],
        )
        conn.execute("insert into sections_fts(sections_fts) values ('rebuild')")
    conn.close()
    return copy


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    parser.add_argument("--qrels", type=Path, default=QRELS_FILE)
    parser.add_argument("--no-index-boost", action="store_true")
    parser.add_argument("--zh-segmenter", choices=["bigram", "jieba"], default="bigram")
    parser.add_argument("-v", "--verbose", action="store_true", help="show every query below 1.0")
    parser.add_argument("--ranks", type=Path, help="write each query's rank to this JSON file")
    parser.add_argument("--against", type=Path, help="list the queries ranked worse than in this --ranks file")
    args = parser.parse_args(argv)
    if args.against and not args.against.is_file():  # found out before the queries run, not after
        parser.error(f"--against {args.against}: no such file (write one first with --ranks)")
    db_path = args.db
    if args.zh_segmenter != tokenize.ZH_SEGMENTER:
        db_path = retokenized_copy(db_path, args.zh_segmenter)
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    judgements = index_qrels(conn) + file_qrels(args.qrels)
    ranks: dict = {}
    scores = run(conn, judgements, index_boost=not args.no_index_boost, verbose=args.verbose, ranks=ranks)
    print(
        f"{'group':<10} {'queries':>7} {'recall@1':>9} {'recall@5':>9} {'recall@10':>10} {'MRR':>6}   "
        f"(index boost {'off' if args.no_index_boost else 'on'}, zh {args.zh_segmenter})"
    )
    for group, row in scores.items():
        print(
            f"{group:<10} {row['queries']:>7} {row['recall@1']:>9.3f} {row['recall@5']:>9.3f} "
            f"{row['recall@10']:>10.3f} {row['mrr']:>6.3f}{goal_note(group, row)}"
        )
    if args.ranks:
        args.ranks.write_text(json.dumps(ranks, ensure_ascii=False, indent=0), encoding="utf-8")
    if args.against:
        lost = worse(json.loads(args.against.read_text(encoding="utf-8")), ranks)
        print(f"queries ranked worse than in {args.against}: {len(lost)}")
        for key, was, now in lost:
            print(f"  {key.replace(chr(9), ' | ')}: {was} -> {now or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
