"""Why a result was found (issue 36 item 3): which words of the query it holds, and through which
expansion, so that a director sees at once whether the hit is about their situation.

`why(...)` is {"from", "sign", "words"} or None:
- a unit that holds every word of the query as typed: None (nothing to explain), and so for a
  citation (its group says "Cited" or "Cited by");
- a unit found for only some of the query's words (a sentence, by coverage): the words it holds,
  no `from`, no `sign` ("some words: 長考 · パス");
- a unit found through an expansion: the query (`from`), `→` or, for another spelling of the same
  word (a Chinese variant, a typo corrected), `≈`, and the words of the expansion the unit holds
  (ためらい → 長考, hesitate → 躊躇, 罚牌 ≈ 罚张); a Chinese or English sentence read in Japanese
  words shows as `from` the terms of the query whose Japanese words the unit holds, as the query
  writes them (lower case, simplified), " · " between them ("partner · hesitated → パートナー · 躊躇").
Each word is shown as the unit prints it (its first place in the unit's text, from the stored token
offsets), else as searched (a word of the title only). offline-search-presentation.js computes the same.
A result found for some words or through a translation marks in its snippet only the words its why names
(presentation.py): not every word of a clause it holds only in part (向き of "wrong way").
"""

from __future__ import annotations

from laws_site.search.plan import Branch
from laws_site.search.snippets import padded_spans

MAX_WORDS = 6
SAME_WORD_KINDS = ("zh", "typo")  # expansions that spell the same word otherwise: shown with ≈
SAME_WORD_SIGN, EXPANSION_SIGN = "≈", "→"


def names_held(hit) -> bool:
    """Whether a hit is explained by the clauses it holds (found for some words, or through a translation),
    not by its branch as a whole."""
    return hit.branch is not None and (hit.match in ("any", "most") or hit.branch.translated)


def why(query: str, hit, shown, held, lexicon) -> dict | None:
    """For a hit (laws_site/search/hits.py), its shown text (laws_site/search/shown.py), the clauses it holds
    (`held_clauses`, when `names_held`) and the lexicon (laws_site/search/words.py: its shown_forms name
    words as printed)."""
    branch, partial = hit.branch, hit.match in ("any", "most")
    if branch is None or (branch.via is None and not partial):
        return None
    # a translation names the words the unit prints (hesitate → 躊躇, not its reading 躊躇う, which no unit prints)
    printed = held_words(held, shown, *lexicon.shown_forms) if names_held(hit) else []
    words = printed or ([] if partial else [branch.via])
    if not words:
        return None
    if branch.via is None:
        return {"from": None, "sign": None, "words": words}
    sign = SAME_WORD_SIGN if branch.expansion in SAME_WORD_KINDS else EXPANSION_SIGN
    held = held if names_held(hit) else list(branch.clauses)
    return {"from": typed_terms(branch, held) if branch.sentence else query, "sign": sign, "words": words}


def typed_terms(branch: Branch, held) -> str | None:
    """The sentence's terms, as the query writes them, whose Japanese words are among the held clauses: any
    spelling of a clause (ペナルティカード is one clause, its key ペナルテカド, spelt ペナルテ カド too; "penalty cards"
    searched ペナルテ and カド, and the why of a unit holding it named the word but not the term)."""
    words = {word for clause in held for alt in clause for word in alt.split()}
    typed = [term for term, searched in branch.sources if searched & words]
    return " · ".join(dict.fromkeys(typed)) or None


def held_clauses(branch: Branch, shown, title_words, light: frozenset[str]) -> list[tuple[str, ...]]:
    """The branch's content clauses the unit holds: every token of one of a clause's spellings in its
    text or title."""
    in_text, in_title = set(shown.padded.split()), title_words or frozenset()
    return [
        clause
        for clause in branch.clauses
        if not all(word in light for word in clause[0].split())
        and any(all(w in in_text or w in in_title for w in alt.split()) for alt in clause)
    ]


def held_in_text(held: list[tuple[str, ...]], shown, grammatical=frozenset()) -> frozenset[str]:
    """The held clauses' words the unit's text prints (not a particle inside a phrase: `grammatical`): what
    its why names and its snippet marks."""
    in_text = set(shown.padded.split())
    return frozenset(
        w
        for clause in held
        for alt in printed_spellings(clause, in_text)
        for w in alt.split()
        if w in in_text and w not in grammatical
    )


def printed_spellings(clause: tuple[str, ...], in_text: set[str]) -> tuple[str, ...]:
    """The spellings of a clause its text is named by: those of one word it prints (ペナルティカード), else those
    it prints every word of (ペナルテ カド), else all. Not カード beside ペナルティカード: a query of ペナルティカード
    did not say カード, and the why named it as a word it held (51B1(b): "… ペナルティカード · … · カード")."""
    whole = tuple(alt for alt in clause if " " not in alt and alt in in_text)
    return whole or tuple(alt for alt in clause if all(w in in_text for w in alt.split())) or clause


def held_words(held: list[tuple[str, ...]], shown, grammatical=frozenset(), printed=None) -> list[str]:
    """The held clauses' words as the unit prints them, in the order its text prints them, then those of its
    title only, as the corpus prints them (`printed`)."""
    in_text = set(shown.padded.split())
    wanted = held_in_text(held, shown, grammatical)
    spans = padded_spans(shown.padded, shown.offsets, wanted) if shown.offsets else []
    words = [shown.text[begin:end].replace("\n", " ") for begin, end in spans]
    printed = printed or {}
    words += [
        "".join(printed.get(w, w) for w in clause[0].split())
        for clause in held
        if not any(w in in_text for alt in clause for w in alt.split())
    ]
    return list(dict.fromkeys(words))[:MAX_WORDS]
