"""What the reading of both texts recorded in ``corpus/concordance.yml`` ``provisions``: loaded and checked.

Three kinds of entry, each with its reason in English, Japanese and Chinese (``reason``, ``reason_ja``,
``reason_zh``; ingest/editions/editorial_notes.py refuses a reason without them):

* ``decisions``: a 1997 unit -> the 2017 unit(s) it became (``to``: a ref, a list, or null for removed)
  and the relation the reading found (same, reworded, moved, split, merged, partial, removed);
* ``confirmed``: a 1997 unit kept under its number against the content proposal (reasons in
  ``confirmed_translations``);
* ``new``: a 2017 unit no 1997 unit of the corpus became, read: new in 2017, or (``source``) from a
  1997 unit in the part of the 1997 Laws this corpus does not hold (2017 20F4 is 1997 75D1).

The curated moves above them (``moves``: 23 -> 72C, 11B removed, ...) are decisions too. A malformed
entry is a ParseError naming the file and the entry's line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ingest.editions.align import CONCORDANCE_PATH, Concordance
from ingest.parsers.records import ParseError
from ingest.sources.corpus import read_yaml
from ingest.text.refs import parse_law_ref

DECIDED_RELATIONS = ("same", "reworded", "moved", "split", "merged", "partial", "removed")
LANGUAGES = ("ja", "zh")


@dataclass(frozen=True)
class Reason:
    """A reason in English and in each interface language (ja, zh)."""

    en: str
    ja: str = ""
    zh: str = ""


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: a 1997 unit -> the 2017 unit(s) it became (none: removed)."""

    from_ref: str
    to_refs: tuple[str, ...]
    relation: str | None
    reason: Reason
    line: int | None = None


@dataclass(frozen=True)
class NewUnit:
    """A 2017 unit read and found to come from no 1997 unit the corpus holds; ``source``: the 1997
    unit it comes from, in the part of the 1997 Laws the corpus does not hold (None: new in 2017)."""

    to_ref: str
    reason: Reason
    source: str | None = None
    line: int | None = None


@dataclass
class Provisions:
    from_doc: str
    to_doc: str
    reviewed_laws: frozenset[int]
    decisions: dict[str, Decision] = field(default_factory=dict)
    source: str = str(CONCORDANCE_PATH)
    new_notes: dict[str, Reason] = field(default_factory=dict)  # 2017 ref -> why it is new (concordance moves)
    # 1997 ref -> why the reading kept it under its number against the content proposal
    confirmed: dict[str, Reason] = field(default_factory=dict)
    new_units: dict[str, NewUnit] = field(default_factory=dict)  # 2017 ref -> read, no 1997 unit of the corpus


def load_provisions(path: Path | str = CONCORDANCE_PATH, concordance: Concordance | None = None) -> Provisions:
    """``provisions`` of ``corpus/concordance.yml`` plus the curated moves between the two editions;
    a malformed entry is a ParseError naming the file and the entry's line."""
    path = Path(path)
    data, lines = _read_with_lines(path)
    section = data.get("provisions") or {}
    if not isinstance(section, dict):
        raise ParseError(str(path), None, "'provisions' must be a mapping with from, to, reviewed and decisions")
    from_doc, to_doc = section.get("from"), section.get("to")
    if section and not (from_doc and to_doc):
        raise ParseError(
            str(path), None, "'provisions' needs 'from' and 'to': the older and the newer edition's document ids"
        )
    provisions = Provisions(
        from_doc,
        to_doc,
        frozenset(_law_range(str((section.get("reviewed") or {}).get("laws", "")), str(path))),
        source=str(path),
    )
    for entry, line in zip(section.get("decisions") or [], lines["decision"]):
        decision = _decision(entry, str(path), line)
        if decision.from_ref in provisions.decisions:
            raise ParseError(
                str(path),
                line,
                f"1997 {decision.from_ref} is decided twice "
                f"(first at line {provisions.decisions[decision.from_ref].line})",
            )
        provisions.decisions[decision.from_ref] = decision
    _load_confirmed(section, provisions, str(path))
    for entry, line in zip(section.get("new") or [], lines["new"]):
        unit = _new_unit(entry, str(path), line)
        if unit.to_ref in provisions.new_units:
            raise ParseError(str(path), line, f"2017 {unit.to_ref} is read as new twice")
        provisions.new_units[unit.to_ref] = unit
    for move in concordance.between(from_doc, to_doc) if concordance else []:
        note = Reason(move.note, move.note_ja, move.note_zh)
        if move.kind == "new" and move.to_ref:
            provisions.new_notes[move.to_ref] = note
        if move.kind in ("moved", "removed") and move.from_ref and move.from_ref not in provisions.decisions:
            provisions.decisions[move.from_ref] = Decision(
                move.from_ref, (move.to_ref,) if move.kind == "moved" else (), move.kind, note
            )
    return provisions


def _load_confirmed(section: dict, provisions: Provisions, source: str) -> None:
    confirmed = section.get("confirmed") or {}
    translations = section.get("confirmed_translations") or {}
    if not isinstance(confirmed, dict):
        raise ParseError(source, None, "'provisions.confirmed' maps a 1997 ref to why its number was kept")
    for ref, reason in confirmed.items():
        if parse_law_ref(str(ref)) is None or not str(reason or "").strip():
            raise ParseError(source, None, f"confirmed {ref!r}: a law ref with a reason")
        if str(ref) in provisions.decisions:
            raise ParseError(source, provisions.decisions[str(ref)].line, f"1997 {ref} is both decided and confirmed")
        versions = translations.get(ref) if isinstance(translations.get(ref), dict) else {}
        provisions.confirmed[str(ref)] = Reason(one_line(reason), *(one_line(versions.get(l)) for l in LANGUAGES))


ENTRY_LINE = re.compile(r"^\s*-\s*\{?\s*(from|to)\s*:", re.M)


def _read_with_lines(path: Path) -> tuple[dict, dict[str, list[int]]]:
    """The file's data (parsed once per build, shared with ingest.editions.align) and the line each
    entry starts on: a decision begins `- {from:`, a new unit `- {to:` (the moves above use `- id:`)."""
    data = read_yaml(path) or {}  # bad YAML is a ParseError with its line (ingest.sources.corpus)
    if not isinstance(data, dict):
        raise ParseError(str(path), 1, "expected a mapping with 'moves' and 'provisions'")
    text = path.read_text(encoding="utf-8")
    lines: dict[str, list[int]] = {"decision": [], "new": []}
    for m in ENTRY_LINE.finditer(text):
        lines["decision" if m.group(1) == "from" else "new"].append(text.count("\n", 0, m.start()) + 1)
    return data, lines


def one_line(value) -> str:
    return " ".join(str(value or "").split())


def _reason(entry: dict) -> Reason:
    return Reason(one_line(entry.get("reason")), *(one_line(entry.get(f"reason_{l}")) for l in LANGUAGES))


def _law_range(text: str, source: str) -> list[int]:
    laws: list[int] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise ParseError(source, None, f"reviewed laws {text!r}: expected numbers and ranges like '1-52'")
        laws += range(int(low), int(high or low) + 1)
    return laws


def _decision(entry, source: str, line: int | None) -> Decision:
    if not isinstance(entry, dict) or "from" not in entry or "to" not in entry:
        raise ParseError(
            source, line, "each decision is a mapping with from, to (a ref, a list of refs or null) and reason"
        )
    from_ref, to = str(entry["from"]), entry["to"]
    to_refs = tuple(str(r) for r in (to if isinstance(to, list) else [] if to is None else [to]))
    relation, reason = entry.get("relation"), _reason(entry)
    for ref in (from_ref, *to_refs):
        if parse_law_ref(ref) is None:
            raise ParseError(source, line, f"{ref!r} is not a law ref like 61, 61B, 61B2(a)")
    if relation is not None and relation not in DECIDED_RELATIONS:
        raise ParseError(source, line, f"relation {relation!r}: one of {', '.join(DECIDED_RELATIONS)}")
    if not reason.en:
        raise ParseError(source, line, f"decision for 1997 {from_ref} has no reason")
    if (relation == "removed") != (not to_refs):
        raise ParseError(source, line, f"decision for 1997 {from_ref}: 'to: null' and 'relation: removed' go together")
    return Decision(from_ref, to_refs, relation, reason, line)


def _new_unit(entry, source: str, line: int | None) -> NewUnit:
    if not isinstance(entry, dict) or "to" not in entry or "from" in entry:
        raise ParseError(source, line, "each new unit is a mapping with to (a 2017 ref), reason and, if known, source")
    to_ref, origin = str(entry["to"]), entry.get("source")
    for ref in (to_ref, *([str(origin)] if origin is not None else [])):
        if parse_law_ref(ref) is None:
            raise ParseError(source, line, f"{ref!r} is not a law ref like 61, 61B, 61B2(a)")
    reason = _reason(entry)
    if not reason.en:
        raise ParseError(source, line, f"new unit 2017 {to_ref} has no reason")
    return NewUnit(to_ref, reason, str(origin) if origin is not None else None, line)
