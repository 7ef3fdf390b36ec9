"""The 索引 (term index) at the end of the 2017 Laws (laws-2017-ja) -> index units.

The section was converted from a two-level printed index whose indentation is lost, in two
physical formats:

* space format: blank-line-separated paragraphs of ``term refs`` lines (two trailing spaces are
  Markdown line breaks); the first line of a paragraph is a heading, the rest its sub-terms;
* tab format: ``term<TAB>refs`` lines; headings are often (not always) ``<b>bold</b>``.

Headings also appear as ``## X`` / ``### X`` lines, kana rows as ``### 【あ】`` / ``<b>【か】</b>``.

Where typography does not tell a heading from a sub-term (plain tab lines), we use the fact
that the printed index sorts its headings by reading (gojūon): among the plain terms of a kana
row, the longest run that keeps the reading order going is taken as headings (see
`choose_headings`). Sub-terms are listed by law number, so they rarely extend that run.

Output, in index order: ``index`` (the section), ``index_row`` (one per kana row) and
``index_entry`` (headings and sub-terms). ``Unit.text`` of an entry is its references exactly
as printed (joined with one space when they wrap onto the next line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from ingest.parsers.records import ParseError, Unit
from ingest.parsers.textclean import strip_tags
from ingest.text import kana as kana_table

INDEX_HEADING_RE = re.compile(r"^##\s*索引")

# --- the reference grammar the index prints -------------------------------------------
# 61C, 40B2(a)(v), 80B2(1) (sic, for (l)), 53脚注, 20脚注7, 76 脚注, 定義, 前書き
REF_ITEM = r"(?:\d+[A-Z]?\d*(?:\([a-z0-9]+\))*(?:\s*脚注\d*)?|定義|前書き)"
REF_SEP = r"(?:\s*[,、]\s*|\s+)"
# a trailing comma means the list wraps onto the next line
REF_LIST = rf"{REF_ITEM}(?:{REF_SEP}{REF_ITEM})*(?:\s*[,、])?"
REF_LIST_RE = re.compile(rf"^{REF_LIST}$")
SPACE_FORMAT_LINE_RE = re.compile(rf"^(?P<term>.*?\S)\s+(?P<refs>{REF_LIST})$")
# A space between two reference groups of a merged line (`20G3, 40B2(b) 40A1(a)`): not after a
# separator, not before 脚注 (`76 脚注` is one reference).
REF_GROUP_GAP_RE = re.compile(r"(?<![,、])\s+(?!\s|脚注)")

ROW_RE = re.compile(r"^【(?P<kana>.)】$")
MD_HEADING_RE = re.compile(r"^#{2,3}\s+(?P<text>.+)$")
FURNITURE_RE = re.compile(r"^[-\s]+$")  # `----<TAB>------`: a rule the conversion left
SEE_ALSO_RE = re.compile(r"\s*[（(]\s*(?P<targets>(?:「[^」]+」[、,]?\s*)+)(?P<how>も|を)?参照\s*[）)]")
SEE_TARGET_RE = re.compile(r"「([^」]+)」")
REMARK_PREFIX = "注："
GLOSS_START = ("(", "（", "「")


# --- one physical line ----------------------------------------------------------------
@dataclass(frozen=True)
class See:
    """A cross-reference to another index term: `（「反則行為」も参照）` is *see also* (the entry has
    references of its own), `（「調整スコア」参照）` / `を参照` is *see* (look there instead)."""

    target: str
    also: bool
    printed: str  # the parenthesis as printed


@dataclass
class Line:
    number: int
    # blank, furniture (a rule), row (【あ】), md_heading (## X), term, refs (references only),
    # see_also (a wrapped （「X」参照）), remark (注：...), gloss (a wrapped parenthesis or remark)
    kind: str
    term: str = ""
    refs: str = ""
    bold: bool = False
    tab: bool = False
    see: list[See] = field(default_factory=list)
    wrapped_from: int | None = None  # the line where a term cut by a line break starts


def classify(raw: str, number: int) -> Line:
    """What one line of the section is, with its term and references separated."""
    text = raw.rstrip(" \r\n")  # keep a trailing tab: `term<TAB>` is a tab-format line
    if not text.strip():
        return Line(number, "blank")
    if FURNITURE_RE.match(text):
        return Line(number, "furniture")
    heading = MD_HEADING_RE.match(text)
    if heading:
        return classify_md_heading(heading["text"].strip(), number)
    bold = "<b>" in text
    text = strip_tags(text)
    if "\t" in text:
        term, _, refs = text.partition("\t")
        line = Line(number, "term", term.strip(), refs.strip(), bold, tab=True)
    else:
        line = split_space_format(text.strip(), number, bold)
    return refine_kind(line)


def classify_md_heading(text: str, number: int) -> Line:
    row = ROW_RE.match(text)
    if row:
        return Line(number, "row", row["kana"])
    term, see = split_see(text)
    return Line(number, "md_heading", term, see=see)


def split_space_format(text: str, number: int, bold: bool) -> Line:
    """`IMP 定義, 78B` -> term + refs; the refs are the shortest tail the grammar accepts."""
    if REF_LIST_RE.match(text):
        return Line(number, "refs", refs=text)
    match = SPACE_FORMAT_LINE_RE.match(text)
    if match:
        return Line(number, "term", match["term"], match["refs"], bold)
    return Line(number, "term", text, "", bold)


def refine_kind(line: Line) -> Line:
    """Tell apart terms, row markers, wrapped refs, remarks, see-also and gloss lines."""
    term = line.term
    if ROW_RE.match(term):
        line.kind, line.term = "row", term[1]
    elif not term and line.refs:
        line.kind = "refs"
    elif term.startswith(REMARK_PREFIX):
        line.kind = "remark"
    elif SEE_ALSO_RE.fullmatch(term):
        line.kind, line.term, line.see = "see_also", "", see_targets(SEE_ALSO_RE.fullmatch(term))
    elif term.startswith(GLOSS_START) and not line.refs:
        line.kind = "gloss"  # `(「することができる」` ... `「しなければならない」)`
    else:
        line.term, line.see = split_see(term)
    if line.refs and not REF_LIST_RE.match(line.refs):
        raise ValueError(f"references not in the index grammar: {line.refs!r}")
    return line


def split_see(term: str) -> tuple[str, list[See]]:
    """`違反行為（「反則行為」も参照）` -> (`違反行為`, [See(`反則行為`, also=True, …)])."""
    match = SEE_ALSO_RE.search(term)
    if not match:
        return clean_term(term), []
    rest = term[: match.start()] + " " + term[match.end() :]
    return clean_term(rest), see_targets(match)


def see_targets(match: re.Match) -> list[See]:
    printed = match.group(0).strip()
    return [See(target, match["how"] == "も", printed) for target in SEE_TARGET_RE.findall(match["targets"])]


def clean_term(term: str) -> str:
    """Drop conversion spacing: runs of spaces, and the space a line wrap left after `、`."""
    term = re.sub(r"\s+", " ", term).strip()
    return re.sub(r"、 ", "、", term)


# --- entries ----------------------------------------------------------------------------
@dataclass
class Entry:
    term: str
    refs: str
    lines: list[int]
    row: str
    fmt: str  # space, tab, markdown
    role: str  # heading, sub, candidate (decided by reading order)
    see: list[See] = field(default_factory=list)
    remark: str | None = None
    gloss: str | None = None
    split_line: int | None = None


@dataclass
class Section:
    title: str = ""
    title_line: int = 0
    editor: str = ""
    editor_line: int = 0
    rows: list[tuple[str, int]] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)


class Assembler:
    """Walks the classified lines and builds entries, attaching continuation lines."""

    def __init__(self) -> None:
        self.section = Section()
        self.paragraph_start = True
        self.pending_wrap: Line | None = None  # a term cut by a line break
        self.last_kind = "blank"

    @property
    def entries(self) -> list[Entry]:
        return self.section.entries

    @property
    def row(self) -> str:
        return self.section.rows[-1][0] if self.section.rows else ""

    def feed(self, line: Line) -> None:
        handler = getattr(self, f"on_{line.kind}")
        handler(line)
        if line.kind != "blank":
            self.last_kind = line.kind
            # only a blank line starts a paragraph (rows and ## headings are followed by one)
            self.paragraph_start = line.kind in ("row", "md_heading")

    def on_blank(self, line: Line) -> None:
        self.paragraph_start = True

    def on_furniture(self, line: Line) -> None:
        pass

    def on_row(self, line: Line) -> None:
        self.section.rows.append((line.term, line.number))

    def on_md_heading(self, line: Line) -> None:
        self.add(Entry(line.term, "", [line.number], self.row, "markdown", "heading", line.see))

    def on_term(self, line: Line) -> None:
        if self.pending_wrap is not None:
            line = self.join_wrapped_term(line)
        elif line.tab and not line.refs and not line.bold and term_continues(line.term):
            self.pending_wrap = line
            return
        if line.tab:
            self.add_tab_line(line)
        else:
            role = "heading" if self.paragraph_start else "sub"
            self.add(Entry(line.term, line.refs, [line.number], self.row, "space", role, line.see))

    def join_wrapped_term(self, line: Line) -> Line:
        first, self.pending_wrap = self.pending_wrap, None
        line.term = first.term + line.term
        line.wrapped_from = first.number
        return line

    def add_tab_line(self, line: Line) -> None:
        lines = [line.wrapped_from, line.number] if line.wrapped_from else [line.number]
        parts = split_merged_line(line.term, line.refs)
        (term, refs), others = parts[0], parts[1:]
        role = "heading" if line.bold else "candidate"
        entries = [Entry(term, refs, lines, self.row, "tab", role, line.see)]
        entries += [Entry(term, refs, [line.number], self.row, "tab", "sub") for term, refs in others]
        for entry in entries:
            entry.split_line = line.number if others else None
            self.add(entry)

    def on_refs(self, line: Line) -> None:
        """A line of references only continues the entry before it (`<b>ゼロスコア</b><TAB>` then
        `<TAB>77`), unless it is a page number: one bare number after references that are complete."""
        entry = self.previous(line)
        if is_page_number(line.refs, entry.refs):
            return
        entry.refs = f"{entry.refs} {line.refs}".strip()
        entry.lines.append(line.number)

    def on_see_also(self, line: Line) -> None:
        entry = self.previous(line)
        entry.see += line.see
        if line.refs:
            entry.refs = f"{entry.refs} {line.refs}".strip()
        entry.lines.append(line.number)

    def on_remark(self, line: Line) -> None:
        entry = self.previous(line)
        entry.remark = line.term
        entry.lines.append(line.number)

    def on_gloss(self, line: Line) -> None:
        entry = self.previous(line)
        if self.last_kind == "remark" or (self.last_kind == "gloss" and entry.gloss is None):
            entry.remark = (entry.remark or "") + line.term  # a remark wrapped onto this line
        else:
            entry.gloss = (entry.gloss or "") + line.term
        entry.lines.append(line.number)

    def previous(self, line: Line) -> Entry:
        if not self.entries:
            raise ValueError(f"a {line.kind} line with no entry before it")
        return self.entries[-1]

    def add(self, entry: Entry) -> None:
        self.entries.append(entry)


def is_page_number(refs: str, previous_refs: str) -> bool:
    # The section as converted has none; `\t17D1, ...` (3551) and `\t77` (3565) follow a heading
    # with no refs, and `\t21B, 75B1, 75D2` (3555) is a list: all three are references.
    return refs.isdigit() and bool(previous_refs) and not previous_refs.endswith((",", "、"))


def term_continues(term: str) -> bool:
    """A plain term with no refs that ends in an adverb (`あらかじめ`) is cut by a line break."""
    last = morphemes(term)[-1]
    return last.part_of_speech()[0] in ("副詞", "助詞")


def split_merged_line(term: str, refs: str) -> list[tuple[str, str]]:
    """`パートスコア 得点<TAB>定義 77` holds two entries: as many terms as reference groups.

    The conversion merged consecutive index lines; a single term with a space in it has a
    single reference group, so it stays whole.
    """
    terms = split_terms(term)
    groups = REF_GROUP_GAP_RE.split(refs) if refs else []
    if len(terms) > 1 and len(terms) == len(groups):
        return list(zip(terms, groups))
    return [(term, refs)]


def split_terms(term: str) -> list[str]:
    """Space-separated terms; a parenthesis (`側 (サイド)`) stays with the term before it."""
    terms: list[str] = []
    for token in term.split():
        if terms and (token.startswith(("(", "（")) or terms[-1].endswith(("、", ","))):
            terms[-1] += " " + token
        else:
            terms.append(token)
    return terms


# --- headings among plain terms: the reading order -------------------------------------------


def morphemes(text: str):
    from ingest.text.tokenize import sudachi_tokenizer  # the project's one loaded Sudachi dictionary

    return list(sudachi_tokenizer().tokenize(text))


NOT_READ = ("補助記号", "空白")  # punctuation and spaces, which Sudachi reads as キゴウ


# Character by character in str.translate and one regular expression rather than Python loops:
# ~600 terms are read at every build, and the loops were a third of the readings' time.
NOT_KANA_RE = re.compile("[^ぁ-んー]")


@lru_cache(maxsize=None)
def collation_key(term: str) -> str:
    """The term's reading as the index sorts it: hiragana, no voicing marks, small kana large,
    ー read as the vowel before it (JIS X 4061 order, which the index follows)."""
    plain = SEE_ALSO_RE.sub("", term)
    plain = re.sub(r"[（(][^）)]*[）)]", "", plain)
    reading = "".join(m.reading_form() for m in morphemes(plain) if m.part_of_speech()[0] not in NOT_READ)
    return read_long_vowels(NOT_KANA_RE.sub("", kana_table.plain_kana(reading)))


def read_long_vowels(kana: str) -> str:
    if "ー" not in kana:
        return kana
    out = []
    for ch in kana:
        out.append(kana_table.vowel_hiragana(out[-1]) if ch == "ー" and out else ch)
    return "".join(ch for ch in out if ch)


def in_row(term: str, row: str) -> bool:
    key = collation_key(term)
    return bool(key) and key[0] in kana_table.GOJUON_ROWS.get(row, "")


def choose_headings(entries: list[Entry]) -> None:
    """Decide each candidate of one kana row: heading or sub-term.

    Headings are printed in reading order. Among the forced headings (bold, ``##``, first line
    of a paragraph) and the plain candidates, we keep the candidates that lie on the longest
    reading-ordered run through all the forced ones (a forced heading weighs more than all the
    candidates together). A candidate that repeats an earlier term plus a particle
    (`コールの言い直し` after `コール`) is a sub-term of it, whatever its reading.
    """
    resolve_orphans_and_repeats(entries)
    row = entries[0].row if entries else ""
    sequence = [i for i, e in enumerate(entries) if e.role in ("heading", "candidate") and in_row(e.term, row)]
    heavy = len(sequence) + 1
    # Ties between equally long runs go to the run with more definitions: a heading's first
    # locator is typically 定義. The bonus sums to less than one candidate, so it only breaks ties.
    definition_bonus = 1 / (len(sequence) + 1)
    best: dict[int, tuple[float, int | None]] = {}
    for pos, i in enumerate(sequence):
        weight = heavy if entries[i].role == "heading" else 1
        weight += definition_bonus if entries[i].refs.startswith("定義") else 0
        options = [
            (best[j][0], j) for j in sequence[:pos] if collation_key(entries[j].term) <= collation_key(entries[i].term)
        ]
        # on a tie, hang from the earlier term: a heading comes before its sub-terms
        score, back = max(options, key=lambda option: (option[0], -option[1]), default=(0, None))
        best[i] = (score + weight, back)
    chosen: set[int] = set()
    at = max(best, key=lambda i: (best[i][0], -i), default=None)
    while at is not None:
        chosen.add(at)
        at = best[at][1]
    for i, entry in enumerate(entries):
        if entry.role == "candidate":
            entry.role = "heading" if i in chosen else "sub"


PARTICLE_TAILS = ("の", "を", "が", "に", "する", "しない")


def resolve_orphans_and_repeats(entries: list[Entry]) -> None:
    """Settle the candidates typography and wording decide before any reading order."""
    seen_terms: list[str] = []
    forced_heading = ""
    for entry in entries:
        if entry.role == "candidate" and not forced_heading:
            entry.role = "heading"  # nothing to hang from: the first term of a row
        elif entry.role == "candidate" and repeats_earlier_term(entry.term, seen_terms, forced_heading):
            entry.role = "sub"
        if entry.role == "heading":  # a new forced heading: earlier terms belong to other headings
            forced_heading, seen_terms = entry.term, []
        seen_terms.append(entry.term)


def repeats_earlier_term(term: str, earlier: list[str], heading: str) -> bool:
    """`違反行為後の選択` under `違反行為`, `ディレクターを呼ぶ` after `ディレクター`."""
    if heading and term != heading and term.startswith(heading):
        return True
    return any(
        len(prior) >= 2 and term.startswith(prior) and term[len(prior) :].startswith(PARTICLE_TAILS)
        for prior in earlier
    )


# --- units ---------------------------------------------------------------------------------
def find_index_start(lines: list[str]) -> int:
    """0-based position of the `## 索引` heading in the whole file's lines."""
    for position, line in enumerate(lines):
        if INDEX_HEADING_RE.match(line):
            return position
    raise ValueError("no `## 索引` heading")


def parse_index(lines: list[str], first_line: int, doc: str, source: str) -> list[Unit]:
    """Units of the 索引 section; `lines` start at its `## 索引` heading (file line `first_line`)."""
    section = read_section(lines, first_line, source)
    for row_entries in group_by_row(section.entries):
        choose_headings(row_entries)
    units = [section_unit(section, doc)]
    units += build_entry_units(section, doc)
    return units


def read_section(lines: list[str], first_line: int, source: str) -> Section:
    heading = MD_HEADING_RE.match(lines[0].strip()) if lines else None
    if not heading or not INDEX_HEADING_RE.match(lines[0]):
        raise ParseError(source, first_line, "expected the `## 索引` heading")
    assembler = Assembler()
    assembler.section.title, assembler.section.title_line = heading["text"].strip(), first_line
    for offset, raw in enumerate(lines[1:], start=1):
        number = first_line + offset
        if not assembler.section.editor and raw.strip():
            assembler.section.editor, assembler.section.editor_line = raw.strip(), number
            continue
        try:
            assembler.feed(classify(raw, number))
        except ValueError as error:
            raise ParseError(source, number, str(error)) from error
    if assembler.pending_wrap is not None:
        raise ParseError(source, assembler.pending_wrap.number, "a wrapped term never ends")
    return assembler.section


def group_by_row(entries: list[Entry]) -> list[list[Entry]]:
    groups: dict[str, list[Entry]] = {}
    for entry in entries:
        groups.setdefault(entry.row, []).append(entry)
    return list(groups.values())


def section_unit(section: Section, doc: str) -> Unit:
    return Unit(
        doc,
        "index",
        "index",
        text=section.editor,
        title=section.title,
        line=section.title_line,
        attrs={"editor_line": section.editor_line},
    )


def build_entry_units(section: Section, doc: str) -> list[Unit]:
    """Row units and entry units in index order, with parents and unique refs.

    Every kana row of the gojūon gets a unit, in reading order, whether or not the index
    prints it: a row with no terms (な, わ) has ``printed`` None and no line, so a reader can
    go from any kana to its row.
    """
    printed = {kana: line for kana, line in section.rows}
    rows_to_emit = [kana for kana in kana_table.GOJUON_ROWS] + [
        kana for kana in printed if kana not in kana_table.GOJUON_ROWS
    ]
    units: list[Unit] = []
    used: dict[str, int] = {}
    heading: Unit | None = None
    current_row = None
    for entry in section.entries:
        if entry.row != current_row and entry.row in rows_to_emit:  # the rows up to this entry's
            while rows_to_emit:
                kana = rows_to_emit.pop(0)
                units.append(row_unit(kana, printed.get(kana), doc))
                if kana == entry.row:
                    break
        if entry.row != current_row:
            current_row, heading = entry.row, None
        unit = entry_unit(entry, heading, doc, used)
        if entry.role == "heading" or heading is None:
            heading = unit
        units.append(unit)
    units += [row_unit(kana, printed.get(kana), doc) for kana in rows_to_emit]
    return units


def row_unit(kana: str, line: int | None, doc: str) -> Unit:
    return Unit(
        doc,
        f"index-row:{kana}",
        "index_row",
        title=kana,
        parent_ref="index",
        line=line,
        attrs={"row": kana, "kana": kana_table.GOJUON_ROWS.get(kana, kana), "printed": f"【{kana}】" if line else None},
    )


def entry_unit(entry: Entry, heading: Unit | None, doc: str, used: dict[str, int]) -> Unit:
    if entry.role == "heading" or heading is None:
        heading_term, subterm, parent = entry.term, None, f"index-row:{entry.row}"
    else:
        heading_term, subterm, parent = heading.attrs["heading"], entry.term, heading.ref
    base = f"index:{heading_term}" + (f"/{subterm}" if subterm else "")
    used[base] = used.get(base, 0) + 1
    ref = base if used[base] == 1 else f"{base}~{used[base]}"
    attrs = {
        "heading": heading_term,
        "subterm": subterm,
        "refs_printed": entry.refs,
        "see": [x.target for x in entry.see if not x.also],
        "see_also": [x.target for x in entry.see if x.also],
        "remark": entry.remark,
        "row": entry.row,
        "format": entry.fmt,
        "lines": entry.lines,
    }
    if entry.see:
        attrs["see_printed"] = list(dict.fromkeys(x.printed for x in entry.see))
    if entry.gloss:
        attrs["gloss"] = entry.gloss
    if entry.split_line:
        attrs["split_line"] = entry.split_line
    if ref != base:
        attrs["duplicate_of"] = base
    return Unit(
        doc, ref, "index_entry", text=entry.refs, title=entry.term, parent_ref=parent, line=entry.lines[0], attrs=attrs
    )
