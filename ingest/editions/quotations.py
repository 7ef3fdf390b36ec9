"""The Law text a commentary prints inside its notes: quotations attributed to a law and reprints.

Beside its reprint units (``quote:*``, ingest/editions/witnesses.py), a commentary prints the Laws' words
in its notes in two ways, each a second witness of laws-2017-ja:

* a quotation attributed to a law: 「…」 or 『…』 right after a citation (○第47条E項1「対戦相手が…」,
  ○第44条『プレイの順序と進行』, C項『スートにフォローする義務』), the cited unit's title or text;
* a line that reprints a cited unit without quotation marks (L61A prints 44C's sentence under its
  heading: 「…各プレイヤーは可能なスートにフォローしなければならない。…」).

Each becomes a ``Printing`` whose witness is the passage of the cited unit (or of a unit under it) that
reads most like it, so that ``disagreements`` lists where the two read otherwise.

Pure: parsed documents in, records out (no database, no Sudachi).
"""

from __future__ import annotations

import difflib
import re

from ingest.editions.witnesses import Printing, normalise
from ingest.parsers.records import ParsedDocument, Unit
from ingest.references.xrefs import unit_references
from ingest.sources.registry import Registry
from ingest.text.refs import law_ancestors, parse_law_ref

NOTE_KINDS = frozenset({"note", "ruling", "essay"})
# a quotation right after a citation, past a particle or a space: 第59条は『…』, 第47条E項1「…」
QUOTED_AFTER = re.compile(r"\s*(?:は|の|では|より)?\s*(?:『(?P<title>[^』\n]{2,120})』|「(?P<text>[^」\n]{2,200})」)")
REPRINT_LINE = 15  # a line shorter than this (folded) is too short to be told apart from a paraphrase
REPRINT_LIKENESS = 0.8  # how alike a line and a cited passage must be to count as a reprint of it
SLACK = 3  # characters a quotation's ends may be off from the passage's
MARKERS = re.compile(r"\*\d*")
LIST_MARK = re.compile(r"^[○・\-\s]*(?:\(\w{1,3}\)\s*)?")
QUOTED = re.compile(r"「([^」\n]+)」|『([^』\n]+)』")


def passages(unit: Unit, laws: ParsedDocument) -> list[tuple[str, str]]:
    """(ref, title or text) of the unit and of every unit under it, where a quotation may come from."""
    found = []
    for candidate in laws.units:
        if candidate.ref == unit.ref or unit.ref in law_ancestors(candidate.ref):
            found += [(candidate.ref, value) for value in (candidate.title, candidate.text) if value]
    return found


def best_passage(quoted: str, candidates: list[tuple[str, str]]) -> tuple[str, str, float]:
    """(ref, passage, likeness) of the window of a candidate that reads most like ``quoted``: the
    candidate's words aligned on the longest run they share with it, then widened or narrowed by a
    few characters (a quotation may drop or add a particle at either end). Footnote markers are no
    words."""
    wanted = normalise(quoted)
    best = ("", "", 0.0, 0)
    for ref, value in candidates:
        text = normalise(MARKERS.sub("", value))
        if wanted in text:
            return ref, wanted, 1.0
        block = difflib.SequenceMatcher(None, wanted, text, autojunk=False).find_longest_match(
            0, len(wanted), 0, len(text)
        )
        if block.size * 3 < len(wanted):  # nothing like it: not worth aligning
            continue
        anchor = max(0, block.b - block.a)
        likeness = alike(wanted, text[anchor : anchor + len(wanted)])
        if likeness > best[2]:
            best = (ref, text, likeness, anchor)
    ref, text, likeness, anchor = best
    if not ref:
        return "", "", 0.0
    windows = [
        text[start:end]
        for start in range(max(0, anchor - SLACK), anchor + SLACK + 1)
        for end in range(start + len(wanted) - SLACK, start + len(wanted) + SLACK + 1)
    ]
    window = max(windows, key=lambda window: alike(wanted, window))
    return ref, window, alike(wanted, window)


def alike(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def cited_laws(unit: Unit, registry: Registry, laws: ParsedDocument) -> list[tuple[int, int, Unit]]:
    """(start, end, cited unit) of every reference the unit's text makes to a unit of ``laws``."""
    by_ref = laws.by_ref()
    found = []
    for reference, field in unit_references(unit, registry):
        target = by_ref.get(reference.ref or "") if parse_law_ref(reference.ref or "") else None
        if field == "text" and reference.start is not None and target is not None:
            found.append((reference.start, reference.end, target))
    return sorted(found, key=lambda found: found[0])


def line_of(unit: Unit, text: str, position: int, source_lines: list[str] | None = None) -> int:
    """The source line a position of a note's text is printed on: the first line from the note's
    own that holds the words starting there (blank lines and markup lie between a note's lines), or,
    without the source, the note's line plus the lines of its text before the position."""
    estimate = (unit.line or 0) + text.count("\n", 0, position)
    if not source_lines or not unit.line:
        return estimate
    wanted = normalise(text[position : text.find("\n", position) if "\n" in text[position:] else None])[:12]
    for number in range(unit.line, min(len(source_lines), estimate + 40) + 1):
        if wanted and wanted in normalise(source_lines[number - 1]):
            return number
    return estimate


def quotation_printings(
    commentary: ParsedDocument, laws: ParsedDocument, registry: Registry, source: str | None = None
) -> list[Printing]:
    """Every quotation a note attributes to a law, and every line of a note that reprints a law it
    cites, each with the cited passage as its witness (``source``: the commentary's text, for the
    line each is printed on)."""
    source_lines = source.split("\n") if source else None
    found: list[Printing] = []
    for unit in commentary.units:
        if unit.kind not in NOTE_KINDS or not unit.text:
            continue
        cited = cited_laws(unit, registry, laws)
        quotes = quoted(unit, cited, laws, source_lines)
        found += quotes + reprinted_lines(unit, cited, laws, source_lines, {p.line for p in quotes})
    return found


def quoted(
    unit: Unit, cited: list[tuple[int, int, Unit]], laws: ParsedDocument, source_lines: list[str] | None
) -> list[Printing]:
    found = []
    for _, end, target in cited:
        match = QUOTED_AFTER.match(unit.text, end)
        if not match:
            continue
        words = match.group("title") or match.group("text")
        ref, passage, _ = best_passage(words, passages(target, laws))
        line = line_of(unit, unit.text, match.start(match.lastgroup), source_lines)
        found.append(Printing(unit.doc, unit.ref, line, "quotation", words, ref or target.ref, passage))
    return found


def reprinted_lines(
    unit: Unit,
    cited: list[tuple[int, int, Unit]],
    laws: ParsedDocument,
    source_lines: list[str] | None,
    quoted_lines: set[int],
) -> list[Printing]:
    """Lines of the note that read like a passage of a unit it cites (or a unit under one), quoted
    without quotation marks."""
    targets = {target.ref: target for _, _, target in cited}
    candidates = [passage for target in targets.values() for passage in passages(target, laws)]
    found, position = [], 0
    for text_line in unit.text.split("\n"):
        line = line_of(unit, unit.text, position, source_lines)
        start, position = position, position + len(text_line) + 1
        if line in quoted_lines or not candidates:
            continue
        for words in line_passages(text_line, start, cited):
            if len(normalise(words)) < REPRINT_LINE:
                continue
            ref, passage, likeness = best_passage(words, candidates)
            if likeness >= REPRINT_LIKENESS:
                found.append(Printing(unit.doc, unit.ref, line, "reprint in a note", words, ref, passage))
    return found


def line_passages(text_line: str, start: int, cited: list[tuple[int, int, Unit]]) -> list[str]:
    """What in a line of a note may be a law's words: each 「…」 or 『…』 it quotes, else the line
    without its list mark and the citations it starts with (第64条B項3 ペナルティカードや…)."""
    quoted = [a or b for a, b in QUOTED.findall(text_line)]
    if quoted:
        return quoted
    words = LIST_MARK.sub("", text_line)
    offset = start + len(text_line) - len(words)
    for begin, end, _ in cited:  # the citations it starts with: 第64条B項3 ペナルティカードや…
        if begin == offset + (len(words) - len(words.lstrip())):
            words = words.lstrip()[end - begin :]
            offset = end
    for begin, end, _ in reversed(cited):  # and those it ends with: …プレイしなかったとき。第67条。
        if offset <= begin and end <= offset + len(words) and not words[end - offset :].strip("。、 "):
            words = words[: begin - offset]
    return [words.strip(" 。、")]
