"""The citation map /-/citations (and .json): which law cites which, as a server-rendered SVG matrix.

`?from=61&to=44` lists the units of Law 61 that cite Law 44 (where a cell with several links).
"""
from __future__ import annotations

import sys
from pathlib import Path

from datasette import hookimpl

if str(Path(__file__).resolve().parent) not in sys.path:  # lets us import the lawsite package beside us
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from lawsite.citations import citation_context, citation_json  # noqa: E402
from lawsite.site import html_page, json_response, read  # noqa: E402


@hookimpl
def register_routes():
    return [(r"^/-/citations(?P<as_json>\.json)?$", citation_page)]


def law_arg(request, name: str) -> int | None:
    value = (request.args.get(name) or "").strip()
    return int(value) if value.isdigit() else None


async def citation_page(datasette, request):
    citing, cited = law_arg(request, "from"), law_arg(request, "to")
    context = await read(datasette, lambda conn: citation_context(conn, citing, cited))
    if request.url_vars.get("as_json"):
        return json_response(citation_json(context))
    return await html_page(datasette, request, "citation_map.html", context)
