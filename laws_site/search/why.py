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

from ingest.text import tokenize
from laws_site.search.plan import Branch
from laws_site.search.snippets import padded_spans

MAX_WORDS = 6
SAME_WORD_KINDS = ("zh", "typo")  # expansions that spell the same word otherwise: shown with ≈
SAME_WORD_SIGN, EXPANSION_SIGN = "≈", "→"
INFLECTING_ENDS = "うくぐすつぬぶむるい"  # a verb's or adjective's last kana, which its typed forms change


def names_held(hit) -> bool:
    """Whether a hit is explained by the clauses it holds (found for some words, or through a translation),
    not by its branch as a whole."""
    return hit.branch is not None and (hit.match in ("any", "most") or hit.branch.translated)


def why(query: str, hit, shown, held, lexicon, title_words=None) -> dict | None:
    """For a hit (laws_site/search/hits.py), its shown text (laws_site/search/shown.py), the clauses it holds
    (`held_clauses`, when `names_held`) and the lexicon (laws_site/search/words.py: its shown_forms name
    words as printed). A word the unit holds only through the words the Laws print for a typed one (its
    neighbours: わざと -> 故意, ためらい -> 躊躇) is named with the typed word (`through`)."""
    branch, partial = hit.branch, hit.match in ("any", "most")
    if branch is None:
        return None
    through = reached_through(query, branch, shown, title_words, lexicon)
    if through and branch.via is None and not partial:  # every word held, but not every one as typed
        held = held_clauses(branch, shown, title_words, lexicon.light)
        words = held_words(held, shown, lexicon.unnamed, lexicon.shown_forms[1])
        through = {word: typed for word, typed in through.items() if word in words}
        return {"from": None, "sign": None, "words": words, "through": through} if through else None
    if branch.via is None and not partial:
        return None
    # a translation names the words the unit prints (hesitate → 躊躇, not its reading 躊躇う, which no unit prints)
    printed = held_words(held, shown, lexicon.unnamed, lexicon.shown_forms[1]) if names_held(hit) else []
    words = printed or ([] if partial else [branch.via])
    if not words:
        return None
    if branch.via is None:
        through = {word: typed for word, typed in through.items() if word in words}
        return {"from": None, "sign": None, "words": words, **({"through": through} if through else {})}
    sign = SAME_WORD_SIGN if branch.expansion in SAME_WORD_KINDS else EXPANSION_SIGN
    held = held if names_held(hit) else list(branch.clauses)
    return {"from": typed_terms(branch, held) if branch.sentence else query, "sign": sign, "words": words}


def reached_through(query: str, branch: Branch, shown, title_words, lexicon) -> dict[str, str]:
    """{a word the unit prints: the typed word it was reached through}, for each clause of the query as typed
    that the unit holds by none of the typed word's own spellings but by a word the Laws print for it
    (lexicon.neighbours: 態と -> 故意): the page says わざと → 故意, not a bare 故意 nobody typed."""
    if branch.via is not None or branch.translated or not shown.offsets:
        return {}
    in_text, in_title = set(shown.padded.split()), title_words or frozenset()
    unnamed = lexicon.unnamed
    content = [clause for clause in branch.clauses if not all(w in lexicon.light for w in clause[0].split())]
    found: dict[str, str] = {}
    for clause in content:
        expansions = set(lexicon.neighbours.get(clause[0], ()))
        own = [alt for alt in clause if alt not in expansions]
        if not expansions or any(all(w in in_text or w in in_title for w in alt.split()) for alt in own):
            continue
        wanted = frozenset(
            w
            for alt in clause
            if alt in expansions and all(w in in_text for w in alt.split())
            for w in alt.split()
            if w not in unnamed
        )
        typed = query if len(content) == 1 else typed_surface(lexicon, query, clause)
        for begin, end in padded_spans(shown.padded, shown.offsets, wanted):
            found.setdefault(shown.text[begin:end].replace("\n", " "), typed)
    return found


def typed_surface(lexicon, query: str, clause: tuple[str, ...]) -> str:
    """The query's word of a clause as the query writes it (態と: わざと), an inflected one with the grammar
    typed after it (躊躇う: ためらった, not ためらっ), a katakana compound as its words were typed (ビッドボックス,
    not its search key ビツドボツクス), else the clause's form."""
    words, norm = lexicon.cut(tokenize.clean_query(query)), clause[0]
    for i, word in enumerate(words):
        if word.norm != norm:
            continue
        typed, end = word.surface, word.end
        if norm[-1:] in INFLECTING_ENDS and not word.surface.endswith(norm[-1]):
            for after in words[i + 1 :]:
                if not after.dropped or after.begin != end:
                    break
                typed, end = typed + after.surface, after.end
        return typed
    # a katakana compound's clause: its key, then its words' forms apart (words.Lexicon.query_clauses)
    apart = clause[1] if len(clause) > 1 and clause[1] not in lexicon.neighbours.get(norm, ()) else None
    for i in range(len(words)):
        for j in range(i + 2, len(words) + 1):
            if " ".join(w.norm for w in words[i:j]) == apart:
                return "".join(w.surface for w in words[i:j])
    return norm


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
    """The held clauses' words the unit's text prints (not a particle or a light word inside a phrase: `grammatical`,
    words.Lexicon.unnamed): what its why names and its snippet marks."""
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
