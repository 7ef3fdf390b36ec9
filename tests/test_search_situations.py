"""Situation search holds its recall (issue 36): a regression guard, not a target.

The 391 judged situation queries of benchmarks/situations.yml run through `search()` as the
benchmark runs them (benchmarks/situations.py); each language's recall@1 and recall@3 must stay at or
above a floor set a little below what the ranking reached when it was written (benchmarks/RESULTS.md
has the figures). The queries run in chunks, one test each, so that no test takes long; the
language tests read what the chunks found (and run any chunk not yet run, when run alone).
"""

from __future__ import annotations

import sqlite3

import pytest

from benchmarks import situations
from benchmarks.relevance import Ancestry
from ingest.search import lexicon
from laws_site.search import engine, translation
from laws_site.search.coverage import content_clauses, phrase_units, vocabulary_named
from laws_site.search.data import search_data
from laws_site.search.plan import make_plan
from laws_site.search.ranking import is_sentence
from laws_site.search.words import light_words, with_bid_word

CHUNK = 8
SITUATIONS = situations.load()
CHUNKS = [SITUATIONS[i : i + CHUNK] for i in range(0, len(SITUATIONS), CHUNK)]
# reached with kanji words counted, lighter notes, the abbreviations fixed, the Laws above a regulation or
# commentary and a provision above a definition covering alike (whole set): ja 0.527 / 0.625, zh 0.333 / 0.667,
# en 0.407 / 0.481; a note holding every word no longer hides its laws: ja 0.527 / 0.652, en 0.407 / 0.593;
# an English sentence no longer searched as typed besides its reading: en 0.519 / 0.667; a translated
# compound (対戦相手) one word of the situation: en 0.556 / 0.704; of JMdict's words the one the Laws print
# most: en 0.593 / 0.741 (benchmarks/RESULTS.md); the director vocabulary's words and phrases inside a
# sentence, a situation ranked by coverage though a unit holds its words: ja 0.562 / 0.661; a Chinese
# sentence's own coverage counted by its words, not bigrams across them (51 zh queries): zh 0.647 / 0.784;
# English read in the Laws' words (no title's extra words, function words, loanwords, numbers, verbs as
# nouns; 51 queries): en 0.627 / 0.745; six unseen English situations added (57 queries): en 0.579 / 0.684; "wrong" read as the Laws' 間違った: en 0.596 / 0.737;
# the vocabulary's spoken words read in a sentence as the Laws' terms, a duty and the next table in the Laws'
# words (134 ja queries): ja 0.649 / 0.836; 57 zh queries (6 new, 0.596 / 0.737), slow play, a concession
# and a psych in Chinese words, a late spoken sense of a dictionary word no longer read (说: 論評): zh 0.632 / 0.772;
# six unseen English situations (63 en queries): en 0.603 / 0.730; ended and late in the Laws' words, disputed facts
# and a defective trick as directors say them: en 0.635 / 0.762; 140 ja queries (6 new: 0.636 / 0.814); a hiragana
# run cut where a known word starts, a kana stem a word, a formal noun in kana light, three spoken forms of the
# vocabulary (言い分が食い違う, プレイを教える, 止める): ja 0.657 / 0.850; 63 zh queries (6 new, 0.500 / 0.500): zh
# 0.651 / 0.762; 1997 words in their Laws' sense (成绩, 副牌, 叫品, 下一墩), a term said with 了 inside (抽错了叫牌卡):
# zh 0.667 / 0.778; 69 zh queries (6 new, 0.333 / 0.500): zh 0.638 / 0.754; a term said head first (叫牌不足), 出 as
# play, asking as the Laws' 質問: zh 0.652 / 0.768; six unseen English situations (69 en queries; 6 new: 0.500 /
# 0.500): en 0.623 / 0.739; a part holding more of the sentence first, an English term read as several words
# counted once: en 0.638 / 0.754; "wrong way" the Laws' 間違った向き (vocabulary): en 0.652 / 0.768; 75 zh queries
# (6 new, 0.000 / 0.000): zh 0.600 / 0.707; a character read in its common reading (要: yào, not 強いる), no sense of
# another time or place (北: not 負ける): zh 0.627 / 0.720
# six unseen English situations (75 en queries; 6 new: 0.333 / 0.333): en 0.627 / 0.733; a word's sense by its gloss's place, read as
# the Laws read it, a verb form read as the verb: en 0.640 / 0.760, zh 0.652 / 0.754; a Chinese verb's gloss read
# as the English verb (放 no 位置, 往 no 囲碁: two wrong senses that had helped): zh 0.638 / 0.739;
# both: zh 0.613 / 0.693 (75 queries); 81 zh queries (6 new, 0.000 / 0.500): zh 0.568 / 0.679; a sense in the
# word's own kanji (记 記録, not ノート; 超 超える, not パス): zh 0.568 / 0.667; a count read as the Laws print
# one (五张 5枚, 四家 4人): zh 0.580 / 0.691; a Chinese bid read as a bid (三无将 3ノートランプ: ビッド), a suit
# said not held (没有黑桃) as the Laws' スートのカードがない: zh 0.580 / 0.704; 出去 read as 出 said with its
# direction (プレイ, not 出る): zh 0.580 / 0.716; a suit named in a Chinese sentence is the Laws' スート, a bid's
# (四黑桃, 8黑桃) as typed: zh 0.580 / 0.728; 84 zh queries (3 new, 0.333 / 0.667): zh 0.571 / 0.726; a verb's result,
# a causative, a carrying verb read nothing (放到, 让, 做), variants read as their 1997 term (罚牌, 大罚张), 要 before a
# player a demand (要求), table words in the Laws' (不小心 偶然, 洗, 引, 叫明手, 叫裁判, 有局, 分, 出大的): zh 0.607 / 0.762
# 88 zh queries (4 new, 0.000 / 0.000): zh 0.580 / 0.727; 个人 after a number or a demonstrative a person (四个人 4人),
# 什么意思 an explanation asked for: zh 0.591 / 0.750; 1997 45C2's 牌面向上 and 碰到 (表向き, 触れる): zh 0.602 / 0.750; 团体赛, IMP as printed: zh 0.602 / 0.761;
# 提醒 before a player named by role a warning (注意): zh 0.602 / 0.773; 重复一遍 a review (復唱): zh 0.614 / 0.784;
# 放错 a misboarded card (入れ間違え): zh 0.625 / 0.795
# 158 ja queries (6 new: 0.500 / 0.667), a question, a statement heard and a
# request wished for in the Laws' words (質問, 教える, 要求), one kana no word of a query, a heading's part first:
# ja 0.684 / 0.886
# six unseen English situations (81 en queries; 6 new: 0.167 / 0.500): en 0.605 /
# 0.741; during, sorted it out, called me, not follow suit, shuffling, conjunctions, findable readings, left and right
# by their place: en 0.605 / 0.778; aspect verbs, stopped to think, called for a card, the rest: en 0.630 / 0.815;
# four unseen English situations (85 en queries; 4 new: 0.500 / 1.000): en 0.624 / 0.824; suits as スート, a verb by
# its place, asking 質問, asked for the king, too early, finesse, succeed, order, entered, gave up, held: en 0.659 / 0.847
# three unseen English situations (89 en queries; 3 new: 0.333 / 0.333): en 0.652 / 0.831; get, instead, without
# read nothing, a negation (failed to, never: 'not'), a purpose (so that: 目的), opened, took advantage: en 0.674 / 0.843
# 170 ja queries (3 new, judged first: 0.667 / 1.000), a word held only inside another counted less (出す of 取り出す,
# 目 of 12トリック目), こっち and ところ one light word, フィネス, プレイの途中, 手から: ja 0.682 / 0.900; 点差: ja 0.688 / 0.906
# two unseen English situations (97 en queries; 2 new, judged first: 0.500 / 0.500): en 0.680 / 0.825; a term
# beginning with a verb's -ing form read in any form of the verb (turned up late: Late Arrival): en 0.691 / 0.835
# two unseen English situations, judged first (97 en queries; 2 new: 0.000 / 0.000): en 0.670 / 0.814
# merged round of the sixth session (375 queries): a heading named for a word passes it to its parts; Chinese suits
# held or not; phrasal English (turned up late, asked for): ja 0.702 / 0.912, zh 0.638 / 0.838, en 0.677 / 0.828
# two unseen Chinese situations, judged first (107 zh queries; 2 new: 0.000 / 1.000): zh 0.626 / 0.841; words written
# Chinese seldom prints kept (jieba's count >= 20), a Chinese verb the English reading lacks read as its noun
# (讨论: discussion, 議論): zh 0.636 / 0.850
# two unseen Chinese situations judged first (109 zh queries): zh 0.615 / 0.826; 庄家摊牌 also a claim, 扣着/扣下 face
# down, a Chinese spoken form no Japanese kanji: zh 0.642 / 0.862
# merged (383 queries: en 101 with four unseen ones judged first, zh 111): ja 0.708 / 0.912, zh 0.640 / 0.874,
# en 0.663 / 0.822
# 告诉 + one's own side 伝える, 打 + a suit プレイ, 第 + number an ordinal, 没 + verb "before" it: zh 0.658 / 0.901
# one unseen English situation judged first (102 en queries; the new one 1.000 / 1.000): en 0.667 / 0.824; a verb's
# sense by its object (made the opening lead: no メイク), a thing set apart from a clause's (a different card from the
# one declarer asked for: 45D), a term's negation kept: en 0.676 / 0.833
# one unseen English situation judged first (102 en queries; new: 1.000 / 1.000): en 0.667 / 0.824; make before a
# determiner no メイク, gestures 身振り, disgust 不満, written down 記録, sorted it out themselves 免除: en 0.667 / 0.833
# one unseen English situation judged first (102 en queries; 40B4 at 3): en 0.657 / 0.824; the same moment 同時, a call
# that stands 成立, a double of partner's bid 36's, a run of six words (a possessive's s), allowed no 付与, cost
# 損害: en 0.667 / 0.843
# merged with the hand said as a time, watch 観察, played cards gathered up, as-provided rules, katakana pieces bound,
# a compound counted once in a sentence's bm25, a verb of saying before a clause (388 queries: en 106 with five unseen
# ones judged first): ja 0.719 / 0.912, zh 0.676 / 0.901, en 0.708 / 0.906
# one unseen English situation judged first (107 en queries; 41C, rank 1): en 0.710 / 0.907; a verb form spelt apart
# before its particle, a chance to act the Laws' right, a verb's manner adverb (slow play), a call's meaning asked (20F1),
# a bid after the auction (39): en 0.720 / 0.925 (governing law @3 0.869 -> 0.907)
# merged with a heading its part shows after the first screen, ja / zh / en readings (391 queries, three judged first):
# ja 0.767 / 0.965, zh 0.705 / 0.920, en 0.720 / 0.925; the governing LAW @3 (the words, read by the Law: any part
# of a governing unit's Law) ja 0.942, zh 0.920, en 0.916, @1 0.744 / 0.679 / 0.720 - its floors (LAW_FLOORS) are the
# issue's targets themselves
FLOORS = {"ja": (0.75, 0.95), "zh": (0.69, 0.91), "en": (0.70, 0.91)}  # recall@1, recall@3
LAW_FLOORS = {lang: (0.60, 0.90) for lang in ("ja", "zh", "en")}  # the governing law @1, @3 (situations.first_in_laws)
FOUND: dict[int, list[situations.Outcome]] = {}


@pytest.fixture(scope="module")
def judged(laws_db_path):
    conn = sqlite3.connect(f"file:{laws_db_path}?mode=ro", uri=True, check_same_thread=False)
    engine.prepare(conn)
    yield conn, Ancestry(conn)
    conn.close()


def outcomes_of(judged, chunk: int) -> list[situations.Outcome]:
    if chunk not in FOUND:
        conn, ancestry = judged
        FOUND[chunk] = [situations.evaluate(conn, situation, ancestry) for situation in CHUNKS[chunk]]
    return FOUND[chunk]


def test_the_set_is_the_judged_one():
    assert len(SITUATIONS) == 391
    assert {lang: sum(s.lang == lang for s in SITUATIONS) for lang in FLOORS} == {"ja": 172, "zh": 112, "en": 107}
    assert sum(s.held_out for s in SITUATIONS) == 57 + 37 + 35


@pytest.mark.parametrize("chunk", range(len(CHUNKS)), ids=[f"{i * CHUNK + 1}-" for i in range(len(CHUNKS))])
def test_every_situation_query_gets_an_answer(judged, chunk):
    for outcome in outcomes_of(judged, chunk):
        assert not outcome.top.startswith("QueryError"), (outcome.situation.query, outcome.top)


@pytest.mark.parametrize("lang", sorted(FLOORS))
def test_recall_stays_above_its_floor(judged, lang):
    found = [o for chunk in range(len(CHUNKS)) for o in outcomes_of(judged, chunk) if o.situation.lang == lang]
    figures = situations.summary(found)
    at_1, at_3 = FLOORS[lang]
    assert figures["recall@1"] >= at_1 and figures["recall@3"] >= at_3, (
        lang,
        figures,
        [(o.situation.query, o.rank, o.top) for o in found if not o.rank or o.rank > 3],
    )
    law_at_1, law_at_3 = LAW_FLOORS[lang]
    assert figures["law@1"] >= law_at_1 and figures["law@3"] >= law_at_3, (
        lang,
        (figures["law@1"], figures["law@3"]),
        [(o.situation.query, o.law_rank, o.top) for o in found if not o.law_rank or o.law_rank > 3],
    )


@pytest.mark.parametrize(
    ("surface", "norm", "is_light"),
    [
        # written in kana, serving another word: no situation of its own
        ("し", "為る", True),
        ("しまっ", "仕舞う", True),
        ("いる", "居る", True),
        ("その", "其の", True),  # an adnominal, however written
        ("まま", "侭", True),  # a formal noun in kana (置いたまま), the dictionary's 副詞可能
        ("とき", "時", True),
        # written in kanji, the word itself: 間違ったハンド, 出したカード, 見せたカード, 順番外
        ("間違っ", "間違う", False),
        ("出し", "出す", False),
        ("見せ", "見せる", False),
        ("外", "外", False),
        ("表", "表", False),  # a prefix too (表彰), but 表にして出した means face up
        ("後", "後", False),  # 副詞可能 too, but written in kanji: オークションが終わった後
    ],
)
def test_a_word_written_in_kanji_carries_the_situation(surface, norm, is_light):
    assert lexicon.light(surface, norm) is is_light


def test_a_word_the_corpus_prints_as_content_is_not_light_for_one_kana_spelling():
    """A query's word is compared by its form: one light kana spelling (まちがう) does not make light a
    word printed in kanji far more often (間違っ); a word printed mostly in kana serving another stays light."""
    rows = [
        ("まちがう", "間違う", 0, 1, 1),
        ("間違っ", "間違う", 0, 0, 134),
        ("できる", "出来る", 0, 1, 241),
        ("出来る", "出来る", 0, 0, 33),
        ("すぎる", "過ぎる", 0, 1, 6),
        ("過ぎる", "過ぎる", 0, 0, 8),
        ("しまっ", "仕舞う", 0, 1, 40),
    ]
    assert light_words(rows) == {"出来る", "過ぎる", "仕舞う"}


def test_the_corpus_light_words_keep_what_serves_and_drop_what_the_text_prints(judged):
    light = search_data(judged[0]).lexicon.light
    assert {"為る", "仕舞う", "居る", "出来る", "其の"} <= light
    assert not {"間違う", "見る", "得る"} & light  # 間違ったハンド, カードを見た carry the situation


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        # a colloquial ending the corpus never prints no longer makes its whole run of kana one unknown word
        ("コンシードしたけど", ["コンシード", "し", "た", "けど"]),
        ("あなたのリードですよと", ["リード", "です", "よ", "と"]),
        ("順番じゃないのにダブル", ["順番", "じゃ", "ない", "の", "に", "ダブル"]),
    ],
)
def test_the_dictionarys_particles_and_auxiliaries_are_words_of_the_cut(judged, typed, words):
    cut = [word.surface for word in search_data(judged[0]).lexicon.cut(typed)]
    assert cut[-len(words) :] == words


def assert_known(judged, typed: str, expected: list[str], field: str) -> None:
    """Each expected word is a known word of the lexicon's cut of ``typed`` (its surface or its norm)."""
    cut = [getattr(word, field) for word in search_data(judged[0]).lexicon.cut(typed) if word.known]
    assert all(word in cut for word in expected), cut


@pytest.mark.parametrize(
    ("typed", "known"),
    [
        # SudachiPy makes hiragana an unknown word only where no word of its dictionary starts: a kana spelling
        # the lexicon lacks (のぞき込む) no longer swallows the particle and the word before it
        ("相手の手札をじっとのぞき込んでいる", ["を", "じっと"]),
        ("パスのじゅんばんがちがった", ["じゅんばん", "が", "ちがっ"]),
        # ... nor one after it: an unknown run ends where a word of the lexicon starts (つ + きそうなところまで was
        # one unknown word; わ + か + ったことはこっちは another)
        ("テーブルにつきそうなところまで出して", ["つき", "そう", "まで", "出し"]),
        ("取り消したビッドでわかったことはこっちは使っていいの", ["わかっ", "た", "こと", "は", "使っ"]),
    ],
)
def test_an_unknown_run_of_hiragana_does_not_swallow_a_known_word(judged, typed, known):
    assert_known(judged, typed, known, "surface")


@pytest.mark.parametrize(
    ("typed", "word", "form"),
    [
        # a pronoun or formal noun of three kana the corpus does not print so is one light word, not fragments
        # that counted as words of the situation (こっ + ち, と + ころ)
        ("取り消したビッドでわかったことはこっちは使っていいの", "こっち", "此方"),
        ("ダミーからリードすべきところを手からリードした", "ところ", "所"),
        ("そっちのカード", "そっち", "其方"),
    ],
)
def test_a_pronoun_or_formal_noun_in_kana_is_one_light_word(judged, typed, word, form):
    data = search_data(judged[0])
    cut = [(found.surface, found.norm) for found in data.lexicon.cut(typed)]
    assert (word, form) in cut, cut
    assert form in data.lexicon.light


@pytest.mark.parametrize(
    ("typed", "forms"),
    [
        # a word the Laws print in katakana, typed in hiragana in a sentence (a phone's keyboard before conversion)
        ("順番外のりーど", ["順番", "外", "リド"]),
        ("だみーにかーどを見せた", ["ダミ", "カド"]),
        # a word the lexicon knows in hiragana stays that word (ある, not a katakana reading)
        ("ある", ["有る"]),
    ],
)
def test_a_katakana_word_typed_in_hiragana_is_that_word(judged, typed, forms):
    assert_known(judged, typed, forms, "norm")


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        # a verb typed in kana, inflected: its stem is a word of the cut, not the start of an unknown run
        ("1トリックあげますと言った", ["あげ", "ます", "と"]),
        ("ボードのカードをいれかえた", ["いれかえ", "た"]),
    ],
)
def test_a_verb_typed_in_kana_is_cut_at_its_stem(judged, typed, words):
    assert_known(judged, typed, words, "surface")


@pytest.mark.parametrize("typed", ["りぼーく", "じゅんばんがいのりーど"])
def test_a_query_wholly_in_hiragana_is_a_reading(judged, typed):
    """Typed wholly in hiragana, a query is a reading: one unknown word, not the words it happens to hold
    (順番 of じゅんばん put the definition of 順番 first), answered by its reading (→ リボーク, 順番外のリード)."""
    conn = judged[0]
    assert [word.known for word in search_data(conn).lexicon.cut(typed)] == [False]
    first = engine.search(conn, typed, limit=1)[0]
    assert first["id"] in {f"laws-2017-ja:{law}" for law in ("53", "54", "55", "56", "61")}
    assert first["why"]["from"] == typed and first["why"]["sign"] == "→"


def test_a_unit_holding_every_word_of_a_situation_does_not_answer_it_by_that_alone(judged):
    """The definition of パス prints 順番, ダブル and 言う; the situation is a double out of rotation (Law 32). Read
    as a call made (ダブルとコールした: words.TABLE_WORDS), Law 32's sections on whose turn it was (32A-C, titled
    「…のコールの順番」) may come before the law itself: the first screen is Law 32's."""
    conn = judged[0]
    results = engine.search(conn, "順番じゃないのにダブルと言った", limit=3)
    assert all(r["id"].startswith("laws-2017-ja:32") for r in results), [r["id"] for r in results]
    assert "laws-2017-ja:def:パス" not in [r["id"] for r in results]
    assert "laws-2017-ja:def:パス" not in [r["id"] for r in results]


def test_the_indexs_own_heading_is_no_situation(judged):
    """A 索引 entry files these words together: its boost answers them, not a sentence's coverage."""
    conn = judged[0]
    data = search_data(conn)
    sentence = make_plan(data, "ダミーがディクレアラーの間違ったハンドからのリードを止めようとした", None)
    heading = make_plan(data, "意思の伝達、テンポとディセプション テンポ", None)
    assert is_sentence(data, sentence) and not is_sentence(data, heading)
    assert not is_sentence(data, make_plan(data, "declarer played from the wrong hand", None))


def test_a_kanji_no_japanese_word_holds_makes_the_query_chinese_only(judged):
    """「庄家不小心掉了一张牌」: 庄, 张, 掉 are in no Japanese word, so the query is Chinese; read as Japanese
    too, its kanji one by one (家, 小, 心) covered noise (86B2, 27B4 first). A kanji-only query Japanese
    writes (長考, 順番外) is still read as Japanese."""
    conn = judged[0]
    data = search_data(conn)

    def own_languages(query):
        return {branch.lang for branch in make_plan(data, query, None).branches if branch.via is None}

    assert own_languages("庄家不小心掉了一张牌") == {"zh"}
    assert own_languages("防家同时打出了两张牌") == {"zh"}
    assert own_languages("順番外") == {"ja", "zh"} and "ja" in own_languages("長考")
    assert own_languages("ダミーが止めた") == {"ja"}
    # 方 read as Japanese matched トリックの並べ方 (65), first for this query before
    found = [r["id"] for r in engine.search(conn, "对方解释错了 我想改叫", limit=10, interface="zh")]
    assert "laws-2017-ja:65" not in found and "laws-2017-ja:21B1(a)" in found


def test_a_reviewed_chinese_variant_counts_in_a_sentence(judged):
    """罚牌 is 罚张 (corpus/zh_variants.yml): in 「罚牌怎么处理」 no unit holds every word, and the sentence's
    units were found by 处理 alone (29, 9 first); the variant's words now count too: Law 50 comes up."""
    found = [r["id"] for r in engine.search(judged[0], "罚牌怎么处理", limit=3, interface="zh")]
    assert any(unit.startswith("laws-2017-ja:50") for unit in found), found


def test_a_chinese_word_reads_as_the_japanese_word_of_the_same_kanji(judged):
    """同时 is 同時 (58B: 同時に2枚以上のカード), 过程 過程: a word Japanese writes with the same kanji reads as
    it when the Laws print it as a telling word; one character (慢) does not (Japanese writes 遅い)."""
    conn = judged[0]
    data = search_data(conn)
    assert "同時" in translation.japanese_words(data.translations, "防家同时打出了两张牌", data.chinese)
    assert data.translations.get("同时") == ["同時"] and "慢" not in data.translations.get("慢", [])
    top = [r["id"] for r in engine.search(conn, "防家同时打出了两张牌", limit=3, interface="zh")]
    assert any(unit.startswith("laws-2017-ja:58") for unit in top)


def test_a_word_directors_say_and_the_text_never_prints_covers_the_laws_the_vocabulary_names(judged):
    """長考 is no word of the Laws; the director vocabulary files it under hesitation (73D1, 16B1...):
    「相手の長考から推測していいの」 reaches 73D1, which prints neither 長考 nor 推測."""
    conn = judged[0]
    data = search_data(conn)
    named = vocabulary_named(data)
    assert data.rowids["laws-2017-ja:73D1"] in named["長考"]
    assert engine.search(conn, "相手の長考から推測していいの", limit=1)[0]["id"] == "laws-2017-ja:73D1"


def test_a_phrase_of_the_vocabulary_held_by_a_sentence_covers_the_laws_it_names(judged):
    """カードを落とした (the vocabulary's Exposed Card: 24, 48, 49, 50...) lies inside 「ディフェンダーがカードを
    落とした」: its words cover those laws; a sentence holding カード alone gains nothing from it."""
    conn = judged[0]
    data = search_data(conn)
    law_49 = data.rowids["laws-2017-ja:49"]

    def named(sentence):
        clauses = content_clauses(data, make_plan(data, sentence, None).branches[0].clauses)
        return phrase_units(data, clauses)

    assert law_49 in named("ディフェンダーがカードを落とした")["落とす"]
    assert law_49 not in named("ディフェンダーがカードを出した").get("カド", ())
    top = engine.search(conn, "ディフェンダーが順番違いでリードした ディクレアラーは受けたい", limit=1)[0]
    assert top["law"] == "53", top["id"]  # Law 53, or the part of it holding more of the sentence (parts_first)


def test_an_abbreviation_that_is_an_everyday_word_is_not_read_in_a_sentence(judged):
    """TO (Tournament Organizer) is "to" in "tried to stop": the vocabulary's own English prints it
    in lower case (Failure to Alert), so a sentence does not read it as 主催団体; UI and a query of
    the abbreviation alone still reach their laws."""
    data = search_data(judged[0])
    words = translation.japanese_words(data.translations, "dummy tried to stop declarer leading from the wrong hand")
    assert "主催団体" not in words and {"ダミー", "ディクレアラー"} <= set(words)
    assert "不当な情報" in translation.japanese_words(data.translations, "UI from partner's slow pass")
    assert "laws-2017-ja:80B" in [r["id"] for r in engine.search(judged[0], "TO", limit=5)]


def test_a_law_ranks_above_a_regulation_covering_a_situation_alike(judged):
    """The regulations' factoring tables say 違う (a board scored differently) and 出す (work out): they
    cover as much of 「…と言われて出したら違った」 as Law 41A or 54 does, but a situation is ruled by the
    Laws (weights.SITUATION_ROLE_WEIGHT): the first results are laws, the tables below them."""
    found = [r["id"] for r in engine.search(judged[0], "相手にあなたのリードですよと言われて出したら違った", limit=10)]
    first_table = next(i for i, unit in enumerate(found) if unit.startswith("jcbl-regs-ja:"))
    assert first_table >= 2 and all(unit.startswith("laws-2017-ja:") for unit in found[:first_table]), found


def test_the_definition_of_one_word_of_a_situation_ranks_below_a_provision(judged):
    """「スート」's definition names ハート and ダイヤモンド in two short lines: by coverage and bm25 it led
    「1ハートの後に1ダイヤと言ってしまった」. It says what a word means, not what to do: a definition ranks
    below provisions covering alike (weights.SITUATION_DEFINITION_WEIGHT), here 18E and 1A."""
    found = [r["id"] for r in engine.search(judged[0], "1ハートの後に1ダイヤと言ってしまった", limit=10)]
    above = found[: found.index("laws-2017-ja:18E")] if "laws-2017-ja:18E" in found else found
    assert "laws-2017-ja:def:スート" not in above, found


def test_a_note_holding_every_word_does_not_hide_the_laws_it_is_about(judged):
    """A long commentary note on 53A prints ダミー, オープニングリード and 出す: it held every word of the
    sentence, so the sentence's coverage never ran and no law was in the first 10. The note speaks for its
    laws (ranking.found_whole): Law 54, whose parts govern (54E), or a part of it ranks among the first results,
    and above the note, which weighs as the sentence's coverage weighs a commentary (coverage.situation_weights)."""
    results = engine.search(judged[0], "ダミーになる人がオープニングリードを出そうとした", limit=10)
    found = [r["id"] for r in results]
    law_54 = next(place for place, r in enumerate(results) if r["doc"] == "laws-2017-ja" and r["law"] == "54")
    assert law_54 < min(found.index("out-of-turn-notes-ja:L53A"), 5), found


@pytest.mark.parametrize(
    "query",
    ["1ハートの後に1NTと言ってしまった", "右の人の番に1NTと言ってしまった", "2♠", "３ダイヤ", "1S", "1NTの後2♣"],
)
def test_a_bid_written_as_level_and_strain_is_read_as_a_bid(query):
    """1ハート is cut into 1 and ハート: the situation is a call, so the query gains the Laws' word ビッド."""
    assert with_bid_word(query).endswith(" ビッド")


@pytest.mark.parametrize(
    "query",
    ["1ハートの後に1ダイヤと言ってしまった", "2NTに2スペード", "1S 1H", "3♣の次に3♣", "1ノートランプの後に1クラブ"],
)
def test_a_bid_not_above_the_one_before_is_read_as_insufficient(query):
    """A bid that does not supersede the bid written before it (level, then strain: ♣ ♦ ♥ ♠ NT) is what the
    Laws call 不十分なビッド (Law 27): a director tells it by the two bids, not by the word."""
    assert with_bid_word(query).endswith(" ビッド 不十分なビッド")


def test_a_situation_naming_a_bid_reaches_the_law_on_bids(judged):
    """「1ハートの後に1ダイヤ」 names two bids, not the word ビッド: read as a bid, Law 27 (insufficient
    bid) is in the first three (it was eighth, under 18E, 1A and definitions of suits; then fourth, under
    18E, until a bid below the one before was read as 不十分なビッド)."""
    found = [r["id"] for r in engine.search(judged[0], "1ハートの後に1ダイヤと言ってしまった", limit=3)]
    assert any(unit.startswith("laws-2017-ja:27") for unit in found), found


@pytest.mark.parametrize("query", ["27B1", "61条A項", "7C", "12C1", "6D の場合", "40B2(a)(v)", "23-2", "2人"])
def test_a_citation_is_never_read_as_a_bid(query):
    assert with_bid_word(query) == query
