"""Parser for ``laws-1997-zh``: the Chinese translation of the 1997 Laws, from a web page.

The source is a web-page conversion with one paragraph per line (blank lines mostly, but not
always, between them). Its shape:

* page furniture (breadcrumb, page title, 发布时间, an intro paragraph, the document title);
  kept as one ``preface:web`` unit: intro paragraph as text, the rest in attrs;
* 第一章 定义: a glossary of ``中文(ENGLISH)`` headwords, each followed by its definition;
* 第二章... : chapters, 第一部分 parts and 第一节 sections (kind ``division``), then laws
  ``第N条:title`` with sections ``A.``/``(B)``, items ``1.``, sub-items ``(a)`` and
  sub-sub-items ``(1)``;
* the page stops inside Law 52A (the full code has 93 laws): the last unit is flagged truncated.

Choices (see the tests for each):

* furniture: the breadcrumb and 发布时间 are navigation, so they become attrs of ``preface:web``
  (``breadcrumb``, ``published``), not text; the page title is its title, the line naming the
  Laws is ``document_title``;
* definitions: ref ``def:<Chinese term>``; a term defined twice (宕墩, 奖分) gives ``def:宕墩``
  and ``def:宕墩(2)``, both ``defined_twice``; a twin printed without English borrows its
  twin's (``term_en_from``). ``term_en`` is normalised (spaces, known misspellings), while
  ``term_printed`` keeps the headword line as printed. "(Round)" has no Chinese headword on the
  page: its ref is ``def:Round``, flagged ``term_zh_missing`` (no erratum: we cannot tell what
  the source printed);
* a lettered/numbered line that is a whole sentence (ends with 。) is the unit's text, not its
  title (30C, 43C, 12C3, 32B1);
* text lines that end mid-sentence are joined to the next (the conversion split them); every
  other paragraph stays on its own line;
* Law 2's table goes into the law's text as " | " rows, into attrs["table"], and, because it
  is a genuine board -> dealer/vulnerability table, into tables["board_table_1997"].

Structural refs: parts and divisions restart their numbering in each chapter/part, so their
refs carry the path: ``chapter:5``, ``part:5-2``, ``division:5-2-3`` (unique, and citeable as
"chapter 5, part 2, section 3"). Law refs follow the WBF citation style: ``50``, ``50D``,
``50D2``, ``50D2(a)``, ``25B2(b)(1)`` (sub-sub-items keep the printed ``(1)``).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import NoReturn

from ingest.parsers.records import ParsedDocument, ParseError, Unit
from ingest.parsers.textclean import strip_any_tags

LAST_LAW_OF_THE_CODE = 93  # the 1997 Laws end with Law 93: fewer laws means the page is cut off
DEFINITIONS_TITLE = "定义"
BOARD_TABLE = "board_table_1997"

HAN = "\u4e00-\u9fff"
CN_NUMERAL = "一二三四五六七八九十"

CHAPTER_RE = re.compile(rf"^第([{CN_NUMERAL}]+)章\s*(\S.*)$")
PART_RE = re.compile(rf"^第([{CN_NUMERAL}]+)部分\s+(\S.*)$")
DIVISION_RE = re.compile(rf"^第([{CN_NUMERAL}]+)节\s+(\S.*)$")
# The colon is what makes a heading: a definition may begin "第78条B款..." (no colon).
LAW_RE = re.compile(r"^第(\d+)条\s*[:：]\s*(\S.*)$")
SECTION_RE = re.compile(r"^(?:([A-Z])\.|\(([A-Z])\))\s*(.*)$")
ITEM_RE = re.compile(r"^(\d{1,2})\.\s*(.*)$")
SUBITEM_RE = re.compile(r"^\(([a-z])\)\s*(.*)$")
SUBSUBITEM_RE = re.compile(r"^\((\d{1,2}|[ivx]{1,4})\)\s*(.*)$")
ROMAN_RE = re.compile(r"[ivx]{1,4}")

# Glossary headwords: "藏牌(REVOKE)", "超墩(OVERTRICK)。", "(Round)" (Chinese lost),
# "Premium Point 奖分" (English first), or a bare "将牌" whose "(TRUMP)" is on the next line.
ENGLISH = r"[A-Za-z][A-Za-z \-]*[A-Za-z]"
TERM_ZH_EN_RE = re.compile(rf"^([{HAN}]*)\s*\(({ENGLISH})\)\s*。?$")
TERM_EN_ZH_RE = re.compile(rf"^({ENGLISH})\s+([{HAN}]+)$")
TERM_BARE_RE = re.compile(rf"^[{HAN}]{{1,8}}$")
ENGLISH_ONLY_RE = re.compile(rf"^\(({ENGLISH})\)$")

# Misspelt English headwords, as printed -> as meant (term_printed keeps the printed form).
ENGLISH_TYPOS = {
    "CONTTESTANT": "CONTESTANT",
    "AUTION": "AUCTION",
    "OPENNINGLEAD": "OPENING LEAD",
    "DIDE": "SIDE",
}

# A paragraph ending in one of these is complete; any other ending means the conversion broke
# the line mid-sentence and the next text line continues it.
PARAGRAPH_END = "。!?;:)”！？；：）"

BREADCRUMB_RE = re.compile(r"^所在的位置\s*[:：]\s*(.+)$")
PUBLISHED_RE = re.compile(r"^发布时间\s*[:：]\s*((\d{4})年(\d{1,2})月(\d{1,2})日)$")

DEALERS = {"北家": "N", "东家": "E", "南家": "S", "西家": "W"}
VULNERABILITIES = {"双无": "None", "南北": "NS", "东西": "EW", "双有": "Both"}
BOARDS_PER_CYCLE = 16


# ---------------------------------------------------------------------------------------------
# Cleaning


MARKDOWN_HEADING_RE = re.compile(r"^#{1,6}\s*")
MARKDOWN_EMPHASIS_RE = re.compile(r"\*{1,3}|__")
WHITESPACE_RUN_RE = re.compile(r"\s+")


def strip_markup(line: str) -> str:
    """One line without HTML, Markdown markers or runs of (non-breaking) spaces."""
    line = html.unescape(strip_any_tags(line))
    line = MARKDOWN_EMPHASIS_RE.sub("", MARKDOWN_HEADING_RE.sub("", line.strip()))
    return " ".join(line.split())


def despace(line: str) -> str:
    """Chinese has no word spaces: spaces between Han characters ("定 义", "北 家") are layout."""
    # Whole runs of spaces between two Han characters, what (?<=[HAN])\s+(?=[HAN]) removes, tested
    # in Python: sre compiles a class of the 20,000 Han characters one table entry at a time (1.4 ms).
    return WHITESPACE_RUN_RE.sub(lambda m: "" if between_han(line, m.start(), m.end()) else m.group(), line)


def between_han(line: str, start: int, end: int) -> bool:
    return start > 0 and is_han(line[start - 1]) and is_han(line[end : end + 1])


def is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"  # the range HAN: "" and any other character are not


def clean(line: str) -> str:
    return despace(strip_markup(line))


class TableText(str):
    """A table's readable rows inside a unit's text: never joined to the paragraph around it."""


def join_paragraphs(paragraphs: list[str]) -> str:
    """Paragraphs one per line, except that a paragraph broken mid-sentence is rejoined."""
    text = ""
    previous: str | None = None
    for para in paragraphs:
        broken = (
            previous is not None
            and previous[-1] not in PARAGRAPH_END
            and not isinstance(previous, TableText)
            and not isinstance(para, TableText)
        )
        text += para if broken or previous is None else "\n" + para
        previous = para
    return text


def chinese_number(numeral: str) -> int:
    """一..九十九 as an int (chapter, part and section numbers)."""
    digits = {c: i + 1 for i, c in enumerate(CN_NUMERAL[:9])}
    if "十" not in numeral:
        return digits[numeral]
    tens, _, units = numeral.partition("十")
    return (digits[tens] if tens else 1) * 10 + (digits[units] if units else 0)


# ---------------------------------------------------------------------------------------------
# Tokens: the source as cleaned lines and tables


@dataclass
class Line:
    number: int  # 1-based source line
    spaced: str  # markup stripped, spaces kept: "第一部分 正确的程序" needs its space to be a heading
    text: str  # cleaned


@dataclass
class Table:
    number: int  # source line of the first cell
    columns: list[str]
    rows: list[list[str]]

    def readable(self) -> str:
        return "\n".join(" | ".join(row) for row in [self.columns, *self.rows])

    def as_attr(self) -> dict:
        return {"columns": self.columns, "rows": self.rows}


def tokenize(text: str, source: str) -> list[Line | Table]:
    """Non-empty cleaned lines, with HTML tables folded into ``Table`` tokens.

    The conversion writes a table as one cell per line with no empty line inside it, rows
    separated by a line of (non-breaking) spaces; ordinary paragraphs never look like that.
    """
    raw = text.split("\n")
    tokens: list[Line | Table] = []
    start = 0
    while start < len(raw):
        end = start
        while end < len(raw) and raw[end] != "":
            end += 1
        block = raw[start:end]
        if _is_table_block(block):
            tokens.append(_table(block, start + 1, source))
        else:
            tokens.extend(Line(start + i + 1, strip_markup(r), clean(r)) for i, r in enumerate(block) if clean(r))
        start = end + 1
    return tokens


def _is_table_block(block: list[str]) -> bool:
    separators = [r for r in block if not r.strip()]
    return bool(separators) and len(block) - len(separators) >= 4


def _table(block: list[str], first_line: int, source: str) -> Table:
    rows: list[list[str]] = [[]]
    for raw_cell in block:
        if raw_cell.strip():
            rows[-1].append(clean(raw_cell))
        elif rows[-1]:
            rows.append([])
    rows = [row for row in rows if row]
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ParseError(source, first_line, f"table row {i + 1} has {len(row)} cells; expected {width}")
    return Table(first_line, rows[0], rows[1:])


def boards_by_label(rows: list[list[str]], label_column: int, boards_column: int) -> dict[int, str] | None:
    """{board: label} from cells like "1 5 9 13"; None if a board is listed twice or not a number."""
    found: dict[int, str] = {}
    for row in rows:
        for board in row[boards_column].split():
            if not board.isdigit() or int(board) in found:
                return None
            found[int(board)] = row[label_column]
    return found


def board_rows(table: Table) -> list[dict] | None:
    """Law 2's table as one row per board, if it really is dealer/vulnerability by board.

    The printed table puts two tables side by side: dealer -> boards, vulnerability -> boards.
    It is genuine when each of boards 1-16 has exactly one dealer and one vulnerability.
    """
    if len(table.columns) != 4 or not table.columns[0].startswith("发牌人") or "局况" not in table.columns[2]:
        return None
    dealer = boards_by_label(table.rows, 0, 1)
    vulnerability = boards_by_label(table.rows, 2, 3)
    if dealer is None or vulnerability is None:
        return None
    boards = range(1, BOARDS_PER_CYCLE + 1)
    if sorted(dealer) != list(boards) or sorted(vulnerability) != list(boards):
        return None
    if not set(dealer.values()) <= set(DEALERS) or not set(vulnerability.values()) <= set(VULNERABILITIES):
        return None
    return [
        {
            "board": b,
            "dealer": dealer[b],
            "dealer_en": DEALERS[dealer[b]],
            "vulnerability": vulnerability[b],
            "vulnerability_en": VULNERABILITIES[vulnerability[b]],
        }
        for b in boards
    ]


# ---------------------------------------------------------------------------------------------
# The reader


@dataclass
class Draft:
    """A unit being read, with the paragraphs of its own text."""

    unit: Unit
    paragraphs: list[str] = field(default_factory=list)


class Reader:
    """Reads the token stream in order; one method per kind of line."""

    def __init__(self, doc: str, source: str):
        self.doc = doc
        self.source = source
        self.drafts: list[Draft] = []
        self.refs: set[str] = set()  # of the drafts, as made (refs change only once reading is done)
        self.tables: dict[str, list[dict]] = {}
        # innermost open unit at each level; None when closed
        self.chapter: Draft | None = None
        self.part: Draft | None = None
        self.division: Draft | None = None
        self.law: Draft | None = None
        self.section: Draft | None = None
        self.item: Draft | None = None
        self.subitem: Draft | None = None
        self.subsubitem: Draft | None = None
        self.definition: Draft | None = None
        self.definition_needs_english = False

    # -- helpers ------------------------------------------------------------------------------

    def add(
        self, ref: str, kind: str, line: int, title: str | None = None, parent: Draft | None = None, **attrs
    ) -> Draft:
        unit = Unit(
            doc=self.doc,
            ref=ref,
            kind=kind,
            title=title,
            line=line,
            parent_ref=parent.unit.ref if parent else None,
            attrs=attrs,
        )
        draft = Draft(unit)
        self.drafts.append(draft)
        self.refs.add(ref)
        return draft

    def fail(self, line: int | None, expected: str) -> NoReturn:
        raise ParseError(self.source, line, expected)

    def structural_parent(self) -> Draft | None:
        return self.division or self.part or self.chapter

    def innermost(self) -> Draft | None:
        return (
            self.subsubitem
            or self.subitem
            or self.item
            or self.section
            or self.law
            or self.definition
            or self.structural_parent()
        )

    # -- reading ------------------------------------------------------------------------------

    def read(self, tokens: list[Line | Table]) -> None:
        first_chapter = next(
            (i for i, t in enumerate(tokens) if isinstance(t, Line) and CHAPTER_RE.match(t.spaced)), None
        )
        if first_chapter is None:
            self.fail(None, "expected chapter headings (第一章 定义, 第二章 ...); found none")
        self.read_preface([t for t in tokens[:first_chapter] if isinstance(t, Line)])
        for token in tokens[first_chapter:]:
            if isinstance(token, Table):
                self.read_table(token)
            else:
                self.read_line(token)
        self.mark_truncation()

    def read_preface(self, lines: list[Line]) -> None:
        """Page furniture: navigation and dates go to attrs; the intro paragraph is the text."""
        if not lines:
            return
        attrs: dict = {}
        headings: list[str] = []
        paragraphs: list[str] = []
        for line in lines:
            if m := BREADCRUMB_RE.match(line.text):
                attrs["breadcrumb"] = [part.strip() for part in m.group(1).split(">")]
            elif m := PUBLISHED_RE.match(line.text):
                attrs["published_printed"] = m.group(1)
                attrs["published"] = f"{m.group(2)}-{int(m.group(3)):02d}-{int(m.group(4)):02d}"
            elif line.text[-1] in PARAGRAPH_END or "," in line.text:
                paragraphs.append(line.text)
            else:
                headings.append(line.text)
        if len(headings) > 1:
            attrs["document_title"] = headings[-1]  # the line just above the Laws names them
        preface = self.add("preface:web", "preface", lines[0].number, title=headings[0] if headings else None, **attrs)
        preface.paragraphs = paragraphs

    def read_line(self, line: Line) -> None:
        if m := CHAPTER_RE.match(line.spaced):
            return self.open_chapter(line, m)
        if self.in_definitions():
            return self.read_definition_line(line)
        if m := PART_RE.match(line.spaced):
            return self.open_part(line, m)
        if m := DIVISION_RE.match(line.spaced):
            return self.open_division(line, m)
        text = line.text
        for pattern, opener in (
            (LAW_RE, self.open_law),
            (SECTION_RE, self.open_section),
            (ITEM_RE, self.open_item),
            (SUBITEM_RE, self.open_subitem),
            (SUBSUBITEM_RE, self.open_subsubitem),
        ):
            if m := pattern.match(text):
                return opener(line, m)
        self.add_text(line, text)

    def read_table(self, table: Table) -> None:
        holder = self.innermost()
        if holder is None or self.in_definitions():
            self.fail(table.number, "a table inside a law")
        holder.paragraphs.append(TableText(table.readable()))
        holder.unit.attrs["table"] = table.as_attr()
        rows = board_rows(table)
        if rows is not None:
            if BOARD_TABLE in self.tables:
                self.fail(table.number, "one board table (Law 2); found a second")
            self.tables[BOARD_TABLE] = rows

    def add_text(self, line: Line, text: str) -> None:
        holder = self.innermost()
        if holder is None:
            self.fail(line.number, "text inside a chapter")
        holder.paragraphs.append(text)

    # -- structure ----------------------------------------------------------------------------

    def close_law(self) -> None:
        self.law = self.section = self.item = self.subitem = self.subsubitem = None

    def open_chapter(self, line: Line, m: re.Match) -> None:
        number = chinese_number(m.group(1))
        # an excerpt may start at any chapter; after that they must run on
        expected = self.chapter.unit.attrs["number"] + 1 if self.chapter else number
        if number != expected:
            self.fail(line.number, f"chapter {expected}; found chapter {number} (out of order or repeated)")
        self.close_law()
        self.part = self.division = self.definition = None
        self.chapter = self.add(f"chapter:{number}", "chapter", line.number, **self.heading(m, number, "章"))

    def open_part(self, line: Line, m: re.Match) -> None:
        number = chinese_number(m.group(1))
        self.close_law()
        self.division = None
        chapter = self.chapter.unit.attrs["number"]
        self.part = self.add(
            f"part:{chapter}-{number}", "part", line.number, parent=self.chapter, **self.heading(m, number, "部分")
        )

    def open_division(self, line: Line, m: re.Match) -> None:
        number = chinese_number(m.group(1))
        self.close_law()
        path = [self.chapter.unit.attrs["number"]]
        if self.part:
            path.append(self.part.unit.attrs["number"])
        ref = "division:" + "-".join(map(str, [*path, number]))
        self.division = self.add(
            ref, "division", line.number, parent=self.part or self.chapter, **self.heading(m, number, "节")
        )

    @staticmethod
    def heading(m: re.Match, number: int, counter: str) -> dict:
        """Title and attrs of a chapter/part/division heading."""
        heading = {"title": despace(m.group(2)), "number": number, "number_printed": f"第{m.group(1)}{counter}"}
        if heading["title"] != m.group(2):
            heading["title_printed"] = m.group(2)  # "定 义": letter-spaced on the page
        return heading

    def open_law(self, line: Line, m: re.Match) -> None:
        number = int(m.group(1))
        # an excerpt may start at any law; after that each law must follow the one before
        previous = max((d.unit.attrs["number"] for d in self.drafts if d.unit.kind == "law"), default=number - 1)
        if number != previous + 1:
            problem = "repeated" if number <= previous else "out of order"
            self.fail(line.number, f"Law {previous + 1} after Law {previous}; found Law {number} ({problem})")
        self.close_law()
        self.law = self.add(
            str(number), "law", line.number, title=m.group(2), parent=self.structural_parent(), number=number
        )

    def open_section(self, line: Line, m: re.Match) -> None:
        if not self.law:
            self.fail(line.number, "a law heading (第N条:) before section " + line.text)
        letter = m.group(1) or m.group(2)
        printed = f"{letter}." if m.group(1) else f"({letter})"
        self.section = self.open_numbered(
            line, f"{self.law.unit.ref}{letter}", "section", self.law, m.group(3), letter=letter, label_printed=printed
        )
        self.item = self.subitem = self.subsubitem = None

    # An item needs its section and a sub-item its item: "50" + item 2 would read as Law 502.
    def open_item(self, line: Line, m: re.Match) -> None:
        if not self.section:
            self.fail(line.number, "a section (A.) before item " + line.text)
        number = int(m.group(1))
        self.item = self.open_numbered(
            line,
            f"{self.section.unit.ref}{number}",
            "item",
            self.section,
            m.group(2),
            number=number,
            label_printed=f"{m.group(1)}.",
        )
        self.subitem = self.subsubitem = None

    def open_subitem(self, line: Line, m: re.Match) -> None:
        if self.is_roman_subsubitem(m.group(1)):
            return self.open_subsubitem(line, m)
        if not self.item:
            self.fail(line.number, "an item (1.) before sub-item " + line.text)
        label = m.group(1)
        self.subitem = self.open_numbered(
            line,
            f"{self.item.unit.ref}({label})",
            "subitem",
            self.item,
            m.group(2),
            label=label,
            label_printed=f"({label})",
        )
        self.subsubitem = None

    def open_subsubitem(self, line: Line, m: re.Match) -> None:
        if not self.subitem:
            # "(1)" with no (a) above it is not a level of its own: keep it as text
            return self.add_text(line, line.text)
        label = m.group(1)
        self.subsubitem = self.open_numbered(
            line,
            f"{self.subitem.unit.ref}({label})",
            "subsubitem",
            self.subitem,
            m.group(2),
            label=label,
            label_printed=f"({label})",
        )

    def is_roman_subsubitem(self, label: str) -> bool:
        """ "(i)" under "(a)" is a sub-sub-item; "(i)" after "(h)" is the next sub-item."""
        if not self.subitem or not ROMAN_RE.fullmatch(label):
            return False
        previous = self.subitem.unit.attrs["label"]
        return not (len(label) == 1 and ord(label) == ord(previous) + 1)

    def open_numbered(self, line: Line, ref: str, kind: str, parent: Draft, rest: str, **attrs) -> Draft:
        """A lettered/numbered unit. Its rest of line is a title, unless it is a whole sentence
        ("C.当越序不叫为约定性叫牌时,...。"), in which case it is the unit's text."""
        if ref in self.refs:
            self.fail(line.number, f"a new {kind}; found {ref} a second time")
        is_sentence = rest.endswith("。")
        draft = self.add(
            ref, kind, line.number, title=None if is_sentence or not rest else rest, parent=parent, **attrs
        )
        if is_sentence:
            draft.paragraphs.append(rest)
        return draft

    # -- definitions --------------------------------------------------------------------------

    def in_definitions(self) -> bool:
        return bool(self.chapter) and self.chapter.unit.title == DEFINITIONS_TITLE

    def read_definition_line(self, line: Line) -> None:
        text = line.text
        if self.definition_needs_english and (m := ENGLISH_ONLY_RE.match(text)):
            self.definition_needs_english = False
            return self.set_english(m.group(1), text)
        self.definition_needs_english = False
        if m := TERM_ZH_EN_RE.match(text):
            return self.open_definition(line, m.group(1) or None, m.group(2))
        if m := TERM_EN_ZH_RE.match(text):
            return self.open_definition(line, m.group(2), m.group(1))
        if TERM_BARE_RE.match(text) and self.definition_has_text():
            # a bare headword: its "(ENGLISH)" may follow on the next line
            self.definition_needs_english = True
            return self.open_definition(line, text, None)
        if not self.definition:
            self.fail(line.number, "a defined term such as 藏牌(REVOKE) before definition text")
        self.definition.paragraphs.append(text)

    def definition_has_text(self) -> bool:
        return self.definition is None or bool(self.definition.paragraphs)

    def open_definition(self, line: Line, term: str | None, english: str | None) -> None:
        attrs: dict = {"term": term, "term_printed": line.text}
        if english:
            attrs["term_en"] = normalise_english(english)
        if not term:
            attrs["term_zh_missing"] = True  # "(Round)": the page prints no Chinese headword
        self.definition = self.add(
            "def:" + (term or english), "definition", line.number, title=term or english, parent=self.chapter, **attrs
        )

    def set_english(self, english: str, printed: str) -> None:
        attrs = self.definition.unit.attrs
        attrs["term_en"] = normalise_english(english)
        attrs["term_printed"] += printed

    # -- after the last line ------------------------------------------------------------------

    def mark_truncation(self) -> None:
        """The page stops before Law 93, mid-sentence or under a bare heading: flag the unit it
        stops in and the units above it up to the law, so nobody takes the fragment for the law."""
        last_law = self.law
        if not last_law or last_law.unit.attrs["number"] >= LAST_LAW_OF_THE_CODE:
            return
        last_paragraphs = self.drafts[-1].paragraphs
        if last_paragraphs and last_paragraphs[-1][-1] in PARAGRAPH_END:
            return
        by_ref = {d.unit.ref: d for d in self.drafts}
        draft: Draft | None = self.drafts[-1]
        while draft is not None:
            draft.unit.attrs["truncated"] = True
            if draft is last_law:
                break
            draft = by_ref.get(draft.unit.parent_ref)

    def units(self) -> list[Unit]:
        for draft in self.drafts:
            draft.unit.text = join_paragraphs(draft.paragraphs)
        units = [d.unit for d in self.drafts]
        mark_twice_defined(units)
        return units


def normalise_english(printed: str) -> str:
    english = " ".join(printed.split())
    return ENGLISH_TYPOS.get(english, english)


def mark_twice_defined(units: list[Unit]) -> None:
    """A term defined twice keeps both: ``def:宕墩`` and ``def:宕墩(2)``, both flagged. A twin
    printed without English borrows the other's, so every definition has an English term."""
    by_term: dict[str, list[Unit]] = {}
    for unit in units:
        if unit.kind == "definition":
            by_term.setdefault(unit.ref, []).append(unit)
    for ref, twins in by_term.items():
        if len(twins) == 1:
            continue
        english = next((u.attrs["term_en"] for u in twins if "term_en" in u.attrs), None)
        for n, unit in enumerate(twins, start=1):
            if n > 1:
                unit.ref = f"{ref}({n})"
            unit.attrs["defined_twice"] = True
            if "term_en" not in unit.attrs and english:
                unit.attrs["term_en"] = english
                unit.attrs["term_en_from"] = twins[0].ref


def parse(text: str, doc: str, source: str) -> ParsedDocument:
    reader = Reader(doc, source)
    reader.read(tokenize(text, source))
    units = reader.units()
    refs = [u.ref for u in units]
    duplicates = sorted({r for r in refs if refs.count(r) > 1})
    if duplicates:
        first = next(u for u in units if u.ref == duplicates[0])
        raise ParseError(source, first.line, f"unique refs; found {', '.join(duplicates)} more than once")
    return ParsedDocument(doc=doc, units=units, tables=reader.tables)
