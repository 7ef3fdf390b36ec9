"""Align a law across documents: which unit of one edition or reprint answers which unit of another.

Three kinds of evidence, strongest first:

* ``concordance``: a move curated in ``corpus/concordance.yml`` with its sources (1997 Law 23,
  the damaging enforced pass, lives in 2017 Law 72C). A ref named by a move is never paired by
  number: 1997 Law 23 and 2017 Law 23 are different rules.
* ``reprint``: a commentary's ``quote:<ref>`` unit reprints the Laws' unit ``<ref>``.
* ``same_ref``: two Laws editions print the unit under the same WBF ref (``61B2(a)``).

A unit with no counterpart gets a row with the other side NULL and a note saying why (only in
one edition; beyond the end of a source that is cut off). Rows are what table ``alignments``
holds: ``from_id, to_id, method, confidence, note`` (plus refs, for callers that diff).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ingest.parsers.records import ParseError, Unit
from ingest.sources.corpus import read_yaml
from ingest.text.refs import law_number

CONCORDANCE_PATH = Path(__file__).resolve().parents[2] / "corpus" / "concordance.yml"
LAW_KINDS = frozenset({"law", "section", "item", "subitem", "subsubitem"})

# How much a pairing method is worth: curated and structural links are certain; the same printed
# number across editions is only a presumption (sections are re-lettered, see the concordance).
CONFIDENCE = {"concordance": 1.0, "reprint": 1.0, "same_ref": 0.7, "unmatched": 1.0}


@dataclass(frozen=True)
class Move:
    """One concordance entry: ``from_ref`` (older edition) -> ``to_ref`` (newer); either may be None."""

    id: str
    kind: str
    from_doc: str | None
    from_ref: str | None
    to_doc: str | None
    to_ref: str | None
    note: str
    sources: tuple[str, ...]
    older_meaning: str | None = None
    note_ja: str = ""
    note_zh: str = ""


@dataclass(frozen=True)
class Concordance:
    moves: tuple[Move, ...]
    in_force: dict  # doc -> {"date", "previous_edition", "source"}

    def between(self, from_doc: str, to_doc: str) -> list[Move]:
        """The moves relevant to comparing these two documents, oriented from -> to."""
        found = []
        for move in self.moves:
            docs = {move.from_doc, move.to_doc} - {None}
            if docs <= {from_doc, to_doc} and from_doc != to_doc:
                found.append(move if _points(move, from_doc, to_doc) else _reversed(move))
        return found


def _points(move: Move, from_doc: str, to_doc: str) -> bool:
    return move.from_doc in (from_doc, None) and move.to_doc in (to_doc, None)


def _reversed(move: Move) -> Move:
    kind = {"new": "removed", "removed": "new"}.get(move.kind, move.kind)
    return Move(
        move.id,
        kind,
        move.to_doc,
        move.to_ref,
        move.from_doc,
        move.from_ref,
        move.note,
        move.sources,
        move.older_meaning,
        move.note_ja,
        move.note_zh,
    )


# --- the concordance file -------------------------------------------------------------------------


def load_concordance(path: Path | str = CONCORDANCE_PATH) -> Concordance:
    """Read ``corpus/concordance.yml``; every move must say where it is attested."""
    path = Path(path)
    data = read_yaml(path) or {}
    moves = tuple(_move(entry, str(path)) for entry in data.get("moves") or [])
    return Concordance(moves=moves, in_force=dict(data.get("in_force") or {}))


def _move(entry: dict, source: str) -> Move:
    kind = entry.get("kind")
    if kind not in ("moved", "new", "removed"):
        raise ParseError(source, None, f"move {entry.get('id')!r}: kind must be moved, new or removed")
    if not entry.get("sources"):
        raise ParseError(source, None, f"move {entry.get('id')!r} has no sources")
    start, end = entry.get("from") or {}, entry.get("to") or {}
    if (kind != "new" and not start.get("ref")) or (kind != "removed" and not end.get("ref")):
        raise ParseError(
            source,
            None,
            f"move {entry.get('id')!r}: a {kind} move needs "
            f"{'from' if kind != 'new' else ''} {'to' if kind != 'removed' else ''}",
        )
    return Move(
        id=entry["id"],
        kind=kind,
        from_doc=start.get("doc"),
        from_ref=_ref(start),
        to_doc=end.get("doc"),
        to_ref=_ref(end),
        note=" ".join(str(entry.get("note", "")).split()),
        sources=tuple(entry["sources"]),
        older_meaning=entry.get("older_meaning"),
        note_ja=" ".join(str(entry.get("note_ja", "")).split()),
        note_zh=" ".join(str(entry.get("note_zh", "")).split()),
    )


def _ref(side: dict) -> str | None:
    return str(side["ref"]) if side.get("ref") is not None else None


# --- which law unit a unit stands for --------------------------------------------------------------


def law_ref_of(unit: Unit) -> str | None:
    """The WBF law ref a unit prints or reprints: ``61B2`` for a Laws unit and for ``quote:61B2``."""
    if unit.kind in LAW_KINDS:
        return unit.ref
    if unit.kind == "quote":
        return unit.attrs.get("law_ref") or unit.ref.removeprefix("quote:")
    return None


def comparable_units(units: Iterable[Unit], doc: str) -> list[Unit]:
    """The units of ``doc`` that stand for a law unit, in document order."""
    return [u for u in units if u.doc == doc and law_ref_of(u) is not None]


def last_law_number(units: list[Unit]) -> int | None:
    """Where a source that is cut off stops (laws-1997-zh ends inside Law 52A): its last law."""
    if not any(u.attrs.get("truncated") for u in units):
        return None
    return max(int(u.attrs["number"]) for u in units if u.kind == "law" and "number" in u.attrs)


# --- pairing ---------------------------------------------------------------------------------------


def align(from_units: list[Unit], to_units: list[Unit], concordance: Concordance | None = None) -> list[dict]:
    """Pair the law units of two documents (each list: one document's comparable units).

    Returns one row per pair and per unpaired unit, in the reading order of ``to`` with
    ``from``-only units placed after the unit that precedes them in ``from``.
    """
    if not from_units or not to_units:
        return []
    from_doc, to_doc = from_units[0].doc, to_units[0].doc
    concordance = concordance or load_concordance()
    moves = concordance.between(from_doc, to_doc)
    from_by_ref = {law_ref_of(u): u for u in from_units}
    to_by_ref = {law_ref_of(u): u for u in to_units}
    pairs = concordance_pairs(moves, from_by_ref, to_by_ref)
    claimed_from = {m.from_ref for m in moves if m.from_ref}
    claimed_to = {m.to_ref for m in moves if m.to_ref}
    method = "reprint" if _is_reprint(from_units[0], to_units[0]) else "same_ref"
    for ref, to_unit in to_by_ref.items():
        if ref in from_by_ref and ref not in claimed_from and ref not in claimed_to:
            pairs.append(_row(from_by_ref[ref], to_unit, method, ""))
    pairs += unmatched_rows(pairs, from_units, to_units, moves)
    return order_rows(pairs, from_units, to_units)


def _is_reprint(from_unit: Unit, to_unit: Unit) -> bool:
    return "quote" in (from_unit.kind, to_unit.kind)


def concordance_pairs(moves: list[Move], from_by_ref: dict, to_by_ref: dict) -> list[dict]:
    rows = []
    for move in moves:
        if move.kind == "moved" and move.from_ref in from_by_ref and move.to_ref in to_by_ref:
            note = move.note
            rows.append(_row(from_by_ref[move.from_ref], to_by_ref[move.to_ref], "concordance", note))
    return rows


def unmatched_rows(pairs: list[dict], from_units: list[Unit], to_units: list[Unit], moves: list[Move]) -> list[dict]:
    """A row with the other side NULL for every unit left unpaired, and why."""
    paired_from = {p["from_id"] for p in pairs}
    paired_to = {p["to_id"] for p in pairs}
    from_end = last_law_number(from_units)
    to_end = last_law_number(to_units)
    rows = []
    for unit in from_units:
        if unit.id not in paired_from:
            rows.append(_row(unit, None, "unmatched", unmatched_note(unit, to_units[0].doc, to_end, moves, "from")))
    for unit in to_units:
        if unit.id not in paired_to:
            rows.append(_row(None, unit, "unmatched", unmatched_note(unit, from_units[0].doc, from_end, moves, "to")))
    return rows


def unmatched_note(unit: Unit, other_doc: str, other_end: int | None, moves: list[Move], side: str) -> str:
    ref = law_ref_of(unit)
    for move in moves:
        if (move.from_ref if side == "from" else move.to_ref) == ref:
            return move.note
    if other_end is not None and (law_number(ref) or 0) >= other_end:
        return f"beyond the end of {other_doc}, which is cut off in Law {other_end}: not comparable"
    return f"not in {other_doc}"


def _row(from_unit: Unit | None, to_unit: Unit | None, method: str, note: str) -> dict:
    return {
        "from_id": from_unit.id if from_unit else None,
        "to_id": to_unit.id if to_unit else None,
        "from_ref": law_ref_of(from_unit) if from_unit else None,
        "to_ref": law_ref_of(to_unit) if to_unit else None,
        "method": method,
        "confidence": CONFIDENCE[method],
        "note": note or None,
    }


def order_rows(rows: list[dict], from_units: list[Unit], to_units: list[Unit]) -> list[dict]:
    """Reading order: by the ``to`` unit's position; a from-only row just before the ``to`` unit
    paired with the next paired ``from`` unit (so 1997 40D/40E come after all of 2017 40C)."""
    to_position = {u.id: i for i, u in enumerate(to_units)}
    from_position = {u.id: i for i, u in enumerate(from_units)}
    anchor = {}  # from position -> to position of the to unit it is paired with
    for row in rows:
        if row["from_id"] and row["to_id"]:
            anchor[from_position[row["from_id"]]] = to_position[row["to_id"]]

    def key(row: dict) -> tuple:
        if row["to_id"]:
            return (to_position[row["to_id"]], 1, from_position.get(row["from_id"], 0))
        position = from_position[row["from_id"]]
        after = [anchor[p] for p in range(position + 1, len(from_units)) if p in anchor][:1]
        return (after[0] if after else len(to_units), 0, position)

    return sorted(rows, key=key)


# --- every comparison the site offers ----------------------------------------------------------------


def align_pairs(
    units: list[Unit], pairs: list[tuple[str, str]], concordance: Concordance | None = None
) -> dict[tuple[str, str], list[dict]]:
    """``align`` for each (from_doc, to_doc) the registry offers (``Registry.diff_pairs``), done once
    per build for both the alignments table and the diffs."""
    concordance = concordance or load_concordance()
    return {
        (from_doc, to_doc): align(comparable_units(units, from_doc), comparable_units(units, to_doc), concordance)
        for from_doc, to_doc in pairs
    }


def alignment_rows(aligned: dict[tuple[str, str], list[dict]]) -> list[dict]:
    """Rows for table ``alignments(from_doc, to_doc, from_id, to_id, method, confidence, note)``.

    Editions pair unit by unit (same_ref / concordance); a commentary's reprints pair with the Laws
    they quote (reprint), and only reprinted units and their counterparts are rows: a commentary
    reprints a few Laws, and the rest of the Laws is not "missing" from it. A row with a NULL side
    still says which comparison it belongs to: ``from_doc``, ``to_doc``. The 1997 -> 2017 pairing is
    not repeated here: table ``provision_pairs`` is its one home (ingest/editions/concordance.py), which the
    diffs, histories and pages read.
    """
    table = []
    for (from_doc, to_doc), rows in aligned.items():
        if any("basis" in row for row in rows):
            continue  # the editions the provision concordance pairs: their one table is provision_pairs
        reprints = any(row["method"] == "reprint" for row in rows)
        table += [
            {
                "from_doc": from_doc,
                "to_doc": to_doc,
                **{key: row[key] for key in ("from_id", "to_id", "method", "confidence", "note")},
            }
            for row in rows
            if row["from_id"] or not reprints
        ]
    return table
