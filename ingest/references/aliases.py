"""Old refs that still name a unit: the rows of table ``ref_aliases``.

A ref made from printed words (``def:<term>``, ``index:<heading>/<sub-term>``) changes when an
erratum corrects those words: ``def:ディクレアララー`` becomes ``def:ディクレアラー``. The printed
spelling was public (pages, links, JSON), so it must keep finding the unit: for each such unit,
``ref_aliases`` has a row (doc, alias = the ref as printed, ref = the ref now, reason) for the read
side to redirect. Found by undoing, in each such ref, the errata on the lines its unit is made
from (tests/test_textcheck.py checks the rows against a parse of the verbatim text, unit by unit).
"""

from __future__ import annotations

from ingest.parsers.records import ParsedDocument, Unit
from ingest.sources.corpus import Source

ALIAS_COLUMNS = {"id": str, "doc": str, "alias": str, "ref": str, "unit_id": str, "reason": str}


def made_from(unit: Unit) -> set[int]:
    lines = {unit.line} if unit.line else set()
    lines.update(n for n in unit.attrs.get("lines") or [] if isinstance(n, int))
    return lines


def derived_ref(unit: Unit) -> bool:
    """A ref spelt with printed words rather than numbers."""
    return not unit.ref.isascii()


def ref_aliases(source: Source, document: ParsedDocument, errata: list[dict]) -> list[dict]:
    """One row per unit whose ref the errata changed."""
    fixes_by_line: dict[int, list[dict]] = {}
    for fix in errata:
        if fix.get("doc", source.id) == source.id and fix.get("replace"):
            fixes_by_line.setdefault(int(fix["line"]), []).append(fix)
    fixed_lines = set(fixes_by_line)
    rows = []
    for unit in document.units:
        lines = sorted(made_from(unit) & fixed_lines) if derived_ref(unit) else []
        printed = unit.ref
        for line in lines:
            for fix in fixes_by_line[line]:
                printed = printed.replace(fix["replace"], fix["find"])
        if printed != unit.ref:
            where = ", ".join(f"line {n}" for n in lines)
            rows.append(
                {
                    "id": f"{source.id}:{printed}",
                    "doc": source.id,
                    "alias": printed,
                    "ref": unit.ref,
                    "unit_id": unit.id,
                    "reason": f"printed {printed}; the spelling is corrected by corpus/errata/"
                    f"{source.id}.yml ({where})",
                }
            )
    return rows
