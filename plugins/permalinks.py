"""Permalinks: /<doc>/<ref> (HTML) and /<doc>/<ref>.json, redirects from other spellings, 404s.

Plugin routes are matched before Datasette's own table routes; doc ids contain a hyphen and
the database (`laws`) does not, so /laws/sections is never taken by this route.
"""
from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import unquote

from datasette import hookimpl
from datasette.utils.asgi import Response

if str(Path(__file__).resolve().parent) not in sys.path:  # lets us import the lawsite package beside us
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from ingest.units import nearest_refs, permalink  # noqa: E402
from lawsite import queries  # noqa: E402
from lawsite.ref_spelling import canonical_ref, candidate_refs  # noqa: E402
from lawsite.site import DOC_PATTERN, html_page, json_response, read  # noqa: E402
from lawsite.unit_view import unit_context, unit_json  # noqa: E402

# The ref may itself contain "/" (index:見出し/小見出し); "-/" starts the document's own pages.
UNIT_ROUTE = rf"^/{DOC_PATTERN}/(?P<ref>(?!-/).+?)(?P<as_json>\.json)?$"


@hookimpl
def register_routes():
    return [(UNIT_ROUTE, unit_page)]


async def unit_page(datasette, request):
    doc = request.url_vars["doc"]
    ref = unquote(request.url_vars["ref"]).rstrip("/")
    as_json = bool(request.url_vars.get("as_json"))
    context = await read(datasette, lambda conn: unit_context(conn, doc, ref))
    if context is None:
        return await missing_unit(datasette, request, doc, ref, as_json)
    if as_json:
        return json_response(unit_json(context))
    return await html_page(datasette, request, "unit.html", context)


async def missing_unit(datasette, request, doc: str, ref: str, as_json: bool):
    """Redirect a differently spelled ref to its canonical form; otherwise a 404 with suggestions."""
    def look_up(conn):
        document = queries.document(conn, doc)
        refs = queries.doc_refs(conn, doc) if document else []
        canonical = canonical_ref(doc, ref, refs) if document else None
        suggestions = [] if canonical else suggest(conn, doc, ref, refs)
        return document, canonical, suggestions

    document, canonical, suggestions = await read(datasette, look_up)
    if canonical:
        return Response.redirect(permalink(doc, canonical) + (".json" if as_json else ""))
    if as_json:
        return json_response({"error": f"No unit {ref!r} in {doc!r}", "suggestions": suggestions},
                             status=404)
    return await html_page(datasette, request, "unit_not_found.html",
                           {"doc": doc, "ref": ref, "document": document, "suggestions": suggestions},
                           status=404)


def suggest(conn, doc: str, ref: str, refs: list[str]) -> list[dict]:
    """Nearest existing refs: close spellings, then the enclosing law of a too-deep ref."""
    existing = set(refs)
    near = [c for c in candidate_refs(doc, ref) if c in existing] + nearest_refs(conn, doc, ref)
    law = queries.law_number(ref)
    if law is not None and str(law) in existing:
        near.append(str(law))
    if not refs:  # unknown document: nearest_refs names documents instead
        return [{"label": s, "url": f"/{s.removeprefix('document ')}"} for s in near]
    return [{"label": r, "url": permalink(doc, r)} for r in dict.fromkeys(near) if r in existing][:8]
