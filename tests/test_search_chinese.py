"""A Chinese sentence cut into words and read in the 2017 Laws' Japanese words (issue 36, item 2):
corpus/chinese_lexicon.tsv (CC-CEDICT's words, jieba's counts), built into table search_chinese, read by
laws_site/search/chinese.py; the glossary's and the vocabulary's terms win, function words name nothing,
and the offline engine cuts the same way (tests/test_search_parity.py runs the Chinese situations)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest
import yaml

from ingest.parsers.records import ParseError
from ingest.search.chinese_lexicon import ENTRY_SEPARATOR, GLOSS_SEPARATOR, LEXICON_FILE, lexicon_rows, read_lexicon
from ingest.search.vocabulary import Vocabulary
from ingest.text import tokenize
from laws_site.search import engine, suits_said, translation
from laws_site.search.chinese import UNKNOWN_COST, ChineseWords
from laws_site.search.data import search_data
from laws_site.search.plan import make_plan, query_tokens
from tests.reading_parity import CUT_IN_NODE, in_node, read_by_both

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


@pytest.fixture(scope="module")
def data(laws_db_path):
    return search_data(sqlite3.connect(laws_db_path))


def words(data, query: str) -> list[str]:
    return translation.japanese_words(data.translations, query, data.chinese)


def cut(data, run: str) -> list[str]:
    return [run[start:end] for start, end in data.chinese.cut(run)]


@pytest.mark.parametrize(
    "run, expected",
    [
        # raw substrings found 手提 ("portable") inside 明手提醒 and 家的 inside 防家的牌
        ("明手提醒了庄家", ["明手", "提醒", "了", "庄家"]),
        ("明手看了防家的牌", ["明手", "看", "了", "防家", "的", "牌"]),
        # a glossary term is cut whole, however rare its characters together
        ("防家有罚张", ["防家", "有", "罚张"]),
    ],
)
def test_a_sentence_is_cut_into_its_words(data, run, expected):
    assert cut(data, run) == expected


def test_the_cut_is_the_path_of_least_cost_and_an_unknown_character_is_a_word(data):
    words = ChineseWords({"ab": 30, "a": 20, "b": 20, "bc": 15})
    assert words.cut("abc") == [(0, 1), (1, 3)]  # a + bc (35) before ab + c (30 + UNKNOWN_COST)
    assert ChineseWords({}).cut("xy") == [(0, 1), (1, 2)]
    # a word the lexicon holds is always cheaper than a character no word holds
    assert max(data.chinese.costs.values()) < UNKNOWN_COST


@pytest.mark.parametrize(
    "query, japanese",
    [
        ("莊家碰了明手的牌", "触れる"),  # 碰: touch, one character (traditional 莊 read as 庄)
        ("明手看了防家的牌", "見る"),  # 看: its common reading kàn, first gloss see
        ("同伴忘了提醒", "忘れる"),  # 忘: forget
        ("刚才那墩是谁赢的", "トリック"),  # 墩: the glossary's trick before the dictionary's block
    ],
)
def test_everyday_chinese_words_reach_the_words_the_laws_print(data, query, japanese):
    assert japanese in words(data, query)


def test_nothing_is_read_from_inside_another_word(data):
    """明手提醒 holds 手提 (portable) but is 明手 + 提醒: the reading is dummy and a warning to declarer only
    (提醒庄家: 43B2(a) 注意)."""
    assert words(data, "明手提醒庄家") == ["ダミー", "注意", "ディクレアラー"]


def test_function_words_and_one_character_terms_name_nothing_in_a_sentence(data):
    """了, 的, 一, 张 are particles, numerals and classifiers (jieba's tags); 牌 alone in a sentence is a
    card, not the glossary's pack (パック), and 下 in 下一墩 is no undertrick ("down")."""
    found = words(data, "防家掉了一张牌")
    assert "パック" not in found and found[0] == "ディフェンダー"
    assert "アンダートリック" not in words(data, "藏牌 已经打了下一墩")
    for word in ("了", "的", "一"):
        assert word not in data.translations


def test_a_chinese_situation_reaches_the_governing_law_first(laws_db_path):
    """碰 read as 触れる: declarer touching a dummy card is Law 45C3; before the cut, Law 48A came first.
    45F (dummy touching a card: ダミー in its title) covers the reading alike and now comes first (a known loss): the 1997
    text's 45C3 had outranked it by the bigrams 手的, 的牌 across the sentence's words, which a Chinese
    sentence's coverage no longer counts (chinese.ChineseWords.clauses)."""
    results = engine.search(sqlite3.connect(laws_db_path), "莊家碰了明手的牌", limit=3, interface="zh")
    assert "laws-2017-ja:45C3" in [r["id"] for r in results[:2]]


@pytest.mark.parametrize(
    "run, word, not_read",
    [
        ("对手一直说风凉话", "风凉话", "言葉"),  # 风 + 凉 + 话 read 话 "words": 言葉
        ("同伴的解释没错", "没错", "間違った"),  # "that's right": the explanation was not wrong
        ("给同伴打暗号", "暗号", None),  # "secret signal", not 暗 + 号
    ],
)
def test_a_word_a_director_says_is_cut_whole_though_written_chinese_seldom_prints_it(data, run, word, not_read):
    """jieba's counts come from written Chinese, where a director's everyday words are rare (风凉话 38, 没错 70,
    暗号 115): the lexicon keeps words counted 20 times (corpus/chinese_lexicon.tsv, make_chinese_lexicon.py), so a
    sentence is no longer cut into their characters and read as one of them."""
    assert word in cut(data, run)
    assert not_read is None or not_read not in words(data, run)


def test_a_gloss_cedict_explains_as_another_thing_is_no_sense_of_the_word(data):
    """算数 "to hold (i.e. to remain valid)", "to count (i.e. to be taken into account)": the words' own sense is
    not the word's; make_chinese_lexicon.py drops such glosses (IN_ANOTHER_SENSE), so "does this card count?"
    shows no 持つ as also searched."""
    assert "算数" in cut(data, "这张牌就算数了吗")
    assert "持つ" not in words(data, "这张牌就算数了吗")


def test_a_verb_the_english_reading_lacks_reads_as_its_noun(data):
    """讨论 "to discuss": the English lexicon has no discuss (JMdict's 議論 is glossed "discussion", a noun), so
    the Chinese verb read nothing; read as its noun, as an English query's verb is (english_keys.span_keys), it is
    90B3's 議論 (ボードの結果についての議論), not consulting partner (10C2 相談: corrected in the English lexicon)."""
    said = words(data, "他们还在大声讨论")
    assert "議論" in said and "相談" not in said


def test_the_lexicon_file_reads_and_keeps_the_first_line_of_a_word():
    entries = read_lexicon(CORPUS / LEXICON_FILE)
    assert len(entries) > 10_000 and all(frequency >= 0 for _, frequency, _ in entries)
    # CC-CEDICT's note of another pronunciation ("also pr. [wa1 ku5]") is no sense of the word
    glosses = [
        (word, english.replace(ENTRY_SEPARATOR, GLOSS_SEPARATOR).split(GLOSS_SEPARATOR)) for word, _, english in entries
    ]
    assert not [word for word, said in glosses if "also pr." in said]
    rows = lexicon_rows([("碰", 1888, "touch"), ("碰", 1, "bump")])
    assert rows == [{"chinese": "碰", "frequency": 1888, "english": "touch"}]


@pytest.mark.parametrize("line", ["碰\ttouch", "碰\tmany\ttouch", "touch\t1888\ttouch"])
def test_a_bad_lexicon_line_is_an_error_naming_file_and_line(tmp_path, line):
    path = tmp_path / LEXICON_FILE
    path.write_text(f"# header\n掉\t8344\tfall|drop\n{line}\n", encoding="utf-8")
    with pytest.raises(ParseError) as error:
        read_lexicon(path)
    assert error.value.line == 3 and LEXICON_FILE in str(error.value)


def test_the_offline_engine_cuts_as_the_server_does(data, search_pack_file):
    """offline-search-reading.js `chineseWords` on the pack's costs gives the server's cut, for every
    Chinese situation of benchmarks/situations.yml (simplified, as both read it) and a few more."""
    situations = yaml.safe_load((ROOT / "benchmarks" / "situations.yml").read_text(encoding="utf-8"))
    queries = [s["query"] for s in situations["situations"]["zh"]] + ["明手提醒庄家", "防守方越序首攻", "罚牌怎么处理"]
    runs = [run.group() for q in queries for run in tokenize.HAN_RUN_RE.finditer(tokenize.to_simplified(q))]
    assert in_node(CUT_IN_NODE, runs, search_pack_file) == [
        [list(word) for word in data.chinese.cut(run)] for run in runs
    ]


@pytest.mark.parametrize("query", ["叫牌时他亮出了一张K", "防家的AK被明手看到了", "一张q掉在桌上"])
def test_a_cards_letter_in_a_chinese_sentence_is_an_honour(data, query):
    """def:アナー 「A、K、Q、J、10のいずれか」: 一张K is an honour card (24B: 1枚のアナーカード), read as the
    vocabulary's 大牌; before, a Latin letter inside a Chinese sentence read nothing."""
    assert "アナー" in words(data, query)


def test_a_letter_is_no_honour_outside_a_chinese_sentence(data):
    """In English "a" is the article and "k" nothing: only a Chinese sentence reads a card's letter."""
    assert "アナー" not in words(data, "a defender showed a card")
    assert "アナー" not in words(data, "打了10墩")


SAID_WITH_A_PARTICLE = [
    ("墩牌放错了方向", "放错了方向", "トリックの並べ方"),  # the vocabulary's 放错方向 (65B)
    ("对方打错了牌号", "打错了牌号", "間違ったボード"),  # 打错牌号 (15)
    ("他拿错了叫牌卡", "拿错了叫牌卡", "意図と異なるコール"),  # 拿错叫牌卡 (25A)
]


@pytest.mark.parametrize("query, said, japanese", SAID_WITH_A_PARTICLE)
def test_a_term_said_with_an_aspect_particle_inside_reads_as_the_term(data, query, said, japanese):
    """A sentence puts 了 (or 过, 着) after the verb of a term the vocabulary lists without it: 放错了方向
    is 放错方向. Before, the term was missed and its words read one by one (放: 位置, 错: 間違った)."""
    assert japanese in dict(translation.read_terms(data.translations, query, data.chinese)).get(said, []), said


def test_the_offline_engine_reads_a_term_across_a_particle_as_the_server_does(data, search_pack_file):
    queries = [query for query, _, _ in SAID_WITH_A_PARTICLE] + ["同伴看过了我的牌", "了了"]
    offline, server = read_by_both(data, queries, search_pack_file)
    assert offline == server


@pytest.mark.parametrize(
    "query, said, japanese",
    [
        ("这墩有五张牌", "五张", "5枚"),  # 45E 「5枚目のカード」
        ("四家都pass了", "四家", "4人"),  # 22B 「4人のプレイヤ全員がパスしたとき」
        ("观众看了兩家的牌", "两家", "2人"),  # traditional 兩 read as 两
        ("他们拿了十二墩", "十二墩", "12トリック"),
    ],
)
def test_a_count_is_read_as_the_laws_print_a_count(data, query, said, japanese):
    """A number said with its measure word reads in digits with the Laws' counter: the number alone ("5")
    would match every 第5条; the count is a word of the situation, and the cut keeps it whole."""
    assert (said, [japanese]) in translation.read_terms(data.translations, query, data.chinese)


@pytest.mark.parametrize(
    "query, said, japanese",
    [
        ("同一个人同一门花色第二次藏牌", "第二次", "2回目"),  # 64B2 「2回目以降のリボーク」
        ("第五张牌打出去了", "第五张", "5枚目"),  # 45E1 「5枚目のカードは」
        ("第一张牌是他出的", "第一张", "1枚目"),  # 45D2 「トリックの1枚目のカード」
        ("第十二墩藏牌", "第十二墩", "12トリック目"),  # 62D 「12トリック目のリボーク」
    ],
)
def test_an_ordinal_is_read_as_the_laws_print_an_ordinal(data, query, said, japanese):
    """第 + a number + its measure word is an order, read in digits with the counter and 目 as the Laws print it:
    第五张 is the fifth card (5枚目), never five cards (5枚); 第二次 (the second time) read nothing before."""
    assert (said, [japanese]) in translation.read_terms(data.translations, query, data.chinese)


def test_a_verb_said_not_done_reads_as_before_it_where_the_laws_print_that(data):
    """没叫裁判 (did not call the director) in 「我们没叫裁判自己就接着打下去了」 is acting before calling, which 11A rules
    (「ディレクターを呼ぶ前に非反則側のどちらかが何か行動を起こした場合」): ディレクターを呼ぶ前 first, the verb after; a
    word the Laws never print before 前 (a noun: 犯规 違反行為) gets no such reading."""
    found = dict(translation.read_terms(data.translations, "我们没叫裁判自己就接着打下去了", data.chinese))
    assert found["没叫裁判"] == ["ディレクターを呼ぶ前", "ディレクターを呼ぶ"], found
    assert "没犯规" not in data.translations


def test_one_with_a_measure_word_is_an_article_not_a_count(data):
    """一张 in 「防家掉了一张牌」 is "a card": no 1枚."""
    assert "1枚" not in words(data, "防家掉了一张牌")
    assert "一张" not in data.translations


def test_more_cards_than_a_hand_holds_is_an_incorrect_number_of_cards(data):
    """十四张: no hand or suit holds more than thirteen cards, so the count is Law 13's カードの過不足 as well (13B
    「ハンドのカードが最初から13枚より多く」); a count a hand can hold (十二张) is the count alone."""
    found = dict(translation.read_terms(data.translations, "叫完牌才发现北家有十四张 南家只有十二张", data.chinese))
    assert found["十四张"] == ["14枚", "カードの過不足"] and found["十二张"] == ["12枚"], found


HELD_SUIT_QUERIES = ["防家有这门花色却垫了别的 马上发现了", "手里还有红心 可以垫别的花色吗", "他没有这门花色 垫了一张"]


def test_a_suit_said_held_is_one_the_player_could_follow(data):
    """有这门花色 (had the suit) is the duty to follow (44C 「可能ならスートにフォローしなければならない」), and the discard
    beside it no inability to follow (44D 「スートにフォローできない場合」) but the revoke it makes (61A 「スートにフォローしない
    こと…はリボークになる」): 垫 reads ディスカード and リボーク there."""
    for query in HELD_SUIT_QUERIES[:2]:
        found = dict(translation.read_terms(data.translations, query, data.chinese, suits_held=data.suits_held))
        assert found["垫"] == ["ディスカード", "リボーク"] and "スートにフォローする" in words(data, query), found
    assert "スートにフォローできない場合" in words(data, "庄家垫了一张")


def test_a_suit_said_not_held_is_no_failure_to_follow(data):
    """没有这门花色 (has none of the suit) is the Laws' 「スートのカードがない」 (61B), never 没 + 有这门花色 read as a
    thing not done (スートにフォローしない: a revoke), and its discard may be an inability to follow."""
    found = dict(
        translation.read_terms(data.translations, HELD_SUIT_QUERIES[2], data.chinese, suits_held=data.suits_held)
    )
    assert found["没有这门花色"] == ["スートのカードがない"] and "スートにフォローできない場合" in found["垫"], found
    assert "リボーク" not in found["垫"], found


def test_a_discard_beside_a_suit_held_reads_the_vocabularys_words(data):
    """suits_said spells none of the Japanese it reads a discard beside a suit held in: the vocabulary's Discard and
    Revoke terms, and as the inability to follow the Discard's Japanese the Laws print as a title of the units it
    names (44D 「スートにフォローできない場合」). A vocabulary that words them otherwise is followed."""
    held = data.suits_held
    assert (held.discard, held.revoke, held.inability) == ("ディスカード", "リボーク", {"スートにフォローできない場合"})

    def entry(number, english, japanese, laws):
        return {"id": number, "en": english, "ja": json.dumps(japanese), "laws": json.dumps(laws)}

    reworded = dataclasses.replace(
        data,
        vocabulary=Vocabulary(
            [
                entry(1, "Discard", ["捨て札", "スートにフォローできない場合"], ["44D"]),
                entry(2, "Revoke", ["反則"], ["61A"]),
            ]
        ),
    )
    held = suits_said.suits_held(reworded)
    assert (held.discard, held.revoke, held.inability) == ("捨て札", "反則", {"スートにフォローできない場合"})
    read = [("有这门花色", ["スートにフォローする"]), ("垫", ["捨て札", "スートにフォローできない場合"])]
    assert suits_said.able_to_follow(read, held)[1] == ("垫", ["捨て札", "反則"])


def test_the_offline_engine_reads_a_suit_held_and_too_many_cards_as_the_server_does(data, search_pack_file):
    queries = [*HELD_SUIT_QUERIES, "叫完牌才发现北家有十四张 南家只有十二张"]
    offline, server = read_by_both(data, queries, search_pack_file)
    assert offline == server


@pytest.mark.parametrize(
    "query, said, japanese",
    [
        ("我叫了三无将", "三无将", "3ノートランプ"),  # a bid: the Japanese reading gains ビッド (words.with_bid_word)
        ("又改成四黑桃", "四黑桃", "4スペード"),
        ("可是我手里没有黑桃了", "没有黑桃", "スートのカードがない"),  # 59 「スートのカードがない」
        ("防家没紅心了", "没红心", "スートのカードがない"),
    ],
)
def test_a_bid_and_a_suit_not_held_read_as_the_laws_say_them(data, query, said, japanese):
    """A level and a strain said together are a bid, read as a Japanese query writes one; a suit said not held
    is the Laws' 「スートのカードがない」, as 「スペードを持っていない」 reads in Japanese (words.TABLE_WORDS)."""
    assert (said, [japanese]) in translation.read_terms(data.translations, query, data.chinese)


def test_a_chinese_bid_is_searched_as_a_bid(data):
    """The Japanese reading of 「三无将」 writes a bid (3ノートランプ), which gains the Laws' ビッド as a Japanese
    query's 「3ノートランプ」 does."""
    plan = make_plan(data, "我叫了三无将 想了一下又改成四黑桃", None)
    translated = next(branch for branch in plan.branches if branch.translated)
    (bid,) = query_tokens(data, "ビッド", "ja")[0]
    assert (bid,) in translated.clauses


def test_a_verb_said_with_its_direction_reads_as_the_verb(data):
    """「明手把庄家没叫的牌放出去了」: 出去 is 出 (the vocabulary's spoken word for a card played, プレイ) said with
    its direction 去, not the dictionary's "to go out" (出る)."""
    found = dict(translation.read_terms(data.translations, "明手把庄家没叫的牌放出去了", data.chinese))
    assert found["出去"] == data.translations["出"] == ["プレイ"]


@pytest.mark.parametrize(
    "query, said, japanese",
    [
        ("莊家只說了黑桃 沒說出哪一張", "黑桃", "スート"),  # 46B2 「スイートだけでランクを指定しなかった場合」
        ("庄家要我出红心", "红心", "スート"),
        ("對手叫了8黑桃", "8黑桃", "8スペード"),  # a bid in digits: as typed (Law 38's 7を超えるビッド)
        ("又改成四黑桃", "四黑桃", "4スペード"),
    ],
)
def test_a_suit_named_in_a_sentence_is_the_laws_suit_but_a_bids_is_as_typed(data, query, said, japanese):
    """The Laws rule a suit, never a named one, and print the four names only where suits are ranked (1A,
    18E): a suit a Chinese sentence names reads スート, as a Japanese sentence's does (words.TABLE_WORDS); a
    bid (a level in words or digits, then the strain) keeps its strain."""
    assert (said, [japanese]) in translation.read_terms(data.translations, query, data.chinese)


def test_a_cards_suit_is_as_typed(data):
    """「黑桃A」 is a card, its suit as typed, as a Japanese query's 「スペードのエース」 (words.NAMED_SUIT)."""
    found = dict(translation.read_terms(data.translations, "他打出了黑桃A", data.chinese))
    assert found["黑桃a"][0] == "スペード" and "アナー" in found["黑桃a"]


def test_the_offline_engine_reads_suits_bids_and_counts_as_the_server_does(data, search_pack_file):
    queries = [
        "對手叫了8黑桃 這個叫品有效嗎",
        "莊家只說了黑桃",
        "可是我手里没有黑桃了",
        "这墩有五张牌",
        "pass了",
        "9黑桃",
        "他打出了黑桃A",
        "黑桃K是谁的",
        "红心pass",
    ]
    offline, server = read_by_both(data, queries, search_pack_file)
    assert offline == server
    assert ["8黑桃", ["8スペード"]] in server[0]


@pytest.mark.parametrize(
    "query, said, not_read",
    [
        ("還沒放到桌上", "放到", "着く"),  # 到 is where the card was put, no "arrive"
        ("打到一半发现这副牌这一轮不该打", "打到", "着く"),
        ("按花色排好的就发了", "排好", "良い"),  # 好: put in order, no "good"
        ("对手把手里的牌叠成一摞扣在桌上", "叠成", "成功"),  # 成: piled into a stack, no "to succeed"
    ],
)
def test_a_verbs_result_reads_nothing_of_its_own(data, query, said, not_read):
    """A result said right after a verb (放到, 排好) is one word with the verb: 到 is no 着く/来る, 好 no 良い/適切, 成 no 成功."""
    found = dict(translation.read_terms(data.translations, query, data.chinese))
    assert not_read not in words(data, query) and found.get(said, []) == data.translations.get(said[0], []), found


def test_a_causative_reads_nothing(data):
    """让 in 「牌面先讓同伴看到了」 says who saw (let partner see): no 生じる ("to yield"), no 許可 ("to permit")."""
    assert not {"生じる", "許可"} & set(words(data, "防家出牌時牌面先讓同伴看到了"))


@pytest.mark.parametrize(
    "query, japanese, wrong",
    [
        ("我不小心加倍了同伴的叫品", "偶然", "慎む"),  # 不小心 "not careful": accidentally (16D1 偶然得た)
        ("庄家不小心掉了一张牌", "偶然", "慎む"),  # 48A 偶然落としたカード
        ("这副牌没洗", "シャフルしない", None),  # 6D2 シャフルしないで配ったディール (negated: chinese.NOT_DONE)
        ("防守方在同伴出牌前搶先引下一墩", "リード", "書く"),  # 1997 50D2 引出该罚张花色: lead, not "to draw"
        ("我做庄家", "ディクレアラー", "メイク"),  # 做 carries 庄家: being declarer, no "to make"
        ("罰牌已經拿回手裡了", "ペナルティカード", "含む"),  # 拿 "to hold": took back, nothing "contained"
        ("明手在打牌过程中主动叫裁判", "ディレクターを呼ぶ", "コール"),  # summoning (1997 9B1(a) 召请裁判), no call
        ("明手在打牌过程中主动叫裁判", "プレイ期間", "過程"),  # during the play, no 過程 "process"
        ("庄家叫明手出大的", "ダミーのカードを指定する", "コール"),  # 1997 46A 庄家指示明手打牌时
        ("庄家叫明手出大的", "同じ意味の言葉で指定", "大きい"),  # 46B1(a) 「高い」、またはこれと同じ意味の言葉
        ("有局四黑桃加倍超一墩", "バルネラブル", None),  # CC-CEDICT 有局 "vulnerable (in bridge)"
        ("裁判应该给两边什么分", "スコア", "割る"),  # 1997 12C3 得分, 调整分: a score, not "to divide"
        ("有一對選手遲到了二十分鐘才來", "競技者", "スコア"),  # 分钟 stays minutes
        ("能不能请对方把前面的叫牌重复一遍", "復唱", "質問"),  # 请 asks someone to act (20B 復唱を求める), no question
        ("我现在该怎么办", "現在", "扱う"),  # 办 "to do": what to do, nothing handled
        ("请裁判来", "ディレクターを呼ぶ", "質問"),  # 1997 9B1(a) 召请裁判, said short
        ("同伴叫牌时说了句你确定吗", "論評", None),  # said a word: 16B1 論評 (了 read across)
        ("首攻前庄家想再听一遍叫牌", "オークションの復唱", "聞く"),  # hear it once more: 41B 復唱を求める
        ("有一對選手遲到了", "指定開始時間後の競技者の到着", None),  # arrived late: 90B1
    ],
)
def test_what_a_director_says_reads_as_the_laws_word(data, query, japanese, wrong):
    read = words(data, query)
    assert japanese in read and wrong not in read, read


@pytest.mark.parametrize(
    "query, said, term",
    [
        ("罰牌已經拿回手裡了", "罚牌", "罚张"),  # the everyday form of the 1997 罚张 (corpus/zh_variants.yml)
        ("夢家看了我的牌", "梦家", "明手"),  # Taiwan's dummy
        ("防家有大罚张", "大罚张", "重罚张"),  # 大罚牌 written with the 1997 罚张: a major penalty card, no 大きい
    ],
)
def test_a_chinese_variant_reads_as_the_1997_term(data, query, said, term):
    found = dict(translation.read_terms(data.translations, query, data.chinese))
    assert found.get(said) == data.translations[term] != [], found


@pytest.mark.parametrize(
    "query, demanded",
    [("庄家要我出黑桃", True), ("他要同伴先出那张", True), ("这样要罚吗", False), ("我要改叫", False)],
)
def test_yao_before_a_player_is_a_demand(data, query, demanded):
    """要 right before a player (要我出黑桃) is the Laws' 要求 (59 「要求されたとおりに」); before a verb (要罚吗) or
    after the one who wants (我要改叫) it demands nothing."""
    assert ("要求" in words(data, query)) == demanded, words(data, query)


@pytest.mark.parametrize(
    "query, said, japanese",
    [
        ("庄家摊牌后防家不同意 四个人都同意接着打下去", "四个人", ["4人"]),  # 68D2(b)(i) 「4人のプレイヤ全員が同意」
        ("同一个人同一门花色第二次藏牌", "同一个人", None),  # 64B2 「同じプレイヤー」: a person, no 個人
        ("有一个人迟到了", "一个人", None),
    ],
)
def test_a_person_counted_with_the_classifier_is_no_individual(data, query, said, japanese):
    """After a number or a demonstrative, 个人 is the classifier 个 and 人 (a person), cut with them: a count
    reads as the Laws print one (4人), the rest nothing; never the word 个人 "individual" (個人)."""
    found = dict(translation.read_terms(data.translations, query, data.chinese))
    assert cut(data, query.split()[-1]).count(said) == 1
    assert found.get(said) == japanese and "個人" not in words(data, query), found


@pytest.mark.parametrize(
    "run, said, board",
    [
        ("一副没兴趣再打的样子", "一副", False),  # an air of: a measure word, no assistant
        ("同一副牌打了两次", "副牌", True),  # 同一副牌, 这副牌: still the board (副牌, 1997 13A 「该副牌」)
        ("这副牌出了问题", "副牌", True),
    ],
)
def test_a_measure_word_after_a_number_or_a_demonstrative_is_no_noun(data, run, said, board):
    """副 after 一, 这, 同一... is the measure word of what follows (一副…的样子: an air of; 一副牌: a deck), cut with
    the number and reading nothing; never 副 "assistant" (アシスタント). 副牌 keeps its place as the board."""
    assert said in cut(data, run)
    assert "アシスタント" not in words(data, run) and ("ボード" in words(data, run)) == board


def test_what_a_call_means_is_asked_as_an_explanation(data):
    """「那个叫品是什么意思」 asks what a call means: the vocabulary's Explanation of Calls (20F1 説明を要求できる), not
    the Japanese 意思 'intention' that Chinese 意思 'meaning' is written like."""
    found = dict(translation.read_terms(data.translations, "可以問對方那個叫品是什麼意思嗎", data.chinese))
    assert found.get("什么意思") == ["コールの説明"] and "意思" not in words(data, "那個叫品是什麼意思")


@pytest.mark.parametrize(
    "query, said, japanese",
    [
        ("庄家手里的牌已经正面朝上碰到桌子了", "正面朝上", "表向き"),  # 1997 45C2 牌面向上: 2017 45C2(a) 表向きに
        ("防家出牌時牌面先讓同伴看到了", "牌面", "表向き"),  # a card's face (1997 45C1), no 面 'side' (側)
        ("庄家手里的牌已经正面朝上碰到桌子了", "碰到", "触れる"),  # 1997 45C2 碰到: 2017 テーブルに触れる
    ],
)
def test_a_cards_face_and_its_touching_the_table_read_as_45c2(data, query, said, japanese):
    """The 1997 Laws' words for a card held face up touching the table (45C2 「牌面向上碰到…桌面」) read as the
    2017 Laws print them, not as the dictionary's first senses (正面 'front': 先; 碰到 'to come across': 見つける)."""
    found = dict(translation.read_terms(data.translations, query, data.chinese))
    assert found.get(said) == [japanese], found


@pytest.mark.parametrize(
    "query, said, japanese",
    [
        ("团体赛裁判给了我们平均分加", "团体赛", "チーム戦"),  # a team competition, not 团体 + 赛 'to compete' (比べる)
        ("是加几个IMP", "imp", "IMP"),  # the abbreviation as typed, as its plural imps reads (12C2(b) 3IMP)
    ],
)
def test_a_team_match_and_its_imps_read_in_a_chinese_sentence(data, query, said, japanese):
    found = dict(translation.read_terms(data.translations, query, data.chinese))
    assert japanese in found.get(said, []), found


@pytest.mark.parametrize(
    "query, warned",
    [
        ("明手提醒庄家不要从错误的一手出牌", True),
        ("明手提示庄家", True),
        ("同伴忘了提醒", False),
        ("对方没有提醒我被误导了", False),
    ],
)
def test_tixing_before_a_player_named_by_role_is_a_warning(data, query, warned):
    """提醒 before a player named by role warns him (1997 43B2(a) 明手提示庄家不要…: 2017 注意した場合), the Laws' 注意,
    no アラート; said alone, or to the one speaking (an opponent), it is still the alert."""
    found = words(data, query)
    assert ("注意" in found and "アラート" not in found) == warned, found


@pytest.mark.parametrize("query", ["能不能请对方把前面的叫牌重复一遍", "请再说一遍叫牌"])
def test_asking_for_the_calls_again_is_a_review_of_the_auction(data, query):
    """重复一遍, 再说一遍 (repeat it, say it again) ask for what the 1997 20B calls 复述: the 2017 復唱 (20B, 20C2)."""
    assert "オークションの復唱" in words(data, query), words(data, query)


def test_a_card_put_in_the_wrong_hand_is_misboarded(data):
    """放错 (put in the wrong place) of a board's card is 87A's 入れ間違え; 放错方向, a trick's card turned the wrong
    way, stays the longer term (65B3)."""
    assert "入れ間違え" in words(data, "這副牌有張牌放錯了家")
    assert "入れ間違え" not in words(data, "墩牌放错方向")
