"""Table `search_expansions(kind, key, term, lang, weight)`: what a loosely typed query may mean,
made at build from the corpus (issue 24). laws_site/search/expansions.py reads it; so can the offline app.

kind      key                                   term
reading   kana_key of a word's reading          the word (順番外; ジユンバンガイ)
          (Sudachi's reading_form: every index
          word, and the titles in context with
          their runs of 2-3 nouns)
sound     sound_key of an English term          the English term (adjusted score; jstdsk), from
                                                the glossary and the director vocabulary
synonym   a word the corpus never prints        a word it prints, same SudachiDict synonym group
          (corpus/synonyms.csv)                 (ジャッジ -> 裁定)
zh        a Chinese variant, simplified         the 1997 text's own term (梦家 -> 明手),
          (corpus/zh_variants.yml, reviewed)    regional and colloquial forms

`weight` is how often the term occurs (reading, synonym), else 1. Keys and terms are what the query side
compares: ingest/text/forgiving.py makes both.
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from operator import itemgetter
from pathlib import Path

from sudachipy import SplitMode

from ingest.parsers.records import ParseError
from ingest.sources.corpus import read_text, read_yaml
from ingest.text import forgiving, tokenize

COLUMNS = {"kind": str, "key": str, "term": str, "lang": str, "weight": int}
SCHEMA = (COLUMNS, {"pk": ("kind", "key", "term")})
COMPOUND_POS = {"名詞", "接尾辞", "接頭辞"}
CONTENT_SKIP_POS = {"助詞", "助動詞", "補助記号", "空白", "記号"}
MAX_RUN = 3  # nouns written together, read as one word (順番 + 外 = じゅんばんがい)
TERMS_PER_KEY = 3  # the most frequent spellings kept for one reading
SYNONYMS_FILE = "synonyms.csv"
ZH_VARIANTS_FILE = "zh_variants.yml"


def expansion_rows(
    titles_ja: list[str], english_terms: list[str], corpus_words: Counter, corpus_dir: Path
) -> list[dict]:
    """Every row of the table. `corpus_words` counts the Japanese index tokens (read for their
    readings; synonyms must lead to one of them)."""
    return Expansions(titles_ja, english_terms, corpus_dir).rows(corpus_words)


class Expansions:
    """`expansion_rows` in two steps, so that a build makes what needs no index tokens while they are
    made: the titles read in context, the English terms' sound keys, the synonym groups and the Chinese
    variants here; the index words' readings and the synonyms the corpus uses in `rows`."""

    def __init__(self, titles_ja: list[str], english_terms: list[str], corpus_dir: Path):
        self.title_readings = title_readings(titles_ja)
        self.reading_keys: dict[str, str] = {}
        for reading, _ in self.title_readings:
            reading_key(reading, self.reading_keys)
        self.sound_rows = sound_rows(english_terms)
        self.synonym_groups = synonym_groups(Path(corpus_dir) / SYNONYMS_FILE)
        self.zh_variant_rows = zh_variant_rows(Path(corpus_dir) / ZH_VARIANTS_FILE)

    def rows(self, corpus_words: Counter) -> list[dict]:
        """Every row of the table, in `expansion_rows`' order."""
        seen = word_readings(corpus_words)
        seen.update(self.title_readings)  # after the words', as reading_rows counts them
        rows = reading_key_rows(seen, self.reading_keys)
        rows += self.sound_rows
        rows += group_synonym_rows(self.synonym_groups, corpus_words)
        rows += self.zh_variant_rows
        return rows


def reading_rows(titles: list[str], words: Counter) -> list[dict]:
    """Readings of every word of the index with kanji (each word read on its own: `words` counts how
    often it occurs) and of the titles read in context, with their runs of nouns (順番 + 外 = ジュンバンガイ).
    Reading every text in context too cost ~1 s more per build (a second Sudachi pass) for the
    same kana and romaji results (benchmarks/qrels.yml)."""
    seen = word_readings(words)
    seen.update(title_readings(titles))
    return reading_key_rows(seen, {})


def word_readings(words: Counter) -> Counter:
    """(reading, word) -> how often, for the index words with kanji, each read on its own."""
    seen: Counter = Counter()
    tokenizer = tokenize.sudachi_tokenizer()
    for word, count in words.items():
        # words with kanji only: a kana word's index form is folded (リボク), the titles give its
        # printed spelling, and a kana query is also searched in katakana (laws_site/search/expansions.py)
        if tokenize.HAN_RE.search(word):
            reading = "".join(m.reading_form() for m in tokenizer.tokenize(word, SplitMode.C))
            seen[(reading, word)] += count
    return seen


def title_readings(titles: list[str]) -> Counter:
    """(reading, surface) -> how often, for the titles' words read in context and their runs of nouns."""
    seen: Counter = Counter()
    tokenizer = tokenize.sudachi_tokenizer()
    pos_of = tokenize.pos_category
    for text in dict.fromkeys(t for t in titles if t):
        for _, chunk in tokenize.text_chunks(text):
            run: list[tuple[str, str]] = []
            end = -1
            for morpheme in tokenizer.tokenize(chunk, SplitMode.C):
                pos = pos_of(morpheme.part_of_speech_id())
                if pos in CONTENT_SKIP_POS:
                    run = []
                    continue
                surface, reading = morpheme.surface(), morpheme.reading_form()
                seen[(reading, surface)] += 1
                if pos not in COMPOUND_POS or morpheme.begin() != end:
                    run = []
                end = morpheme.end()
                if pos in COMPOUND_POS:
                    run.append((surface, reading))
                    for size in range(2, min(len(run), MAX_RUN) + 1):
                        part = run[-size:]
                        seen[("".join(p[1] for p in part), "".join(p[0] for p in part))] += 1
    return seen


def reading_key(reading: str, keys: dict[str, str]) -> str:
    """The kana key of a reading ("" if it is not kana), remembered in `keys` (kana_key is Python: ~10 us)."""
    key = keys.get(reading)
    if key is None:
        key = keys[reading] = (
            forgiving.kana_key(reading) if (tokenize.KANA_RE.search(reading) and forgiving.is_kana(reading)) else ""
        )
    return key


def reading_key_rows(seen: Counter, keys: dict[str, str]) -> list[dict]:
    """The reading rows of (reading, surface) counts: the commonest spellings of each key."""
    counts: dict[str, dict[str, int]] = {}
    for (reading, surface), count in seen.items():
        key = reading_key(reading, keys)
        if len(key) >= 2:
            terms = counts.setdefault(key, {})
            terms[surface] = terms.get(surface, 0) + count
    rows = []
    for key, terms in counts.items():
        for term, count in commonest(terms, TERMS_PER_KEY):
            rows.append({"kind": "reading", "key": key, "term": term, "lang": "ja", "weight": count})
    return rows


def commonest(counts: dict[str, int], n: int) -> list[tuple[str, int]]:
    """Counter.most_common(n) (the first counted first among equals) of a plain dict: most of the
    build's 1,900 keys have one spelling, and a Counter and a heap for each cost more than the rows."""
    if len(counts) == 1:
        return list(counts.items())
    return sorted(counts.items(), key=itemgetter(1), reverse=True)[:n]


def sound_rows(terms: list[str]) -> list[dict]:
    """Each English term's sound key; a plural also under its singular's key, since a loanword
    drops the English plural (simultaneous calls = サイマルテニアスコール)."""
    rows = {}
    for term in terms:
        spellings = [term]
        if re.search(r"[^s]s$", term):
            spellings.append(term[:-1])
        for spelling in spellings:
            key = forgiving.sound_key(spelling, japanese=False)
            if len(key) >= 2:
                rows[(key, term.lower())] = {
                    "kind": "sound",
                    "key": key,
                    "term": term.lower(),
                    "lang": "en",
                    "weight": 1,
                }
    return list(rows.values())


def synonym_rows(path: Path, corpus_words: Counter) -> list[dict]:
    """corpus/synonyms.csv (a subset of SudachiDict's synonyms.txt: group, flag, word, the word's
    search tokens per line): each word of a group the corpus does not use leads to the group's
    words it does use."""
    return group_synonym_rows(synonym_groups(path), corpus_words)


def synonym_groups(path: Path) -> dict[str, list[tuple[str, str, str]]]:
    """corpus/synonyms.csv read: group -> its (flag, word, search tokens), in the file's order."""
    groups: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    if not path.exists():
        return groups
    lines = read_text(path).splitlines(keepends=True)  # not UTF-8, or not a file: a ParseError naming the line
    reader = csv.reader(lines, strict=True)
    try:
        for fields in reader:
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) != 4 or fields[1] not in ("0", "1"):
                raise ParseError(
                    str(path),
                    reader.line_num,
                    f"expected `group,expansion flag (0 or 1),word,search tokens`, got {fields!r}",
                )
            groups[fields[0]].append((fields[1], fields[2], fields[3]))
    except csv.Error as error:
        raise ParseError(str(path), reader.line_num, f"not CSV: {error}") from error
    return groups


def group_synonym_rows(groups: dict[str, list[tuple[str, str, str]]], corpus_words: Counter) -> list[dict]:
    """The synonym rows of the groups read from corpus/synonyms.csv, for the words the corpus uses."""
    rows = {}
    pos = _pos_reader()
    for group, members in groups.items():
        keys = {word: key for _, word, key in members}
        used = [word for word in keys if keys[word] and all(corpus_words[w] for w in keys[word].split())]
        # one spelling per search key (まちがい and 間違い search the same tokens): the one printed as the key
        by_key: dict[str, str] = {}
        for target in used:
            if keys[target] not in by_key or target == keys[target]:
                by_key[keys[target]] = target
        used = [target for target in used if by_key[keys[target]] == target]
        # a synonym keeps its part of speech: 過誤 (a noun) leads to 間違い, not to 間違う, which
        # SudachiDict puts in the same group; words of another part only when none shares it. Where
        # the words used are all of one part, that leaves them all: no word need be read for it
        mixed = len(used) > 1 and len({pos(target) for target in used}) > 1
        weights = {target: min(corpus_words[w] for w in keys[target].split()) for target in used}  # the commonest first
        for flag, word, _ in members:
            if flag != "0" or word in used or not keys[word]:
                continue  # flag 1: SudachiDict says this word never triggers an expansion
            same = [target for target in used if pos(target) == pos(word)] if mixed else used
            for target in same or used:
                rows[(keys[word], target)] = {
                    "kind": "synonym",
                    "key": keys[word],
                    "term": target,
                    "lang": "ja",
                    "weight": weights[target],
                }
    return list(rows.values())


def _pos_reader():
    """word -> the part of speech of its last morpheme (the head of a Japanese compound), cached."""
    tokenizer, seen = tokenize.sudachi_tokenizer(), {}

    def pos(word: str) -> str:
        if word not in seen:
            morphemes = tokenizer.tokenize(word, SplitMode.C)
            seen[word] = tokenize.pos_category(morphemes[-1].part_of_speech_id()) if len(morphemes) else ""
        return seen[word]

    return pos


def zh_variant_rows(path: Path) -> list[dict]:
    """corpus/zh_variants.yml: `variants: {term as printed: [variant, ...]}`."""
    if not path.exists():
        return []
    data = read_yaml(path) or {}
    rows = {}
    for term, variants in (data.get("variants") or {}).items():
        if not isinstance(variants, list):
            raise ParseError(str(path), None, f"the variants of {term!r} must be a list")
        target = tokenize.to_simplified(str(term))
        for variant in variants:
            key = tokenize.to_simplified(str(variant))
            if key != target:
                rows[(key, target)] = {"kind": "zh", "key": key, "term": target, "lang": "zh", "weight": 1}
    return list(rows.values())
