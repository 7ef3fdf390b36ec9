"""A verb of the director vocabulary that the Laws never print is read inflected (issue 36): 引っ込めたい is
the 引っ込める of the phrase カードを引っ込める (Law 47), as a director says it mid-ruling."""

from __future__ import annotations

import pytest

from ingest.search.tables import vocabulary_verbs
from laws_site.search import engine
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
