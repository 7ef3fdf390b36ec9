"""A Chinese verb said not done reads as the Laws' noun + する not done, and a manner after 得 reads nothing of its
own (issue 36, item 2).

The Japanese side makes 「フォローしない」 one word in index and query (ingest/text/word_forms.py: 61A
「スートにフォローしないこと」, 70C1 「説明せず」). A Chinese sentence saying the same thing (没有跟出: did not
follow; 对方没有提醒: the opponents did not alert; 下家还没叫: LHO has not called yet) read the verb alone, as if
it had been done (フォロー, アラート, コール). 没, 没有 or 未 and the verb are now one word reading the negated
form in place of the reading it negates (laws_site/search/chinese.py negated_readings); 跟出 is the 1997 Laws'
verb for following (def:跟牌 「跟出与引牌相同的花色的牌张」).
"""

from __future__ import annotations

import sqlite3

import pytest

from laws_site.search import translation
from laws_site.search.data import search_data
from laws_site.search.plan import query_tokens
from tests.reading_parity import read_by_both


@pytest.fixture(scope="module")
def data(laws_db_path):
    return search_data(sqlite3.connect(laws_db_path))


def readings(data, query: str) -> dict[str, list[str]]:
    return dict(translation.read_terms(data.translations, query, data.chinese))


@pytest.mark.parametrize(
    "query, said, negated, done",
    [
        ("防家没有跟出", "没有跟出", "スートにフォローしない", "スートにフォローする"),  # 61A, 42B1
        ("庄家没跟牌", "没跟牌", "スートにフォローしない", "スートにフォローする"),
        ("对方没有提醒 我被误导了", "没有提醒", "アラートしない", "アラート"),  # 21B1(a)
        ("下家还没叫", "没叫", "コールしない", "コール"),  # 36B: LHO has not called yet
        ("这副牌没洗就发了", "没洗", "シャフルしない", "シャフル"),  # 6D2 「シャフルしないで」
        ("同伴没有问", "没有问", "質問しない", "質問"),
    ],
)
def test_a_verb_said_not_done_reads_the_negated_form(data, query, said, negated, done):
    found = readings(data, query)
    assert found.get(said, [None])[0] == negated and done not in found[said], found


def test_the_negated_form_is_the_one_word_the_index_holds(data):
    """スートにフォローしない searches the negated token (フオロない), the one 61A's words are indexed as."""
    (negated,) = readings(data, "防家没有跟出")["没有跟出"][:1]
    assert query_tokens(data, negated, "ja")[0][-1] == query_tokens(data, "フォローしなかった", "ja")[0][-1]


def test_the_verbs_other_readings_stay(data):
    """没洗: the shuffle not done, and Law 6's title (シャフルとディール) still read."""
    assert "シャフルとディール" in readings(data, "这副牌没洗")["没洗"]


def test_a_phrase_is_never_negated(data):
    """Only a word (プレイ) or a verb (…する) is said not done: no 「スクリーン付のプレイしない」."""
    table = data.translations
    negated = {
        key: table[key][0].removesuffix("しない")
        for key in table
        if key.startswith(("没", "未")) and key[1:] in table and table[key] and table[key][0].endswith("しない")
    }
    assert negated
    phrases = [
        key
        for key, noun in negated.items()
        if noun + "する" not in table[key[1:]] and len(data.lexicon.query_terms(noun)) != 1
    ]
    assert phrases == []


def test_with_is_no_follow(data):
    """跟 before a person is "with" (没跟同伴说: did not tell partner): no follow, negated or not."""
    read = [word for words in readings(data, "没跟同伴说").values() for word in words]
    assert not [word for word in read if "フォロー" in word], read


def test_the_offline_engine_reads_a_negation_as_the_server_does(data, search_pack_file):
    queries = ["防家没有跟出", "下家还没叫", "这副牌没洗就发了", "没跟同伴说", "对方没有提醒 我被误导了"]
    offline, server = read_by_both(data, queries, search_pack_file)
    assert offline == server


@pytest.mark.parametrize(
    "query, manner, wrong",
    [
        ("同伴出牌时故意把牌摔得很重", "重", "重大"),  # slammed down hard: no 重大 "serious"
        ("挖苦我们打得差", "差", "間違った"),  # played badly: no 間違った "wrong"
        ("他打得很好", "好", "良い"),
    ],
)
def test_a_manner_after_de_reads_nothing_of_its_own(data, query, manner, wrong):
    """得 after a verb says how it was done; the one-character word after it (and a degree adverb) is that manner,
    which its dictionary senses misread (chinese_runs.manner_words)."""
    found = readings(data, query)
    assert manner not in found and wrong not in [w for words in found.values() for w in words], found


def test_a_term_after_de_still_reads(data):
    """打得慢 is the vocabulary's slow play, 大声 a word of two characters: both still read."""
    assert "遅いプレイ" in readings(data, "他打得慢")["打得慢"]
    assert "大声" in readings(data, "说得很大声")


def test_the_offline_engine_reads_a_manner_as_the_server_does(data, search_pack_file):
    queries = ["同伴出牌时故意把牌摔得很重", "挖苦我们打得差", "他打得很好", "说得很大声", "得", "很得"]
    offline, server = read_by_both(data, queries, search_pack_file)
    assert offline == server
