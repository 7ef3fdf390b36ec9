"""The offline search's port of ingest/forgiving.py (static/offline-search.js, issue 26) gives the
same keys as the server's Python, on the corpus's own words and the qrels queries, in Chromium."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml

from ingest import forgiving
from laws_site.offline_expansions import romaji_tables
from tests.test_browser import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "laws_site" / "static" / "offline-search.js"
DB = ROOT / "laws.db"

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed")]


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content("<html><body></body></html>")
        page.add_script_tag(path=str(SCRIPT))
        yield page
        browser.close()


def words() -> tuple[list[str], list[str]]:
    """Kana-ish and English texts: the qrels queries plus the corpus's expansion terms."""
    groups = yaml.safe_load((ROOT / "benchmarks" / "qrels.yml").read_text(encoding="utf-8"))["groups"]
    texts = [j["query"] for js in groups.values() for j in js]
    english = []
    if DB.exists():
        conn = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
        rows = conn.execute("select distinct term from search_expansions where kind in ('reading', 'sound')").fetchall()
        texts += [term for (term,) in rows]
        english = [term for (term,) in conn.execute("select distinct term from search_expansions where kind = 'sound'")]
    return texts, english + ["ribooku", "junbangai", "fujuubun na", "ribookun", "adjusted score", "trump"]


def test_kana_keys_romaji_and_sound_keys_agree_with_python(page):
    texts, english = words()
    assert len(texts) > 100
    kana = [t for t in texts if forgiving.is_kana(t)]
    romaji = [t for t in texts + english if t.isascii()]
    got = page.evaluate("""([kana, romaji, english, tables]) => {
        const f = BridgeLawsSearch.forgiving;
        return {kana: kana.map((t) => f.kanaKey(t)), sound: kana.map((t) => f.soundKey(tables, t, true)),
                romaji: romaji.map((t) => f.romajiToKana(tables, t)), english: english.map((t) => f.soundKey(tables, t, false))};
    }""", [kana, romaji, english, romaji_tables()])
    assert got["kana"] == [forgiving.kana_key(t) for t in kana]
    assert got["sound"] == [forgiving.sound_key(t, japanese=True) for t in kana]
    assert got["romaji"] == [forgiving.romaji_to_kana(t) for t in romaji]
    assert got["english"] == [forgiving.sound_key(t, japanese=False) for t in english]
    # exact examples from ingest/forgiving.py's docstring
    assert got["romaji"][romaji.index("ribooku")] == "りぼおく"


def test_edit_distances_match_rapidfuzz(page):
    from rapidfuzz.distance import OSA, Levenshtein
    pairs = [["revoke", "revoek"], ["dummy", "dumy"], ["ca", "ac"], ["リボク", "リボクン"], ["claim", "clam"], ["", "abc"]]
    got = page.evaluate("(pairs) => pairs.map(([a, b]) => [BridgeLawsSearch.forgiving.levenshtein(a, b, false), "
                        "BridgeLawsSearch.forgiving.levenshtein(a, b, true)])", pairs)
    assert got == [[Levenshtein.distance(a, b), OSA.distance(a, b)] for a, b in pairs]
