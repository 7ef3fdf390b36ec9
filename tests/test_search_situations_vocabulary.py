"""A verb of the director vocabulary that the Laws never print is read inflected (issue 36): 引っ込めたい is
the 引っ込める of the phrase カードを引っ込める (Law 47), as a director says it mid-ruling."""

from __future__ import annotations

import pytest

from ingest.search.tables import vocabulary_verbs
from laws_site.search import engine, english_keys, translation
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


def test_a_phrase_is_read_with_its_first_word_inflected(search_conn):
    """「pointed out」 is the vocabulary's "point out" (9A 違反行為の指摘): a phrase's first word inflects as
    its last does; and "slow pass", as English appeal write-ups name a call after a hesitation, is one."""
    keys = english_keys.span_keys(["pointed", "out"])
    assert keys[0] == "pointedout" and "pointout" in keys
    # one word: its stems, as before, then the nouns English makes of them (english_lexicon.nouns_of)
    assert english_keys.span_keys(["passed"])[:3] == ["passed", "pass", "passe"]
    data = search_data(search_conn)
    read = translation.japanese_words(data.translations, "dummy pointed out that a defender had revoked", data.chinese)
    assert "違反行為の指摘" in read, read
    top = engine.search(search_conn, "slow pass", limit=3, interface="en")
    assert any(result["id"].startswith("laws-2017-ja:16B") for result in top), [r["id"] for r in top]


def test_card_in_english_is_the_laws_card(search_conn):
    """ "card" had no reading (JMdict glosses カード as "card (information, filing)", which the English lexicon
    leaves out) and answered パートナー; the glossary pairs Card / カード / 牌张."""
    top = engine.search(search_conn, "card", limit=5, interface="en")
    assert top and all("カード" in (result["title"] or "") for result in top), [r["id"] for r in top]
    data = search_data(search_conn)
    assert "カード" in translation.japanese_words(data.translations, "one hand had 14 cards", data.chinese)
    # face up is the Laws' 表向き (41, 49, 50A), not JMdict's フェイス (a face) + 上 (above)
    read = translation.japanese_words(data.translations, "defender dropped a card face up", data.chinese)
    assert "表向き" in read and "フェイス" not in read, read
    # face down is the Laws' 伏せる (41A 伏せて出す, 65A, 66A テーブル上に伏せるまでは), not フェイス
    read = translation.japanese_words(data.translations, "declarer turned his card face down", data.chinese)
    assert "伏せる" in read and "フェイス" not in read, read


@pytest.mark.parametrize(
    ("sentence", "law"),
    [
        ("opponent was rude to me", "74A"),  # rude: against 74A1 礼儀正しい態度
        ("declarer said small from dummy", "46B"),  # small: 46B1(c) 「低い」、またはこれと同じ意味の言葉
        ("they argued over how many tricks were won", "79"),  # 79A1 取ったトリックの数は ... 合意される
        # different versions of what happened: 85 「事実が合意されていない場合」 (Rulings on Disputed Facts)
        ("the players give different versions of the auction", "85"),
        ("I found five cards in one trick", "67"),  # 67A 2枚以上のカードをプレイしたとき (Defective Trick)
    ],
)
def test_an_english_players_words_reach_the_current_law(search_conn, sentence, law):
    found = [result["id"] for result in engine.search(search_conn, sentence, limit=3, interface="en")]
    assert any(unit.startswith(f"laws-2017-ja:{law}") for unit in found), found


def test_a_vocabulary_word_covers_its_law_though_a_note_prints_it(search_conn):
    """ロー ("low", 46B1(c) 「低い」、またはこれと同じ意味の言葉) is printed only in notes, where it reads as "Law":
    the law the vocabulary names for it still covers the word, and governs the sentence."""
    found = [result["id"] for result in engine.search(search_conn, "ディクレアラーがローとだけ言った", limit=3)]
    assert found[0] == "laws-2017-ja:46B1(c)", found


@pytest.mark.parametrize(
    ("sentence", "law"),
    [
        ("ビッドボックスから違うカードを出してしまった", "25A"),  # 25A1 機械的失敗
        ("ディクレアラーが言い間違えてダミーのカードを指定した", "45C4(b)"),  # 口が滑ったことによるもの
        ("ディレクターを呼ばずに自分たちでペナルティを決めてしまった", "10A"),  # 自らの意思で調整を決める権利はない
        # a finesse (フィネス, the Laws print none) is 70E1's 特定のカードを持っている対戦相手を見つけること
        ("クレームしたけどフィネスが当たらないと取れないトリックがあった", "70E1"),
        # プレイの途中 is the Laws' プレイ期間 (20F2 プレイ期間中), in which 41C lets declarer and defenders learn the contract
        ("プレイの途中でコントラクトを確認したい", "41C"),
        # 点差 is 78B's 得失点の差, which the IMP table converts
        ("チーム戦で点差が1000点あったらIMPはいくつ", "78B"),
    ],
)
def test_a_japanese_directors_phrase_reaches_the_law(search_conn, sentence, law):
    """The unit or a part of it (25A1 for 25A: a heading its part above shows follows the first screen,
    ranking.first_screen)."""
    found = [result["id"] for result in engine.search(search_conn, sentence, limit=3)]
    assert any(unit.startswith(f"laws-2017-ja:{law}") for unit in found), found


def test_a_kanji_words_kana_spelling_is_not_cut_out_of_an_inflection(search_conn):
    """期待's reading きたい is a word of the lexicon (a query typed in kana); inside 聞きたい it is the verb's
    ending: the spelling is cut last, so the sentence holds 聞く, not 期待."""
    clauses = search_data(search_conn).lexicon.query_clauses("ビッドの意味を聞きたい")
    assert ("聞く",) in clauses and ("期待",) not in clauses, clauses


def test_a_phrase_is_read_with_other_function_words_inside(search_conn):
    """ "changed his mind" is the vocabulary's "change of mind" (25B 意図したコール): its function words (of,
    his) do not count in the phrase; before, it read 変更 + 気 and 47C came first."""
    assert english_keys.content_key("change of mind") == "changemind"
    assert "changemind" in english_keys.span_keys(["changed", "his", "mind"])
    assert english_keys.span_keys(["the", "mind"]) == english_keys.inflected_keys(["the", "mind"])  # ends kept
    found = [
        r["id"] for r in engine.search(search_conn, "he changed his mind after making a call", limit=3, interface="en")
    ]
    assert any(unit.startswith("laws-2017-ja:25B") for unit in found), found


@pytest.mark.parametrize(
    ("sentence", "within"),
    [
        ("パートナーのビッドをダブルしてしまった", 1),
        ("パートナーのビッドにダブルした", 1),
        ("パートナーのダブルをリダブルしてしまった", 3),
    ],
)
def test_a_double_of_partners_own_call_reaches_law_36(search_conn, sentence, within):
    """A double of partner's bid, a redouble of partner's double is no double Law 19 allows (19A1 対戦相手が
    したビッドで ... 最後のビッドだけ; 19B1): 36 「認められないダブルやリダブル」, not 27B3 or 19's parts."""
    found = [result["id"] for result in engine.search(search_conn, sentence, limit=within)]
    assert any(unit.startswith("laws-2017-ja:36") for unit in found), found


def test_a_sign_made_to_partner_reaches_law_73b(search_conn):
    """A sign made to partner is communication between partners (73B1 ... 身振り ... を意思の伝達的手段に使わない),
    not the director's signal of 8B1 (ラウンド開始の合図), the only 合図 the Laws print."""
    found = [result["id"] for result in engine.search(search_conn, "パートナーに目で合図を送った", limit=1)]
    assert found[0].startswith("laws-2017-ja:73B"), found
    found = [result["id"] for result in engine.search(search_conn, "ディレクターが次のラウンドの合図をした", limit=1)]
    assert found[0] == "laws-2017-ja:8B1", found


@pytest.mark.parametrize("sentence", ["パートナーがダブルをやけに強い声で言った", "パートナーが強い口調でパスした"])
def test_a_call_in_a_strong_voice_reaches_the_laws_on_emphasis(search_conn, sentence):
    """A call said in a strong voice is 16B1's 特別な強調、声の調子 and 73A2's 不適切な強調 ... 抑揚."""
    found = [result["id"] for result in engine.search(search_conn, sentence, limit=3)]
    assert any(unit.startswith(("laws-2017-ja:16B1", "laws-2017-ja:73A2")) for unit in found), found
