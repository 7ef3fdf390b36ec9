"""A word directors say that the Laws never print, read in a sentence as the Laws' own term (issue 36): the
director vocabulary (corpus/vocabulary.yml) pairs each spoken form with the Laws' terms it stands for, judged
by reading the Laws (クレーム is 「取りの宣言」, コンシード 「取られの宣言」). In a situation the spoken word is
covered by every unit printing the term, not only by the few laws its entry names: 69B 「「取りの宣言」または
「取られの宣言」に同意した後」 prints the term, the entry names Law 68-71's heads. ingest/search/neighbours.py
(source `vocabulary`) builds it into search_neighbours, which the server and the offline pack read alike."""

from __future__ import annotations

from ingest.search import neighbours
from laws_site.search import engine
from laws_site.search.data import search_data


def test_a_japanese_spoken_form_pairs_with_the_search_words_of_each_law_term():
    pairs = neighbours.spoken_pairs(
        [
            (["取られの宣言"], ["コンシード", "concession", "认输"]),
            (["躊躇", "明白な躊躇"], ["ヘジテーション", "カードを落とした"]),
        ]
    )
    # English and Chinese forms are read by a sentence's translation; a phrase of several words is no clause
    assert pairs == [("コンシド", "取る れる の 宣言"), ("ヘジテシヨン", "躊躇"), ("ヘジテシヨン", "明白 だ 躊躇")]


def test_a_spoken_form_in_kanji_pairs_when_it_is_a_japanese_word():
    """長考 is a word of SudachiPy's dictionary; 犹豫 and 思考很久 are Chinese, read by their sentence's translation."""
    pairs = neighbours.spoken_pairs([(["躊躇"], ["長考", "犹豫", "思考很久"])])
    assert pairs == [("長考", "躊躇")]


def test_partner_passing_after_a_long_think_reaches_law_16(search_conn):
    """「長考」 reads as the Laws' 躊躇 (16B1 明白な躊躇) in a sentence: it was covered by the vocabulary's named
    laws only, and パートナー+パス+ビッド (Law 31, 30B) outweighed it; Law 16 was not in the first ten."""
    found = [r["id"] for r in engine.search(search_conn, "パートナーが長考した後にパス、そのあとのビッド", limit=3)]
    assert any(unit.startswith("laws-2017-ja:16") or unit.startswith("laws-2017-ja:73C") for unit in found), found


def test_vocabulary_neighbours_replace_the_vectors_and_only_for_words_never_printed():
    """A reading judged by reading the Laws (corpus/vocabulary.yml) takes the place of the vectors' guesses: the
    nearest printed word may be another sense (わざと: 人為的, the Laws' artificial score)."""
    rows = neighbours.neighbour_rows(
        [("ヘジテシヨン", "長考", 0.7)],
        [],
        {},
        {"躊躇", "長考", "クレム"},
        vocabulary_pairs=[("ヘジテシヨン", "躊躇"), ("クレム", "取る の 宣言")],
    )
    assert [(row["word"], row["neighbour"], row["source"]) for row in rows] == [
        ("ヘジテシヨン", "躊躇", "vocabulary"),
    ]


def test_in_a_sentence_a_spoken_word_also_reads_as_the_laws_term(search_conn):
    lexicon = search_data(search_conn).lexicon
    clauses = lexicon.query_clauses("相手がコンシードした後で気付いた")
    assert ("コンシド", "取る れる の 宣言") in clauses, clauses
    # alone, the word is answered by its vocabulary entry (plan.make_plan), not widened
    assert lexicon.query_clauses("コンシード") == [("コンシド",)]


def test_an_agreed_claim_found_wrong_reaches_law_69b(search_conn):
    """「クレームに同意した」: 69B's 「「取りの宣言」…に同意した後」 covers クレーム now; it was eighth, under Law 75's
    間違い and 21B's 相手."""
    found = [r["id"] for r in engine.search(search_conn, "相手のクレームに同意したけど後で間違いに気付いた", limit=3)]
    assert any(unit.startswith("laws-2017-ja:69") for unit in found), found


def test_a_hand_told_as_tefuda_reads_as_the_laws_hand(search_conn):
    """手札 (the cards a player holds) is no word of the Laws: def:ハンド 「最初にプレイヤーに配られたカード、
    あるいはその残り部分」. In a sentence it reads as ハンド: 「手札が12枚しかない」 reaches the laws on a hand of
    the wrong number of cards (13A2, 14A あるハンドに13枚より少ないカードしかない) first, where 12 alone found
    62D (the twelfth trick)."""
    found = [r["id"] for r in engine.search(search_conn, "手札が12枚しかない", limit=1)]
    assert found and found[0].startswith(("laws-2017-ja:13", "laws-2017-ja:14")), found


def test_accounts_that_differ_reach_the_law_on_disputed_facts(search_conn):
    """「言い分が食い違う」 (the two sides tell it differently) is the vocabulary's spoken form of Law 85's
    「事実が合意されていない場合」 (and 85B 「納得のいく事実認定ができない場合」): the Laws print neither
    言い分 nor 食い違う, and a sentence holding both reached no part of Law 85 in its first ten."""
    found = [r["id"] for r in engine.search(search_conn, "双方の言い分が食い違っている", limit=3)]
    assert found and found[0].startswith("laws-2017-ja:85"), found


def test_dummy_telling_declarer_how_to_play_reaches_law_45f(search_conn):
    """「プレイを教える」 is the vocabulary's spoken form of 45F 「ダミーがディクレアラーにプレイを示唆し」: the Laws
    print 教える only of a wrong explanation (47E1), and 「ダミーが…プレイを教えた」 found 45F seventh, under titles
    that merely name ダミー and ディクレアラー."""
    found = [
        r["id"] for r in engine.search(search_conn, "ダミーが次にどのカードを出すかプレイを教えてしまった", limit=3)
    ]
    assert any(unit.startswith("laws-2017-ja:45F") for unit in found), found


def test_trying_to_stop_an_irregularity_reaches_its_prevention(search_conn):
    """止める (to stop it happening) is no word of the Laws; the vocabulary's spoken form of 42B2 「違反行為を防ぐ
    よう努めること」 and 9A3 「違反行為を防ごうとすることができる」: in a sentence it reads as 違反行為を防ぐ."""
    found = [r["id"] for r in engine.search(search_conn, "ダミーがディクレアラーの反則を止めようとした", limit=2)]
    assert {"laws-2017-ja:42B2", "laws-2017-ja:9A3"} & set(found), found
