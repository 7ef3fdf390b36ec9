"""The text checker's evidence: two more kinds of candidate, and what explains a candidate away.

A conversion error is random: it seldom spells a word the way a convention does, seldom drops or
adds a whole particle, seldom repeats a piece of a word across other words, and does not happen
the same way in a second, independently converted copy of the same text. The checker
(ingest/checks/textcheck.py) flags; this module weighs. See textcheck's docstring for the kinds.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

from ingest.text import kana

# a character that is a word of its own and that the book writes or leaves out as style allows
STANDALONE_KINDS = {"助詞", "補助記号", "接頭辞", "名詞", "副詞", "連体詞", "代名詞"}
WINDOW = 8
REPEATED = 3  # a spelling printed this often is deliberate: slips do not repeat letter for letter


def convention_form(word: str) -> str:
    """A katakana word less what spelling conventions vary: ー, small against large kana, and エ-row
    kana + イ for the long vowel (プレイ/プレー, ブレイク/ブレーク)."""
    return kana.E_ROW_I_RE.sub(r"\1ー", word.translate(kana.SMALL_TO_LARGE)).replace("ー", "")


def spelling_convention(word: str, majority: str, printed: int = REPEATED) -> str | None:
    """A spelling the corpus prints ``printed`` times or more that differs from the majority's only
    by a convention: a deliberate spelling recurs, a slip (ビデイング twice beside ビディング) does not."""
    if word != majority and printed >= REPEATED and convention_form(word) == convention_form(majority):
        return f"a spelling convention: {word} and {majority} differ only by ー, イ for ー, or small and large kana"
    return None


def morpheme_at(morphemes, offset: int):
    return next((m for m in morphemes if m[1] <= offset < m[2]), None)


def standalone_word(text: str, offset: int, morphemes_of) -> bool:
    """The character at ``offset`` is a whole dictionary word of a kind style adds or leaves out."""
    start = max(0, offset - WINDOW)
    window = text[start : offset + WINDOW]
    found = morpheme_at(morphemes_of(window), offset - start)
    return bool(found) and found[2] - found[1] == 1 and not found[3] and found[4] in STANDALONE_KINDS


def grammatical_alternative(candidate, value: str, fuller: dict, morphemes_of, side: int) -> str | None:
    """A stray or missing character (the n-gram kinds) that is a particle or another word of its
    own: both readings are Japanese, and the book writes both (ときには / ときは)."""
    if candidate.kind == "stray" and "only here" in candidate.detail:
        if standalone_word(value, candidate.start, morphemes_of):
            return f"'{candidate.span}' is a word of its own; the book writes the phrase both with and without it"
    if candidate.kind == "missing":
        left, right = value[candidate.start - side : candidate.start], value[candidate.start : candidate.start + side]
        chars = [char for char, _ in fuller.get((left, right), [])]
        if chars and all(standalone_word(left + char + right, side, morphemes_of) for char in chars):
            return f"the missing {'/'.join(chars)} is a word of its own; the book writes the phrase both ways"
    return None


def vouched_pieces(word: str, morphemes_of, spellings: Counter) -> str | None:
    """A katakana word the corpus prints the same way three times or more (a slip does not repeat
    itself letter for letter; a systematic one has a majority spelling beside it, a `variant`), or
    whose unknown pieces it prints in other words too."""
    if spellings[word] >= REPEATED:
        return f"printed {spellings[word]}× in the corpus, always so"
    unknown = [surface for surface, _, _, oov, _ in morphemes_of(word) if oov]
    if not unknown:
        return None
    others = [w for w in spellings if w != word]
    if all(len(piece) >= 2 and sum(1 for w in others if piece in w) >= 2 for piece in unknown):
        return (
            f"its unknown part{'s' if len(unknown) > 1 else ''} {'・'.join(unknown)} the corpus prints in other words"
        )
    return None


def known_compound(word: str, is_word, spellings: Counter) -> str | None:
    """A katakana compound of words the dictionary knows or the corpus prints on their own or as
    the start of other words (スイス|ペア, ヒューストン|トライアル|ペア, ビディング|シーケンス)."""
    starts = Counter(w[:n] for w in spellings for n in range(3, len(w)))

    def piece(text: str, last: bool) -> bool:
        # a two-letter word only ends a compound (スイス|ペア), never starts one (ミッ|セル)
        if text == word or len(text) < (2 if last else 3):
            return False
        return spellings[text] >= 2 or (len(text) >= 4 and starts[text] >= 2) or is_word(text)

    @lru_cache(maxsize=None)
    def split(rest: str) -> tuple[str, ...] | None:
        if not rest:
            return ()
        for end in range(len(rest), 1, -1):
            if piece(rest[:end], end == len(rest)) and (tail := split(rest[end:])) is not None:
                return (rest[:end], *tail)
        return None

    pieces = split(word)
    if pieces and len(pieces) > 1:
        return f"a compound of words the dictionary or the corpus knows: {'|'.join(pieces)}"
    return None


def same_words(candidate, value: str, fuller: dict, normalized_of, side: int) -> str | None:
    """A stray or missing kana that only changes how a word is spelt (締切られ/締め切られ): the
    dictionary reads both as the same words."""
    left, right = value[candidate.start - side : candidate.start], value[candidate.start : candidate.start + side]
    if candidate.kind == "stray":
        pairs = [
            (
                left + candidate.span + value[candidate.start + 1 : candidate.start + 1 + side],
                left + value[candidate.start + 1 : candidate.start + 1 + side],
            )
        ]
    elif candidate.kind == "missing":
        pairs = [(left + right, left + char + right) for char, _ in fuller.get((left, right), [])]
    else:
        return None
    if pairs and all(normalized_of(a) == normalized_of(b) for a, b in pairs):
        return "the dictionary reads both spellings as the same words (okurigana)"
    return None


def kanji_word(value: str, start: int, morphemes_of) -> str | None:
    """一 inside a dictionary word with another kanji (同一, 統一, 一部): the kanji, not ー."""
    begin = max(0, start - WINDOW)
    found = morpheme_at(morphemes_of(value[begin : start + WINDOW]), start - begin)
    if found and not found[3] and len(found[0]) > 1 and re.search(r"[\u3400-\u9fff]", found[0].replace("一", "")):
        return f"一 is part of the word {found[0]}"
    return None


def second_witness(candidate, value: str, witnesses: Iterable[str], side: int) -> str | None:
    """Another copy of the same provision, converted from another PDF, prints the same words."""
    window = value[max(0, candidate.start - side) : candidate.start + len(candidate.span) + side]
    if len(window) > len(candidate.span) and any(window in text for text in witnesses):
        return f"the reprint of this provision prints '{window}' too"
    return None


def witness_prints(instead: str, word: str, witnesses: Iterable[str]) -> bool:
    """A second copy of the provision prints ``instead`` and never ``word``: for a dictionary word
    (リポート, report) near a bridge term (リボーク), the reprint is the evidence that it is garbled."""
    return any(instead in text and word not in text for text in witnesses)


# ------------------------------------------------------------------------------- new kinds


def small_kana_spans(text: str, full_morphemes_of) -> Iterable[tuple[int, str, str]]:
    """つ where っ makes a verb's or an auxiliary's 促音便 before た or て (取つた, できなかつた): the
    small kana printed large."""
    for m in re.finditer(r"(?<=[\u3041-\u3096\u3400-\u9fff])つ(?=[たてち])", text):
        i = m.start()
        start = max(0, i - WINDOW)
        as_printed = full_morphemes_of(text[start : i + 3])
        small = full_morphemes_of(text[start:i] + "っ" + text[i + 1 : i + 3])
        verb = next((pos for surface, begin, pos in small if begin <= i - start < begin + len(surface)), None)
        printed = next((begin for surface, begin, _ in as_printed if begin <= i - start < begin + len(surface)), None)
        # as printed, the つ must begin a word of its own (つた, つて): a word such as かつて holds it rightly
        if verb and verb[0] in ("動詞", "助動詞", "形容詞") and verb[5].endswith("促音便") and printed == i - start:
            yield i, "つ", "a large つ where っ makes a verb form (促音便 before た/て)"


def weighted_distance(a: str, b: str) -> float:
    """Edit distance where a kana and its voiced or half-voiced form (ホ/ボ/ポ) differ by half."""
    previous = [float(j) for j in range(len(b) + 1)]
    for i, x in enumerate(a, 1):
        current = [float(i)]
        for j, y in enumerate(b, 1):
            cost = 0.0 if x == y else 0.5 if base_kana(x) == base_kana(y) else 1.0
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost))
        previous = current
    return previous[-1]


@lru_cache(maxsize=4096)
def base_kana(char: str) -> str:
    return unicodedata.normalize("NFD", char)[0]


def near_words(spellings: Counter, known: set[str], frequent: int = 10) -> dict[str, str]:
    """Katakana words printed at most twice that are within a small weighted edit distance of a
    word the corpus prints ``frequent`` times or more, or of a glossary term, and are no spelling
    convention of it: word -> that neighbour."""
    anchors = {w for w, n in spellings.items() if n >= frequent and len(w) >= 3} | {w for w in known if len(w) >= 3}
    found = {}
    for word, count in spellings.items():
        if count > 2 or word in known or len(word) < 3:
            continue
        limit = 1.0 if len(word) <= 3 else 1.5 if len(word) <= 5 else 2.0
        best = min(
            (
                (weighted_distance(word, anchor), anchor)
                for anchor in anchors
                if anchor != word
                and abs(len(anchor) - len(word)) <= 1
                and convention_form(anchor) != convention_form(word)
                and word not in anchor
                and anchor not in word
            ),
            default=None,
        )
        if best and best[0] <= limit:
            found[word] = best[1]
    return found


def explain(candidates: list, explanation) -> list:
    """Each candidate with ``explained`` set where ``explanation(candidate)`` finds evidence."""
    return [replace(c, explained=explanation(c)) for c in candidates]
