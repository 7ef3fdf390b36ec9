"""Source typos kept as printed, with what they probably mean: the rows of table ``source_notes``.

The errata correct what the PDF or web conversion garbled; a slip the source itself prints stays
as printed (the corpus is the book). When an ``as_printed`` entry of ``corpus/errata/<doc>.yml``
judges the span a typo of the source (``source_typo: true``), it says what it probably means::

    as_printed:
      - span: "理发"
        source_typo: true
        means: "更改"
        lines: [823]
        reason: why it is kept, and why it probably means that

Each occurrence of such a span in a unit's title or text (on the listed source lines, if any)
becomes a row: the unit, the field and offsets of the span, as printed, what it probably means
and why. The unit page and its JSON show them (laws_site/read/source_notes.py). An entry whose span
no unit holds is a build error naming the errata file and the entry's line.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path

from ingest.parsers.records import ParsedDocument, ParseError, Unit
from ingest.sources.corpus import errata_file

SOURCE_NOTE_COLUMNS = {
    "id": str,
    "doc": str,
    "unit_id": str,
    "field": str,
    "start": int,
    "end": int,
    "as_printed": str,
    "means": str,
    "reason": str,
}
# where a source prints words: the unit's title and text, and a 1997 definition's printed heading
# (参赛者(CONTTESTANT): its English is attrs.term_printed, the unit's title the Chinese term alone)
FIELDS = ("title", "text", "term_printed")


def field_value(unit: Unit, field: str) -> str:
    return (getattr(unit, field) if field in ("title", "text") else (unit.attrs or {}).get(field)) or ""


def entry_line(path: Path, span: str) -> int | None:
    """The line of the errata file where the `span:` of this entry is written (for errors)."""
    if not path.exists():
        return None
    pattern = re.compile(rf"^\s*-?\s*span:\s*[\"']?{re.escape(span)}[\"']?\s*$")
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if pattern.match(line):
            return number
    return None


def typo_entries(corpus_dir: Path, doc: str) -> tuple[Path, list[dict]]:
    """The `as_printed` entries of a document that say what the printed span probably means."""
    path, data, _ = errata_file(corpus_dir, doc)
    entries = [
        e for e in data.get("as_printed") or [] if isinstance(e, dict) and (e.get("means") or e.get("source_typo"))
    ]
    for entry in entries:
        if not entry.get("span") or not entry.get("reason") or not entry.get("means"):
            raise ParseError(
                str(path),
                entry_line(path, str(entry.get("span"))),
                "a source typo kept as printed (source_typo: true) needs a span, `means` "
                "(what it probably means) and a reason",
            )
    return path, entries


def holds_line(unit: Unit, lines: list[int], starts: list[int]) -> bool:
    """Does `unit` hold one of the source `lines`? A line belongs to the unit(s) starting last at or
    before it (``starts``: every unit's first line, sorted)."""
    for line in lines:
        index = bisect.bisect_right(starts, int(line)) - 1
        if index >= 0 and unit.line == starts[index]:
            return True
    return False


def source_note_rows(document: ParsedDocument, corpus_dir: Path | str) -> list[dict]:
    """One row per occurrence of each likely source typo kept in `document`."""
    path, entries = typo_entries(Path(corpus_dir), document.doc)
    starts = sorted({u.line for u in document.units if u.line})
    rows = []
    for entry in entries:
        span, lines = str(entry["span"]), entry.get("lines") or []
        found = []
        for unit in document.units:
            if lines and not holds_line(unit, lines, starts):
                continue
            for field in FIELDS:
                for match in re.finditer(re.escape(span), field_value(unit, field)):
                    found.append(
                        {
                            "id": f"{unit.id}#{field}:{match.start()}-{match.end()}",
                            "doc": document.doc,
                            "unit_id": unit.id,
                            "field": field,
                            "start": match.start(),
                            "end": match.end(),
                            "as_printed": span,
                            "means": str(entry["means"]),
                            "reason": " ".join(str(entry["reason"]).split()),
                        }
                    )
        if not found:
            where = f" on lines {lines}" if lines else ""
            raise ParseError(
                str(path), entry_line(path, span), f"as_printed span {span!r}{where} is in no unit of {document.doc}"
            )
        rows.extend(found)
    return rows
