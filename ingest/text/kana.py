"""The kana tables, in one place: small kana and their large forms, the vowel each kana ends in, and
the エ-row kana that spell a long vowel with イ. The tokenizer's katakana folding, the forgiving keys,
the 索引's collation and the text checker read them from here; the offline search gets them as data
(laws_site/offline/search_rules.py).
"""

from __future__ import annotations

import re

SMALL_HIRAGANA, LARGE_HIRAGANA = "ぁぃぅぇぉっゃゅょゎ", "あいうえおつやゆよわ"
SMALL_KATAKANA, LARGE_KATAKANA = "ァィゥェォッャュョヮヵヶ", "アイウエオツヤユヨワカケ"
SMALL_KANA = SMALL_HIRAGANA + SMALL_KATAKANA
SMALL_TO_LARGE = str.maketrans(SMALL_KANA, LARGE_HIRAGANA + LARGE_KATAKANA)
# katakana only: folding a katakana word leaves the hiragana written beside it as it is
SMALL_TO_LARGE_KATAKANA = str.maketrans(SMALL_KATAKANA, LARGE_KATAKANA)

# the vowel each kana ends in (a long vowel written ー, or written out: ボオ, コウ, ケイ)
VOWEL_ROWS = {
    "a": "アカサタナハマヤャラワガザダバパ",
    "i": "イキシチニヒミリギジヂビピ",
    "u": "ウクスツヌフムユュルグズヅブプヴ",
    "e": "エケセテネヘメレゲゼデベペ",
    "o": "オコソトノホモヨョロヲゴゾドボポ",
}
KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(ord("ァ"), ord("ヶ") + 1)}
VOWEL_OF = {kana: vowel for vowel, row in VOWEL_ROWS.items() for kana in row}
VOWEL_OF.update({kana.translate(KATAKANA_TO_HIRAGANA): vowel for kana, vowel in list(VOWEL_OF.items())})

# エ-row kana followed by イ is a long vowel spelled two ways (プレイ / プレー, ブレイク / ブレーク)
E_ROW_I = r"([エケゲセゼテデネヘベペメレヱ])イ"
E_ROW_I_RE = re.compile(E_ROW_I)


def katakana_to_hiragana(text: str) -> str:
    return text.translate(KATAKANA_TO_HIRAGANA)


def vowel_hiragana(kana: str) -> str:
    """The hiragana vowel a kana ends in (か -> あ, ポ -> お); '' for ん, ー and anything else."""
    vowel = VOWEL_OF.get(kana)
    return "あいうえお"["aiueo".index(vowel)] if vowel else ""
