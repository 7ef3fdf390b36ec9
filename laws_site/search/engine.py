"""Full-text search over `sections`: what a director means, best first, snippets from the original text.

One function, `search_page`, serves the CLI, the web page and its JSON, so all three answer the same.

1. Citations. A query written as one or more citations (`64A1`, `20F5(b)(ii)`, `第16条B項1`,
   `第25条B款`, `Law 73`, `L62C3`, `24-5-1`, full-width or not; ingest/text/spelling.py) answers
   with the cited units - the current Laws first, then every other document holding the same ref -
   followed by the units that cite them. A citation no document holds (`61Z`) says so and names
   the nearest units; the words of the query are then searched as text.
2. Text. Otherwise the query runs as *branches* (a language and its tokens):
   - the query itself, tokenized as Japanese and as Chinese (or only the language asked for);
   - its glossary translations (ingest/search/glossary.py): `revoke` also runs as リボーク and 藏牌;
   - the director vocabulary (ingest/search/vocabulary.py): `LOOT` also runs as 順番外のリード and 越序引牌,
     and the units the vocabulary names for it gain a boost (the first named the most).
   Each branch ranks its FTS hits by bm25 (title weighted above text), normalised so its best hit
   scores 1; a unit whose title carries every word of the branch gains `TITLE_BOOST`; a unit the
   printed 索引 points to from an entry matching the query, or a definition the glossary names,
   gains up to `INDEX_WEIGHT`, and so do, through a 索引 "see" entry with exactly the branch's words
   (合意 -> see パートナー間の了解事項), the units the referred entry cites and those inside them whose
   title carries the words; a law, article, definition or section whose title is exactly what the
   branch searches for gains `NAMED_BOOST`. Translated branches count `GLOSSARY_WEIGHT` of the query's own.
   If no unit holds every token, the branch retries with any token (`match: "any"`).
3. A commentary's reprint of a law unit (`quote:61B`) found together with that unit is folded into
   the law's result (`reprints`); found alone it ranks at `REPRINT_WEIGHT`. In a sentence ranked by its
   coverage, a heading that a part ranked above it already shows follows the first `FIRST_SCREEN` results.
4. `total` counts every result; a page is `results[offset:offset + limit]`. Snippets are data,
   `[{text, mark}]` spans placed from the token offsets the build stored (table search_offsets):
   no result is tokenized again.

Where each step lives: query.py (limits, checks, messages), citations.py (1), plan.py and ranking.py
(2: branches, then bm25, boosts and tiers; fts.py reads the index; weights.py holds every weight),
ranking.fold_reprints (3), presentation.py and snippets.py (4).
"""

from __future__ import annotations

import sqlite3

from ingest.text import tokenize
from laws_site.search import alternatives as citation_alternatives
from laws_site.search import coverage
from laws_site.search.citations import citation_hits, cited_units
from laws_site.search.data import search_data
from laws_site.search.expansions import alternatives, corrections
from laws_site.search.plan import alternative_plan, make_plan
from laws_site.search.presentation import present, word_languages
from laws_site.search.query import FTS_OPERATORS, QueryError, check_filters, check_query, nothing_to_search
from laws_site.search.ranking import ranked_hits
from laws_site.search.weights import CURRENT_FIRST_INTERFACES

__all__ = ["QueryError", "prepare", "search", "search_data", "search_page"]


def search(
    conn: sqlite3.Connection,
    query: str,
    doc: str | None = None,
    lang: str | None = None,
    limit: int = 20,
    index_boost: bool = True,
    expand: bool = True,
    interface: str = "ja",
) -> list[dict]:
    """Best-first results of the first page (see `search_page`)."""
    return search_page(
        conn, query, doc=doc, lang=lang, limit=limit, index_boost=index_boost, expand=expand, interface=interface
    )["results"]


def search_page(
    conn: sqlite3.Connection,
    query: str,
    doc: str | None = None,
    lang: str | None = None,
    limit: int = 20,
    offset: int = 0,
    index_boost: bool = True,
    expand: bool = True,
    interface: str = "ja",
) -> dict:
    """{"query", "total", "offset", "limit", "results", "also_searched", "did_you_mean", "word_langs",
    "expansions", "exact", "citation"}; results are [{"doc","ref","id","kind","title","snippet",
    "score","law","lang","url","via","match","index","reprints","expansion","why"}]. `expand=False`
    searches exactly what was typed (no readings, romaji, sound, synonyms, variants or
    corrections). `interface`: the language the results are read in; in CURRENT_FIRST_INTERFACES the
    current law paired with a found 1997 unit ranks first (ranking.lift_current). Raises QueryError with a message for the person who typed it."""
    data = search_data(conn)
    query = check_query(query)
    check_filters(data, doc, lang, limit, offset)
    if all(word in FTS_OPERATORS for word in query.split()):
        raise QueryError(nothing_to_search(query))
    citation = cited_units(conn, data, query, doc, lang)
    if citation is not None:  # 27条 opens Law 27; the regulations' article 27 is offered beside it
        citation["alternatives"] = citation_alternatives.offered(conn, data, citation)
    also_searched: list[str] = []
    expansions: list[dict] = []
    plan = None
    if citation and citation["found"]:
        hits = citation_hits(conn, data, citation["units"], doc, lang)
    else:
        plan = make_plan(data, query, lang)
        if expand and not citation:
            plan.alternatives = [
                (alt, alternative_plan(data, alt, lang)) for alt in query_alternatives(data, query, lang)
            ]
        if (
            not plan.branches
            and not citation
            and not any(p.branches for _, p in plan.alternatives)
            and not (expand and corrections(data.expansions, query, lang))
        ):
            raise QueryError(nothing_to_search(query))
        # a citation nobody holds (61Z) is searched as text too, but only where all of it occurs
        plan.relaxed = citation is None
        ranking = ranked_hits(
            conn,
            data,
            plan,
            doc,
            lang,
            index_boost,
            corrected=expand and not citation,
            current_first=interface in CURRENT_FIRST_INTERFACES,
        )
        also_searched = plan.also_searched
        expansions = [
            {"kind": alt.kind, "text": alt.text, "found": ranking.found_by.get(alt.text, 0)}
            for alt, _ in plan.alternatives
        ]
    if citation and citation["found"]:
        total, page = len(hits), hits[offset : offset + limit]
    else:
        total, page = len(ranking), ranking.hits(offset, limit)
    also = [e["text"] for e in expansions if e["kind"] != "typo" and e["found"]]
    also_searched = list(dict.fromkeys(also_searched + also))
    did_you_mean = [e["text"] for e in expansions if e["kind"] == "typo" and e["found"]]
    return {
        "query": query,
        "total": total,
        "offset": offset,
        "limit": limit,
        "results": present(conn, data, page, query),
        "also_searched": also_searched,
        "did_you_mean": did_you_mean,
        "word_langs": word_languages(data, query, plan, also_searched + did_you_mean, cited=citation is not None),
        "expansions": [e for e in expansions if e["found"]],
        "exact": not expand,
        "citation": citation,
    }


def query_alternatives(data, query: str, lang: str | None) -> tuple:
    """What else the query may mean (expansions.alternatives: segmenting kana, romaji, sounds, the
    lexicon's cut for synonyms), worked out once per query and language for this database (the
    bounded memo): the same for every search of it, and a tenth of a Japanese query's planning."""
    return data.memo(("alternatives", query, lang), lambda: tuple(_alternatives(data, query, lang)))


def _alternatives(data, query: str, lang: str | None) -> list:
    found = alternatives(data.expansions, query, lang, data.ja_terms)
    if lang is None and not data.lexicon.reads_as_japanese(query):
        # a kanji no Japanese word holds means Chinese (plan.make_plan): its Japanese synonyms are noise
        # (「四家都pass了」 as 四家都パース了), and one finding anything put the sentence's units below it
        found = [alt for alt in found if alt.kind != "synonym"]
    return found


def prepare(conn: sqlite3.Connection) -> None:
    """What every search reads besides its query's rows, read now if not yet: the build's search
    data (once per database file, ~0.12 s) and the dictionaries. Bounded by the data, not by the
    query, so the server runs it outside the query's time limit (responses.read_here): on a busy
    machine the first search after a rebuild was cut short by it. So are the tables a sentence search
    makes from that data (the vocabulary's words as a query is cut: ~1.5 s on a busy machine): made
    inside the limit, the first Chinese or sentence search of a server, and the first after the memo
    was emptied (data.MAX_CACHED queries later), was a 400 "took too long"."""
    data = search_data(conn)
    coverage.vocabulary_named(data)
    coverage.situation_weights(data)
    tokenize.warm()
