"""A word a unit holds only bound inside another word (a compound's piece: 出す of 取り出す; an ordinal's suffix:
目 of 12トリック目) counts less in a sentence's coverage than one it prints whole (ingest/text/bound_words.py,
coverage.clause_credits, BOUND_SHARE), on the server and offline alike (tests/test_search_parity.py)."""

from __future__ import annotations

import pytest

from ingest.parsers.records import Unit
from ingest.search.tables import offset_rows
from ingest.text import bound_words as bound_words_module
from ingest.text.bound_words import bound_words
from laws_site.search import engine
from laws_site.search.weights import BOUND_SHARE, CONTEXT_TEXT_CREDIT, TEXT_CREDIT, TITLE_CREDIT
from tests.coverage_credits import credits_of


@pytest.mark.parametrize(
    "texts, bound",
    [
        # 62D2: the 12th trick; 目 is its order, not an eye, and 12 the order, no count (not twelve cards)
        (("12トリック目にディフェンダーが",), {"12", "目"}),
        (("1枚目のカード",), {"1", "目"}),
        # a number printed as a count too stays whole; one after an ordinal is a count again
        (("12トリック目に12枚",), {"目"}),
        (("5枚目のカード、4枚のカード",), {"5", "目"}),
        # 15A1: a card taken out of a board, not played; its pieces 取る, 出す, and 取り消す's, 引き続く's
        (
            ("間違ったボードから取り出したカードで行ったコール（それに引き続く全てのコールも）は取り消す。",),
            {"取る", "出す", "引く", "続く", "消す"},
        ),
        # a counter means what a query's counter means, and 外, 後, 中 what the word alone means
        (("4枚のカードと4人",), set()),
        (("順番外のリード、指摘後、プレイ中",), set()),
        # printed whole anywhere in the unit (its title or its text), a word is not bound
        (("間違ったボードから取り出したカード", "カードを出す"), {"取る"}),
        (("目で合図",), set()),
        ((None, ""), set()),
        # a katakana term written together: 41D's opening lead is no lead in the middle of play, 50's penalty card
        # no card in play; each word of the term printed alone elsewhere in the unit is whole
        (("オープニングリードが表向きにされた後、ダミーは",), {"オプニング", "リド"}),
        (("ペナルティカードの処置", "ディフェンダーが早まって見せたカード"), {"ペナルテ"}),
        (("ペナルティカード、メジャーペナルティカード",), {"ペナルテ", "カド", "メジヤ"}),
    ],
)
def test_the_words_a_text_holds_only_inside_another(texts, bound):
    assert bound_words(*texts) == bound


@pytest.mark.parametrize(
    "title, text",
    [
        (
            "ペナルティカードの処置",
            "ディフェンダーが早まって見せたカード",
        ),  # the title holds ペナルテ bound, the text カード whole
        ("12トリック目のリボーク", None),
        (None, "間違ったボードから取り出したカード"),
        (None, None),
    ],
)
def test_a_units_title_is_read_once_for_both_its_bound_words(title, text, monkeypatch):
    """search_offsets.bound (title and text) and title_bound (the title alone) from one reading of the title
    (ingest/search/tables.offset_rows): the same words as reading it for each."""
    expected = (bound_words(title, text), bound_words(title))
    calls = []
    read = bound_words_module._read
    monkeypatch.setattr(bound_words_module, "_read", lambda *args: calls.append(args[0]) or read(*args))
    unit = Unit("laws-2017-ja", "1", "law", text=text, title=title)
    rows = offset_rows([unit], {"laws-2017-ja": "ja"}, {(field, "ja"): ("", b"") for field in (title, text)})
    assert (set((rows[0]["bound"] or "").split()), set((rows[0]["title_bound"] or "").split())) == expected
    assert calls == [field for field in (title, text) if field]


def test_a_word_held_only_inside_a_compound_counts_less(search_conn):
    words, credits = credits_of(search_conn, "間違った説明のせいで出したカードを取り消したい")
    played = words.index("出す")
    # 15A1 「取り出したカード」 under 15A 「間違ったボードから取り出したカード」: taken out of a board, not played
    assert credits["laws-2017-ja:15A1"][played] < TEXT_CREDIT
    # 47E2(a) decides it: a card played because of a wrong explanation may be retracted
    found = [
        result["id"] for result in engine.search(search_conn, "間違った説明のせいで出したカードを取り消したい", limit=3)
    ]
    assert "laws-2017-ja:47E2(a)" in found, found


def test_an_ordinal_is_not_the_word_it_ends_in(search_conn):
    words, credits = credits_of(search_conn, "パートナーに目で合図を送った")
    # 62D2 「12トリック目に」, and the 索引's entry filing it under 12トリック目: no eye
    assert credits["laws-2017-ja:62D2"][words.index("目")] == pytest.approx(0.8 * BOUND_SHARE)
    first = engine.search(search_conn, "パートナーに目で合図を送った", limit=1)[0]["id"]
    assert first != "laws-2017-ja:62D2"


def test_an_ordinals_number_counts_no_cards(search_conn):
    words, credits = credits_of(search_conn, "手札が12枚しかない")
    twelve = words.index("12")
    # 62D1 「12トリック目のリボーク」 is the twelfth trick, no hand of twelve cards
    assert credits["laws-2017-ja:62D1"][twelve] < TEXT_CREDIT
    found = [result["id"] for result in engine.search(search_conn, "手札が12枚しかない", limit=10)]
    assert not {"laws-2017-ja:62D", "laws-2017-ja:62D1"} & set(found), found
    # 14 紛失したカード governs (14A 「あるハンドに13枚より少ないカードしかない」): 14A1 second, where it stood fourth
    assert "laws-2017-ja:14A1" in found[:3], found


@pytest.mark.parametrize(
    "query, interface",
    [
        ("declarer led from his own hand when the lead was in dummy", "en"),
        ("ダミーからリードする番なのにディクレアラーが手からリードした", "ja"),
    ],
)
def test_a_lead_from_the_wrong_hand_reaches_55a_before_the_dummy_spread_after_the_opening_lead(
    search_conn, query, interface
):
    """41D (dummy's hand spread 「オープニングリードが表向きにされた後」) holds リード only inside the opening lead's
    term: it no longer covers a lead in the middle of play as 55A (declarer's lead out of turn) prints it."""
    results = [r["id"] for r in engine.search(search_conn, query, limit=10, interface=interface)]
    assert results.index("laws-2017-ja:55A") < results.index("laws-2017-ja:41D"), results


def test_a_title_holding_a_word_only_inside_a_katakana_term_does_not_name_it(search_conn):
    """54 「表向きに出した順番外のオープニングリード」 is titled for the opening lead: for a sentence's リード it earns the
    credit of its text (「伏せて出したリード」), and its parts read リード under its lead-in, no longer under a title
    naming it (54A's own text holds it only inside オープニングリード); 55A 「ディクレアラーのリードが受け入れられた場合」 names it."""
    words, credits = credits_of(search_conn, "ディクレアラーがダミーからリードすべきところを手からリードした")
    lead = words.index("リド")
    assert credits["laws-2017-ja:54"][lead] == TEXT_CREDIT
    assert credits["laws-2017-ja:54A"][lead] == CONTEXT_TEXT_CREDIT
    assert credits["laws-2017-ja:55A"][lead] == TITLE_CREDIT
