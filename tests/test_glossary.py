"""The trilingual glossary: pairing by printed English, curated additions, and query expansion."""

import sqlite3

import pytest

from ingest.parsers.records import Unit
from ingest.search import glossary
from ingest.sources.registry import Registry
from laws_site.search import engine as searching


def definition(doc, term, english):
    return Unit(doc, f"def:{term}", "definition", title=term, attrs={"term": term, "term_en": english})


JA, ZH = "laws-2017-ja", "laws-1997-zh"
REGISTRY = Registry.from_rows(
    [
        {"id": JA, "language": "ja", "kind": "laws", "edition": "2017"},
        {"id": ZH, "language": "zh", "kind": "laws", "edition": "1997"},
    ]
)

KEY_CASES = [
    ("Trick Points", ["trickpoint"]),
    ("TRICK POINTS", ["trickpoint"]),
    ("UNDER TRICK", ["undertrick"]),
    ("MATCH POINT", ["matchpoint"]),
    ("INTERNATIONAL MATCH POINT-IMP", ["internationalmatchpoint", "imp"]),
    ("Cancelled / Retracted / Withdrawn", ["cancelled", "retracted", "withdrawn"]),
    ("Event またはTournament", ["event", "tournament"]),
    ("Psychic Call: 一般に「サイキック」または「サイク」", ["psychiccall"]),
    ("Left-hand Opponent", ["lefthandopponent"]),
]


@pytest.mark.parametrize("printed, keys", KEY_CASES, ids=[c[0][:24] for c in KEY_CASES])
def test_english_keys(printed, keys):
    assert glossary.english_keys(printed) == keys


def test_definitions_pair_on_normalised_english(tmp_path):
    units = [
        definition(JA, "アンダートリック", "Undertrick"),
        definition(ZH, "宕墩", "UNDER TRICK"),
        definition(JA, "IMP", "International Match Point"),
        definition(ZH, "国际比赛分", "INTERNATIONAL MATCH POINT-IMP"),
        definition(JA, "LHO", "Left-hand Opponent"),
        definition(ZH, "下家", "LHO"),
        definition(JA, "余計な", "Extraneous"),
    ]
    rows = glossary.glossary_rows(units, REGISTRY, curated_file=tmp_path / "none.yml")
    pairs = {(r["ja"], r["zh"]) for r in rows}
    assert pairs == {("アンダートリック", "宕墩"), ("IMP", "国际比赛分"), ("LHO", "下家"), ("余計な", None)}
    assert {r["source"] for r in rows} == {"definition"}
    row = next(r for r in rows if r["ja"] == "IMP")
    assert (row["ja_ref"], row["zh_ref"]) == ("def:IMP", "def:国际比赛分")
    assert tuple(row) == glossary.GLOSSARY_COLUMNS


def test_curated_rows_say_so(tmp_path):
    curated = tmp_path / "glossary.yml"
    curated.write_text("terms:\n  - {en: Revoke, ja: リボーク, zh: 藏牌, ja_ref: 61A}\n", encoding="utf-8")
    rows = glossary.glossary_rows([], REGISTRY, curated_file=curated)
    assert rows == [
        {
            "id": "curated:revoke",
            "ja": "リボーク",
            "en": "Revoke",
            "zh": "藏牌",
            "source": "curated",
            "ja_ref": "61A",
            "zh_ref": None,
        }
    ]


def test_a_curated_term_completes_the_definition_with_the_same_english(tmp_path):
    """One row per English term: the 1997 definition 藏牌 (REVOKE) and the curated リボーク meet."""
    curated = tmp_path / "glossary.yml"
    curated.write_text("terms:\n  - {en: Revoke, ja: リボーク, zh: 藏牌, ja_ref: 61A}\n", encoding="utf-8")
    rows = glossary.glossary_rows([definition(ZH, "藏牌", "REVOKE")], REGISTRY, curated_file=curated)
    assert rows == [
        {
            "id": "definition:revoke",
            "ja": "リボーク",
            "en": "Revoke",
            "zh": "藏牌",
            "source": "definition",
            "ja_ref": "61A",
            "zh_ref": "def:藏牌",
        }
    ]


def test_a_curated_term_without_a_ref_gets_the_law_titled_with_it(tmp_path):
    curated = tmp_path / "glossary.yml"
    curated.write_text("terms:\n  - {en: Penalty Card, zh: 罚张}\n", encoding="utf-8")
    units = [
        Unit(ZH, "45C5", "item", title="罚张"),
        Unit(ZH, "50", "law", title="罚张的处理"),
        Unit(ZH, "51", "law", title="两张或更多的罚张"),
    ]
    vocabulary = [{"en": "Penalty Card", "laws": ["def:ペナルティカード", "50"]}]
    rows = glossary.glossary_rows(units, REGISTRY, curated_file=curated, vocabulary=vocabulary)
    assert (rows[0]["zh"], rows[0]["zh_ref"]) == ("罚张", "50")  # the Law that begins with it, not 45C5


def test_no_english_term_is_listed_twice(laws_db_path):
    rows = glossary.read_rows(sqlite3.connect(laws_db_path))
    keys = [glossary.english_keys(row["en"])[0] for row in rows]
    assert sorted(k for k in set(keys) if keys.count(k) > 1) == []
    assert len(rows) == 91


def test_every_term_names_the_unit_it_comes_from(laws_db_path):
    conn = sqlite3.connect(laws_db_path)
    rows = glossary.read_rows(conn)
    missing = [(row["id"], lang) for row in rows for lang in ("ja", "zh") if row[lang] and not row[f"{lang}_ref"]]
    assert missing == []
    docs = {"ja": JA, "zh": ZH}
    refs = {(doc, ref) for doc, ref in conn.execute("select doc, ref from sections")}
    dangling = [
        (row["id"], row[f"{lang}_ref"])
        for row in rows
        for lang in ("ja", "zh")
        if row[f"{lang}_ref"] and (docs[lang], row[f"{lang}_ref"]) not in refs
    ]
    assert dangling == []


def test_row_ids_are_unique_on_the_corpus(laws_db_path):
    conn = sqlite3.connect(laws_db_path)
    rows = glossary.read_rows(conn)
    assert len({r["id"] for r in rows}) == len(rows)
    assert {r["source"] for r in rows} == {"definition", "curated"}
    assert next(r for r in rows if r["en"] == "Director")["id"] == "definition:director"


# ---------------------------------------------------------------- lookup in any language


@pytest.fixture(scope="module")
def corpus_glossary(laws_db_path):
    return glossary.Glossary(glossary.read_rows(sqlite3.connect(laws_db_path)))


LOOKUP_CASES = [
    ("revoke", "ja", "リボーク"),
    ("Revoke", "zh", "藏牌"),
    ("dummy", "ja", "ダミー"),
    ("dummy", "zh", "明手"),
    ("藏牌", "ja", "リボーク"),
    ("明手", "ja", "ダミー"),
    ("罰張", "ja", "ペナルティカード"),  # traditional
    ("ダミー", "zh", "明手"),
    ("ディクレアラー", "zh", "庄家"),
    ("ディクレアララー", "zh", "庄家"),  # the printed (now corrected) spelling still finds it
    ("declarers", "ja", "ディクレアラー"),  # plural
    ("withdrawn", "ja", "取り消した"),
    ("deal", "zh", "发牌或牌局"),
    ("牌局", "ja", "ディール"),  # one of the two words of 发牌或牌局
]


@pytest.mark.parametrize("query, lang, term", LOOKUP_CASES, ids=[f"{q}->{t}" for q, _, t in LOOKUP_CASES])
def test_lookup_translates(corpus_glossary, query, lang, term):
    assert term in {getattr(entry, lang) for entry in corpus_glossary.lookup(query)}


def test_lookup_needs_the_whole_term(corpus_glossary):
    assert corpus_glossary.lookup("revo") == [] and corpus_glossary.lookup("") == []


# ---------------------------------------------------------------- expansion in search, with the table


@pytest.fixture(scope="module")
def conn_with_table(laws_db_path):
    """The built database: ingest/build/database.py stores the glossary table."""
    conn = sqlite3.connect(laws_db_path)
    assert conn.execute("select count(*) from glossary where source = 'definition'").fetchone()[0] > 40
    yield conn
    conn.close()


def test_search_reads_the_glossary_table(conn_with_table):
    assert glossary.load_glossary(conn_with_table).lookup("Honor")[0].zh == "大牌"


EXPANSION_CASES = [
    ("revoke", {"61", "62", "63", "64"}, 5),
    ("dummy", {"42", "43"}, 10),
    ("lead out of turn", {"53", "54", "55", "56"}, 6),
    ("insufficient bid", {"27"}, 3),
]


@pytest.mark.parametrize("query, laws, within", EXPANSION_CASES, ids=[c[0] for c in EXPANSION_CASES])
def test_english_query_expands_to_japanese_laws(conn_with_table, query, laws, within):
    results = searching.search(conn_with_table, query, lang="ja", limit=within)
    assert laws <= {r["law"] for r in results}


def test_translated_hits_say_what_they_were_found_as(conn_with_table):
    # (Sudachi itself normalises some English words: dummy -> ダミー, so those need no glossary)
    assert {r["via"] for r in searching.search(conn_with_table, "revoke", lang="ja", limit=5)} == {"リボーク"}


def test_dummy_finds_the_definition_first(conn_with_table):
    assert searching.search(conn_with_table, "dummy", lang="ja", limit=1)[0]["id"] == "laws-2017-ja:def:ダミー"


def test_chinese_term_also_offers_japanese_units(conn_with_table):
    results = searching.search(conn_with_table, "藏牌", limit=20)
    assert {"laws-1997-zh", "laws-2017-ja"} <= {r["doc"] for r in results}
