"""The judged set of situation queries (benchmarks/situations.yml, issue 36): well-formed, large
enough per language, every judged unit in the built database, no query twice.

`shape_problems` reads the file alone; the database checks use the session's laws.db (conftest).
Each check is also run on a broken copy, so a test here fails when the file goes wrong.
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata
from pathlib import Path

import pytest
import yaml

SITUATIONS_FILE = Path(__file__).resolve().parent.parent / "benchmarks" / "situations.yml"
MINIMUM = {"ja": 50, "zh": 15, "en": 15}
FIELDS = {"query", "lang", "governing", "acceptable", "why"}
GOVERNING_DOC = "laws-2017-ja"  # the current Laws decide, whatever the query's language
ACCEPTABLE_DOCS = {"ja": {"laws-2017-ja"}, "en": {"laws-2017-ja"}, "zh": {"laws-2017-ja", "laws-1997-zh"}}

KANA = re.compile(r"[\u3041-\u30ff\uff66-\uff9f]")
HAN = re.compile(r"[\u3400-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")


def load(path: Path = SITUATIONS_FILE) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def entries(data: dict):
    for group, items in (data.get("situations") or {}).items():
        for index, entry in enumerate(items or []):
            yield group, index, entry


def normalised(query: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", query).casefold().split())


def script_problem(lang: str, query: str) -> str | None:
    """A query written in another script than its language says (a ja query without kana, ...)."""
    if lang == "ja" and not KANA.search(query):
        return "a ja query has no kana"
    if lang == "zh" and (KANA.search(query) or not HAN.search(query)):
        return "a zh query must be Chinese characters without kana"
    if lang == "en" and (HAN.search(query) or KANA.search(query) or not LATIN.search(query)):
        return "an en query must be English, without CJK characters"
    return None


def shape_problems(data: dict) -> list[str]:
    problems = []
    if not isinstance(data, dict) or set(data) != {"situations"}:
        return ["the file must have exactly one top-level key, situations"]
    groups = data["situations"]
    if not isinstance(groups, dict) or set(groups) != set(MINIMUM):
        return [f"situations must group queries by language: {sorted(MINIMUM)}"]
    seen: dict[str, str] = {}
    for group, index, entry in entries(data):
        where = f"{group}[{index}]"
        if not isinstance(entry, dict) or set(entry) != FIELDS:
            problems.append(f"{where}: fields must be {sorted(FIELDS)}")
            continue
        query, lang = entry["query"], entry["lang"]
        if not isinstance(query, str) or not query.strip():
            problems.append(f"{where}: empty query")
            continue
        where = f"{where} {query!r}"
        if lang != group:
            problems.append(f"{where}: lang {lang!r} in group {group!r}")
        elif problem := script_problem(lang, query):
            problems.append(f"{where}: {problem}")
        key = normalised(query)
        if key in seen:
            problems.append(f"{where}: duplicate of {seen[key]}")
        seen.setdefault(key, where)
        governing, acceptable = entry["governing"], entry["acceptable"]
        if not (isinstance(governing, list) and governing and all(isinstance(i, str) for i in governing)):
            problems.append(f"{where}: governing must be a non-empty list of unit ids")
            continue
        if not (isinstance(acceptable, list) and all(isinstance(i, str) for i in acceptable)):
            problems.append(f"{where}: acceptable must be a list of unit ids")
            continue
        if len(set(governing + acceptable)) != len(governing + acceptable):
            problems.append(f"{where}: a unit is listed twice")
        for unit in governing:
            if not unit.startswith(GOVERNING_DOC + ":"):
                problems.append(f"{where}: governing {unit} is not a unit of {GOVERNING_DOC}")
        for unit in acceptable:
            if unit.split(":", 1)[0] not in ACCEPTABLE_DOCS.get(group, set()):
                problems.append(f"{where}: acceptable {unit} is from a document not judged for {group}")
        if not isinstance(entry["why"], str) or not entry["why"].strip():
            problems.append(f"{where}: no why")
    return problems


def count_problems(data: dict) -> list[str]:
    counts = {group: len(items or []) for group, items in (data.get("situations") or {}).items()}
    return [
        f"{group}: {counts.get(group, 0)} queries, at least {least} wanted"
        for group, least in MINIMUM.items()
        if counts.get(group, 0) < least
    ]


def database_problems(data: dict, conn: sqlite3.Connection) -> list[str]:
    """Every id exists; an acceptable unit is never inside a governing one (it would add nothing)."""
    parent = dict(conn.execute("select id, parent_id from sections"))
    problems = []
    for group, index, entry in entries(data):
        where = f"{group}[{index}] {entry['query']!r}"
        for unit in entry["governing"] + entry["acceptable"]:
            if unit not in parent:
                problems.append(f"{where}: {unit} is not in the database")
        governing = set(entry["governing"])
        for unit in entry["acceptable"]:
            ancestor = parent.get(unit)
            while ancestor:
                if ancestor in governing:
                    problems.append(f"{where}: acceptable {unit} lies inside governing {ancestor}")
                    break
                ancestor = parent.get(ancestor)
    return problems


# ---------------------------------------------------------------- the file


@pytest.fixture(scope="module")
def situations() -> dict:
    return load()


@pytest.fixture(scope="module")
def laws_conn(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    yield conn
    conn.close()


def test_the_set_is_well_formed(situations):
    assert shape_problems(situations) == []


def test_each_language_has_enough_queries(situations):
    assert count_problems(situations) == []


def test_every_judged_unit_is_in_the_database(situations, laws_conn, require_documents):
    require_documents("laws-2017-ja", "laws-1997-zh")
    assert database_problems(situations, laws_conn) == []


def test_the_examples_named_in_the_issue_are_judged(situations):
    governing = {entry["query"]: set(entry["governing"]) for _, _, entry in entries(situations)}
    assert governing["ダミーがディクレアラーの間違ったハンドからのリードを止めようとした"] == {
        "laws-2017-ja:42B2",
        "laws-2017-ja:43B2(a)",
    }
    assert governing["パートナーが長考した後にパス、そのあとのビッド"] == {"laws-2017-ja:16B1"}
    assert governing["ボードの中身が入れ替わっていた"] == {"laws-2017-ja:87"}
    assert "laws-2017-ja:49" in governing["ディフェンダーがカードを落として表になった"]
    assert "laws-2017-ja:53A" in governing["a defender led out of turn and declarer wants to accept it"]


# ---------------------------------------------------------------- the checks catch a broken file


def broken_copy(situations: dict) -> dict:
    ja = [dict(entry) for entry in situations["situations"]["ja"]]
    ja[1] = {**ja[1], "query": ja[0]["query"] + " "}  # duplicate once normalised
    ja[2] = {**ja[2], "lang": "zh"}  # wrong group
    ja[3] = {**ja[3], "governing": []}  # nothing governs
    ja[4] = {**ja[4], "acceptable": ["laws-1997-zh:27"]}  # 1997 unit for a ja query
    ja[5] = {key: value for key, value in ja[5].items() if key != "why"}  # a field missing
    ja[6] = {**ja[6], "query": "slow pass"}  # not Japanese
    return {"situations": {"ja": ja, "zh": situations["situations"]["zh"][:3], "en": situations["situations"]["en"]}}


def test_a_broken_file_is_reported(situations):
    problems = shape_problems(broken_copy(situations))
    assert any("duplicate of ja[0]" in p for p in problems)
    assert any("lang 'zh' in group 'ja'" in p for p in problems)
    assert any("governing must be a non-empty list" in p for p in problems)
    assert any("acceptable laws-1997-zh:27 is from a document not judged for ja" in p for p in problems)
    assert any(p.startswith("ja[5]: fields must be") for p in problems)
    assert any("a ja query has no kana" in p for p in problems)
    assert count_problems(broken_copy(situations)) == ["zh: 3 queries, at least 15 wanted"]


def test_unknown_and_redundant_units_are_reported(situations, laws_conn):
    entry = {
        "query": "x",
        "lang": "ja",
        "why": "x",
        "governing": ["laws-2017-ja:16B1", "laws-2017-ja:99Z"],
        "acceptable": ["laws-2017-ja:16", "laws-2017-ja:16B1(a)"],
    }
    problems = database_problems({"situations": {"ja": [entry]}}, laws_conn)
    assert problems == [
        "ja[0] 'x': laws-2017-ja:99Z is not in the database",
        "ja[0] 'x': acceptable laws-2017-ja:16B1(a) lies inside governing laws-2017-ja:16B1",
    ]


def test_the_benchmark_names_each_query_ranked_worse_or_better(tmp_path, capsys):
    """--against reads a change query by query: a query that fell, one that rose, and one judged only
    after the change (left out), each where it belongs."""
    from benchmarks.situations import print_changes

    before = {"ja\tフォローしなかった": 1, "zh\t罚牌": None, "en\tslow pass": 2}
    after = {"ja\tフォローしなかった": 3, "zh\t罚牌": 2, "en\tslow pass": 2, "en\tnew": 1}
    print_changes(before, after, tmp_path / "before.json")
    worse_part, better_part = capsys.readouterr().out.split("queries ranked better")
    assert "ja | フォローしなかった: 1 -> 3" in worse_part and "worse than in" in worse_part
    assert "zh | 罚牌: - -> 2" in better_part
    assert "slow pass" not in worse_part + better_part and "new" not in worse_part + better_part


def test_the_governing_law_is_the_law_a_governing_unit_belongs_to():
    """benchmarks/situations.py's "governing law" figure: a result counts when it lies in the Law of a governing
    unit, any part of it (61 or 61A for 61B2; a footnote printed in the Law), never another Law's unit judged
    acceptable, nor a footnote merely numbered like the Law, nor another document's unit of the same number."""
    from benchmarks.situations import first_in_laws, law_of

    assert law_of("laws-2017-ja:61B2(a)") == ("laws-2017-ja", "61")
    assert law_of("jcbl-regs-ja:24-5-1") == ("jcbl-regs-ja", "24")
    assert law_of("laws-2017-ja:fn:2") is None and law_of("laws-2017-ja:def:ダミー") is None
    governing = frozenset({"laws-2017-ja:61B2"})
    lineages = [{"laws-2017-ja:62A", "laws-2017-ja:62"}, {"laws-2017-ja:61"}, {"laws-2017-ja:61A", "laws-2017-ja:61"}]
    assert first_in_laws(lineages, governing) == 2
    footnote_of_law_13 = {"laws-2017-ja:fn:2", "laws-2017-ja:13"}
    assert first_in_laws([footnote_of_law_13], frozenset({"laws-2017-ja:13"})) == 1
    others = [{"laws-1997-zh:61B", "laws-1997-zh:61"}, {"laws-2017-ja:6"}, {"laws-2017-ja:fn:61", "laws-2017-ja:16"}]
    assert first_in_laws(others, governing) is None
