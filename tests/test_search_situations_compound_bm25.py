"""A sentence's bm25 (what tells apart units covering it alike, coverage.sentence_hits) counts a compound once, as
the phrase of its pieces, which every printing of it matches. Its clause searches the word whole or as that phrase
(オープニングリード, 「オープニング リード」), and FTS5 adds both phrases' scores: a unit printing the compound often
earned it twice and outranked one covering more of the sentence. On the server and offline alike (tests/test_search_parity.py)."""

from __future__ import annotations

from laws_site.search import engine
from laws_site.search.coverage import bm25_clauses


def test_a_compound_is_counted_once_not_again_as_its_pieces():
    clauses = [
        ("オプニングリド", "オプニング リド"),
        ("対戦 相手",),
        ("終了", "終わる"),
        ("システムカド", "システム カド"),
    ]
    assert bm25_clauses(clauses) == [("オプニング リド",), ("対戦 相手",), ("終了", "終わる"), ("システム カド",)]


def test_a_gesture_at_the_opening_lead_is_no_lead_out_of_turn(search_conn):
    # 73B1 「不当な方法の意思の伝達…身振り」, 74C2 「不満…を示す」: the gesture is the irregularity; Law 54's parts
    # (a faced opening lead out of turn) print オープニングリード often and hold nothing of the head shaken
    query = "my opponent shook his head in disgust when his partner made the opening lead"
    first = engine.search(search_conn, query, limit=1, interface="en")[0]["id"]
    assert first in ("laws-2017-ja:73B1", "laws-2017-ja:74C2"), first
