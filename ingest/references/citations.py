"""Which law cites which, counted once at build for /-/citations (and its JSON).

For every edition of the Laws: a row per (citing law, cited law) with the citing units
(`law_citations`), a row per law with its totals, title and part (`law_citation_totals`), and a
row per (citing part, cited part) (`part_citations`), so the page only reads.

A citation is a resolved in-text reference ('cites') from the law text (a law, section, item,
sub-item or footnote) to a unit of the same edition; a footnote counts for the law its marker sits
in. Counts are distinct citing units. A law naming its own sections (61C -> 61B) is a pair like any
other in `law_citations`, but the totals and the part matrix count only citations between laws.
"""

from __future__ import annotations

import json
from collections import defaultdict

from ingest.parsers.records import Unit
from ingest.text.refs import law_number

LAW_TEXT_KINDS = ("law", "section", "item", "subitem", "subsubitem", "footnote")
PAIR_COLUMNS = {
    "doc": str,
    "from_law": int,
    "to_law": int,
    "from_part": str,
    "to_part": str,
    "units": int,
    "citing_units": str,
}
TOTAL_COLUMNS = {
    "doc": str,
    "law": int,
    "ref": str,
    "title": str,
    "part": str,
    "part_title": str,
    "part_position": int,
    "cites_units": int,
    "cites_laws": int,
    "cited_by_units": int,
    "cited_by_laws": int,
}
PART_COLUMNS = {"doc": str, "from_part": str, "to_part": str, "units": int, "law_pairs": int}


def citation_tables(units: list[Unit], xrefs: list[dict], law_docs: list[str]) -> dict[str, list[dict]]:
    """Rows of `law_citations`, `law_citation_totals` and `part_citations` for each Laws edition."""
    out: dict[str, list[dict]] = {"law_citations": [], "law_citation_totals": [], "part_citations": []}
    by_id = {u.id: u for u in units}
    for doc in law_docs:
        laws = law_units(units, doc)
        roots = {u.id: n for n, u in enumerate(u for u in units if u.doc == doc and u.parent_ref is None)}
        parts = {law: part_of(unit, by_id, roots) for law, unit in laws.items()}
        pairs = citation_pairs(xrefs, by_id, doc)
        out["law_citations"] += [
            {
                "doc": doc,
                "from_law": a,
                "to_law": b,
                "from_part": parts.get(a, (None,))[0],
                "to_part": parts.get(b, (None,))[0],
                "units": len(refs),
                "citing_units": json.dumps(refs, ensure_ascii=False),
            }
            for (a, b), refs in sorted(pairs.items())
        ]
        out["law_citation_totals"] += totals(doc, laws, parts, pairs)
        out["part_citations"] += part_matrix(doc, parts, pairs)
    return out


def law_units(units: list[Unit], doc: str) -> dict[int, Unit]:
    return {
        int(u.attrs.get("number") or u.ref): u for u in units if u.doc == doc and u.kind == "law" and u.ref.isdigit()
    }


def part_of(law: Unit, by_id: dict[str, Unit], roots: dict[str, int]) -> tuple[str | None, str | None, int]:
    """The outermost division a law is printed in (2017: 第N部; 1997: 第N章): ref, title, order."""
    parent, found = by_id.get(law.parent_id or ""), None
    while parent is not None:
        found = parent
        parent = by_id.get(parent.parent_id or "")
    if found is None:
        return (None, None, 0)
    return (found.ref, found.title, roots.get(found.id, 0))


def citation_pairs(xrefs: list[dict], by_id: dict[str, Unit], doc: str) -> dict[tuple[int, int], list[str]]:
    """(citing law, cited law) -> refs of the citing units, in reading order."""
    pairs: dict[tuple[int, int], list[str]] = defaultdict(list)
    for xref in xrefs:
        source = by_id.get(xref["source_id"])
        if (
            source is None
            or source.doc != doc
            or source.kind not in LAW_TEXT_KINDS
            or xref["kind"] != "cites"
            or not xref["resolved"]
            or xref["target_doc"] != doc
        ):
            continue
        citing = law_number(source.attrs.get("anchor_ref") or source.ref)
        cited = law_number(xref["target_ref"])
        if citing is None or cited is None:
            continue
        if source.ref not in pairs[(citing, cited)]:
            pairs[(citing, cited)].append(source.ref)
    position = {u.ref: n for n, u in enumerate(u for u in by_id.values() if u.doc == doc)}
    return {key: sorted(refs, key=lambda r: position.get(r, 0)) for key, refs in pairs.items()}


def totals(doc: str, laws: dict[int, Unit], parts: dict, pairs: dict[tuple[int, int], list[str]]) -> list[dict]:
    # each pair filed once under both its laws (a scan of all pairs per law was 10^5 steps)
    citing: dict[int, list[list[str]]] = defaultdict(list)  # law -> citing units of each law it cites
    cited: dict[int, list[list[str]]] = defaultdict(list)  # law -> citing units of each law citing it
    for (a, b), refs in pairs.items():
        if a != b:
            citing[a].append(refs)
            cited[b].append(refs)
    rows = []
    for law, unit in sorted(laws.items()):
        out, into = citing.get(law, []), cited.get(law, [])
        part, part_title, order = parts[law]
        rows.append(
            {
                "doc": doc,
                "law": law,
                "ref": unit.ref,
                "title": unit.title,
                "part": part,
                "part_title": part_title,
                "part_position": order,
                "cites_units": sum(len(r) for r in out),
                "cites_laws": len(out),
                "cited_by_units": sum(len(r) for r in into),
                "cited_by_laws": len(into),
            }
        )
    return rows


def part_matrix(doc: str, parts: dict, pairs: dict[tuple[int, int], list[str]]) -> list[dict]:
    cells: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for (a, b), refs in pairs.items():
        if a == b or a not in parts or b not in parts or parts[a][0] is None or parts[b][0] is None:
            continue
        cell = cells[(parts[a][0], parts[b][0])]
        cell[0] += len(refs)
        cell[1] += 1
    return [
        {"doc": doc, "from_part": a, "to_part": b, "units": n, "law_pairs": k}
        for (a, b), (n, k) in sorted(cells.items())
    ]
