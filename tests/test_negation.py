"""A thing said not to be done (ingest/text/word_forms.py): the index reads a negated noun + する as one word,
the lexicon cuts a query's negation into it, and a duty or a prohibition is no negation."""

import pytest

from ingest.text import tokenize
from laws_site.search import engine


def index_words(text: str) -> list[str]:
    return tokenize.index_tokens(text, "ja").split()


@pytest.mark.parametrize(
    "text, negated",
    [
        ("第44条で定められた通りにスートにフォローしないこと", "フオロない"),  # 61A
        ("ディクレアラーはディフェンダーがフォローしなかったとき", "フオロない"),  # 61B1
        ("ペナルティカードをリードせずに", "リドない"),
    ],
)
def test_a_negated_noun_and_suru_is_one_word_in_the_index(text, negated):
    words = index_words(text)
    assert negated in words
    assert "ない" not in words and len(words) == len(index_words(text.replace("しな", "した").replace("せず", "して")))


@pytest.mark.parametrize(
    "text",
    [
        "各プレーヤーは可能ならばスートにフォローしなければならない",  # 44C: a duty
        "スートにフォローしなくてはならない",
        "フォローしないといけない",
        "パートナーにプレイを示唆してはならない",  # a prohibition: ならない negates なる
        "間違いに気づかなかった",  # a plain verb's negation is left as it was
    ],
)
def test_a_duty_a_prohibition_or_a_plain_verb_is_no_negated_word(text):
    assert not [word for word in index_words(text) if word.endswith("ない") and word != "ない"]


def test_a_follow_not_made_reads_the_revoke_not_the_duty_to_follow(search_conn):
    """「フォローしなかった」 read as フォロー found 44C (スートにフォローする義務, shown as also searched) and
    the definition of following before Law 61 (「スートにフォローしないこと ー リボーク」)."""
    page = engine.search_page(search_conn, "フォローしなかった", limit=5)
    found = [r["id"] for r in page["results"]]
    assert found[0] == "laws-2017-ja:61", found
    assert "laws-2017-ja:61B1" in found and "laws-2017-ja:44C" not in found
    assert "スートにフォローする義務" not in page["also_searched"]
    # the snippet marks the negation whole, as the unit prints it
    assert [part["text"] for part in page["results"][0]["snippet"] if part["mark"]] == ["フォローしない"]


@pytest.mark.parametrize("typed", ["フォローせずに", "フォローしていなかった", "フォローしてない"])
def test_each_way_of_typing_the_negation_reads_the_one_word(search_conn, typed):
    assert engine.search(search_conn, typed, limit=1)[0]["id"].startswith("laws-2017-ja:61")
