"""Parser for ``jcbl-regs-ja``: the JCBL tournament regulations 競技会運営規則.

``parse(text, doc, source) -> ParsedDocument``; pure, no database.

Units (kind, ref) in document order:

- ``preface`` ``history``: title, publisher and the enactment/revision lines
  (``attrs["revisions"]``: one dict per printed line: date, event, effective date, line).
- ``chapter`` ``chapter:<n>``: title = the chapter name (``総則``); ``attrs`` number and
  the printed label (``第1章``).
- ``article`` ``1``..``51``: title = the parenthesised caption printed before it, without
  the parentheses; ``attrs["number"]``. An article printed without a caption (第30条) has
  ``title=None`` and ``attrs["uncaptioned"] = True``. The article's text is its first,
  unnumbered paragraph. ``line`` is the line of ``第N条``.
- ``paragraph`` ``<article>-<n>`` for ``(2)``, ``(3)``...: there is no ``<article>-1`` unit,
  paragraph 1 is the article itself.
- ``item`` ``<article>-<paragraph>-<k>``: the paragraph number is always present, so an item
  of the first paragraph is ``21-1-1`` and its parent is the article ``21``. Markers ``1.``,
  ``①``, ``a)``, ``i)``, ``1)`` and ``・`` are items; a marker style already open in the
  paragraph makes a sibling, a new style nests one level deeper (the conversion's Markdown
  indentation is unreliable, the marker styles are not). Nested refs append the item's key:
  circled and parenthesised numbers by their value, letters and roman numerals as printed,
  ``・`` bullets by position: ``25-4-1-1-a`` is a) under ① under 1. of paragraph (4).
  ``attrs``: label as printed, depth, and ``cells`` where the item was printed as a table row.
- A paragraph or item whose marker line is a short heading (``(2) 採点方式``) followed by
  more text or by sub-items has that heading as ``title``; its ``text`` is the rest.
- ``toc`` ``toc:appendices`` and ``toc:appendix-<n>``: the printed list of appendices.
- ``preface`` ``history:appendices``: the appendices' own revision lines.
- ``appendix`` ``appendix-1``..``appendix-7``: title = the name (``各種VPスケール``);
  ``attrs`` number and printed label (``付表1``). Inside: paragraphs ``appendix-<n>-<k>``
  (printed ``(1)``...), items ``appendix-<n>-<k>-<j>`` as in articles, and the printed
  tables of appendix 1 as ``table`` units ``appendix-1-table-<k>``. Appendix 2 is one table.
  A table's column headings as printed (``Boards``, board counts, ``IMPs VPs``) are
  ``attrs["header_rows"]`` (``[{"line", "cells"}]``) of its table unit (of appendix-2 for 付表2).

Tables (``ParsedDocument.tables``), each row with ``line`` (source line) and the ref of the
unit that prints it:

- ``vp_scales``: IMP margin -> VP. scale (``wbf`` continuous, ``wbf-integer``), scale_title,
  boards, imp_min, imp_max (NULL = and above), vp_winner, vp_loser, appendix, table_ref, line.
  The continuous WBF scale prints only the winner's VP; the loser's is 20 - winner.
- ``vp_scales_swiss_pairs``: match-point percentage -> VP (EBU Swiss pairs).
- ``vp_scales_board_a_match``: total-point margin -> VP (B-a-M + VP).
- ``board_a_match_points``: Win/Tie/Lose -> points.
- ``handicap``: seed points (sp_min, sp_max) -> handicap.
- ``minimum_tables`` (第7条), ``minimum_boards`` (第8条), ``board_a_match_averages`` (第25条3項),
  ``board_penalties`` (第44条), each row with the ``item_ref`` of the item that prints it.

Text is cleaned: Markdown list/table marks, ``#``, ``**``, HTML tags and ``$$`` go; LaTeX
formulas become plain text in ``text`` (``M = (N × S) / n``) and are kept as printed in
``attrs["formulas"]`` (``[{"tex", "text", "line"}]``, for a page to typeset); lines the
conversion split in mid-sentence are joined. References such as ``第23条2項`` are left exactly as printed. Letter-spaced
abbreviations and numbers the conversion broke (``J C B L``, ``3. 25``) are fixed in
``corpus/errata/jcbl-regs-ja.yml``, not here.

Known limits: the conversion dropped indentation, so an unmarked line printed after a list
(``スキップビッドの予告は...`` in 付表5(2)) is attached to the last item before it; Markdown
table rows become items whose ``cells`` keep the columns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ingest.parsers.records import ParsedDocument, ParseError, Unit
from ingest.parsers.textclean import strip_any_tags

# --------------------------------------------------------------------------------------------
# Line patterns
# --------------------------------------------------------------------------------------------
CHAPTER_RE = re.compile(r"^第(\d+)章\s*(.+)$")
ARTICLE_RE = re.compile(r"^第(\d+)条\s*(.*)$")
CAPTION_RE = re.compile(r"^\((?!\d+\))(.+)\)$")
APPENDIX_RE = re.compile(r"^付表\s*(\d+)\s+(.+)$")
APPENDIX_LIST_HEADING = "付表"
APPENDIX_HISTORY_RE = re.compile(r"^.+\s付表$")
LIST_MARK_RE = re.compile(r"^\s*(?:[-*+]\s+)+")
PARAGRAPH_RE = re.compile(r"^\((\d+)\)\s*(.*)$")
REVISION_RE = re.compile(r"^(\d{4})年\s*(\d{1,2})月\s*(\d{1,2})日[、,]?\s*(.*)$")
EFFECTIVE_RE = re.compile(r"(\d{1,2})月\s*(\d{1,2})日施行")

CIRCLED_NUMBERS = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
ITEM_PATTERNS: list[tuple[str, re.Pattern]] = [
    ("decimal", re.compile(r"^(\d+)\.(?!\d)\s*(.*)$")),
    ("circled", re.compile(rf"^([{CIRCLED_NUMBERS}])\s*(.*)$")),
    ("paren-decimal", re.compile(r"^(\d+)\)\s*(.*)$")),
    ("letter", re.compile(r"^([a-z]{1,4})\)\s*(.*)$")),
]
BULLET_RE = re.compile(r"^・\s*(.*)$")
ROMAN_NUMERALS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]

# A marker line this short, not ending a sentence, is printed as a heading.
HEADING_MAX_CHARS = 40
# The PDF's lines hold about 40 characters: a line at least this long that stops without
# sentence-final punctuation was cut by the conversion, and the next line continues it.
WRAPPED_LINE_MIN_CHARS = 30
SENTENCE_END = tuple("。．.!?！？」』）)：:")


# --------------------------------------------------------------------------------------------
# Inline cleaning
# --------------------------------------------------------------------------------------------
HEADING_MARK_RE = re.compile(r"^\s*#{1,6}\s+")
FORMULA_RE = re.compile(r"\$\$(.+?)\$\$")
LATEX_SYMBOLS = {
    "times": "×",
    "cdot": "·",
    "div": "÷",
    "pm": "±",
    "leq": "≤",
    "geq": "≥",
    "neq": "≠",
    "le": "≤",
    "ge": "≥",
    "quad": " ",
    ",": " ",
    ";": " ",
}


_SPACES_RE = re.compile(r" {2,}")


def clean_printed(text: str) -> str:
    """One line of printed text without the conversion's markup (formulas as readable text)."""
    text = HEADING_MARK_RE.sub("", text)
    text = strip_any_tags(text).replace("**", "")
    text = FORMULA_RE.sub(lambda m: latex_to_text(m.group(1)), text)
    text = text.replace("\t", " ")
    return _SPACES_RE.sub(" ", text).strip()


def latex_to_text(tex: str) -> str:
    """A readable plain-text form of the simple LaTeX the conversion wrote for formulas.

    Handles ``\\text``, ``\\frac``, ``\\sqrt`` and operator symbols; a fraction's numerator or
    denominator gets parentheses unless it is a single term. (pylatexenc renders
    ``\\frac{N \\times S}{n}`` as ``N × S/n``, losing the grouping.)
    """
    text, _ = _latex_sequence(tex, 0, closing=None)
    return re.sub(r"\s{2,}", " ", text).strip()


def _latex_sequence(tex: str, i: int, closing: str | None) -> tuple[str, int]:
    out: list[str] = []
    while i < len(tex):
        ch = tex[i]
        if ch == closing:
            return "".join(out), i + 1
        if ch == "{":
            group, i = _latex_sequence(tex, i + 1, "}")
            out.append(group)
        elif ch == "\\":
            rendered, i = _latex_command(tex, i + 1)
            out.append(rendered)
        else:
            out.append(ch)
            i += 1
    return "".join(out), i


def _latex_command(tex: str, i: int) -> tuple[str, int]:
    match = re.compile(r"[A-Za-z]+|.").match(tex, i)
    name, i = match.group(0), match.end()
    if name in ("text", "mathrm", "textrm", "mbox", "operatorname"):
        return _latex_argument(tex, i)
    if name == "frac":
        numerator, i = _latex_argument(tex, i)
        denominator, i = _latex_argument(tex, i)
        return f"{_grouped(numerator)} / {_grouped(denominator)}", i
    if name == "sqrt":
        radicand, i = _latex_argument(tex, i)
        return f"√{_grouped(radicand)}", i
    if name in ("left", "right"):
        return "", i
    return LATEX_SYMBOLS.get(name, name), i


def _latex_argument(tex: str, i: int) -> tuple[str, int]:
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i < len(tex) and tex[i] == "{":
        return _latex_sequence(tex, i + 1, "}")
    return (tex[i], i + 1) if i < len(tex) else ("", i)


def _grouped(term: str) -> str:
    term = term.strip()
    single_term = re.fullmatch(r"[^\s+\-−×·/*]+", term) and not re.search(r"\d[A-Za-z]", term)
    return term if single_term else f"({term})"


@dataclass
class Fragment:
    """One source line of a unit, cleaned. A formula line is whole: nothing runs on from it."""

    text: str
    whole: bool = False
    formulas: list[dict[str, Any]] = field(default_factory=list)


def source_fragment(raw: str, line: int | None = None) -> Fragment:
    """A formula is kept twice: as printed (the conversion's LaTeX, for a page to typeset) in
    ``formulas``, and as a readable line of text (`M = (N × S) / n + (N-n) / (2n)`)."""
    formulas = [
        {"tex": m.group(1).strip(), "text": latex_to_text(m.group(1)), "line": line} for m in FORMULA_RE.finditer(raw)
    ]
    return Fragment(clean_printed(raw), whole="$$" in raw, formulas=formulas)


def join_fragments(fragments: list[Fragment]) -> str:
    """Join a unit's source lines: a line cut by the conversion runs on, others keep a break."""
    text, previous = "", None
    for fragment in fragments:
        if previous is None:
            text = fragment.text
        elif was_cut(previous):
            text += fragment.text
        else:
            text += "\n" + fragment.text
        previous = fragment
    return text


def was_cut(fragment: Fragment) -> bool:
    line = fragment.text
    return not fragment.whole and len(line) >= WRAPPED_LINE_MIN_CHARS and not line.endswith(SENTENCE_END)


# --------------------------------------------------------------------------------------------
# Front matter
# --------------------------------------------------------------------------------------------
def parse_revision(line_no: int, line: str) -> dict[str, Any] | None:
    """``2004年 4月 1日第9条、第42条改訂`` -> date, event, effective date."""
    match = REVISION_RE.match(line)
    if not match:
        return None
    year, month, day, event = match.groups()
    revision = {
        "date": f"{int(year):04d}-{int(month):02d}-{int(day):02d}",
        "event": event,
        "text": line,
        "line": line_no,
    }
    effective = EFFECTIVE_RE.search(event)
    if effective:
        revision["effective"] = f"{int(year):04d}-{int(effective[1]):02d}-{int(effective[2]):02d}"
    return revision


def history_unit(doc: str, ref: str, lines: list[tuple[int, str]]) -> Unit:
    """A title line, then plain lines and revision lines."""
    (title_line, title), rest = lines[0], lines[1:]
    revisions = [r for r in (parse_revision(n, t) for n, t in rest) if r]
    return Unit(
        doc=doc,
        ref=ref,
        kind="preface",
        title=title,
        line=title_line,
        text="\n".join(t for _, t in rest),
        attrs={"revisions": revisions},
    )


# --------------------------------------------------------------------------------------------
# Structure: articles / appendices, paragraphs, items
# --------------------------------------------------------------------------------------------
@dataclass
class Marker:
    """One classified source line that opens a paragraph or an item."""

    kind: str  # "paragraph" or "item"
    style: str  # item marker style; "paragraph" for paragraphs
    label: str  # as printed: "(2)", "1.", "①", "a)", "・"
    key: str  # its part of the ref
    text: str
    cells: list[str] | None = None


@dataclass
class Pending:
    """A unit being built: its source fragments and how many children it got."""

    unit: Unit
    fragments: list[Fragment] = field(default_factory=list)
    heading_candidate: bool = False
    children: int = 0


class StructureBuilder:
    """Turns classified lines into units; keeps the open container, paragraph and item stack."""

    def __init__(self, doc: str, source: str):
        self.doc, self.source = doc, source
        self.pending: list[Pending] = []
        self.by_ref: dict[str, Pending] = {}
        self.container: Pending | None = None  # article or appendix
        self.paragraph: Pending | None = None
        self.paragraph_no = 0
        self.items: list[tuple[str, Pending]] = []  # (style, pending) from outer to inner
        self.current: Pending | None = None

    # -- units ----------------------------------------------------------------------------
    def add(self, unit: Unit, heading: bool = False) -> Pending:
        """Register a unit; its ``text`` so far becomes its first fragment."""
        if unit.ref in self.by_ref:
            raise ParseError(self.source, unit.line, f"duplicate {unit.kind} {unit.ref!r}")
        if unit.parent_ref and unit.parent_ref in self.by_ref:
            self.by_ref[unit.parent_ref].children += 1
        pending = Pending(unit, [Fragment(unit.text)] if unit.text else [], heading)
        self.pending.append(pending)
        self.by_ref[unit.ref] = pending
        self.current = pending
        return pending

    def close_container(self) -> None:
        self.container = self.paragraph = self.current = None
        self.items = []

    def open_container(self, unit: Unit, first_paragraph: int) -> None:
        """An article (its own text is paragraph 1) or an appendix (paragraphs from (1))."""
        self.close_container()
        self.container = self.add(unit)
        self.paragraph_no = first_paragraph

    def add_text(self, line_no: int, raw: str) -> None:
        if self.current is None:
            raise ParseError(self.source, line_no, "expected a chapter, article or appendix heading")
        self.current.fragments.append(source_fragment(raw, line_no))

    def add_marker(self, line_no: int, marker: Marker) -> None:
        if self.container is None:
            raise ParseError(self.source, line_no, f"{marker.label} outside any article or appendix")
        if marker.kind == "paragraph":
            self._add_paragraph(line_no, marker)
        else:
            self._add_item(line_no, marker)

    def _add_paragraph(self, line_no: int, marker: Marker) -> None:
        number = int(marker.key)
        if number != self.paragraph_no + 1:
            raise ParseError(
                self.source, line_no, f"expected paragraph ({self.paragraph_no + 1}), found {marker.label}"
            )
        self.paragraph_no = number
        container = self.container.unit
        attrs: dict[str, Any] = {"number": number}
        if marker.cells:
            attrs["cells"] = marker.cells
        unit = Unit(
            doc=self.doc,
            ref=f"{container.ref}-{number}",
            kind="paragraph",
            text=marker.text,
            parent_ref=container.ref,
            line=line_no,
            attrs=attrs,
        )
        self.paragraph = self.add(unit, heading=not marker.cells)
        self.items = []

    def _add_item(self, line_no: int, marker: Marker) -> None:
        styles = [style for style, _ in self.items]
        if marker.style in styles:
            del self.items[styles.index(marker.style) :]
        parent = self.items[-1][1] if self.items else (self.paragraph or self.container)
        if self.items:
            base = parent.unit.ref
        elif self.paragraph is None and self.paragraph_no == 0:
            raise ParseError(self.source, line_no, f"item {marker.label} before paragraph (1)")
        else:
            base = f"{self.container.unit.ref}-{max(self.paragraph_no, 1)}"
        key = str(parent.children + 1) if marker.style == "bullet" else marker.key
        attrs: dict[str, Any] = {"label": marker.label, "depth": len(self.items) + 1}
        if marker.cells:
            attrs["cells"] = marker.cells
        unit = Unit(
            doc=self.doc,
            ref=f"{base}-{key}",
            kind="item",
            text=marker.text,
            parent_ref=parent.unit.ref,
            line=line_no,
            attrs=attrs,
        )
        pending = self.add(unit, heading=not marker.cells)
        self.items.append((marker.style, pending))

    def open_letter_key(self) -> str | None:
        """The letter the next a)/b) sibling would have, to tell ``i)`` the letter from roman i."""
        for style, pending in reversed(self.items):
            if style == "letter":
                return chr(ord(pending.unit.ref.rsplit("-", 1)[-1]) + 1)
        return None

    # -- finishing ------------------------------------------------------------------------
    def units(self) -> list[Unit]:
        for pending in self.pending:
            finish_text(pending)
        return [p.unit for p in self.pending]


def finish_text(pending: Pending) -> None:
    """Set text (and a heading title) from the collected fragments."""
    fragments = [f for f in pending.fragments if f.text]
    unit = pending.unit
    formulas = [formula for f in fragments for formula in f.formulas]
    if formulas:
        unit.attrs["formulas"] = formulas
    if pending.heading_candidate and fragments and is_heading(fragments[0].text):
        if len(fragments) > 1 or pending.children:
            unit.title, fragments = fragments[0].text, fragments[1:]
    unit.text = join_fragments(fragments)


def is_heading(line: str) -> bool:
    return len(line) <= HEADING_MAX_CHARS and not line.endswith(("。", "、"))


# --------------------------------------------------------------------------------------------
# Line classification
# --------------------------------------------------------------------------------------------
def classify_marker(raw: str, builder: StructureBuilder) -> Marker | None:
    """A paragraph or item marker at the start of the line (after any Markdown list mark)."""
    had_list_mark = bool(LIST_MARK_RE.match(raw))
    line = LIST_MARK_RE.sub("", raw).strip()
    cells = [clean_printed(c) for c in line.split("\t")] if "\t" in line else None
    paragraph = PARAGRAPH_RE.match(line)
    if paragraph:
        if cells:
            cells[0] = clean_printed(paragraph[2].split("\t")[0])
        return Marker("paragraph", "paragraph", f"({paragraph[1]})", paragraph[1], clean_printed(paragraph[2]), cells)
    if had_list_mark:
        bullet = BULLET_RE.match(line)
        if bullet:
            return Marker("item", "bullet", "・", "", clean_printed(bullet[1]))
    for style, pattern in ITEM_PATTERNS:
        match = pattern.match(line)
        if match:
            label, rest = match.groups()
            return item_marker(style, label, rest, cells, builder)
    return None


def item_marker(style: str, label: str, rest: str, cells: list[str] | None, builder: StructureBuilder) -> Marker:
    printed = {"decimal": f"{label}.", "circled": label}.get(style, f"{label})")
    if style == "circled":
        key = str(CIRCLED_NUMBERS.index(label) + 1)
    elif style == "letter" and label in ROMAN_NUMERALS and label != builder.open_letter_key():
        style, key = "roman", label
    else:
        key = label
    if cells:
        cells = [clean_printed(rest.split("\t")[0])] + cells[1:]
    return Marker("item", style, printed, key, clean_printed(rest), cells)


def is_table_row(line: str) -> bool:
    return LIST_MARK_RE.sub("", line).lstrip().startswith("|")


def read_markdown_row(lines: list[tuple[int, str]], i: int) -> tuple[list[str], int]:
    """Cells of a Markdown table row starting at ``lines[i]``; a cell may run over lines."""
    n, text = lines[i]
    parts = [LIST_MARK_RE.sub("", text).strip()]
    while not parts[-1].endswith("|") and i + 1 < len(lines):
        i += 1
        parts.append(lines[i][1].strip())
    row = "\n".join(parts).strip().strip("|")
    return [cell.strip() for cell in row.split("|")], i + 1


def markdown_row_marker(cells: list[str]) -> Marker | None:
    """A data row ``| 1. ペア戦 | 各セッション21ボード |`` is an item; header and rule rows are not."""
    if all(not c or set(c) <= set("-: ") for c in cells):
        return None
    first = ITEM_PATTERNS[0][1].match(cells[0])
    if not first:
        return None
    cells = [clean_printed(first[2])] + ["\n".join(clean_printed(x) for x in c.split("\n")) for c in cells[1:]]
    text = " ".join(cells)
    return Marker("item", "decimal", f"{first[1]}.", first[1], text, cells)


# --------------------------------------------------------------------------------------------
# Body: chapters and articles
# --------------------------------------------------------------------------------------------
def parse_body(lines: list[tuple[int, str]], builder: StructureBuilder) -> None:
    """Chapters, captions, articles and their paragraphs and items, in order."""
    doc, source = builder.doc, builder.source
    chapter_ref: str | None = None
    caption: tuple[int, str] | None = None
    expected_article: int | None = None  # the first article sets it: excerpts parse too
    i = 0
    while i < len(lines):
        n, raw = lines[i]
        line = raw.strip()
        if not line:
            i += 1
            continue
        if is_table_row(raw):
            cells, i = read_markdown_row(lines, i)
            marker = markdown_row_marker(cells)
            if marker:
                builder.add_marker(n, marker)
            continue
        i += 1
        chapter = CHAPTER_RE.match(line)
        article = ARTICLE_RE.match(line)
        if chapter:
            builder.close_container()
            chapter_ref = f"chapter:{chapter[1]}"
            builder.add(
                Unit(
                    doc=doc,
                    ref=chapter_ref,
                    kind="chapter",
                    title=chapter[2].strip(),
                    line=n,
                    attrs={"number": int(chapter[1]), "label": f"第{chapter[1]}章"},
                )
            )
            builder.current = None  # text between a chapter and its first article is unexpected
        elif CAPTION_RE.match(line) and next_article_follows(lines, i):
            caption = (n, CAPTION_RE.match(line)[1].strip())
        elif article:
            number = int(article[1])
            if expected_article is not None and number != expected_article:
                raise ParseError(source, n, f"expected 第{expected_article}条, found 第{number}条")
            if chapter_ref is None:
                raise ParseError(source, n, "expected a chapter heading before the first article")
            expected_article = number + 1
            builder.open_container(article_unit(doc, number, article[2], caption, chapter_ref, n), 1)
            caption = None
        else:
            marker = classify_marker(raw, builder)
            if marker:
                builder.add_marker(n, marker)
            else:
                builder.add_text(n, line)
    if expected_article is None:
        raise ParseError(source, lines[0][0] if lines else None, "expected articles 第N条, found none")


def next_article_follows(lines: list[tuple[int, str]], i: int) -> bool:
    following = next((t.strip() for _, t in lines[i:] if t.strip()), "")
    return bool(ARTICLE_RE.match(following))


def article_unit(doc: str, number: int, text: str, caption, chapter_ref: str, line: int) -> Unit:
    attrs: dict[str, Any] = {"number": number}
    if caption is None:
        attrs["uncaptioned"] = True
    return Unit(
        doc=doc,
        ref=str(number),
        kind="article",
        title=caption[1] if caption else None,
        text=clean_printed(text),
        parent_ref=chapter_ref,
        line=line,
        attrs=attrs,
    )


# --------------------------------------------------------------------------------------------
# Appendices
# --------------------------------------------------------------------------------------------
def parse_appendix_list(lines: list[tuple[int, str]], doc: str) -> list[Unit]:
    """The printed list ``付表`` / ``- 各種VPスケール`` ... as toc units."""
    (heading_line, heading), entries = lines[0], [(n, t) for n, t in lines[1:] if t.strip()]
    units = [Unit(doc=doc, ref="toc:appendices", kind="toc", title=heading, line=heading_line)]
    for k, (n, text) in enumerate(entries, start=1):
        units.append(
            Unit(
                doc=doc,
                ref=f"toc:appendix-{k}",
                kind="toc",
                text=clean_printed(LIST_MARK_RE.sub("", text)),
                parent_ref="toc:appendices",
                line=n,
                attrs={"target": f"appendix-{k}"},
            )
        )
    return units


def split_appendices(lines: list[tuple[int, str]], source: str) -> list[tuple[int, re.Match, list]]:
    """(heading line, heading match, body lines) for each 付表N, numbered 1, 2, ... in order."""
    starts = [(k, m) for k, (n, t) in enumerate(lines) if (m := APPENDIX_RE.match(t.strip()))]
    parts = []
    for index, (k, match) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines)
        if int(match[1]) != index + 1:
            raise ParseError(source, lines[k][0], f"expected 付表{index + 1}, found 付表{match[1]}")
        parts.append((lines[k][0], match, lines[k + 1 : end]))
    return parts


def appendix_unit(doc: str, line: int, match: re.Match) -> Unit:
    number = int(match[1])
    return Unit(
        doc=doc,
        ref=f"appendix-{number}",
        kind="appendix",
        title=match[2].strip(),
        line=line,
        attrs={"number": number, "label": f"付表{number}"},
    )


def parse_appendix_body(lines, builder: StructureBuilder) -> list[TableSection]:
    """Paragraphs, items and text go to the builder; printed tables come back as sections."""
    sections = find_table_sections(lines)
    in_table = {n for s in sections for n, _ in s.title_lines + s.rows}
    for n, raw in lines:
        line = raw.strip()
        if not line or n in in_table:
            continue
        marker = classify_marker(raw, builder)
        if marker:
            builder.add_marker(n, marker)
        else:
            builder.add_text(n, line)
    return sections


@dataclass
class TableSection:
    """A printed tab-separated table: its heading lines and its rows (blank lines dropped)."""

    title_lines: list[tuple[int, str]]
    rows: list[tuple[int, str]]

    @property
    def title(self) -> str:
        return " / ".join(clean_printed(t) for _, t in self.title_lines)

    @property
    def line(self) -> int:
        return (self.title_lines or self.rows)[0][0]

    def blocks(self) -> list[list[tuple[int, list[str]]]]:
        """Rows split where the table starts over with a header line; cells as strings."""
        blocks: list[list[tuple[int, list[str]]]] = []
        previous = None
        for n, text in self.rows:
            if previous is None or n > previous + 1:
                blocks.append([])
            blocks[-1].append((n, [c.strip() for c in text.split("\t")]))
            previous = n
        return blocks


def find_table_sections(lines: list[tuple[int, str]]) -> list[TableSection]:
    """Tab-separated rows, grouped under the plain Latin-script heading lines printed above them.

    Consecutive tab rows (blank lines between them allowed) belong to the same section until
    a new heading starts another.
    """
    sections: list[TableSection] = []
    titles: list[tuple[int, str]] = []
    for n, raw in lines:
        if "\t" in raw:
            if titles or not sections:
                sections.append(TableSection(titles, []))
                titles = []
            sections[-1].rows.append((n, raw))
        elif re.match(r"^[A-Za-z]", raw.strip()):
            titles.append((n, raw.strip()))
        elif raw.strip():
            titles = []
    return [s for s in sections if s.rows]


# --------------------------------------------------------------------------------------------
# Tables of appendix 1 and 2
# --------------------------------------------------------------------------------------------
def parse_range(text: str) -> tuple[float, float | None]:
    """``1-2`` -> (1, 2); ``0`` -> (0, 0); ``27+`` / ``72.14-`` (and above) -> (27, None)."""
    text = text.replace(" ", "")
    if re.fullmatch(r"[\d.]+[+-]", text):
        return float(text[:-1]), None
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def as_int(value: float | None) -> int | float | None:
    return int(value) if value is not None and float(value).is_integer() else value


def parse_vp_pair(text: str) -> tuple[int, int]:
    winner, loser = text.split("-")
    return int(winner), int(loser)


@dataclass
class ScaleColumn:
    """One IMPs/VPs column pair of the continuous WBF scale (a board count may need two)."""

    boards: int
    next_imp: int
    last_imp: int | None  # the pair that continues this column starts after it
    done: bool = False
    rows: list[tuple[int, int, float]] = field(default_factory=list)  # (line, imp, vp)

    def accepts(self, imp: int) -> bool:
        in_range = self.last_imp is None or imp <= self.last_imp
        return not self.done and imp == self.next_imp and in_range

    def add(self, line: int, imp: int, vp: float) -> None:
        self.rows.append((line, imp, vp))
        self.next_imp = imp + 1
        self.done = vp >= 20.0  # the scale's maximum: the column ends here


def parse_continuous_block(block, source: str) -> list[ScaleColumn]:
    """``Boards`` / board counts / ``IMPs VPs`` / rows; the conversion shifted cells, so each
    IMP/VP pair is placed by the IMP it carries, not by its tab position."""
    if len(block) < 4 or block[0][1][0] != "Boards":
        raise ParseError(source, block[0][0], "expected Boards / board counts / IMPs VPs / rows")
    boards = [int(c) for c in block[1][1] if c]
    first_line, first_cells = block[3]
    starts = column_starts(value_pairs(first_cells))
    if len(starts) != len(boards):
        raise ParseError(source, first_line, f"expected a 0 IMP column for each of {boards} boards")
    columns: list[ScaleColumn] = []
    for count, imps in zip(boards, starts):
        for k, start in enumerate(imps):
            last = imps[k + 1] - 1 if k + 1 < len(imps) else None
            columns.append(ScaleColumn(count, start, last))
    for n, cells in block[3:]:
        place_pairs(n, value_pairs(cells), columns, source)
    return columns


def column_starts(first_row: list[tuple[str, str]]) -> list[list[int]]:
    """The first row's IMPs grouped per board count: each count starts at 0 IMPs
    (``0 | 0 31 | 0 31`` -> [[0], [0, 31], [0, 31]])."""
    groups: list[list[int]] = []
    for imp, _vp in first_row:
        if int(imp) == 0 or not groups:
            groups.append([])
        groups[-1].append(int(imp))
    return groups


def value_pairs(cells: list[str]) -> list[tuple[str, str]]:
    values = [c for c in cells if c]
    return list(zip(values[0::2], values[1::2]))


def place_pairs(line: int, pairs, columns: list[ScaleColumn], source: str) -> None:
    """Each pair goes to the next open column (left to right) that expects its IMP."""
    position = 0
    for imp_text, vp_text in pairs:
        imp, vp = int(imp_text), float(vp_text)
        while position < len(columns) and not columns[position].accepts(imp):
            position += 1
        if position == len(columns):
            raise ParseError(source, line, f"IMP {imp} fits no column of the VP scale")
        columns[position].add(line, imp, vp)
        position += 1


def continuous_scale_rows(section: TableSection, source: str) -> list[dict[str, Any]]:
    by_boards: dict[int, list[tuple[int, int, float]]] = {}
    for block in section.blocks():
        for column in parse_continuous_block(block, source):
            by_boards.setdefault(column.boards, []).extend(column.rows)
    rows = []
    for boards, entries in by_boards.items():
        entries.sort(key=lambda e: e[1])
        check_continuous(boards, entries, source)
        for k, (line, imp, vp) in enumerate(entries):
            open_ended = k == len(entries) - 1
            rows.append(
                {
                    "scale": "wbf",
                    "boards": boards,
                    "imp_min": imp,
                    "imp_max": None if open_ended else imp,
                    "vp_winner": vp,
                    "vp_loser": round(20 - vp, 2),
                    "line": line,
                }
            )
    return rows


def check_continuous(boards: int, entries, source: str) -> None:
    """Every margin from 0 up to the first 20.00, with VPs never falling."""
    imps = [imp for _, imp, _ in entries]
    vps = [vp for _, _, vp in entries]
    if imps != list(range(len(imps))) or vps != sorted(vps) or vps[-1] != 20.0:
        raise ParseError(source, entries[0][0], f"VP scale for {boards} boards is not continuous")


def integer_scale_rows(section: TableSection, source: str) -> list[dict[str, Any]]:
    """``VPs | Number of Boards`` / board counts / ``11-9 | 1-2 | ...``."""
    rows = []
    for block in section.blocks():
        boards = [int(c) for c in block[1][1] if c]
        for line, cells in block[2:]:
            winner, loser = parse_vp_pair(cells[0])
            for count, cell in zip(boards, cells[1:]):
                low, high = parse_range(cell)
                rows.append(
                    {
                        "scale": "wbf-integer",
                        "boards": count,
                        "imp_min": as_int(low),
                        "imp_max": as_int(high),
                        "vp_winner": winner,
                        "vp_loser": loser,
                        "line": line,
                    }
                )
    return rows


def board_ranges(cells: list[str]) -> list[tuple[int, int | None]]:
    """``5-6`` -> (5, 6); ``3 or more`` -> (3, None); ``2`` -> (2, 2)."""
    ranges = []
    for cell in filter(None, cells):
        more = re.match(r"^(\d+) or more$", cell)
        low, high = (int(more[1]), None) if more else parse_range(cell)
        ranges.append((int(low), as_int(high)))
    return ranges


def ranged_scale_rows(
    section: TableSection, low_key: str, high_key: str, convert: Callable = as_int
) -> list[dict[str, Any]]:
    """``VPs | Number of Boards`` / board ranges / a units line / ``11-9 | 50.79-52.39 | ...``."""
    rows = []
    for block in section.blocks():
        boards = board_ranges(block[1][1])
        for line, cells in block[3:]:
            winner, loser = parse_vp_pair(cells[0])
            for (b_low, b_high), cell in zip(boards, cells[1:]):
                low, high = parse_range(cell)
                rows.append(
                    {
                        "boards_min": b_low,
                        "boards_max": b_high,
                        low_key: convert(low),
                        high_key: convert(high),
                        "vp_winner": winner,
                        "vp_loser": loser,
                        "line": line,
                    }
                )
    return rows


def board_a_match_point_rows(section: TableSection) -> list[dict[str, Any]]:
    return [
        {"result": cells[0], "points": int(cells[1]), "line": line}
        for block in section.blocks()
        for line, cells in block
    ]


def handicap_rows(section: TableSection, source: str) -> list[dict[str, Any]]:
    """``SP HC SP HC``: two SP-range -> handicap columns side by side."""
    block = section.blocks()[0]
    if [c for c in block[0][1] if c] != ["SP", "HC", "SP", "HC"]:
        raise ParseError(source, block[0][0], "expected the header SP HC SP HC")
    pairs = [(line, cells[k], cells[k + 1]) for k in (0, 2) for line, cells in block[1:]]
    rows = []
    for line, sp, hc in pairs:
        low, high = parse_range(sp)
        rows.append({"sp_min": as_int(low), "sp_max": as_int(high), "handicap": int(hc), "line": line})
    return sorted(rows, key=lambda r: r["sp_min"])


# Which table a heading of appendix 1 prints: (pattern, table name, rows function).
VP_SECTIONS: list[tuple[re.Pattern, str, Callable]] = [
    (re.compile(r"整数版"), "vp_scales", integer_scale_rows),
    (re.compile(r"^WBF"), "vp_scales", continuous_scale_rows),
    (
        re.compile(r"^Swiss Pairs"),
        "vp_scales_swiss_pairs",
        lambda s, src: ranged_scale_rows(s, "pct_min", "pct_max", convert=lambda x: x),
    ),
    (
        re.compile(r"^B-a-M \+ VP"),
        "vp_scales_board_a_match",
        lambda s, src: ranged_scale_rows(s, "points_min", "points_max"),
    ),
    (re.compile(r"^Board - a - Match"), "board_a_match_points", lambda s, src: board_a_match_point_rows(s)),
]


def appendix_tables(
    appendix: Unit, sections: list[TableSection], builder: StructureBuilder, tables: dict[str, list]
) -> None:
    """Appendix 1: one ``table`` unit per printed scale; appendix 2: the handicap table."""
    source = builder.source
    if appendix.ref == "appendix-2":
        if len(sections) != 1:
            raise ParseError(source, appendix.line, "expected one handicap table")
        appendix.attrs["table"] = "handicap"
        rows = read_table(sections[0], source, handicap_rows)
        appendix.attrs["header_rows"] = header_rows(sections[0], rows)
        tables.setdefault("handicap", []).extend(dict(r, appendix=appendix.ref) for r in rows)
        return
    for k, section in enumerate(sections, start=1):
        name, rows = vp_section_rows(section, source)
        ref = f"{appendix.ref}-table-{k}"
        attrs = {"table": name, "rows": len(rows)}
        if "scale" in rows[0]:
            attrs["scale"] = rows[0]["scale"]
        headers = header_rows(section, rows)
        if headers:
            attrs["header_rows"] = headers
        builder.add(
            Unit(
                doc=builder.doc,
                ref=ref,
                kind="table",
                title=section.title,
                parent_ref=appendix.ref,
                line=section.line,
                attrs=attrs,
            )
        )
        tables.setdefault(name, []).extend(
            dict(r, scale_title=section.title, appendix=appendix.ref, table_ref=ref) for r in rows
        )


def header_rows(section: TableSection, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The printed rows that head the columns (``Boards`` / board counts / ``IMPs VPs``), which
    hold no data row: kept as printed, cell by cell (trailing empty cells dropped), with their line."""
    data_lines = {row["line"] for row in rows}
    headers = []
    for n, text in section.rows:
        if n in data_lines:
            continue
        cells = [clean_printed(cell) for cell in text.split("\t")]
        while cells and not cells[-1]:
            cells.pop()
        headers.append({"line": n, "cells": cells})
    return headers


def read_table(section: TableSection, source: str, rows_of: Callable) -> list[dict[str, Any]]:
    """The section's rows; a cell that is not the number or range expected is a ParseError."""
    try:
        return rows_of(section, source)
    except (ValueError, IndexError) as error:
        raise ParseError(
            source, section.line, f"table {section.title or 'ハンディキャップ表'!r}: unexpected cell layout ({error})"
        ) from error


def vp_section_rows(section: TableSection, source: str) -> tuple[str, list[dict[str, Any]]]:
    for pattern, name, rows_of in VP_SECTIONS:
        if pattern.search(section.title):
            rows = read_table(section, source, rows_of)
            if not rows:
                raise ParseError(source, section.line, f"table {section.title!r} has no rows")
            return name, rows
    raise ParseError(source, section.line, f"unknown table heading {section.title!r}")


# --------------------------------------------------------------------------------------------
# Tables printed inside articles
# --------------------------------------------------------------------------------------------
def first_int(text: str) -> int | None:
    match = re.search(r"\d+", text)
    return int(match[0]) if match else None


def minimum_tables_rows(units: dict[str, Unit]) -> list[dict[str, Any]]:
    """第7条: ratings -> minimum number of tables, one row per rating."""
    rows = []
    for item in children_with_cells(units, "7"):
        ratings, requirement = item.attrs["cells"][:2]
        for rating in ratings.split("、"):
            rows.append(
                {
                    "rating": rating,
                    "min_tables": first_int(requirement),
                    "requirement": requirement,
                    "item_ref": item.ref,
                    "line": item.line,
                }
            )
    return rows


def minimum_boards_rows(units: dict[str, Unit]) -> list[dict[str, Any]]:
    """第8条 and 8条2項: kind of event or club class -> boards per session."""
    rows = []
    for parent in ("8", "8-2"):
        for item in children_with_cells(units, parent):
            category, requirement = item.attrs["cells"][:2]
            boards = re.search(r"(\d+)ボード", requirement)
            rows.append(
                {
                    "category": category,
                    "boards_per_session": int(boards[1]) if boards else None,
                    "requirement": requirement,
                    "item_ref": item.ref,
                    "line": item.line,
                }
            )
    return rows


def board_a_match_average_rows(units: dict[str, Unit]) -> list[dict[str, Any]]:
    """第25条3項: average +/=/- -> match points and total points."""
    rows = []
    for item in children_with_cells(units, "25-3"):
        label, match_points, total_points = item.attrs["cells"][:3]
        rows.append(
            {
                "average": label,
                "match_points": float(match_points.rstrip("点")),
                "total_points": int(total_points.rstrip("点")),
                "item_ref": item.ref,
                "line": item.line,
            }
        )
    return rows


def board_penalty_rows(units: dict[str, Unit]) -> list[dict[str, Any]]:
    """第44条: scoring method -> the penalty worth one board (a formula, kept as printed)."""
    return [
        {"scoring": item.attrs["cells"][0], "penalty": item.attrs["cells"][1], "item_ref": item.ref, "line": item.line}
        for item in children_with_cells(units, "44")
    ]


def children_with_cells(units: dict[str, Unit], parent_ref: str) -> list[Unit]:
    return [u for u in units.values() if u.parent_ref == parent_ref and "cells" in u.attrs]


ARTICLE_TABLES = {
    "minimum_tables": minimum_tables_rows,
    "minimum_boards": minimum_boards_rows,
    "board_a_match_averages": board_a_match_average_rows,
    "board_penalties": board_penalty_rows,
}


# --------------------------------------------------------------------------------------------
# The document
# --------------------------------------------------------------------------------------------
def split_document(lines: list[tuple[int, str]], source: str) -> dict[str, list]:
    """Front matter | body (第N章...) | appendix list | appendix history | appendices.

    Only the body is required, so that an excerpt parses too; each later part starts at its
    heading and may be absent.
    """

    def index_of(pattern: Callable[[str], bool], start: int) -> int:
        return next((k for k in range(start, len(lines)) if pattern(lines[k][1].strip())), len(lines))

    body = index_of(lambda t: bool(CHAPTER_RE.match(t)), 0)
    if body == len(lines):
        raise ParseError(source, None, "expected a chapter heading 第N章; found no regulation structure")
    first_appendix = index_of(lambda t: bool(APPENDIX_RE.match(t)), body)
    appendix_list = index_of(lambda t: t == APPENDIX_LIST_HEADING, body)
    history = index_of(lambda t: bool(APPENDIX_HISTORY_RE.match(t)), body)
    appendix_list, history = min(appendix_list, first_appendix), min(history, first_appendix)
    return {
        "front": lines[:body],
        "body": lines[body : min(appendix_list, history)],
        "appendix_list": lines[appendix_list : max(appendix_list, history)],
        "appendix_history": lines[history:first_appendix],
        "appendices": lines[first_appendix:],
    }


def non_blank(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [(n, t.strip()) for n, t in lines if t.strip()]


def parse(text: str, doc: str, source: str) -> ParsedDocument:
    lines = list(enumerate(text.replace("\r\n", "\n").split("\n"), start=1))
    parts = split_document(lines, source)
    front = non_blank(parts["front"])
    builder = StructureBuilder(doc, source)
    if front:
        builder.add(history_unit(doc, "history", front))
    parse_body(parts["body"], builder)
    builder.close_container()
    if non_blank(parts["appendix_list"]):
        for unit in parse_appendix_list(non_blank(parts["appendix_list"]), doc):
            builder.add(unit)
    if non_blank(parts["appendix_history"]):
        builder.add(history_unit(doc, "history:appendices", non_blank(parts["appendix_history"])))
    tables: dict[str, list[dict[str, Any]]] = {}
    for line, match, body in split_appendices(parts["appendices"], source):
        appendix = appendix_unit(doc, line, match)
        builder.open_container(appendix, 0)
        sections = parse_appendix_body(body, builder)
        appendix_tables(appendix, sections, builder, tables)
    units = builder.units()
    by_ref = {u.ref: u for u in units}
    for name, rows_of in ARTICLE_TABLES.items():
        tables[name] = rows_of(by_ref)
    return ParsedDocument(doc=doc, units=units, tables=tables)
