"""What search keeps between searches to spend less CPU (issue 36: latency within 1.2x) gives the answers
it gave when worked out afresh, and stays bounded. Not timed: benchmarks/search_cpu.py and
benchmarks/search_load.py measure; benchmarks/search_answers.py compares every answer with another
checkout's."""

from __future__ import annotations

import sqlite3

import pytest

from laws_site.search import data as search_data_module
from laws_site.search import engine, plan
from laws_site.search.expansions import Alternative
from laws_site.search.ranking import _title_carriers

# the load's kinds of query: words, a katakana compound, kana and romaji readings, a typo, Chinese,
# English, citations, a document named before a citation, sentences (coverage) in three languages
QUERIES = [
    "リボーク",
    "ペナルティ・カード",
    "じゅんばんがいのりーど",
    "ribooku",
    "revoek",
    "藏牌的确定",
    "不合规定的叫品",
    "claim",
    "27条",
    "運営規則27条",
    "61Z",
    "ダミーがディクレアラーの間違ったハンドからのリードを止めようとした",
    "防家打错了牌但是没有发现",
    "a defender led out of turn and declarer wants to accept it",
]


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield connection
    connection.close()


INTERFACES = ("ja", "zh", "en")


def one_interface_each() -> list:
    """Each query in one interface, turn about (the fast tier); the full tier asks the other two."""
    fast, full = [], []
    for number, query in enumerate(QUERIES):
        for offset, interface in enumerate(INTERFACES[number % 3 :] + INTERFACES[: number % 3]):
            (fast if offset == 0 else full).append(
                pytest.param(query, interface, marks=[pytest.mark.slow] if offset else [])
            )
    return fast + full


def answer(conn, query: str, interface: str):
    try:
        return engine.search_page(conn, query, interface=interface)
    except engine.QueryError as error:
        return str(error)


@pytest.mark.parametrize("query, interface", one_interface_each())
def test_what_is_kept_between_searches_answers_as_when_worked_out_afresh(conn, monkeypatch, query, interface):
    """Each query's alternatives, citations and 索引 boosts (the bounded memo) and each unit's
    presented fields are kept: a search that finds them kept answers exactly as a search that works
    everything out (the memo bypassed, nothing kept per unit), so no key leaves out what an answer
    depends on and nothing kept is changed by a search that reads it."""
    data = engine.search_data(conn)
    with monkeypatch.context() as afresh_only:
        afresh_only.setattr(search_data_module.SearchData, "memo", lambda self, key, compute: compute())
        afresh_only.setattr(search_data_module.SearchData, "memo_large", lambda self, key, compute: compute())
        afresh_only.setattr(search_data_module.SearchData, "snippet_memo", lambda self, key, compute: compute())
        afresh_only.setattr(data, "presented", {})
        afresh_only.setattr(data, "links", {})
        afresh = answer(conn, query, interface)
    data._lookups.clear()
    data._large_lookups.clear()
    data._snippets.clear()
    data.presented.clear()
    data.links.clear()
    first = answer(conn, query, interface)
    assert data._lookups or data._large_lookups  # the second search reads what the first kept
    assert first == afresh
    assert answer(conn, query, interface) == afresh


def test_every_kind_of_memo_is_kept_by_the_queries_above(conn):
    """The queries above reach each memo the test above bypasses (else it would compare nothing)."""
    data = engine.search_data(conn)
    data._lookups.clear()
    data._large_lookups.clear()
    for number, query in enumerate(QUERIES):
        answer(conn, query, INTERFACES[number % 3])
    assert data.presented and data.links
    assert any(key[0] == "alternatives" for key in data._lookups)
    assert any(key[0] == "index_boosts" for key in data._large_lookups)
    assert any(key[0] == "plan" for key in data._lookups)
    assert any(key[0] == "alternative plan" for key in data._lookups)
    assert any(key[0] == "spoken language" for key in data._lookups)
    assert data._snippets


def test_a_query_is_planned_once_and_each_search_has_a_plan_of_its_own(conn):
    """make_plan plans a query once per database (the memo) and gives each search its own Plan over the
    same branches: what a search adds to its plan (alternatives, corrections) stays its own; an
    alternative's branches, which say which alternative they search for, are not the query's."""
    data = engine.search_data(conn)
    data._lookups.clear()
    first = plan.make_plan(data, "リボーク", None)
    first.alternatives.append(("added by a search", None))
    first.relaxed = False
    second = plan.make_plan(data, "リボーク", None)
    assert second is not first and second.alternatives == [] and second.relaxed
    assert [id(branch) for branch in second.branches] == [id(branch) for branch in first.branches]
    reading = Alternative("reading", "リボーク", "ja")
    assert all(branch.expansion == "reading" for branch in plan.alternative_plan(data, reading, None).branches)
    assert all(branch.expansion is None for branch in plan.make_plan(data, "リボーク", None).branches)


def test_what_is_kept_is_bounded(conn, monkeypatch):
    """The memos empty past MAX_CACHED and MAX_LARGE_CACHED keys whatever the queries; the per-unit
    fields hold units only."""
    data = engine.search_data(conn)
    monkeypatch.setattr(search_data_module, "MAX_CACHED", 15)
    monkeypatch.setattr(search_data_module, "MAX_LARGE_CACHED", 6)
    monkeypatch.setattr(search_data_module, "MAX_SNIPPETS", 30)
    for store in (data._lookups, data._large_lookups, data._snippets):
        store.clear()
    for number in range(12):  # 5 keys and 2 large ones a search: each memo empties more than once
        engine.search_page(conn, f"ダミー {number} カード")
        assert len(data._lookups) <= 16 and len(data._large_lookups) <= 7
    kept = []
    for query in ("ダミー", "リボーク", "クレーム", "プレイヤー", "明手"):  # 20 snippets each
        engine.search_page(conn, query)
        kept.append(len(data._snippets))
    assert max(kept) <= 31 and kept != sorted(kept)  # bounded, and emptied on the way
    assert set(data.presented) <= set(data.rowids)
    assert set(data.links) <= set(data.rowids)


def test_titles_holding_is_every_title_holding_the_words(conn):
    """The index of title words (made once per database) finds what a scan of every title finds."""
    data = engine.search_data(conn)
    words = sorted(data.titled)
    assert len(words) > 1000
    for word in words:
        assert data.titles_holding(frozenset([word])) == {r for r, t in data.title_words.items() if word in t}
    for first, second in [("ダミ", "権利"), ("リボク", "訂正"), ("カド", "ペナルテ"), ("罚张", "处理")]:
        pair = frozenset([first, second])
        assert data.titles_holding(pair) == {r for r, t in data.title_words.items() if pair <= t}
        assert data.titles_holding(pair)  # pairs a title does hold


@pytest.mark.parametrize(
    "query", ["ダミー", "ペナルティ・カード", "オープニング・リード", "ダミーの権利", "罚张", "調整スコア"]
)
def test_title_carriers_are_the_hits_whose_title_carries_the_branch(conn, query):
    """ranking._title_carriers (the title index, or a phrase's clauses row by row) picks exactly the
    hits Branch.title_carried_by picks, over every unit."""
    data = engine.search_data(conn)
    everything = {rowid: [] for rowid in data.units}
    for lang in ("ja", "zh"):
        branch = plan.make_branch(data, query, lang)
        expected = {r for r in everything if branch.title_carried_by(data.title_words.get(r))}
        assert set(_title_carriers(data, branch, everything)) == expected
