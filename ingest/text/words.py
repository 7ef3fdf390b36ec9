"""Where a word ends in Japanese text, which has no spaces: a katakana word runs on while katakana
follow (プレイ is not a word of プレイヤー, nor コール of アーティフィシャルコール), a Latin one while letters
do (IMP is not a word of IMPs). Kanji and kana words have no such edge to see; a longer term is tried
first where two begin at the same place."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

KATAKANA = "\u30a1-\u30ff"  # ァ..ヿ, with ・ and ー: ボード・ア・マッチ is one word
LATIN = "A-Za-z"


def is_katakana(char: str) -> bool:
    return bool(char) and ("\u30a1" <= char <= "\u30ff" or char == "ー")


def _run_class(char: str) -> str | None:
    """The character class a word of this edge character runs on in, if any."""
    if is_katakana(char):
        return KATAKANA
    if char.isascii() and char.isalpha():
        return LATIN
    return None


def _edged(term: str) -> str:
    """The term as a pattern that matches only where it is a whole word."""
    head, tail = _run_class(term[0]), _run_class(term[-1])
    return (f"(?<![{head}])" if head else "") + re.escape(term) + (f"(?![{tail}])" if tail else "")


@lru_cache(maxsize=256)
def _pattern(terms: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(_edged(t) for t in terms))


def whole_words(text: str, terms: Iterable[str]) -> Iterable[re.Match]:
    """Each place of a term in ``text`` where it is a whole word, left to right, the longest term
    where several begin at one place; never one inside another's match."""
    ordered = tuple(sorted(set(t for t in terms if t), key=lambda t: (-len(t), t)))
    if not ordered:
        return iter(())
    return _pattern(ordered).finditer(text)


def is_whole_word(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` does not run on into the characters either side of it."""
    head, tail = _run_class(text[start]), _run_class(text[end - 1])
    before = start > 0 and head is not None and _run_class(text[start - 1]) == head
    after = end < len(text) and tail is not None and _run_class(text[end]) == tail
    return not before and not after


def as_whole_word(term: str, text: str) -> bool:
    """Some place of ``term`` in ``text`` is a whole word (no regex compiled per term: the build
    asks this of every title for every glossary form)."""
    start = text.find(term)
    while start >= 0:
        if is_whole_word(text, start, start + len(term)):
            return True
        start = text.find(term, start + 1)
    return False
