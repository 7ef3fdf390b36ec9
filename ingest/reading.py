"""What a unit page shows around the unit, made once at build: where reading goes on from it
(previous / next within its document) and which commentary notes, worked rulings and reprints
apply it or one of its parts.

- Reading order: next is the first unit after the unit and everything inside it (27B1(b) -> 27B2,
  61B3 -> 61C, 61B -> 61C, 64 -> 65); previous is the nearest unit before it at its own level or
  above (27B2 -> 27B1, 27B1(a) -> 27B1, 61C -> 61B). Headings without text of their own (parts,
  chapters, contents rows, kana rows) and footnotes are stepped over; they keep their own kind's
  neighbours.
- Commentary: a note, ruling or reprint that cites a unit is listed on that unit and on every unit
  that contains it (the revokes' ruling 1 cites 64C: it is listed on 64C and on 64).
"""
from __future__ import annotations

from .records import Unit

# not stopped at when reading on: headings, navigation, footnotes (shown with the text they annotate)
STEPPED_OVER = frozenset({"part", "chapter", "division", "toc", "toc_entry", "index", "index_row", "footnote"})
# what cites a law as commentary does: shown on the unit page with its first line
CITING_KINDS = ("note", "ruling", "quote", "essay")

READING_COLUMNS = {"unit_id": str, "previous_id": str, "next_id": str}
COMMENTARY_COLUMNS = {"id": str, "unit_id": str, "source_id": str, "source_kind": str, "direct": int,
                      "position": int}


def reading_rows(units: list[Unit]) -> list[dict]:
    """previous_id / next_id of every unit, within its document, in reading order."""
    by_id = {u.id: u for u in units}
    depth = {}
    for unit in units:
        d, parent = 0, unit.parent_id
        while parent in by_id and d < 50:
            d, parent = d + 1, by_id[parent].parent_id
        depth[unit.id] = d
    by_kind: dict[tuple[str, str], list[int]] = {}
    for n, unit in enumerate(units):
        by_kind.setdefault((unit.doc, unit.kind), []).append(n)
    rows = []
    for n, unit in enumerate(units):
        if unit.kind in STEPPED_OVER:
            same = by_kind[(unit.doc, unit.kind)]
            at = same.index(n)
            previous = units[same[at - 1]].id if at > 0 else None
            following = units[same[at + 1]].id if at + 1 < len(same) else None
        else:
            previous = following = None
            for m in range(n - 1, -1, -1):
                other = units[m]
                if other.doc != unit.doc:
                    break
                # (the same kind at any depth: 1997 Law 22 sits in a division, Law 23 right under the part)
                if other.kind not in STEPPED_OVER and (depth[other.id] <= depth[unit.id] or other.kind == unit.kind):
                    previous = other.id
                    break
            for m in range(n + 1, len(units)):
                other = units[m]
                if other.doc != unit.doc:
                    break
                if other.kind not in STEPPED_OVER and not inside(other, unit.id, by_id):
                    following = other.id
                    break
        rows.append({"unit_id": unit.id, "previous_id": previous, "next_id": following})
    return rows


def inside(unit: Unit, ancestor_id: str, by_id: dict[str, Unit]) -> bool:
    parent, steps = unit.parent_id, 0
    while parent and steps < 50:
        if parent == ancestor_id:
            return True
        parent, steps = by_id[parent].parent_id if parent in by_id else None, steps + 1
    return False


def commentary_rows(units: list[Unit], xrefs: list[dict]) -> list[dict]:
    """(unit, citing note/ruling/reprint) for each resolved reference from commentary, on the cited
    unit (direct) and on each unit containing it; one row per pair, in the citing unit's order."""
    by_id = {u.id: u for u in units}
    position = {u.id: n for n, u in enumerate(units, start=1)}
    pairs: dict[tuple[str, str], bool] = {}
    for xref in xrefs:
        if not xref.get("resolved") or not xref.get("target_id") or xref.get("kind") == "footnote":
            continue
        source = citing_unit(by_id.get(xref["source_id"]), by_id)
        if source is None:
            continue
        target = by_id.get(xref["target_id"])
        if target is None or target.doc == source.doc:
            continue
        direct = True
        while target is not None:
            key = (target.id, source.id)
            pairs[key] = pairs.get(key, False) or direct
            direct = False
            target = by_id.get(target.parent_id) if target.parent_id else None
    return [{"id": f"{unit_id}<-{source_id}", "unit_id": unit_id, "source_id": source_id,
             "source_kind": by_id[source_id].kind, "direct": int(direct), "position": position[source_id]}
            for (unit_id, source_id), direct in sorted(pairs.items(), key=lambda p: (p[0][0], position[p[0][1]]))]


def citing_unit(unit: Unit | None, by_id: dict[str, Unit]) -> Unit | None:
    """The note, ruling or reprint a citing unit is (or is part of)."""
    steps = 0
    while unit is not None and steps < 50:
        if unit.kind in CITING_KINDS:
            return unit
        unit = by_id.get(unit.parent_id) if unit.parent_id else None
        steps += 1
    return None
