"""What search reads at request time, made at build from corpus/ so that serving reads laws.db only.

- `variants(variant, canonical)`: the katakana spelling variants of corpus/variants.yml, folded
  (ingest/text/tokenize.py installs them with `use_variants`, at build from the file, when serving
  from this table);
- `vocabulary(...)`: the director vocabulary of corpus/vocabulary.yml (ingest/search/vocabulary.py);
- `search_offsets(id, title, text, bound, title_bound)`: for each unit, where each token of its `search_title` /
  `search_text` column lies in the title / text (packed (begin, end) pairs, ingest/text/tokenize.py
  `pack_offsets`): snippets and the term-in-context pages place their highlights from these; and, of a
  Japanese unit, the words it holds only bound inside another word (ingest/text/bound_words.py, space-joined):
  a sentence's coverage counts them less; and those its title holds only so (カード of 「ペナルティカードの処置」): the
  title does not name them;
- `term_tokens(kind, text, tokens)`: the tokens of the texts search compares a whole query with,
  the glossary's Japanese terms and the 索引 headings, so that serving never tokenizes them (doing
  it at the first query touched some 60 MB more of the Sudachi dictionary and took ~0.1 s).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Callable

from ingest.parsers.records import Unit
from ingest.search import chinese_lexicon
from ingest.search.english_lexicon import CORRECTIONS_FILE, LEXICON_FILE, check_corrections_applied, read_lexicon
from ingest.search.english_lexicon import SCHEMA as ENGLISH_SCHEMA
from ingest.search.english_lexicon import lexicon_rows as english_rows
from ingest.search.expansions import SCHEMA as EXPANSION_SCHEMA
from ingest.search.expansions import Expansions
from ingest.search.glossary import GLOSSARY_KEYS, ja_keys
from ingest.search.lexicon import SCHEMA as LEXICON_SCHEMA
from ingest.search.lexicon import function_words, lexicon_rows, negation_pairs, serving_kana_words
from ingest.search.neighbours import (
    NEIGHBOURS_FILE,
    continuative_pairs,
    inflected_surfaces,
    neighbour_rows,
    read_neighbours,
    sino_japanese_pairs,
    spoken_pairs,
    word_form_pairs,
)
from ingest.search.neighbours import SCHEMA as NEIGHBOUR_SCHEMA
from ingest.search.vocabulary import COLUMNS as VOCABULARY_COLUMNS
from ingest.search.vocabulary import vocabulary_rows
from ingest.text import tokenize
from ingest.text.bound_words import unit_bound_words

VARIANT_COLUMNS = {"variant": str, "canonical": str}
OFFSET_COLUMNS = {"id": str, "title": bytes, "text": bytes, "bound": str, "title_bound": str}
TERM_TOKEN_COLUMNS = {"kind": str, "text": str, "tokens": str}
INFLECTING_POS = {"動詞", "形容詞"}
INDEX_TERMS = "index-ja"  # kind of the term_tokens rows holding index_entry_words() -> query terms


# name -> (columns, sqlite-utils create options), for ingest/build/database.py's TABLES
SCHEMAS = {
    "variants": (VARIANT_COLUMNS, {"pk": "variant"}),
    "vocabulary": (VOCABULARY_COLUMNS, {"pk": "id"}),
    "search_offsets": (OFFSET_COLUMNS, {"pk": "id", "foreign_keys": [("id", "sections", "id")]}),
    "term_tokens": (TERM_TOKEN_COLUMNS, {"pk": ("kind", "text")}),
    "search_expansions": EXPANSION_SCHEMA,
    "search_lexicon": LEXICON_SCHEMA,
    "search_neighbours": NEIGHBOUR_SCHEMA,
    "search_english": ENGLISH_SCHEMA,
    "search_chinese": chinese_lexicon.SCHEMA,
}


def index_entry_words(ref: str) -> str:
    """The words of a 索引 entry, heading and sub-term: `index:クレーム/ディクレアラーの` -> `クレーム ディクレアラーの`."""
    return ref.removeprefix("index:").replace("/", " ")


def install_variants(corpus_dir: Path) -> dict[str, str]:
    """Fold with the corpus's variants for the rest of the build; returns them for the table."""
    variants = tokenize.read_variants(Path(corpus_dir) / "variants.yml")
    tokenize.use_variants(variants)
    return variants


def search_tables(
    units: list[Unit],
    languages: dict[str, str],
    tokens: dict,
    variants: dict[str, str],
    corpus_dir: Path,
    glossary: list[dict],
    vocabulary: list[dict] | None = None,
) -> dict[str, list[dict]]:
    """The rows of each table (SCHEMAS). `tokens` maps (text, lang) to (search tokens, packed offsets);
    `glossary` is the glossary table's rows."""
    now, with_tokens = search_tables_awaiting_tokens(units, languages, variants, corpus_dir, glossary, vocabulary)
    tables = {**now, **with_tokens(tokens), "search_offsets": offset_rows(units, languages, tokens)}
    return {name: tables[name] for name in SCHEMAS}


def search_tables_awaiting_tokens(
    units: list[Unit],
    languages: dict[str, str],
    variants: dict[str, str],
    corpus_dir: Path,
    glossary: list[dict],
    vocabulary: list[dict] | None = None,
) -> tuple[dict[str, list[dict]], Callable[[dict], dict[str, list[dict]]]]:
    """`search_tables` but search_offsets (`offset_rows`: the build writes them with the sections) in two
    steps: the tables that need no tokens and what the others need none for (the titles' readings, the
    English terms' sound keys: half the work) now, the others in the function returned, of the tokens."""
    if vocabulary is None:
        vocabulary = vocabulary_rows(Path(corpus_dir) / "vocabulary.yml")
    english_pairs = read_lexicon(Path(corpus_dir) / LEXICON_FILE)
    check_corrections_applied(english_pairs, Path(corpus_dir) / CORRECTIONS_FILE)
    now = {
        "variants": [{"variant": v, "canonical": c} for v, c in sorted(variants.items())],
        "vocabulary": vocabulary,
        "term_tokens": term_token_rows(units, languages, glossary),
        "search_english": english_rows(english_pairs),
        "search_chinese": chinese_lexicon.lexicon_rows(
            chinese_lexicon.read_lexicon(Path(corpus_dir) / chinese_lexicon.LEXICON_FILE)
        ),
    }
    expansions = Expansions(japanese_titles(units, languages), english_terms(glossary, vocabulary), Path(corpus_dir))
    vector_pairs = read_neighbours(Path(corpus_dir) / NEIGHBOURS_FILE)

    def with_tokens(tokens: dict) -> dict[str, list[dict]]:
        printed = index_word_counts(units, languages, tokens)
        expansion_rows = expansions.rows(printed)
        words = [row["text"] for row in now["term_tokens"]] + vocabulary_words(vocabulary)
        words += synonym_words(expansions.synonym_groups, expansion_rows)
        synonyms = [row for row in expansion_rows if row["kind"] == "synonym"]
        neighbours = neighbour_rows(
            vector_pairs,
            synonyms,
            synonym_tokens(expansions.synonym_groups),
            set(printed),
            word_form_pairs(expansions.synonym_groups)
            + negation_pairs(japanese_texts_and_tokens(units, languages, tokens))
            + continuative_pairs(set(printed))
            + sino_japanese_pairs(expansions.synonym_groups, printed),
            spoken_pairs(vocabulary_terms(vocabulary)),
        )
        # words the corpus never prints that a query may inflect: the vectors' keys, the vocabulary's verbs
        inflecting = sorted({word for word, _, _ in vector_pairs} | vocabulary_verbs(vocabulary))
        return {
            "search_expansions": expansion_rows,
            "search_lexicon": lexicon_rows(
                japanese_texts_and_tokens(units, languages, tokens),
                words,
                function_words() | inflected_surfaces(inflecting),
                serving_kana_words(),
            ),
            "search_neighbours": neighbours,
        }

    return now, with_tokens


def offset_rows(units: list[Unit], languages: dict[str, str], tokens: dict) -> list[dict]:
    offsets = []
    for unit in units:
        lang = languages[unit.doc]
        bound, title_bound = unit_bound_words(unit.title, unit.text) if lang == "ja" else ((), ())
        offsets.append(
            {
                "id": unit.id,
                "title": tokens[(unit.title, lang)][1],
                "text": tokens[(unit.text, lang)][1],
                "bound": " ".join(sorted(bound)) or None,
                "title_bound": " ".join(sorted(title_bound)) or None,
            }
        )
    return offsets


def japanese_texts_and_tokens(units: list[Unit], languages: dict[str, str], tokens: dict):
    """(text, its search tokens and offsets) of every Japanese title and text."""
    for unit in units:
        if languages[unit.doc] == "ja":
            for field in (unit.title, unit.text):
                if field:
                    yield field, tokens[(field, "ja")]


def vocabulary_words(vocabulary: list[dict]) -> list[str]:
    """The director vocabulary's words a Japanese query may hold: what a director may type, but the Chinese
    (the zh terms and the spoken forms listed under zh), which are no Japanese words: 该我 'my turn' made 我 a
    kanji of Japanese, and a Chinese query of 我 and Japanese kanji alone (我没注意就叫了) was read as Japanese."""
    words = []
    for row in vocabulary:
        words.append(row["en"])
        chinese = {form for form, lang in _listed_langs(row.get("spoken_langs")).items() if lang == "zh"}
        for column in ("ja", "ja_regs", "spoken"):
            words += [word for word in _listed(row.get(column)) if word not in chinese]
    return words


def vocabulary_terms(vocabulary: list[dict]) -> list[tuple[list[str], list[str]]]:
    """(the Laws' Japanese terms, the spoken forms) of each entry of the director vocabulary."""
    return [(_listed(row.get("ja")), _listed(row.get("spoken"))) for row in vocabulary]


def _listed(value) -> list[str]:
    return json.loads(value) if isinstance(value, str) else list(value or [])


def _listed_langs(value) -> dict[str, str]:
    return json.loads(value) if isinstance(value, str) else dict(value or {})


def vocabulary_verbs(vocabulary: list[dict]) -> set[str]:
    """The inflecting words (verbs, adjectives) of the vocabulary's Japanese terms, whose
    stems a query must cut out too: 引っ込めたい is the phrase カードを引っ込める's 引っ込める."""
    terms = [word for word in vocabulary_words(vocabulary) if tokenize.KANA_RE.search(word)]
    return {
        token.norm
        for term in terms
        for token in tokenize.japanese_tokens(term)
        if token.pos in INFLECTING_POS and len(token.norm) > 1
    }


def synonym_tokens(groups: dict) -> dict[str, str]:
    """Each word of corpus/synonyms.csv -> its search tokens (as the file records them)."""
    return {word: tokens for members in groups.values() for _, word, tokens in members}


def synonym_words(groups: dict, expansion_rows: list[dict]) -> list[str]:
    """The words that lead to a synonym the corpus prints (罰金 -> ペナルティ): a query may type them,
    and must then be cut into them."""
    keys = {row["key"] for row in expansion_rows if row["kind"] == "synonym"}
    return [word for members in groups.values() for flag, word, key in members if flag == "0" and key in keys]


def japanese_titles(units: list[Unit], languages: dict[str, str]) -> list[str]:
    """The Japanese titles, read in context for the search expansions."""
    return [unit.title for unit in units if languages[unit.doc] == "ja" and unit.title]


def english_terms(glossary: list[dict], vocabulary: list[dict]) -> list[str]:
    """The English terms, for loanwords by sound: the glossary's, the director vocabulary's and what
    directors say in English."""
    english = [row["en"] for row in glossary if row.get("en")]
    for row in vocabulary:
        english.append(row["en"])
        spoken = row.get("spoken") or []
        spoken = json.loads(spoken) if isinstance(spoken, str) else spoken
        english += [word for word in spoken if word.isascii()]
    return english


def index_word_counts(units: list[Unit], languages: dict[str, str], tokens: dict) -> Counter:
    """How often each Japanese index token occurs (read one by one; what a synonym must lead to)."""
    # how often: synonyms lead to the commonest. Counted in one pass over all the columns, in order
    columns = [
        tokens[(field, "ja")][0]
        for unit in units
        if languages[unit.doc] == "ja"
        for field in (unit.title, unit.text)
        if field
    ]
    return Counter(" ".join(columns).split())


def term_token_rows(units: list[Unit], languages: dict[str, str], glossary: list[dict]) -> list[dict]:
    rows = [{"kind": GLOSSARY_KEYS, "text": form, "tokens": key} for form, key in ja_keys(glossary).items()]
    headings = dict.fromkeys(
        index_entry_words(unit.ref) for unit in units if unit.kind == "index_entry" and languages[unit.doc] == "ja"
    )
    rows += [
        {"kind": INDEX_TERMS, "text": words, "tokens": " ".join(tokenize.query_terms(words, "ja"))}
        for words in headings
    ]
    return rows
