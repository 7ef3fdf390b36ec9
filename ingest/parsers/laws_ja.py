"""Parser for `laws-2017-ja`: the JCBL translation of the Laws of Duplicate Bridge 2017.

The file is a PDF conversion. Its parts, in order: title page, the WBF and JCBL prefaces, the
目次 (table of contents), the WBF introduction, 前書き (with 【日本語版注】), 定義 (65 definitions),
Laws 1-93 with footnotes at the foot of their pages, and the 索引 (term index).

How the body is read (see `LawBodyParser`):
- Page furniture is dropped: running headers (`## <part name>` with or without `---`), `---`
  rules. Each running header marks a page break; pages are resynchronised from the 目次.
- Footnote texts (`<sup>\\*2</sup> ...`, `\\*1 ...`) leave the flow and become `fn:<n>` units; the
  marker stays in the carrying unit's text as `*<n>`.
- Structure is recognised by numbering in sequence, not by heading marks (the conversion uses
  `##`, `###`, `####`, `**bold**`, list bullets and plain lines for the same level): a law heading is
  `第N条` with N the next law; a section `A.` with the next letter; an item `1.` with the next
  number; a sub-item `(a)`; a sub-sub-item `(i)`. Titles are checked against the 目次.
- A sentence split by a page break, a footnote or a line wrap is joined again: a paragraph
  that ends mid-sentence (on a kana/kanji or 、) continues on the next plain line.

Refs: laws `61`, sections `61B`, items `61B2`, sub-items `61B2(a)`, sub-sub-items `40B2(a)(v)`;
`def:<term>`, `fn:<n>` (`fn:ja-<law>` for the unnumbered 【日本語版注】 notes), `toc:<ref>`,
`part:<n>`, `preface:wbf`, `preface:jcbl`, `preface:laws-2017`, `introduction`,
`introduction/ja-note`, `definitions`, `front-matter`, and the index (`index:...`, see
`ingest.parsers.laws_ja_index`).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from ingest.parsers.records import ParsedDocument, ParseError, Unit
from ingest.parsers.textclean import (
    BULLET_RE,
    HEADING_MARK_RE,
    clean_inline,
    close_conversion_spaces,
    is_japanese,
    normalise_spaces,
    strip_bold,
    strip_tags,
    unescape_markers,
)

LAW_COUNT = 93
ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"]

# Landmarks that split the file into its parts (matched on the raw line).
TOC_START_RE = re.compile(r"^#\s*目次\s*$")
WBF_PREFACE_RE = re.compile(r"^##\s*デュプリケートブリッジの規則 2017年版への序文")
JCBL_PREFACE_RE = re.compile(r"^##\s*デュプリケートブリッジの規則 2017年版日本語版への序文")
LAWS_INTRO_RE = re.compile(r"^##\s*2017年版デュプリケートブリッジの\s*規則への前書き")
INTRODUCTION_RE = re.compile(r"^##\s*前書き\s*$")
JA_NOTE_RE = re.compile(r"^#+\s*【日本語版注】\s*$")
DEFINITIONS_RE = re.compile(r"^###\s*定義\s*$")
FIRST_LAW_RE = re.compile(r"^#+\s*第\s*1\s*条")
INDEX_RE = re.compile(r"^##\s*索引")

FOOTNOTE_DEF_RE = re.compile(r"^\s*(?:<sup>)?\\?\*(\d*)(?:</sup>)?\s+(.*)$")
MARKER_RE = re.compile(r"\*(\d*)")  # footnote markers: *12, or a bare * (【日本語版注】)
LAW_HEADING_RE = re.compile(r"^第\s*(\d+)\s*条\s*(.*)$")
SECTION_RE = re.compile(r"^([A-Z])\.\s*(.*)$")
ITEM_RE = re.compile(r"^(\d+)\.\s*(.*)$")
PAREN_RE = re.compile(r"^\(([a-z]+)\)(?:\s+(.*))?$")
TOC_ROW_RE = re.compile(r"^(?:第\s*(\d+)\s*条|([A-Z])\.)\s*(.*?)\s*(\d+)$")
DEFINITION_HEAD_RE = re.compile(r"^(?P<term>[^()（）「」]+?)\s*\((?P<en>[^)]*)\)\s*(?P<rest>.*)$")


# ---------------------------------------------------------------------------------------------
# Lines


@dataclass
class Line:
    """A source line with what the conversion marked on it."""

    number: int
    raw: str
    text: str  # clean text: tags, escapes, heading/bold/bullet marks and conversion spaces removed
    marked: bool  # had heading marks or was wholly bold: the book sets it as a heading
    hard_break: bool  # ends with a Markdown hard break (two spaces): the book breaks the line here
    bullet: bool = False  # a Markdown list item (`- A. ...`): the book prints it as a list entry
    after_blank: bool = False  # a blank line (or page furniture) stands between it and the last text


_BOLD_LINE_RE = re.compile(r"\s*[-]?\s*\*\*.+\*\*\s*")


def make_line(number: int, raw: str, after_blank: bool = False) -> Line:
    body = unescape_markers(strip_tags(raw))
    marked = bool(HEADING_MARK_RE.match(body)) or bool(_BOLD_LINE_RE.fullmatch(body))
    hard_break = raw.endswith("  ") and raw.strip() != ""
    bullet = bool(BULLET_RE.match(body))
    body = HEADING_MARK_RE.sub("", body)
    body = BULLET_RE.sub("", body)
    body = close_conversion_spaces(strip_bold(body)).strip()
    return Line(number, raw, body, marked, hard_break, bullet, after_blank)


def split_doubled_bold(raw_lines: list[str]) -> list[tuple[int, str]]:
    """`**第66条 トリックの検査****A. 現行のトリック**` is two headings run together."""
    out = []
    for number, raw in enumerate(raw_lines, start=1):
        if "****" in raw:
            for piece in raw.split("****"):
                piece = piece.strip("*").strip()
                if piece:
                    out.append((number, f"**{piece}**"))
        else:
            out.append((number, raw))
    return out


_RULE_RE = re.compile(r"\s*-{3,}\s*")


def is_rule(raw: str) -> bool:
    return bool(_RULE_RE.fullmatch(raw))


# ---------------------------------------------------------------------------------------------
# Table of contents


@dataclass
class TocEntry:
    ref: str
    title: str
    page: int
    line: int
    part: str | None


def parse_toc(lines: list[tuple[int, str]]) -> tuple[list[TocEntry], list[tuple[str, int, int]]]:
    """Rows of the 目次 (laws and their sections with pages) and its part headings.

    Returns (entries, parts) where parts are (part title, line, first law number).
    """
    entries: list[TocEntry] = []
    parts: list[tuple[str, int, int | None]] = []
    law: str | None = None
    part: str | None = None
    pending_part: tuple[str, int] | None = None
    for number, raw in lines:
        text = strip_tags(raw).replace("\t", " ")
        heading = re.match(r"^#{2,3}\s*(.+?)\s*$", text)
        if heading:
            pending_part = (heading.group(1), number)
            continue
        text = re.sub(r"\s*(?:\.{3,}|…+)\s*", " ", text).strip()
        row = TOC_ROW_RE.match(text)
        if not row:
            continue
        law_no, letter, title, page = row.groups()
        title = normalise_spaces(title)
        if law_no:
            law = str(int(law_no))
            if pending_part:
                part = pending_part[0]
                parts.append((part, pending_part[1], int(law)))
                pending_part = None
            entries.append(TocEntry(law, title, int(page), number, part))
        elif law:
            entries.append(TocEntry(f"{law}{letter}", title, int(page), number, part))
    return entries, parts


def toc_units(doc: str, entries: list[TocEntry], line: int) -> list[Unit]:
    units = [Unit(doc, "toc", "toc", title="目次", line=line)]
    for entry in entries:
        units.append(
            Unit(
                doc,
                f"toc:{entry.ref}",
                "toc_entry",
                title=entry.title,
                parent_ref="toc",
                page=entry.page,
                line=entry.line,
                attrs={"target_ref": entry.ref, "part": entry.part},
            )
        )
    return units


# ---------------------------------------------------------------------------------------------
# Paragraph assembly (shared by prefaces, definitions and law units)


def append_text(unit: Unit, text: str, line: Line | None = None, prose: bool = False) -> None:
    """Add a line to a unit's text, joining a sentence the conversion broke.

    In prose (prefaces, introduction) a blank line or a list bullet always starts a new line:
    those parts print names, dates and lists one per line, and no sentence runs over a page.
    """
    if not text:
        return
    starts_anew = prose and line is not None and (line.after_blank or line.bullet)
    if unit.text and not starts_anew and joins_previous(unit, text, line):
        unit.text += text
    else:
        unit.text = f"{unit.text}\n{text}" if unit.text else text
    unit.attrs["_open"] = not (line and line.marked) and "\t" not in text
    unit.attrs["_hard_break"] = bool(line and line.hard_break)


def ends_open(text: str) -> bool:
    """Does `text` stop on kana, a kanji, 、, ー or 第 (before a final newline too)? What the
    pattern [\u3040-\u30ff\u3400-\u9fff、ー第]$ finds, without compiling it: sre fills one table
    entry per character of the class's 27,000 ideographs, ~2 ms at every start."""
    last = text[-2:-1] if text.endswith("\n") else text[-1:]  # `$` matches before a final newline
    return bool(last) and (is_japanese(last) or last in "、ー第")


def joins_previous(unit: Unit, text: str, line: Line | None) -> bool:
    """Does `text` continue the sentence `unit.text` ends with?"""
    if not unit.attrs.get("_open", True) or "\t" in text:
        return False
    if line is not None and line.marked:
        return False
    if cannot_start_sentence(unit.text, text):
        return True  # 「間違っ⏎てプレイした」, 「説明期間【…】⏎の後、」: a break inside a sentence
    if unit.attrs.get("_hard_break"):
        return False  # `7を超えるビッド⏎第38条を適用する。`: the book breaks the line here
    return ends_open(unit.text) and not text.startswith("・") or (unit.text.endswith("第") and text[:1].isdigit())


# A line cannot open a sentence when it starts with a particle or a counter, or when the line
# before stops on a small っ/ッ (`間違っ` / `てプレイした`): the conversion broke it mid-sentence.
_PARTICLE_START_RE = re.compile(r"^(?:[のてでをにがへ](?![\u3040-\u309f]{0,1}[、。])|回以上|回目|枚)")


def cannot_start_sentence(before: str, text: str) -> bool:
    if before.endswith(("。", "：", ":")):
        return False
    if text.startswith(("(", "（")) and not PAREN_RE.match(text):
        return True  # `…しなければならない⏎(第16条B項1(a)参照)。`: the sentence's own parenthesis
    return (
        before.endswith(("っ", "ッ"))
        or bool(_PARTICLE_START_RE.match(text))
        and (not text.startswith(("回", "枚")) or before[-1:].isdigit())
    )


def finish(units: list[Unit]) -> None:
    for unit in units:
        unit.attrs.pop("_open", None)
        unit.attrs.pop("_hard_break", None)
        unit.text = unit.text.strip()
        rows = [line.split("\t") for line in unit.text.split("\n") if "\t" in line]
        if rows:
            # tab-separated lines are the book's tables (Law 2's boards, Law 77's scores)
            unit.attrs["table"] = [[cell.strip() for cell in row] for row in rows]


# ---------------------------------------------------------------------------------------------
# Front matter, prefaces, introduction


def prose_unit(
    doc: str,
    ref: str,
    kind: str,
    title: str | None,
    lines: list[tuple[int, str]],
    page: int | None = None,
    parent: str | None = None,
    running_headers: frozenset[str] = frozenset(),
) -> Unit:
    """Front matter, a preface or the introduction: paragraphs, list entries, names one a line."""
    unit = Unit(doc, ref, kind, title=title, parent_ref=parent, page=page, line=lines[0][0] if lines else None)
    blank = True
    for number, raw in lines:
        if is_rule(raw) or not raw.strip() or is_running_header(raw, running_headers):
            blank = True
            continue
        line = make_line(number, raw, after_blank=blank)
        # `委員 \xa0\xa0\xa0\xa0ロバート・ゲラー`: the signature's column layout, one space is enough
        append_text(unit, re.sub(r"[ \xa0]{2,}", " ", line.text), line, prose=True)
        blank = False
    return unit


# ---------------------------------------------------------------------------------------------
# Definitions


def parse_definitions(
    doc: str, lines: list[tuple[int, str]], page: int, running_headers: set[str], source: str
) -> list[Unit]:
    units: list[Unit] = []
    current: Unit | None = None
    for number, raw in lines:
        if not raw.strip() or is_rule(raw) or is_running_header(raw, running_headers):
            if is_running_header(raw, running_headers):
                page += 1
            continue
        line = make_line(number, raw)
        head = DEFINITION_HEAD_RE.match(line.text) if line.marked or raw.lstrip().startswith("**") else None
        if head:
            current = definition_unit(doc, head, number, page)
            units.append(current)
        elif current is None:
            raise ParseError(source, number, "expected a definition heading such as `#### アナー (Honor)`")
        else:
            append_text(current, line.text, line)
    for unit in units:
        meanings = re.findall(r"^\d+\.\s*(.+)$", unit.text, flags=re.M)
        if meanings:
            unit.attrs["meanings"] = meanings
    return units


def english_words(printed: str) -> str:
    """The English of a heading's parenthesis without the Japanese around it: `Event または Tournament`
    -> `Event or Tournament`, `Psychic Call: 一般に「サイキック」または「サイク」` -> `Psychic Call`."""
    english = printed.split(":")[0].replace("または", " or ")
    return " ".join(english.split())


def definition_unit(doc: str, head: re.Match, number: int, page: int) -> Unit:
    term = head.group("term").strip()
    rest = head.group("rest").strip()
    attrs = {"term": term, "term_en": head.group("en").strip()}
    plain = english_words(attrs["term_en"])
    if plain != attrs["term_en"]:
        attrs["term_en_plain"] = plain  # the English alone, for an English reader
    if rest:
        attrs["see_also"] = re.findall(r"「([^」]+)」", rest)
        attrs["heading_note"] = rest
    return Unit(
        doc, f"def:{term}", "definition", title=term, parent_ref="definitions", page=page, line=number, attrs=attrs
    )


_RUNNING_HEADER_RE = re.compile(r"^##\s+(.+?)\s*$")


def is_running_header(raw: str, running_headers: set[str]) -> bool:
    match = _RUNNING_HEADER_RE.match(raw)
    return bool(match) and match.group(1) in running_headers


# ---------------------------------------------------------------------------------------------
# Laws


@dataclass
class Cursor:
    """Where we are in the hierarchy: the last unit at each level of the current law."""

    law: Unit | None = None
    section: Unit | None = None
    item: Unit | None = None
    subitem: Unit | None = None
    subsubitem: Unit | None = None
    part: str | None = None
    closing: Unit | None = None  # the Law's closing paragraph, printed after its sections

    def deepest(self) -> Unit | None:
        return self.closing or self.subsubitem or self.subitem or self.item or self.section or self.law


@dataclass
class LawBodyParser:
    doc: str
    source: str
    toc: dict[str, TocEntry]
    part_of_law: dict[int, str]
    running_headers: set[str]
    units: list[Unit] = field(default_factory=list)
    footnotes: list[Unit] = field(default_factory=list)
    cursor: Cursor = field(default_factory=Cursor)
    page: int | None = None
    law_number: int = 0
    after_blank: bool = False
    inline_bullet_sections: set[str] = field(default_factory=set)  # `- B. <its whole text>` lines
    inline_items: set[str] = field(default_factory=set)  # `1. <its whole sentence>。` lines

    # -- entry point ------------------------------------------------------------------------
    def parse(self, lines: list[tuple[int, str]]) -> list[Unit]:
        units = self.read(lines)
        if self.law_number != LAW_COUNT:
            raise ParseError(
                self.source,
                lines[-1][0] if lines else None,
                f"expected {LAW_COUNT} laws, found {self.law_number} (next expected: 第{self.law_number + 1}条)",
            )
        return units

    def read(self, lines: list[tuple[int, str]]) -> list[Unit]:
        """Laws, their parts and footnotes from body lines (any excerpt that starts at a law)."""
        for number, raw in lines:
            self.feed(number, raw)
        self.anchor_footnotes()
        finish(self.units + self.footnotes)
        return self.units + self.footnotes

    def feed(self, number: int, raw: str) -> None:
        if not raw.strip() or is_rule(raw):
            self.after_blank = True
            return
        if is_running_header(raw, self.running_headers):
            self.page = (self.page or 0) + 1
            self.after_blank = True
            return
        footnote = FOOTNOTE_DEF_RE.match(raw)
        if footnote and self.cursor.law is not None:
            self.add_footnote(number, footnote.group(1), footnote.group(2))
            return
        line = make_line(number, raw, after_blank=self.after_blank)
        self.after_blank = False
        if line.text:
            self.structure(line)

    # -- structure ----------------------------------------------------------------------------
    def structure(self, line: Line) -> None:
        text = line.text
        law = LAW_HEADING_RE.match(text)
        if law and int(law.group(1)) == self.law_number + 1 and self.is_law_heading(line, law):
            self.start_law(line, int(law.group(1)), law.group(2))
            return
        if law and line.marked and int(law.group(1)) <= self.law_number:
            raise ParseError(
                self.source,
                line.number,
                f"heading 第{law.group(1)}条 again (expected 第{self.law_number + 1}条 or text of 第{self.law_number}条)",
            )
        if self.cursor.law is None:
            raise ParseError(self.source, line.number, "expected the heading 第1条 before any law text")
        section = SECTION_RE.match(text)
        if section and section.group(1) == self.next_section_letter():
            self.start_section(line, section.group(1), section.group(2))
            return
        item = ITEM_RE.match(text)
        if item and int(item.group(1)) == self.next_item_number():
            self.start_item(line, int(item.group(1)), item.group(2))
            return
        paren = PAREN_RE.match(text)
        if paren and self.start_paren(line, paren.group(1), paren.group(2) or ""):
            return
        if self.closes_wrapped_title(line):
            return
        if self.closes_law(line):
            self.start_closing(line)
            return
        if self.closes_section(line):
            self.start_closing(line, self.cursor.section)
            return
        append_text(self.cursor.deepest(), text, line)

    def closes_law(self, line: Line) -> bool:
        """A paragraph after a list of sections each printed whole on its bullet line (`- A. …`,
        `- B. …。`), set off by a blank line, is the Law's own closing sentence (Law 71: `ボードの
        スコアは…付け直す。`), not more of the last section."""
        unit = self.cursor.deepest()
        return (
            line.after_blank
            and not line.marked
            and not line.bullet
            and unit is self.cursor.section
            and unit.ref in self.inline_bullet_sections
            and unit.text.endswith("。")
            and not cannot_start_sentence(unit.text, line.text)
        )

    def closes_section(self, line: Line) -> bool:
        """After a section's list of items, each a whole sentence on its own numbered line, a
        paragraph set off by a blank line that speaks of the list (上記) closes the section
        (69B: `1. …場合。` `2. …場合。` ⏎ `ボードのスコアは上記のトリックを加減して付け直す。`)."""
        unit, section = self.cursor.deepest(), self.cursor.section
        if not (
            line.after_blank
            and not line.marked
            and not line.bullet
            and section is not None
            and unit is self.cursor.item
            and unit.ref in self.inline_items
            and "上記" in line.text
        ):
            return False
        items = [u for u in self.units if u.parent_ref == section.ref and u.kind == "item"]
        return all(u.ref in self.inline_items for u in items) and not cannot_start_sentence(unit.text, line.text)

    def start_closing(self, line: Line, parent: Unit | None = None) -> None:
        """`71/closing` (a Law's closing paragraph after its sections) or `69B/closing` (a
        section's after its items)."""
        parent = parent or self.cursor.law
        unit = Unit(
            self.doc,
            f"{parent.ref}/closing",
            "closing",
            parent_ref=parent.ref,
            page=self.page,
            line=line.number,
            attrs={"after": self.cursor.deepest().ref},
        )
        self.units.append(unit)
        self.cursor.closing = unit
        append_text(unit, line.text, line)

    def closes_wrapped_title(self, line: Line) -> bool:
        """`- C. ...間違` / `った順番の...` / `した場合**`: a bold title wrapped over three lines."""
        unit = self.cursor.deepest()
        raw = line.raw.rstrip()
        if not (raw.endswith("**") and raw.count("**") == 1 and unit.kind == "section" and unit.title):
            return False
        unit.title += unit.text.replace("\n", "") + line.text
        unit.text = ""
        unit.attrs["_open"] = False
        return True

    def is_law_heading(self, line: Line, match: re.Match) -> bool:
        """A 第N条 line is the next law's heading if set as a heading or titled as in the 目次."""
        if line.marked:
            return True
        toc = self.toc.get(match.group(1))
        return bool(toc) and normalise_spaces(match.group(2)).startswith(toc.title)

    def next_section_letter(self) -> str:
        last = self.cursor.section
        return "A" if last is None else chr(ord(last.attrs["letter"]) + 1)

    def next_item_number(self) -> int:
        return 1 if self.cursor.item is None else self.cursor.item.attrs["number"] + 1

    # -- unit creation ----------------------------------------------------------------------
    def new_unit(self, ref: str, kind: str, parent: Unit | None, line: Line, title: str | None, attrs: dict) -> Unit:
        toc = self.toc.get(ref)
        if toc:
            self.page = toc.page
        title, markers = title_markers(title or "")
        if markers:
            attrs["title_footnotes"] = markers
        unit = Unit(
            self.doc,
            ref,
            kind,
            title=title or None,
            parent_ref=parent.ref if parent else None,
            page=self.page,
            line=line.number,
            attrs=attrs,
        )
        self.units.append(unit)
        return unit

    def start_law(self, line: Line, number: int, rest: str) -> None:
        self.law_number = number
        part = self.part_of_law.get(number)
        unit = self.new_unit(str(number), "law", None, line, rest, {"number": number})
        unit.parent_ref = f"part:{part}" if part else None
        self.cursor = Cursor(law=unit)

    def start_section(self, line: Line, letter: str, rest: str) -> None:
        law = self.cursor.law
        ref = f"{law.ref}{letter}"
        title, text = self.split_title(ref, rest, line)
        unit = self.new_unit(ref, "section", law, line, title, {"letter": letter})
        append_text(unit, text, line)
        if line.bullet and text:
            self.inline_bullet_sections.add(ref)
        self.cursor = Cursor(law=law, section=unit)

    def split_title(self, ref: str, rest: str, line: Line) -> tuple[str | None, str]:
        """Separate a section's title from text run onto the same line (第36条A項).

        A Law whose 目次 row lists none of its sections prints them untitled: `- A. 第53条に
        定めるとおり、…または、` (56A, 71A) is the section's text, however short.
        """
        toc = self.toc.get(ref)
        if toc and normalise_spaces(rest).startswith(toc.title) and normalise_spaces(rest) != toc.title:
            cut = title_prefix_length(rest, toc.title)
            title, text = rest[:cut].strip(), rest[cut:].strip()
            if re.fullmatch(r"(?:\*\d*\s*)+", text):
                return rest, ""  # `…発見した場合*4`: the footnote marker belongs to the title
            return title, text
        if self.sections_untitled(ref) or rest.endswith("、"):
            return None, rest
        if line.marked or toc or (rest and not rest.endswith("。") and len(rest) <= 40 and not line.hard_break):
            return rest, ""
        return None, rest

    def sections_untitled(self, ref: str) -> bool:
        law = self.cursor.law.ref
        return law in self.toc and not any(f"{law}{letter}" in self.toc for letter in string.ascii_uppercase)

    def start_item(self, line: Line, number: int, rest: str) -> None:
        parent = self.cursor.section or self.cursor.law
        ref = f"{parent.ref}{number}"
        title = None
        # a heading is the item's title, unless it is a lead-in to a list (75B3 `### 3. プレイヤのパートナー：`)
        if line.marked and not rest.endswith(("。", "：", ":")):
            title, rest = rest, ""
        unit = self.new_unit(ref, "item", parent, line, title, {"number": number})
        self.cursor = Cursor(law=self.cursor.law, section=self.cursor.section, item=unit)
        self.continue_inline(line, unit, rest)
        if rest.endswith("。") and not line.marked:
            self.inline_items.add(ref)

    def start_paren(self, line: Line, label: str, rest: str) -> bool:
        """(a) is a sub-item, (i) a sub-sub-item; (i) after (h) is the sub-item i."""
        cursor = self.cursor
        if (
            label in ROMAN
            and cursor.subitem is not None
            and self.next_roman() == label
            and not (self.next_subitem_letter() == label and self.subitem_is_complete())
        ):
            parent = cursor.subitem
            unit = self.new_unit(f"{parent.ref}({label})", "subsubitem", parent, line, None, {"label": label})
            cursor.subsubitem = unit
            self.continue_inline(line, unit, rest)
            return True
        if len(label) == 1 and label == self.next_subitem_letter():
            parent = cursor.item or cursor.section or cursor.law
            unit = self.new_unit(f"{parent.ref}({label})", "subitem", parent, line, None, {"label": label})
            cursor.subitem, cursor.subsubitem = unit, None
            self.continue_inline(line, unit, rest)
            return True
        return False

    def subitem_is_complete(self) -> bool:
        """A sub-item with text not ending in a colon has no list of its own to open."""
        text = self.cursor.subitem.text.rstrip()
        return bool(text) and not text.endswith(("：", ":"))

    def next_subitem_letter(self) -> str:
        last = self.cursor.subitem
        return "a" if last is None else chr(ord(last.attrs["label"]) + 1)

    def next_roman(self) -> str:
        last = self.cursor.subsubitem
        return "i" if last is None else ROMAN[ROMAN.index(last.attrs["label"]) + 1]

    def continue_inline(self, line: Line, unit: Unit, rest: str) -> None:
        """`2. (a) ダミーは...` opens a sub-item on the item's own line."""
        paren = PAREN_RE.match(rest)
        if paren and self.start_paren(line, paren.group(1), paren.group(2) or ""):
            return
        append_text(unit, rest, line)

    # -- footnotes ----------------------------------------------------------------------------
    def add_footnote(self, number: int, label: str, text: str) -> None:
        """Footnote texts sit at the foot of a page; `*` alone is a 【日本語版注】 note (named later)."""
        ref = f"fn:{label}" if label else f"fn:ja@{number}"
        unit = Unit(
            self.doc,
            ref,
            "footnote",
            title=f"*{label}" if label else "*",
            text=clean_inline(text),
            page=self.page,
            line=number,
            attrs={"label": label or "*"},
        )
        self.footnotes.append(unit)

    def anchor_footnotes(self) -> None:
        """Link each footnote to the unit whose text or title carries its marker.

        Numbered markers are unique, so the first carrier is the anchor. A bare `*` is reused
        by every 【日本語版注】, so its anchor is the last carrier before the note's own line;
        the note is then named after that unit's law (`fn:ja-22`).
        """
        carriers_of = marker_carriers(self.units)  # one pass over the units, not one per footnote
        for footnote in self.footnotes:
            label = footnote.attrs["label"]
            carriers = carriers_of.get(label, [])
            if label == "*":
                carriers = [u for u in carriers if u.line < footnote.line][-1:]
            if not carriers:
                raise ParseError(self.source, footnote.line, f"footnote *{label} has no marker in the text")
            anchor = carriers[0]
            footnote.parent_ref = anchor.ref
            footnote.attrs["anchor_ref"] = anchor.ref
            if label == "*":
                footnote.ref = f"fn:ja-{law_of(anchor.ref)}"


def marker_carriers(units: list[Unit]) -> dict[str, list[Unit]]:
    """Footnote label (`2`, or `*` for a bare star) -> the units carrying it, in reading order."""
    carriers: dict[str, list[Unit]] = {}
    for unit in units:
        labels = set(MARKER_RE.findall(unit.text)) | set(unit.attrs.get("title_footnotes", []))
        for label in labels:
            carriers.setdefault(label or "*", []).append(unit)
    return carriers


def law_of(ref: str) -> str:
    return re.match(r"\d+", ref).group(0)


def title_markers(title: str) -> tuple[str, list[str]]:
    """A heading such as `カードの過不足*2` carries footnote 2: the title is the words alone
    (`カードの過不足`; a marker glued to it reads like "×2" wherever a title is shown) and the
    labels are listed apart (`title_footnotes`), for the page to show the footnote and for anchoring."""
    markers = re.findall(r"\*(\d*)", title)
    return re.sub(r"\s*\*\d*", "", title).strip(), [m or "*" for m in markers]


def title_prefix_length(text: str, title: str) -> int:
    """Length of the prefix of `text` that spells `title` when spaces are ignored."""
    seen = 0
    for index, char in enumerate(text):
        if not char.isspace():
            seen += 1
        if seen == len(title):
            return index + 1
    return len(text)


# ---------------------------------------------------------------------------------------------
# Whole document


def find_line(lines: list[tuple[int, str]], pattern: re.Pattern, source: str, what: str, start: int = 0) -> int:
    for index in range(start, len(lines)):
        if pattern.match(lines[index][1]):
            return index
    last = lines[-1][0] if lines else None
    raise ParseError(source, last, f"file ends here without {what} (is the file truncated?)")


def parse(text: str, doc: str, source: str) -> ParsedDocument:
    lines = split_doubled_bold(text.split("\n"))
    at = {
        "wbf": find_line(lines, WBF_PREFACE_RE, source, "the WBF preface heading"),
        "jcbl": find_line(lines, JCBL_PREFACE_RE, source, "the JCBL preface heading"),
        "toc": find_line(lines, TOC_START_RE, source, "the 目次 heading `# 目次`"),
    }
    at["laws_intro"] = find_line(lines, LAWS_INTRO_RE, source, "the introduction to the 2017 Laws", at["toc"])
    at["intro"] = find_line(lines, INTRODUCTION_RE, source, "the 前書き heading", at["laws_intro"])
    at["ja_note"] = find_line(lines, JA_NOTE_RE, source, "the 【日本語版注】 of the 前書き", at["intro"])
    at["definitions"] = find_line(lines, DEFINITIONS_RE, source, "the 定義 heading `### 定義`", at["ja_note"])
    at["laws"] = find_line(lines, FIRST_LAW_RE, source, "the heading of 第1条", at["definitions"])
    at["index"] = find_line(lines, INDEX_RE, source, "the 索引 heading", at["laws"])

    toc_entries, parts = parse_toc(lines[at["toc"] + 1 : at["laws_intro"]])
    if not toc_entries:
        raise ParseError(source, lines[at["toc"]][0], "expected rows such as `第1条<TAB>パック<TAB>12` in the 目次")
    toc = {entry.ref: entry for entry in toc_entries}
    running_headers = {title for title, _, _ in parts} | {"定義", "前書き"}
    law_parts = [(title, first) for title, _, first in parts if first is not None]

    furniture = frozenset(running_headers)
    units: list[Unit] = [
        prose_unit(
            doc,
            "front-matter",
            "front_matter",
            "デュプリケートブリッジの規則 2017年版",
            lines[: at["wbf"]],
            running_headers=furniture,
        )
    ]
    units.append(
        prose_unit(
            doc,
            "preface:wbf",
            "preface",
            heading_text(lines[at["wbf"]][1]),
            lines[at["wbf"] + 1 : at["jcbl"]],
            running_headers=furniture,
        )
    )
    units.append(
        prose_unit(
            doc,
            "preface:jcbl",
            "preface",
            heading_text(lines[at["jcbl"]][1]),
            lines[at["jcbl"] + 1 : at["toc"]],
            running_headers=furniture,
        )
    )
    units += toc_units(doc, toc_entries, lines[at["toc"]][0])
    intro_page = page_of_toc_row(lines[at["toc"] : at["laws_intro"]], "前書き")
    units.append(
        prose_unit(
            doc,
            "preface:laws-2017",
            "preface",
            heading_text(lines[at["laws_intro"]][1]),
            lines[at["laws_intro"] + 1 : at["intro"]],
            page=intro_page,
            running_headers=furniture,
        )
    )
    units.append(
        prose_unit(
            doc,
            "introduction",
            "introduction",
            "前書き",
            lines[at["intro"] + 1 : at["ja_note"]],
            page=intro_page,
            running_headers=furniture,
        )
    )
    # the note runs up to the 定義 chapter; `## 定義` + `---` before it is that page's running header
    units.append(
        prose_unit(
            doc,
            "introduction/ja-note",
            "introduction_note",
            "【日本語版注】",
            lines[at["ja_note"] + 1 : at["definitions"]],
            page=intro_page,
            parent="introduction",
            running_headers=furniture,
        )
    )
    units[-1].line = lines[at["ja_note"]][0]

    definitions_page = page_of_toc_row(lines[at["toc"] : at["laws_intro"]], "定義")
    units.append(
        Unit(doc, "definitions", "chapter", title="定義", page=definitions_page, line=lines[at["definitions"]][0])
    )
    units += parse_definitions(
        doc, lines[at["definitions"] + 1 : at["laws"]], definitions_page or 0, running_headers, source
    )

    part_units, part_of_law = build_parts(doc, law_parts, toc)
    body = LawBodyParser(doc, source, toc, part_of_law, running_headers)
    law_units = body.parse(lines[at["laws"] : at["index"]])
    units += interleave_parts(part_units, law_units)
    units += parse_index_section(lines[at["index"] :], doc, source)

    finish(units)
    check_unique(units, source)
    return ParsedDocument(doc=doc, units=units, tables={"toc": toc_table(toc_entries)})


def heading_text(raw: str) -> str:
    return clean_inline(HEADING_MARK_RE.sub("", raw))


def page_of_toc_row(lines: list[tuple[int, str]], label: str) -> int | None:
    for _, raw in lines:
        match = re.match(rf"^{label}\t\s*(\d+)", raw)
        if match:
            return int(match.group(1))
    return None


def build_parts(doc: str, law_parts: list[tuple[str, int]], toc: dict[str, TocEntry]):
    """Part headings come only from the 目次 (the body shows them as running headers)."""
    part_units: list[tuple[int, Unit]] = []
    part_of_law: dict[int, str] = {}
    bounds = [first for _, first in law_parts] + [LAW_COUNT + 1]
    for index, (title, first) in enumerate(law_parts, start=1):
        entry = toc.get(str(first))
        unit = Unit(
            doc,
            f"part:{index}",
            "part",
            title=title,
            page=entry.page if entry else None,
            line=entry.line if entry else None,
            attrs={"first_law": first, "last_law": bounds[index] - 1},
        )
        part_units.append((first, unit))
        for law in range(first, bounds[index]):
            part_of_law[law] = str(index)
    return part_units, part_of_law


def interleave_parts(part_units: list[tuple[int, Unit]], law_units: list[Unit]) -> list[Unit]:
    """Put each part unit just before its first law, so units stay in reading order."""
    firsts = {str(first): unit for first, unit in part_units}
    out = []
    for unit in law_units:
        if unit.kind == "law" and unit.ref in firsts:
            out.append(firsts[unit.ref])
        out.append(unit)
    return out


def parse_index_section(lines: list[tuple[int, str]], doc: str, source: str) -> list[Unit]:
    from ingest.parsers.laws_ja_index import parse_index  # the 索引 has its own module (two print formats)

    return parse_index([raw for _, raw in lines], lines[0][0], doc, source)


def toc_table(entries: list[TocEntry]) -> list[dict]:
    return [{"ref": e.ref, "title": e.title, "page": e.page, "part": e.part, "line": e.line} for e in entries]


def check_unique(units: list[Unit], source: str) -> None:
    seen: dict[str, Unit] = {}
    for unit in units:
        if unit.ref in seen:
            raise ParseError(source, unit.line, f"duplicate unit {unit.ref!r} (first at line {seen[unit.ref].line})")
        seen[unit.ref] = unit
