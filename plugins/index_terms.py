"""The index page: /<doc>/-/index (the 2017 Laws' 索引), one kana row with ?row=か."""
from __future__ import annotations

import sys
from pathlib import Path

from datasette import hookimpl

if str(Path(__file__).resolve().parent) not in sys.path:  # lets us import the lawsite package beside us
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from lawsite.index_terms import index_context, index_json  # noqa: E402
from lawsite.site import DOC_PATTERN, html_page, json_response, read  # noqa: E402

INDEX_ROUTE = rf"^/{DOC_PATTERN}/-/index(?P<as_json>\.json)?$"


@hookimpl
def register_routes():
    return [(INDEX_ROUTE, index_page)]


async def index_page(datasette, request):
    doc = request.url_vars["doc"]
    row_filter = request.args.get("row") or None
    context = await read(datasette, lambda conn: index_context(conn, doc, row_filter))
    if context is None:
        return await html_page(datasette, request, "unit_not_found.html",
                               {"doc": doc, "ref": "-/index", "document": None, "suggestions": [
                                   {"label": "laws-2017-ja/-/index", "url": "/laws-2017-ja/-/index"}]},
                               status=404)
    if request.url_vars.get("as_json"):
        return json_response(index_json(context))
    return await html_page(datasette, request, "index_terms.html", context)
