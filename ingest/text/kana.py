"""The kana tables, in one place: small kana and their large forms, hiragana and katakana, the vowel
each kana ends in, the エ-row kana that spell a long vowel with イ, and the gojūon rows the 索引 is
ordered by. The tokenizer's katakana folding, the forgiving keys, the 索引's parser and page, and the
text checker read them from here; the offline search gets them as data
(laws_site/offline/search_rules.py). tests/test_layout.py holds that no other module spells a kana table.
"""

from __future__ import annotations

import re
import unicodedata

SMALL_HIRAGANA, LARGE_HIRAGANA = "ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ"
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
# katakana and hiragana stand 0x60 apart in Unicode, ァ..ヶ and ぁ..ゖ
KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(ord("ァ"), ord("ヶ") + 1)}
HIRAGANA_TO_KATAKANA = {hiragana: katakana for katakana, hiragana in KATAKANA_TO_HIRAGANA.items()}
VOWEL_OF = {kana: vowel for vowel, row in VOWEL_ROWS.items() for kana in row}
VOWEL_OF.update({kana.translate(KATAKANA_TO_HIRAGANA): vowel for kana, vowel in list(VOWEL_OF.items())})

# エ-row kana followed by イ is a long vowel spelled two ways (プレイ / プレー, ブレイク / ブレーク)
E_ROW_I = r"([エケゲセゼテデネヘベペメレヱ])イ"
E_ROW_I_RE = re.compile(E_ROW_I)


# the gojūon rows the 索引 is printed in, each by its first kana: the kana a row's terms begin with
# once read as plain_kana reads them (no voicing marks, small kana large)
GOJUON_ROWS = {
    "あ": "あいうえお",
    "か": "かきくけこ",
    "さ": "さしすせそ",
    "た": "たちつてと",
    "な": "なにぬねの",
    "は": "はひふへほ",
    "ま": "まみむめも",
    "や": "やゆよ",
    "ら": "らりるれろ",
    "わ": "わゐゑをん",
}
ROW_OF_PLAIN_KANA = {kana: row for row, kanas in GOJUON_ROWS.items() for kana in kanas}
VOICING_MARKS = dict.fromkeys(map(ord, "\u3099\u309a"))  # (translate deletes what maps to None)


def plain_kana(text: str) -> str:
    """Hiragana without voicing marks, small kana large (ガ -> か, っ -> つ, ぷ -> ふ): how the 索引
    collates, and which row a kana belongs to."""
    kana = unicodedata.normalize("NFD", katakana_to_hiragana(text)).translate(VOICING_MARKS)
    return unicodedata.normalize("NFC", kana).translate(SMALL_TO_LARGE)


def gojuon_row(kana: str) -> str | None:
    """The row (あ か さ た な は ま や ら わ) of one kana, hiragana or katakana, voiced or small."""
    return ROW_OF_PLAIN_KANA.get(plain_kana(kana))


def kana_of_row(row: str) -> str:
    """Every hiragana that belongs to a row (ら -> らりるれろ; か -> か..こ, が..ご, ゕ, ゖ)."""
    return "".join(chr(code) for code in range(ord("ぁ"), ord("ゖ") + 1) if gojuon_row(chr(code)) == row)


def katakana_to_hiragana(text: str) -> str:
    return text.translate(KATAKANA_TO_HIRAGANA)


def hiragana_to_katakana(text: str) -> str:
    return text.translate(HIRAGANA_TO_KATAKANA)


def vowel_hiragana(kana: str) -> str:
    """The hiragana vowel a kana ends in (か -> あ, ポ -> お); '' for ん, ー and anything else."""
    vowel = VOWEL_OF.get(kana)
    return "あいうえお"["aiueo".index(vowel)] if vowel else ""
