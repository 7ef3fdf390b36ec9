"""A Chinese sentence cut into words, and each word read as the 2017 Laws' Japanese words (issue 36, item 2).

A director types 「明手提醒庄家不要从错误的一手出牌」 or 「莊家碰了明手的牌」. Read as raw substrings, the
first names 手提 ("portable", inside 明手提醒) and the second names nothing: 碰 (touch) is one
character. Here the sentence is cut the way a dictionary cuts it, into its most probable words (the
fewest, commonest ones: each word costs -log of how often jieba's corpus counts it, table
search_chinese, ingest/search/chinese_lexicon.py), the glossary's and the vocabulary's terms at the cost
of a common word so that a term the Laws print is cut whole; an unknown character is a word of its own.
A word the glossary and the vocabulary do not name reads through its CC-CEDICT glosses, domain glosses
first (墩: trick -> トリック before block), then each entry's first two glosses (its commonest senses: 掉 "fall",
"drop") if the English reading names them (碰: touch -> 触れる; 看: see -> 見る), kept to telling words: a
Japanese word printed in few of the current Laws' units. A function word (了, 的, 一) has no glosses.

The offline engine cuts with the same costs (the search pack's `chinese`, laws_site/offline/search_data.py)
and the same path (offline-search-reading.js `chineseWords`).
"""

from __future__ import annotations

import math
import sqlite3
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product

from ingest.search import glossary
from ingest.search.chinese_lexicon import ENTRY_SEPARATOR, GLOSS_SEPARATOR
from ingest.search.english_lexicon import is_verb, nouns_of, stems
from ingest.search.vocabulary import search_key
from ingest.text import tokenize, word_forms
from laws_site.search.chinese_before import before_readings
from laws_site.search.chinese_could_not import could_not_readings
from laws_site.search.chinese_kanji import japanese_kanji, shares_kanji
from laws_site.search.words import CALL_KINDS, names_a_strain

COST_SCALE = 10  # costs are whole numbers (tenths of a natural log) so Python and JavaScript add them alike
UNKNOWN_COST = 200  # a character no word holds: dearer than any word kept (the rarest, counted once: 178)
TERM_COST = 50  # a glossary or vocabulary term: as cheap as a common word, so it is cut whole
MAX_WORD_CHARS = 8  # the longest word the cut tries (a glossary term of up to eight characters)
MIN_TERM_CHARS = 2  # a glossary or vocabulary term read inside a sentence has two characters or more
TELLING_SHARE = 0.01  # a dictionary reading counts if its words are in at most this share of the Laws' units
SPOKEN_GLOSSES = 3  # a word people say names one of an entry's first senses only (说's fifth: "comment")
# the directions a verb of motion takes after it (出去, 出来: out, going or coming): the verb a director says
# with one (把牌放出去: put the card out, played) is the verb the vocabulary lists (出: プレイ), not the
# dictionary's "to go out" (出る)
DIRECTIONS = ("去", "来")
# a verb's result said right after it (放到桌上: put onto the table; 打到一半: played up to half; 排好: put in
# order; 叠成一摞: piled into a stack): the verb tells what was done, the result reads nothing of its own (到 is no
# 着く "arrive", 好 no 良い, 成 "into" no 成功 "to succeed")
RESULTS = ("到", "好", "成")
# a causative says who was made to act (让同伴看到: let partner see; 使, 令 alike; 请对方重复: asked the opponent to
# repeat): the verb after it tells what happened; its own glosses are another sense ("to yield": 生じる, "to
# permit": 許可; 请's "to ask" is no question, 質問)
CAUSATIVES = ("让", "使", "令", "请")
# a verb that carries the word after it (做庄家: being declarer; 弄, 搞 alike; 拿回手里: took back into the hand)
# reads nothing: no "to make" (メイク), no "to hold" (含む, JMdict's "contain"); nor does 办, "to do" (怎么办: what
# to do, no 扱う "to handle")
CARRYING_VERBS = ("做", "弄", "搞", "拿", "办")
# 要 right before a player is a demand (庄家要我出黑桃: declarer required me to play a spade), read as the Laws'
# 要求 (59 「要求されたとおりに」), not its common yào "want"; before a verb it is "need to" (要罚吗) and reads nothing
DEMAND = "要"
DEMANDED = "要求"
PLAYER_WORDS = (
    "我",
    "你",
    "他",
    "她",
    "我们",
    "你们",
    "他们",
    "明手",
    "庄家",
    "防家",
    "同伴",
    "对手",
    "对方",
    "上家",
    "下家",
)
# 提醒 (the 1997 Laws' alert) or 提示 right before a player named by role warns that player (明手提醒庄家不要…:
# 1997 43B2(a) 「明手提示庄家不要从错误方位引牌」 is 2017 「ディクレアラーに…リードしないよう注意した場合」): the Laws'
# 注意, no アラート. An alert is made to the opponents (提醒对手, 没有提醒我: the one who speaks) or said alone
# (同伴忘了提醒): those keep アラート
WARNINGS = ("提醒", "提示")
WARNED = "注意"
WARNED_ROLES = ("庄家", "明手", "防家", "同伴")
# 告诉 right before a player named by role (WARNED_ROLES) tells that player something (明手告诉庄家应该先打方块):
# information conveyed within a side, the Laws' 伝える (43A1(c) 「ディクレアラーにプレイについて一切情報を伝えてはならない」,
# 40A2 「パートナーに伝える情報」), no 告げる "state", which they print only for naming a card (46A 「スイートとランクの
# 両方をはっきり告げる」). Telling the opponents (告诉对手) is a disclosure, and keeps its reading
TELLINGS = ("告诉",)
CONVEYED = "伝える"
# a verb said not done (没跟出: did not follow; 没提醒: did not alert) is what the Laws print as a noun + する not
# done, one word in the index (ingest/text/word_forms.py: 61A 「スートにフォローしないこと」, 70C1 「説明せず」): the
# negation and the verb are one word reading that noun + しない before the verb's own words
NOT_DONE = ("没", "没有", "未")
# 的 after a verb joins it to the noun it describes (牌套上标的局况: the vulnerability marked on the board), as a
# director says it: the dictionary's word of the two (标的 "target": 対象; 端的 "really": 全く) is another word
MODIFIER_PARTICLE = "的"
NEGATIONS = ("不", "没")  # a word opening with one may be a verb said not done (不想: does not want)
FIRST_GLOSSES = 2  # beyond the domain glosses, each entry reads as its first two glosses (掉: fall, drop)


@dataclass
class ChineseWords:
    """The cut's cost of each word (the pack exports it as is)."""

    costs: dict[str, int] = field(default_factory=dict)

    def cut(self, run: str) -> list[tuple[int, int]]:
        """(start, end) of the words of a run of Chinese characters: the path of least total cost
        (ties: the path found first, cutting left to right)."""
        best: list[tuple[int, int] | None] = [None] * (len(run) + 1)
        best[0] = (0, -1)
        for start in range(len(run)):
            if best[start] is None:
                continue
            for end in range(start + 1, min(len(run), start + MAX_WORD_CHARS) + 1):
                cost = self.costs.get(run[start:end], UNKNOWN_COST if end == start + 1 else None)
                if cost is not None and (best[end] is None or best[start][0] + cost < best[end][0]):
                    best[end] = (best[start][0] + cost, start)
        words, end = [], len(run)
        while end > 0:
            start = best[end][1]
            words.append((start, end))
            end = start
        return words[::-1]

    def clauses(self, text: str) -> list[tuple[str, ...]]:
        """The words of a Chinese sentence as FTS clauses, for its coverage (coverage.py): each word of the
        cut as the index holds it (同伴; 是不是 as the phrase 是不 不 不是: a bigram, the character between,
        the next bigram), then each Latin word (pass); never a bigram across two words (同伴長考後: 伴长,
        考后 name nothing a director said)."""
        text = tokenize.to_simplified(unicodedata.normalize("NFKC", text).lower())
        found = []
        for run in tokenize.HAN_RUN_RE.finditer(text):
            found += [(index_phrase(run.group()[start:end]),) for start, end in self.cut(run.group())]
        found += [(token.norm,) for token in tokenize.chinese_bigram_tokens(text) if token.pos == "word"]
        return list(dict.fromkeys(found))


# a count a director says, its number and measure word (五张, 四家), read as the Laws print a count: in digits
# with the counter (45E 「5枚目のカード」, 22B 「4人のプレイヤ全員」, 62D 「12トリック目」). From two: 一张 is "a
# card" (掉了一张牌), no count; up to fourteen, a hand's thirteen cards and one more (13B 「13枚より多く」)
COUNTED_NUMBERS = "两 二 三 四 五 六 七 八 九 十 十一 十二 十三 十四".split()
COUNTS = (2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
# cards, players (四家: the four hands; 四个人: four people, the classifier 个 with 人), tricks
MEASURE_WORDS = {"张": "枚", "家": "人", "人": "人", "个人": "人", "墩": "トリック"}
CARD_COUNTER = "枚"
HAND_CARDS = 13
# after a number or a demonstrative, 个人 is the classifier 个 and 人 "person" (同一个人: the same person), not 个人
# "individual" (個人), and 副 a measure word (一副没兴趣的样子: an air of), not "assistant" (アシスタント; 这副牌 stays
# 副牌, the board): one word with them, reading nothing, as costly as the cut it replaces (a count: 四个人 4人)
PERSON_CLASSIFIED = "个人"
CLASSIFIED = (PERSON_CLASSIFIED, "副")
DETERMINERS = ("一", "同一", "这", "那", "每", "哪", "几", "某")


def is_chinese_verb(english: str) -> bool:
    """Whether a word's common reading (its first entry) has a verb's sense: a gloss CC-CEDICT marks with "to"
    (排 "row, line, to set in order")."""
    return any(gloss.startswith("to ") for gloss in english.split(ENTRY_SEPARATOR)[0].split(GLOSS_SEPARATOR))


def chinese_counts() -> dict[str, str]:
    """{a count as a director says it (五张): as the Laws print it (5枚)}."""
    return {
        number + measure: f"{count}{counter}"
        for number, count in zip(COUNTED_NUMBERS, COUNTS)
        for measure, counter in MEASURE_WORDS.items()
    }


def too_many_cards() -> list[str]:
    """The counts of cards no hand or suit can hold, more than a hand's thirteen (十四张): said of a hand, they
    are Law 13's incorrect number of cards (13B 「ハンドのカードが最初から13枚より多く」)."""
    return [
        number + measure
        for number, count in zip(COUNTED_NUMBERS, COUNTS)
        for measure, counter in MEASURE_WORDS.items()
        if counter == CARD_COUNTER and count > HAND_CARDS
    ]


def term_key(word: str) -> str:
    """A word as the table of readings keys it (translation.py's table: width, case, spaces, simplified)."""
    return search_key(tokenize.to_simplified(unicodedata.normalize("NFKC", word)))


def index_phrase(word: str) -> str:
    """A Chinese word as the index's tokens in their order: its bigrams with the characters between them
    (tokenize.chinese_bigram_tokens), so that a phrase query finds the word where it is printed."""
    if len(word) < 2:
        return word
    pieces = [word[0:2]]
    for i in range(1, len(word) - 1):
        pieces += [word[i], word[i : i + 2]]
    return " ".join(pieces)


def word_cost(frequency: int, total: int) -> int:
    return round(COST_SCALE * math.log(total / max(frequency, 1)))


def load(conn: sqlite3.Connection, data, table: dict[str, list[str]]) -> ChineseWords:
    """The cut's costs, from table search_chinese and the Chinese terms `table` (a term -> its Japanese
    words: translation.translations) names; adds to `table` the readings of the dictionary's words it
    does not name."""
    rows = list(conn.execute("select chinese, frequency, english from search_chinese order by chinese"))
    total = sum(frequency for _, frequency, _ in rows) or 1
    costs = {word: word_cost(frequency, total) for word, frequency, _ in rows}
    rows_english = {word: english for word, _, english in rows}
    terms = [key for key in table if tokenize.HAN_RE.search(key)]
    for key in terms:
        costs[key] = min(costs.get(key, TERM_COST), TERM_COST)
    # inside a sentence a one-character term is the everyday word (牌: a card, not the glossary's pack):
    # it reads as the dictionary reads it, if at all; but not a word the vocabulary lists as what people
    # say (垫: to discard), which is the everyday word
    said = {term_key(word) for entry in data.vocabulary.entries for word in entry.spoken}
    for key in terms:
        if len(key) < MIN_TERM_CHARS and key not in said:
            del table[key]
        elif len(key) >= MIN_TERM_CHARS:  # 说明 is 説明 of anything (68C's 明確な説明 of a line of play), not only
            head = japanese_kanji(key)  # コールの説明, its term's phrase (one character: 问 is 質問, no 問 alone)
            if (
                head not in table[key]
                and any(head in japanese for japanese in table[key])
                and head in data.lexicon.words
            ):
                table[key] = [*table[key], head]
    domain, laws_terms = domain_english(data), domain_english(data, spoken=False)
    # a suit's or a call's English name is the suit or the call only in its Chinese name (红心, 不叫); 心 "heart", 钻石
    # "diamond", 棒 "club", 铲 "spade", 度过 "to pass", 关口 "pass" (a mountain pass), 双 "double" say their everyday sense
    modifiers = clipped_modifiers(data) | strain_and_call_names(data)
    domain = {key: japanese for key, japanese in domain.items() if key not in modifiers}
    glossed = {key: japanese for key, japanese in table.items() if key not in modifiers}
    telling = TellingWords(conn, data)
    for word in [word for word in costs if verb_and_particle(word, rows_english) and word not in table]:
        if not printed_cognate(word, data, telling):  # 目的 is 20G1's 目的 (目 "to regard")
            del costs[word]  # 标的 is 标 + 的, cut as the two
    readings = {}
    for word, _, english in rows:
        if (
            word not in costs
            or word in table
            or word in CAUSATIVES + CARRYING_VERBS
            or negated_verb_as_adverb(word, english, rows_english)
        ):
            continue
        japanese = cognate(word, data, telling) or printed_cognate(word, data, telling)
        if not japanese and english:
            entries = [entry.split(GLOSS_SEPARATOR) for entry in english.split(ENTRY_SEPARATOR)]
            japanese = reading(entries, glossed, domain, telling, laws_terms, one_character=len(word) == 1, word=word)
        if japanese:
            readings[word] = japanese
    table.update(readings)
    for verb, _, english in rows:  # 放到 is 放 said with its result: one word, as costly as the two
        if len(verb) == 1 and is_chinese_verb(english):
            for result in RESULTS:
                joined = costs[verb] + costs.get(result, UNKNOWN_COST)
                if verb + result not in costs and joined < UNKNOWN_COST:  # a rare verb's stays two words
                    costs[verb + result] = joined
                    if verb in table:
                        table[verb + result] = list(table[verb])
    for determiner, classified in product(DETERMINERS, CLASSIFIED):  # 同一个人 is one word, as costly as 同一 + 个人
        if determiner + classified not in costs and {determiner, classified} <= costs.keys():
            costs[determiner + classified] = costs[determiner] + costs[classified]
    for player in PLAYER_WORDS:  # 要我, 提醒庄家, 告诉庄家: one word, as costly as the two
        said_to = [(DEMAND, DEMANDED)] + [(w, WARNED) for w in WARNINGS if player in WARNED_ROLES]
        said_to += [(w, CONVEYED) for w in TELLINGS if player in WARNED_ROLES]
        for verb, japanese in said_to:
            joined = costs.get(verb, UNKNOWN_COST) + costs.get(player, UNKNOWN_COST)
            if verb + player not in costs and joined < UNKNOWN_COST:
                costs[verb + player] = joined
                table[verb + player] = [japanese, *table.get(player, [])]
    could_not_readings(costs, table, lambda word: is_chinese_verb(rows_english.get(word) or ""), TERM_COST)
    negated_readings(costs, table, telling)
    if data.registry.current_laws:  # 没叫裁判: ディレクターを呼ぶ前 (11A), after the negated readings, which win
        before_readings(conn, data.registry.current_laws.id, costs, table, telling, UNKNOWN_COST)
    for verb in (key for key in said if len(key) == 1 and key in table):  # 出去 is 出 said with its direction
        for direction in DIRECTIONS:
            if verb + direction in table or verb + direction in costs:
                table[verb + direction] = list(table[verb])
    return ChineseWords(costs)


def negated_readings(costs: dict[str, int], table: dict[str, list[str]], telling) -> None:
    """没 + a word one of whose readings the Laws print negated (跟牌: スートにフォローする, printed
    スートにフォローしないこと; 洗: シャフル, printed シャフルしないで): one word, as costly as the two, reading the
    negated form first."""
    for word in [key for key in table if key in costs and tokenize.HAN_RE.search(key)]:
        # a word (プレイ) or a verb (スートにフォローする), never a phrase (スクリーン付のプレイ: no スクリーン付のプレイしない)
        actions = [
            japanese for japanese in table[word] if japanese.endswith("する") or len(telling.terms(japanese)) == 1
        ]
        negated = next(
            (
                (japanese, japanese.removesuffix("する") + word_forms.DONE_NOT)
                for japanese in actions
                if telling.prints_negated(japanese.removesuffix("する") + word_forms.DONE_NOT)
            ),
            None,
        )
        if negated is None:
            continue
        # the negated form takes the place of the reading it negates (没叫: コールしない, no コール), the others stay
        # (没洗: シャフルしない and Law 6's シャフルとディール)
        kept = [japanese for japanese in table[word] if japanese != negated[0]]
        for negation in NOT_DONE:
            joined = costs.get(negation, UNKNOWN_COST) + costs[word]
            if negation + word not in costs and joined < UNKNOWN_COST:  # a rare verb's stays two words
                costs[negation + word] = joined
                table[negation + word] = [negated[1], *kept]


def reading(
    entries: list[list[str]],
    table: dict[str, list[str]],
    domain: dict[str, list[str]],
    telling,
    laws_terms: dict[str, list[str]] | None = None,
    one_character: bool = False,
    word: str = "",
) -> list[str]:
    """The Japanese words of a word's dictionary entries: of the first gloss the glossary or the
    vocabulary names (墩: trick), else of each entry's first glosses (its commonest senses: 掉 "fall",
    "drop") the English reading names, its telling words only; [] if none. A character of several readings
    reads only the entry of its common reading, which the lexicon lists first (要 yào "want, need", not
    yāo "demand, coerce": 強いる); a word of several characters reads all its entries. A word the vocabulary lists
    only as spoken names an entry's sense among its first SPOKEN_GLOSSES glosses, a term of the Laws' own
    English (`laws_terms`: the glossary's, a vocabulary entry's en) anywhere: 说 "speak, talk, say,
    explain, comment" is no 論評 (Remark, spoken "comment"); 墩's late "trick" is the Laws' Trick."""
    laws_terms = domain if laws_terms is None else laws_terms
    named = [
        [next((k for k in gloss_keys(gloss) if k in table and not telling.other_verbs(gloss, k)), None) for gloss in g]
        for g in entries
    ]
    if one_character:  # a character of several readings means its common one (the lexicon's first entry)
        common = common_reading(entries[:1], named[:1], table, telling, word)
    else:
        common = common_reading(entries, named, table, telling, word)
    # of the commonest senses' words, those written with the word's own kanji are the sense Chinese and
    # Japanese share (记 "to record, to note": 記録, not ノート)
    own = [japanese for japanese in common if shares_kanji(word, japanese)]
    for glosses, keys in zip(entries, named):
        for position, (gloss, key) in enumerate(zip(glosses, keys)):
            # a late sense is the Laws' term unless a common one is the word's own (超 "to exceed ... to pass":
            # 超える, no call; 墩 "block ... trick": a trick)
            if domain.get(key) and (position < SPOKEN_GLOSSES or (laws_terms.get(key) and not own)):
                if shares_kanji(word, "".join(domain[key])) or not noun_term_for_verb(gloss, domain[key], telling):
                    return list(domain[key])
    return own or common


def gloss_keys(gloss: str) -> list[str]:
    """The keys a gloss is looked up by: its stems, then for a verb ("to discuss") the nouns English makes of it
    (discussion), as an English query's verb the table does not name reads as its noun (english_keys.span_keys)."""
    keys = stems(gloss_key(bare(gloss)))
    if gloss.startswith("to ") and " " not in bare(gloss):
        keys += [noun for key in list(keys) for noun in nouns_of(key) if noun not in keys]
    return keys


def common_reading(entries: list[list[str]], named: list[list[str | None]], table, telling, chinese="") -> list[str]:
    """The telling Japanese words of each entry's first FIRST_GLOSSES glosses (its commonest senses)."""
    japanese: list[str] = []
    for glosses, keys in zip(entries, named):
        for position, (gloss, key) in enumerate(first_senses(list(zip(glosses, keys)))):
            # the first sense is an everyday word of the Laws (不同 "different": 別): a later synonym's rarer word is
            # another sense (distinct: 明確; 礼物 "gift, present": 現行), unless written in the word's own kanji
            everyday = position and telling.everyday(table.get(gloss_key(glosses[0])) or table.get(keys[0]) or ())
            # a verb's gloss reads the English verb where its word alone reads a noun (放 "to place": 置く, no 位置)
            verb = gloss_key(gloss) in table
            key = gloss_key(gloss) if verb else key
            japanese += [
                word
                for word in table.get(key) or ()
                if telling(word)
                and word not in japanese
                and (verb or shares_kanji(chinese, word) or not noun_for_verb(gloss, key, word, telling))
                and (shares_kanji(chinese, word) or not verb_for_noun(gloss, key, word, telling))
                and not (everyday and not shares_kanji(chinese, word))
            ]
    return japanese


def first_senses(glossed: list[tuple[str, str | None]]) -> list[tuple[str, str | None]]:
    """An entry's first FIRST_GLOSSES glosses, and a later one that is the noun of a first verb (声明 "to state, to
    declare, statement": CC-CEDICT lists a word's verbs, then the same sense as nouns; statement is 68A's 申し立て)."""
    first = glossed[:FIRST_GLOSSES]
    verbs = [bare(gloss).removesuffix("e") for gloss, _ in first if gloss.startswith("to ") and " " not in bare(gloss)]
    nouns = [
        (gloss, key)
        for gloss, key in glossed[FIRST_GLOSSES:]
        if is_noun_gloss(gloss) and any(gloss.startswith(verb) and len(gloss) > len(verb) + 2 for verb in verbs)
    ]
    return first + nouns


def is_noun_gloss(gloss: str) -> bool:
    """Whether a gloss may be a noun: one word, neither a verb ("to ...") nor an adverb (较 "to compare ...
    comparatively" is no noun of compare: no 割合, a proportion)."""
    return not gloss.startswith("to ") and " " not in gloss and not gloss.endswith("ly")


def noun_for_verb(gloss: str, key: str | None, word: str, telling) -> bool:
    """Whether a verb's gloss ("to hit") would read the dictionary's noun of the English word (hit: 当たり, a
    hit): a noun the Laws never say with する is no action (声明 "to state": no 状態; 敲 "to hit": no 当たり;
    回 "to circle": no 世界). A noun the Laws use as a verb (記録する), or one in the word's own kanji (停 "to
    stop": 停止), still reads."""
    return gloss.startswith("to ") and telling.noun_senses.get(key) == word and not telling.as_verb(word)


def verb_for_noun(gloss: str, key: str | None, word: str, telling) -> bool:
    """Whether a gloss CC-CEDICT gives as no verb ("stick", a thing) would read the Japanese verb JMdict gives the
    English verb (stick: 付ける, to attach): 棒 "stick, club" is no 付ける, 杆子 "pole, stick" neither."""
    return (
        not gloss.startswith("to ")
        and telling.verb_senses.get(key) == word
        and unicodedata.name(word[-1], "").startswith("HIRAGANA")
    )


def noun_term_for_verb(gloss: str, terms: list[str], telling) -> bool:
    """Whether a verb's gloss names only terms of the Laws that are kanji nouns they never say with する (转 "to
    turn" is no 順番, one's turn to call; 扎 "to tie" no 同着, a tie). A verb (告げる), a noun said with する
    (記録), a loanword (ディスカード, the English verb borrowed) may be the action."""
    return gloss.startswith("to ") and not any(is_action(term, telling) for term in terms)


def is_action(term: str, telling) -> bool:
    """A term that may say what was done: a noun the Laws say with する, a loanword, a verb ending in kana."""
    if telling.as_verb(term) or tokenize.KATAKANA_RE.search(term):
        return True
    return unicodedata.name(term[-1], "").startswith("HIRAGANA")


def noun_senses(conn: sqlite3.Connection) -> dict[str, str]:
    """{an English word: its Japanese word} where JMdict's sense table search_english keeps is a noun's."""
    rows = conn.execute("select english, japanese, gloss from search_english")
    return {gloss_key(english): japanese for english, japanese, gloss in rows if not is_verb(gloss)}


def verb_senses(conn: sqlite3.Connection) -> tuple[dict[str, str], frozenset[str]]:
    """{an English word: its Japanese word} where the sense search_english keeps is a verb's, and the English
    words it reads as another verb's form (bore: bear's past, 負う)."""
    rows = list(conn.execute("select english, japanese, gloss, word from search_english"))
    verbs = {gloss_key(english): japanese for english, japanese, gloss, _ in rows if is_verb(gloss)}
    forms = {gloss_key(english) for english, _, gloss, word in rows if is_verb(gloss) and word != english}
    return verbs, frozenset(forms)


def bare(gloss: str) -> str:
    """A gloss without the "to" CC-CEDICT marks a verb with ("to place": place)."""
    return gloss.removeprefix("to ")


def cognate(word: str, data, telling) -> list[str]:
    """The Japanese word written with the same kanji (同时 -> 同時, 过程 -> 過程), when the Laws print it
    as one telling word; [] for one character (慢, 看: Japanese writes them in other words) and others."""
    if len(word) < MIN_TERM_CHARS:
        return []
    japanese = japanese_kanji(word)
    return [japanese] if japanese in data.lexicon.words and telling(japanese) else []


def printed_cognate(word: str, data, telling) -> list[str]:
    """The Japanese word of the same kanji where the Laws print it as one word, telling or not (成立: 63A
    「リボークが成立する」, 29 units; 取消, 要求): the sense the two languages share, which no dictionary gloss
    in other kanji replaces (成立 "to establish" is no 設ける, 要求 "to request" no 求める); [] for one
    character and for words the Laws do not print."""
    if len(word) < MIN_TERM_CHARS:
        return []
    japanese = japanese_kanji(word)
    terms = telling.terms(japanese)
    printed = japanese in data.lexicon.words and len(terms) == 1 and telling.printed[terms[0]] > 0
    return [japanese] if printed else []


@lru_cache(maxsize=None)
def gloss_key(gloss: str) -> str:
    """search_key of a gloss (cached: CC-CEDICT repeats its glosses across words, the load reads them all)."""
    return search_key(gloss)


def domain_english(data, spoken: bool = True) -> dict[str, list[str]]:
    """The English terms the glossary and the director vocabulary name (with `spoken`, also the words the
    vocabulary lists as spoken), as keys -> the Japanese words of the entries that name them."""
    found: dict[str, list[str]] = {}
    pairs = [(glossary.english_keys(entry.en), glossary.term_forms(entry.ja)) for entry in data.glossary.entries]
    pairs += [((entry.en, *(entry.spoken if spoken else ())), list(entry.ja)) for entry in data.vocabulary.entries]
    for words, japanese in pairs:
        for key in (search_key(word) for word in words if word):
            found.setdefault(key, [])
            found[key] += [word for word in japanese if word not in found[key]]
    return found


def verb_and_particle(word: str, glosses_of: dict[str, str]) -> bool:
    """Whether a dictionary word is a verb and the particle 的 (标的: 标 "to mark" + 的), which a director says as the
    two; a noun and 的 (目的 "purpose": 目 "eye") stays a word."""
    return len(word) == 2 and word[1] == MODIFIER_PARTICLE and is_chinese_verb(glosses_of.get(word[0]) or "")


def negated_verb_as_adverb(word: str, english: str, glosses_of: dict[str, str]) -> bool:
    """Whether a word is a negation and a verb (不想: 不 + 想 "to want") that the dictionary glosses only as an
    adverb (不想 "unexpectedly"): at the table it is the verb negated (我不想让他取消: I don't want him to cancel),
    so it reads nothing, not the adverb's word (偶然, the Laws' inadvertent)."""
    glosses = (english or "").split(ENTRY_SEPARATOR)[0].split(GLOSS_SEPARATOR)
    return (
        len(word) == 2
        and word[0] in NEGATIONS
        and is_chinese_verb(glosses_of.get(word[1]) or "")
        and all(gloss.endswith("ly") for gloss in glosses)
    )


def strain_and_call_names(data) -> frozenset[str]:
    """The English keys of the glossary's suits, notrump (heart, spade ...) and kinds of call (pass, double)."""

    def named(ja: str) -> bool:
        return ja in CALL_KINDS or names_a_strain(ja)

    return frozenset(
        key
        for entry in data.glossary.entries
        if entry.en and any(named(ja) for ja in glossary.term_forms(entry.ja))
        for key in glossary.english_keys(entry.en)
    )


def clipped_modifiers(data) -> frozenset[str]:
    """The English words the vocabulary lists as a term said clipped to its modifier (insufficient: Insufficient
    Bid; clarification: Clarification Period). An English director saying one means the term, but a Chinese word
    glossed so says only the modifier, of anything: 不够 "not enough, insufficient" (牌不够: too few cards) and 不到
    "not reaching, insufficient" are no 不十分なビッド, a bid."""
    found = set()
    for entry in data.vocabulary.entries:
        words = [search_key(word) for word in (entry.en or "").split()]
        for said in (search_key(word) for word in entry.spoken if word.isascii()):
            # the word right before the term's last word modifies that head (Team Captain's captain is the head;
            # Options after an Irregularity's options is one too)
            if len(words) > 1 and said in words[:-1] and words.index(said) == len(words) - 2:
                found.add(said)
    return frozenset(found)


class TellingWords:
    """Whether a Japanese word is telling (called with the word): each of its words is printed in at least one
    and at most TELLING_SHARE of the current Laws' units; with it, whether the Laws say a word with する
    (`as_verb`) and the English words whose dictionary sense is a noun's (`noun_senses`)."""

    def __init__(self, conn: sqlite3.Connection, data):
        self.printed: Counter = Counter()
        self.with_suru: set[str] = set()  # the words the Laws print before する (記録 為る: a noun said as a verb)
        self.units = 0
        current = [data.registry.current_laws.id] if data.registry.current_laws else []
        for (text,) in conn.execute(
            "select coalesce(search_title, '') || ' ' || coalesce(search_text, '') from sections where doc = ?",
            current or [""],
        ):
            words = text.split()
            self.printed.update(set(words))
            self.with_suru.update(word for word, following in zip(words, words[1:]) if following == word_forms.DO)
            self.units += 1
        self.lexicon = data.lexicon
        self.noun_senses = noun_senses(conn)
        self.verb_senses, self.verb_forms = verb_senses(conn)
        self.terms_of: dict[str, list[str]] = {}  # each word's terms, cut once for both questions

    def terms(self, word: str) -> list[str]:
        if word not in self.terms_of:
            self.terms_of[word] = self.lexicon.query_terms(word) if self.units else []
        return self.terms_of[word]

    def __call__(self, word: str) -> bool:
        terms = self.terms(word)
        return bool(terms) and all(0 < self.printed[term] <= TELLING_SHARE * self.units for term in terms)

    def everyday(self, words) -> bool:
        """Whether the Laws print a word among `words` in more than TELLING_SHARE of their units (別, 変更): a
        sense so common that a later synonym's rarer word (distinct: 明確) is not what the word says."""
        limit = TELLING_SHARE * self.units
        return any(self.terms(word) and all(self.printed[term] > limit for term in self.terms(word)) for word in words)

    def prints_negated(self, word: str) -> bool:
        """Whether a noun + しない is the one negated word the Laws print (フォローしない: フオロない)."""
        terms = self.terms(word)
        return bool(terms) and word_forms.is_negated_form(terms[-1]) and self.printed[terms[-1]] > 0

    def other_verbs(self, gloss: str, key: str) -> bool:
        """Whether a verb's gloss ("to bore", an infinitive) names a word the English reading keeps as another verb's
        form (bore: bear's past, 負う): 钻 "to drill, to bore" is no 負う."""
        return gloss.startswith("to ") and key in self.verb_forms

    def as_verb(self, word: str) -> bool:
        terms = self.terms(word)
        return bool(terms) and terms[-1] in self.with_suru
