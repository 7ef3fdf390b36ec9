"""The paths the plugin answers: its routes and every path under its database. Everything else is
Datasette's, answered exactly as without the plugin.

Apart from ownership.py (which database is the plugin's) because it reads the route table, which
imports every page, and the pages read the database through ownership.py.
"""

from __future__ import annotations

from laws_site import routes
from laws_site.http.ownership import laws_route


def owns_path(datasette, path: str) -> bool:
    """True for the plugin's own routes and every path under its database (/laws, /laws.json,
    /laws/sections, /laws/sections/1.json, /laws.db)."""
    route = laws_route(datasette)
    if route is None:  # no laws database served: the plugin registered no route either
        return False
    if routes.is_plugin_path(path):
        return True
    first = path.lstrip("/").split("/", 1)[0]
    for suffix in (".json", ".csv", ".db"):
        first = first.removesuffix(suffix)
    return first == route
