"""The home page /: a search box and the five documents with their edition, publisher and copyright."""
from __future__ import annotations

import sys
from pathlib import Path

from datasette import hookimpl

if str(Path(__file__).resolve().parent) not in sys.path:  # lets us import the lawsite package beside us
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from lawsite import queries  # noqa: E402
from lawsite.site import html_page, read  # noqa: E402


@hookimpl
def register_routes():
    # Replaces Datasette's database list at "/"; that list stays reachable at /laws and /-/databases.
    return [(r"^/$", home_page)]


async def home_page(datasette, request):
    documents = await read(datasette, queries.documents)
    return await html_page(datasette, request, "home.html", {"documents": documents})
