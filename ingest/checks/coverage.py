"""Source lines kept: how much of a verbatim source file the parsed records still hold.

A parser may drop page furniture, but never text. This module measures that, line by line:
a source line is *kept* when every word of it (a run of letters, digits, kana or kanji, after
the normalisation below) occurs in the records made from it:

* in one unit (its title and text read as printed, title then text, its page, plus every
  string or number in its ``attrs``), or in a few units in a row (``WINDOW``): a line the
  conversion ran together (`第66条 トリックの検査****A. 現行のトリック`, two 索引 entries on one
  line) is kept by the units it became;
* or in the units that say they were made from that line (``line``, and attrs such as a 再掲
  reprint's ``repeated_at_lines``: see `provenance`);
* or, for a line printed as a table row, in the rows of ``ParsedDocument.tables`` that record
  that ``line`` (numbers compared by value: ``10.00`` is the row's ``10.0``).

Normalisation is the same on both sides: NFKC, HTML tags, ``\\*`` escapes, footnote markers
(``*12``) and Markdown marks out; structural labels at the start of a line or a tab cell
(``第12条``, ``A.``, ``1.``, ``(a)``, ``①``, ``a)``) out, since records keep them as refs; words
split at spaces and punctuation (the conversion scatters spaces inside Japanese, `1 3トリック`).

Lines that are blank, rules (``---``) or only labels are not counted. `coverage` returns the
rate and every line not kept; what a parser drops on purpose is listed with its reason in
the errata's `not_kept:` lists, and `tests/test_coverage.py` asserts those lists exactly.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from ingest.parsers.records import ParsedDocument, Unit
from ingest.parsers.textclean import strip_any_tags

WINDOW = 2  # units either side of the one holding the line's longest word
TARGET = 0.99

_MARKER_RE = re.compile(r"\*\d*")
_MARKDOWN_RE = re.compile(r"^\s*(?:#{1,6}\s*|[-*+•]\s+|>\s*)")
_LABEL_RE = re.compile(
    r"^\s*(?:第\s*\d+\s*条|[A-Z][.．](?![A-Za-z0-9])|\d+[.．](?!\d)|\((?:[a-z]{1,4}|\d+)\)|[①-⑳]|[a-z]{1,4}\))\s*"
)
_RULE_RE = re.compile(r"^[\s\-=|:_]*$")
# words split where the script changes (Latin / digits / the rest): the conversion glues a page
# number to a title (`プレイされたカード2`) and reads the ○ bullet as a Latin O (`Oディレクター`)
_WORD_RE = re.compile(r"\d+(?:\.\d+)?|[A-Za-z]+|[^\W\dA-Za-z_]+")
# Printed continuation marks the parsers turn into structure (a note or a reprint continued,
# a Law reprinted again: `repeated_at_lines`), not text.
_CONTINUATION_RE = re.compile(r"[（(]\s*(?:[A-H]項)?\s*(?:続く|続き|再掲)\s*[)）]")
# Symbols the conversion spelled as LaTeX commands or misread: compared as the symbol.
_SYMBOLS = {"\\spadesuit": "♠", "\\heartsuit": "♡", "\\diamondsuit": "♢", "\\clubsuit": "♣", "〇": "○"}
_OCR_BULLET_RE = re.compile(r"(?<![A-Za-z])O(?=[\u3040-\u30ff\u3400-\u9fff「『])")  # ○ read as O
# cells of a line: tab-separated columns, and bold headings the conversion ran together
_CELL_SPLIT_RE = re.compile(r"\t|\*{4}")


def known_drops(doc: str, corpus_dir=None) -> dict[int, str]:
    """{line: why no unit keeps it}: the `not_kept:` list of corpus/errata/<doc>.yml. Each is page
    furniture or a conversion artefact with no text of the book in it; tests/test_coverage.py
    asserts these are exactly the lines lost."""
    from ingest.sources.corpus import DEFAULT_CORPUS, errata_section

    return {
        int(entry["line"]): entry["reason"] for entry in errata_section(corpus_dir or DEFAULT_CORPUS, doc, "not_kept")
    }


def normalise(text: str) -> str:
    """What both a source line and a record are compared as (before splitting into words)."""
    text = strip_any_tags(text).replace("\\*", "*").replace("**", "")
    for spelled, symbol in _SYMBOLS.items():
        text = text.replace(spelled, symbol)
    text = _OCR_BULLET_RE.sub("○", text)
    text = _CONTINUATION_RE.sub("", text)
    return _MARKER_RE.sub("", unicodedata.normalize("NFKC", text))


def strip_labels(cell: str) -> str:
    previous = None
    while previous != cell:
        previous = cell
        cell = _LABEL_RE.sub("", _MARKDOWN_RE.sub("", cell))
    return cell


def line_words(line: str) -> list[str]:
    """The words a source line must keep: per tab cell, labels and marks off, split at non-words."""
    words: list[str] = []
    for cell in _CELL_SPLIT_RE.split(line):
        # labels off before NFKC too: it turns ① into 1
        words += _WORD_RE.findall(strip_labels(normalise(strip_labels(strip_any_tags(cell).replace("**", "")))))
    return words


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, (int, float)):
        yield str(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def unit_haystack(unit: Unit) -> str:
    """A unit as printed (title, then text), its page and attrs, spaces out, fields apart."""
    fields = [(unit.title or "") + (unit.text or ""), *_strings(unit.page), *_strings(unit.attrs)]
    return "\x00".join(re.sub(r"\s+", "", normalise(f)) for f in fields)


def provenance(unit: Unit) -> set[int]:
    """The source lines a unit says it was made from: its ``line`` and any ``*line``/``*lines``
    attrs (a 再掲 reprint's ``repeated_at_lines``, an index entry's ``lines``...)."""
    lines = {unit.line} if unit.line else set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, int) and not isinstance(value, bool) and key.endswith(("line", "lines")):
            lines.add(value)

    walk(unit.attrs)
    return lines


def _number(word: str) -> str:
    """`10.00` and `10.0` are the same table value."""
    try:
        value = float(word)
    except ValueError:
        return word
    return repr(int(value)) if value.is_integer() else repr(value)


def _table_words(tables: dict[str, list[dict[str, Any]]]) -> dict[int, set[str]]:
    """Source line -> every word of every table row that records it."""
    by_line: dict[int, set[str]] = {}
    for rows in tables.values():
        for row in rows:
            line = row.get("line")
            if not isinstance(line, int):
                continue
            words = by_line.setdefault(line, set())
            for value in _strings({k: v for k, v in row.items() if k != "line"}):
                for word in _WORD_RE.findall(normalise(value)) + re.findall(r"\d+(?:\.\d+)?", value):
                    words.add(_number(word))
    return by_line


@dataclass
class Coverage:
    doc: str
    counted: int
    kept: int
    lost: list[tuple[int, str]] = field(default_factory=list)  # (line, raw text)

    @property
    def rate(self) -> float:
        return self.kept / self.counted if self.counted else 1.0


def coverage(text: str, document: ParsedDocument, window: int = WINDOW) -> Coverage:
    """Which lines of ``text`` (the source with errata applied) ``document`` keeps."""
    haystacks = [unit_haystack(u) for u in document.units]
    made_from: dict[int, list[int]] = {}
    for index, unit in enumerate(document.units):
        for line in provenance(unit):
            made_from.setdefault(line, []).append(index)
    table_words = _table_words(document.tables)
    result = Coverage(document.doc, 0, 0)
    for number, raw in enumerate(text.split("\n"), start=1):
        if _RULE_RE.match(raw):
            continue
        words = line_words(raw)
        if not words:
            continue
        result.counted += 1
        own = "\x00".join(haystacks[i] for i in made_from.get(number, []))
        if (
            all(w in own for w in words)
            or kept_in_units(words, haystacks, window)
            or kept_in_table(words, table_words.get(number))
        ):
            result.kept += 1
        else:
            result.lost.append((number, raw))
    return result


def kept_in_units(words: list[str], haystacks: list[str], window: int) -> bool:
    longest = max(words, key=len)
    for index, haystack in enumerate(haystacks):
        if longest not in haystack:
            continue
        if all(w in haystack for w in words):
            return True
        around = "\x00".join(haystacks[max(0, index - window) : index + window + 1])
        if all(w in around for w in words):
            return True
    return False


def kept_in_table(words: list[str], row_words: set[str] | None) -> bool:
    return bool(row_words) and all(_number(w) in row_words for w in words)


def unexplained(result: Coverage, corpus_dir=None) -> list[tuple[int, str]]:
    """Lost lines that the errata's `not_kept:` list does not explain."""
    known = known_drops(result.doc, corpus_dir)
    return [(n, raw) for n, raw in result.lost if n not in known]


def coverage_report(pairs: Iterable[tuple[str, ParsedDocument]]) -> list[Coverage]:
    """Coverage of each (text, parsed document), in the order given."""
    return [coverage(text, document) for text, document in pairs]


def corpus_coverage(corpus_dir=None) -> list[Coverage]:
    """Coverage of every document of the corpus (errata applied), in manifest order."""
    from ingest.parsers.documents import parse_document
    from ingest.sources.corpus import DEFAULT_CORPUS, load_sources

    sources = load_sources(corpus_dir or DEFAULT_CORPUS)
    return [coverage(s.text, parse_document(s.id, s.text, s.name)) for s in sources]


def format_coverage(results: list[Coverage]) -> str:
    lines = ["Source lines kept (lines with words / kept / rate; each line lost, with why):"]
    for result in results:
        verdict = "OK" if result.rate >= TARGET else f"BELOW {TARGET:.0%}"
        lines.append(f"  {result.doc:<22} {result.counted:>5} {result.kept:>5}  {result.rate:.1%}  {verdict}")
        for number, raw in result.lost:
            why = known_drops(result.doc).get(number, "NOT EXPLAINED")
            lines.append(f"      line {number}: {raw.strip()[:60]!r} — {why}")
    return "\n".join(lines)
