"""Text checker: spans a PDF conversion may have garbled, in every document, for a person to review.

The checker reads each document as parsed from its *verbatim* text (no errata), unit by unit,
so that words the conversion broke over lines or pages are whole again, and flags:

* ``script``: letters of a script that has no business in the text: Hangul, Cyrillic, Greek...
  in any document (16C2 `選んで서는ならない`); kana in the Chinese text; a kanji Japanese does
  not write (not in JIS X 0213) in the Japanese texts; a traditional form in the simplified
  Chinese text.
* ``doubled``: the same kana or kanji twice in a row where no dictionary word holds both
  (30A `パススを`, 36C `認認められない`), unless the text prints it so as often elsewhere.
* ``katakana``: a katakana word Sudachi's dictionary does not know and no glossary or definition
  of the corpus names (`ディクレーター`, `ック` left by a broken word).
* ``long-vowel``: the kanji 一 touching katakana (`デイ一ラー`), or ー where no kana precedes it
  (`ー部` for 一部); the ー of a dash (`こと ーリボーク`) is flagged too, for review.
* ``variant``: a katakana word the same document spells otherwise more often (folded as search
  folds them: `ingest.text.tokenize.fold_katakana`); the majority spelling is the evidence
  (ディクレアララー 65× against ディクレアラー 77×).
* ``stray``: one character inside a phrase the document otherwise prints without it
  (`間違っただ情報` once, `間違った情報` five times); ``missing``: the converse, a phrase the
  document otherwise prints with one more character (`指定をしなれば` once, `しなければ` often).

* ``small-kana``: a large kana where the small one makes a verb form (`取つた` for 取った,
  `行なつて`): the small form tokenizes as a verb's 促音便 where the large one leaves a stray kana.
* ``near-word``: a katakana word printed once or twice that is one or two edits away from a word
  the corpus prints often or names in its glossary, where the dictionary does not know it or the
  frequent word is a bridge term (14B4 `リポート` for リボーク).

Evidence then explains candidates away (``Candidate.explained``): spellings that differ only by ー
or by small and large kana (プレイヤ/プレイヤー, the translation's own convention); a stray or
missing character that is a word of its own (a particle: ときには/ときは); a katakana word whose
unknown part the corpus prints in other words too (ビディング in ビディングシート, ビディングカード);
and a second witness (the commentaries reprint the Laws from another PDF) printing the same span in
the same words. What evidence explains is listed apart and needs no review.

Each candidate names its source line, so that a reviewer can write an erratum (corpus/errata/
<doc>.yml, `errata:`) or record that the text stays as printed (same file, `as_printed:`, each
with its reason); text_review.py checks the whole corpus and sorts the candidates so.
This module is build-side: it needs the parsers and SudachiPy, never Datasette.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from ingest.checks.evidence import (
    grammatical_alternative,
    kanji_word,
    known_compound,
    near_words,
    same_words,
    second_witness,
    small_kana_spans,
    spelling_convention,
    vouched_pieces,
    witness_prints,
)
from ingest.parsers.records import ParsedDocument, Unit
from ingest.parsers.textclean import strip_any_tags
from ingest.search.tables import install_variants
from ingest.sources.corpus import DEFAULT_CORPUS, read_yaml
from ingest.text import kana
from ingest.text.tokenize import sudachi_tokenizer  # the project's one loaded Sudachi dictionary

KINDS = ("script", "doubled", "katakana", "long-vowel", "variant", "stray", "missing", "small-kana", "near-word")

KATAKANA_WORD_RE = re.compile(r"[ァ-ヺー]+(?:・[ァ-ヺー]+)*")
KANA_OR_KANJI = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u3400-\u9fff]")
HIRAGANA_OR_KANJI = re.compile(r"[\u3041-\u3096\u3400-\u9fff]")
KANA_CHAR = re.compile(r"[\u3041-\u3096\u30a1-\u30faー]")
KATAKANA_CHAR = re.compile(r"[\u30a1-\u30fa]")
# Scripts a letter may belong to, per language of the document (first word of its Unicode name).
ALLOWED_SCRIPTS = {
    "ja": {"CJK", "HIRAGANA", "KATAKANA", "KATAKANA-HIRAGANA", "LATIN", "FULLWIDTH", "HALFWIDTH", "IDEOGRAPHIC"},
    "zh": {"CJK", "LATIN", "FULLWIDTH", "IDEOGRAPHIC"},
}
CONTEXT = 10  # characters of context either side, for the report
STRAY_SIDE = 3  # characters either side of a stray character that must recur without it


@dataclass(frozen=True)
class Candidate:
    doc: str
    ref: str  # the unit whose text holds the span
    field: str  # "text" or "title"
    start: int  # offset in that field
    span: str
    kind: str
    detail: str
    line: int | None  # 1-based line of the verbatim source file
    context: str
    # the checker's own evidence that the span is what the book prints (a spelling convention,
    # a particle the document also writes without, a second witness printing the same): such a
    # candidate is listed apart and needs no review
    explained: str | None = None

    @property
    def key(self) -> tuple:
        return (self.doc, self.line, self.kind, self.span)


# ------------------------------------------------------------------------- dictionary and words


@lru_cache(maxsize=65536)
def morphemes(text: str) -> tuple[tuple[str, int, int, bool, str], ...]:
    """(surface, begin, end, out of vocabulary, part of speech) per morpheme, mode C."""
    from sudachipy import SplitMode

    return tuple(
        (m.surface(), m.begin(), m.end(), m.is_oov(), m.part_of_speech()[0])
        for m in sudachi_tokenizer().tokenize(text, SplitMode.C)
    )


def known_katakana(word: str) -> bool:
    return not any(oov for *_, oov, _ in morphemes(word))


def fold_spelling(word: str) -> str:
    from ingest.text.tokenize import fold_katakana

    corpus_variants_installed()
    return fold_katakana(word)


@lru_cache(maxsize=1)
def corpus_variants_installed() -> bool:
    """Fold with corpus/variants.yml, as the build does (check_corpus installs its own corpus's)."""
    install_variants(DEFAULT_CORPUS)
    return True


def vocabulary(documents: Iterable[ParsedDocument], corpus_dir: Path = DEFAULT_CORPUS) -> set[str]:
    """Words the corpus itself vouches for: glossary terms and defined terms, as printed."""
    words: set[str] = set()
    glossary = corpus_dir / "glossary.yml"
    if glossary.exists():
        for term in (read_yaml(glossary) or {}).get("terms") or []:
            for spelling in str(term.get("ja") or "").split("/"):
                words.update(KATAKANA_WORD_RE.findall(spelling))
    for document in documents:
        for unit in document.units:
            if unit.kind == "definition":
                words.update(KATAKANA_WORD_RE.findall(unit.attrs.get("term") or unit.title or ""))
    return words


# ------------------------------------------------------------------------- one field of one unit


def script_of(char: str) -> str | None:
    """The script of a letter (first word of its Unicode name); None for what is not a letter."""
    if not unicodedata.category(char).startswith("L"):
        return None
    return unicodedata.name(char, "UNKNOWN").split(" ")[0]


@lru_cache(maxsize=8192)
def japanese_writes(char: str) -> bool:
    try:
        char.encode("euc_jis_2004")
        return True
    except UnicodeEncodeError:
        return False


@lru_cache(maxsize=8192)
def simplified(char: str) -> str:
    from ingest.text.tokenize import to_simplified

    return to_simplified(char)


def script_spans(text: str, lang: str) -> Iterable[tuple[int, str, str]]:
    allowed = ALLOWED_SCRIPTS[lang]
    run_start, run_script = None, None
    for i, char in enumerate(text + "\x00"):
        script = script_of(char) if char != "\x00" else None
        foreign = script is not None and script not in allowed
        if foreign and run_start is None:
            run_start, run_script = i, script
        elif not foreign and run_start is not None:
            yield run_start, text[run_start:i], f"{run_script.lower()} letters in {lang} text"
            run_start = None
        if script == "CJK" and lang == "ja" and not japanese_writes(char):
            yield i, char, "a kanji Japanese does not write (not in JIS X 0213)"
        if script == "CJK" and lang == "zh" and simplified(char) != char:
            yield i, char, f"a traditional form in simplified text ({simplified(char)})"


def doubled_spans(text: str, counts: Counter) -> Iterable[tuple[int, str, str]]:
    """XX of kana/kanji that no single dictionary word holds and the document does not repeat."""
    for m in re.finditer(r"([\u3041-\u3096\u30a1-\u30fa\u3400-\u9fffー])\1", text):
        i = m.start()
        around = text[max(0, i - 2) : i + 4]
        single = text[max(0, i - 2) : i + 1] + text[i + 2 : i + 4]
        detail = f"{m.group(1)} twice; '{single}' appears {counts[single]}×, '{around}' {counts[around]}×"
        if m.group(1) in kana.SMALL_KANA + "ー":
            yield i, m.group(0), detail  # っっ, ーー: no word doubles a small kana or the long mark
            continue
        sentence_start = max(0, i - 12)
        window = text[sentence_start : i + 14]
        offset = i - sentence_start
        inside_word = any(
            begin <= offset and offset + 2 <= end and not oov for _, begin, end, oov, _ in morphemes(window)
        )
        if inside_word:
            continue
        if counts[single] == 0 and counts[around] >= 3:
            continue  # printed so, and never otherwise, three times or more: the book's wording
        yield i, m.group(0), detail


def long_vowel_spans(text: str) -> Iterable[tuple[int, str, str]]:
    for m in re.finditer("一", text):
        i = m.start()
        if KATAKANA_CHAR.match(text[i - 1 : i] or " ") or KATAKANA_CHAR.match(text[i + 1 : i + 2] or " "):
            yield i, "一", "the kanji 一 (one) next to katakana: the long mark ー?"
    for m in re.finditer("ー", text):
        i = m.start()
        before = text[i - 1 : i]
        if not KANA_CHAR.match(before or " "):
            yield i, "ー", f"the long mark ー after {before or 'the start'!r}: the kanji 一 or a dash?"


def katakana_words(text: str) -> Iterable[tuple[int, str]]:
    for m in KATAKANA_WORD_RE.finditer(text):
        yield m.start(), m.group(0)


# ------------------------------------------------------------------------- whole documents


def unit_fields(document: ParsedDocument) -> Iterable[tuple[Unit, str, str]]:
    for unit in document.units:
        for field in ("title", "text"):
            value = getattr(unit, field) or ""
            if value:
                yield unit, field, value


def ngram_counts(document: ParsedDocument, sizes: Iterable[int]) -> Counter:
    counts: Counter = Counter()
    for _, _, value in unit_fields(document):
        for size in sizes:
            for i in range(len(value) - size + 1):
                counts[value[i : i + size]] += 1
    return counts


def document_spellings(document: ParsedDocument) -> Counter:
    """How often each katakana word is printed in the document's units."""
    return Counter(word for _, _, value in unit_fields(document) for _, word in katakana_words(value))


def check_document(
    document: ParsedDocument,
    lang: str,
    raw_text: str,
    known: set[str] = frozenset(),
    corpus_spellings: Counter | None = None,
    witnesses: dict[str, list[str]] | None = None,
) -> list[Candidate]:
    """Every candidate span in one parsed document (``raw_text``: the source it was parsed from).

    ``corpus_spellings`` (katakana words of every Japanese document) decides which spelling of a
    word is the majority; by default the document's own. ``witnesses``: unit ref -> other copies of
    the same provision (a commentary's reprint of a Law, or the Law a reprint copies).
    """
    locate = LineLocator(document, raw_text)
    counts = ngram_counts(document, (4, 5, 2 * STRAY_SIDE, 2 * STRAY_SIDE + 1, 2 * STRAY_SIDE + 2))
    fuller = longer_forms(counts)
    witnesses = witnesses or {}
    found: list[Candidate] = []

    def add(
        unit: Unit, field: str, start: int, span: str, kind: str, detail: str, value: str, explained: str | None = None
    ) -> None:
        context = value[max(0, start - CONTEXT) : start + len(span) + CONTEXT].replace("\n", "⏎")
        candidate = Candidate(
            document.doc,
            unit.ref,
            field,
            start,
            span,
            kind,
            detail,
            locate(unit, value, start, span),
            context,
            explained,
        )
        if kind in ("stray", "missing") and explained is None:
            candidate = replace(
                candidate,
                explained=(
                    grammatical_alternative(candidate, value, fuller, morphemes, STRAY_SIDE)
                    or (
                        same_words(candidate, value, fuller, normalized_forms, STRAY_SIDE)
                        if "only here" in candidate.detail
                        else None
                    )
                    or second_witness(candidate, value, witnesses.get(unit.ref, ()), STRAY_SIDE)
                ),
            )
        elif kind == "doubled" and explained is None and not KATAKANA_CHAR.match(span):
            # どちらかから, ものの in a reprint the Laws print alike; not a katakana word's doubled
            # glyph (ディクレアララー): both conversions share that slip, so agreeing proves nothing
            candidate = replace(
                candidate, explained=second_witness(candidate, value, witnesses.get(unit.ref, ()), STRAY_SIDE)
            )
        found.append(candidate)

    spellings: Counter = Counter()
    occurrences: list[tuple[Unit, str, int, str, str]] = []
    for unit, field, value in unit_fields(document):
        for start, span, detail in script_spans(value, lang):
            add(unit, field, start, span, "script", detail, value)
        if lang != "ja":
            continue
        for start, span, detail in doubled_spans(value, counts):
            add(unit, field, start, span, "doubled", detail, value)
        for start, span, detail in long_vowel_spans(value):
            add(
                unit,
                field,
                start,
                span,
                "long-vowel",
                detail,
                value,
                kanji_word(value, start, morphemes) if span == "一" else None,
            )
        for start, span, detail in stray_spans(value, counts):
            add(unit, field, start, span, "stray", detail, value)
        for start, span, detail in missing_spans(value, counts, fuller):
            add(unit, field, start, span, "missing", detail, value)
        for start, span, detail in ungrammatical_spans(value):
            add(unit, field, start, span, "stray", detail, value, explained=None)
        for start, span, detail in small_kana_spans(value, full_morphemes):
            add(unit, field, start, span, "small-kana", detail, value)
        for start, word in katakana_words(value):
            spellings[word] += 1
            occurrences.append((unit, field, start, word, value))
    if lang == "ja":
        evidence = corpus_spellings if corpus_spellings is not None else spellings
        majority = majority_spellings(spellings, evidence)
        near = near_words(evidence, known)
        for unit, field, start, word, value in occurrences:
            best = majority.get(word)
            if best:
                add(
                    unit,
                    field,
                    start,
                    word,
                    "variant",
                    f"spelt {best} {evidence[best]}× in the corpus ({spellings[best]}× here), "
                    f"{word} {evidence[word]}× ({spellings[word]}× here)",
                    value,
                    spelling_convention(word, best, evidence[word]),
                )
            elif word in near and (
                not known_katakana(word) or witness_prints(near[word], word, witnesses.get(unit.ref, ()))
            ):
                add(
                    unit,
                    field,
                    start,
                    word,
                    "near-word",
                    f"printed {evidence[word]}× in the corpus; {near[word]} {evidence[near[word]]}×",
                    value,
                )
            elif word not in known and not all(known_katakana(part) or part in known for part in word.split("・")):
                add(
                    unit,
                    field,
                    start,
                    word,
                    "katakana",
                    "unknown to Sudachi's dictionary and the glossary",
                    value,
                    vouched_pieces(word, morphemes, evidence) or known_compound(word, known_katakana, evidence),
                )
    return found


def majority_spellings(spellings: Counter, evidence: Counter) -> dict[str, str]:
    """word -> the spelling of the same word (folded as search folds it) that ``evidence`` counts
    more often, for each word of ``spellings`` that has one."""
    groups: dict[str, list[str]] = defaultdict(list)
    for word in set(spellings) | {w for w in evidence if w not in spellings}:
        groups[fold_spelling(word)].append(word)
    minority: dict[str, str] = {}
    for words in groups.values():
        present = [w for w in words if w in spellings]
        if len(words) < 2 or not present:
            continue
        best = max(words, key=lambda w: (evidence[w], len(w)))
        for word in present:
            if word != best and evidence[word] < evidence[best]:
                minority[word] = best
    return minority


def stray_spans(text: str, counts: Counter) -> Iterable[tuple[int, str, str]]:
    """A character that, taken out, leaves a phrase the document prints at least twice, while the
    phrase with it occurs only here."""
    side = STRAY_SIDE
    for i in range(side, len(text) - side):
        char = text[i]
        if not HIRAGANA_OR_KANJI.match(char):
            continue  # a katakana word's slips are `doubled` and `variant` candidates
        left, right = text[i - side : i], text[i + 1 : i + 1 + side]
        if not (KANA_OR_KANJI.search(left) and KANA_OR_KANJI.search(right)) or "\n" in left + right:
            continue
        without, with_it = left + right, left + char + right
        if counts[without] >= 2 and counts[with_it] == 1:
            yield i, char, f"'{with_it}' only here; '{without}' {counts[without]}×"


@lru_cache(maxsize=65536)
def normalized_forms(text: str) -> tuple[str, ...]:
    """The dictionary's normalized form of each morpheme, mode C (締切る and 締め切る read alike)."""
    from sudachipy import SplitMode

    return tuple(m.normalized_form() for m in sudachi_tokenizer().tokenize(text, SplitMode.C))


@lru_cache(maxsize=65536)
def full_morphemes(text: str) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """(surface, begin, part of speech with conjugation) per morpheme, mode C."""
    from sudachipy import SplitMode

    return tuple(
        (m.surface(), m.begin(), tuple(m.part_of_speech())) for m in sudachi_tokenizer().tokenize(text, SplitMode.C)
    )


# Classical forms formal modern Japanese keeps (すべき, 多大なる, における, のみならず).
CLASSICAL_IN_USE = {"文語助動詞-ベシ", "文語助動詞-ナリ-断定", "文語助動詞-リ", "文語サ行変格", "文語四段-カ行"}


def ungrammatical_spans(text: str) -> Iterable[tuple[int, str, str]]:
    """Sequences modern Japanese does not write, which a stray or lost character leaves behind:
    a verb in its った / んだ form followed by something other than an auxiliary or particle
    (`間違っ|ただ説明` for 間違った説明), and a classical form no modern text uses (`ない|けれ|ば` for なければ)."""
    offset = 0
    for sentence in re.split(r"(?<=[。\n])", text):
        pieces = full_morphemes(sentence)
        for (surface, begin, pos), following in zip(pieces, pieces[1:] + (None,)):
            start = offset + begin
            if (
                pos[0] == "動詞"
                and pos[5].endswith(("促音便", "撥音便"))
                and following is not None
                and following[2][0] not in ("助動詞", "助詞")
            ):
                yield (
                    offset + following[1],
                    following[0],
                    f"'{surface}' (a verb's {pos[5]}) before '{following[0]}', not an auxiliary",
                )
            if pos[4].startswith("文語") and pos[4] not in CLASSICAL_IN_USE:
                yield start, surface, f"'{surface}': a classical form ({pos[4]}) modern Japanese does not write"
        offset += len(sentence)


def longer_forms(counts: Counter) -> dict[tuple[str, str], list[tuple[str, int]]]:
    """(first half, second half) of each (2·side+1)-gram the document prints twice or more."""
    side = STRAY_SIDE
    forms: dict[tuple[str, str], list[tuple[str, int]]] = defaultdict(list)
    for gram, count in counts.items():
        if len(gram) == 2 * side + 1 and count >= 2 and HIRAGANA_OR_KANJI.match(gram[side]):
            forms[(gram[:side], gram[side + 1 :])].append((gram[side], count))
    return forms


def missing_spans(text: str, counts: Counter, fuller: dict) -> Iterable[tuple[int, str, str]]:
    """A phrase printed only here that the document otherwise prints with one more character in
    its middle, at least twice: the span is the character after the gap."""
    side = STRAY_SIDE
    for i in range(side, len(text) - side + 1):
        left, right = text[i - side : i], text[i : i + side]
        if "\n" in left + right or not (KANA_OR_KANJI.search(left) and KANA_OR_KANJI.search(right)):
            continue
        if counts[left + right] != 1:
            continue
        for char, count in fuller.get((left, right), []):
            yield i, text[i], f"'{left + right}' only here; '{left + char + right}' {count}×"


class LineLocator:
    """The verbatim source line a span of a unit's field was printed on (where its first
    character is, when the conversion broke the span over two lines)."""

    def __init__(self, document: ParsedDocument, raw_text: str):
        self.lines = [squeeze(line) for line in raw_text.split("\n")]
        starts = sorted({u.line for u in document.units if u.line})
        self.next_start = {
            line: (starts[k + 1] if k + 1 < len(starts) else len(self.lines) + 1) for k, line in enumerate(starts)
        }

    def __call__(self, unit: Unit, value: str, start: int, span: str) -> int | None:
        if not unit.line:
            return None
        first = unit.line
        last = min(max(self.next_start.get(unit.line, unit.line + 1), unit.line + 1), len(self.lines) + 1)
        before = squeeze(value[max(0, start - 6) : start])
        after = squeeze(value[start + len(span) : start + len(span) + 6])
        probe = squeeze(span)
        for window in (before + probe + after, before[-3:] + probe + after[:3], before + probe, probe + after):
            found = self.first_line_with(window, first, last)
            if found:
                return found
        straddling = self.straddling(before, probe, after, first, last)
        if straddling:
            return straddling
        return (
            self.first_line_with(probe, first, last)
            or self.first_line_with(before + probe + after, 1, len(self.lines) + 1)
            or unit.line
        )  # a displaced note

    def first_line_with(self, window: str, first: int, last: int) -> int | None:
        if not window:
            return None
        return next((n for n in range(first, last) if window in self.lines[n - 1]), None)

    def straddling(self, before: str, probe: str, after: str, first: int, last: int) -> int | None:
        """`…後に認` / (page break) / `認められない…`: the span begins at the end of one line."""
        text = before + probe + after
        for n in range(first, last):
            line = self.lines[n - 1]
            for k in range(len(before) + 1, len(before) + len(probe)):
                if line.endswith(text[:k]) and any(
                    self.lines[m - 1].startswith(text[k : k + 3])
                    for m in range(n + 1, min(last + 1, len(self.lines) + 1))
                ):
                    return n
        return None


def squeeze(text: str) -> str:
    """A raw line as the parsers read it, for finding spans: no tags, escapes, marks or spaces."""
    text = strip_any_tags(text).replace("\\*", "*").replace("**", "")
    return re.sub(r"[\s\u3000]+", "", text)
