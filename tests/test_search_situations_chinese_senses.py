"""A Chinese word the 1997 Laws print reads in the sense they print it in (issue 36, item 2).

CC-CEDICT's first senses are not the Laws': 成绩 "achievement" read as 達成, 这副牌's 副 "assistant" as
アシスタント, 叫品's 品 "article" as 条項, and 下一墩 (the next trick) as 墩 alone. The glossary and the
director vocabulary pair each with the 2017 term the 1997 text stands for (corpus/glossary.yml,
corpus/vocabulary.yml quote both texts).
"""

from __future__ import annotations

import pytest

from laws_site.search import engine, translation
from laws_site.search.data import search_data


def readings(conn, query: str) -> dict[str, list[str]]:
    data = search_data(conn)
    return dict(translation.read_terms(data.translations, query, data.chinese))


@pytest.mark.parametrize(
    "query, word, japanese",
    [
        ("成绩算错了", "成绩", "スコア"),  # def:比赛分 「参赛者的成绩」 = def:マッチポイント 「スコア」
        (
            "这副牌要重打吗",
            "副牌",
            "ボード",
        ),  # 1997 13A 「该副牌照常进行比赛」 = 2017 13A1 「ボードを普通にプレイさせる」
        ("他取消了那个叫品", "叫品", "コール"),  # 1997 21B2 「他取消的叫品」
        ("谁引下一墩", "下一墩", "次のトリック"),  # 1997 44G 「对下一墩进行引牌」 = 2017 44G 「次のトリックへのリード」
    ],
)
def test_a_word_of_the_chinese_laws_reads_as_the_term_it_stands_for(search_conn, query, word, japanese):
    found = readings(search_conn, query)
    assert japanese in found.get(word, []), found


def test_the_dictionarys_other_senses_are_not_read(search_conn):
    found = readings(search_conn, "成绩算错了 这副牌要重打吗 他取消了那个叫品")
    read = [w for words in found.values() for w in words]
    assert not {"達成", "アシスタント", "条項"} & set(read), found


@pytest.mark.parametrize(
    "query, word, noun_sense",
    [
        # CC-CEDICT "to put; to place": the verb, not English place's noun 位置; 置く, the verb, is printed in too
        # many units to be telling (chinese.TELLING_SHARE), so 放 reads nothing rather than a wrong word
        ("明手把庄家没叫的牌放出去了", "放", "位置"),
        ("防家往一墩里多出了一张", "往", "囲碁"),  # "to go (in a direction)": no 囲碁, the board game go
        ("我们在比赛前遇见了", "遇见", "大会"),  # "to meet": no 大会, a meeting (the tournament)
    ],
)
def test_a_verbs_gloss_reads_the_english_verb_not_its_noun(search_conn, query, word, noun_sense):
    found = readings(search_conn, query)
    assert noun_sense not in found.get(word, []), found


@pytest.mark.parametrize(
    "query, word, japanese, gloss_sense",
    [
        # 25A2 「そのコールが成立する」, 63A; printed in too many units to be telling, it read its gloss "to establish"
        ("防家藏牌成立了", "成立", "成立", "設ける"),
        ("可以要求调整吗", "要求", "要求", "求める"),  # 41C 「前に行われたコールの復唱を要求する」, 50D2(a)
    ],
)
def test_a_word_the_laws_print_in_its_own_kanji_reads_as_that_word(search_conn, query, word, japanese, gloss_sense):
    """A word Japanese writes in the same kanji and the Laws print reads as that word though it is common,
    never as a dictionary gloss written in other kanji."""
    found = readings(search_conn, query)
    assert found.get(word) == [japanese], found
    assert gloss_sense not in found.get(word, [])


@pytest.mark.parametrize(
    "query, word, noun_term",
    [
        ("要转几墩给庄家", "转", "順番"),  # "to turn": no 順番, one's turn to call (64A moves tricks: 移す)
        ("裁判责令他离开", "责令", "順序"),  # "to order": no 順序, an order of things (it reads 命じる)
    ],
)
def test_a_verbs_gloss_reads_no_kanji_noun_of_the_laws_they_never_say_as_a_verb(search_conn, query, word, noun_term):
    found = readings(search_conn, query)
    assert noun_term not in found.get(word, []), found


def test_a_verbs_gloss_still_reads_the_laws_action_words(search_conn):
    """A loanword the Laws use for the action (弃 "to discard": ディスカード) and a noun in the word's own kanji
    (损 "to damage": 損害) still read."""
    found = readings(search_conn, "弃了一张 损坏")
    assert "ディスカード" in found.get("弃", []) and "損害" in found.get("损坏", []), found


def test_the_scores_made_public_are_the_official_score_not_an_announcement(search_conn):
    """成绩公布 (the scores posted) is 92B's 公式スコアが掲示されて: the vocabulary's Official Score, no アナウンス."""
    found = readings(search_conn, "成绩公布一个小时后对手才来申诉")
    assert found.get("成绩公布") == ["公式スコア"] and "アナウンス" not in str(found), found


def test_acting_before_ones_turn_is_out_of_rotation(search_conn):
    """没轮到 (before it came to one's turn) is the vocabulary's Out of Rotation, 順番外 (29A 順番外のコール), not
    轮到's 順番 alone."""
    found = readings(search_conn, "上家没轮到就叫了一红心")
    assert found.get("没轮到") == ["順番外"], found


@pytest.mark.parametrize(
    "query, word, synonym_sense",
    [
        ("和规定的不一样 叫品不同", "不同", "明確"),  # "different, distinct": 別 is everyday; 明確 is 68C's "clear"
        ("他送了一个礼物", "礼物", "現行"),  # "gift, present": no 現行, the current trick's "present"
    ],
)
def test_a_later_synonym_of_an_everyday_first_sense_reads_nothing(search_conn, query, word, synonym_sense):
    """A word whose first sense is a word the Laws print everywhere (不同 "different": 別) says that sense; a later
    gloss's rarer word is another sense of the English (distinct: 明確) shown as also searched."""
    found = readings(search_conn, query)
    assert synonym_sense not in found.get(word, []), found


def test_a_later_gloss_in_the_words_own_kanji_still_reads(search_conn):
    """手续 "procedure, formalities" keeps 手続き (47A 手続き), written with its own 手."""
    found = readings(search_conn, "手续不对")
    assert "手続き" in found.get("手续", []), found


def test_a_term_said_as_the_head_of_the_laws_phrase_reads_the_head_too(search_conn):
    """说明 is the vocabulary's コールの説明 and 説明 of anything else (68C's 明確な説明 of a line of play): 没说明 is the
    Laws' 説明しない (70C1 説明せず), as 没跟出 is フォローしない."""
    found = readings(search_conn, "庄家摊牌了 但是没说明打算怎么打")
    assert found.get("没说明", [None])[0] == "説明しない", found


def test_dummys_spreading_is_no_claim(search_conn):
    """明手摊牌 (1997 45F 「明手摊牌后」: dummy's hand spread) is 41D's ダミーのハンド, not 摊牌's claim (取りの宣言)."""
    found = readings(search_conn, "明手摊牌的时候把将牌放在了左边")
    assert found.get("明手摊牌") == ["ダミーのハンド"] and "取りの宣言" not in str(found), found


@pytest.mark.parametrize(
    "query, word, japanese",
    [
        ("庄家声明剩下的墩都是他的", "声明", "申し立て"),  # "to state ... statement": 68A 申し立て
        ("明手建议庄家先打方块", "建议", "示唆"),  # "to propose, to suggest ... suggestion": 16B1 示唆
    ],
)
def test_a_later_noun_of_a_first_verb_sense_reads(search_conn, query, word, japanese):
    """CC-CEDICT lists a word's verbs, then the same sense as nouns (声明 "to state, to declare, statement"): the
    noun of a first verb is a first sense too."""
    found = readings(search_conn, query)
    assert japanese in found.get(word, []), found


@pytest.mark.parametrize(
    "query, wrong",
    [
        # 标的 "target" (対象) is 标 + 的 here: the vulnerability marked on the board
        ("牌套上标的局况和规定的不一样", "対象"),
        # 较 "to compare ... comparatively": an adverb is no noun of compare, no 割合 (a proportion)
        ("他的牌较好", "割合"),
        # 刚才 "just now" (a moment ago): now says when, as then does, no 今 (20B's 今までのコール, the calls so far)
        ("同伴刚才给对手的解释不对", "今"),
    ],
)
def test_a_dictionary_words_other_sense_is_not_read(search_conn, query, wrong):
    found = readings(search_conn, query)
    assert wrong not in [word for words in found.values() for word in words], found


def test_a_noun_and_the_particle_the_laws_print_stays_a_word(search_conn):
    assert "目的" in readings(search_conn, "他叫牌的目的是什么").get("目的", []), "20G1 目的"


@pytest.mark.parametrize(
    "query, word, suit",
    [
        ("我心里觉得他是故意的", "心里", "ハート"),  # "in one's heart": no suit
        ("他戴着钻石戒指打牌", "钻石", "ダイヤモンド"),  # a diamond, the stone
        ("俱乐部的比赛", "俱乐部", "クラブ"),  # a club, where people play
    ],
)
def test_a_suits_english_gloss_is_no_suit_outside_its_chinese_name(search_conn, query, word, suit):
    """A suit's English name on a Chinese word (心 "heart", 钻石 "diamond", 俱乐部 "club") is its everyday sense; the
    suit is said by its Chinese name (红心), which still reads as the Laws' スート."""
    found = readings(search_conn, query)
    assert suit not in found.get(word, []), found
    assert readings(search_conn, "他首攻了红心").get("红心") == ["スート"]  # 还有红心 is a suit held (suits_said.py)


@pytest.mark.parametrize(
    "query, word, wrong",
    [
        ("他拿着一根棒敲桌子", "棒", "付ける"),  # 棒 "stick, club": a thing, no 付ける (JMdict's verb "to stick")
        ("他用杆子指了指那张牌", "杆子", "付ける"),  # 杆子 "pole, stick"
        ("他拿笔在记分表上写了分数", "笔", "書く"),  # 笔 "pen": the thing written with, no 書く ("to pen")
    ],
)
def test_a_things_gloss_reads_no_japanese_verb_of_the_english_verb(search_conn, query, word, wrong):
    found = readings(search_conn, query)
    assert wrong not in found.get(word, []), found
    assert readings(search_conn, "他在记分表上写了分数").get("写") == ["書く"]  # 写 "to write" is the verb


def test_an_infinitive_gloss_is_no_other_verbs_past(search_conn):
    """钻 "to drill, to bore": the English reading keeps bore as bear's past (負う, to bear a burden); an infinitive
    gloss says the verb itself."""
    found = readings(search_conn, "他想钻规则的空子")
    assert "負う" not in found.get("钻", []), found


@pytest.mark.parametrize(
    "query, word, call",
    [
        ("我们度过了难关", "度过", "パス"),  # 度过 "to pass (time), to get through": no call
        ("这一关过关了", "过关", "パス"),  # 过关 "to get through, to pass"
        ("他兼着记分", "兼", "ダブル"),  # 兼 "double, twice": doing two jobs at once, no call
        ("这副牌他复了一遍", "复", "ダブル"),  # 复 "to repeat, to double"
    ],
)
def test_a_calls_english_gloss_is_no_call_outside_its_chinese_name(search_conn, query, word, call):
    """Pass, double, redouble (def:コール 「ビッド、ダブル、リダブル、パスのいずれか」) are calls in the Chinese names the
    Laws give them (不叫, 加倍, 再加倍), as a suit is a suit only in its Chinese name."""
    found = readings(search_conn, query)
    assert call not in found.get(word, []), found
    assert readings(search_conn, "上家不叫 我加倍").get("不叫") == ["パス"]
    assert "ダブル" in readings(search_conn, "上家不叫 我加倍").get("加倍", [])


def test_declarers_hand_spread_is_also_a_claim(search_conn):
    """庄家摊牌 (1997 48B's title) is 48B's ハンドを広げ and, by 48B2 (ハンドを広げたときは ... 宣言をしたとみなし) and 68A
    (自分のハンドを見せたときも、「取りの宣言」になる), the claim a Chinese director means by it."""
    found = readings(search_conn, "庄家摊牌时没提将牌 防家手里还有一张将牌")
    assert found.get("庄家摊牌") == ["ハンドを広げ", "取りの宣言"], found


@pytest.mark.parametrize(
    "query, word",
    [
        ("首攻的牌已经扣着放在桌上了 还没翻开 我想换一张", "扣着"),  # 41A オープニングリードを伏せて出す
        ("我那张牌已经扣下了 下一墩还没出", "扣下"),  # 65A 自分のカードを…伏せる
    ],
)
def test_a_card_turned_face_down_is_the_laws_face_down(search_conn, query, word):
    """扣 is glossed fasten, button, arrest: 扣着, 扣下 read nothing; at the table they are face down (伏せる)."""
    found = readings(search_conn, query)
    assert found.get(word) == ["伏せる"], found


def test_a_chinese_spoken_form_makes_no_kanji_japanese(search_conn):
    """The vocabulary's Chinese spoken forms (没轮到, 牌面) are no words of a Japanese query: a kanji only they held (牌)
    made a Chinese sentence of it and kanji Japanese prints (叫牌不足 没注意) read as Japanese, 注意, 不足 matched alone."""
    from laws_site.search.presentation import word_languages

    data = search_data(search_conn)
    query = "叫牌不足 没注意"
    assert not data.lexicon.reads_as_japanese(query)
    assert word_languages(data, query)[query] == "zh"


@pytest.mark.parametrize("query, word", [("明手告诉庄家应该先打方块", "打方块"), ("他先打这门花色", "打这门花色")])
def test_a_suit_played_with_da_reads_play(search_conn, query, word):
    """打 before a suit is the play of a card of it, as the 1997 Laws print 打 for play (43A1(c) 「参与打牌」, def:藏牌
    「打出另外花色的牌」); 打 alone (打暗号: give a signal) reads nothing."""
    assert readings(search_conn, query).get(word) == ["プレイ", "スート"]
    assert "プレイ" not in str(readings(search_conn, "对方给同伴打暗号"))


def test_telling_a_player_of_ones_side_is_information_conveyed(search_conn):
    """告诉庄家 (telling declarer) is 43A1(c)'s 「ディクレアラーに…情報を伝えて」, no 46A's 告げる (naming a card);
    telling the opponents (告诉对手) keeps its own reading."""
    found = readings(search_conn, "明手告诉庄家应该先打方块")
    assert found.get("告诉庄家") == ["伝える", "ディクレアラー"], found
    assert "伝える" not in str(readings(search_conn, "要告诉对手吗"))


def test_dummy_suggesting_a_play_finds_43A1c_first(search_conn):
    results = engine.search(search_conn, "明手告诉庄家应该先打方块", limit=3, interface="zh")
    assert results[0]["ref"] == "43A1(c)", [r["ref"] for r in results]


@pytest.mark.parametrize(
    "query",
    ["他的叫品被取消了 换了一个意思不一样的叫品", "他同伴后面叫牌能用取消的那个叫品的意思吗"],
)
def test_the_meaning_of_a_call_is_its_meaning_not_an_intention(search_conn, query):
    """Chinese 意思 said of a call is its meaning, the Laws' 意味 (23A1 「同じまたはほぼ同じ意味を持つコール」; 1997 26
    「与被取消叫牌的含义有较大不同」), not the Japanese 意思 'intention' written alike (73B 「不当な意思の伝達」)."""
    found = readings(search_conn, query)
    assert found.get("意思") == ["意味"], found


def test_sarcastic_remarks_are_the_laws_gratuitous_comments(search_conn):
    """风凉话 ('cynical remarks') and 挖苦 ('to make cutting remarks') read nothing of their own glosses; they are the
    comments 74B2 bars (「オークションとプレイ中、余計な批評をすること」): the vocabulary's Gratuitous Comments, 批評."""
    query = "对手一直说风凉话 挖苦我们打得差"
    found = readings(search_conn, query)
    assert found.get("风凉话") == ["批評"] and found.get("挖苦") == ["批評"], found
    assert "74B2" in [result["ref"] for result in engine.search(search_conn, query, interface="zh")[:3]]


def test_a_secret_signal_to_partner_is_prearranged_communication(search_conn):
    """暗号 ('secret signal') read nothing; given to partner it is 73B2's あらかじめ取り決めた方法 (the vocabulary's
    Prearranged Communication, said in English 'illicit signals')."""
    query = "對方叫牌時用手指敲桌子給同伴打暗號"
    assert readings(search_conn, query).get("暗号") == ["あらかじめ取り決めた方法"]
    assert "73B2" in [result["ref"] for result in engine.search(search_conn, query, interface="zh")[:3]]
