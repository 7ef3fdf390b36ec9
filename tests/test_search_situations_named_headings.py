"""A heading the director vocabulary or a 索引 entry names for a sentence's words (66 トリックの検査, named for 前のトリックを見る)
passes those words on to its parts, as its text would (coverage.covered_words, CONTEXT_TEXT_CREDIT): the part
that decides the situation ranks with the heading, not far below it (issue 36); but not as covering all the
heading covers (coverage.covers_all): on the server and offline alike (tests/test_search_parity.py)."""

from __future__ import annotations

from laws_site.search import engine
from laws_site.search.data import search_data
from laws_site.search.weights import CONTEXT_TEXT_CREDIT, INDEX_CREDIT, VOCABULARY_CREDIT
from tests.coverage_credits import credits_of


def test_a_named_headings_parts_cover_its_words_as_under_its_text(search_conn):
    words, credits = credits_of(search_conn, "前のトリックを見たい")
    seen = words.index("見る")
    data = search_data(search_conn)
    assert data.rowids["laws-2017-ja:66"] in data.headings  # トリックの検査: a title, no text
    assert credits["laws-2017-ja:66"][seen] == VOCABULARY_CREDIT
    # 66C 終了したトリック prints 検査, not 見る: it reads 見る under 66, as every part of 66 does
    for part in ("66A", "66B", "66C", "66D"):
        assert credits[f"laws-2017-ja:{part}"][seen] == CONTEXT_TEXT_CREDIT, part


def test_a_heading_the_index_files_a_word_under_passes_it_to_its_parts(search_conn):
    """The 索引 files 91 (ペナルティか出場停止か: a title, no text) under セッション/別の意味: 91A and 91B, which print
    neither 別 nor 意味, read them under it."""
    words, credits = credits_of(search_conn, "セッションを別の意味で中断した")
    meaning = words.index("意味")
    assert credits["laws-2017-ja:91"][meaning] == INDEX_CREDIT
    for part in ("91A", "91B"):
        assert credits[f"laws-2017-ja:{part}"][meaning] == CONTEXT_TEXT_CREDIT, part


def test_a_named_law_with_a_text_of_its_own_keeps_the_word(search_conn):
    """50 ペナルティカード, named for ラフ, has a text of its own: its parts (50A-50E) say nothing of ruffing."""
    words, credits = credits_of(search_conn, "ディフェンダーがラフしたカードを見せた")
    ruffed = words.index("ラフ")
    assert credits["laws-2017-ja:50"][ruffed] == VOCABULARY_CREDIT
    for part in ("50A", "50B", "50C", "50D", "50D1", "50E"):
        assert ruffed not in credits[f"laws-2017-ja:{part}"], part


def test_the_parts_rise_and_the_heading_named_whole_keeps_its_place(search_conn):
    """66's parts now rank among the first (before, none in the top 10); but words a part covers only as the named
    heading's part do not make it cover all the heading covers: 47 カードを引っ込める stays first, before 47B."""
    found = [result["id"] for result in engine.search(search_conn, "前のトリックを見たい", limit=10)]
    assert found[0] == "laws-2017-ja:66" and "laws-2017-ja:66C" in found, found
    found = [result["id"] for result in engine.search(search_conn, "出したカードを引っ込めたい", limit=3)]
    assert found[0] == "laws-2017-ja:47", found
