"""Tokens for full-text search: the same function makes index tokens and query tokens.

Japanese: SudachiPy (sudachidict_core, pinned). Index = mode C tokens (compounds whole) plus the
mode A pieces of any compound, so a query for either granularity matches; queries use mode C.
Every token is the dictionary's normalised form (取り消した -> 取り消す, プレイヤー -> プレーヤー).
Punctuation and whitespace are not tokens.

Chinese: overlapping character bigrams plus single characters: needs no dictionary, and every
two-character term (藏牌, 罚张, 明手) matches exactly (FTS5 trigram would drop them).

Tokens are joined with spaces into a column that FTS5's unicode61 tokenizer splits again; a
query becomes a conjunction of quoted tokens, so user input never reaches FTS syntax.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from sudachipy import Dictionary, SplitMode

# Sudachi rejects input over 49,149 UTF-8 bytes: tokenize paragraph by paragraph, and cut
# anything longer into chunks well under the limit.
MAX_CHUNK_CHARS = 4000
SKIPPED_POS = {"補助記号", "空白"}
QUERY_DROPPED_POS = {"助詞", "助動詞"}
HAN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
TOKEN_CLEAN_RE = re.compile(r"[\s\"]+")

_local = threading.local()


@dataclass(frozen=True)
class Token:
    surface: str
    norm: str
    begin: int
    end: int
    pos: str


@lru_cache(maxsize=1)
def _dictionary() -> Dictionary:
    return Dictionary()


def _tokenizer():
    """One tokenizer per thread: Datasette calls SQL functions from worker threads."""
    tokenizer = getattr(_local, "tokenizer", None)
    if tokenizer is None:
        tokenizer = _local.tokenizer = _dictionary().tokenizer()
    return tokenizer


def _chunks(text: str):
    start = 0
    for paragraph in re.split(r"(\n)", text):
        while len(paragraph) > MAX_CHUNK_CHARS:
            yield start, paragraph[:MAX_CHUNK_CHARS]
            start += MAX_CHUNK_CHARS
            paragraph = paragraph[MAX_CHUNK_CHARS:]
        if paragraph and paragraph != "\n":
            yield start, paragraph
        start += len(paragraph)


def japanese_tokens(text: str, mode: SplitMode = SplitMode.C) -> list[Token]:
    tokens = []
    tokenizer = _tokenizer()
    for offset, chunk in _chunks(text):
        for morpheme in tokenizer.tokenize(chunk, mode):
            pos = morpheme.part_of_speech()[0]
            if pos in SKIPPED_POS:
                continue
            norm = fold(morpheme.normalized_form())
            if norm:
                tokens.append(Token(morpheme.surface(), norm, offset + morpheme.begin(), offset + morpheme.end(), pos))
    return tokens


def fold(token: str) -> str:
    """Case-fold and strip characters FTS would treat as syntax."""
    return TOKEN_CLEAN_RE.sub("", token).lower()


def chinese_tokens(text: str) -> list[Token]:
    tokens = []
    chars = [(i, c) for i, c in enumerate(text) if not c.isspace()]
    for index, (position, char) in enumerate(chars):
        if not char.isalnum():
            continue
        tokens.append(Token(char, fold(char), position, position + 1, "char"))
        if index + 1 < len(chars):
            next_position, next_char = chars[index + 1]
            if next_char.isalnum() and next_position == position + 1 and HAN_RE.match(char) and HAN_RE.match(next_char):
                tokens.append(Token(char + next_char, char + next_char, position, position + 2, "bigram"))
    return tokens


def index_tokens(text: str | None, lang: str) -> str:
    """The space-joined token column stored for FTS."""
    if not text:
        return ""
    if lang == "zh":
        return " ".join(t.norm for t in chinese_tokens(text))
    words = [t.norm for t in japanese_tokens(text, SplitMode.C)]
    pieces = [t.norm for t in japanese_tokens(text, SplitMode.A)]
    extra = [p for p in pieces if p not in set(words)]
    return " ".join(words + extra)


def query_terms(query: str, lang: str) -> list[str]:
    """Tokens a query must match, in order, duplicates removed."""
    query = (query or "").replace("\x00", " ").strip()
    if not query:
        return []
    if lang == "zh":
        tokens = chinese_tokens(query)
        bigrams = [t.norm for t in tokens if t.pos == "bigram"]
        # a Chinese phrase matches through its bigrams; single characters only stand alone
        terms = bigrams or [t.norm for t in tokens]
    else:
        tokens = japanese_tokens(query, SplitMode.C)
        terms = [t.norm for t in tokens if t.pos not in QUERY_DROPPED_POS] or [t.norm for t in tokens]
    return list(dict.fromkeys(terms))


def detect_lang(query: str) -> str:
    """Japanese if the query has kana; Chinese if it is Han characters only; else Japanese."""
    if re.search(r"[\u3040-\u30ff]", query):
        return "ja"
    if HAN_RE.search(query):
        return "zh"
    return "ja"


def fts_match(terms: list[str]) -> str | None:
    """A safe FTS5 MATCH expression: every term quoted (inner quotes doubled), all required."""
    quoted = ['"' + term.replace('"', '""') + '"' for term in terms if term]
    return " AND ".join(quoted) if quoted else None
