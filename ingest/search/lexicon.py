"""The words a Japanese query is cut into, made at build: table `search_lexicon`.

Search cuts a Japanese query with this lexicon, on the server (laws_site/search/words.py) and on the
phone (static/offline-search.js) alike, so both read the same words out of the same query: the
corpus's own words as SudachiPy cut them (mode C, as the index), each surface with its normalised
form, whether a query drops it (particles and auxiliaries: a search for 取り消したカード asks for
取り消す and カード), whether it is light (a word that carries no situation of its own: the dictionary
reads it as a pronoun, adnominal, conjunction or interjection, or, written in kana, as a prefix, a
suffix or a verb, noun or adjective that may serve another word, 非自立可能: する, しまう, いる, できる; a sentence's coverage does
not count it: laws_site/search/coverage.py), and how often the corpus prints it; the words of the glossary, the director
vocabulary and the 索引; and the corpus's words with kanji under their hiragana spelling where
SudachiPy reads that spelling back as the same word (じゅんばん -> 順番), so a query typed in kana is
cut as the kanji would be. A query word the lexicon lacks matches no unit in either search.

The surfaces and forms of the corpus's words come from the index's own tokens (the mode C words come
first in a search column, in text order, with their offsets): no second pass of SudachiPy over the
corpus. Whether a word is dropped is read from the dictionary's entries for that surface and form.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from typing import Iterable

import jaconv
from sudachipy import SplitMode

from ingest.text import forgiving, tokenize, word_forms

COLUMNS = {"surface": str, "norm": str, "dropped": int, "light": int, "count": int}
# parts of speech that carry no situation of their own: a whole category; and, written in kana only, the
# affixes and the 非自立可能 members (KANA_ONLY_LIGHT)
LIGHT_POS = {"連体詞", "代名詞", "接続詞", "感動詞"}
AFFIX_POS = {"接頭辞", "接尾辞"}
DEPENDENT = "非自立可能"
# a noun that may stand as an adverb (副詞可能): written in kana it is a formal noun serving the clause (置いた
# まま, したとき, 見たところ, そのあと); in kanji (前, 後, 時) the word itself
ADVERBIAL_NOUN = "副詞可能"
PARTICLE = "助詞"
PRONOUN = "代名詞"
NOUN = "名詞"
# the hiragana a pronoun or formal noun a director types is written in (no small vowels, no ゔ, no long mark)
SERVING_KANA_LENGTH = 3  # two kana are mostly a kana spelling or a stem of a word the corpus prints (あと, まえ, こっ)
SERVING_KANA = [chr(code) for code in range(0x3041, 0x3094) if chr(code) not in "ぁぃぅぇぉゎゐゑ"]
# the dictionary's particles and auxiliaries of two kana the corpus may not print (けど, のに, じゃ, よね):
# known to the cut, a colloquial ending no longer turns its whole run of kana into one unknown word
# (コンシードしたけど: し + た + けど, not したけど; ですよと: です + よ + と)
FUNCTION_WORD_KANA = [chr(code) for code in range(0x3041, 0x3097)] + ["ー"]
SCHEMA = (COLUMNS, {"pk": "surface"})
# the endings a verb's or an adjective's stem takes before an auxiliary (落とし-た, 落とさ-ない, 遅かっ-た):
# each candidate stem is kept only where the dictionary reads it as the word
STEM_ENDINGS = tuple(
    "あいうえおかきくけこがぎぐげごさしすせそたちつてとなにぬねのばびぶべぼまみむめもらりるれろわっん"
) + (
    "",
    "かっ",
    "けれ",
    "かろ",
)
INFLECTING_POS = {"動詞", "形容詞"}
# of those, the stems a report of what happened types before た, て, ない, ます, たい (あげ-ます, わかっ-た,
# そろわ-ない, ほしかっ-た): not the imperative, volitional or conditional stems (あげろ, あげよ, あげれ-ば)
REPORTED_STEM_ENDINGS = ("", *"いきぎしちにびみりっかがさたなばまらわく", "かっ")
HIRAGANA_WORD_RE = re.compile(f"(?:{forgiving.HIRAGANA_RE.pattern})+")  # a word written in hiragana only


def lexicon_rows(
    texts_and_tokens: Iterable[tuple[str, tuple[str, bytes]]],
    other_texts: Iterable[str],
    other_words: dict[str, str] | None = None,
    serving_kana: dict[str, str] | None = None,
) -> list[dict]:
    """The table's rows: the words of the Japanese texts, given with their (search tokens, offsets) as
    the build made them, and of `other_texts` (glossary, vocabulary, 索引 words), cut here; and
    `other_words`, {surface: normalised form} of words the corpus never prints that lead to words it
    does (ingest/search/neighbours.py), where no other reading of the surface is known; and
    `serving_kana` (`serving_kana_words`), light, where no word above nor a kana spelling has the surface."""
    counts: Counter = Counter()
    negated: dict[str, str] = {}
    for text, (tokens, offsets) in texts_and_tokens:
        for surface, norm in corpus_words(text, tokens, offsets):
            counts[(surface, norm)] += 1
        negated.update(negated_words(text, tokens, offsets))
    for text in other_texts:
        for token in tokenize.japanese_tokens(tokenize.clean_query(text)):
            counts[(_nfkc(token.surface), token.norm)] += 1
    found: dict[str, list] = {}
    for (surface, norm), count in counts.most_common():
        entry = found.setdefault(surface, [norm, 0])  # the most frequent reading of a surface
        entry[1] += count
    words = {
        surface: [norm, int(dropped(surface, norm)), int(light(surface, norm)), count]
        for surface, (norm, count) in found.items()
    }
    for surface, norm in (other_words or {}).items():
        surface = _nfkc(surface)
        if surface not in words:
            words[surface] = [norm, int(dropped(surface, norm)), int(light(surface, norm)), 0]
    for surface, norm in sorted(negated.items()):
        words.setdefault(surface, [norm, 0, 0, 0])
    words.update(kana_spellings(words))
    words.update(kana_inflections(words))
    for surface, norm in (serving_kana or {}).items():
        words.setdefault(_nfkc(surface), [norm, 0, 1, 0])
    return [
        {"surface": surface, "norm": norm, "dropped": drop, "light": is_light, "count": count}
        for surface, (norm, drop, is_light, count) in sorted(words.items())
    ]


def function_words() -> dict[str, str]:
    """{surface: normalised form} of SudachiDict's particles and auxiliaries written in kana that the
    corpus may not print, for `lexicon_rows`' other_words: each two kana the dictionary lists as one (its
    first such entry), and each one kana SudachiPy reads alone as a particle (よ, ぞ; not the classical
    auxiliaries き, り, which would chop unknown words into nothing)."""
    dictionary, tokenizer = tokenize.sudachi_dictionary(), tokenize.sudachi_tokenizer()
    found: dict[str, str] = {}
    for kana in FUNCTION_WORD_KANA:
        read = tokenizer.tokenize(kana, SplitMode.C)
        if len(read) == 1 and read[0].part_of_speech()[0] == PARTICLE:
            found[kana] = tokenize.normalised(read[0])
    for pair in itertools.product(FUNCTION_WORD_KANA, repeat=2):
        surface = "".join(pair)
        for morpheme in dictionary.lookup(surface):
            if morpheme.part_of_speech()[0] in tokenize.QUERY_DROPPED_POS:
                found.setdefault(surface, tokenize.normalised(morpheme))
    return found


def serving_kana_words() -> dict[str, str]:
    """{surface: normalised form} of the dictionary's pronouns and formal nouns of three hiragana
    (こっち, そっち, ところ, あいだ) that the corpus does not print so: a director's sentence says them
    (こっちは使っていいの, リードすべきところを), and the cut, not knowing them, chopped them into kana words it
    knew (と + ころ, こっ + ち), fragments that counted as words of the situation and showed. A word of the
    corpus or a kana spelling of one (けっか for 結果) keeps its own reading (lexicon_rows)."""
    dictionary, tokenizer = tokenize.sudachi_dictionary(), tokenize.sudachi_tokenizer()
    found: dict[str, str] = {}
    for letters in itertools.product(SERVING_KANA, repeat=SERVING_KANA_LENGTH):
        surface = "".join(letters)
        if any(_serving(morpheme) for morpheme in dictionary.lookup(surface)):
            # ... and read so when typed alone (いない is 居る + ない, not 以内)
            read = tokenizer.tokenize(surface, SplitMode.C)
            if len(read) == 1 and _serving(read[0]):
                found[surface] = tokenize.normalised(read[0])
    return found


def _serving(morpheme) -> bool:
    pos = morpheme.part_of_speech()
    return pos[0] == PRONOUN or (pos[0] == NOUN and (pos[1] == DEPENDENT or pos[2] == ADVERBIAL_NOUN))


def corpus_words(text: str, tokens: str, offsets: bytes) -> list[tuple[str, str]]:
    """(surface, normalised form) of the mode C words of a text: the tokens of its search column up to
    the first that starts before the one before it ends (the compounds' pieces and the katakana runs
    the index adds after the words)."""
    words, end = [], 0
    for norm, (begin, finish) in zip(tokens.split(), tokenize.unpack_offsets(offsets)):
        if begin < end and word_forms.is_negated_form(norm):
            continue  # a negated noun + する, spanning the words before it (ingest/text/word_forms.py)
        if begin < end:
            break
        words.append((_nfkc(text[begin:finish]), norm))
        end = finish
    return words


def negated_words(text: str, tokens: str, offsets: bytes) -> dict[str, str]:
    """{surface a query types: negated form} of each noun + する a text negates (the index reads its auxiliary
    as the negated noun, spanning the three: ingest/text/word_forms.py, フォロー 為る フオロない): フォローしなかっ,
    フォローせず, フォローしていない ... as フオロない."""
    spans = list(zip(tokens.split(), tokenize.unpack_offsets(offsets)))
    found = {}
    for place, (norm, (begin, end)) in enumerate(spans):
        if place < 2 or not word_forms.is_negated_form(norm):
            continue
        noun, (noun_begin, _) = spans[place - 2]
        if noun + word_forms.NEGATED_SUFFIX == norm and noun_begin == begin:
            for surface in word_forms.typed_surfaces(_nfkc(text[begin:end])):
                found.setdefault(surface, norm)
    return found


def negation_pairs(texts_and_tokens: Iterable[tuple[str, tuple[str, bytes]]]) -> list[tuple[str, str]]:
    """(negated form, the word negated) of each verb the texts negate (フオロない, フオロ): a query's negated
    word reads its word as another form (table search_neighbours, source form), so a sentence saying a
    thing was not done still covers a unit that prints the thing (数えないで: 数える), and ranks the unit that
    prints it not done above it; a query of that one word reads the negation alone (words.ALONE_EXPANDED)."""
    negated = set()
    for text, (tokens, offsets) in texts_and_tokens:
        negated.update(negated_words(text, tokens, offsets).values())
    return [(norm, norm[: -len(word_forms.NEGATED_SUFFIX)]) for norm in sorted(negated)]


def dropped(surface: str, norm: str) -> bool:
    """Whether a query drops the word: the dictionary reads this surface, with this form, as a particle
    or an auxiliary (て, は, た...)."""
    for morpheme in tokenize.sudachi_dictionary().lookup(surface):
        if morpheme.part_of_speech()[0] in tokenize.QUERY_DROPPED_POS and tokenize.normalised(morpheme) == norm:
            return True
    return False


def light(surface: str, norm: str) -> bool:
    """Whether the dictionary reads this surface, with this form, as a word with no situation of its
    own: LIGHT_POS; or, written without kanji, an affix or a verb, noun or adjective that may serve
    another (する, しまう, できる, こと, もの). Japanese writes a word serving another in kana (補助動詞,
    形式名詞: ~ておく, ~とき) and the word itself in kanji: 間違った, 出した, 見せた, 順番外, 表向き carry
    the situation, and each counts by how telling it is (its idf)."""
    kana_only = not tokenize.HAN_RE.search(surface)
    for morpheme in tokenize.sudachi_dictionary().lookup(surface):
        pos = morpheme.part_of_speech()
        serving = pos[0] in AFFIX_POS or pos[1] == DEPENDENT or pos[2] == ADVERBIAL_NOUN
        if (pos[0] in LIGHT_POS or (serving and kana_only)) and tokenize.normalised(morpheme) == norm:
            return True
    return False


def kana_spellings(found: dict[str, list]) -> dict[str, list]:
    """The words with kanji written in hiragana, as a query typed in kana is cut: SudachiPy reads each
    word (順番 -> ジュンバン), and where SudachiPy takes that reading in hiragana back as one word with
    the same normalised form (じゅんばん -> 順番) the kana spelling becomes a word of its own, with the
    word's entry; a reading SudachiPy splits or reads as another word is left out."""
    tokenizer = tokenize.sudachi_tokenizer()
    spellings: dict[str, list] = {}
    # most frequent first: a kana spelling goes to the commoner word
    for surface, entry in sorted(found.items(), key=lambda item: (-item[1][3], item[0])):
        if not tokenize.HAN_RE.search(surface):
            continue
        katakana = "".join(m.reading_form() for m in tokenizer.tokenize(surface, SplitMode.C))
        kana = _nfkc(jaconv.kata2hira(katakana))
        if not kana or kana in found or kana in spellings or not tokenize.KANA_RE.search(kana):
            continue
        read = tokenize.japanese_tokens(kana)
        if len(read) == 1 and read[0].surface == kana and read[0].norm == entry[0]:
            # printed as kanji, never as typed (count 0): the cut takes it last (聞きたい is 聞き + たい, not 聞 + 期待)
            spellings[kana] = entry[:3] + [0]
    return spellings


def kana_inflections(found: dict[str, list]) -> dict[str, list]:
    """The stems of the verbs and adjectives written in hiragana (あげる: あげ, あげれ; わかる: わかっ, わから),
    as a director types them (あげますと, わかった): the corpus prints these words in kanji, or not at all,
    so their kana stems were no word of the cut, and an unknown run of kana swallowed the particles around
    them. A stem is kept where the dictionary reads it as the same word; it takes the word's entry, as
    printed nowhere (count 0)."""
    dictionary = tokenize.sudachi_dictionary()
    stems: dict[str, list] = {}
    for surface, (norm, drop, is_light, _count) in sorted(found.items()):
        if drop or not HIRAGANA_WORD_RE.fullmatch(surface) or not _inflects(dictionary, surface, norm, surface):
            continue
        for ending in REPORTED_STEM_ENDINGS:
            stem = surface[:-1] + ending
            if stem and stem not in found and stem not in stems and _inflects(dictionary, stem, norm):
                stems[stem] = [norm, 0, is_light, 0]
    return stems


def _inflects(dictionary, surface: str, norm: str, dictionary_form: str | None = None) -> bool:
    """Whether the dictionary reads `surface` as a verb or an adjective of this normalised form (written
    `dictionary_form` in its dictionary form, if given)."""
    return any(
        morpheme.part_of_speech()[0] in INFLECTING_POS
        and tokenize.normalised(morpheme) == norm
        and (dictionary_form is None or morpheme.dictionary_form() == dictionary_form)
        for morpheme in dictionary.lookup(surface)
    )


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)
