"""Table `search_neighbours(word, neighbour, source, rank)`: the words the corpus prints for a word it never
prints, so that a situation told in everyday words reaches the Laws' words (issue 36, item 1).

- source `synonym`: SudachiDict's synonym groups (corpus/synonyms.csv, the rows of kind `synonym` of
  search_expansions): ジャッジ -> 裁定;
- source `form`: for a word the corpus prints, the other forms of the same word in its SudachiDict synonym
  group that it prints too, spelt with the same kanji (間違える -> 間違い, 間違う; 答える -> 答え): a
  situation told with 間違えた reaches the Laws' スコアの間違い; read in a sentence only (words.py); and a
  noun that is a verb's continuative form reads as that verb where the corpus prints both (言い直し: 言い直す;
  continuative_pairs); and a native word reads as the Sino-Japanese noun of its group that begins with its kanji
  and that the Laws print far more often (終わる -> 終了; sino_japanese_pairs);
- source `vocabulary`: a Japanese word of the director vocabulary's `spoken` forms that the corpus never
  prints, one word as a query is cut into it, reads as the entry's own terms of the Laws (corpus/vocabulary.yml,
  judged by reading the Laws): コンシード -> 取られの宣言, ヘジテーション -> 躊躇; first, as hand-judged;
- source `vector`: the nearest corpus words by chiVe's word vectors (corpus/neighbours.tsv, made by
  python -m ingest.search.make_neighbours at build time only; search never loads a model): 躊躇い -> 躊躇.

`word` is a search token as a query is cut into (laws_site/search/words.py), `neighbour` the search
tokens of a word the Japanese units print (space-joined), `rank` its place among the word's neighbours
(synonyms first, then the vectors' nearest first). Search offers the neighbours as alternatives of the
query's word (a unit printing any of them covers it); the lexicon holds the words and their inflected
stems (`inflected_surfaces`), so that 引っ込めたい is cut into the word at all.
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.parsers.records import ParseError
from ingest.search.lexicon import STEM_ENDINGS, corpus_words
from ingest.sources.corpus import tab_separated_lines
from ingest.text import tokenize

COLUMNS = {"word": str, "neighbour": str, "source": str, "rank": int}
SCHEMA = (COLUMNS, {"pk": ("word", "neighbour")})
NEIGHBOURS_FILE = "neighbours.tsv"
MAX_NEIGHBOURS = 3  # per word: more would make the word as common as its commonest neighbour
LEADING_KANJI_RE = re.compile(r"[\u3400-\u9fff々]+")  # a word's kanji before its okurigana
KANJI_NOUN_RE = re.compile(r"[\u3400-\u9fff々]{2,}")  # a word of kanji only, two or more (終了, 選択)
# how many times as often the Laws print the noun as the native word for it to be their way of saying it
# (終了 132 times, 終わる 4; not 変更 35 and 変える 20: the Laws say both, and a Chinese sentence read as 変える
# reached 変更's units first)
NOUN_OUTNUMBERS = 5


def read_neighbours(path: Path) -> list[tuple[str, str, float]]:
    """corpus/neighbours.tsv: (word, neighbour, cosine) in the file's order; a bad line is a ParseError."""
    found = []
    for number, line, fields in tab_separated_lines(path):
        problem = ParseError(str(path), number, f"expected `word<TAB>neighbour<TAB>cosine` (-1 to 1), got {line!r}")
        try:
            word, neighbour, cosine = fields[0], fields[1], float(fields[2])
        except (IndexError, ValueError):
            raise problem from None
        if len(fields) != 3 or not word or not neighbour or not -1.0 <= cosine <= 1.0:  # nan is no cosine
            raise problem
        found.append((word, neighbour, cosine))
    return found


def neighbour_rows(
    vector_pairs: list[tuple[str, str, float]],
    synonym_rows: list[dict],
    synonym_tokens: dict[str, str],
    printed: set[str],
    form_pairs: list[tuple[str, str]] = (),
    vocabulary_pairs: list[tuple[str, str]] = (),
) -> list[dict]:
    """The table's rows: for each one-token word, the vocabulary's, its synonyms' then its vectors'
    neighbours that the Japanese units print (all their tokens), at most MAX_NEIGHBOURS; the vectors' for a
    word the vocabulary reads, none. `synonym_tokens`:
    each synonym word's search tokens (corpus/synonyms.csv); `vocabulary_pairs`: `spoken_pairs`."""
    pairs: list[tuple[str, str, str]] = [(word, terms, "vocabulary") for word, terms in vocabulary_pairs]
    for row in synonym_rows:
        target = synonym_tokens.get(row["term"], "")
        pairs.append((row["key"], target, "synonym"))
    pairs += [(word, form, "form") for word, form in form_pairs]
    # a word the vocabulary reads (judged by reading the Laws) takes no vector guesses: わざと is the Laws' 故意,
    # and chiVe's nearest printed word, 人為的, is the Laws' artificial score (人為的調整スコア), another sense
    reviewed = {word for word, _ in vocabulary_pairs}
    for word, neighbour, _ in vector_pairs:
        if search_form(word) not in reviewed:
            pairs.append((search_form(word), search_form(neighbour), "vector"))
    rows: dict[str, list[dict]] = {}
    for word, neighbour, source in pairs:
        if " " in word or not neighbour or not set(neighbour.split()) <= printed:
            continue
        if word in printed and source != "form":
            continue
        kept = rows.setdefault(word, [])
        if len(kept) < MAX_NEIGHBOURS and all(row["neighbour"] != neighbour for row in kept):
            kept.append({"word": word, "neighbour": neighbour, "source": source, "rank": len(kept)})
    return [row for word in sorted(rows) for row in rows[word]]


def spoken_pairs(entries: list[tuple[list[str], list[str]]]) -> list[tuple[str, str]]:
    """(a spoken word as a query is cut into it, the search tokens of one of the entry's Japanese terms) for
    each Japanese spoken form of the director vocabulary that is one word: a run of katakana (コンシード,
    ミスインフォ: one clause of a query, its words joined) or one content word (長考). Chinese (罚牌, 没听清)
    and English spoken forms are left out: the translation of their sentence reads them.
    entries: (the entry's ja terms, its spoken forms)."""
    pairs = []
    for terms, spoken in entries:
        phrases = [" ".join(norm for _, norm in printed_words(term)) for term in terms]
        for form in spoken:
            key = spoken_key(form) if is_japanese(form) else None
            pairs += [(key, phrase) for phrase in phrases if key and phrase]
    return pairs


def is_japanese(form: str) -> bool:
    """Written with kana, or in kanji as a word of SudachiPy's dictionary (長考, 審判; not 罚牌 or 犹豫)."""
    if tokenize.KANA_RE.search(form):
        return True
    return bool(tokenize.HAN_RE.search(form)) and any(True for _ in tokenize.sudachi_dictionary().lookup(form))


def spoken_key(form: str) -> str | None:
    """The clause a query holding `form` is cut into (one word, or one run of katakana words joined:
    tokenize.query_clauses, as laws_site/search/words.py cuts it); None for a phrase of several words."""
    clauses = tokenize.query_clauses(form, "ja")
    return clauses[0][0] if len(clauses) == 1 else None


def printed_words(text: str) -> list[tuple[str, str]]:
    """(surface, search token) of a term's words as the index holds them in a text (its phrase)."""
    tokens, offsets = tokenize.index_tokens_and_offsets(text, "ja")
    return corpus_words(text, tokens, offsets)


def word_form_pairs(groups: dict[str, list[tuple[str, str, str]]]) -> list[tuple[str, str]]:
    """(word, another form of it) of each SudachiDict synonym group (corpus/synonyms.csv: group -> (flag,
    word, search tokens)): two one-token members whose tokens begin with the same kanji (間違い, 間違う,
    間違える share 間違; 誤り and ミス do not): the same word noun or verb, transitive or not."""
    pairs = []
    for members in groups.values():
        tokens = list(dict.fromkeys(key for _, _, key in members if key and " " not in key))
        for word in tokens:
            stem = LEADING_KANJI_RE.match(word)
            for form in tokens:
                if stem and form != word and (LEADING_KANJI_RE.match(form) or [None])[0] == stem[0]:
                    pairs.append((word, form))
    return pairs


def sino_japanese_pairs(
    groups: dict[str, list[tuple[str, str, str]]], printed: dict[str, int]
) -> list[tuple[str, str]]:
    """(native word, Sino-Japanese noun) of each SudachiDict synonym group (corpus/synonyms.csv): a one-token
    word written kanji then kana (終わる, 拒む) and a one-token noun of kanji only that begins with the word's
    kanji (終了, 拒否), which the Laws print at least NOUN_OUTNUMBERS times as often (`printed`: the index's
    token counts): a director says 「オークションが終わった後で」 where the Laws print 「オークション終了後」 (the
    索引's entry for Law 39) and 「ラウンドが終了する前に」 (74C8). Read in a sentence only, as `word_form_pairs`."""
    pairs = []
    for members in groups.values():
        tokens = list(dict.fromkeys(key for _, _, key in members if key and " " not in key))
        for word in tokens:
            stem = LEADING_KANJI_RE.match(word)
            if not stem or stem[0] == word:
                continue
            for noun in tokens:
                if (
                    KANJI_NOUN_RE.fullmatch(noun)
                    and noun.startswith(stem[0])
                    and noun != stem[0]
                    and printed.get(noun, 0) >= NOUN_OUTNUMBERS * max(printed.get(word, 0), 1)
                ):
                    pairs.append((word, noun))
    return pairs


def continuative_pairs(printed: set[str]) -> list[tuple[str, str]]:
    """(noun, verb) of each noun the corpus prints that SudachiDict also reads as the
    continuative form (連用形) of a verb the corpus prints, written alike, kanji then kana, the verb's leading
    kanji its own (言い直し and 言い直す; 申し立て and 申し立てる; not 周り and 回る): "change my call", read as
    コールの言い直し, reaches 21B1(a) 「そのコールを言い直すことができる」. A compound verb's only (two kanji
    or more): a noun of one kanji has a sense of its own (取り of 取りの宣言, a claim, is no 取る, to win)."""
    dictionary = tokenize.sudachi_dictionary()
    pairs = []
    for word in sorted(printed):
        stem = LEADING_KANJI_RE.match(word)
        if not stem or not tokenize.KANA_RE.search(word[-1]) or len(tokenize.HAN_RE.findall(word)) < 2:
            continue
        readings = list(dictionary.lookup(word))
        if not any(m.part_of_speech()[0] == "名詞" and search_form(tokenize.normalised(m)) == word for m in readings):
            continue
        if any(m.part_of_speech()[0] == "形容詞" for m in readings):
            continue
        verbs = {
            search_form(tokenize.normalised(m))
            for m in readings
            if m.part_of_speech()[0] == "動詞" and m.part_of_speech()[5].startswith("連用形")
        }
        for verb in sorted(verbs):
            if verb != word and verb in printed and (LEADING_KANJI_RE.match(verb) or [None])[0] == stem[0]:
                pairs.append((word, verb))
    return pairs


def search_form(word: str) -> str:
    """A normalised form as the index folds it (case, katakana variants)."""
    return tokenize.fold_katakana(tokenize.fold(word))


def inflected_surfaces(words: list[str]) -> dict[str, str]:
    """{surface: search form}: each word as written, and the stems of its inflected forms (引っ込め,
    落とさ, 遅かっ) that the dictionary reads as that word; a query cuts them out of 引っ込めたい."""
    dictionary = tokenize.sudachi_dictionary()
    found: dict[str, str] = {}
    for word in words:
        form = search_form(word)
        found.setdefault(word, form)
        for ending in STEM_ENDINGS:
            stem = word[:-1] + ending
            if stem and stem not in found and _reads_as(dictionary, stem, form):
                found[stem] = form
    return found


def _reads_as(dictionary, surface: str, word: str) -> bool:
    return any(
        tokenize.normalised(morpheme) == word and morpheme.part_of_speech()[0] not in tokenize.QUERY_DROPPED_POS
        for morpheme in dictionary.lookup(surface)
    )
