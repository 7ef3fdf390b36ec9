"""A Chinese or English sentence read as the Japanese words of the 2017 Laws (issue 36, item 2).

A director who types 「防家掉了一张牌 同伴看见了」 or "a defender led out of turn and declarer wants to
accept it" describes a situation the current (Japanese) Laws govern. The glossary and the director
vocabulary pair the words of the three languages (防家 = ディフェンダー, "out of turn" = 順番外); the
terms they name inside the sentence, longest first and without overlap, are searched as a Japanese
sentence (its coverage: laws_site/search/coverage.py). A whole query that is one glossary or
vocabulary term is expanded as before (laws_site/search/plan.py); this reads the sentences.
Everyday English words neither names ("dropped", "forgot", "slow") are read through JMdict's
English -> Japanese pairs kept for the corpus's words (table search_english,
ingest/search/english_lexicon.py), after the glossary and the vocabulary, which win; function words
(me, to, his) name nothing. An English sentence so read is searched in these words only, not also as
typed (plan.py: its leftover words matched sub-items' (a) and katakana readings), and a term the lexicon
cuts into words printed together (対戦相手) counts as one word of it (plan.compound_clauses).
A Chinese sentence is first cut into its words (laws_site/search/chinese.py: 明手提醒 is 明手 + 提醒,
never the 手提 inside it), and its everyday words are read through CC-CEDICT's glosses (碰: touch -> 触れる).

Keys: `search_key` of the term (width, case, spaces, inner hyphens), Chinese simplified; an English
word also without a plural, past or adverb ending (passed -> pass, cards -> card, slowly -> slow). The same table and the same
reading run offline (the pack's `translations`).
"""

from __future__ import annotations

import re
import sqlite3
import unicodedata

from ingest.search import glossary
from ingest.search.english_lexicon import (
    ARTICLES,
    ASPECT_VERBS,
    CHANCE_VERBS,
    FUNCTION_WORDS,
    HAVING,
    HONOUR_NAMES,
    LAST,
    MEANING_ASKED,
    MOMENTS,
    NEGATION,
    NO,
    NUMBERS,
    PERIODS,
    PLACE_DETERMINERS,
    PURPOSE,
    PURPOSE_PHRASES,
    QUESTION_OPENERS,
    RIGHT_TO_ACT,
    SAME_TIME,
    SUITS,
    SUPPORT_VERBS,
    is_verb,
    other_cards,
    other_persons,
    other_suits,
    stems,
)
from ingest.text import forgiving, tokenize, word_forms
from laws_site.search.chinese import (
    ChineseWords,
    chinese_counts,
    term_key,
    too_many_cards,
)
from laws_site.search.chinese_ordinals import chinese_ordinals
from laws_site.search.chinese_runs import across_particles, manner_words, swapped_terms
from laws_site.search.english_keys import ENGLISH_WORD_RE, MAX_WORDS, content_key, span_keys, verb_keys
from laws_site.search.english_places import (
    contrasted_object,
    fronted_object,
    hand_as_a_time,
    manner_of_a_verb,
    meaning_asked,
    phrasal_verbs,
    reported_speech,
    sense_by_place,
    unknown_phrasal_verbs,
    verb_by_place,
    verbs_of_other_objects,
)
from laws_site.search.suits_said import (
    FOLLOW_SUIT_TERM,
    PLAY_TERM,
    SUIT_NOT_HELD,
    SUIT_SAID,
    SuitsHeld,
    able_to_follow,
    chinese_suits,
    chinese_suits_held,
    chinese_suits_not_held,
    chinese_suits_not_held_named,
    chinese_suits_played,
    incorrect_number_of_cards,
)
from laws_site.search.words import SUIT_WORD

WORD_SEPARATOR_RE = re.compile(r"[a-zA-Z0-9][\s\-]+[a-zA-Z0-9]")  # a term of several words: face up, face-down
LOWER_CASE_WORD_RE = re.compile(r"\b[a-z]+\b")
# a card's letter in a Chinese sentence (一张A, 亮出了一张K, AK) is an honour: def:アナー 「A、K、Q、J、10のいずれか」;
# 10 is left out, in a Chinese sentence it is more often a count (10墩) than a card
HONOUR_LETTERS = frozenset("akqj")
HONOUR_TERM = "大牌"  # the vocabulary's Chinese word for Honor (アナー): the letters read as it does
BID_LEVELS = "一二三四五六七"  # a bid's level said in Chinese (四黑桃, 三无将)
# a bid's level said in English (one spade, 4 hearts), and eight, nine, which no bid has but a director may be told of
# ("he bid eight hearts", as 8黑桃 in Chinese)
ENGLISH_BID_LEVELS = {
    **dict(zip("one two three four five six seven eight nine".split(), "123456789")),
    **{digit: digit for digit in "123456789"},
}


def translations(
    data, dictionary: list[tuple[str, str, str, str]] = (), written_whole: set[str] | None = None
) -> dict[str, list[str]]:
    """{key: the Japanese words of the entries whose Chinese or English word it is}, then of the
    dictionary's (english, japanese, the word it inflects, its gloss) for the words neither names: an inflection
    of a word they name reads as that word (led: the glossary's lead), others as the dictionary's
    Japanese word where the lexicon cuts it whole. An abbreviation that the glossary's and the
    vocabulary's own English prints as an everyday word (TO: "Failure to Alert"), or a function word
    (ME: "rude to me"), is not read inside a sentence ("tried to stop" is no Tournament Organizer).
    written_whole, if given, receives the English keys only ever written as one word (beforehand), never
    as a term of several (face up, face-down lead): joined_words."""
    table: dict[str, list[str]] = {}
    everyday = english_words(data) | FUNCTION_WORDS
    whole, several = set(), set()

    def add(word: str | None, japanese, printed: str | None = None, termed: bool = False) -> None:
        """printed: the term as printed where word is its key already (the glossary's Face Down: facedown);
        termed: a glossary or vocabulary term, keyed by its verb's stem too (verb_keys; the dictionary lists
        its own forms)."""
        key = term_key(word) if word and not tokenize.KANA_RE.search(word) else ""
        if key and key in everyday and (word.isupper() or key in FUNCTION_WORDS):
            return
        if key and japanese:
            (several if WORD_SEPARATOR_RE.search((printed or word).strip()) else whole).add(key)
            for found in dict.fromkeys([key, content_key(word) or key, *(verb_keys(word) if termed else [])]):
                table.setdefault(found, [])
                table[found] += [w for w in japanese if w not in table[found]]

    for entry in data.glossary.entries:
        japanese = glossary.term_forms(entry.ja)
        for form in glossary.term_forms(entry.zh):
            add(form, japanese)
        for form in glossary.english_keys(entry.en):
            add(form, japanese, entry.en, termed=True)
    for entry in data.vocabulary.entries:
        # a term the Laws print in Latin letters (IMP, LHO) is typed as printed in a sentence of any language
        printed_latin = [word for word in entry.ja if word.isascii()]
        for word in (entry.en, *entry.zh, *entry.spoken, *printed_latin):
            add(word, list(entry.ja), termed=True)
    # a regional or later Chinese form of a 1997 term (corpus/zh_variants.yml: 罚牌 for 罚张, 夢家 for 明手) reads as
    # the term does; so does one written with another's 1997 term inside it (大罚张: 大罚牌 with 罚张 for 罚牌)
    for variant, term in sorted(data.expansions.zh.items()):
        forms = [variant] + [
            variant.replace(inner, of)
            for inner, of in data.expansions.zh.items()
            if inner != variant and inner in variant
        ]
        for form in forms:
            if term_key(form) not in table:
                add(form, list(table.get(term_key(term), [])))
    for word, digits in NUMBERS.items():
        add(word, [digits])
    for said, count in [*chinese_counts().items(), *chinese_ordinals().items()]:  # 五张 5枚, 第五张 5枚目
        add(said, [count])
    incorrect_number = incorrect_number_of_cards(data)
    for said in too_many_cards():  # 十四张: the count, and Law 13's term for a hand that holds it
        add(said, incorrect_number)
    suits = chinese_suits(data)
    for said in chinese_suits_not_held(suits):
        add(said, [SUIT_NOT_HELD])
    for said in chinese_suits_not_held_named([*suits, SUIT_SAID]):
        add(said, [SUIT_NOT_HELD])
    follow_suit = table.get(term_key(FOLLOW_SUIT_TERM), [])
    for said in chinese_suits_held([*suits, SUIT_SAID]):  # 有这门花色: a player able to follow (44C, 61A)
        add(said, follow_suit)
    for said in chinese_suits_played([*suits, SUIT_SAID]):  # 打方块: a card of the suit played (PLAYING_VERBS)
        add(said, [*table.get(term_key(PLAY_TERM), []), SUIT_WORD])
    for said in suits:  # a suit named in a sentence is the Laws' スート: they rule a suit, never a named one
        table[term_key(said)] = [SUIT_WORD]
    for said, japanese in [*suits.items(), *chinese_notrump(data).items()]:  # ... but a bid's is as typed
        for level, digit in zip(BID_LEVELS, "1234567"):
            add(level + said, [digit + japanese])
        for digit in "123456789":  # 8黑桃: a level in digits
            add(digit + said, [digit + japanese])
    honour = table.get(term_key(HONOUR_TERM), [])
    for (
        name
    ) in HONOUR_NAMES:  # an honour named in English (the king, an ace) is the Laws' アナー, as a letter in Chinese
        add(name, honour)
    for said, japanese in suits.items():  # ... and a card's as typed (黑桃A: as 「スペードのエース」 reads)
        for letter in sorted(HONOUR_LETTERS):  # a set: sorted, so the pack is the same bytes every build
            add(said + letter, [japanese, *honour])
    for entry in data.vocabulary.entries:  # "no spades" of Law 61B is also "no hearts", unless a term of its own;
        # "call me" (the director summoned) is also "calling you", "call for a card" also "call for the king"
        for word in (w for w in (entry.en, *entry.spoken) if w):
            for variant in other_suits(word) + other_persons(word) + other_cards(word):
                if term_key(variant) not in table:
                    add(variant, list(entry.ja))
    english = english_suits(data)
    for said, japanese in english.items():  # as in Chinese: a suit named is the Laws' スート, a bid's as typed
        table[term_key(said)] = [SUIT_WORD]
        for level, digit in ENGLISH_BID_LEVELS.items():
            add(f"{level} {said}", [digit + japanese])
    named = dict(table)
    for form, japanese in verb_forms_of_nouns(data, named, dictionary).items():
        table[form] = japanese
    for english, japanese, word, _ in dictionary:
        if all(part in FUNCTION_WORDS for part in english.split()):
            continue  # function words alone name only a term of the glossary or the vocabulary (span_keys)
        if any(key in named for key in stems(term_key(english))):
            continue  # the glossary's or the vocabulary's word, maybe inflected (leading: lead)
        # an infinitive's row is the verb's sense ("to turn": 変える), never the noun a term names (Turn: 順番)
        if term_key(word) in named and not english.startswith("to "):
            add(english, named[term_key(word)])
        elif japanese in data.lexicon.words:
            add(english, [japanese])
    for english, _, word, _ in dictionary:  # an irregular form's verb ("goes": to go, 動く), for verb_by_place
        verb, form = term_key(f"to {word}"), term_key(f"to {english}")
        if english != word and verb in table and form not in table:
            table[form] = table[verb]
    same_time = table.get(term_key(SAME_TIME))
    for moment in MOMENTS:  # the same moment: JMdict's same time, 同時
        if same_time and term_key(f"same {moment}") not in table:
            table[term_key(f"same {moment}")] = same_time
    table.update(negated_terms(data, table))
    # a call's meaning asked about reads the explanation and the meaning (english_places.meaning_asked)
    asked = [word for term in MEANING_ASKED for word in table.get(term_key(term), [])]
    if asked:
        table[term_key(" ".join(MEANING_ASKED))] = list(dict.fromkeys(asked))
    table.update({key: words for key, words in rights_to_act(table, data.rights_to_act).items() if key not in table})
    for phrase in PURPOSE_PHRASES:  # a purpose said: the Laws' 目的 (20G1), though made of function words
        table[term_key(phrase)] = [PURPOSE]
    if written_whole is not None:
        written_whole |= {key for key in whole - several if key.isascii()}
    # an English term only: a Chinese word's forms are chinese.py's to weigh (for Chinese this measured +1 at 1, -1 at 3)
    return {key: forms_without_extra_words(data, words) if key.isascii() else words for key, words in table.items()}


def joined_words(table: dict[str, list[str]], written_whole: set[str]) -> frozenset[str]:
    """The keys of one written word that two typed words also spell joined (beforehand: "before the hands",
    its "the" dropped as a term's function word; everyone: "every one"): read_terms reads them from one
    typed word only. A key is one if it splits into two words the table or the function words hold."""

    def a_word(part: str) -> bool:
        return part in FUNCTION_WORDS or any(stem in table for stem in stems(part))

    return frozenset(
        key
        for key in written_whole
        if key in table and any(a_word(key[:cut]) and a_word(key[cut:]) for cut in range(2, len(key) - 1))
    )


def negated_terms(data, table: dict[str, list[str]]) -> dict[str, list[str]]:
    """{"not" + an English key: the Laws' negated noun + する of its reading} where the lexicon holds one (shuffle:
    シャフル -> notshuffle: シャフルしない, 6D2 シャフルしないで配った; alert: アラートしない): "without shuffling", "never
    alerted" say the thing was not done, which the noun alone reads as done. A key that names its own "not" term
    (not follow suit: リボーク) keeps it. Read through NEGATING_OPENERS (span_keys)."""
    found = {}
    for key, japanese in table.items():
        if not key.isascii() or key.startswith(NEGATION) or NEGATION + key in table:
            continue
        negated = [word + word_forms.DONE_NOT for word in japanese if word + word_forms.DONE_NOT in data.lexicon.words]
        if negated:
            found[NEGATION + key] = negated
    return found


def rights_to_act(table: dict[str, list[str]], rights: frozenset[str]) -> dict[str, list[str]]:
    """{get + to + a word's key, and "not" before it: the Laws' right to do what the word reads} where they print one
    (rights: the nouns printed before する権利, コール of 17D3's コールする権利): "my partner never got to call" is 17D3's
    right to call its player was deprived of, no call made (CHANCE_VERBS)."""
    found: dict[str, list[str]] = {}
    for key, japanese in table.items():
        read = [word + RIGHT_TO_ACT for word in japanese if word in rights]
        if not read or not key.isascii() or not key.isalpha() or stems(key) != [key]:
            continue  # after "to" a verb is said as it is: no ending (got to call, not got to called)
        for verb in CHANCE_VERBS:
            for said in (f"{verb}to{key}", f"{NEGATION}{verb}to{key}"):
                found.setdefault(said, read)
    return found


def english_suits(data) -> dict[str, str]:
    """{a suit's English name, singular and plural: its Japanese name} (the glossary's Spade: スペード)."""
    japanese = {term_key(entry.en): glossary.term_forms(entry.ja)[0] for entry in data.glossary.entries if entry.en}
    return {form: japanese[forms[0]] for forms in SUITS if forms[0] in japanese for form in forms}


def chinese_notrump(data) -> dict[str, str]:
    """{notrump's Chinese name: its Japanese name} (the vocabulary's: 无将 ノートランプ)."""
    return {said: entry.ja[0] for entry in data.vocabulary.entries if entry.en == "Notrump" for said in entry.zh}


def verb_forms_of_nouns(data, named: dict[str, list[str]], dictionary) -> dict[str, list[str]]:
    """{a regular verb form (turned, turning) of a one-word term the glossary or the vocabulary names for
    a noun of the Laws: the dictionary's verb for the word}: a director's "turned the card", "turned up"
    is no 順番 (the glossary's Turn, "his turn"), which an ending folded back would read. Only where JMdict
    glosses the word as a verb ("to turn") by another word than the term's, and the term is not the
    word's own loanword: passed, doubled, revoked are the Laws' パス, ダブル, リボーク (the same action)."""
    verbs = {english: japanese for english, japanese, _, gloss in dictionary if is_verb(gloss)}
    found: dict[str, list[str]] = {}
    for key, japanese in named.items():
        verb = verbs.get(f"to {key}", verbs.get(key))  # the infinitive's row where the word itself reads a noun
        if verb not in data.lexicon.words or not key.isalpha() or verb in japanese:
            continue
        if any(loanword_of(key, word) for word in japanese):
            continue
        base = key[:-1] if key.endswith("e") else key
        found.update({form: [verb] for form in (base + "ed", base + "ing") if form not in named})
    return found


def loanword_of(english: str, japanese: str) -> bool:
    """Whether the Japanese word is the English word's loanword (pass, パス: one consonant skeleton)."""
    key = forgiving.sound_key(english, japanese=False)
    return bool(key) and key == forgiving.sound_key(japanese, japanese=True)


def forms_without_extra_words(data, forms: list[str]) -> list[str]:
    """The forms of one term without those holding another form's every content word and more: "change
    my call" reads as 言い直し, 言い換え, not also as Law 25's title コールの適法な言い直しと違法な言い直し,
    whose other words (適法, 違法) the director never said and a sentence would count as words of the
    situation. Forms that say the term differently (見せたカード, 偶然落としたカード) are all kept."""
    if len(forms) < 2 or not data.lexicon.words:
        return forms
    light = data.lexicon.light
    words = [
        frozenset(w.norm for w in data.lexicon.cut(form) if not w.dropped and w.norm not in light) for form in forms
    ]
    return [form for form, own in zip(forms, words) if not any(other and other < own for other in words)]


def dictionary_pairs(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(english, japanese, word, gloss) of table search_english (ingest/search/english_lexicon.py)."""
    return list(conn.execute("select english, japanese, word, gloss from search_english order by english"))


def english_words(data) -> frozenset[str]:
    """The words the English terms of several words print in lower case (Failure to Alert: to)."""
    phrases = [form for entry in data.glossary.entries for form in glossary.term_forms(entry.en)]
    phrases += [word for entry in data.vocabulary.entries for word in (entry.en, *entry.spoken)]
    return frozenset(
        word for phrase in phrases if phrase and " " in phrase.strip() for word in LOWER_CASE_WORD_RE.findall(phrase)
    )


def verb_forms(dictionary: list[tuple[str, str, str, str]]) -> frozenset[str]:
    """The one-word forms of a verb the dictionary lists apart from the verb itself (came: to come, told: to tell,
    went: to go): a verb's form however English spells it, which unknown_phrasal_verbs takes before a particle as it
    takes a regular -ed or -ing ("came back" is no 来る, 'to arrive')."""
    return frozenset(
        english
        for english, _, word, gloss in dictionary
        if english != word and is_verb(gloss) and ENGLISH_WORD_RE.fullmatch(english)
    )


def japanese_words(
    table: dict[str, list[str]],
    query: str,
    chinese_words: ChineseWords | None = None,
    joined: frozenset[str] = frozenset(),
    suits_held: SuitsHeld = SuitsHeld(),
) -> list[str]:
    """The Japanese words of the terms the query holds (read_terms), each once, in the order the query
    names them; [] if it names none."""
    japanese: list[str] = []
    for _, words in read_terms(table, query, chinese_words, joined, suits_held):
        japanese += [word for word in words if word not in japanese]
    return japanese


def query_terms(data, query: str) -> list[tuple[str, list[str]]]:
    """read_terms as search reads a query (plan.py), through all `data` (SearchData) holds for it - the one reading
    the offline engine's readTerms gives too."""
    return read_terms(data.translations, query, data.chinese, data.joined_words, data.suits_held, data.irregular_forms)


def read_terms(
    table: dict[str, list[str]],
    query: str,
    chinese_words: ChineseWords | None = None,
    joined: frozenset[str] = frozenset(),
    suits_held: SuitsHeld = SuitsHeld(),
    irregular_forms: frozenset[str] = frozenset(),
) -> list[tuple[str, list[str]]]:
    """(the term as the query writes it, read: lower case, simplified, an English term's words one space
    apart; its Japanese words) of each term the query holds (the longest first, none overlapping), in the
    order the query names them. Chinese is cut into words first (chinese.py). A key of joined (joined_words)
    is read from one typed word only: "before the hands" is no beforehand, 予め. irregular_forms: a verb's
    forms the dictionary spells apart (verb_forms: came, told), verbs before a particle."""
    text = tokenize.to_simplified(unicodedata.normalize("NFKC", query).lower())
    found = []  # (start, end, key) in the text's characters
    words = list(ENGLISH_WORD_RE.finditer(text))
    for i in range(len(words)):
        by_next = (
            sense_by_place(table, words, i)
            or hand_as_a_time(table, words, i)
            or meaning_asked(table, words, i)
            or verb_by_place(table, words, i)
        )
        fronted = fronted_object(table, words, i)
        contrast, contrast_end = contrasted_object(table, words, i)
        manner, manner_end = manner_of_a_verb(table, words, i)
        for j in range(i + 1, min(i + MAX_WORDS, len(words)) + 1):
            if contrast and j == contrast_end:
                candidates = [contrast]
            elif manner and j == manner_end:
                candidates = [manner]
            elif by_next and j == i + 1:
                candidates = [by_next]
            else:  # the run's keys are worked out only where its place names no sense
                said = span_keys([w.group() for w in words[i:j]])
                candidates = [fronted, *said] if fronted and j == i + 2 else said
            for candidate in candidates:
                if candidate in table and (j == i + 1 or candidate not in joined):
                    found.append((words[i].start(), words[j - 1].end(), candidate))
                    break
    if tokenize.HAN_RE.search(text) and HONOUR_TERM in table:
        found += [(w.start(), w.end(), HONOUR_TERM) for w in words if set(w.group()) <= HONOUR_LETTERS]
    manner: list[tuple[int, int]] = []
    for run in tokenize.HAN_RUN_RE.finditer(text):
        cut = (chinese_words or ChineseWords()).cut(run.group())
        # a Latin word right before the run's first word, the two a term (8黑桃: a bid) ...
        before = next((w for w in words if w.end() == run.start()), None)
        if before and cut and before.group() + run.group()[: cut[0][1]] in table:
            found.append((before.start(), run.start() + cut[0][1], before.group() + run.group()[: cut[0][1]]))
        # ... and the run's last word with a Latin word right after it (黑桃A: a card)
        after = next((w for w in words if w.start() == run.end()), None)
        if after and cut and run.group()[cut[-1][0] :] + after.group() in table:
            found.append((run.start() + cut[-1][0], after.end(), run.group()[cut[-1][0] :] + after.group()))
        for start, end in cut:
            if run.group()[start:end] in table:
                found.append((run.start() + start, run.start() + end, run.group()[start:end]))
        found += [
            (run.start() + start, run.start() + end, key)
            for start, end, key in across_particles(table, run.group(), cut) + swapped_terms(table, run.group(), cut)
        ]
        manner += [(run.start() + start, run.start() + end) for start, end in manner_words(run.group(), cut)]
    # a support verb before an article reads nothing alone ("made a bid": no メイク); a term holding it still reads
    carried = {
        (word.start(), word.end())
        for word, following in zip(words, words[1:])
        if word.group() in SUPPORT_VERBS and following.group() in ARTICLES
    }
    # an aspect verb before an -ing form reads nothing ("kept looking": no 保つ); the -ing form tells what happened
    carried |= {
        (word.start(), word.end())
        for word, following in zip(words, words[1:])
        if word.group() in ASPECT_VERBS and following.group().endswith("ing")
    }
    # a suit's singular name after PLACE_DETERMINERS names a body or a place ("this club"): no suit, スート
    carried |= {
        (word.start(), word.end())
        for before, word in zip(words, words[1:])
        if before.group() in PLACE_DETERMINERS and any(word.group() == forms[0] for forms in SUITS)
    }
    # last before a period (the last round) names the round before, or the final one: no 最後
    carried |= {
        (word.start(), word.end())
        for word, following in zip(words, words[1:])
        if word.group() == LAST and following.group() in PERIODS
    }
    # a term beginning no after a verb of having states a void, no question asked (has no spades: no 61B)
    carried |= {
        (start, end)
        for i, (before, word) in enumerate(zip(words, words[1:]))
        if before.group() in HAVING
        and word.group() == NO
        and not any(w.group() in QUESTION_OPENERS for w in words[max(0, i - 2) : i])
        for start, end, key in found
        if start == word.start() and end > word.end()
    }
    carried |= verbs_of_other_objects(words)
    carried |= reported_speech(words)
    carried |= unknown_phrasal_verbs(table, words, irregular_forms)
    carried |= set(manner)
    particles = phrasal_verbs(table, words)
    kept: list[tuple[int, int, str]] = []
    ordered = [(start, end, key, None) for start, end, key in found] + list(particles)
    # longest first, a phrasal verb as long as its verb and particle together
    for start, end, key, particle in sorted(
        ordered, key=lambda f: (f[0] - f[1] - span_length(f[3]), f[0], f[3] is None)
    ):
        spans = [(start, end)] + ([particle] if particle else [])
        if (start, end) in carried or any(s < e2 and s2 < e for s, e in spans for s2, e2, _ in kept):
            continue
        kept.append((start, end, key))
        if particle:  # the particle is the phrasal verb's: it reads nothing of its own ("back": no 後)
            kept.append((*particle, ""))
    kept = [k for k in kept if k[2]]
    read = [(written(text[start:end]), table[key]) for start, end, key in sorted(kept)]
    return able_to_follow(read, suits_held)


def span_length(span: tuple[int, int] | None) -> int:
    return span[1] - span[0] if span else 0


def written(span: str) -> str:
    """A term as the query writes it: an English term its words (what stands between them is no part of
    it: "dropped <> a card" names "dropped a card"), a Chinese one as it is (8黑桃 too)."""
    if tokenize.HAN_RE.search(span):
        return span
    return " ".join(ENGLISH_WORD_RE.findall(span)) or span
