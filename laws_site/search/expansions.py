"""What else a query may mean: readings, romaji, loanwords by sound, synonyms, Chinese variants
and, when the query itself finds little, spelling corrections (issue 24).

Everything is looked up in table `search_expansions` (ingest/search/expansions.py); the keys are
made by the same functions as at build (ingest/text/forgiving.py). The algorithm, step by step (the
offline app repeats it):

1. kana query (hiragana, katakana, ー): k = kana_key(q);
   segment k into `reading` keys (fewest pieces; a one-kana particle の を に が は と で も へ な may
   stand between pieces; among equal counts the more frequent words) -> the words joined
   (じゅんばんがいのりーど -> 順番外のリード); if none fits, the query in katakana. Kind "reading".
2. romaji query (syllables only: ribooku): kana = romaji_to_kana(q), then as 1. Kind "romaji".
3. katakana query (or the kana of 1-2): s = sound_key(kana, japanese=True); the English terms whose
   `sound` key equals s (keys of 3 consonants or more) and whose sound pattern, vowels kept, is close to the
   kana's (sounds_close) -> each English term, searched with its
   glossary and vocabulary translations (アジャスティッドスコア -> adjusted score -> 調整スコア).
4. Japanese query: its tokens joined (query_terms) as a `synonym` key, else each token the index
   does not hold replaced by its synonym -> the corpus words (one alternative per target).
5. query with Han characters: simplified, each `zh` key it contains (longest first) replaced by
   the 1997 text's term (夢家的權利 -> 明手的权利).
6. only when the query's own search finds fewer than FEW units ("did you mean"): the closest key by
   edit distance, the nearest only (rapidfuzz: Levenshtein on kana keys of katakana words; OSA, which counts a
   swap as one edit, on English terms), at most 1 edit for keys up to 4 characters, 2 above.

Results of all of these rank below every unit the query itself finds (laws_site/search/ranking.py), except
step 5's: a reviewed variant is another spelling of the same term, and its units rank with the
query's own (search.alternative_tier). Step 4 leads a word only to the group's words of the same part
of speech, one spelling per search key (ingest/search/expansions.py, at build).
"""

from __future__ import annotations

import sqlite3
import unicodedata
from dataclasses import dataclass, field

from rapidfuzz import process
from rapidfuzz.distance import OSA, Levenshtein

from ingest.text import forgiving, tokenize
from laws_site.read import queries

FEW = 3  # fewer units than this from the query itself: offer corrections
MAX_KEY_CHARS = 40  # longer kana queries are not segmented
MIN_SOUND_KEY = 3  # consonants; shorter skeletons match too many English words
MIN_SOUND_LIKENESS = 0.7  # sounds_close: the share of places two sound patterns agree in
MAX_ALTERNATIVES = 4
MAX_EACH = 2  # sounds, synonyms, corrections: the first two of each
# a correction is a word of the corpus at most SHORT_EDITS edits from a typed word of SHORT_CHARS
# characters or fewer, at most EDITS from a longer one
SHORT_CHARS, SHORT_EDITS, EDITS = 4, 1, 2
PARTICLES = {
    "ノ": "の",
    "オ": "を",
    "ニ": "に",
    "ガ": "が",
    "ハ": "は",
    "ワ": "は",
    "ト": "と",
    "デ": "で",
    "モ": "も",
    "ヘ": "へ",
    "エ": "へ",
    "ナ": "な",
}


@dataclass(frozen=True)
class Alternative:
    kind: str  # reading | romaji | sound | synonym | zh | typo
    text: str  # searched as a query of its own
    lang: str | None  # ja | zh | None (English: both languages through the glossary)


@dataclass
class ExpansionData:
    readings: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # key -> [(term, count)], best first
    sounds: dict[str, list[str]] = field(default_factory=dict)
    synonyms: dict[str, list[str]] = field(default_factory=dict)
    zh: dict[str, str] = field(default_factory=dict)
    longest_reading: int = 0
    kana_words: list[str] = field(default_factory=list)  # keys of katakana words (typo candidates)
    kana_word_of: dict[str, str] = field(default_factory=dict)
    english: list[str] = field(default_factory=list)  # English terms (typo candidates)

    @classmethod
    def from_conn(cls, conn: sqlite3.Connection) -> "ExpansionData":
        data = cls()
        if not queries.table_exists(conn, "search_expansions"):
            return data
        rows = conn.execute(
            "select kind, key, term, weight from search_expansions order by kind, key, weight desc, term"
        )
        for kind, key, term, weight in rows:
            if kind == "reading":
                data.readings.setdefault(key, []).append((term, weight))
            elif kind == "sound":
                data.sounds.setdefault(key, []).append(term)
            elif kind == "synonym":
                data.synonyms.setdefault(key, []).append(term)
            elif kind == "zh":
                data.zh[key] = term
        data.longest_reading = max(map(len, data.readings), default=0)
        for key, terms in data.readings.items():
            term = terms[0][0]
            if len(key) >= 3 and forgiving.KATAKANA_ONLY_RE.match(term):
                data.kana_words.append(key)
                data.kana_word_of[key] = term
        data.english = sorted({term for terms in data.sounds.values() for term in terms})
        return data


def alternatives(data: ExpansionData, query: str, lang: str | None, ja_terms=None) -> list[Alternative]:
    """Steps 1-5: what else the query may mean, most likely first, without repeats. `ja_terms` cuts a
    Japanese text into the words a query must match (serving: laws_site/search/words.py)."""
    found: list[Alternative] = []
    text = unicodedata.normalize("NFKC", query).strip()
    kana = None
    if forgiving.is_kana(text):
        kana = text
        words = segment(data, forgiving.kana_key(text))
        # no reading fits: the kana as katakana (a loanword typed in hiragana, printed in a text only)
        found.append(Alternative("reading", words or forgiving.to_katakana(text), "ja"))
    else:
        romaji = forgiving.romaji_to_kana(text)
        if romaji:
            kana = romaji
            found.append(Alternative("romaji", segment(data, forgiving.kana_key(romaji)), "ja"))
    if kana:
        for term in sounds_like(data, kana):
            found.append(Alternative("sound", term, None))
    if tokenize.HAN_RE.search(text) or forgiving.is_kana(text):
        found += [Alternative("synonym", t, "ja") for t in synonyms(data, text, ja_terms)]
    if tokenize.HAN_RE.search(text):
        variant = zh_variant(data, text)
        if variant:
            found.append(Alternative("zh", variant, "zh"))
    kept, seen = [], {query}
    for alternative in found:
        if alternative.text and alternative.text not in seen and (lang is None or alternative.lang in (None, lang)):
            seen.add(alternative.text)
            kept.append(alternative)
    return kept[:MAX_ALTERNATIVES]


def segment(data: ExpansionData, key: str) -> str:
    """The kana key as corpus words (step 1), or '' when it cannot be read as words."""
    if not key or len(key) > MAX_KEY_CHARS:
        return ""
    size = len(key)
    # best[i]: (pieces, -frequency, words) for key[:i]
    best: list[tuple | None] = [None] * (size + 1)
    best[0] = (0, 0, ())
    for start in range(size):
        if best[start] is None:
            continue
        pieces, weight, words = best[start]
        for end in range(start + 1, min(size, start + data.longest_reading) + 1):
            piece = key[start:end]
            options = data.readings.get(piece)
            if options:
                term, count = options[0]
                candidate = (pieces + 1, weight - count, words + (term,))
            elif end == start + 1 and piece in PARTICLES and start > 0:
                candidate = (pieces + 1, weight, words + (PARTICLES[piece],))
            else:
                continue
            if best[end] is None or candidate[:2] < best[end][:2]:
                best[end] = candidate
    if best[size] is None:
        return ""
    return "".join(best[size][2])


def sounds_like(data: ExpansionData, kana: str) -> list[str]:
    key = forgiving.sound_key(forgiving.to_katakana(kana), japanese=True)
    if len(key) < MIN_SOUND_KEY:
        return []
    heard = forgiving.sound_pattern(forgiving.to_katakana(kana), japanese=True)
    return [term for term in data.sounds.get(key, []) if sounds_close(heard, term)][:MAX_EACH]


def sounds_close(heard: str, term: str) -> bool:
    """Whether the English term sounds like the kana whose sound_pattern is `heard`: its own pattern has a
    vowel (an abbreviation, vps, dbl, is said letter by letter: ベプシ is no vps) and agrees with it in at
    least MIN_SOUND_LIKENESS of its places, consonants and vowels (えどかり VdkVr against declarer's dVkrVrV:
    0.43; デクレアラー 1.0; スクリーン against screens 0.83). Consonants alone matched nonsense (ゼヤキヤセ: success)."""
    said = forgiving.sound_pattern(term, japanese=False)
    return forgiving.VOWEL_RUN in said and Levenshtein.normalized_similarity(heard, said) >= MIN_SOUND_LIKENESS


def synonyms(data: ExpansionData, text: str, ja_terms=None) -> list[str]:
    terms = ja_terms(text) if ja_terms else tokenize.query_terms(text, "ja")
    whole = data.synonyms.get(" ".join(terms))
    if whole:
        return whole[:MAX_EACH]
    found = []
    for i, term in enumerate(terms):
        # a target that is the term itself (＋ and プラス share a SudachiDict group) would only re-spell the query,
        # offered as its search forms joined (アベレジプラスどんな時)
        for target in [t for t in data.synonyms.get(term, []) if t != term][:MAX_EACH]:
            found.append("".join(terms[:i] + [target] + terms[i + 1 :]) if len(terms) > 1 else target)
    return found[:MAX_EACH]


def zh_variant(data: ExpansionData, text: str) -> str:
    simplified = tokenize.to_simplified(text)
    replaced = simplified
    for variant in sorted(data.zh, key=len, reverse=True):
        if variant in replaced:
            replaced = replaced.replace(variant, data.zh[variant])
    return replaced if replaced != simplified else ""


def most_edits(typed: str) -> int:
    """How many edits a correction may be from the typed word (or its kana key)."""
    return SHORT_EDITS if len(typed) <= SHORT_CHARS else EDITS


def corrections(data: ExpansionData, query: str, lang: str | None) -> list[Alternative]:
    """Step 6: the closest words of the corpus to a query that finds little."""
    text = unicodedata.normalize("NFKC", query).strip()
    found = []
    if text.isascii() and forgiving.ASCII_WORDS_RE.match(text):
        lowered = text.lower()
        limit = most_edits(lowered)
        close = [
            (distance, term)
            for term, distance, _ in process.extract(
                lowered, data.english, scorer=OSA.distance, score_cutoff=limit, limit=5
            )
            if distance > 0
        ]
        nearest = min((distance for distance, _ in close), default=None)
        found += [Alternative("typo", term, None) for distance, term in close if distance == nearest]
    kana = text if forgiving.is_kana(text) else forgiving.romaji_to_kana(text)
    if kana and lang in (None, "ja"):
        key = forgiving.kana_key(kana)
        limit = most_edits(key)
        close = [
            (distance, data.kana_word_of[candidate])
            for candidate, distance, _ in process.extract(
                key, data.kana_words, scorer=Levenshtein.distance, score_cutoff=limit, limit=5
            )
            if distance > 0
        ]
        nearest = min((distance for distance, _ in close), default=None)
        found += [Alternative("typo", term, "ja") for distance, term in close if distance == nearest]
    seen, kept = set(), []
    for alternative in found:
        if alternative.text not in seen and alternative.text != query:
            seen.add(alternative.text)
            kept.append(alternative)
    return kept[:MAX_EACH]
