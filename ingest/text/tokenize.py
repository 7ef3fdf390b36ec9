"""Tokens for full-text search: the same function makes index tokens and query tokens.

Japanese: SudachiPy (sudachidict_core, pinned). Index = mode C tokens (compounds whole) plus the
mode A pieces of any compound, so a query for either granularity matches; queries use mode C.
Every token is the dictionary's normalised form (取り消した -> 取り消す, プレイヤー -> プレーヤー),
then katakana spelling variants are folded (`fold_katakana`): general rules plus the misspellings
listed in corpus/variants.yml (ディクレアララー -> ディクレアラー), which the build reads and stores in
table `variants` and the read side installs from there (`use_variants`): serving never opens
corpus/. Punctuation is not a token.

Chinese: simplified first (OpenCC t2s, character by character so offsets stay valid), then
overlapping character bigrams plus single characters: needs no dictionary, and every
two-character term (藏牌, 罚张, 明手) matches exactly (FTS5 trigram would drop them). Runs of
Latin letters or digits are one token each. jieba segmentation is available for comparison
(`ZH_SEGMENTER = "jieba"`, used by benchmarks/relevance.py); bigrams measured better.

Tokens are joined with spaces into a column that FTS5's unicode61 tokenizer splits again; a
query becomes a conjunction of quoted tokens, so user input never reaches FTS syntax. Beside the
column the build stores each token's (begin, end) in the original text (`index_tokens_and_offsets`),
so a highlight is placed by comparing tokens, not by tokenizing the result again.
"""

from __future__ import annotations

import re
import sys
import tempfile
import threading
import unicodedata
from array import array
from bisect import bisect_left
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from sudachipy import Dictionary, SplitMode

from ingest.sources.corpus import read_yaml
from ingest.text import kana, word_forms

# Sudachi rejects input over 49,149 UTF-8 bytes: tokenize paragraph by paragraph, and cut
# anything longer into chunks well under the limit.
MAX_CHUNK_CHARS = 4000
SKIPPED_POS = {"補助記号", "空白"}
QUERY_DROPPED_POS = {"助詞", "助動詞"}
HAN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
HAN_RUN_RE = re.compile(HAN_RE.pattern + "+")  # a run of Chinese characters (a word, a sentence's run)
KANA_RE = re.compile(r"[\u3040-\u30ff]")
KATAKANA_RE = re.compile(r"[\u30a1-\u30fa]")
TOKEN_CLEAN_RE = re.compile(r'[\s"]+')
# a footnote's marker (ペナルティカード*14, a footnote titled *14): its number is no word of the text, and a
# query's number (カードが14枚) must not find it
FOOTNOTE_MARKER_RE = re.compile(r"\*\d+")
# read by the build only (`read_variants`); serving reads the database's `variants` table
VARIANTS_FILE = Path(__file__).resolve().parents[2] / "corpus" / "variants.yml"

# "bigram" (default, measured best) or "jieba"; the index and the query must use the same one.
ZH_SEGMENTER = "bigram"

_local = threading.local()


class Token(NamedTuple):
    """One token with its span in the original text (a tuple: tens of thousands per build)."""

    surface: str
    norm: str
    begin: int
    end: int
    pos: str


# ---------------------------------------------------------------- katakana variant folding

LONG_VOWEL_MARKS = re.compile(r"[ー〜～\-－―‐・･]")


def general_katakana_fold(word: str) -> str:
    """Rules any katakana spelling obeys: small kana as large (シヤ = シャ), エ-row + イ as a
    long vowel, then no long-vowel marks or middle dots at all (ディクレアラ = ディクレアラー,
    キャリオーバー = キャリーオーバー)."""
    word = unicodedata.normalize("NFKC", word).translate(kana.SMALL_TO_LARGE_KATAKANA)
    word = kana.E_ROW_I_RE.sub(r"\1ー", word)
    return LONG_VOWEL_MARKS.sub("", word)


def read_variants(path: Path | str = VARIANTS_FILE) -> dict[str, str]:
    """The build reads corpus/variants.yml as {folded variant: folded canonical spelling}; the
    build stores it (table `variants`) and the read side installs it from there (`use_variants`)."""
    if not Path(path).exists():
        return {}
    data = read_yaml(path) or {}
    table = {}
    for canonical, spellings in (data.get("variants") or {}).items():
        target = general_katakana_fold(canonical)
        for spelling in spellings or []:
            folded = general_katakana_fold(spelling)
            if folded != target:
                table[folded] = target
    return table


# The variant spellings in force: none until the build (from the corpus) or the read side (from
# the database's `variants` table) installs them; query and index must fold with the same table.
_variants: dict[str, str] = {}
_variant_prefix: re.Pattern | None = None
_variants_version = 0  # bumped on every change, so callers may cache tokens per version


def use_variants(table: dict[str, str]) -> bool:
    """Fold with these variants from now on (cheap when the table is already in force); True if
    it changed. Cached token normalisations made with another table are dropped."""
    global _variants, _variant_prefix, _variants_version
    if table == _variants:
        return False
    _variant_prefix = variant_prefix(table)
    _variants = dict(table)
    _variants_version += 1
    _normalised.cache_clear()
    _INDEX_WORDS.clear()
    return True


def variant_prefix(table: dict[str, str]) -> re.Pattern | None:
    """Variants also count at the head of an unknown katakana compound (デュブリケートブリッジ is one
    token): the longest variant a word starts with, katakana after it."""
    alternatives = sorted(table, key=len, reverse=True)
    return re.compile("^(" + "|".join(map(re.escape, alternatives)) + ")(?=[\u30a1-\u30fa])") if alternatives else None


def variants_in_force() -> dict[str, str]:
    return dict(_variants)


def variants_version() -> int:
    """Changes whenever the variants in force do: a key for caches of tokens."""
    return _variants_version


def fold_katakana(word: str) -> str:
    """One spelling for every variant of a katakana word; other words unchanged."""
    if not KATAKANA_RE.search(word):
        return word
    folded = general_katakana_fold(word)
    table = _variants
    if folded in table:
        return table[folded]
    prefix = _variant_prefix
    if prefix is not None:
        folded = prefix.sub(lambda m: table[m.group(1)], folded)
    return folded


# ---------------------------------------------------------------- Japanese


@lru_cache(maxsize=1)
def _dictionary() -> Dictionary:
    return Dictionary()


def sudachi_dictionary() -> Dictionary:
    """The project's one loaded Sudachi dictionary (for its entries: `lookup`)."""
    return _dictionary()


def normalised(morpheme) -> str:
    """A morpheme's search form: its normalised form, case-folded, katakana variants folded."""
    return _normalised(morpheme.normalized_form())


def sudachi_tokenizer():
    """This thread's tokenizer on the project's one loaded Sudachi dictionary (the parsers and
    checks that read Japanese morphemes use it too: a second dictionary is a second 0.1 s and
    70 MB)."""
    return _tokenizer()


def _tokenizer():
    """One tokenizer per thread: Datasette calls SQL functions from worker threads."""
    tokenizer = getattr(_local, "tokenizer", None)
    if tokenizer is None:
        tokenizer = _local.tokenizer = _dictionary().tokenizer()
    return tokenizer


def warm() -> None:
    """Load the Sudachi dictionary and OpenCC now (before a fork, or a first query)."""
    _tokenizer()
    to_simplified("罰")


_LINE_BREAK_RE = re.compile(r"(\n)")


def text_chunks(text: str):
    """(offset, chunk) pieces of text short enough for SudachiPy, split at line breaks where it can."""
    start = 0
    for paragraph in _LINE_BREAK_RE.split(text):
        while len(paragraph) > MAX_CHUNK_CHARS:
            yield start, paragraph[:MAX_CHUNK_CHARS]
            start += MAX_CHUNK_CHARS
            paragraph = paragraph[MAX_CHUNK_CHARS:]
        if paragraph and paragraph != "\n":
            yield start, paragraph
        start += len(paragraph)


def japanese_tokens(text: str, mode: SplitMode = SplitMode.C) -> list[Token]:
    return [token for token, _ in _japanese_morphemes(text, mode)]


def _japanese_morphemes(text: str, mode: SplitMode):
    """(Token, morpheme) pairs, punctuation and spaces left out."""
    tokenizer = _tokenizer()
    for offset, chunk in text_chunks(text):
        for morpheme in tokenizer.tokenize(chunk, mode):
            token = _token(morpheme, offset)
            if token is not None:
                yield token, morpheme


def _token(morpheme, offset: int) -> Token | None:
    pos = pos_category(morpheme.part_of_speech_id())
    if pos in SKIPPED_POS:
        return None
    norm = _normalised(morpheme.normalized_form())
    if not norm:
        return None
    return Token(morpheme.surface(), norm, offset + morpheme.begin(), offset + morpheme.end(), pos)


_POS_CATEGORIES: dict[int, str] = {}


def pos_category(pos_id: int) -> str:
    """The first part-of-speech field, looked up once per id (the full tuple is costly per morpheme)."""
    category = _POS_CATEGORIES.get(pos_id)
    if category is None:
        category = _POS_CATEGORIES[pos_id] = _dictionary().pos_of(pos_id)[0]
    return category


@lru_cache(maxsize=65536)
def _normalised(form: str) -> str:
    return fold_katakana(fold(form))


def fold(token: str) -> str:
    """Case-fold and strip characters FTS would treat as syntax."""
    return TOKEN_CLEAN_RE.sub("", token).lower()


# ---------------------------------------------------------------- Chinese


@lru_cache(maxsize=1)
def _t2s():
    import opencc

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=8192)
def _simplified_char(char: str) -> str:
    converted = _t2s().convert(char)
    return converted if len(converted) == 1 else char


def to_simplified(text: str) -> str:
    """Traditional -> simplified, one character for one, so token offsets still index `text`."""
    if not HAN_RE.search(text):
        return text
    return "".join(_simplified_char(c) if HAN_RE.match(c) else c for c in text)


LATIN_OR_HAN_RUN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+|[^\W_\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+")


def _runs(text: str):
    """(start, run, is_han) for each maximal run of Han characters or of other letters/digits."""
    for match in LATIN_OR_HAN_RUN_RE.finditer(text):
        run = match.group()
        yield match.start(), run, bool(HAN_RE.match(run))


def chinese_tokens(text: str) -> list[Token]:
    if ZH_SEGMENTER == "jieba":
        return chinese_word_tokens(text)
    return chinese_bigram_tokens(text)


def chinese_bigram_tokens(text: str) -> list[Token]:
    tokens = []
    simplified = to_simplified(text)
    for start, run, is_han in _runs(simplified):
        if not is_han:
            # a Latin word or number mixed into Chinese text (IMP, 77) is one token, not letters
            tokens.append(Token(text[start : start + len(run)], fold(run), start, start + len(run), "word"))
            continue
        for i, char in enumerate(run):
            tokens.append(Token(text[start + i], char, start + i, start + i + 1, "char"))
            if i + 1 < len(run):
                tokens.append(
                    Token(text[start + i : start + i + 2], run[i : i + 2], start + i, start + i + 2, "bigram")
                )
    return tokens


def chinese_bigram_spans(text: str) -> list[tuple[str, int, int]]:
    """(norm, begin, end) of `chinese_bigram_tokens(text)`, in its order, without its Token objects
    (the index needs no surfaces)."""
    spans = []
    append = spans.append
    for start, run, is_han in _runs(to_simplified(text)):
        if not is_han:
            append((fold(run), start, start + len(run)))
            continue
        last = len(run) - 1
        for i, char in enumerate(run, start):
            append((char, i, i + 1))
            if i - start < last:
                append((run[i - start : i - start + 2], i, i + 2))
    return spans


@lru_cache(maxsize=1)
def _jieba():
    import jieba

    jieba.dt.tmp_dir = tempfile.gettempdir()  # its cache must go somewhere writable
    jieba.setLogLevel(60)
    jieba.initialize()
    return jieba


def chinese_word_tokens(text: str) -> list[Token]:
    """jieba words (precise mode: no overlapping words, so phrases and highlights stay sane)."""
    simplified = to_simplified(text)
    tokens = []
    for word, begin, end in _jieba().tokenize(simplified):
        if word.strip() and re.search(r"[^\W_]", word):
            tokens.append(Token(text[begin:end], fold(word), begin, end, "word"))
    return tokens


# ---------------------------------------------------------------- index and query


def index_tokens(text: str | None, lang: str) -> str:
    """The space-joined token column stored for FTS."""
    return " ".join(norm for norm, _, _ in index_token_spans(text, lang))


def index_tokens_and_offsets(text: str | None, lang: str) -> tuple[str, bytes]:
    """The FTS column and, for each of its tokens in order, where it lies in `text` (packed):
    snippets and term-in-context pages place highlights from these, without tokenizing again."""
    spans = index_token_spans(text, lang)
    # one flat list of the offsets (begins at even places, ends at odd), not a pair per token
    flat = [0] * (2 * len(spans))
    flat[0::2] = [begin for _, begin, _ in spans]
    flat[1::2] = [end for _, _, end in spans]
    return " ".join([norm for norm, _, _ in spans]), _packed(array("I", flat))


def index_token_spans(text: str | None, lang: str) -> list[tuple[str, int, int]]:
    """(norm, begin, end) of every index token, in column order."""
    if not text:
        return []
    if lang == "zh":
        if ZH_SEGMENTER != "bigram":
            return [(t.norm, t.begin, t.end) for t in chinese_tokens(text)]
        return chinese_bigram_spans(text)
    # one pass in mode C; a compound's mode A pieces come from splitting it (half the Sudachi work).
    # The loop is _token inlined (tens of thousands of morphemes per build: calls are its cost): no
    # Token objects, no surfaces (a surface is the text between its offsets), the lists Sudachi
    # writes into reused (`out=`), what a dictionary word indexes as looked up by its id.
    word_spans, pieces, tagged = [], [], []
    tokenizer, normalised, mode_a, mode_c = _tokenizer(), _normalised, SplitMode.A, SplitMode.C
    categories, category = _POS_CATEGORIES, pos_category
    words, index_word = _INDEX_WORDS, _index_word
    morphemes, parts = _morpheme_lists()
    katakana = KATAKANA_WORD_RE.search(text) is not None
    for offset, chunk in text_chunks(text):
        for morpheme in tokenizer.tokenize(chunk, mode_c, morphemes):
            norm, splits = words.get(morpheme.word_id()) or index_word(morpheme)
            if not norm:
                continue
            begin, end = morpheme.begin(), morpheme.end()
            word_spans.append((norm, offset + begin, offset + end))
            part_id = morpheme.part_of_speech_id()
            tagged.append((norm, offset + begin, offset + end, categories.get(part_id) or category(part_id)))
            # one character is one mode A unit: no split to ask for. A word that is not split indexes
            # no piece of its own (its norm is a word's: the filter below would drop it)
            if splits and end - begin > 1 and len(morpheme.split(mode_a, parts)) > 1:
                for part in parts:
                    part_id = part.part_of_speech_id()
                    if (categories.get(part_id) or category(part_id)) not in SKIPPED_POS:
                        part_norm = normalised(part.normalized_form())
                        if part_norm:
                            pieces.append((part_norm, offset + part.begin(), offset + part.end()))
    # a noun + する negated (フォローしない) reads as one word in the auxiliary's place, spanning the three (what
    # a snippet marks): no token more (a longer unit would rank lower for every other query)
    for place, negated in word_forms.negated_places(tagged, text):
        word_spans[place] = (negated, word_spans[place - 2][1], word_spans[place][2])
    if "*" in text:
        word_spans = _outside_footnote_markers(text, word_spans)
    known = {span[0] for span in word_spans}
    spans = word_spans + [piece for piece in pieces if piece[0] not in known]
    # extras go last so that phrase queries over the words still see them adjacent
    if katakana:
        for run in _katakana_span_runs(text, word_spans):
            joined = fold_katakana("".join(norm for norm, _, _ in run))
            if joined not in known:
                spans.append((joined, run[0][1], run[-1][2]))
    return spans


def _outside_footnote_markers(text: str, spans: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """`spans` less the words that lie inside a footnote's marker (the 14 of *14)."""
    markers = [match.span() for match in FOOTNOTE_MARKER_RE.finditer(text)]
    return [span for span in spans if not any(start <= span[1] and span[2] <= stop for start, stop in markers)]


def _katakana_span_runs(text: str, spans: list[tuple[str, int, int]]) -> list[list[tuple[str, int, int]]]:
    """`katakana_runs` over the words of `text` given as (norm, begin, end) spans in text order (a
    word's surface is text[begin:end]): the index asks this of half its texts. A katakana word lies
    inside a stretch of katakana characters, so only the words inside such stretches are looked at
    (found by bisecting the begins), not every word with a regular expression each."""
    runs = []
    begins = None
    for stretch in KATAKANA_WORD_RE.finditer(text):
        start, stop = stretch.span()
        if stop - start < 2:
            continue
        if begins is None:
            begins = [span[1] for span in spans]
        inside = []
        for span in spans[bisect_left(begins, start) :]:
            if span[2] > stop:
                break
            inside.append((span, True, span[1], span[2]))
        runs += adjacent_katakana(inside)
    return runs


def adjacent_katakana(words) -> list[list]:
    """Runs of two or more katakana words written together, from (word, is katakana, begin, end)."""
    runs, run, run_end = [], [], -1
    for word, katakana, begin, end in words:
        if katakana and run and run_end == begin:
            run.append(word)
            run_end = end
            continue
        if len(run) > 1:
            runs.append(run)
        run, run_end = ([word], end) if katakana else ([], -1)
    if len(run) > 1:
        runs.append(run)
    return runs


# word id -> (its index form, "" if it is not indexed; whether mode A splits it) for the dictionary's
# words met so far: a word's part of speech, normalised form and split are the dictionary's, the same
# wherever it occurs (a build meets ~5,000 words 60,000 times). Out-of-vocabulary morphemes share ids
# (one per part of speech), so they are asked each time. Emptied with `_normalised` (the folding changed).
_INDEX_WORDS: dict[int, tuple[str, bool]] = {}


def _index_word(morpheme) -> tuple[str, bool]:
    """What `index_token_spans` needs of a morpheme's word, remembered for a dictionary word."""
    if pos_category(morpheme.part_of_speech_id()) in SKIPPED_POS:
        word = ("", False)
    else:
        word = (_normalised(morpheme.normalized_form()), len(morpheme.split(SplitMode.A)) > 1)
    if not morpheme.is_oov():
        _INDEX_WORDS[morpheme.word_id()] = word
    return word


def _morpheme_lists():
    """This thread's two reusable MorphemeLists (a tokenize's, a split's): Sudachi writes into them."""
    lists = getattr(_local, "morpheme_lists", None)
    if lists is None:
        tokenizer = _tokenizer()  # an empty text's list, as SudachiPy 0.6.8+ says to make one
        lists = _local.morpheme_lists = (tokenizer.tokenize(""), tokenizer.tokenize(""))
    return lists


def pack_offsets(pairs: list[tuple[int, int]]) -> bytes:
    """(begin, end) pairs as little-endian unsigned 32-bit integers."""
    return _packed(array("I", [n for pair in pairs for n in pair]))


def _packed(numbers: array) -> bytes:
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers.tobytes()


def unpack_offsets(blob: bytes | None) -> list[tuple[int, int]]:
    packed = array("I")
    packed.frombytes(blob or b"")
    if sys.byteorder == "big":
        packed.byteswap()
    return list(zip(packed[0::2], packed[1::2]))


KATAKANA_WORD_RE = re.compile(r"[\u30a0-\u30ffー・]+")


def katakana_runs(tokens: list[Token]) -> list[list[Token]]:
    """Runs of two or more katakana tokens written together (キャリー|オーバー, アーティフィシャル|コール)."""
    is_katakana = KATAKANA_WORD_RE.fullmatch
    return adjacent_katakana(
        (token, is_katakana(token.surface) is not None, token.begin, token.end) for token in tokens
    )


def katakana_compounds(tokens: list[Token]) -> list[str]:
    """Each katakana run as one folded word: Sudachi splits the spellings it knows
    (キャリーオーバー) but keeps a misspelling whole (キャリオーバー), so both sides need the joined form."""
    return [fold_katakana("".join(t.norm for t in run)) for run in katakana_runs(tokens)]


def clean_query(query: str | None) -> str:
    """NUL and other control characters out, invisible format characters (zero-width space, BOM)
    dropped, whitespace collapsed."""
    query = "".join(
        " " if unicodedata.category(c) == "Cc" else "" if unicodedata.category(c) == "Cf" else c for c in (query or "")
    )
    return " ".join(query.split())


def query_terms(query: str, lang: str) -> list[str]:
    """Tokens a query must match, in order, duplicates removed."""
    query = clean_query(query)
    if not query:
        return []
    if lang == "zh":
        tokens = chinese_tokens(query)
        if ZH_SEGMENTER == "jieba":
            terms = [t.norm for t in tokens]
        else:
            # a Chinese phrase matches through its bigrams; single characters only stand alone
            terms = [t.norm for t in tokens if t.pos != "char" or _stands_alone(t, tokens)]
    else:
        tokens = japanese_tokens(query, SplitMode.C)
        terms = [t.norm for t in tokens if t.pos not in QUERY_DROPPED_POS] or [t.norm for t in tokens]
    return list(dict.fromkeys(terms))


def query_clauses(query: str, lang: str) -> list[tuple[str, ...]]:
    """The query as FTS clauses, each a tuple of alternatives that may be phrases ("a b").

    A Japanese katakana compound may be indexed whole or in pieces depending on its spelling,
    so it matches either its joined form or its pieces as a phrase."""
    terms = query_terms(query, lang)
    if lang == "zh":
        return [(term,) for term in terms]
    tokens = [t for t in japanese_tokens(clean_query(query), SplitMode.C) if t.norm in terms]
    clauses: list[tuple[str, ...]] = []
    covered: set[int] = set()
    for run in katakana_runs(tokens):
        joined = fold_katakana("".join(t.norm for t in run))
        clauses.append((joined, " ".join(t.norm for t in run)))
        covered.update(id(t) for t in run)
    clauses += [(t.norm,) for t in tokens if id(t) not in covered]
    return list(dict.fromkeys(clauses)) or [(term,) for term in terms]


def _stands_alone(char: Token, tokens: list[Token]) -> bool:
    """A single Han character is a query term only when no bigram covers it (牌 alone, 局)."""
    return not any(t.pos == "bigram" and t.begin <= char.begin < t.end for t in tokens)


def detect_lang(query: str) -> str:
    """Japanese if the query has kana; Chinese if it is Han characters only; else Japanese."""
    if KANA_RE.search(query):
        return "ja"
    if HAN_RE.search(query):
        return "zh"
    return "ja"


def fts_match(terms: list, operator: str = "AND") -> str | None:
    """A safe FTS5 MATCH expression: every term quoted (inner quotes doubled), joined by AND
    (all required) or OR (any, for a relaxed second try). A term may be a tuple of alternatives
    (from `query_clauses`); an alternative with spaces is a phrase."""
    clauses = []
    for term in terms:
        alternatives = [term] if isinstance(term, str) else list(term)
        quoted = ['"' + alt.replace('"', '""') + '"' for alt in alternatives if alt and alt.strip()]
        if quoted:
            clauses.append(quoted[0] if len(quoted) == 1 else "(" + " OR ".join(quoted) + ")")
    return f" {operator} ".join(clauses) if clauses else None
