"""Full-text search over `sections`: ranked by bm25 (title above text), snippets from the original text.

One function serves the CLI, the web page and its JSON, so all three answer the same.
"""
from __future__ import annotations

import html
import sqlite3
from dataclasses import dataclass

from . import tokenize

TITLE_WEIGHT = 5.0
TEXT_WEIGHT = 1.0
SNIPPET_CHARS = 120
MAX_QUERY_CHARS = 500
# Navigation rows repeat titles found elsewhere; they point to units rather than answer a query.
NAVIGATION_KINDS = ("toc", "toc_entry", "index", "index_row", "index_entry")


class QueryError(ValueError):
    """A query we cannot run, with a message meant for the person who typed it."""


@dataclass
class Hit:
    id: str
    doc: str
    ref: str
    kind: str
    title: str | None
    text: str
    lang: str
    score: float

    def as_dict(self, terms: list[str]) -> dict:
        return {
            "doc": self.doc,
            "ref": self.ref,
            "id": self.id,
            "kind": self.kind,
            "title": self.title,
            "snippet": snippet(self.text or self.title or "", terms, self.lang),
            "score": round(self.score, 4),
        }


def search(conn: sqlite3.Connection, query: str, doc: str | None = None, lang: str | None = None,
           limit: int = 20) -> list[dict]:
    """Best-first results: [{"doc","ref","id","kind","title","snippet","score"}]."""
    query = (query or "").replace("\x00", " ").strip()
    if not query:
        raise QueryError("Type a word to search for, e.g. リボーク or 藏牌.")
    if len(query) > MAX_QUERY_CHARS:
        query = query[:MAX_QUERY_CHARS]
    hits: dict[str, tuple[Hit, list[str]]] = {}
    for hit_lang in ([lang] if lang else ["ja", "zh"]):
        terms = tokenize.query_terms(query, hit_lang)
        for hit in _run(conn, terms, hit_lang, doc, limit):
            if hit.id not in hits or hit.score > hits[hit.id][0].score:
                hits[hit.id] = (hit, terms)
    ranked = sorted(hits.values(), key=lambda pair: -pair[0].score)[:limit]
    return [hit.as_dict(terms) for hit, terms in ranked]


def _run(conn, terms: list[str], lang: str, doc: str | None, limit: int) -> list[Hit]:
    match = tokenize.fts_match(terms)
    if not match:
        return []
    sql = f"""
        select s.id, s.doc, s.ref, s.kind, s.title, s.text, s.lang,
               -bm25(sections_fts, {TITLE_WEIGHT}, {TEXT_WEIGHT}) as score
        from sections_fts join sections s on s.rowid = sections_fts.rowid
        where sections_fts match :match and s.lang = :lang
          and (:doc is null or s.doc = :doc)
          and s.kind not in ({", ".join("'" + k + "'" for k in NAVIGATION_KINDS)})
        order by score desc limit :limit
    """
    rows = conn.execute(sql, {"match": match, "lang": lang, "doc": doc, "limit": limit}).fetchall()
    return [Hit(*row) for row in rows]


def snippet(text: str, terms: list[str], lang: str) -> str:
    """HTML: a window of the original text around the first match, matches in <mark>, all escaped."""
    spans = match_spans(text, terms, lang)
    if spans:
        first = spans[0][0]
        start = max(0, first - SNIPPET_CHARS // 3)
    else:
        start = 0
    end = min(len(text), start + SNIPPET_CHARS)
    out, cursor = [], start
    for begin, finish in spans:
        if begin < cursor or finish > end:
            continue
        out.append(html.escape(text[cursor:begin]))
        out.append(f"<mark>{html.escape(text[begin:finish])}</mark>")
        cursor = finish
    out.append(html.escape(text[cursor:end]))
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + "".join(out).replace("\n", " ") + suffix


def match_spans(text: str, terms: list[str], lang: str) -> list[tuple[int, int]]:
    wanted = set(terms)
    if lang == "zh":
        tokens = tokenize.chinese_tokens(text)
    else:
        tokens = tokenize.japanese_tokens(text)
    spans = sorted({(t.begin, t.end) for t in tokens if t.norm in wanted})
    merged: list[tuple[int, int]] = []
    for begin, end in spans:
        if merged and begin < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((begin, end))
    return merged
