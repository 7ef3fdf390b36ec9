"""A seat or a turn told as at the table, read in the Laws' words (issue 36): a director says 右の人 or
左隣 and パートナーの番; the Laws print RHO and LHO (definitions: 右手の対戦相手, 左手の対戦相手) and
順番 (def:順番; 番 only in an ordinal, 2番目). laws_site/search/words.py TABLE_WORDS; the offline engine
applies the same substitutions from the pack (tests/test_search_parity.py compares the answers)."""

from __future__ import annotations

import pytest

from laws_site.search import engine
from laws_site.search.words import with_table_words


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("右の人の番に1NTと言ってしまった", "RHOの順番に1NTと言ってしまった"),
        ("左隣がパスした", "LHOがパスした"),
        ("左隣の人が気付かずにビッドした", "LHOが気付かずにビッドした"),
        ("右の相手より先に出した", "RHOより先に出した"),
        ("パートナーの番なのにパスした", "パートナーの順番なのにパスした"),
    ],
)
def test_a_seat_or_a_turn_is_read_in_the_laws_words(typed, read):
    assert with_table_words(typed) == read


@pytest.mark.parametrize(
    "typed",
    # the Laws' own words, an ordinal, a number, a hand or a side: nothing to read otherwise
    ["順番外のコール", "2番目のカード", "ボードの番号", "右手の対戦相手", "右手でカードを出した", "右側に置く"],
)
def test_other_words_are_left_as_typed(typed):
    assert with_table_words(typed) == typed


def test_a_play_before_the_player_on_the_right_reaches_law_57d(search_conn):
    """「右の人より先に」 is the Laws' 「RHOの順番で」 (57D 早まったプレイ); read as typed, 右 is a word no unit
    prints and 57D was not in the first ten (41A, 15A, 58B on cards put out)."""
    found = [r["id"] for r in engine.search(search_conn, "ディフェンダーが右の人より先にカードを出そうとした", limit=3)]
    assert "laws-2017-ja:57D" in found, found


def test_a_call_at_the_right_hand_opponents_turn_reaches_law_31a(search_conn):
    """「右の人の番に…と言った」 is a call at RHO's turn (31A 「反則者がRHOの順番にコールしたとき」): it was
    eighth, under Law 27's and 38C's passes."""
    found = [r["id"] for r in engine.search(search_conn, "右の人の番に1NTと言ってしまった 右の人はパス", limit=3)]
    assert any(unit.startswith("laws-2017-ja:31A") for unit in found), found
