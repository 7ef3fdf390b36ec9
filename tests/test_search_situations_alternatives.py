"""A situation told in Japanese ranks by its coverage even where an alternative of the query finds units
(issue 36): a synonym of one of its words (間違う -> 間違える) re-spells the whole sentence as its search forms
joined (説明間違える居るビツド言い直しパトナ未だコルない), which is no reading to show the user as "also searched",
nor a tier to put its few 索引 hits (21B1(b), Law 75, the definition of パートナー) above the sentence's own."""

from __future__ import annotations

from laws_site.search import engine

# 21B1(a): オークション期間が終了する前、しかもパートナーがその後まだコールしていなければ ... そのコールを言い直すことができる
SENTENCE = "説明が間違っていたのでビッドを言い直したい パートナーはまだコールしていない"


def test_a_sentences_respelling_is_not_said_searched(search_conn):
    page = engine.search_page(search_conn, SENTENCE, limit=5, interface="ja")
    assert page["also_searched"] == [], page["also_searched"]
    assert page["expansions"] == [], page["expansions"]


def test_a_sentence_with_a_respelling_ranks_by_its_coverage(search_conn):
    results = [r["id"] for r in engine.search(search_conn, SENTENCE, limit=5, interface="ja")]
    assert results[0] == "laws-2017-ja:21B1(a)", results
