"""What a unit page shows around the unit, made once at build: where reading goes on from it
(previous / next within its document) and which commentary notes, worked rulings and reprints
apply it or one of its parts.

- Reading order: next is the first unit after the unit and everything inside it (27B1(b) -> 27B2,
  61B3 -> 61C, 61B -> 61C, 64 -> 65); previous is the nearest unit before it at its own level or
  above (27B2 -> 27B1, 27B1(a) -> 27B1, 61C -> 61B). Headings without text of their own (parts,
  chapters, contents rows, kana rows) and footnotes are stepped over; they keep their own kind's
  neighbours.
- Commentary: a note or ruling that cites a unit is listed on that unit and on every unit that
  contains it (the revokes' ruling 1 cites 64C: it is listed on 64C and on 64). A reprint is listed
  on the unit it reprints (and those containing it) only: the references its text prints are the
  Law's own (quote:43 prints 第42条 because Law 43 does), not a reprint of Law 42.
"""

from __future__ import annotations

from ingest.parsers.records import Unit

# not stopped at when reading on: headings, navigation, footnotes (shown with the text they annotate)
STEPPED_OVER = frozenset({"part", "chapter", "division", "toc", "toc_entry", "index", "index_row", "footnote"})
# what cites a law as commentary does: shown on the unit page with its first line
CITING_KINDS = ("note", "ruling", "quote", "essay")

READING_COLUMNS = {"unit_id": str, "previous_id": str, "next_id": str}
COMMENTARY_COLUMNS = {"id": str, "unit_id": str, "source_id": str, "source_kind": str, "direct": int, "position": int}


def reading_rows(units: list[Unit]) -> list[dict]:
    """previous_id / next_id of every unit, within its document, in reading order."""
    # Each unit's id, parent, depth and ancestors are worked out once, as lists by position: the
    # scans below visit ~10^4 (unit, neighbour) pairs, and walking parents anew for each was most
    # of this step's time.
    ids, parents = [u.id for u in units], [u.parent_id for u in units]
    docs, kinds = [u.doc for u in units], [u.kind for u in units]
    parent_of = dict(zip(ids, parents))
    depth_of = {}
    for unit_id, parent in zip(ids, parents):
        d = 0
        while parent in parent_of and d < 50:
            d, parent = d + 1, parent_of[parent]
        depth_of[unit_id] = d
    depth = [depth_of[unit_id] for unit_id in ids]
    ancestors = [ancestor_ids(parent, parent_of) for parent in parents]
    stepped_over = [kind in STEPPED_OVER for kind in kinds]
    by_kind: dict[tuple[str, str], list[int]] = {}  # positions of each (doc, kind)
    place = []  # each unit's place among its (doc, kind)
    for n, key in enumerate(zip(docs, kinds)):
        place.append(len(by_kind.setdefault(key, [])))
        by_kind[key].append(n)
    rows = []
    for n, (doc, kind) in enumerate(zip(docs, kinds)):
        if stepped_over[n]:
            same, at = by_kind[(doc, kind)], place[n]
            previous = ids[same[at - 1]] if at > 0 else None
            following = ids[same[at + 1]] if at + 1 < len(same) else None
        else:
            previous = following = None
            for m in range(n - 1, -1, -1):
                if docs[m] != doc:
                    break
                # (the same kind at any depth: 1997 Law 22 sits in a division, Law 23 right under the part)
                if not stepped_over[m] and (depth[m] <= depth[n] or kinds[m] == kind):
                    previous = ids[m]
                    break
            for m in range(n + 1, len(units)):
                if docs[m] != doc:
                    break
                if not stepped_over[m] and ids[n] not in ancestors[m]:
                    following = ids[m]
                    break
        rows.append({"unit_id": ids[n], "previous_id": previous, "next_id": following})
    return rows


def ancestor_ids(parent: str | None, parent_of: dict[str, str | None]) -> frozenset[str]:
    """The ids up a unit's parent chain (its parent's even if no such unit was parsed), 50 at most."""
    found, steps = set(), 0
    while parent and steps < 50:
        found.add(parent)
        parent, steps = parent_of.get(parent), steps + 1
    return frozenset(found)


def commentary_rows(units: list[Unit], xrefs: list[dict]) -> list[dict]:
    """(unit, citing note/ruling/reprint) for each resolved reference from commentary, on the cited
    unit (direct) and on each unit containing it; one row per pair, in the citing unit's order."""
    ids = [u.id for u in units]
    by_id = dict(zip(ids, units))
    position = {unit_id: n for n, unit_id in enumerate(ids, start=1)}
    parent_of = {unit_id: unit.parent_id for unit_id, unit in by_id.items()}
    citing: dict[str, Unit | None] = {}  # source id -> its citing unit: a unit cites many times
    pairs: dict[tuple[str, str], bool] = {}
    for xref in xrefs:
        if not xref.get("resolved") or not xref.get("target_id") or xref.get("kind") == "footnote":
            continue
        if xref["source_id"] not in citing:
            citing[xref["source_id"]] = citing_unit(by_id.get(xref["source_id"]), by_id)
        source = citing[xref["source_id"]]
        if source is None or (source.kind == "quote" and xref.get("kind") != "reprints"):
            continue  # what a reprint (or its footnote) cites is the Law's own citation, not a reprint of it
        target = by_id.get(xref["target_id"])
        if target is None or target.doc == source.doc:
            continue
        # up the cited unit's parents, by id (a unit of by_id is found under its own id)
        source_id, target_id, direct = source.id, xref["target_id"], True
        while target_id is not None:
            key = (target_id, source_id)
            pairs[key] = pairs.get(key, False) or direct
            direct = False
            parent = parent_of[target_id]
            target_id = parent if parent and parent in by_id else None
    return [
        {
            "id": f"{unit_id}<-{source_id}",
            "unit_id": unit_id,
            "source_id": source_id,
            "source_kind": by_id[source_id].kind,
            "direct": int(direct),
            "position": position[source_id],
        }
        for (unit_id, source_id), direct in sorted(pairs.items(), key=lambda p: (p[0][0], position[p[0][1]]))
    ]


def citing_unit(unit: Unit | None, by_id: dict[str, Unit]) -> Unit | None:
    """The note, ruling or reprint a citing unit is (or is part of)."""
    steps = 0
    while unit is not None and steps < 50:
        if unit.kind in CITING_KINDS:
            return unit
        unit = by_id.get(unit.parent_id) if unit.parent_id else None
        steps += 1
    return None
