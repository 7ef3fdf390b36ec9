"""Keys that let a query typed loosely meet the words the corpus prints (issue 24).

Pure functions, used at build (ingest/search/expansions.py writes the keys of every corpus word
into table `search_expansions`) and at query time (laws_site/search/expansions.py computes the query's
key the same way and looks it up). Each is small and table-driven so the offline app can do the
same in JavaScript (wanakana's toKana/toRomaji play the part of jaconv there).

- `kana_key`: a spelling-blind key of a kana string: hiragana as katakana, small kana as large,
  no long-vowel marks, no sokuon, a vowel repeating the previous one dropped (リボーク = りぼおく =
  リボク = リボック).
- `romaji_to_kana`: Hepburn / kunrei / wāpuro romaji to hiragana (jaconv), or None when some of
  it is not romaji.
- `sound_key`: a consonant skeleton shared by an English word and its katakana loanword, made
  from the English spelling or from the katakana's romaji (アジャスティッドスコア and "adjusted
  score" both give `jstdsk`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import jaconv

from ingest.text.kana import SMALL_TO_LARGE_KATAKANA, VOWEL_OF

HIRAGANA_RE = re.compile(r"[\u3041-\u3096]")
KANA_ONLY_RE = re.compile(r"^[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc\u30fd\u30fe・ー〜\s]+$")
KATAKANA_ONLY_RE = re.compile(r"^[\u30a1-\u30fa\u30fc・ー]+$")
# romaji is syllables: (consonant (+ y)) + vowel, a syllabic n, a doubled consonant, a long-vowel dash
ROMAJI_RE = re.compile(
    r"^(?:(?:sh|ch|ts|dh|th|[kgsztdnhbpmrfjvcwl])?y?[aeiou]|n(?![aeiouy])|([kgsztdhbpmrfjc])(?=\1)|-|'| )+$"
)
ASCII_WORDS_RE = re.compile(r"^[A-Za-z][A-Za-z\-' ]*$")

VOWEL_KANA = {"ア": "a", "イ": "i", "ウ": "u", "エ": "e", "オ": "o"}
# a vowel kana after a kana ending in one of these vowels writes a long vowel out (ボオ, コウ, ケイ)
LONG_AFTER = {"a": "a", "i": "ie", "u": "uo", "e": "e", "o": "o"}
KEY_DROPPED = "ーッっ・-〜"  # long-vowel marks, sokuon, middle dots: not in a key
SAME_SOUND = {"ヴ": "ブ", "ヂ": "ジ", "ヅ": "ズ", "ヲ": "オ", "ヰ": "イ", "ヱ": "エ"}
_SAME_SOUND = str.maketrans(SAME_SOUND)


def to_katakana(text: str) -> str:
    return jaconv.hira2kata(unicodedata.normalize("NFKC", text))


def is_kana(text: str) -> bool:
    return bool(KANA_ONLY_RE.match(unicodedata.normalize("NFKC", text).strip()))


def has_hiragana(text: str) -> bool:
    return bool(HIRAGANA_RE.search(text))


_SPACE_RUN_RE = re.compile(r"\s+")


def kana_key(text: str) -> str:
    """The key of a kana string (hiragana or katakana, spaces ignored). Lossy on purpose: a long
    vowel, a doubled consonant or a small kana written or not give the same key."""
    kana = to_katakana(_SPACE_RUN_RE.sub("", text)).translate(_SAME_SOUND)
    out: list[str] = []
    previous_vowel = None
    for char in kana:
        if char in KEY_DROPPED:
            continue
        char = char.translate(SMALL_TO_LARGE_KATAKANA)
        vowel = VOWEL_KANA.get(char)
        if vowel and previous_vowel and previous_vowel in LONG_AFTER[vowel]:
            continue  # a long vowel written out (ボオ, コウ, ケイ)
        out.append(char)
        previous_vowel = VOWEL_OF.get(char)
    return "".join(out)


def romaji_to_kana(text: str) -> str | None:
    """`ribooku` -> りぼおく, `junbangai` -> じゅんばんがい; None unless every letter became kana."""
    text = unicodedata.normalize("NFKC", text).strip().lower()
    if not text or not ROMAJI_RE.match(text):
        return None
    # word by word: "fujuubun na" must not become ふじゅうぶ + んあ
    kana = "".join(jaconv.alphabet2kana(word) for word in text.replace("-", "ー").replace("'", "").split())
    kana = kana.replace("n", "ん")  # a final n (ribookun) jaconv leaves as a letter
    return kana if is_kana(kana) else None


# ---------------------------------------------------------------- loanwords by sound

# applied in order to the lower-case spelling (English) or romaji (katakana), so both sides meet
ENGLISH_RULES = [
    (r"\bof\b", "ob"),
    (r"\bps", "s"),
    (r"tch", "T"),
    (r"ch", "T"),
    (r"ph", "f"),
    (r"gh(?![aeiou])", ""),
    (r"ck", "k"),
    (r"wh", "w"),
    (r"th", "s"),
    (r"dg(?=[eiy])", "j"),
    (r"d?j", "j"),
    (r"g(?=[eiy][^aeiou\b]|e\b|y)", "j"),
    (r"c(?=[eiy])", "s"),
    (r"[cq]", "k"),
    (r"x", "ks"),
    (r"tion", "shon"),
    (r"sion", "shon"),
    (r"cial", "shal"),
    (r"tial", "shal"),
    (r"e\b", ""),  # a silent final e (revoke, score)
    (r"(?<=[aeiou])r(?![aeiou])", ""),  # r after a vowel and before none is not heard (declarer, card)
    (r"m(?=[pb])", "n"),  # trump -> toranpu
]
ROMAJI_RULES = [(r"c?ch", "T"), (r"tsu", "tu")]
# both sides: sounds Japanese does not tell apart, then the consonants only, each once
SHARED_RULES = [
    (r"sh", "s"),
    (r"ch", "t"),
    (r"ts", "t"),
    (r"l", "r"),
    (r"v", "b"),
    (r"w", ""),
    (r"y", ""),
    (r"z", "s"),
    (r"h", ""),
    (r"f", "h"),
    (r"T", "t"),
    (r"[aeiou]", ""),
    (r"(.)\1+", r"\1"),
]


# the vowels katakana adds after a consonant that English writes with none: u or o before another
# consonant or at the end (スクリーン, カード), i or u at the end (ブリッジ, ダブル)
ADDED_VOWEL_RULES = [(r"(?<=[^aeiou])[uo](?=[^aeiou]|$)", ""), (r"(?<=[^aeiou])[iu]$", "")]
# SHARED_RULES with each run of vowels kept as V, not dropped (sound_pattern)
VOWEL_RUN = "V"
PATTERN_RULES = [(r"[aeiou]+", VOWEL_RUN) if p == r"[aeiou]" else (p, r) for p, r in SHARED_RULES]

_ENGLISH = [(re.compile(p), r) for p, r in ENGLISH_RULES]
_ROMAJI = [(re.compile(p), r) for p, r in ROMAJI_RULES]
_SHARED = [(re.compile(p), r) for p, r in SHARED_RULES]
_ADDED_VOWELS = [(re.compile(p), r) for p, r in ADDED_VOWEL_RULES]
_PATTERN = [(re.compile(p), r) for p, r in PATTERN_RULES]
ENGLISH_WORDS_RE = re.compile(r"[a-z]+")


def sound_key(text: str, japanese: bool) -> str:
    """The consonant skeleton of an English term (japanese=False) or of a loanword's romaji /
    katakana (japanese=True); '' when there is nothing to compare."""
    return _applied(_SHARED, _spelled(text, japanese))


def sound_pattern(text: str, japanese: bool) -> str:
    """The skeleton with each run of vowels kept as V where it falls (declarer and デクレアラー: dVkrVrV),
    after the vowels katakana adds to a consonant (ク of デクレアラー, ド of カード, the last ブ of ダブル), for how
    close two sounds are, not only whether their consonants agree (えどかり: VdkVr); '' when there is nothing
    to compare."""
    spelled = _spelled(text, japanese)
    if spelled and japanese:
        spelled = _applied(_ADDED_VOWELS, spelled)
    return _applied(_PATTERN, spelled)


def _spelled(text: str, japanese: bool) -> str:
    """The katakana's romaji (japanese=True) or the English words through ENGLISH_RULES, joined; ''
    when the text is neither."""
    if japanese:
        kana = to_katakana(text)
        if not KATAKANA_ONLY_RE.match(kana):
            return ""
        return _applied(_ROMAJI, jaconv.kata2alphabet(kana.replace("・", "")).replace("-", ""))
    spelled = unicodedata.normalize("NFKC", text).lower()
    if not ASCII_WORDS_RE.match(spelled.strip()):
        return ""
    return "".join(english_sound(word) for word in ENGLISH_WORDS_RE.findall(spelled))


def _applied(rules, text: str) -> str:
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


@lru_cache(maxsize=4096)
def english_sound(word: str) -> str:
    """One lower-case English word through ENGLISH_RULES, in order (each word on its own: the
    terms of a corpus share their words, score, call, bid..., each worked out once)."""
    for pattern, replacement in _ENGLISH:
        word = pattern.sub(replacement, word)
    return word
