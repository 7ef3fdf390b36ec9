"""Parser for the two Japanese commentaries on the 2017 Laws (revokes; play out of turn).

Both are PDF conversions of the same author's layout: a cover, an index (law -> page), a front
essay, then for each Law a reprint of its text followed by the author's notes, and at the end a
chapter of worked rulings. The conversion mixes Markdown headings, whole-line bold runs
(``**第62条 ...****A. ...**``), plain lines and list bullets for the same structure, so lines
are classified by what they say (第61条 / A. / 1. / (a) / L61A), not by their markup.

Units emitted (refs are stable, public):

* ``front-matter`` (kind ``front_matter``): the cover as printed, one line a line (the Laws'
  title, the commentary's title, version and date, author); ``title`` its first line.
* ``toc`` (kind ``toc``): the index heading (``－ 索引 －``, ``attrs {"printed": ...}``), parent of
* ``toc:<law>`` (kind ``toc_entry``): one index row; ``title`` as printed, ``page`` the printed
  page, ``attrs {"law": "61"}``. The 実際の裁定例 row is ``toc:rulings`` (``attrs {}``).
* ``essay:<heading>`` (kind ``essay``): front-matter essays, e.g. ``essay:規則の目的``.
* ``quote:<law ref>`` (kind ``quote``): the Law text the commentary reprints, in WBF citation
  style (``quote:61``, ``quote:61B``, ``quote:61B2``, ``quote:61B2(a)``), parented like the Laws;
  ``attrs {"law_ref": "61B"}``. Reprints marked 再掲 are not new units: the unit gets
  ``repeated_at_lines`` and, where the reprint's wording differs, ``repeat_variants``
  (``[{"line", "text"[, "title"]}]``). The law-level quote carries the index page.
* ``<label>`` (kind ``note``): a note under its printed label with spaces removed (``L61A``,
  ``L43B2(b)``, ``L60A1,2``); ``title`` is the label as printed; ``attrs {"covers": [...],
  "label": ...}``; ``parent_ref`` is ``quote:<law>`` when the law is reprinted. ``(続き)``
  continuations are merged. Commentary whose label the conversion lost (text between a reprint
  and the first label of its law) becomes ``note:<law>-<n>`` with ``attrs {"label": None}``.
  The heading printed over a block of notes (``注釈 第50条・第54条``) is ``attrs["notes_heading"]``
  of the block's first note.
* ``ruling:<n>`` (kind ``ruling``): the sections of the 実際の裁定例 chapter in order (the
  guidance ``…の裁定`` and the worked example ``…の裁定例``), one line per paragraph/turn. A
  worked example prints no Law number; the Law it applies is ``attrs["applies"]`` with
  ``applies_reason`` (`RULING_APPLIES`), which becomes an ``applies`` cross-reference.
* ``fn:<n>`` (kind ``footnote``): ``attrs {"anchor_ref": ...}``; the carrying unit keeps the
  marker as ``*<n>``. A footnote printed again under a reprint gets ``repeated_at_lines``. A body
  whose marker the conversion lost (no ``*<n>`` in any unit) is kept with ``anchor_ref`` None and
  ``marker_lost`` True; the errata restore the marker, so the built text has none such.

Law cross-references in the text (第43条B項2(b)) are left as printed for the reference extractor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from ingest.parsers.records import ParsedDocument, ParseError, Unit
from ingest.parsers.textclean import is_japanese, strip_tags

# --- conversion noise -> readable text ----------------------------------------------------------

SUIT_COMMANDS = {"spadesuit": "♠", "heartsuit": "♡", "diamondsuit": "♢", "clubsuit": "♣"}
SUIT_COMMAND_RE = re.compile(r"\\(spadesuit|heartsuit|diamondsuit|clubsuit)\s*")
SUP_MARKER_RE = re.compile(r"<sup>\s*\\?\*\s*(\d+)\s*</sup>")
LATEX_MARKER_RE = re.compile(r"\^\{\s*\\?\*\s*(\d+)\s*\}")
SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
SUPERSCRIPT_MARKER_RE = re.compile(r"\*([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")
MATH_RE = re.compile(r"\$([^$\n]*)\$")
BOLD_MARK_RE = re.compile(r"\*\*")

# Characters of Japanese running text (kana, kanji, CJK and full-width punctuation) and the
# symbols the author sets in it; a space between two of them is a PDF line-wrap artefact.
_WIDE = r"\u3000-\u30ff\u3400-\u9fff\uff01-\uff60♠♡♢♣♥♦○〇●・『』"
SPACE_RUN_RE = re.compile(r"[ \u3000]+")


def drop_runs_between(keep: Callable[[str, int, int], bool]) -> Callable[[str], str]:
    """A rule dropping each whole run of spaces for which ``keep(text, start, end)`` is false.

    Written for the rules whose characters on either side are never spaces: what a pattern such
    as (?<=[kana kanji])[ \u3000]+(?=\\d) removes is exactly such whole runs. Tested in Python
    because sre compiles a class of the 27,000 kanji by filling one table entry per character,
    ~1 ms a pattern at every start."""

    def rule(text: str) -> str:
        return SPACE_RUN_RE.sub(lambda m: m.group() if keep(text, m.start(), m.end()) else "", text)

    return rule


def ja_before_digit(text: str, start: int, end: int) -> bool:
    """Keep unless kana/kanji, spaces, a digit: 第 50条, カードが 1 枚."""
    return not (start and is_japanese(text[start - 1]) and text[end : end + 1].isdecimal())


def ja_before_parenthesis(text: str, start: int, end: int) -> bool:
    """Keep unless kana/kanji, spaces, (: できる (ただし…"""
    return not (start and is_japanese(text[start - 1]) and text[end : end + 1] == "(")


def parenthesis_before_ja(text: str, start: int, end: int) -> bool:
    """Keep unless ), spaces, kana/kanji; but keep "(1) 受け入れる" and "(a) …" (a numbered item)."""
    before = text[max(start - 3, 0) : start]
    numbered = len(before) == 3 and before[0] == "(" and (before[1].isdecimal() or "a" <= before[1] <= "z")
    return not (before.endswith(")") and not numbered and end < len(text) and is_japanese(text[end]))


_SPACE_RULES = [
    partial(re.compile(rf"(?<=[{_WIDE}])[ \u3000]+(?=[{_WIDE}])").sub, ""),
    drop_runs_between(ja_before_digit),
    partial(re.compile(r"(?<=\d)[ \u3000]+(?=[条項枚人つ回番種])").sub, ""),  # 45 条, 2 人 (not 第64条B項3 ペナルティ…)
    partial(re.compile(r"(?<=[♠♡♢♣♥♦])[ \u3000]+(?=[AKQJT2-9])").sub, ""),  # ♠ K -> ♠K, as the files print
    # a lone capital (seat or section letter) before a particle or 項/条: E は, B 項
    partial(re.compile(r"(?<![A-Za-z][A-Z])(?<=[A-Z])[ \u3000]+(?=[はのがをにへとも項条])").sub, ""),
    partial(re.compile(r"(?<=条)[ \u3000]+(?=[A-H]項)").sub, ""),  # 第16条 C項
    partial(re.compile(r"(?<=[。、])[ \u3000]+").sub, ""),  # nothing is spaced after a Japanese stop or comma
    drop_runs_between(ja_before_parenthesis),
    drop_runs_between(parenthesis_before_ja),
]
# A space after an emphasised (bold) phrase separates it from what follows: keep it.
BOLD_SEPARATOR = "\u2002"
# A Law citation as the author prints it (第54条, 第64条B項3, 第43条B項2(b)), with the spaces a
# line wrap may put inside it (第 50条, 第45 条C項1, 第16条 C項). An item number follows a section
# letter only: after 第54条 a number is not part of the citation.
_GAP = r"[ \u3000]?"
CITATION = rf"第{_GAP}\d+{_GAP}条(?:{_GAP}[A-H]{_GAP}項(?:{_GAP}\d+)?(?:\([a-z]\))?)?"
_NOT_A_SECTION = rf"(?![A-H]{_GAP}項)"
# The author sets a citation off from what it introduces with a space (第64条A項 『自動的な…』,
# 第54条 5つの選択肢, the ruling list's 「…のとき 第56条 4つの…」): that space is printed, and
# closing it would glue a count to the citation (第54条5つ reads like a reference to 54-5). A
# wrap cannot put spaces on both sides of a citation of a few characters, so a citation spaced
# on both sides keeps both.
SPACED_CITATION_RES = [
    re.compile(rf"[ \u3000]+({CITATION})[ \u3000]+{_NOT_A_SECTION}(?=\S)"),
    re.compile(rf"({CITATION})[ \u3000]+{_NOT_A_SECTION}(?=\S)"),
]


_BOLD_THEN_SPACES_RE = re.compile(r"\*\*[ \u3000]+")


def clean_markup(text: str) -> str:
    """Markup and markers the conversion produced -> what the page prints (no space tidying)."""
    text = SUP_MARKER_RE.sub(r"*\1", text)
    text = LATEX_MARKER_RE.sub(r"*\1", text)
    text = SUPERSCRIPT_MARKER_RE.sub(lambda m: "*" + m.group(1).translate(SUPERSCRIPT_DIGITS), text)
    text = SUIT_COMMAND_RE.sub(lambda m: SUIT_COMMANDS[m.group(1)], text)
    text = MATH_RE.sub(r"\1", text)
    text = strip_tags(text)
    text = _BOLD_THEN_SPACES_RE.sub(BOLD_SEPARATOR, text)
    text = BOLD_MARK_RE.sub("", text)
    return text.replace("\\*", "*").replace("\\", "")


def keep_citation_spaces(text: str) -> str:
    """Mark the spaces that set a Law citation off (see SPACED_CITATION_RES) as printed."""
    text = SPACED_CITATION_RES[0].sub(lambda m: f"{BOLD_SEPARATOR}{m.group(1)}{BOLD_SEPARATOR}", text)
    return SPACED_CITATION_RES[1].sub(lambda m: f"{m.group(1)}{BOLD_SEPARATOR}", text)


def close_spaces(text: str) -> str:
    """Drop spaces the PDF conversion put inside Japanese text (the author writes none but the
    ones after a bold phrase and around a Law citation)."""
    text = keep_citation_spaces(text)
    for rule in _SPACE_RULES:
        text = rule(text)
    return text.replace(BOLD_SEPARATOR, " ")


def clean_text(text: str) -> str:
    return close_spaces(clean_markup(text)).strip()


# --- physical lines -> logical lines -------------------------------------------------------------

HEADING_MARK_RE = re.compile(r"^#{1,6}\s+")
BULLET_RE = re.compile(r"^\s*(?:-(?:\s+|$))+")
WHOLE_BOLD_RE = re.compile(r"^(?:\*\*(?:(?!\*\*).)+\*\*)+$")
BOLD_RUN_RE = re.compile(r"\*\*((?:(?!\*\*).)+)\*\*")
# A label printed at the end of a Law paragraph (`…を適用する。 L54 ○伏せて…`).
INLINE_LABEL_RE = re.compile(r"(?<=。)\s*(?=L\d+[A-H]?\S*\s*[○〇])")
FOOTNOTE_BODY_RE = re.compile(r"^(?:<sup>\s*\\?\*\s*(\d+)\s*</sup>|\^\{\s*\\?\*\s*(\d+)\s*([^}]*)\})\s*(.*)$")
RULE_RE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
PREFORMATTED_INDENT = 4  # card diagrams are laid out with runs of spaces; list indents are 1-2


@dataclass
class Line:
    """One logical line: a physical line, or one bold run / label split out of it."""

    number: int
    text: str  # clean text, markup, bullet and heading marks removed
    spaced: str = ""  # the same before conversion spaces are closed (第61条 スート… keeps its space)
    bullet: bool = False
    heading: bool = False  # a Markdown heading or a whole-line bold run
    paragraph_start: bool = True  # a blank line (or a split) precedes it
    footnote: str | None = None  # the number, when this line is a footnote body


def logical_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    blank_before = True
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip() or RULE_RE.match(raw):
            blank_before = True
            continue
        for piece in split_physical_line(raw):
            line = make_line(number, piece)
            if line.text or line.footnote:
                line.paragraph_start = blank_before or line.heading
                lines.append(line)
                blank_before = False
    return lines


def split_physical_line(raw: str) -> list[str]:
    """A line holding several bold headings or a trailing note label becomes several lines."""
    stripped = raw.strip()
    if WHOLE_BOLD_RE.match(stripped):
        return ["**" + run + "**" for run in BOLD_RUN_RE.findall(stripped)]
    return [piece for piece in INLINE_LABEL_RE.split(raw) if piece.strip()]


def make_line(number: int, raw: str) -> Line:
    raw = raw.replace("\xa0", " ")  # card diagrams are indented with no-break spaces
    footnote = FOOTNOTE_BODY_RE.match(raw.strip())
    if footnote:
        num = footnote.group(1) or footnote.group(2)
        # `^{*17 13}トリック目…`: the conversion pulled the body's first word into the marker
        body = (footnote.group(3) or "") + footnote.group(4)
        return Line(number, clean_text(body), footnote=num)
    heading = bool(HEADING_MARK_RE.match(raw.lstrip()) or WHOLE_BOLD_RE.match(raw.strip()))
    content = HEADING_MARK_RE.sub("", raw.lstrip()) if heading else raw
    bullet = bool(BULLET_RE.match(content))
    indent = len(content) - len(content.lstrip(" "))
    content = BULLET_RE.sub("", content)
    if not bullet and indent >= PREFORMATTED_INDENT:
        return Line(number, clean_markup(content).rstrip(), heading=heading)
    return Line(number, clean_text(content), clean_markup(content).strip(), bullet=bullet, heading=heading)


# --- what a line says -----------------------------------------------------------------------------

INDEX_HEADING_RE = re.compile(r"^[-－\s]*索引[-－\s]*$")
TOC_LAW_RE = re.compile(r"^第(\d+)条\s+(.+?)\s*(\d+)\s*$")
TOC_RULINGS_RE = re.compile(r"^(実際の裁定例)\s*(\d+)\s*$")
RULINGS_CHAPTER = "実際の裁定例"
MARKER_RE = re.compile(r"\s*[（(]\s*(?:[A-H]項)?\s*(再掲|続き)\s*[)）]\s*$")
LAW_HEADING_RE = re.compile(r"^第(\d+)条[ 　]+([^。]+)$")
SUBTITLE_RE = re.compile(r"^[－ー―—-]\s*\S")
NOTES_HEADING_RE = re.compile(r"^注釈\s*第\d+条")
SECTION_RE = re.compile(r"^([A-H])\.\s*(.*)$")
ITEM_RE = re.compile(r"^(\d+)\.\s*(.*)$")
SUBITEM_RE = re.compile(r"^\(([a-z])\)\s*(.*)$")
RULING_HEADING_RE = re.compile(r"^\S*の裁定(?:例)?(?:\s*[（(][^)）]*[)）])?$")
CONTINUES_RE = re.compile(r"\s*[（(]続く[)）]\s*$")
LABEL_RE = re.compile(
    r"^L(?P<law>\d+)"
    r"(?P<rest>(?:[A-H](?:\d+)?(?:\s?\([a-z]\))?)?(?:[,.](?:[A-H]|\d+))*)"
    r"(?P<cont>\s*[（(]続き[)）])?"
    r"(?=\s|$|[○〇O•・])\s*(?P<body>.*)$"
)


def ocr_bullet(text: str) -> str:
    """The author's ○ bullet where the conversion read it as a Latin O or the kanji 〇 (before
    Japanese text or a quotation). Tested in Python, as drop_runs_between."""
    if text[:1] in ("O", "〇") and len(text) > 1 and (is_japanese(text[1]) or text[1] in "「『"):
        return "○" + text[1:]
    return text


TERMINAL = tuple("。．：:）)」』！？!?")


@dataclass
class LawHeading:
    law: str
    title: str
    marker: str | None  # 再掲 (a reprint) or 続き (the same reprint continued) or None


def law_heading(lines: list[Line], i: int) -> tuple[LawHeading, int] | None:
    """第61条 <title>, with an optional subtitle line (－ リボークに関する質問); -> (heading, lines used)."""
    line = lines[i]
    match = LAW_HEADING_RE.match(line.spaced)
    if line.bullet or not match:
        return None
    title, used = close_spaces(match.group(2)), 1
    marker = MARKER_RE.search(title)
    title = MARKER_RE.sub("", title)
    following = lines[i + 1] if i + 1 < len(lines) else None
    if following and following.heading and SUBTITLE_RE.match(following.text):
        subtitle_marker = MARKER_RE.search(following.text)
        marker = marker or subtitle_marker
        title, used = title + MARKER_RE.sub("", following.text), 2
    return LawHeading(match.group(1), title.strip(), marker.group(1) if marker else None), used


def note_label(text: str) -> re.Match | None:
    return LABEL_RE.match(text)


def covered_refs(law: str, rest: str) -> list[str]:
    """`L60A1,2` covers 60A1 and 60A2; `L54B,D` 54B and 54D; `L45E1.2` 45E1 and 45E2."""
    first, *others = re.split(r"[,.]", rest.replace(" ", ""))
    covers = [law + first]
    section = re.match(r"[A-H]?", first).group(0)
    for part in others:
        covers.append(law + part if part.isalpha() else law + section + part)
    return covers


def is_ruling_heading(line: Line) -> bool:
    return not line.bullet and bool(RULING_HEADING_RE.match(line.text))


def starts_rulings(line: Line) -> bool:
    return line.text == RULINGS_CHAPTER or is_ruling_heading(line)


# The worked examples print no Law number, yet each walks through one Law: printed title (each
# commentary's own) -> (the Law, why). Keyed by title, so a renumbered ruling keeps its Law.
RULING_APPLIES = {
    "リボークの裁定例（Sがダミー）": (
        ["62"],
        "W's revoke is found before his side plays to the next trick, so it is corrected (62A); "
        "the withdrawn card becomes a major penalty card (62B1), N may change his card and E may "
        "not (62C1, 62C2)",
    ),
    "順番外のオープニングリードの裁定例": (
        ["54"],
        "the director offers declarer the options of Law 54 for a faced opening lead out of turn "
        "(ruling:1 lists it: 飛ばした、オープニングリードのとき 第54条 5つの選択肢)",
    ),
}


# --- the parser -------------------------------------------------------------------------------------


@dataclass
class Occurrence:
    """One printing of a Law unit: the first one becomes the quote unit, later ones are 再掲."""

    ref: str
    line: int
    title: str | None = None
    parts: list[str] = field(default_factory=list)
    has_children: bool = False

    @property
    def text(self) -> str:
        return "\n".join(self.parts)


class CommentaryParser:
    def __init__(self, text: str, doc: str, source: str):
        self.doc, self.source = doc, source
        self.raw_lines = text.split("\n")
        self.lines = logical_lines(text)
        self.units: list[Unit] = []
        self.by_ref: dict[str, Unit] = {}
        self.occurrences: dict[str, list[Occurrence]] = {}
        self.footnotes: dict[str, list[tuple[int, str]]] = {}
        self.toc_pages: dict[str, int] = {}
        # quote state
        self.law: str | None = None
        self.repeating = False
        self.section: Occurrence | None = None
        self.item: Occurrence | None = None
        self.cursor: Occurrence | None = None  # the unit a paragraph would belong to
        self.filled: set[int] = set()  # occurrences that already have their paragraph
        self.last_text: Occurrence | None = None  # for paragraphs split by a page break
        self.orphans: list[Line] = []
        # note state
        self.note: Unit | None = None
        self.unlabeled_count: dict[str, int] = {}
        self.notes_heading: Line | None = None  # `注釈 第67条`, for the first note under it

    # -- driver --
    def parse(self) -> ParsedDocument:
        i = self.parse_front_matter()
        mode = "quote"  # or "notes": what an unmarked line belongs to
        while i < len(self.lines):
            line = self.lines[i]
            if line.footnote:
                self.add_footnote(line)
                i += 1
                continue
            if starts_rulings(line):
                self.resolve_orphans(None)
                i = self.parse_rulings(i)
                break
            heading = law_heading(self.lines, i)
            if heading:
                self.resolve_orphans(None)
                self.start_law(line, heading[0])
                mode = "quote"
                i += heading[1]
                continue
            if NOTES_HEADING_RE.match(line.text):
                self.resolve_orphans(None)
                self.note, mode = None, "notes"
                self.notes_heading = line
            elif note_label(line.text):
                self.add_note(line, note_label(line.text))
                mode = "notes"
            elif mode == "notes" and self.note is not None:
                self.append_note_line(line)
            elif mode == "notes":
                self.orphans.append(line)
            else:
                self.quote_line(line)
            i += 1
        self.resolve_orphans(None)
        self.finish_quotes()
        self.finish_footnotes()
        if not any(u.kind in ("quote", "ruling") for u in self.units):
            raise ParseError(self.source, None, "no reprinted Law (第N条 <title>) or ruling found")
        self.units.sort(key=lambda u: u.line or 0)
        return ParsedDocument(self.doc, self.units)

    def emit(self, unit: Unit) -> Unit:
        if unit.ref in self.by_ref:
            raise ParseError(self.source, unit.line, f"{unit.ref} printed twice; expected a (続き) or 再掲 marker")
        self.units.append(unit)
        self.by_ref[unit.ref] = unit
        return unit

    # -- cover, index, essays --
    def parse_front_matter(self) -> int:
        start = next((k for k, l in enumerate(self.lines) if INDEX_HEADING_RE.match(l.text)), None)
        if start is None:
            raise ParseError(self.source, None, "expected the index heading (－ 索引 －) of a commentary")
        cover = self.lines[:start]
        if cover:
            self.emit(
                Unit(
                    self.doc,
                    "front-matter",
                    "front_matter",
                    title=cover[0].text,
                    text="\n".join(line.spaced or line.text for line in cover[1:]),
                    line=cover[0].number,
                )
            )
        heading = self.lines[start]
        self.emit(
            Unit(
                self.doc,
                "toc",
                "toc",
                title="索引",
                line=heading.number,
                attrs={"printed": self.raw_lines[heading.number - 1].strip()},
            )
        )
        i = start + 1
        while i < len(self.lines) and self.add_toc_row(self.lines[i]):
            i += 1
        if i == start + 1:
            raise ParseError(self.source, self.lines[start].number, "expected index rows (第N条 <title> <page>)")
        essay: Unit | None = None
        while i < len(self.lines) and not law_heading(self.lines, i) and not starts_rulings(self.lines[i]):
            line = self.lines[i]
            if essay is None or (line.heading or not line.text.endswith(TERMINAL) and line.text[0] not in "(（"):
                essay = self.emit(Unit(self.doc, f"essay:{line.text}", "essay", title=line.text, line=line.number))
            else:
                essay.text = join_lines(essay.text, line.text)
            i += 1
        return i

    def add_toc_row(self, line: Line) -> bool:
        law_row = TOC_LAW_RE.match(line.text)
        rulings_row = TOC_RULINGS_RE.match(line.text)
        if law_row:
            law, title, page = law_row.groups()
            self.emit(
                Unit(
                    self.doc,
                    f"toc:{law}",
                    "toc_entry",
                    title=title,
                    page=int(page),
                    line=line.number,
                    parent_ref="toc",
                    attrs={"law": law},
                )
            )
            self.toc_pages[law] = int(page)
        elif rulings_row:
            self.emit(
                Unit(
                    self.doc,
                    "toc:rulings",
                    "toc_entry",
                    title=rulings_row.group(1),
                    page=int(rulings_row.group(2)),
                    line=line.number,
                    parent_ref="toc",
                )
            )
            self.toc_pages["rulings"] = int(rulings_row.group(2))
        return bool(law_row or rulings_row)

    # -- Law reprints --
    def start_law(self, line: Line, heading: LawHeading) -> None:
        self.law = heading.law
        self.repeating = heading.marker == "再掲"
        seen = f"quote:{heading.law}" in self.occurrences
        if seen and heading.marker is None:
            raise ParseError(self.source, line.number, f"第{heading.law}条 printed again without (続き) or (再掲)")
        self.note = None
        self.section = self.item = None
        self.last_text = None
        if heading.marker == "続き":
            if not seen:
                raise ParseError(self.source, line.number, f"第{heading.law}条 (続き) continues a Law never printed")
            self.cursor = None  # the continuation goes on with new sections
            return
        self.cursor = self.occur(heading.law, line.number, heading.title, parent=None)

    def occur(self, law_ref: str, number: int, title: str | None, parent: Occurrence | None) -> Occurrence:
        ref = f"quote:{law_ref}"
        occurrence = Occurrence(ref, number, title)
        if parent is not None:
            parent.has_children = True
        if ref in self.occurrences and not self.repeating:
            raise ParseError(self.source, number, f"Law {law_ref} printed twice outside a 再掲 reprint")
        self.occurrences.setdefault(ref, []).append(occurrence)
        return occurrence

    def quote_line(self, line: Line) -> None:
        if self.law is None:
            raise ParseError(self.source, line.number, "text before the first 第N条 heading")
        if CONTINUES_RE.fullmatch(line.text) or line.text in ("(続き)", "（続き）"):
            return
        section, item, subitem = (SECTION_RE.match(line.text), ITEM_RE.match(line.text), SUBITEM_RE.match(line.text))
        if section:
            self.quote_section(line, *section.groups())
        elif item:
            self.quote_item(line, *item.groups())
        elif subitem:
            self.quote_subitem(line, *subitem.groups())
        else:
            self.quote_paragraph(line)

    def quote_section(self, line: Line, letter: str, rest: str) -> None:
        self.resolve_orphans(None)
        law_unit = self.occurrences[f"quote:{self.law}"][-1]
        is_text = rest.endswith(TERMINAL) or rest.endswith("、")
        occurrence = self.occur(self.law + letter, line.number, None if is_text else rest, law_unit)
        self.section, self.item, self.cursor, self.last_text = occurrence, None, occurrence, None
        if is_text:
            self.set_text(occurrence, rest)

    def quote_item(self, line: Line, number: str, rest: str) -> None:
        self.resolve_orphans(None)
        if self.section is None:
            raise ParseError(self.source, line.number, f"numbered paragraph {number}. outside a lettered section")
        occurrence = self.occur(self.section.ref.removeprefix("quote:") + number, line.number, None, self.section)
        self.item, self.cursor, self.last_text = occurrence, occurrence, None
        subitem = SUBITEM_RE.match(rest)
        if subitem:
            self.quote_subitem(line, *subitem.groups())
        elif rest:
            self.set_text(occurrence, rest)

    def quote_subitem(self, line: Line, letter: str, rest: str) -> None:
        if self.item is None:
            raise ParseError(self.source, line.number, f"sub-item ({letter}) outside a numbered paragraph")
        occurrence = self.occur(f"{self.item.ref.removeprefix('quote:')}({letter})", line.number, None, self.item)
        self.cursor = occurrence
        self.set_text(occurrence, rest)

    def set_text(self, occurrence: Occurrence, text: str) -> None:
        occurrence.parts.append(CONTINUES_RE.sub("", text))
        self.filled.add(id(occurrence))
        self.last_text = occurrence

    def quote_paragraph(self, line: Line) -> None:
        text = CONTINUES_RE.sub("", line.text)
        if self.last_text and not self.last_text.parts[-1].endswith(TERMINAL) and not self.orphans:
            # a paragraph cut by a page break (ダミーのカ / ードを…): rejoin the two halves
            self.last_text.parts[-1] += text
        elif self.cursor and id(self.cursor) not in self.filled and not self.cursor.has_children:
            self.set_text(self.cursor, text)
        else:
            # A reprinted unit has one paragraph before its children: more text is commentary.
            self.orphans.append(line)

    def finish_quotes(self) -> None:
        for ref, printings in self.occurrences.items():
            first, repeats = printings[0], printings[1:]
            law_ref = ref.removeprefix("quote:")
            unit = Unit(
                self.doc,
                ref,
                "quote",
                text=first.text,
                title=first.title,
                line=first.line,
                parent_ref=self.parent_quote(law_ref),
                attrs={"law_ref": law_ref},
            )
            if law_ref in self.toc_pages:
                unit.page = self.toc_pages[law_ref]
            if repeats:
                unit.attrs["repeated_at_lines"] = [r.line for r in repeats]
                variants = [v for v in (variant(r, first) for r in repeats) if v]
                if variants:
                    unit.attrs["repeat_variants"] = variants
            self.emit(unit)

    def parent_quote(self, law_ref: str) -> str | None:
        for pattern in (r"^(.*)\([a-z]\)$", r"^(\d+[A-H])\d+$", r"^(\d+)[A-H]$"):
            match = re.match(pattern, law_ref)
            if match:
                return f"quote:{match.group(1)}"
        return None

    # -- notes --
    def add_note(self, line: Line, label: re.Match) -> None:
        ref = "L" + label["law"] + label["rest"].replace(" ", "")
        body = ocr_bullet(label["body"])
        if label["cont"] or (ref in self.by_ref and self.by_ref[ref].kind == "note" and not body):
            if ref not in self.by_ref:
                raise ParseError(self.source, line.number, f"{ref} (続き) continues a note never started")
            self.note = self.by_ref[ref]
            if body:
                self.append_note_line(Line(line.number, body))
            return
        quote = f"quote:{label['law']}"
        note = self.emit(
            Unit(
                self.doc,
                ref,
                "note",
                title=f"L{label['law']}{label['rest']}",
                line=line.number,
                parent_ref=quote if quote in self.occurrences else None,
                attrs={"covers": covered_refs(label["law"], label["rest"]), "label": ref},
            )
        )
        if self.notes_heading is not None:
            note.attrs["notes_heading"] = self.notes_heading.spaced or self.notes_heading.text
            note.attrs["notes_heading_line"] = self.notes_heading.number
            self.notes_heading = None
        self.note = note
        if body:
            self.append_note_line(Line(line.number, body))
        self.resolve_orphans(note)

    def append_note_line(self, line: Line) -> None:
        text = CONTINUES_RE.sub("", ocr_bullet(line.text))
        if text in ("(続き)", "（続き）") or not text:
            return
        self.note.text = join_lines(self.note.text, text)

    def resolve_orphans(self, next_note: Unit | None) -> None:
        """Commentary lines found among Law text, placed by where they stand.

        After a reprint of a Law whose notes already began, they continue the last note (the
        reprint heads the page the note runs on to). Before the first note of a Law and right
        before a label, they are that note's body displaced above its label. Otherwise the
        label was lost: they form an unlabeled note of the Law.
        """
        if not self.orphans:
            return
        orphans, self.orphans = self.orphans, []
        text = "\n".join(CONTINUES_RE.sub("", ocr_bullet(l.text)) for l in orphans)
        last_note = self.last_note_of(self.law)
        if last_note is not None and next_note is not last_note:
            last_note.text = join_lines(last_note.text, text)
        elif next_note is not None:
            next_note.text = join_lines(next_note.text, text)
            next_note.attrs["displaced_lines"] = [orphans[0].number, orphans[-1].number]
        else:
            self.unlabeled_note(orphans[0].number, text)

    def last_note_of(self, law: str | None) -> Unit | None:
        for unit in reversed(self.units):
            if unit.kind == "note" and note_law(unit) == law:
                return unit
        return None

    def unlabeled_note(self, number: int, text: str) -> None:
        count = self.unlabeled_count[self.law] = self.unlabeled_count.get(self.law, 0) + 1
        quote = f"quote:{self.law}"
        self.emit(
            Unit(
                self.doc,
                f"note:{self.law}-{count}",
                "note",
                text=text,
                line=number,
                parent_ref=quote if quote in self.occurrences else None,
                attrs={"covers": [self.law], "label": None},
            )
        )

    # -- footnotes --
    def add_footnote(self, line: Line) -> None:
        self.footnotes.setdefault(line.footnote, []).append((line.number, line.text))

    def finish_footnotes(self) -> None:
        for number, printings in self.footnotes.items():
            (first_line, text), repeats = printings[0], printings[1:]
            carriers = [
                u.ref
                for u in self.units
                if u.kind != "footnote"
                and re.search(
                    rf"\*{number}(?!\d)",
                    u.text + "".join(v.get("text", "") for v in u.attrs.get("repeat_variants", [])),
                )
            ]
            # A body whose marker the conversion garbled (`示唆")` for 示唆*14) is still the
            # book's footnote: kept, unanchored rather than guessed (the errata restore markers).
            attrs = {"anchor_ref": carriers[0] if carriers else None}
            if not carriers:
                attrs["marker_lost"] = True
            if len(carriers) > 1:
                attrs["anchor_refs"] = carriers
            if repeats:
                attrs["repeated_at_lines"] = [n for n, _ in repeats]
            self.emit(Unit(self.doc, f"fn:{number}", "footnote", text=text, line=first_line, attrs=attrs))

    # -- the 実際の裁定例 chapter --
    def parse_rulings(self, i: int) -> int:
        ruling: Unit | None = None
        count = 0
        for line in self.lines[i:]:
            if line.footnote:
                self.add_footnote(line)
            elif line.text == RULINGS_CHAPTER or CONTINUES_RE.fullmatch(line.text):
                continue  # the chapter title repeats as a running header
            elif is_ruling_heading(line):
                count += 1
                ruling = self.emit(
                    Unit(
                        self.doc,
                        f"ruling:{count}",
                        "ruling",
                        title=line.text,
                        line=line.number,
                        attrs={"example": line.text.endswith("例") or "例（" in line.text or "例(" in line.text},
                    )
                )
                if count == 1 and "rulings" in self.toc_pages:
                    ruling.page = self.toc_pages["rulings"]
                applies = RULING_APPLIES.get(line.text)
                if applies:
                    ruling.attrs["applies"], ruling.attrs["applies_reason"] = applies
            elif ruling is None:
                raise ParseError(self.source, line.number, "expected a ruling heading (…の裁定 / …の裁定例)")
            else:
                ruling.text = add_ruling_line(ruling.text, line)
        return len(self.lines)


def variant(repeat: Occurrence, first: Occurrence) -> dict | None:
    """How a 再掲 reprint's wording differs from the first printing (that difference is data)."""
    found = {"line": repeat.line}
    if repeat.text != first.text:
        found["text"] = repeat.text
    if repeat.title != first.title:
        found["title"] = repeat.title
    return found if len(found) > 1 else None


def note_law(unit: Unit) -> str:
    covers = unit.attrs.get("covers") or [""]
    return re.match(r"\d*", covers[0]).group(0)


def join_lines(text: str, line: str) -> str:
    return f"{text}\n{line}" if text else line


def add_ruling_line(text: str, line: Line) -> str:
    """One line per paragraph or speaker turn: a turn cut by a line or page break is rejoined."""
    if not text:
        return line.text
    last = text.rsplit("\n", 1)[-1]
    open_quote = last.count("「") > last.count("」")
    if open_quote or (not line.paragraph_start and not line.bullet):
        return text + line.text
    return f"{text}\n{line.text}"


def parse(text: str, doc: str, source: str) -> ParsedDocument:
    return CommentaryParser(text, doc, source).parse()
