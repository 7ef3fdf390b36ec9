"""Words the corpus never prints reach the words it prints (issue 36, item 1): the neighbours table made
at build from SudachiDict's synonyms and chiVe's vectors (corpus/neighbours.tsv), the lexicon's
inflected stems, and the query's clauses on the server and the phone alike; and a printed word's other forms
(間違える: 間違い, 間違う), read in a sentence."""

from __future__ import annotations

import sqlite3

import pytest

from ingest.parsers.records import ParseError
from ingest.search import neighbours
from laws_site.search import engine
from laws_site.search.data import search_data
from laws_site.search.words import Lexicon


def test_the_file_is_read_and_a_bad_line_is_named(tmp_path):
    good = tmp_path / "neighbours.tsv"
    good.write_text("# comment\n躊躇い\t躊躇\t1.0\n落とす\t見せる\t0.61\n", encoding="utf-8")
    assert neighbours.read_neighbours(good) == [("躊躇い", "躊躇", 1.0), ("落とす", "見せる", 0.61)]
    bad = tmp_path / "bad.tsv"
    bad.write_text("躊躇い\t躊躇\t1.0\n落とす 見せる\n", encoding="utf-8")
    with pytest.raises(ParseError) as error:
        neighbours.read_neighbours(bad)
    assert error.value.line == 2 and "bad.tsv" in str(error.value)


def test_rows_keep_printed_neighbours_synonyms_first_at_most_three():
    synonyms = [{"key": "じゃっじ", "term": "裁定"}]
    vectors = [("ジャッジ", "判断", 0.7), ("躊躇い", "躊躇", 1.0), ("躊躇い", "未知語", 0.9), ("躊躇い", "長考", 0.6)]
    vectors += [("躊躇い", w, 0.6) for w in ("一", "二", "三")]
    printed = {"裁定", "判断", "躊躇", "長考", "一", "二", "三"}
    rows = neighbours.neighbour_rows(vectors, synonyms, {"裁定": "裁定"}, printed)
    by_word = {}
    for row in rows:
        by_word.setdefault(row["word"], []).append((row["neighbour"], row["source"]))
    assert by_word["躊躇い"] == [("躊躇", "vector"), ("長考", "vector"), ("一", "vector")]
    assert by_word["じゃっじ"] == [("裁定", "synonym")]


def test_a_printed_word_gets_no_neighbours():
    rows = neighbours.neighbour_rows([("躊躇", "長考", 0.7)], [], {}, {"躊躇", "長考"})
    assert rows == []


@pytest.mark.parametrize(
    "word, stems",
    [
        ("引っ込める", {"引っ込め", "引っ込める"}),  # 下一段: 引っ込め-たい
        ("落とす", {"落とさ", "落とし", "落とす"}),  # 五段: 落とさ-ない, 落とし-た
        ("遅い", {"遅かっ", "遅く", "遅い"}),  # an adjective: 遅かっ-た
    ],
)
def test_inflected_stems_are_those_the_dictionary_reads_as_the_word(word, stems):
    found = neighbours.inflected_surfaces([word])
    assert stems <= set(found)
    assert set(found.values()) == {word}


def test_a_query_word_gets_its_neighbours_as_alternatives():
    lexicon = Lexicon(
        {
            "引っ込め": ("引っ込める", False, 100_000),
            "たい": ("たい", True, 90_000),
            "を": ("を", True, 1),
            "カード": ("カード", False, 1),
        },
        neighbours={"引っ込める": ("取り消す", "撤回")},
    )
    assert lexicon.query_clauses("カードを引っ込めたい") == [("カード",), ("引っ込める", "取り消す", "撤回")]


def test_the_built_table_leads_unprinted_words_to_printed_ones(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    data = search_data(conn)
    printed = data.vocabulary_of["ja"]
    table = data.lexicon.neighbours
    assert table, "no neighbours in the build"
    other_forms = {word for (word,) in conn.execute("select word from search_neighbours where source = 'form'")}
    assert all(word not in printed for word in table if word not in other_forms)
    assert all(set(n.split()) <= printed for found in table.values() for n in found)
    assert "躊躇" in table["躊躇い"]  # ためらい: the Laws print 躊躇
    assert data.lexicon.cut("ためらい")[0].norm == "躊躇い"
    conn.close()


def test_a_word_alone_reads_its_neighbours_only_without_synonyms():
    """A query of one word with SudachiDict synonyms is searched for them as an alternative of the whole
    query (expansions.py), ranked as before; a word with vector neighbours only reads them here."""
    words = {"罰金": ("罰金", False, 100_000), "躊躇い": ("躊躇い", False, 100_000)}
    lexicon = Lexicon(
        words,
        neighbours={"罰金": ("ペナルティ",), "躊躇い": ("躊躇",)},
        word_neighbours={"躊躇い": ("躊躇",)},
    )
    assert lexicon.query_clauses("罰金") == [("罰金",)]
    assert lexicon.query_clauses("躊躇い") == [("躊躇い", "躊躇")]
    assert lexicon.query_clauses("罰金躊躇い") == [("罰金", "ペナルティ"), ("躊躇い", "躊躇")]


def test_a_words_other_forms_are_its_synonym_groups_members_with_its_kanji():
    """間違い, 間違う, 間違える are one word, noun and verbs (SudachiDict's group 001158); 誤り and ミス,
    in the same group, are other words: not forms of it."""
    group = [("0", w, w) for w in ("間違い", "間違え", "誤り", "ミス", "間違う", "間違える")]
    pairs = set(neighbours.word_form_pairs({"001158": group}))
    assert ("間違える", "間違い") in pairs and ("間違い", "間違う") in pairs and ("間違える", "間違え") in pairs
    assert not {pair for pair in pairs if "誤り" in pair or "ミス" in pair}


def test_a_printed_word_keeps_its_other_forms_only():
    rows = neighbours.neighbour_rows(
        [("間違える", "誤り", 0.8)], [], {}, {"間違える", "間違い", "誤り"}, [("間違える", "間違い")]
    )
    assert [(row["word"], row["neighbour"], row["source"]) for row in rows] == [("間違える", "間違い", "form")]


def test_a_sentence_reads_a_words_other_forms_a_word_alone_does_not(laws_db_path):
    """「スコアの記入を間違えた」: the Laws print スコアの間違い (79C); a query of the word alone is searched
    as before (its synonyms are an alternative of the whole query)."""
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True)
    lexicon = search_data(conn).lexicon
    assert ("間違える", "間違い", "間違う") in lexicon.query_clauses("スコアの記入を間違えた")
    assert lexicon.query_clauses("間違える") == [("間違える",)]
    conn.close()


def test_a_score_entered_wrongly_reaches_the_law_on_errors_in_score(search_conn):
    """It was ninth, under 87A and the regulations' score sheets, which print 記入."""
    found = [r["id"] for r in engine.search(search_conn, "スコアの記入を間違えた", limit=1)]
    assert found and found[0].startswith("laws-2017-ja:79C"), found


def test_a_compound_verbs_noun_reads_as_the_verb_the_corpus_prints():
    """言い直し is 言い直す's continuative form (SudachiDict reads it both ways): the noun reads as the verb.
    Not a verb as its noun (受け入れる is no 受け入れ: the 索引's wording kept its place), nor a noun of
    one kanji (取り of 取りの宣言 is no 取る), nor another verb's kanji (周り is no 回る)."""
    printed = {"言い直し", "言い直す", "受け入れ", "受け入れる", "取り", "取る", "周り", "回る", "見直し"}
    assert neighbours.continuative_pairs(printed) == [("受け入れ", "受け入れる"), ("言い直し", "言い直す")]


def test_change_of_call_reaches_the_law_printing_the_verb(search_conn):
    """ "change my call" reads as the vocabulary's 言い直し; 21B1(a) prints 「そのコールを言い直すことができる」."""
    data = search_data(search_conn)
    assert ("言い直し", "言い直す") in data.lexicon.query_clauses("コールの言い直し 対戦相手")
    found = [r["id"] for r in engine.search(search_conn, "opponents explained wrongly, can I change my call", limit=5)]
    assert "laws-2017-ja:21B1(a)" in found, found


def test_a_native_word_reads_as_the_sino_japanese_noun_the_laws_print_for_it():
    """終わる and 終了 are one SudachiDict group (013412) and share 終: the Laws print 終了 (オークション終了後,
    ラウンドの終了) where a director says 終わった. Only where the noun outnumbers the word NOUN_OUTNUMBERS
    times (変える, printed nearly as often as 変更, keeps its own), and only a noun beginning with the word's kanji
    (済む is no 終了)."""
    groups = {
        "013412": [("0", w, w) for w in ("終了", "終わる", "終える", "済む")],
        "000001": [("0", w, w) for w in ("変更", "変える")],
    }
    printed = {"終了": 132, "終わる": 4, "終える": 1, "済む": 0, "変更": 35, "変える": 20}
    assert neighbours.sino_japanese_pairs(groups, printed) == [("終わる", "終了"), ("終える", "終了")]


def test_play_not_finished_at_the_next_round_reaches_the_law_on_the_end_of_a_round(search_conn):
    """「プレイが終わっていない」 is 8B1's 「プレイが終了していないテーブル」: read as typed, 7A (the board's cards)
    and the definition of the play period came first, 8B1 fifth."""
    found = [r["id"] for r in engine.search(search_conn, "まだプレイが終わっていないのにラウンドが変わった", limit=2)]
    assert any(unit.startswith("laws-2017-ja:8B") for unit in found), found


def test_a_word_the_vocabulary_reads_takes_no_vector_guesses():
    """The vocabulary's reading was judged by reading the Laws; a vector's nearest word may be another sense."""
    rows = neighbours.neighbour_rows(
        [("態と", "人為的", 0.7), ("躊躇い", "躊躇", 0.9)], [], {}, {"人為的", "故意", "躊躇"}, (), [("態と", "故意")]
    )
    assert [(row["word"], row["neighbour"], row["source"]) for row in rows] == [
        ("態と", "故意", "vocabulary"),
        ("躊躇い", "躊躇", "vector"),
    ]


def test_deliberately_reads_as_the_laws_word_for_it_not_as_an_artificial_score(search_conn):
    """わざと is the Laws' 故意 (72B1 「故意に違反してはならない」, corpus/vocabulary.yml); chiVe's nearest printed word,
    人為的, made every first result an artificial adjusted score (人為的調整スコア: 12C, the regulations' tables)."""
    results = engine.search(search_conn, "わざと", limit=10)
    assert results[0]["id"] == "laws-2017-ja:72B1", [r["id"] for r in results]
    assert not [r["id"] for r in results if "人為的" in str(r["why"])]
