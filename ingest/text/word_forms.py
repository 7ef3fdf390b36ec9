"""A thing said not to be done (フォローしない), indexed and read as one word beyond SudachiPy's normalised
forms (ingest/text/tokenize.py).

SudachiPy cuts 「フォローしない」 into フォロー + し + ない, and a query drops the auxiliary ない (words.py), so
「フォローしなかった」 read as フォロー alone and found the duty to follow first (44C 「スートにフォローしなければ
ならない」, shown as also searched: スートにフォローする義務) above the revoke (61 「スートにフォローしないこと ー
リボーク」). The index reads the auxiliary of a noun + する the text negates as the negated noun (フォロー 為る
フオロない: no token more, so no unit grows longer for other queries), and the lexicon learns the surfaces a query types for it (フォローしなかっ, フォローせず, フォローしていない), so
a query saying the thing was not done reads the one word on the server and offline alike (the cut is the
lexicon's); in a sentence it reads the noun too (search_neighbours, source form: ingest/search/lexicon.py). A
duty (しなければ, しなくては, しないと) is not a negation, nor a prohibition (してはならない: ならない negates
なる). A plain verb's negation (言わない) is left as it was: indexed, a rare negated verb outweighed the
sentence's other words (「スートだけ言って数字を言わなかった」 found 19A2's 言わない before 46B2's 指定しなかった).
"""

from __future__ import annotations

import re

VERB = "動詞"
NOUN = "名詞"
AUXILIARY = "助動詞"
NEGATIONS = {"ない", "ず", "ぬ"}  # the negating auxiliaries' normalised forms
DO = "為る"  # する: negated, the noun before it is what was not done (フォローしない)
# the auxiliary's surfaces that begin a duty (しなければ, しなくては, しないと): not a negation
DUTY_SURFACES = {"なけれ"}
DUTY_NEXT = {"なく": {"て", "ては", "ちゃ", "っちゃ"}, "ない": {"と"}}
NEGATED_SUFFIX = "ない"
# a negated する as printed (フォローしない, フォローせず): its negating ending, then する's stem (し, せ)
NEGATION_END_RE = re.compile("(?:な(?:い|かっ|く)|ず|ぬ)$")
# a noun + する said not done as the Laws write it (フォローしない), the one word index and query share
DONE_NOT = "しない"
# the forms of a negated する a report types (after the noun)
DO_TYPED = (DONE_NOT, "しなかっ", "しなく", "せず", "していない", "していなかっ", "してない", "してなかっ")


def negated_places(words: list[tuple[str, int, int, str]], text: str) -> list[tuple[int, str]]:
    """(place, negated form) of each noun + する the text negates, from its words in text order as (search
    form, begin, end, part of speech): the place is the negating auxiliary's (フォロー し [ない])."""
    found = []
    for i, (norm, begin, end, pos) in enumerate(words):
        if pos != AUXILIARY or norm not in NEGATIONS or i < 2:
            continue
        noun, verb = words[i - 2], words[i - 1]
        if verb[0] != DO or verb[3] != VERB or verb[2] != begin or noun[3] != NOUN or noun[2] != verb[1]:
            continue
        surface = text[begin:end]
        after = text[end : end + 2]
        if surface in DUTY_SURFACES or any(after.startswith(word) for word in DUTY_NEXT.get(surface, ())):
            continue
        found.append((i, noun[0] + NEGATED_SUFFIX))
    return found


def is_negated_form(norm: str) -> bool:
    return len(norm) > len(NEGATED_SUFFIX) and norm.endswith(NEGATED_SUFFIX)


def typed_surfaces(printed: str) -> list[str]:
    """The surfaces a query types for a negated noun + する the text prints (フォローしない, フォローせず): the
    noun with each of DO_TYPED (フォローしなかっ, フォローせず, フォローしていない ...)."""
    stem = NEGATION_END_RE.sub("", printed)
    if stem == printed or len(stem) < 2 or not stem.endswith(("し", "せ")):
        return []
    return [stem[:-1] + ending for ending in DO_TYPED]
