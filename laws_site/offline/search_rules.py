"""Every table, pattern, weight and message of search, exported from the Python that defines it, for the
offline search (static/offline-search.js holds none of its own: it reads these from the pack, key
`rules`). Each value is read here from its one home - ingest/text/kana.py, forgiving.py, spelling.py,
refs.py, tokenize.py, laws_site/search/* - so a change there reaches the phone with the next pack.

A pattern is sent as {"pattern": source, "flags": flags} for JavaScript's RegExp (always with the `u`
flag; `g` for a pattern Python runs over the whole text, with sub or findall), a substitution with its
replacement beside them ("to"): the browser compiles every such object where it stands and interprets
nothing else. Python and JavaScript read the patterns used here alike once a named group is spelt
(?<name>...) and a class of word characters is spelt with Unicode properties (JavaScript's \\w is ASCII
only). `js_pattern` does both and nothing else; tests/test_search_parity.py runs the results in Node.
"""

from __future__ import annotations

import re

from jaconv import conv_table

from ingest.search import english_lexicon, glossary, vocabulary
from ingest.text import forgiving, kana, refs, spelling, tokenize
from laws_site.http import request_bounds
from laws_site.pages import search as search_page
from laws_site.read import units
from laws_site.search import (
    chinese,
    chinese_runs,
    citations,
    expansions,
    plan,
    presentation,
    query,
    translation,
    weights,
    why,
    words,
)

# Python's spelling of a class -> JavaScript's (with the `u` flag): the word characters' classes
CLASS_SPELLINGS = {
    "[^\\W_\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff]": "(?:(?![\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff])[\\p{L}\\p{N}])",
    "[^\\W_]": "[\\p{L}\\p{N}]",
    "[\\W_]": "[^\\p{L}\\p{N}]",
    "(?<=\\w)": "(?<=[\\p{L}\\p{N}_])",
    "(?=\\w)": "(?=[\\p{L}\\p{N}_])",
}
# \w and \W read ASCII only in JavaScript; inline flags do not exist there (\b and \d are kept: every
# pattern here that has them reads ASCII text)
UNPORTABLE = re.compile(r"\\[wW]|\(\?[aiLmsux]")


def js_pattern(pattern: re.Pattern | str, every: bool = False) -> dict[str, str]:
    """A Python pattern for JavaScript's RegExp; `every`: Python runs it over the whole text."""
    compiled = re.compile(pattern) if isinstance(pattern, str) else pattern
    source = compiled.pattern.replace("(?P<", "(?<")
    for python, javascript in CLASS_SPELLINGS.items():
        source = source.replace(python, javascript)
    leftover = UNPORTABLE.search(source)
    if leftover:
        raise ValueError(f"{compiled.pattern!r}: {leftover.group()} reads otherwise in JavaScript; spell it out")
    flags = "u" + ("i" if compiled.flags & re.IGNORECASE else "") + ("g" if every else "")
    return {"pattern": source, "flags": flags}


def whole(pattern: re.Pattern) -> dict[str, str]:
    """The pattern matching a whole text, as Python's fullmatch reads it."""
    return js_pattern(f"^(?:{pattern.pattern})$")


def substitutions(rules) -> list[dict]:
    """[(pattern, replacement)] -> the patterns with their replacement ("to"), in JavaScript's $1."""
    return [
        {**js_pattern(pattern, every=True), "to": re.sub(r"\\(\d)", r"$\1", replacement)}
        for pattern, replacement in rules
    ]


def hiragana_and_katakana() -> dict:
    """jaconv's hiragana <-> katakana tables (forgiving.to_katakana's), as two strings read in step."""
    pairs = sorted((chr(hiragana), katakana) for hiragana, katakana in conv_table.H2K_TABLE.items())
    return {"hiragana": "".join(h for h, _ in pairs), "katakana": "".join(k for _, k in pairs)}


def rules() -> dict:
    return {
        "words": {
            "unknown_run": words.UNKNOWN_RUN_COST,
            "kana_words_share": words.KANA_WORDS_SHARE,
            "unknown_char": words.UNKNOWN_CHAR_COST,
            "kana_runs": [js_pattern(run) for run in words.KANA_RUN_RES],
            "hiragana": js_pattern(words.HIRAGANA_RE),
            "hiragana_word": whole(words.HIRAGANA_WORD_RE),
            "katakana_typed": words.KATAKANA_TYPED_COST,
            "reading": whole(words.READING_RE),
            "bid": js_pattern(words.BID_RE, every=True),
            "bid_word": words.BID_WORD,
            "strains": [list(names) for names in words.STRAINS],
            "insufficient_word": words.INSUFFICIENT_WORD,
            "beyond_seven": js_pattern(words.BEYOND_SEVEN_RE),
            "beyond_seven_word": words.BEYOND_SEVEN_WORD,
            "table_words": substitutions(words.TABLE_WORDS),
        },
        "scripts": {
            "kana": js_pattern(tokenize.KANA_RE),
            "katakana": js_pattern(tokenize.KATAKANA_RE),
            "han": js_pattern(tokenize.HAN_RE),
            "katakana_word": whole(tokenize.KATAKANA_WORD_RE),
            "latin_word": whole(presentation.LATIN_WORD),
            "word": js_pattern(plan.WORD_RE),
            "token_clean": js_pattern(tokenize.TOKEN_CLEAN_RE, every=True),
            "latin_or_han_run": js_pattern(tokenize.LATIN_OR_HAN_RUN_RE, every=True),
        },
        "kana": {
            "small": kana.SMALL_KATAKANA,
            "large": kana.LARGE_KATAKANA,
            "e_row_i": js_pattern(kana.E_ROW_I_RE, every=True),
            "long_vowel_marks": js_pattern(tokenize.LONG_VOWEL_MARKS, every=True),
            "vowel_of": {k: v for k, v in kana.VOWEL_OF.items() if "\u30a0" <= k <= "\u30ff"},
            **hiragana_and_katakana(),
        },
        "forgiving": {
            "kana_only": js_pattern(forgiving.KANA_ONLY_RE),
            "katakana_only": js_pattern(forgiving.KATAKANA_ONLY_RE),
            "romaji": js_pattern(forgiving.ROMAJI_RE),
            "ascii_words": js_pattern(forgiving.ASCII_WORDS_RE),
            "english_words": js_pattern(forgiving.ENGLISH_WORDS_RE, every=True),
            "vowel_kana": forgiving.VOWEL_KANA,
            "long_after": forgiving.LONG_AFTER,
            "key_dropped": forgiving.KEY_DROPPED,
            "same_sound": forgiving.SAME_SOUND,
            "english": substitutions(forgiving.ENGLISH_RULES),
            "romaji_rules": substitutions(forgiving.ROMAJI_RULES),
            "shared": substitutions(forgiving.SHARED_RULES),
            "added_vowels": substitutions(forgiving.ADDED_VOWEL_RULES),
            "pattern": substitutions(forgiving.PATTERN_RULES),
            "vowel_run": forgiving.VOWEL_RUN,
        },
        "expansions": {
            "few": expansions.FEW,
            "max_key_chars": expansions.MAX_KEY_CHARS,
            "min_sound_key": expansions.MIN_SOUND_KEY,
            "min_sound_likeness": expansions.MIN_SOUND_LIKENESS,
            "max_alternatives": expansions.MAX_ALTERNATIVES,
            "max_each": expansions.MAX_EACH,
            "particles": expansions.PARTICLES,
            "short_chars": expansions.SHORT_CHARS,
            "short_edits": expansions.SHORT_EDITS,
            "edits": expansions.EDITS,
        },
        "spelling": {
            "ja_law_words": substitutions((p, r) for p, r in spelling.JA_LAW_WORDS),
            "loose_law_ref": js_pattern(spelling.LOOSE_LAW_REF),
            "reg_numbers": js_pattern(spelling.REG_NUMBERS),
            "appendix": js_pattern(spelling.APPENDIX),
            "note_label": js_pattern(spelling.NOTE_LABEL),
            "law_word": js_pattern(spelling.LAW_WORD),
            "separated_numbers": js_pattern(spelling.SEPARATED_NUMBERS),
            "doc_id": js_pattern(spelling.DOC_ID),
            "citation_separators": js_pattern(spelling.CITATION_SEPARATORS),
            "citation_ends": js_pattern(spelling.CITATION_ENDS, every=True),
            "law_separators": js_pattern(spelling.LAW_SEPARATORS, every=True),
            "spaces": js_pattern(spelling.SPACES, every=True),
            "max_citation_chars": spelling.MAX_CITATION_CHARS,
            "name_joiners": spelling.NAME_JOINERS,
            "citation_starts": spelling.CITATION_STARTS,
        },
        "refs": {
            "wbf_ref": whole(refs.WBF_REF),
            "law_number": js_pattern("^(?:" + refs.LAW_NUMBER.pattern + ")"),
            "law_number_digits": refs.MAX_LAW_DIGITS,
            "level_formats": ["{}", *refs.LEVEL_FORMATS],
        },
        "keys": {
            "english_key": substitutions(glossary.ENGLISH_KEY_STEPS),
            "latin_letter": js_pattern(glossary.LATIN_LETTER_RE),
            "inner_hyphen": js_pattern(vocabulary.INNER_HYPHEN_RE, every=True),
            "footnote_mark": js_pattern(plan.FOOTNOTE_MARK_RE),
            "non_word": js_pattern(plan.NON_WORD_RE, every=True),
        },
        "search": {
            "fts_operators": sorted(query.FTS_OPERATORS),
            "max_limit": query.MAX_LIMIT,
            "max_offset": query.MAX_OFFSET,
            "shown_chars": query.SHOWN_CHARS,
            "count": whole(query.COUNT_RE),
            "page_limit": search_page.PAGE_LIMIT,
            "page_max_limit": search_page.MAX_LIMIT,
            "index_shown": presentation.INDEX_SHOWN,
            "quote_pairs": list(presentation.QUOTE_PAIRS),
            "nearest_shown": citations.NEAREST_SHOWN,
            "nearest_refs": units.NEAREST_REFS,
            "messages": query.MESSAGES,
            # the parameters the search page reads once: two different values are refused, as the server does
            "read_once": sorted(request_bounds.read_once("/-/search")),
            "shown_value_chars": request_bounds.SHOWN_VALUE_CHARS,
            "current_first_interfaces": list(weights.CURRENT_FIRST_INTERFACES),
        },
        "translation": {
            "max_words": translation.MAX_WORDS,
            # the Chinese cut (laws_site/search/chinese.py): its limits; the words' costs are the pack's `chinese`
            "max_chars": chinese.MAX_WORD_CHARS,
            "unknown_cost": chinese.UNKNOWN_COST,
            "endings": list(english_lexicon.ENDINGS),
            "after_e_endings": list(english_lexicon.AFTER_E_ENDINGS),
            "min_stem": english_lexicon.MIN_STEM,
            "function_words": sorted(english_lexicon.FUNCTION_WORDS),
            "negation": english_lexicon.NEGATION,
            "negating_openers": [list(opener) for opener in english_lexicon.NEGATING_OPENERS],
            "inability": english_lexicon.INABILITY,
            "inability_openers": [list(opener) for opener in english_lexicon.INABILITY_OPENERS],
            "conjunctions": sorted(english_lexicon.CONJUNCTIONS),
            "support_verbs": sorted(english_lexicon.SUPPORT_VERBS),
            "aspect_verbs": sorted(english_lexicon.ASPECT_VERBS),
            "degree_words": sorted(english_lexicon.DEGREE_WORDS),
            "meaning_words": sorted(english_lexicon.MEANING_WORDS),
            "asking_words": sorted(english_lexicon.ASKING_WORDS),
            "question_word": english_lexicon.QUESTION_WORD,
            "meaning_asked": translation.term_key(" ".join(english_lexicon.MEANING_ASKED)),
            "manner_ending": english_lexicon.MANNER_ENDING,
            "phrasal_particles": sorted(english_lexicon.PHRASAL_PARTICLES),
            "stranded_prepositions": sorted(english_lexicon.STRANDED_PREPOSITIONS),
            "adverb_particles": sorted(english_lexicon.ADVERB_PARTICLES),
            "particle_after_object_before_of": english_lexicon.PARTICLE_AFTER_OBJECT_BEFORE_OF,
            "particle_into_an_object": english_lexicon.PARTICLE_INTO_AN_OBJECT,
            "object_pronouns": sorted(english_lexicon.OBJECT_PRONOUNS),
            "verb_subjects": sorted(english_lexicon.VERB_SUBJECTS),
            "saying_verbs": sorted(english_lexicon.SAYING_VERBS),
            "clause_subjects": sorted(english_lexicon.CLAUSE_SUBJECTS),
            "clause_verbs": sorted(english_lexicon.CLAUSE_VERBS),
            "verb_adverbs": sorted(english_lexicon.VERB_ADVERBS),
            "senses_by_place": {
                word: [translation.term_key(key) if key else None for key in senses]
                for word, senses in english_lexicon.SENSES_BY_PLACE.items()
            },
            "senses_by_object": {
                form: list(objects) for form, objects in sorted(english_lexicon.SENSES_BY_OBJECT.items())
            },
            "number_words": sorted(english_lexicon.NUMBERS),
            "negating_words": sorted(english_lexicon.NEGATING_WORDS),
            "contrasts": sorted(english_lexicon.CONTRASTS),
            "contrast_links": sorted(english_lexicon.CONTRAST_LINKS),
            "possessives": sorted(english_lexicon.POSSESSIVES),
            "hand_as_a_time": english_lexicon.HAND_AS_A_TIME,
            "hand_time_reading": translation.term_key(english_lexicon.HAND_TIME_READING),
            "time_prepositions": sorted(english_lexicon.TIME_PREPOSITIONS),
            "parts_of_a_time": sorted(english_lexicon.PARTS_OF_A_TIME),
            "hand_determiners": sorted(english_lexicon.HAND_DETERMINERS),
            "place_determiners": sorted(english_lexicon.PLACE_DETERMINERS),
            "last": english_lexicon.LAST,
            "having": sorted(english_lexicon.HAVING),
            "question_openers": sorted(english_lexicon.QUESTION_OPENERS),
            "no": english_lexicon.NO,
            "periods": sorted(english_lexicon.PERIODS),
            "singular_suits": [forms[0] for forms in english_lexicon.SUITS],
            "object_words": sorted(english_lexicon.OBJECT_WORDS),
            "noun_markers": sorted(english_lexicon.NOUN_MARKERS),
            "verb_endings": list(english_lexicon.VERB_ENDINGS),
            "noun_endings": [list(pair) for pair in english_lexicon.NOUN_ENDINGS],
            "articles": sorted(english_lexicon.ARTICLES),
            "honour_letters": "".join(sorted(translation.HONOUR_LETTERS)),
            "honour_term": translation.HONOUR_TERM,
            "aspect_particles": sorted(chinese_runs.ASPECT_PARTICLES),
            "manner_mark": chinese_runs.MANNER_MARK,
            "degree_adverbs": sorted(chinese_runs.DEGREE_ADVERBS),
            "min_term_chars": chinese.MIN_TERM_CHARS,
            "english_word": js_pattern(translation.ENGLISH_WORD_RE, every=True),
            "han_run": js_pattern(tokenize.HAN_RUN_RE, every=True),
        },
        "permalink_safe": units.PERMALINK_SAFE,
        "why": {
            "same_word_kinds": list(why.SAME_WORD_KINDS),
            "max_words": why.MAX_WORDS,
            "same_word_sign": why.SAME_WORD_SIGN,
            "expansion_sign": why.EXPANSION_SIGN,
            "inflecting_ends": why.INFLECTING_ENDS,
        },
    }
