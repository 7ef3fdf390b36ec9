"""The offline search's port of ingest/text/forgiving.py (static/offline-search.js, issue 26) gives the
same keys as the server's Python, on the corpus's own words and the qrels queries, in Chromium."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml

from ingest.text import forgiving
from laws_site.offline import search_rules
from laws_site.offline.expansions import romaji_tables
from laws_site.offline.search_scripts import script_paths
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed"),
]


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content("<html><body></body></html>")
        for script in script_paths():
            page.add_script_tag(path=str(script))
        page.evaluate("(rules) => BridgeLawsSearch.useRules(rules)", search_rules.rules())
        yield page
        browser.close()


def words(db: Path) -> tuple[list[str], list[str]]:
    """Kana-ish and English texts: the qrels queries plus the corpus's expansion terms."""
    groups = yaml.safe_load((ROOT / "benchmarks" / "qrels.yml").read_text(encoding="utf-8"))["groups"]
    texts = [j["query"] for js in groups.values() for j in js]
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute("select distinct term from search_expansions where kind in ('reading', 'sound')").fetchall()
    texts += [term for (term,) in rows]
    english = [term for (term,) in conn.execute("select distinct term from search_expansions where kind = 'sound'")]
    return texts, english + ["ribooku", "junbangai", "fujuubun na", "ribookun", "adjusted score", "trump"]


def test_kana_keys_romaji_and_sound_keys_agree_with_python(page, laws_db_path):
    texts, english = words(laws_db_path)
    assert len(texts) > 100
    kana = [t for t in texts if forgiving.is_kana(t)]
    romaji = [t for t in texts + english if t.isascii()]
    got = page.evaluate(
        """([kana, romaji, english, tables]) => {
        const f = BridgeLawsSearch.forgiving;
        return {kana: kana.map((t) => f.kanaKey(t)), sound: kana.map((t) => f.soundKey(tables, t, true)),
                romaji: romaji.map((t) => f.romajiToKana(tables, t)), english: english.map((t) => f.soundKey(tables, t, false))};
    }""",
        [kana, romaji, english, romaji_tables()],
    )
    assert got["kana"] == [forgiving.kana_key(t) for t in kana]
    assert got["sound"] == [forgiving.sound_key(t, japanese=True) for t in kana]
    assert got["romaji"] == [forgiving.romaji_to_kana(t) for t in romaji]
    assert got["english"] == [forgiving.sound_key(t, japanese=False) for t in english]
    # exact examples from ingest/text/forgiving.py's docstring
    assert got["romaji"][romaji.index("ribooku")] == "りぼおく"


def test_edit_distances_match_rapidfuzz(page):
    from rapidfuzz.distance import OSA, Levenshtein

    pairs = [
        ["revoke", "revoek"],
        ["dummy", "dumy"],
        ["ca", "ac"],
        ["リボク", "リボクン"],
        ["claim", "clam"],
        ["", "abc"],
    ]
    got = page.evaluate(
        "(pairs) => pairs.map(([a, b]) => [BridgeLawsSearch.forgiving.levenshtein(a, b, false), "
        "BridgeLawsSearch.forgiving.levenshtein(a, b, true)])",
        pairs,
    )
    assert got == [[Levenshtein.distance(a, b), OSA.distance(a, b)] for a, b in pairs]


# ---------------------------------------------------------------- the pack's own data, in the engine


@pytest.fixture(scope="module")
def pack(search_pack):
    """The search pack of this session's whole-corpus build (tests/conftest.py)."""
    return search_pack


@pytest.fixture(scope="module")
def engine(page, pack):
    page.evaluate("(pack) => { window.engine = new BridgeLawsSearch.Engine(pack); }", pack)
    return page


@pytest.mark.slow
def test_kana_spellings_of_the_corpus_words_are_the_servers(pack):
    """A corpus word with kanji, typed in hiragana, is in the lexicon as SudachiPy takes it back
    (じゅんばん -> 順番), counted as never printed so that a cut takes it last (聞きたい is 聞き + たい, not
    聞 + 期待); a reading SudachiPy reads as another word is not."""
    from laws_site.search.words import word_cost

    lexicon = pack["lexicon"]
    assert lexicon["じゅんばん"][:2] == ["順番", 0] and lexicon["じゅんばん"][2] == word_cost(0) > lexicon["順番"][2]
    assert lexicon["じょうほう"][:2] == ["情報", 0]
    assert lexicon["まちがっ"][0] == "間違う" and lexicon["ふとう"][0] == "不当"
    # exact, on a few words: 為 reads シ, which SudachiPy takes back as another word (not kept); a kana
    # spelling already in the lexicon (じょうほう, from the corpus's own text) keeps its entry
    from ingest.search.lexicon import kana_spellings

    words = {
        "順番": ["順番", 0, 0, 372],
        "情報": ["情報", 0, 0, 186],
        "外": ["外", 0, 0, 40],
        "間違っ": ["間違う", 0, 0, 50],
        "祈り": ["祈り", 0, 0, 1],
        "為": ["為る", 0, 0, 3],
        "じょうほう": ["情報", 0, 0, 1],
    }
    assert kana_spellings(words) == {
        "じゅんばん": ["順番", 0, 0, 0],
        "そと": ["外", 0, 0, 0],
        "まちがっ": ["間違う", 0, 0, 0],
        "いのり": ["祈り", 0, 0, 0],
    }


@pytest.mark.slow
def test_a_hiragana_query_is_split_into_the_servers_words(engine):
    """Hiragana queries of corpus words get the server's words offline (before the kana spellings
    the phone cut ふとうなじょうほう into unknown pieces)."""
    from ingest.text import tokenize

    queries = [
        "ふとうなじょうほう",
        "まちがったじょうほう",
        "じゅんばんのせつめい",
        "じぶんのてじゅん",
        "ばあいのきそく",
    ]
    got = engine.evaluate("(qs) => qs.map((q) => engine.queryTerms(q, 'ja'))", queries)
    assert got[0] == ["不当", "情報"] and got[1] == ["間違う", "情報"]
    assert got == [list(tokenize.query_terms(q, "ja")) for q in queries]


def test_latin_and_digit_runs_are_cut_as_the_server_cuts_them(engine):
    """A run of Latin letters, or of digits, is one word offline as in SudachiPy: the lexicon's short
    Latin words (m, i, s, in, on ... from the corpus's Latin text) once cut misinformation into
    m + i + s + インフォメーション and fujuubun na biddo into n + a + bid + do."""
    from ingest.text import tokenize

    queries = [
        "misinformation",
        "fujuubun na biddo",
        "penarutii kaado",
        "unauthorised informaton",
        "echiketto",
        "l54d",
        "IMP",
        "VP表",
    ]
    got = engine.evaluate("(qs) => qs.map((q) => engine.queryClauses(q, 'ja'))", queries)
    assert got[0] == [["misinformation"]] and got[5] == [["l"], ["54"], ["d"]]
    assert got == [[list(clause) for clause in tokenize.query_clauses(q, "ja")] for q in queries]


def test_the_indexs_see_entries_boost_offline_as_on_the_server(engine, pack, laws_db_path):
    """合意 -> see パートナー間の了解事項 -> Law 40: 賛同 and コンセンサス (synonyms of 合意) lead to 40A
    offline as on the server; without the exported "see" entries they do not."""
    from laws_site.search import engine as searching

    see = {tuple(terms): (ref, targets) for terms, ref, targets in pack["see_also"]}
    assert see[("合意",)][1] == ["laws-2017-ja:40"]
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    queries = ["賛同", "コンセンサス", "合意"]
    server = [searching.search_page(conn, q, limit=1)["results"][0]["id"] for q in queries]
    offline = engine.evaluate("(qs) => qs.map((q) => engine.search(q, {limit: 1}).results[0].id)", queries)
    assert offline == server == ["laws-2017-ja:40A"] * 3
    without = engine.evaluate(
        """(qs) => { const e = Object.create(engine); e.seeAlso = new Map();
        return qs.map((q) => e.search(q, {limit: 1}).results[0].id); }""",
        queries,
    )
    assert without[:2] != server[:2]


def test_the_indexed_words_made_on_the_phone_are_the_servers(engine, pack, laws_db_path):
    """vocabulary_of (a word no unit holds cannot match) is shipped as the FTS terms per language plus
    and minus the differences, and asked word by word: the phone's answers are exactly the server's."""
    from laws_site.search.data import search_data

    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    server = {lang: sorted(words) for lang, words in search_data(conn).vocabulary_of.items()}
    # every word that could be one (an FTS term, or a token the FTS tokenizer split) asked in each language
    phone = engine.evaluate("""() => {
        const words = new Set(Object.keys(engine.pack.fts.postings));
        for (const lists of Object.values(engine.pack.indexed_words)) for (const w of [...lists.more, ...lists.less]) words.add(w);
        return Object.fromEntries(Object.entries(engine.vocabularyOf).map(([lang, known]) => [lang, [...words].filter((w) => known.has(w))]));
    }""")
    assert {lang: sorted(words) for lang, words in phone.items()} == server
    assert len(server["ja"]) > 2000 and len(server["zh"]) > 5000
    assert "0.5" in pack["indexed_words"]["ja"]["more"]  # split by the FTS tokenizer, a search token all the same
    assert all(isinstance(v, dict) for v in pack["indexed_words"].values())
