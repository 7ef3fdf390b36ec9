"""A unit found by search, before it is presented: where it is, its score, and what found it."""

from __future__ import annotations

from dataclasses import dataclass, field

from laws_site.search.data import SearchData
from laws_site.search.plan import Branch


@dataclass(slots=True)
class Hit:
    id: str
    doc: str
    ref: str
    kind: str
    title: str | None
    lang: str
    position: int
    score: float = 0.0
    branch: Branch | None = None
    match: str = "all"
    index_entries: list[str] = field(default_factory=list)
    reprints: list[str] = field(default_factory=list)
    reprint_of: str | None = None
    marks: list[tuple[int, int]] | None = None  # spans to mark instead of the branch's terms (citations)


HIT_COLUMNS = "s.id, s.doc, s.ref, s.kind, s.title, s.lang, s.position"


def load_hits(data: SearchData, unit_ids: list[str]) -> dict[str, Hit]:
    found = {}
    for unit in unit_ids:
        rowid = data.rowids.get(unit)
        if rowid is not None:
            found[unit] = Hit(*data.units[rowid], score=0.0, match="index")
    return found
