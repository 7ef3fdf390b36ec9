"""An English situation read in the Laws' words (issue 36, item 2): each term the director says counts
in the Laws' words, without a form that adds words the director did not say."""

from __future__ import annotations

import pytest

from ingest.search.english_lexicon import FUNCTION_WORDS
from laws_site.search import engine, english_keys, plan, translation
from laws_site.search.data import search_data
from tests.reading_parity import read_by_both


def test_a_term_reads_as_its_shortest_forms_not_as_a_title_holding_them(search_conn):
    """ "change my call" is the vocabulary's Change of Call: 言い直し, 言い換え; Law 25's title
    コールの適法な言い直しと違法な言い直し adds 適法 and 違法, words the director did not say, which a sentence
    counted as two more words of the situation (Law 25 then outranked 21B1(a) on 'explained wrongly')."""
    data = search_data(search_conn)
    read = translation.japanese_words(data.translations, "can I change my call now", data.chinese)
    assert "言い直し" in read, read
    assert "コールの適法な言い直しと違法な言い直し" not in read, read


def test_a_form_saying_the_term_otherwise_is_kept(search_conn):
    """Only a form holding another form's every word and more goes: 偶然落としたカード ("dropped a card")
    says it otherwise than 見せたカード, and 落とす is the word the director said."""
    data = search_data(search_conn)
    forms = ["コールの適法な言い直しと違法な言い直し", "言い直し", "言い換え"]
    assert translation.forms_without_extra_words(data, forms) == ["言い直し", "言い換え"]
    assert translation.forms_without_extra_words(data, ["言い直し"]) == ["言い直し"]
    both = ["見せたカード", "偶然落としたカード"]
    assert translation.forms_without_extra_words(data, both) == both


def test_a_chinese_terms_forms_are_kept_whole(search_conn):
    """Only English keys are trimmed: a Chinese word's readings are laws_site/search/chinese.py's to weigh."""
    data = search_data(search_conn)
    several = [key for key, forms in data.translations.items() if not key.isascii() and len(forms) > 1]
    assert several, "no Chinese term with several Japanese forms"
    counts = {
        key: {sum(not w.dropped and w.norm not in data.lexicon.light for w in data.lexicon.cut(f)) for f in forms}
        for key, forms in data.translations.items()
        if not key.isascii() and len(forms) > 1
    }
    assert any(len(found) > 1 for found in counts.values())


def test_determiners_and_prepositions_read_nothing(search_conn):
    """ "his own hand" is no 持つ (to own), "about" no 通り, "how many" no 多い: words that point or count
    tell no situation (FUNCTION_WORDS), and the dictionary's readings of them outweighed the situation's."""
    data = search_data(search_conn)
    read = translation.japanese_words(data.translations, "declarer led from his own hand", data.chinese)
    assert read == ["ディクレアラー", "リード", "ハンド"], read
    for word in ("own", "about", "over", "each", "many", "only"):
        assert translation.japanese_words(data.translations, word, data.chinese) == [], word


def test_a_support_verb_before_an_article_reads_nothing(search_conn):
    """ "made a bid" is a bid, not the contract made (メイク); "made the contract" keeps it, and a term
    holding the verb still reads whole."""
    data = search_data(search_conn)
    assert translation.japanese_words(data.translations, "he made a bid", data.chinese) == ["ビッド"]
    assert "メイク" in translation.japanese_words(data.translations, "declarer made the contract", data.chinese)


def test_make_before_any_determiner_carries_the_noun_after_it(search_conn):
    """ "made the opening lead", "made his claim" are a lead, a claim: no メイク, 77's contract made (SENSES_BY_OBJECT);
    "made his contract" and "made the contract" name that term and keep it. Take keeps its sense after "the"."""
    data = search_data(search_conn)
    lead = translation.japanese_words(data.translations, "his partner made the opening lead", data.chinese)
    assert lead == ["パートナー", "オープニングリード"], lead
    assert "メイク" not in translation.japanese_words(data.translations, "declarer made his claim", data.chinese)
    assert "メイク" in translation.japanese_words(data.translations, "he made his contract", data.chinese)
    assert "取る" in translation.japanese_words(data.translations, "declarer took the trick", data.chinese)


@pytest.mark.parametrize(
    "query, law",
    [
        ("my opponent shook his head when his partner made the opening lead", "73B1"),
        ("she nodded when her partner bid", "73B1"),
        ("the defender showed his disgust at his partner's play", "74C2"),
    ],
)
def test_a_gesture_or_disapproval_shown_reads_as_the_laws_say_it(search_conn, query, law):
    """A head shaken, a nod, a shrug are the Laws' gesture (身振り: 73B1 余計な論評または身振り); disgust shown at a
    call or play is 74C2's disapproval (コールやプレイに同意や不満を表すこと). Both read nothing, or made read メイク."""
    data = search_data(search_conn)
    read = translation.japanese_words(data.translations, query, data.chinese)
    assert ("不満" if law == "74C2" else "身振り") in read, read
    found = [result["id"] for result in engine.search(search_conn, query, limit=10, interface="en")]
    assert any(unit.startswith(f"laws-2017-ja:{law}") for unit in found), found


@pytest.mark.parametrize("query", ["he made a bid", "making a call", "declarer made the contract"])
def test_a_sentence_with_a_support_verb_finds_its_noun(search_conn, query):
    """Searched alike online and offline (tests/test_search_parity.py compares this file's queries)."""
    assert engine.search(search_conn, query, limit=3, interface="en"), query


@pytest.mark.parametrize(
    "query", ["hesitate", "he hesitated", "she hesitates", "hesitating", "partner hesitated", "the defender hesitated"]
)
def test_a_word_the_laws_never_print_reads_as_theirs_even_alone(search_conn, query):
    """ "hesitate" reads as 躊躇う, which the Laws never print: their word is 躊躇 (16B1 明白な躊躇, 73A2, 73D).
    A Japanese query of the one word reaches it as the query's synonym; a translation runs no synonyms, so
    the word carries its neighbours itself, and a query of one word besides function words ("he hesitated")
    is searched as that word (a sentence's coverage needs two): both found nothing."""
    found = [result["id"] for result in engine.search(search_conn, query, limit=3, interface="en")]
    assert any(unit.startswith(("laws-2017-ja:16B1", "laws-2017-ja:73")) for unit in found), found


def test_player_is_the_laws_player_not_the_contestant(search_conn):
    """The Laws print プレイヤー for a player (16B1, 29A, in 182 units); 競技者 is the contestant (def:競技者:
    one, two or four or more players). The dictionary's native word came first; now the loanword the Laws print."""
    data = search_data(search_conn)
    assert translation.japanese_words(data.translations, "a player passed", data.chinese) == ["プレイヤー", "パス"]


@pytest.mark.parametrize(
    ("english", "laws_word"),
    [("score", "スコア"), ("pocket", "ポケット"), ("opening", "オープニング"), ("table", "テーブル")],
)
def test_an_english_word_reads_as_its_own_loanword_the_laws_print(search_conn, english, laws_word):
    """corpus/english_lexicon.tsv (make_english_lexicon.sounds_alike): the Laws print スコア, ポケット (90B6),
    オープニングリード, テーブル; the dictionary's native words came first (得点, 隠し, 開催, 表)."""
    assert search_data(search_conn).translations[english] == [laws_word]


@pytest.mark.parametrize(
    ("query", "digits"), [("he found only twelve cards", "12"), ("she holds 13 cards", "13"), ("the third round", "3")]
)
def test_a_number_reads_as_the_laws_digits(search_conn, query, digits):
    """The Laws print numbers in digits (13枚, 62D 12トリック目, 58B 2枚以上): a number a director says or
    types is one word of the situation, where "twelve" read nothing and "13", no English word, was dropped."""
    data = search_data(search_conn)
    assert digits in translation.japanese_words(data.translations, query, data.chinese)


@pytest.mark.parametrize(
    ("query", "laws_word"),
    [("partner explained it", "説明"), ("he explained the double", "説明"), ("she is explaining", "説明")],
)
def test_a_verb_reads_as_the_noun_the_laws_print(search_conn, query, laws_word):
    """The Laws say 説明する with the noun (20F コールの説明, 20F5(a) 間違った説明をした), which the dictionary
    glosses only as "explanation": the verb a director says reads as its noun."""
    data = search_data(search_conn)
    read = translation.japanese_words(data.translations, query, data.chinese)
    assert any(laws_word in word for word in read), read


@pytest.mark.parametrize("query", ["hesitate", "he hesitated"])
def test_why_names_the_word_the_unit_prints(search_conn, query):
    """A translation's why shows the law's own word (hesitate → 躊躇), not the reading no unit prints (躊躇う)."""
    results = engine.search(search_conn, query, limit=4, interface="en")
    assert results and [result["why"]["words"] for result in results] == [["躊躇"]] * len(results), results


def test_a_function_word_reads_no_noun_made_of_it(search_conn):
    """ "tried" is no trial (予選), "not" no notion (考え), "done" no donation (贈与): a function word
    names nothing, neither as typed nor through an ending or the noun English makes of a verb."""
    data = search_data(search_conn)
    for sentence in ("dummy tried to stop it", "it was not his turn", "it is done"):
        read = translation.read_terms(data.translations, sentence, data.chinese)
        assert not any(set(typed.split()) <= FUNCTION_WORDS for typed, _ in read), (sentence, read)
    # ... and nor does a result say it holds one (the parity test runs this query offline too)
    for result in engine.search(search_conn, "dummy tried to stop it", limit=5, interface="en"):
        assert "tried" not in result["why"]["from"].split(" · "), result["why"]
    assert english_keys.span_keys(["tried"]) == [] and english_keys.span_keys(["not"]) == []


def test_wrong_reads_as_the_laws_mistaken(search_conn):
    """ "wrong", "wrongly" are the Laws' 間違った (15A1 間違ったボード, 20F5(a) 間違った説明, 82C ディレクターの間違い):
    a director's "wrong ruling" is Law 82C's, not any ruling of 84 or 85 (the glossary's Wrong / Mistaken)."""
    data = search_data(search_conn)
    for sentence in ("as director I gave a wrong ruling", "they explained it wrongly"):
        assert "間違った" in translation.japanese_words(data.translations, sentence, data.chinese), sentence
    found = [r["id"] for r in engine.search(search_conn, "as director I gave a wrong ruling", limit=3, interface="en")]
    assert found[0] == "laws-2017-ja:82C", found


def test_ended_reads_as_the_laws_concluded_not_before(search_conn):
    """ "ended", "finished" are the Laws' 終了 (22 オークションの終了, 17D1 オークションが終了した後, 66D プレイ終了後):
    JMdict's first word for "end" is 前 ("before"), the opposite of what the director said (the glossary's
    Ended / Finished). A call after the auction ended is Law 39's (最後のパスの後のコール): in the first ten."""
    data = search_data(search_conn)
    for sentence in ("the auction had already ended", "the play is finished"):
        read = translation.japanese_words(data.translations, sentence, data.chinese)
        assert "終了" in read and "前" not in read, (sentence, read)
    query = "he made a bid after the auction had already ended"
    found = [r["id"] for r in engine.search(search_conn, query, limit=10, interface="en")]
    assert any(unit.startswith("laws-2017-ja:39") for unit in found), found


def test_late_reads_as_the_lateness_the_laws_index_files(search_conn):
    """ "late" is 遅刻 (the Laws' 索引 files 90B1 指定開始時間後の競技者の到着 under 手順上のペナルティ/遅刻; the
    JCBL regulations' 第45条 遅刻や遅いプレイ), not JMdict's 遅く, which no unit about arriving prints."""
    data = search_data(search_conn)
    assert translation.japanese_words(data.translations, "they came late", data.chinese)[-1:] == ["遅刻"]
    found = [r["id"] for r in engine.search(search_conn, "the team arrived late", limit=5, interface="en")]
    assert "laws-2017-ja:90B1" in found, found


def test_a_d_ending_is_a_past_only_after_an_e(search_conn):
    """ "find" is no past of "fin" (whose noun, "finance", read as 金融); "decided" still reads as "decide"."""
    data = search_data(search_conn)
    assert translation.japanese_words(data.translations, "his partner would find the lead", data.chinese) == [
        "パートナー",
        "リード",
    ]
    assert translation.stems("decided") == ["decided", "decid", "decide"]
    assert translation.stems("find") == ["find"]


def test_a_term_read_as_several_words_counts_once():
    """ "pointed out" is read as 違反行為の指摘 and 違反行為があったときの手順: six words, each of which counted as
    much as "dummy" or "revoked"; each now counts its share of the one term the director typed."""
    clauses = [("違反 行為",), ("指摘",), ("手順",), ("ダミ",), ("リボク",)]
    sources = (("pointed out", frozenset({"違反", "行為", "指摘", "手順"})), ("dummy", frozenset({"ダミ"})))
    shares = plan.term_shares(clauses, sources)
    assert shares == {"違反 行為": 1 / 3, "指摘": 1 / 3, "手順": 1 / 3, "ダミ": 1.0}


def test_dummy_drawing_attention_reaches_dummys_limits(search_conn):
    """43A1(b) dummy may not draw attention to an irregularity during play; it was tenth, under Law 9's units."""
    found = [r["id"] for r in engine.search(search_conn, "dummy pointed out that a defender had revoked", limit=3)]
    assert any(unit.startswith("laws-2017-ja:43") for unit in found), found


def test_a_card_the_wrong_way_is_the_arrangement_of_tricks(search_conn):
    """ "wrong way" is 65B3's 間違った向きに置かれたカード (corpus/vocabulary.yml, Arrangement of Tricks); "way"
    alone read as 方法, and 45D1, which holds 置く, カード, 間違い, came first."""
    found = [r for r in engine.search(search_conn, "a card pointed the wrong way", limit=1, interface="en")]
    assert found and found[0]["law"] == "65", found[0]["id"]


def test_a_suit_named_reads_as_the_laws_suit_and_a_bid_as_typed(search_conn):
    """A suit in an English sentence is the Laws' スート, as a Chinese one is (they rule a suit, never a named one:
    59 リードを要求されたスートのカードがない); a bid ("one spade", "eight hearts") keeps its suit; "has no spades"
    states 59's void, the suit, and "no spades?" asked is still the question of 61B (since situations-en23)."""
    data = search_data(search_conn)
    read = dict(translation.read_terms(data.translations, "declarer demanded a spade lead but he has no spades"))
    assert read["spade"] == read["spades"] == ["スート"] and "no spades" not in read, read
    read = dict(translation.read_terms(data.translations, "no spades, partner?"))
    assert read["no spades"][0] == "リボークに関する質問", read
    read = dict(translation.read_terms(data.translations, "he opened one spade and partner bid eight hearts"))
    assert read["one spade"] == ["1スペード"] and read["eight hearts"] == ["8ハート"], read


def test_calling_a_person_summons_the_director(search_conn):
    """ "call me" is the vocabulary's Summoning the Director (ディレクターを呼ぶ); "calling you", "called him" say
    the same of another person, not a call of the auction (コール)."""
    data = search_data(search_conn)
    for query, said in [("instead of calling you", "calling you"), ("they called him at the end", "called him")]:
        assert dict(translation.read_terms(data.translations, query)).get(said) == ["ディレクターを呼ぶ"], query
    assert dict(translation.read_terms(data.translations, "my turn to call")).get("call") == ["コール"]


def test_asking_is_the_laws_question(search_conn):
    """The Laws print asking as 質問 (20C1, 61B3 and 14 units more), 尋ねる only once (20F3): ask, asked, asking
    read 質問, which 20G1 (パートナーの利益のためだけに質問) and 61B print."""
    data = search_data(search_conn)
    for query in ("he asked about our bids", "can a defender ask his partner", "asking about the auction"):
        assert "質問" in translation.japanese_words(data.translations, query), query
        assert "尋ねる" not in translation.japanese_words(data.translations, query), query


# (query, what was said, the Laws' word it reads, the sense it read before); the Laws' words: 71A トリックを対戦相手に
# 譲った, 68B2 パートナーが直ちに反対した, 45C1 表が見えるように持っていた, Definitions アナー「A、K、Q、J、10のいずれか」,
# 57C3 早まってプレイ, 70E1 プレイの成功には特定のカードを持っている対戦相手を見つける, 68C カードをプレイする順序
LAWS_WORDS = [
    ("declarer gave up a trick", "gave up", "取られの宣言", "諦める"),
    ("his partner objected", "objected", "反対", "的"),
    ("he held the card face up", "held", "持つ", "含む"),
    ("declarer showed the king", "king", "アナー", None),
    ("declarer played too early", "too early", "早まったプレイ", "早く"),
    ("if the finesse works", "finesse", "特定のカードを持っている対戦相手を見つける", "技巧"),
    ("if it succeeds", "succeeds", "成功", "受け継ぐ"),
    ("the order of the cards", "order", "順序", "順位"),
    ("the score was entered wrong", "entered", "記録", "立ち入る"),  # 79C1 スコアの記録や計算の間違い
    ("he keeps pulling a card", "pulling", "抜き出す", "牽引"),  # 74B3 プレイする順番の前にカードを抜き出すこと
    ("without naming a card", "naming a card", "ダミーのカードを指定する", "指名"),  # 46A カードを指定する
]


@pytest.mark.parametrize("query, said, laws_word, wrong", LAWS_WORDS)
def test_an_everyday_word_reads_as_the_laws_word_not_another_sense(search_conn, query, said, laws_word, wrong):
    """What a user sees as "also searched" is the Laws' word for what the director said, not JMdict's first
    sense of it (gave up: 諦める 'to abandon hope'; objected: the noun object's 的 'a target'; held: 含む 'to
    contain'); an honour named in English is アナー, as a letter in a Chinese sentence is."""
    data = search_data(search_conn)
    read = dict(translation.read_terms(data.translations, query))
    assert laws_word in read.get(said, []), read
    assert wrong not in read.get(said, []), read


def test_asking_for_a_card_or_an_honour_is_designating_dummys_card(search_conn):
    """ "asked for the king" (from dummy) is declarer designating dummy's card (46A 指定する, 45D1 名指していない
    カード), as "called for a card" is: an honour named reads as the card it is; not 求める, "to request"."""
    data = search_data(search_conn)
    for query, said in [("declarer asked for the king", "asked for the king"), ("he called for a queen", None)]:
        read = dict(translation.read_terms(data.translations, query))
        found = read.get(said) if said else next((w for w in read.values() if "ダミーのカードを指定する" in w), None)
        assert found and "ダミーのカードを指定する" in found, read


VERBS_BY_PLACE = [
    ("then he goes to the next table", "goes", "動く", "囲碁"),  # not the game of go
    ("can he show his cards", "show", "見せる", "見え"),
    ("must I correct it", "correct", "訂正", "正しい"),  # 75B2 説明を訂正しなければならない
]


@pytest.mark.parametrize("query, said, verb, noun", VERBS_BY_PLACE)
def test_a_word_after_a_subject_or_an_auxiliary_reads_as_its_verb(search_conn, query, said, verb, noun):
    """After a subject pronoun or an auxiliary (adverbs between) a word is a verb: it reads as the table's verb
    ("to go": 動く), not as the noun JMdict reads the word by (go: 囲碁); elsewhere it keeps its
    reading ("the correct card": 正しい)."""
    data = search_data(search_conn)
    read = dict(translation.read_terms(data.translations, query))
    assert read.get(said) == [verb], read
    assert dict(translation.read_terms(data.translations, "he played the correct card"))["correct"] == ["正しい"]


def test_the_offline_engine_reads_a_verb_by_its_place_as_the_server_does(search_conn, search_pack_file):
    data = search_data(search_conn)
    queries = [query for query, *_ in VERBS_BY_PLACE] + ["the work", "he did not stop", "go"]
    offline, server = read_by_both(data, queries, search_pack_file)
    assert offline == server


@pytest.mark.parametrize("query", ["they sorted it out themselves", "the players settled it themselves at the table"])
def test_players_settling_it_themselves_is_rectification_without_the_director(search_conn, query):
    """Players who "sorted it out themselves" assessed or waived a rectification, which 10A denies them
    (プレイヤーには自らの意思で調整を決める（または免除する）権利はない): the vocabulary's Waiver of Rectification.
    Before, the idiom read nothing (sorted ... out a phrasal verb no term names)."""
    data = search_data(search_conn)
    assert "免除" in translation.japanese_words(data.translations, query, data.chinese)
    found = [result["id"] for result in engine.search(search_conn, query, limit=3, interface="en")]
    assert any(unit.startswith("laws-2017-ja:10") for unit in found), found


def test_a_line_of_play_that_works_reads_nothing(search_conn):
    """ "it only works if the finesse succeeds" (70E1): work read 動く, which the Laws print only for boards moved
    (8A2 ボードを次のラウンドのテーブルに動かす), or 作業, printed only in the prefaces (the translators' work); now
    nothing (corpus/english_lexicon_corrections.tsv)."""
    data = search_data(search_conn)
    read = translation.japanese_words(data.translations, "it only works if the finesse succeeds", data.chinese)
    assert "動く" not in read and "作業" not in read and "成功" in read, read
