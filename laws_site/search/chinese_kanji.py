"""A Chinese word in the kanji Japanese writes it with (OpenCC: 同时 -> 同時, 解释 -> 解釈), and whether a Japanese word
shares a Chinese word's characters: the reading of laws_site/search/chinese.py keeps a dictionary sense written in the
same kanji before one in others.
"""

from __future__ import annotations

from functools import lru_cache


def shares_kanji(chinese: str, japanese: str) -> bool:
    """Whether a Japanese word writes one of a Chinese word's characters (simplified, or as Japanese writes it)."""
    return bool(chinese) and bool(set(japanese) & (set(chinese) | set(japanese_kanji(chinese))) - {" "})


@lru_cache(maxsize=1)
def to_japanese_converters():
    import opencc

    return opencc.OpenCC("s2t"), opencc.OpenCC("t2jp")


def japanese_kanji(word: str) -> str:
    """A Chinese word in the kanji Japanese writes it with (OpenCC s2t, then t2jp: 同时 -> 同時, 解释 ->
    解釈); the same word where Japanese writes no other form."""
    to_traditional, to_japanese = to_japanese_converters()
    return to_japanese.convert(to_traditional.convert(word))
