"""The 索引 entries a search result lists come in the order of the query's words, in every process (they
followed a set's order, which changes with Python's hash seed: 300 of 15,348 answers differed between two
runs of the same code) and as the offline engine lists them (offline-search-ranking.js indexBoosts)."""

from __future__ import annotations

import sqlite3

import pytest

from laws_site.search import engine, fts


@pytest.fixture(scope="module")
def data(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield engine.search_data(connection)
    connection.close()


def walked_in_order(data, terms: list[str]) -> list[str]:
    """The refs of the entries each word names, word by word, each entry once (what offline does)."""
    seen, refs = set(), []
    for term in terms:
        for entry in data.index_by_term.get(term, []):
            if id(entry) not in seen:
                seen.add(id(entry))
                refs.append(entry.ref)
    return refs


def two_entries_of_one_unit(data):
    """Two small 索引 entries citing the same unit: a query of both their words lists both for it."""
    entries = {id(e): e for found in data.index_by_term.values() for e in found}.values()
    by_target: dict[str, list] = {}
    for entry in sorted(entries, key=lambda e: e.ref):
        if 1 <= len(entry.terms) <= 2:
            for target in entry.targets:
                by_target.setdefault(target, []).append(entry)
    return next(
        (t, found[:2])
        for t, found in sorted(by_target.items())
        if len(found) >= 2 and not found[0].terms & found[1].terms
    )


def test_index_entries_come_in_the_order_of_the_query_words(data):
    target, (first, second) = two_entries_of_one_unit(data)
    for order in (sorted(first.terms) + sorted(second.terms), sorted(second.terms) + sorted(first.terms)):
        walked = walked_in_order(data, order)
        assert [e.ref for e in data.index_entries_with(order)] == walked
        refs = fts.index_boosts(data, order)[target][1]
        assert {first.ref, second.ref} <= set(refs)
        assert refs == sorted(refs, key=walked.index)
