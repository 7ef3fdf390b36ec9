"""Offline search answers as the server does (issue 33, item 2): the same top-5 results, each found
for the same reason (issue 36 item 3: the words it holds, through which expansion), with the same
words marked in its snippet, or the same refusal, for every query of benchmarks/qrels.yml and benchmarks/situations.yml and every query the
forgiving and citation tests type. The offline engine (static/offline-search*.js) runs in Node on
the search pack of this session's build (laws_site/offline/search_data.py), one Node process for
the module, the queries sent in batches; the server's answers come from search_page itself.

Fast tier: no browser. The queries are split into batches so that each test stays well under 2 s.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
import yaml

from laws_site.offline.search_scripts import script_paths
from laws_site.search import engine as searching
from laws_site.search.citations import cited_units
from laws_site.search.data import search_data

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "node" / "offline_search.js"
NODE = shutil.which("node")
TOP = 5
BATCH = 15
# the tests whose queries are compared (what they type into search: see typed_queries)
TYPING_TESTS = (
    "test_search_forgiving.py",
    "test_offline_forgiving.py",
    "test_search_citations.py",
    "test_search_why.py",
    "test_search_situations_english.py",
    "test_search_translation.py",
    "test_search_situations_table_words.py",  # what is told as at the table, full width included (１ＮＴと言った)
)
# calls whose first string argument is a query typed into a search box
TYPED_BY = {"search_page", "search", "split_citations", "citation_candidates", "quote"}
# parametrize argument names that are queries
QUERY_PARAMETERS = {"typed", "query", "queries"}


def judged_queries() -> list[tuple[str, dict]]:
    groups = yaml.safe_load((ROOT / "benchmarks" / "qrels.yml").read_text(encoding="utf-8"))["groups"]
    found = [(j["query"], {"lang": j.get("lang"), "doc": j.get("doc")}) for js in groups.values() for j in js]
    situations = yaml.safe_load((ROOT / "benchmarks" / "situations.yml").read_text(encoding="utf-8"))["situations"]
    # each situation in its language's interface (/zh/, /en/: the current law paired with a 1997 unit first)
    found += [(entry["query"], {"interface": lang}) for lang, entries in situations.items() for entry in entries]
    return found


def typed_queries(path: Path) -> list[str]:
    """The strings a test module types into search: the first argument of search_page, search,
    split_citations, citation_candidates and quote; the first value of each case of a parametrize
    whose first name is typed/query (a module-level list named there included); lists assigned to
    a name `queries`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lists = {
        node.targets[0].id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "queries" for t in node.targets):
                found += _strings(node.value)
            continue
        name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
        if name in TYPED_BY:
            strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            found += strings[:1]
        elif name == "parametrize" and len(node.args) >= 2 and isinstance(node.args[0], ast.Constant):
            if node.args[0].value.split(",")[0].strip() in QUERY_PARAMETERS:
                cases = node.args[1]
                cases = lists.get(cases.id, cases) if isinstance(cases, ast.Name) else cases
                for case in getattr(cases, "elts", []):
                    found += _strings(case.elts[0] if isinstance(case, ast.Tuple) else case)
    return found


def _strings(node) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    return [s for element in getattr(node, "elts", []) for s in _strings(element)]


def all_queries() -> list[tuple[str, dict]]:
    found = judged_queries()
    for name in TYPING_TESTS:
        found += [(query, {}) for query in typed_queries(ROOT / "tests" / name)]
    unique = {json.dumps(q, ensure_ascii=False, sort_keys=True): q for q in found}
    return list(unique.values())


QUERIES = all_queries()
BATCHES = [QUERIES[i : i + BATCH] for i in range(0, len(QUERIES), BATCH)]


@pytest.fixture(scope="module")
def conn(laws_db_path):
    connection = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    yield connection
    connection.close()


@pytest.fixture(scope="module")
def offline(search_pack_file):
    """The offline engine in one Node process on this build's search pack: ask(batch) -> answers."""
    assert NODE, "node is not installed (the parity check runs the offline search in Node)"

    pack = search_pack_file
    process = subprocess.Popen(
        [NODE, str(RUNNER), str(pack), *map(str, script_paths())],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )

    def ask(batch: list[tuple[str, dict]]) -> list[dict]:
        asked = [[query, {**options, "limit": TOP}] for query, options in batch]
        process.stdin.write(json.dumps(asked, ensure_ascii=False) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        assert line, "the offline engine stopped (see its error above)"
        return json.loads(line)

    yield ask
    process.stdin.close()
    process.wait(timeout=10)


def top_results(answer: dict) -> list[tuple] | str:
    """The top results' ids, why each was found (laws_site/search/why.py) and the words its snippet
    marks, or the refusal's message."""
    if "error" in answer:
        return "refused: " + answer["error"]
    return [
        (result["id"], result["why"], [part["text"] for part in result["snippet"] if part["mark"]])
        for result in answer["results"]
    ]


def server_answer(conn, query: str, options: dict) -> dict:
    try:
        return searching.search_page(
            conn,
            query,
            doc=options.get("doc"),
            lang=options.get("lang"),
            limit=TOP,
            interface=options.get("interface", "ja"),
        )
    except searching.QueryError as error:
        return {"error": str(error)}


def test_the_compared_queries_are_all_there():
    """Every judged query, and the queries of every test that types into search."""
    assert len(judged_queries()) == 265 + 391
    for name in TYPING_TESTS:
        assert len(typed_queries(ROOT / "tests" / name)) > 5, name
    assert "夢家的權利" in {q for q, _ in QUERIES} and "第 16 条 B 項 1" in {q for q, _ in QUERIES}


@pytest.mark.parametrize("batch", BATCHES, ids=[f"{i * BATCH + 1}-{i * BATCH + len(b)}" for i, b in enumerate(BATCHES)])
def test_offline_top_results_and_their_reasons_are_the_servers(conn, offline, batch):
    server = [top_results(server_answer(conn, query, options)) for query, options in batch]
    phone = [top_results(answer) for answer in offline(batch)]
    differing = [(query, s, p) for (query, _), s, p in zip(batch, server, phone) if s != p]
    assert not differing, "\n".join(f"{q}\n  server:  {s}\n  offline: {p}" for q, s, p in differing)


def test_every_label_a_regulation_prints_is_read_alike_offline(conn, offline):
    """The regulations' labels typed as citations (tests/test_search_citations.py): the same units offline."""
    from tests.test_search_citations import regulation_labels

    labels = [label for label, _unit in regulation_labels(conn)]
    differing = []
    for start in range(0, len(labels), BATCH):
        batch = [(label, {}) for label in labels[start : start + BATCH]]
        for (label, _), phone in zip(batch, offline(batch)):
            server = (server_answer(conn, label, {}).get("citation") or {}).get("units")
            if server != (phone.get("citation") or {}).get("units"):
                differing.append((label, server, phone.get("citation")))
    assert not differing, differing[:10]


# the units typed as citations: their labels in every interface language, and their refs as written
ISSUES_EXAMPLES = ("61Z", "第99条", "24-9", "付表9", "L99Z", "第61条Z項", "Law 61Z")
PER_DOCUMENT = 25  # spellings tried per document (fast tier)
CITED_KINDS = ("law", "section", "item", "subitem", "subsubitem", "article", "paragraph", "appendix", "note")
LAST_NUMBER = re.compile(r"[0-9]+(?=[^0-9]*$)")
LAST_LETTER = re.compile(r"[A-Z](?=[^A-Z]*$)")
FULL_WIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}  # what a Japanese keyboard types: ６１Ｚ


def citations_naming_nothing(conn) -> list[tuple[str, dict]]:
    """Units' labels (第61条B項, Law 61B, 付表1, 注釈 L61A) and refs, with the last number made 99 or the
    last capital letter Z (第61条B項99, Law 61Z, 付表99, L99A), as typed, in full width and in lower case,
    searched in all documents (and as typed, in the unit's own): those the server reads as a citation no
    unit holds. Spread over each document's units, PER_DOCUMENT spellings of each (all of them: ~7,200
    citations as typed, 10 s)."""
    rows = conn.execute(
        f"select s.doc, s.ref, l.labels from sections s join search_labels l on l.id = s.id "
        f"where s.kind in ({', '.join('?' * len(CITED_KINDS))}) order by s.rowid",
        CITED_KINDS,
    )
    typed: dict[str, dict[str, None]] = {}
    for doc, ref, labels in rows:
        for spelling in [ref, *json.loads(labels).values()]:
            for changed in (LAST_NUMBER.sub("99", spelling), LAST_LETTER.sub("Z", spelling)):
                typed.setdefault(doc, {})[changed] = None
    tried = [(typed, {}) for typed in ISSUES_EXAMPLES]
    for doc, spellings in typed.items():
        for changed in list(spellings)[:: max(1, len(spellings) // PER_DOCUMENT)]:
            tried += [(changed, {"doc": doc})] + [
                (form, {}) for form in {changed, changed.translate(FULL_WIDTH), changed.lower()}
            ]
    data = search_data(conn)
    return [(query, options) for query, options in tried if said_to(conn, data, query, options) is not None]


def said_to(conn, data, query: str, options: dict) -> tuple[list[str], str] | None:
    """For a citation no unit holds, the server's nearest units and what it says; else None."""
    citation = cited_units(conn, data, query, options.get("doc"), None)
    return None if not citation or citation["found"] else ([u["id"] for u in citation["nearest"]], citation["message"])


@pytest.fixture(scope="module")
def unheld(conn):
    return citations_naming_nothing(conn)


def test_a_citation_no_unit_holds_is_offered_the_same_units_offline(conn, offline, unheld):
    """issue 33: 61Z, 第99条, 24-9, 付表9, L99Z offline offer the units the server offers, in its order,
    and say the same."""
    assert len(unheld) > 300
    assert {options["doc"] for _, options in unheld if options} == {
        "laws-2017-ja",
        "laws-1997-zh",
        "jcbl-regs-ja",
        "revoke-notes-ja",
        "out-of-turn-notes-ja",
    }
    queries = {query for query, _ in unheld}
    assert any(any("\uff01" <= c <= "\uff5e" for c in q) for q in queries) and any(q.islower() for q in queries)
    data = search_data(conn)
    differing = []
    for start in range(0, len(unheld), BATCH * 4):
        batch = unheld[start : start + BATCH * 4]
        for (query, options), phone in zip(batch, offline(batch)):
            citation = phone.get("citation") or {}
            offline_said = ([u["id"] for u in citation.get("nearest", [])], (citation.get("message") or {}).get("text"))
            if said_to(conn, data, query, options) != offline_said:
                differing.append((query, options, said_to(conn, data, query, options), offline_said))
    assert not differing, differing[:10]
