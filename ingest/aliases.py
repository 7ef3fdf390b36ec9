"""Old refs that still name a unit: the rows of table ``ref_aliases``.

A ref made from printed words (``def:<term>``, ``index:<heading>/<sub-term>``) changes when an
erratum corrects those words: ``def:ディクレアララー`` becomes ``def:ディクレアラー``. The printed
spelling was public (pages, links, JSON), so it must keep finding the unit: for each such unit,
``ref_aliases`` has a row (doc, alias = the ref as printed, ref = the ref now, reason) for the read
side to redirect. Found by parsing the verbatim text again and pairing its units with the
corrected ones (errata change words, never structure: the two parses align unit by unit).
"""
from __future__ import annotations

from .corpus import Source, read_text
from .documents import parse_document
from .records import ParsedDocument, ParseError, Unit

ALIAS_COLUMNS = {"id": str, "doc": str, "alias": str, "ref": str, "unit_id": str, "reason": str}


def made_from(unit: Unit) -> set[int]:
    lines = {unit.line} if unit.line else set()
    lines.update(n for n in unit.attrs.get("lines") or [] if isinstance(n, int))
    return lines


def derived_ref(unit: Unit) -> bool:
    """A ref spelt with printed words rather than numbers."""
    return any(not ch.isascii() for ch in unit.ref)


def ref_aliases(source: Source, document: ParsedDocument, errata: list[dict]) -> list[dict]:
    """One row per unit whose ref the errata changed; [] when no erratum touches such a unit."""
    fixed_lines = {int(fix["line"]) for fix in errata if fix.get("doc", source.id) == source.id}
    if not any(derived_ref(u) and made_from(u) & fixed_lines for u in document.units):
        return []
    try:
        printed = parse_document(source.id, read_text(source.path), source.name)
    except ParseError:
        return []  # errata that are also structural: no unit-by-unit pairing to trust
    rows = []
    for old, new in paired(printed.units, document.units):
        if old.ref != new.ref:
            lines = sorted(made_from(new) & fixed_lines)
            where = ", ".join(f"line {n}" for n in lines) or "its lines"
            rows.append({"id": f"{source.id}:{old.ref}", "doc": source.id, "alias": old.ref, "ref": new.ref,
                         "unit_id": new.id, "reason": f"printed {old.ref}; the spelling is corrected by corpus/errata/"
                                   f"{source.id}.yml ({where})"})
    return rows


def paired(printed: list[Unit], corrected: list[Unit]) -> list[tuple[Unit, Unit]]:
    """Units of the two parses, pair by pair; units that do not line up are left out."""
    if len(printed) == len(corrected) and all(
            a.kind == b.kind and a.line == b.line for a, b in zip(printed, corrected)):
        return list(zip(printed, corrected))
    by_place: dict[tuple[str, int | None, int], Unit] = {}
    seen: dict[tuple[str, int | None], int] = {}
    for unit in corrected:
        key = (unit.kind, unit.line)
        seen[key] = seen.get(key, 0) + 1
        by_place[(unit.kind, unit.line, seen[key])] = unit
    pairs, seen = [], {}
    for unit in printed:
        key = (unit.kind, unit.line)
        seen[key] = seen.get(key, 0) + 1
        match = by_place.get((unit.kind, unit.line, seen[key]))
        if match is not None:
            pairs.append((unit, match))
    return pairs
