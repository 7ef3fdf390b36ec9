"""A query written as citations (`64A1`, `第16条B項1`, `Law 73`, `L62C3`, `24-5-1`; ingest/text/spelling.py):
the cited units, the current Laws first, then the units citing them; a citation no document holds
says so and names the nearest units."""

from __future__ import annotations

from ingest.text.refs import law_ancestors, parse_law_ref
from ingest.text.spelling import (
    candidate_refs,
    citation_candidates,
    law_spelling,
    named_document,
    note_spelling,
    regulation_spelling,
    split_citations,
    squeeze,
)
from laws_site.i18n.message import Doc
from laws_site.read.units import nearest_refs, permalink
from laws_site.search.data import NAVIGATION_KINDS, SearchData
from laws_site.search.hits import HIT_COLUMNS, Hit, load_hits
from laws_site.search.presentation import link_labels
from laws_site.search.query import said
from laws_site.search.weights import CITED_SCORE, CITING_SCORE

NEAREST_SHOWN = 6  # the units a citation that names none offers instead


def cited_units(conn, data: SearchData, query: str, doc: str | None, lang: str | None) -> dict | None:
    """None if the query is not written as citations; else {"query", "found", "units" (ids, most
    wanted first), "opens" (the first unit is what the citation names: a page may open it),
    "message", "nearest"}.

    A law ref (`27条`, `27条B項1(b)`, `16条B`) names the current Laws' unit; a regulation article
    with the same number is offered after it, never instead of it: `27条` that only the regulations
    held would say so and not open them. The regulations (or a commentary) are named by their own
    title before the citation (`競技会運営規則第27条`, `運営規則27条`) or with the document filter."""
    typed, scoped = data.memo(("citations", query), lambda: typed_citations(data, query))
    if not typed:
        return None
    wanted, primary = [], []
    for citation in typed:
        if scoped:
            pairs = [(scoped, ref) for ref in candidate_refs(data.role(scoped), citation) + [squeeze(citation)]]
        else:
            pairs = citation_candidates(citation) or []
        for rank, (scope, ref) in enumerate(pairs):
            docs = [scope] if data.registry.get(scope) else docs_of_role(data, scope)
            wanted += [f"{d}:{ref}" for d in docs]
            if rank == 0:
                primary += [f"{d}:{ref}" for d in docs]
    wanted = [unit for unit in dict.fromkeys(wanted) if data.in_filters(unit.split(":", 1)[0], doc, lang)]
    found = existing_units(conn, wanted)
    units = [unit for unit in wanted if unit in found]
    # with a document or language filter, whatever the filter leaves is what was asked for
    opens = bool(units) and (doc is not None or lang is not None or units[0] in primary)
    result = {
        "query": query,
        "found": bool(units),
        "units": units,
        "opens": opens,
        "message": None,
        "nearest": [],
        "citations": len(typed),
    }
    if not units:
        result["message"] = said("no_such_unit_in_filters" if doc or lang else "no_such_unit", query=query)
        result["nearest"] = nearest_units(conn, data, typed[0], doc if doc else scoped)
    elif not opens:
        wanted_doc = primary[0].split(":", 1)[0] if primary else None
        title = data.documents[wanted_doc].title if wanted_doc in data.documents else wanted_doc
        # JSON names the document by its title; a page by its short title in the interface language
        result["message"] = said("elsewhere", title=title, query=query, doc=Doc(wanted_doc or ""))
    return result


def typed_citations(data: SearchData, query: str) -> tuple[tuple[str, ...], str | None]:
    """(the citations typed, the document named before them or None): the query's reading as citations,
    the same for every search of it (memoised per database by cited_units)."""
    named = named_document(query, data.document_names)
    if named:
        return (named[1],), named[0]
    return tuple(split_citations(query) or ()), None


def docs_of_role(data: SearchData, role: str) -> list[str]:
    if role == "laws":
        return [d.id for d in data.registry.laws]
    if role == "commentary":
        return [d.id for d in data.registry.commentaries]
    if role == "regulations":
        return [data.registry.regulations.id] if data.registry.regulations else []
    return []


def existing_units(conn, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    marks = ",".join("?" * len(ids))
    return {row[0] for row in conn.execute(f"select id from sections where id in ({marks})", ids)}


def nearest_units(conn, data: SearchData, typed: str, doc: str | None) -> list[dict]:
    """For a citation nobody holds: its enclosing units that exist, then the closest spellings."""
    registry = data.registry
    law, note, regulation = law_spelling(typed), note_spelling(typed), regulation_spelling(typed)
    if note and registry.commentaries:
        place, ref = doc or registry.commentaries[0].id, note
    elif law and registry.current_laws:
        place, ref = doc or registry.current_laws.id, law
    elif regulation and registry.regulations:
        place, ref = doc or registry.regulations.id, regulation
    else:
        return []
    refs = []
    if parse_law_ref(ref.removeprefix("L")):
        prefix = "L" if ref.startswith("L") else ""
        refs += [prefix + ancestor for ancestor in law_ancestors(ref.removeprefix("L"))]
    refs += nearest_refs(conn, place, ref)
    found = existing_units(conn, [f"{place}:{r}" for r in refs])
    units = [r for r in dict.fromkeys(refs) if f"{place}:{r}" in found][:NEAREST_SHOWN]
    labels = link_labels(conn, [f"{place}:{r}" for r in units], data)
    return [
        {
            "id": f"{place}:{r}",
            "doc": place,
            "ref": r,
            "url": permalink(place, r),
            "labels": labels.get(f"{place}:{r}", {}),
        }
        for r in units
    ]


def citation_hits(conn, data: SearchData, units: list[str], doc: str | None, lang: str | None) -> list[Hit]:
    """The cited units in the order asked, then the units citing them (the citing surface marked)."""
    hits = load_hits(data, units)
    ordered = [hits[unit] for unit in units if unit in hits]
    for rank, hit in enumerate(ordered):
        hit.score, hit.match = CITED_SCORE - rank / 100, "citation"
    marks = ",".join("?" * len(units))
    navigation = ",".join("?" * len(NAVIGATION_KINDS))
    rows = conn.execute(
        f"""
        select {HIT_COLUMNS}, x.start, x."end" from xrefs x join sections s on s.id = x.source_id
        where x.target_id in ({marks}) and x.field = 'text' and s.kind not in ({navigation})
        order by s.position, x.start
    """,
        [*units, *NAVIGATION_KINDS],
    ).fetchall()
    citing: dict[str, Hit] = {}
    for row in rows:
        if row[0] in hits or not data.in_filters(row[1], doc, lang):
            continue
        hit = citing.setdefault(row[0], Hit(*row[:7], score=CITING_SCORE, match="cites", marks=[]))
        hit.marks.append((row[7], row[8]))
    cited_by = sorted(citing.values(), key=lambda h: (data.doc_rank(h.doc), h.position))
    return ordered + cited_by
