"""Table `search_expansions(kind, key, term, lang, weight)`: what a loosely typed query may mean,
made at build from the corpus (issue 24). laws_site/expansions.py reads it; so can the offline app.

kind      key                                   term
reading   kana_key of a word's reading          the word as printed (順番外; ジユンバンガイ)
          (Sudachi's reading_form in context;
          single words and runs of 2-3 nouns)
sound     sound_key of an English term          the English term (adjusted score; jstdsk), from
                                                the glossary and the director vocabulary
synonym   a word the corpus never prints        a word it prints, same SudachiDict synonym group
          (corpus/synonyms.csv)                 (ジャッジ -> 裁定)
zh        a Chinese variant, simplified         the 1997 text's own term (梦家 -> 明手),
          (corpus/zh_variants.yml, reviewed)    regional and colloquial forms

`weight` is how often the term occurs (reading, synonym), else 1. Keys and terms are what the query side
compares: ingest/forgiving.py makes both.
"""
from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

from sudachipy import SplitMode

from . import forgiving, tokenize
from .corpus import read_yaml
from .records import ParseError

COLUMNS = {"kind": str, "key": str, "term": str, "lang": str, "weight": int}
SCHEMA = (COLUMNS, {"pk": ("kind", "key", "term")})
COMPOUND_POS = {"名詞", "接尾辞", "接頭辞"}
CONTENT_SKIP_POS = {"助詞", "助動詞", "補助記号", "空白", "記号"}
MAX_RUN = 3            # nouns written together, read as one word (順番 + 外 = じゅんばんがい)
TERMS_PER_KEY = 3      # the most frequent spellings kept for one reading
SYNONYMS_FILE = "synonyms.csv"
ZH_VARIANTS_FILE = "zh_variants.yml"


def expansion_rows(texts_ja: list[str], english_terms: list[str], corpus_words: Counter,
                   corpus_dir: Path) -> list[dict]:
    """Every row of the table. `corpus_words` are the Japanese index tokens (synonyms must lead
    to one of them)."""
    rows = reading_rows(texts_ja)
    rows += sound_rows(english_terms)
    rows += synonym_rows(Path(corpus_dir) / SYNONYMS_FILE, corpus_words)
    rows += zh_variant_rows(Path(corpus_dir) / ZH_VARIANTS_FILE)
    return rows


def reading_rows(texts: list[str]) -> list[dict]:
    counts: dict[str, Counter] = defaultdict(Counter)
    tokenizer = tokenize.sudachi_tokenizer()
    for text in dict.fromkeys(t for t in texts if t):
        for _, chunk in tokenize._chunks(text):
            run: list[tuple[str, str, str, int, int]] = []
            for morpheme in tokenizer.tokenize(chunk, SplitMode.C):
                pos = tokenize._pos_category(morpheme.part_of_speech_id())
                surface, reading = morpheme.surface(), morpheme.reading_form()
                if pos in CONTENT_SKIP_POS or not forgiving.is_kana(reading) or not tokenize.KANA_RE.search(reading):
                    run = []
                    continue
                _count(counts, reading, surface)
                if pos not in COMPOUND_POS or (run and run[-1][4] != morpheme.begin()):
                    run = []
                if pos in COMPOUND_POS:
                    run.append((surface, reading, pos, morpheme.begin(), morpheme.end()))
                    for size in range(2, min(len(run), MAX_RUN) + 1):
                        part = run[-size:]
                        _count(counts, "".join(p[1] for p in part), "".join(p[0] for p in part))
    rows = []
    for key, terms in counts.items():
        if len(key) < 2:
            continue
        for term, count in terms.most_common(TERMS_PER_KEY):
            rows.append({"kind": "reading", "key": key, "term": term, "lang": "ja", "weight": count})
    return rows


def _count(counts: dict[str, Counter], reading: str, surface: str) -> None:
    key = forgiving.kana_key(reading)
    if key:
        counts[key][surface] += 1


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
                rows[(key, term.lower())] = {"kind": "sound", "key": key, "term": term.lower(), "lang": "en",
                                             "weight": 1}
    return list(rows.values())


def synonym_rows(path: Path, corpus_words: Counter) -> list[dict]:
    """corpus/synonyms.csv (a subset of SudachiDict's synonyms.txt: group, flag, word per line):
    each word of a group the corpus does not use leads to the group's words it does use."""
    if not path.exists():
        return []
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    with path.open(encoding="utf-8", newline="") as handle:
        for number, fields in enumerate(csv.reader(handle), start=1):
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) != 3 or fields[1] not in ("0", "1"):
                raise ParseError(str(path), number, f"expected `group,expansion flag (0 or 1),word`, got {fields!r}")
            groups[fields[0]].append((fields[1], fields[2]))
    rows = {}
    for group, members in groups.items():
        keys = {word: " ".join(tokenize.query_terms(word, "ja")) for _, word in members}
        used = [word for word in keys if keys[word] and all(corpus_words[w] for w in keys[word].split())]
        for flag, word in members:
            if flag != "0" or word in used or not keys[word]:
                continue  # flag 1: SudachiDict says this word never triggers an expansion
            for target in used:
                weight = min(corpus_words[w] for w in keys[target].split())  # the commonest first
                rows[(keys[word], target)] = {"kind": "synonym", "key": keys[word], "term": target,
                                              "lang": "ja", "weight": weight}
    return list(rows.values())


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
