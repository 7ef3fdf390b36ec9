"""The FTS index and the printed 索引 as one search reads them: each MATCH run once, its rows kept for
the search (not from one request to the next), the 索引 entries sharing the query's words."""

from __future__ import annotations

import sqlite3

from laws_site.i18n.message import message as message_by_id
from laws_site.search.data import SearchData
from laws_site.search.query import QueryError
from laws_site.search.weights import TEXT_WEIGHT, TITLE_WEIGHT

FTS_SQL = (
    f"select rowid, -bm25(sections_fts, {TITLE_WEIGHT}, {TEXT_WEIGHT}) from sections_fts where sections_fts match ?"
)
ROWIDS_SQL = "select rowid from sections_fts where sections_fts match ?"


class OneSearch:
    """What one search would otherwise work out more than once, each worked out once: the rows of
    an FTS MATCH (a query and its reading both fold to リボク, two branches share a translation
    (藏牌), a relaxed retry repeats a one-word branch: a fifth of a search's FTS rows were read
    twice or more). Made per search and dropped with it: no row is kept from one request to the next.
    The 索引 boosts of a branch's words depend on the words alone: kept in a bounded memo (memo_large)."""

    def __init__(self, conn):
        self.conn = conn
        self.read: dict[str, list[tuple]] = {}
        self.matched: dict[str, list[int]] = {}
        # a sentence branch's coverage (coverage.branch_coverage), read by its hits and again by ranking
        self.covered: dict[tuple[int, str | None], tuple] = {}

    def rows(self, match: str) -> list[tuple]:
        found = self.read.get(match)
        if found is None:
            found = self.read[match] = _run_fts(self.conn, FTS_SQL, match)
        return found

    def rowids(self, match: str) -> list[int]:
        """The rowids matching, without their bm25 (what a sentence's coverage asks per word)."""
        found = self.matched.get(match)
        if found is None:
            found = self.matched[match] = [row[0] for row in _run_fts(self.conn, ROWIDS_SQL, match)]
        return found

    def index_boosts(
        self, data: SearchData, terms: list[str], whole: bool = False
    ) -> dict[str, tuple[float, list[str]]]:
        """index_boosts(data, terms, whole), once per set of words for this database (a bounded memo,
        memo_large: it depends on the 索引 alone); its answer is only read (run_branch copies what it keeps)."""
        return data.memo_large(("index_boosts", tuple(terms), whole), lambda: index_boosts(data, terms, whole))


def fts_rows(
    fts: OneSearch, data: SearchData, match: str | None, lang: str, doc: str | None
) -> list[tuple[int, float]]:
    """(rowid, bm25 score) of the units of this language (and document) matching, navigation
    rows left out; read straight from the FTS table, the units' fields come from memory."""
    if not match:
        return []
    rows = fts.rows(match)
    searchable = data.searchable.get(lang, frozenset())
    if doc is None:
        return [row for row in rows if row[0] in searchable]
    units = data.units
    return [row for row in rows if row[0] in searchable and units[row[0]][1] == doc]


def _run_fts(conn, sql: str, match: str) -> list[tuple]:
    """(rowid, score) rows as plain tuples: numbers only, which the connection's result budget
    (limits.budgeted_row counts text and blob lengths) would count as 0 after making a sqlite3.Row
    of each - a third of a search's time on a few hundred rows. The time limit stays the connection's."""
    cursor = conn.cursor()
    cursor.row_factory = None
    try:
        return cursor.execute(sql, (match,)).fetchall()
    except sqlite3.OperationalError as error:
        # quoting makes this unreachable for any input we know of; a message beats a 500
        raise QueryError(
            message_by_id("This query could not be searched (%(error)s); try fewer symbols.", error=str(error))
        ) from error


def index_boosts(data: SearchData, terms: list[str], whole: bool = False) -> dict[str, tuple[float, list[str]]]:
    """{unit id: (boost, index refs)} for units cited by 索引 entries that contain the query or that
    the query contains (`whole`: only entries containing the query); the boost is the share of
    tokens the two have in common (1 = same words)."""
    query = frozenset(terms)
    boosts: dict[str, tuple[float, list[str]]] = {}
    # entries in the order of the query's words, as offline (a set's order changes with the hash seed)
    for entry in data.index_entries_with(terms):
        # one holds the other, so the words in common are the smaller set's (no intersection made)
        if query <= entry.terms:
            common = len(query)
        elif entry.terms <= query and not whole:
            common = len(entry.terms)
        else:
            continue
        if not common:
            continue
        boost = common / max(len(query), len(entry.terms))
        for target in entry.targets:
            best, refs = boosts.get(target, (0.0, []))
            boosts[target] = (max(best, boost), refs + [entry.ref])
    return boosts
