"""A verb of the director vocabulary that the Laws never print is read inflected (issue 36): 引っ込めたい is
the 引っ込める of the phrase カードを引っ込める (Law 47), as a director says it mid-ruling."""

from __future__ import annotations

import pytest

from ingest.search.tables import vocabulary_verbs
from laws_site.search import engine
from laws_site.search.data import search_data


def test_the_vocabulary_verbs_are_its_inflecting_words():
    verbs = vocabulary_verbs(
        [{"en": "Retraction", "ja": ["カードのプレイの取り消し"], "spoken": ["カードを引っ込める"]}]
    )
    assert "引っ込める" in verbs
    assert not verbs & {"カド", "プレ", "取り消し"}  # nouns do not inflect


@pytest.mark.parametrize("sentence", ["出したカードを引っ込めたい", "カードを引っ込めた", "カードを引っ込めて"])
def test_an_inflected_vocabulary_verb_is_cut_into_the_word(search_conn, sentence):
    clauses = search_data(search_conn).lexicon.query_clauses(sentence)
    assert ("引っ込める",) in clauses, clauses


def test_the_phrase_reaches_its_law_inflected(search_conn):
    found = [result["id"] for result in engine.search(search_conn, "出したカードを引っ込めたい", limit=3)]
    assert "laws-2017-ja:47" in found, found


@pytest.mark.parametrize(
    ("sentence", "law"),
    [
        ("同伴思考很久后叫牌", "16B1"),  # 思考很久: a hesitation (明白な躊躇)
        ("不小心抽错了叫牌卡", "25"),  # 抽错叫牌卡: an unintended call (意図と異なるコール)
        ("防守方在同伴出牌前搶先引下一墩", "57A"),  # 防守方 a defender, 搶先 premature (早まったプレイ)
        ("南家越序开叫了一个一无将", "31"),  # 越序开叫: an opening bid out of rotation (順番外のビッド)
        ("有一墩牌放错方向了", "65"),  # 放错方向: a card pointed the wrong way (間違った向きに置かれたカード)
        ("最后墩数算不清楚", "79"),  # 墩数: the number of tricks (取ったトリック数)
    ],
)
def test_a_chinese_players_words_reach_the_current_law(search_conn, sentence, law):
    """Chinese table words the 1997 text does not print, filed in the director vocabulary by reading the
    2017 law they name, bring that law into the first three in the Chinese interface."""
    found = [result["id"] for result in engine.search(search_conn, sentence, limit=3, interface="zh")]
    assert any(unit == f"laws-2017-ja:{law}" or unit.startswith(f"laws-2017-ja:{law}") for unit in found), found
