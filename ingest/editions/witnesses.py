"""Second witnesses: the Law text the commentaries reprint (``quote:*``) beside laws-2017-ja's.

The two commentaries reprint many Laws units before their notes. A reprint is a second printing
of the same text, converted separately: where it and laws-2017-ja read alike, a conversion slip
in either is unlikely; where they differ, either one of them is garbled (laws-2017-ja's 14B4
リポート for リボーク) or the commentary reprints the Laws as they read in 2018 (63B 双方による), which
is data for the diff. This module pairs each printing with its witness and lists where the two
read otherwise, phrase by phrase, for a reviewer and for tests/test_commentary_witnesses.py.

Pure: parsed documents in, records out (no database, no Sudachi).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ingest.parsers.records import ParsedDocument, Unit

# Typography the two conversions set differently, which no reader would call a difference:
# full-width and half-width brackets and colon, the dash of 「…こと － リボーク…」, spaces, and
# footnote numbers (the commentaries number their footnotes apart from the Laws).
_TYPOGRAPHY = str.maketrans({"（": "(", "）": ")", "：": ":", "－": "ー"})
_MARKER_RE = re.compile(r"\*\d+")
_SPACE_RE = re.compile(r"[ \u3000\t]+")
_KATAKANA = re.compile(r"[\u30a1-\u30faー]")
_FINAL_LONG_VOWEL = re.compile(r"(?<=[\u30a1-\u30fa])ー(?![\u30a1-\u30faー])")
CONTEXT = 2  # characters of shared context either side of a differing phrase


@dataclass(frozen=True)
class Printing:
    """One printing of a Laws unit's field in a commentary, with laws-2017-ja's as its witness."""

    doc: str
    ref: str  # the commentary's unit (quote:64B2, fn:19)
    line: int  # the line this printing starts on (a 再掲 reprint has its own)
    field: str  # "title" or "text"
    text: str
    witness_ref: str  # the laws-2017-ja unit (64B2, fn:19)
    witness_text: str


@dataclass(frozen=True)
class Disagreement:
    doc: str
    ref: str
    line: int
    field: str
    printed: str  # the phrase as the commentary prints it, with shared context
    witness: str  # the same phrase in laws-2017-ja


def normalise(text: str | None) -> str:
    """The text as two printings of it must agree: typography folded, and a katakana word's final ー
    (プレイヤー / プレイヤ, ディクレアラー / ディクレアラ: both books print both; search folds them)."""
    folded = _SPACE_RE.sub("", _MARKER_RE.sub("*", (text or "").translate(_TYPOGRAPHY)))
    return _FINAL_LONG_VOWEL.sub("", folded)


def printings(commentary: ParsedDocument, laws: ParsedDocument) -> list[Printing]:
    """Every reprint (first printing and each 再掲) and every footnote printed under one, paired
    with the laws-2017-ja unit it reprints. A field the commentary leaves empty (it reprints only
    the section headings of 45, 50, 54, 65, 66 and 67A) has nothing to compare."""
    by_ref = laws.by_ref()
    footnote_of = {u.attrs.get("anchor_ref"): u for u in laws.units if u.kind == "footnote"}
    found: list[Printing] = []
    for unit in commentary.units:
        if unit.kind == "quote" and unit.attrs.get("law_ref") in by_ref:
            witness = by_ref[unit.attrs["law_ref"]]
            versions = [(unit.line, unit.title, unit.text)] + [
                (v["line"], v.get("title", unit.title), v.get("text", unit.text))
                for v in unit.attrs.get("repeat_variants", [])
            ]
            for line, title, text in versions:
                found += [
                    Printing(unit.doc, unit.ref, line, name, value, witness.ref, other or "")
                    for name, value, other in (("title", title, witness.title), ("text", text, witness.text))
                    if value
                ]
        elif unit.kind == "footnote":
            anchor = (unit.attrs.get("anchor_ref") or "").removeprefix("quote:")
            witness = footnote_of.get(anchor)
            if witness is not None:
                found.append(Printing(unit.doc, unit.ref, unit.line, "text", unit.text, witness.ref, witness.text))
    return found


def disagreements(printing: Printing) -> list[Disagreement]:
    """Where a printing and its witness read otherwise (typography aside), phrase by phrase."""
    a, b = normalise(printing.text), normalise(printing.witness_text)
    if a == b:
        return []
    changes = [op[1:] for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if sum(max(i2 - i1, j2 - j1) for i1, i2, j1, j2 in changes) * 3 > min(len(a), len(b)):
        changes = [(0, len(a), 0, len(b))]  # reworded throughout (57A's title): the whole field
    merged: list[list[int]] = []
    for i1, i2, j1, j2 in changes:
        if merged and i1 - merged[-1][1] <= 1:  # リ|ボ|ー|ク against リ|ポ|ー|ト: one word, one difference
            merged[-1][1], merged[-1][3] = i2, j2
        else:
            merged.append([i1, i2, j1, j2])
    found = []
    for i1, i2, j1, j2 in merged:
        i1, j1 = widen_left(a, b, i1, j1)
        i2, j2 = widen_right(a, b, i2, j2)
        found.append(Disagreement(printing.doc, printing.ref, printing.line, printing.field, a[i1:i2], b[j1:j2]))
    return found


def widen_left(a: str, b: str, i: int, j: int) -> tuple[int, int]:
    """Back over the shared katakana word the difference sits in, then CONTEXT more characters."""
    while i > 0 and j > 0 and a[i - 1] == b[j - 1] and _KATAKANA.match(a[i - 1]):
        i, j = i - 1, j - 1
    for _ in range(CONTEXT):
        if i > 0 and j > 0 and a[i - 1] == b[j - 1]:
            i, j = i - 1, j - 1
    return i, j


def widen_right(a: str, b: str, i: int, j: int) -> tuple[int, int]:
    while i < len(a) and j < len(b) and a[i] == b[j] and _KATAKANA.match(a[i]):
        i, j = i + 1, j + 1
    for _ in range(CONTEXT):
        if i < len(a) and j < len(b) and a[i] == b[j]:
            i, j = i + 1, j + 1
    return i, j


def unit_at(units: list[Unit], line: int) -> tuple[Unit, int] | None:
    """The unit a source line belongs to, and the line its printing starts on: the last printing
    that starts on or before the line (a 再掲 reprint starts again; a note's body printed above
    its label, ``displaced_lines``, starts where it is printed)."""
    starts = []
    for unit in units:
        starts += [(start, unit) for start in [unit.line or 0] + list(unit.attrs.get("repeated_at_lines", []))]
        displaced = unit.attrs.get("displaced_lines")
        if displaced:
            starts.append((displaced[0], unit))  # the body runs on to the label that follows it
    found = None
    for start, unit in sorted(starts, key=lambda pair: pair[0]):
        if start > line:
            break
        found = (unit, start)
    return found


def printing_at(found: list[Printing], ref: str, line: int, field: str) -> Printing | None:
    """The printing of a unit's field that starts on ``line``; a 再掲 reprint worded as the first
    printing is the first printing (only differing reprints are listed apart)."""
    own = [p for p in found if (p.ref, p.line, p.field) == (ref, line, field)]
    first = [p for p in found if (p.ref, p.field) == (ref, field)]
    return (own or first or [None])[0]
