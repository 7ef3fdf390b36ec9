"""The home page /: a search box and the five documents with their edition, publisher and copyright.

It replaces Datasette's database list at "/"; that list stays reachable at /laws and /-/databases.
"""

from __future__ import annotations

from laws_site.http.responses import html_page, read
from laws_site.read import queries


async def view(datasette, request):
    documents = await read(datasette, queries.documents)
    return await html_page(datasette, request, "home.html", {"documents": documents})
