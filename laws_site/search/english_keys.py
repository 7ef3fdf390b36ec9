"""The keys an English run of words, or an English term, is looked up by in the reading table (issue 36, item 2):
as typed, without a word's ending, without the function words inside, a negating or an inability opener read as
"not" / "unable" + the rest, a verb the table lacks as its noun; a term beginning with an -ing form by the verb's
stem. laws_site/search/translation.py reads a sentence's runs through them; the offline engine has the same rules.
"""

from __future__ import annotations

import re

from ingest.search.english_lexicon import (
    CONJUNCTIONS,
    FUNCTION_WORDS,
    INABILITY,
    INABILITY_OPENERS,
    MIN_STEM,
    NEGATING_OPENERS,
    NEGATING_WORDS,
    NEGATION,
    nouns_of,
    stems,
)
from laws_site.search.chinese import term_key

ING = "ing"  # a verb's -ing form begins a spoken term (arriving late): the term is keyed by the verb's stem too
ENGLISH_WORD_RE = re.compile(r"[a-z0-9]+")
# a run of up to six words names a term: five (lead out of turn), and a possessive's s (his partner's bid)
MAX_WORDS = 6


def span_keys(words: list[str]) -> list[str]:
    """The keys a run of words may be looked up by: as typed, the last word without an ending, then the
    first word without one too ("pointed out": point out; "changed seats": change seat); then the same
    without the function words inside ("changed his mind": change mind, as "change of mind" is kept), unless
    one is a conjunction ("passes but one was out" is no "pass out").
    Function words alone have no ending or noun made of them ("tried" is no trial, 予選; "not" no notion, 考え); a run
    of several keys as typed, which only a purpose said (so that: 目的, PURPOSE_PHRASES) or a glossary or vocabulary
    term names (got up: 席を離れる, 43A2(b)): translation.translations keeps no dictionary row made of them."""
    if all(word in FUNCTION_WORDS for word in words):
        return [term_key(" ".join(words))] if len(words) > 1 else []
    # a run a negating opener begins ("failed to follow suit", "without shuffling") reads first as "not" + the rest
    opener = next((o for o in NEGATING_OPENERS if tuple(words[: len(o)]) == o and len(words) > len(o)), None)
    negated = span_keys([NEGATION, *words[len(opener) :]]) if opener else []
    # ... and one an inability opener begins ("could not follow suit") as "unable" + the rest
    unable = next((o for o in INABILITY_OPENERS if tuple(words[: len(o)]) == o and len(words) > len(o)), None)
    negated += [k for k in (span_keys([INABILITY, *words[len(unable) :]]) if unable else []) if k not in negated]
    keys = negated + [k for k in inflected_keys(words) if k not in negated]
    content = content_words(words)
    across = any(word in CONJUNCTIONS for word in words)  # two clauses, not one term's words
    if 1 < len(content) < len(words) and content[0] == words[0] and content[-1] == words[-1] and not across:
        keys += [k for k in inflected_keys(content) if k not in keys]
    if len(words) == 1:  # last: a verb the table does not name reads as its noun (explained: explanation)
        for key in list(keys):
            keys += [noun for noun in nouns_of(key) if noun not in keys]
    return keys


def inflected_keys(words: list[str]) -> list[str]:
    keys = stems("".join(words))
    if len(words) > 1:
        rest = "".join(words[1:])
        keys += [k for first in stems(words[0])[1:] for k in stems(first + rest) if k not in keys]
    return keys


def content_key(term: str) -> str | None:
    """An English term of several words without its function words (change of mind: change mind), the
    key span_keys looks a phrase up by when the query puts other function words inside (his, the); None
    for a term with none to drop."""
    words = ENGLISH_WORD_RE.findall(term.lower())
    content = content_words(words)
    return term_key(" ".join(content)) if 1 < len(content) < len(words) else None


def content_words(words: list[str]) -> list[str]:
    """The words of a run but its function words, a negation before a content word kept (NEGATING_WORDS: "facts not
    agreed" is no "facts agreed"); one before a function word goes with the word it negates ("never got to call": a
    chance not given, no call not made)."""
    return [
        word
        for word, following in zip(words, [*words[1:], None])
        if word not in FUNCTION_WORDS
        or (word in NEGATING_WORDS and following is not None and following not in FUNCTION_WORDS)
    ]


def verb_keys(term: str) -> list[str]:
    """The keys of an English term of several words that begins with a verb's -ing form (arriving late, naming a
    card) by the verb's stem, so that the verb said in any form reaches it as inflected_keys reads a query ("arrived
    late", "he names a card": stems arriv, nam); [] for any other term."""
    words = ENGLISH_WORD_RE.findall(term.lower())
    if len(words) < 2 or not words[0].endswith(ING) or words[0] in FUNCTION_WORDS:
        return []
    stem = words[0][: -len(ING)]
    if len(stem) < MIN_STEM:
        return []
    keys = [term_key(" ".join([stem, *words[1:]]))]
    content = content_key(" ".join([stem, *words[1:]]))
    return keys + [content] if content else keys
