"""The records every parser produces; the only thing parsers and `build` share.

A parser is a pure function ``parse(text, source) -> ParsedDocument``: text in, records out.
It never touches the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Unit:
    """One addressable unit of a document: a law, a section, a definition, a note...

    ``ref`` is the public, stable citation within the document (``61B2(a)``, ``def:ダミー``,
    ``L61A``, ``24-5-1``); ``id`` is ``DOC:REF``. ``text`` is the unit's own clean text
    (not its children's); ``title`` its heading where it has one. ``line`` is the 1-based
    line in the source file where the unit starts, for error messages and provenance.
    ``attrs`` holds kind-specific data (English term, flags, links a parser knows
    structurally such as a footnote's anchor or a quote's target); it is stored as JSON.
    """

    doc: str
    ref: str
    kind: str
    text: str = ""
    title: str | None = None
    parent_ref: str | None = None
    page: int | None = None
    line: int | None = None
    attrs: dict[str, Any] = field(default_factory=dict)

    # Spelled out rather than calling unit_id: read ~1.6*10^5 times a build, the extra call cost
    # ~4 ms. Computed, never stored: parsers and errata change doc and ref after a unit is made.
    @property
    def id(self) -> str:
        return f"{self.doc}:{self.ref}"

    @property
    def parent_id(self) -> str | None:
        return f"{self.doc}:{self.parent_ref}" if self.parent_ref else None


def unit_id(doc: str, ref: str) -> str:
    return f"{doc}:{ref}"


@dataclass
class ParsedDocument:
    """Everything parsed from one source file.

    ``units`` are in document order (their position in the list is their reading order).
    ``tables`` are extra relational tables the document carries (e.g. VP scales), as
    ``{table_name: [row dict, ...]}``; build adds a ``doc`` column to each row.
    """

    doc: str
    units: list[Unit]
    tables: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def by_ref(self) -> dict[str, Unit]:
        return {u.ref: u for u in self.units}


class ParseError(Exception):
    """Input the parser cannot make sense of: names the file, the line and what was expected."""

    def __init__(self, source: str, line: int | None, message: str):
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {message}")
