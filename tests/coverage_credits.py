"""The credit each content word of a Japanese sentence earns each unit (laws_site/search/coverage.py), by unit id:
what the situation-ranking tests read to say why a unit rises or falls."""

from __future__ import annotations

from laws_site.search import coverage
from laws_site.search.data import search_data
from laws_site.search.fts import OneSearch
from laws_site.search.plan import make_plan


def credits_of(conn, query: str) -> tuple[list[str], dict[str, dict[int, float]]]:
    """The content words of the query's sentence and, per unit id, the credit each word (by its place) earns it."""
    data = search_data(conn)
    branch = make_plan(data, query, None).branches[0]
    found = coverage.covered_words(OneSearch(conn), data, branch.clauses, "ja", None)
    words = [clause[0] for clause in coverage.content_clauses(data, branch.clauses)]
    units = {rowid: unit for unit, rowid in data.rowids.items()}
    return words, {units[rowid]: credits for rowid, credits in found.credits.items()}
