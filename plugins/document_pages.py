"""Document pages: /<doc> (and /<doc>.json), the table of contents of one document."""
from __future__ import annotations

import sys
from pathlib import Path

from datasette import hookimpl

if str(Path(__file__).resolve().parent) not in sys.path:  # lets us import the lawsite package beside us
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from lawsite.contents import contents_context, contents_json  # noqa: E402
from lawsite.site import DOC_PATTERN, html_page, json_response, read  # noqa: E402

DOCUMENT_ROUTE = rf"^/{DOC_PATTERN}(?P<as_json>\.json)?/?$"


@hookimpl
def register_routes():
    return [(DOCUMENT_ROUTE, document_page)]


async def document_page(datasette, request):
    doc = request.url_vars["doc"]
    context = await read(datasette, lambda conn: contents_context(conn, doc))
    if context is None:
        if request.url_vars.get("as_json"):
            return json_response({"error": f"No document {doc!r}"}, status=404)
        return await html_page(datasette, request, "unit_not_found.html",
                               {"doc": doc, "ref": "", "document": None, "suggestions": []}, status=404)
    if request.url_vars.get("as_json"):
        return json_response(contents_json(context))
    return await html_page(datasette, request, "document.html", context)
