"""English words read by their place in a sentence (issue 36, item 2): the word before or after that picks a
word's sense ("the right lead", "after the hand"), a verb known by its subject, an object said before its verb or set
apart from another ("the card declarer asked for", "a different card from the one declarer asked for"), a verb whose
sense takes certain objects, and phrasal verbs whose particle stands apart. laws_site/search/translation.py reads a
sentence through them; the offline engine (static/offline-search-reading.js) has the same rules.
"""

from __future__ import annotations

import itertools
import re

from ingest.search.english_lexicon import (
    ADVERB_PARTICLES,
    ASKING_WORDS,
    CLAUSE_SUBJECTS,
    CLAUSE_VERBS,
    CONJUNCTIONS,
    CONTRAST_LINKS,
    CONTRASTS,
    DEGREE_WORDS,
    FUNCTION_WORDS,
    HAND_AS_A_TIME,
    HAND_DETERMINERS,
    HAND_TIME_READING,
    MANNER_ENDING,
    MEANING_ASKED,
    MEANING_WORDS,
    MIN_STEM,
    NEGATION,
    NOUN_MARKERS,
    NUMBERS,
    OBJECT_PRONOUNS,
    OBJECT_WORDS,
    PARTICLE_AFTER_OBJECT_BEFORE_OF,
    PARTICLE_INTO_AN_OBJECT,
    PARTS_OF_A_TIME,
    PHRASAL_PARTICLES,
    POSSESSIVES,
    QUESTION_WORD,
    SAYING_VERBS,
    SENSES_BY_OBJECT,
    SENSES_BY_PLACE,
    STRANDED_PREPOSITIONS,
    TIME_PREPOSITIONS,
    VERB_ADVERBS,
    VERB_ENDINGS,
    VERB_SUBJECTS,
    stems,
)
from laws_site.search.chinese import term_key
from laws_site.search.english_keys import MAX_WORDS, span_keys


def sense_by_place(table: dict[str, list[str]], words: list[re.Match], i: int) -> str | None:
    """The key the i-th word reads by its place (SENSES_BY_PLACE: "the right lead" reads correct, "the cards he
    had left were winners" remaining, "on his left" left hand opponent), or None to read it as any word."""
    senses = SENSES_BY_PLACE.get(words[i].group())
    if not senses:
        return None
    following = words[i + 1].group() if i + 1 < len(words) else None
    qualifies = following is not None and following not in FUNCTION_WORDS
    takes_nothing = following is None or (following in FUNCTION_WORDS and following not in OBJECT_WORDS)
    seat = takes_nothing and i > 0 and words[i - 1].group() in POSSESSIVES
    key = senses[2] if seat else senses[0] if qualifies else senses[1] if takes_nothing else None
    return term_key(key) if key and term_key(key) in table else None


def hand_as_a_time(table: dict[str, list[str]], words: list[re.Match], i: int) -> str | None:
    """The key of the play where the i-th word is "hand" said as a time (HAND_AS_A_TIME: "after the hand", "at the end
    of the hand": the deal being played, プレイ, not a player's cards, ハンド), or None to read it as any word."""
    if words[i].group() != HAND_AS_A_TIME or i < 2 or words[i - 1].group() not in HAND_DETERMINERS:
        return None
    before = words[i - 2].group()
    of_a_part = before == "of" and i >= 3 and words[i - 3].group() in PARTS_OF_A_TIME
    key = term_key(HAND_TIME_READING)
    return key if (before in TIME_PREPOSITIONS or of_a_part) and key in table else None


def fronted_object(table: dict[str, list[str]], words: list[re.Match], i: int) -> str | None:
    """The key of the i-th word, its preposition and an object said before them where the preposition ends the
    clause (STRANDED_PREPOSITIONS: "the card declarer asked for" reads ask for a card, declarer naming dummy's
    card, not ask for, 求める): the nearest earlier word with which the three name a term; None otherwise."""
    if i + 1 >= len(words) or words[i + 1].group() not in STRANDED_PREPOSITIONS:
        return None
    if i + 2 < len(words) and words[i + 2].group() not in CONJUNCTIONS:
        return None  # the preposition has its object after it: "asked for the king"
    verb, preposition = words[i].group(), words[i + 1].group()
    for noun in reversed(words[:i]):
        said = [verb, preposition, "a", noun.group()]  # the object as a term says it: ask for a card
        key = next((k for k in span_keys(said) if k in table), None) if noun.group() not in FUNCTION_WORDS else None
        if key:
            return key
    return None


def contrasted_object(table: dict[str, list[str]], words: list[re.Match], i: int) -> tuple[str | None, int]:
    """(the key of "<thing> not <verb> [preposition]", the index of the word after the verb's clause) for the i-th word, a
    verb ending a clause a thing is set apart from (CONTRASTS, CONTRAST_LINKS: "a different card from the one declarer
    asked for" is a card not asked for, 45D 指定されていないカード, no 46A designation; "a card other than the one he
    named"); (None, 0) where the words say no such thing or the table names no such term."""
    end = i + 1 + (i + 1 < len(words) and words[i + 1].group() in STRANDED_PREPOSITIONS)
    if end < len(words) and words[end].group() not in CONJUNCTIONS:
        return None, 0  # the clause goes on: "asked for the king"
    link = next((k for k in range(i - 1, max(i - MAX_WORDS, 1) - 1, -1) if words[k].group() in CONTRAST_LINKS), None)
    if link is None or link < 2:
        return None, 0
    before, last = words[link - 2].group(), words[link - 1].group()
    thing = last if before in CONTRASTS else before if last in CONTRASTS else None
    if thing is None or thing in FUNCTION_WORDS:
        return None, 0
    said = [thing, NEGATION, *(word.group() for word in words[i:end])]
    return next((key for key in span_keys(said) if key in table), None), end


def manner_of_a_verb(table: dict[str, list[str]], words: list[re.Match], i: int) -> tuple[str | None, int]:
    """(the key of the adjective and the i-th word, the index of the word after the adverb) where a manner adverb follows
    the i-th word, degree words between (DEGREE_WORDS: "playing very slowly" reads slow play, 90B2 不当に遅いプレイ, no
    プレイ and 遅く apart) and the table names the two as a term; (None, 0) otherwise."""
    end = i + 1
    while end < len(words) and words[end].group() in DEGREE_WORDS:
        end += 1
    if words[i].group() in FUNCTION_WORDS or end >= len(words) or end - i >= MAX_WORDS:
        return None, 0
    adverb = words[end].group()
    adjective = adverb.removesuffix(MANNER_ENDING)
    if adjective == adverb or len(adjective) < MIN_STEM:
        return None, 0
    adjective = adjective[:-1] + "y" if adjective.endswith("i") else adjective  # hastily: hasty
    key = next((k for k in span_keys([adjective, words[i].group()]) if k in table), None)
    return (key, end + 1) if key else (None, 0)


def meaning_asked(table: dict[str, list[str]], words: list[re.Match], i: int) -> str | None:
    """The key of MEANING_ASKED where the i-th word is a call's meaning asked about ("asking what our bids meant": 20F1's
    説明 and 40B5(a)'s 意味; MEANING_WORDS after QUESTION_WORD after a verb of ASKING_WORDS, within MAX_WORDS words), or
    None."""
    key = term_key(" ".join(MEANING_ASKED))
    if words[i].group() not in MEANING_WORDS or key not in table:
        return None
    before = [word.group() for word in words[max(0, i - MAX_WORDS) : i]]
    if QUESTION_WORD not in before:
        return None
    asked = before[: len(before) - before[::-1].index(QUESTION_WORD) - 1][-2:]  # "asked what", "asked him what"
    return key if any(word in ASKING_WORDS for word in asked) else None


def verb_by_place(table: dict[str, list[str]], words: list[re.Match], i: int) -> str | None:
    """The key of the i-th word's verb ("to go") where its place makes it a verb, after a subject pronoun or an
    auxiliary (VERB_SUBJECTS, VERB_ADVERBS between: "he only goes", "can he show"), or None to read it as any word:
    there "goes" is no 囲碁 (the game of go)."""
    before = i - 1
    while before >= 0 and words[before].group() in VERB_ADVERBS:
        before -= 1
    if before < 0 or words[before].group() not in VERB_SUBJECTS:
        return None
    return next((f"to{stem}" for stem in stems(words[i].group()) if f"to{stem}" in table), None)


def verbs_of_other_objects(words: list[re.Match]) -> set[tuple[int, int]]:
    """(start, end) of each verb of SENSES_BY_OBJECT followed by an object its sense does not take ("made the opening
    lead": no メイク; "turned his card": no 変える): the object's words after determiners and numbers, up to a function
    word; a verb with none after it keeps its reading ("made ten tricks", "the contract was made")."""
    found = set()
    for i, verb in enumerate(words):
        objects = SENSES_BY_OBJECT.get(verb.group())
        if objects is None:
            continue
        rest = [word.group() for word in words[i + 1 :]]
        while rest and (rest[0] in OBJECT_WORDS or rest[0] in NUMBERS):
            rest.pop(0)
        said = list(itertools.takewhile(lambda word: word not in FUNCTION_WORDS, rest))
        if said and not any(word in objects for word in said):
            found.add((verb.start(), verb.end()))
    return found


def unknown_phrasal_verbs(
    table: dict[str, list[str]], words: list[re.Match], irregular_forms: frozenset[str] = frozenset()
) -> set[tuple[int, int]]:
    """(start, end) of each verb's past or participle directly followed by its particle where the two name no
    term ("turned up": arrived, not 変える; "sorted out"), a form the dictionary spells apart from its verb too
    (irregular_forms: "came back" is no 来る, "went round"), or any form of a verb with an object pronoun
    before its particle ("sorted it out"), and of that particle: a phrasal verb means other than its verb, so
    neither reads alone rather than a wrong sense ("walked round": no ラウンド, the Laws' round of boards). "out of" is a preposition's; a term holding the
    verb still reads ("turned up late")."""
    found = set()
    for i, verb in enumerate(words):
        # the particle right after a past or participle, or after an object pronoun, which only a verb takes
        # there, whatever its form ("sorted it out", "sort it out": no 比, "a sort")
        pronoun = i + 2 < len(words) and words[i + 1].group() in OBJECT_PRONOUNS
        particle = words[i + 1 + pronoun] if i + 1 + pronoun < len(words) else None
        following = words[i + 2 + pronoun] if i + 2 + pronoun < len(words) else None
        if particle is None or particle.group() not in ADVERB_PARTICLES or (following and following.group() == "of"):
            continue
        regular = any(verb.group().endswith(e) and len(verb.group()) - len(e) >= MIN_STEM for e in VERB_ENDINGS)
        if not pronoun and not regular and verb.group() not in irregular_forms:
            continue
        if not any(key in table for key in span_keys([verb.group(), particle.group()])):
            found |= {(verb.start(), verb.end()), (particle.start(), particle.end())}
    return found


def phrasal_verbs(table: dict[str, list[str]], words: list[re.Match]) -> list[tuple[int, int, str, tuple[int, int]]]:
    """(start, end of the verb, the phrasal verb's key, the particle's (start, end)) of each verb whose
    particle comes after its object ("put the card back": put back, 戻す; "turned the card over": turn
    over): the verb reads the phrasal verb, the words between their own, the particle nothing. The first
    particle up to MAX_WORDS words on that names a phrasal verb with it, not one of a preposition (out of); a
    particle before the words an object begins with or an object pronoun heads a phrase of its own ("put his cards on the
    table", "put another card on it"), but for
    "in" (PARTICLE_INTO_AN_OBJECT: "put the card in the wrong pocket" is put in, 入れる). A word after NOUN_MARKERS is
    no verb."""
    found = []
    for i, verb in enumerate(words):
        if i > 0 and words[i - 1].group() in NOUN_MARKERS:
            continue  # a noun: "after the hand the defender turned over" is no hand over
        for particle, following in zip(words[i + 2 : i + MAX_WORDS], words[i + 3 : i + MAX_WORDS + 1] + [None]):
            before_of = following is not None and following.group() == "of"
            if particle.group() not in PHRASAL_PARTICLES or (
                before_of and particle.group() != PARTICLE_AFTER_OBJECT_BEFORE_OF
            ):
                continue  # "in the back of the board" is a preposition's, no particle's
            if (
                following is not None
                and (following.group() in OBJECT_WORDS or following.group() in OBJECT_PRONOUNS)
                and particle.group() != PARTICLE_INTO_AN_OBJECT
            ):
                break  # "put his cards on the table", "put a card on it": a preposition with its own object, no put on (掛ける)
            key = next((k for k in span_keys([verb.group(), particle.group()]) if k in table), None)
            if key:
                found.append((verb.start(), verb.end(), key, (particle.start(), particle.end())))
                break
    return found


def reported_speech(words: list[re.Match]) -> set[tuple[int, int]]:
    """(start, end) of each verb of saying before a clause (SAYING_VERBS: "said we had written down one trick too many",
    "said the rest are mine"): it only reports what the clause tells, and reads nothing (no 言う, a call's own words);
    "said small from dummy" keeps it."""
    found = set()
    for i, verb in enumerate(words[:-1]):
        if verb.group() not in SAYING_VERBS:
            continue
        after = [word.group() for word in words[i + 1 : i + 5]]
        by_subject = after[0] in CLAUSE_SUBJECTS
        by_noun = after[0] in OBJECT_WORDS and any(word in CLAUSE_VERBS for word in after[2:4])
        if by_subject or by_noun:
            found.add((verb.start(), verb.end()))
    return found
