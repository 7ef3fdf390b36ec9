"""Invariants of corpus/vocabulary.yml, the director vocabulary (issue 14, item 2).

Every printed term must occur verbatim in the document it claims, every target must be a unit of
that document, the Laws' definitions and all 93 laws must be reachable, and no spoken form may send
a query to two different entries. The texts and refs come from the session's whole-corpus build
(tests/conftest.py), read once per module.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from ingest.search.vocabulary import Vocabulary, search_key, vocabulary_rows
from ingest.text import tokenize

VOCABULARY = Path(__file__).resolve().parent.parent / "corpus" / "vocabulary.yml"
LAWS_JA, LAWS_ZH, REGS = "laws-2017-ja", "laws-1997-zh", "jcbl-regs-ja"
TERM_FIELDS = {"ja": LAWS_JA, "zh": LAWS_ZH, "ja_regs": REGS}
TARGET_FIELDS = {"laws": LAWS_JA, "regs": REGS}
ALLOWED_FIELDS = {"en", "ja", "zh", "ja_regs", "spoken", "laws", "regs", "source"}
LIST_FIELDS = {"ja", "zh", "ja_regs", "spoken", "laws", "regs"}
SOURCE_LABEL_RE = re.compile(r"\[([A-Z0-9][A-Z0-9-]*)\]")
LAW_NUMBER_RE = re.compile(r"\d+")


@pytest.fixture(scope="module", autouse=True)
def corpus_variants():
    """Fold as a build of this corpus does (the tokenizer knows no variants until told)."""
    previous = tokenize.variants_in_force()
    tokenize.use_variants(tokenize.read_variants())
    yield
    tokenize.use_variants(previous)


@pytest.fixture(scope="module")
def vocabulary() -> dict:
    return yaml.safe_load(VOCABULARY.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def entries(vocabulary) -> list[dict]:
    """The entries, each one's spoken forms as one list (the file lists them under their language)."""
    return [{**e, "spoken": spoken_forms(e)} if "spoken" in e else e for e in vocabulary["entries"]]


def spoken_forms(entry: dict) -> list[str]:
    return [form for forms in (entry.get("spoken") or {}).values() for form in forms]


@pytest.fixture(scope="module")
def corpus(laws_build) -> dict:
    """Per document: the kind of each ref, and all its titles and texts as one string."""
    conn = sqlite3.connect(f"file:{laws_build.path}?mode=ro", uri=True)
    rows = conn.execute("select doc, ref, kind, coalesce(title, ''), coalesce(text, '') from sections")
    docs: dict[str, dict] = defaultdict(lambda: {"kinds": {}, "parts": []})
    for doc, ref, kind, title, text in rows:
        docs[doc]["kinds"][ref] = kind
        docs[doc]["parts"] += [title, text]
    conn.close()
    return {doc: {"kinds": d["kinds"], "text": "\x00".join(d["parts"])} for doc, d in docs.items()}


def printed_terms(entry: dict) -> list[str]:
    return [entry["en"], *entry.get("ja", []), *entry.get("zh", []), *entry.get("ja_regs", [])]


def test_file_has_sources_and_enough_entries(vocabulary, entries):
    assert set(vocabulary) == {"sources", "entries"}
    assert all(isinstance(text, str) and text.strip() for text in vocabulary["sources"].values())
    assert len(entries) >= 250


def test_every_entry_has_en_a_printed_term_targets_and_a_source(entries):
    problems = []
    for number, entry in enumerate(entries):
        name = entry.get("en", f"entry {number}")
        if not isinstance(entry.get("en"), str) or not entry["en"].strip():
            problems.append((name, "en"))
        if set(entry) - ALLOWED_FIELDS:
            problems.append((name, f"unknown fields {sorted(set(entry) - ALLOWED_FIELDS)}"))
        if not (entry.get("ja") or entry.get("zh")):
            problems.append((name, "neither ja nor zh"))
        if not entry.get("laws"):
            problems.append((name, "no laws"))
        if not isinstance(entry.get("source"), str) or not entry["source"].strip():
            problems.append((name, "source"))
        for field in LIST_FIELDS & set(entry):
            values = entry[field]
            if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() == v and v for v in values):
                problems.append((name, f"{field} must be a list of trimmed strings"))
            elif len(set(values)) != len(values):
                problems.append((name, f"{field} repeats a value"))
    assert problems == []


def test_source_labels_are_defined(vocabulary, entries):
    labels = set(vocabulary["sources"])
    undefined = {
        (e["en"], label) for e in entries for label in SOURCE_LABEL_RE.findall(e["source"]) if label not in labels
    }
    assert undefined == set()
    used = {label for e in entries for label in SOURCE_LABEL_RE.findall(e["source"])}
    assert labels - used == set(), "a source nobody cites"


@pytest.mark.parametrize("field", sorted(TERM_FIELDS))
def test_printed_terms_occur_verbatim_in_their_document(entries, corpus, field):
    text = corpus[TERM_FIELDS[field]]["text"]
    missing = [(e["en"], term) for e in entries for term in e.get(field, []) if term not in text]
    assert missing == []


@pytest.mark.parametrize("field", sorted(TARGET_FIELDS))
def test_targets_are_units_of_their_document(entries, corpus, field):
    kinds = corpus[TARGET_FIELDS[field]]["kinds"]
    unknown = [(e["en"], ref) for e in entries for ref in e.get(field, []) if ref not in kinds]
    assert unknown == []


def test_every_2017_definition_is_covered(entries, corpus):
    kinds = corpus[LAWS_JA]["kinds"]
    definitions = {ref for ref, kind in kinds.items() if kind == "definition"}
    assert len(definitions) == 65
    targets = {ref for e in entries for ref in e["laws"]}
    ja_terms = {term for e in entries for term in e.get("ja", [])}
    uncovered = sorted(ref for ref in definitions if ref not in targets and ref.removeprefix("def:") not in ja_terms)
    assert uncovered == []


def test_every_law_is_a_target(entries, corpus):
    laws = {ref for ref, kind in corpus[LAWS_JA]["kinds"].items() if kind == "law"}
    assert len(laws) == 93
    targets = {ref for e in entries for ref in e["laws"]}
    assert sorted(laws - targets, key=int) == []


def test_targets_name_their_law_too(entries):
    """The most specific unit, plus the law: 16B1(b) comes with 16."""
    missing = [
        (e["en"], ref)
        for e in entries
        for ref in e["laws"]
        if not ref.startswith("def:") and LAW_NUMBER_RE.match(ref)[0] not in e["laws"]
    ]
    assert missing == []


def test_en_terms_are_unique(entries):
    seen = defaultdict(list)
    for entry in entries:
        seen[search_key(entry["en"])].append(entry["en"])
    assert {key: names for key, names in seen.items() if len(names) > 1} == {}


def test_spoken_forms_name_one_entry(entries):
    """A spoken form folds to no other entry's word (en, ja, zh, ja_regs or spoken), and adds
    something to its own entry (is not just a spelling of one of its printed terms)."""
    owners = defaultdict(set)
    for number, entry in enumerate(entries):
        for term in printed_terms(entry) + entry.get("spoken", []):
            owners[search_key(term)].add(number)
    problems = []
    for number, entry in enumerate(entries):
        own_printed = {search_key(term) for term in printed_terms(entry)}
        spoken_keys = [search_key(term) for term in entry.get("spoken", [])]
        for term, key in zip(entry.get("spoken", []), spoken_keys):
            others = sorted(entries[n]["en"] for n in owners[key] - {number})
            if others:
                problems.append((entry["en"], term, "also", others))
            if key in own_printed or spoken_keys.count(key) > 1:
                problems.append((entry["en"], term, "redundant"))
    assert problems == []


def lookup(entries: list[dict], word: str) -> list[dict]:
    key = search_key(word)
    return [e for e in entries if key in {search_key(t) for t in printed_terms(e) + e.get("spoken", [])}]


@pytest.mark.parametrize(
    "word, ja, targets",
    [
        ("LOOT", "順番外のリード", {"53", "54", "55", "56"}),
        ("リードアウトオブターン", "順番外のリード", {"54", "55", "56"}),
        ("BIT", "躊躇", {"16B1", "73D1"}),
        ("hesitation", "躊躇", {"16B1", "73D1"}),
        ("ヘジテーション", "躊躇", {"73D1"}),
        ("UI", "不当な情報", {"16", "73C"}),
        ("MI", "間違った情報", {"21", "20F", "75"}),
        ("IB", "不十分なビッド", {"27"}),
        ("ペナカ", "ペナルティカード", {"50"}),
        ("リボーク", "リボーク", {"61", "62", "63", "64"}),
        ("クレーム", "取りの宣言", {"68", "70"}),
        ("アジャスト", "調整スコア", {"12"}),
        ("LA", "論理的な代わりの行動", {"16B1"}),
        ("FOLOOT", "順番外のオープニングリード", {"54"}),
        ("藏牌", "リボーク", {"61A"}),
        ("越序引牌", "順番外のリード", {"53"}),
    ],
)
def test_issue_examples_resolve_to_one_entry(entries, word, ja, targets):
    found = lookup(entries, word)
    assert len(found) == 1, [e["en"] for e in found]
    assert ja in found[0]["ja"]
    assert targets <= set(found[0]["laws"])
    # the lookup search runs (ingest/search/vocabulary.py, from the rows the build stores) agrees
    stored = Vocabulary(vocabulary_rows(VOCABULARY)).lookup(word)
    assert [entry.en for entry in stored] == [found[0]["en"]]


def test_each_spoken_form_is_in_the_language_the_file_lists_it_in(vocabulary, laws_db_path):
    """The site marks a spoken form (lang=, the search answer's word_langs) in the language the file lists it
    in: 犹豫, 有局, 迟到 were marked Japanese, guessed from kanji a Japanese word holds."""
    from laws_site.search.data import search_data
    from laws_site.search.presentation import word_languages

    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    data = search_data(conn)
    listed = {
        form: lang for e in vocabulary["entries"] for lang, forms in (e.get("spoken") or {}).items() for form in forms
    }
    assert len(listed) == 740 and {"ja", "zh", "en"} == set(listed.values())
    marked = {form: word_languages(data, form)[form] for form in listed}
    conn.close()
    assert {form: lang for form, lang in marked.items() if lang != listed[form]} == {}


def test_the_build_stores_the_vocabulary(laws_db_path):
    conn = sqlite3.connect(laws_db_path)
    stored = Vocabulary.from_conn(conn)
    assert len(stored.entries) == 301 and sum(len(e.spoken) for e in stored.entries) == 740
    assert [e.en for e in stored.lookup("ＬＯＯＴ")] == ["Lead out of Turn"]  # full-width, any case
