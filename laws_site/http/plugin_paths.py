"""The paths the plugin answers: its routes and every path under its database. Everything else is
Datasette's, answered exactly as without the plugin.

Apart from ownership.py (which database is the plugin's) because it reads the route table, which
imports every page, and the pages read the database through ownership.py.
"""

from __future__ import annotations

import re

from laws_site import routes
from laws_site.http.ownership import laws_route, public_site_on


def owns_path(datasette, path: str) -> bool:
    """True for the plugin's own routes (the public site's too, when they are on) and every path
    under its database (/laws, /laws.json, /laws/sections, /laws/sections/1.json, /laws.db)."""
    route = laws_route(datasette)
    if route is None:  # no laws database served: the plugin registered no route either
        return False
    if routes.is_plugin_path(path) or (public_site_on(datasette) and is_public_site_path(path)):
        return True
    first = path.lstrip("/").split("/", 1)[0]
    for suffix in (".json", ".csv", ".db"):
        first = first.removesuffix(suffix)
    # on the public site an address no database answers (/nothing, /zh/nothing) is the site's: its 404 page in
    # the address's language, not Datasette's bare English "Database not found" (Datasette's own /-/ stays its)
    nobodys = public_site_on(datasette) and first != "-" and first not in datasette.databases
    return first == route or nobodys


def is_public_site_path(path: str) -> bool:
    """One of the pages the plugin registers only on the public site (routes.PUBLIC_SITE_ROUTES)."""
    return any(re.match(pattern, path) for pattern, _view in routes.PUBLIC_SITE_ROUTES)
