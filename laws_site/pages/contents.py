"""A document's table of contents: the printed 目次 where the book has one, else its structure."""
from __future__ import annotations

from .. import queries
from ..responses import error_response, html_page, json_response, read
from ..units import permalink

# Units that head a stretch of text; their nesting is the document's outline.
OUTLINE_KINDS = ("front_matter", "preface", "introduction", "part", "chapter", "division", "law",
                 "article", "appendix", "table", "essay", "quote", "note", "ruling", "definition", "index")
# In the 2017 Laws the printed 目次 lists laws and sections; the rest of the book is outside it.
OUTSIDE_PRINTED_TOC = ("front_matter", "preface", "introduction", "chapter", "index")


def outline(units: list[dict]) -> list[dict]:
    """Each unit with its depth among the listed units (a parent not listed adds no depth)."""
    depth: dict[str, int] = {}
    rows = []
    for unit in units:
        level = depth[unit["parent_id"]] + 1 if unit["parent_id"] in depth else 0
        depth[unit["id"]] = level
        rows.append({**unit, "depth": level})
    return rows


def printed_toc(conn, doc: str) -> list[dict]:
    """The 目次 rows: a law at depth 0, its sections below; grouped by the part they are printed in."""
    entries = queries.units_of_kinds(conn, doc, ("toc_entry",))
    rows = []
    for entry in entries:
        target = entry["attrs"].get("target_ref") or entry["attrs"].get("law")
        if not target:
            continue
        is_law = target.isdigit()
        rows.append({"ref": target, "title": entry["title"], "depth": 0 if is_law else 1,
                     "url": permalink(doc, target), "part": entry["attrs"].get("part")})
    return rows


def contents_context(conn, doc: str) -> dict | None:
    document = queries.document(conn, doc)
    if document is None:
        return None
    # the Laws' printed 目次 lists laws and sections (a commentary's 目次 lists only what it reprints)
    toc = printed_toc(conn, doc) if document["kind"] == "laws" else []
    kinds = OUTSIDE_PRINTED_TOC if toc else OUTLINE_KINDS
    return {"document": document, "toc": toc, "outline": outline(queries.units_of_kinds(conn, doc, kinds)),
            "has_index": bool(queries.units_of_kinds(conn, doc, ("index_row",)))}


def contents_json(context: dict) -> dict:
    keep = ("ref", "title", "kind", "depth", "url")
    return {"document": context["document"],
            "toc": [{k: row.get(k) for k in ("ref", "title", "depth", "url", "part")} for row in context["toc"]],
            "outline": [{k: row.get(k) for k in keep} for row in context["outline"]]}


async def view(datasette, request):
    """/<doc> (and /<doc>.json): the table of contents of one document."""
    doc = request.url_vars["doc"]
    context = await read(datasette, lambda conn: contents_context(conn, doc))
    if context is None:
        return await error_response(datasette, request, 404, f"No document {doc!r}",
                                    as_json=bool(request.url_vars.get("as_json")), extra={"suggestions": []},
                                    template="unit_not_found.html", context={"doc": doc, "ref": "", "document": None})
    if request.url_vars.get("as_json"):
        return json_response(contents_json(context))
    return await html_page(datasette, request, "document.html", context)
