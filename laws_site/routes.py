"""Every URL the plugin answers, in one table. Datasette matches plugin routes before its own.

A doc id is lower-case words joined by hyphens; Datasette's own database names here have none,
so the document routes never shadow /laws, /laws/sections, /-/... The unit ref may itself
contain "/" (index:見出し/小見出し); "-/" after the document starts the document's own pages.
"""

from __future__ import annotations

import re

from laws_site.http.responses import made_once
from laws_site.pages import (
    api_docs,
    citations,
    contents,
    diff,
    glossary,
    guides,
    history,
    home,
    index_terms,
    offline,
    openapi,
    search,
    site_info,
    unit,
)

DOC = r"(?P<doc>[a-z0-9]+(?:-[a-z0-9]+)+)"
AS_JSON = r"(?P<as_json>\.json)?"

ROUTES = [
    (r"^/$", home.view),
    (rf"^/{DOC}{AS_JSON}/?$", contents.view),
    (rf"^/{DOC}/-/index{AS_JSON}$", index_terms.view),
    (rf"^/{DOC}/(?P<ref>(?!-/).+?){AS_JSON}$", unit.view),
    (rf"^/-/search{AS_JSON}$", search.view),
    (rf"^/-/diff{AS_JSON}$", diff.diff_view),
    (rf"^/-/diff/overview{AS_JSON}$", diff.overview_view),
    (rf"^/-/citations{AS_JSON}$", citations.view),
    (rf"^/-/history{AS_JSON}$", history.index),
    (rf"^/-/history/(?P<law>[^/]+?){AS_JSON}$", history.view),
    (rf"^/-/glossary{AS_JSON}$", glossary.view),
    (rf"^/-/glossary/(?P<term>[^/]+?){AS_JSON}$", glossary.term_view),
    (rf"^/-/guides{AS_JSON}$", guides.index),  # the ruling guides (pages/guides.py)
    (rf"^/-/guides/(?P<guide>[^/]+?){AS_JSON}$", guides.view),
    (r"^/-/api$", api_docs.view),  # the JSON API's documentation (docs/api.md)
    (r"^/-/openapi\.json$", openapi.view),  # the same, as OpenAPI 3.1 (pages/openapi.py)
]

# every answer about the Laws is made once per build (responses.made_once): the database never changes
ROUTES = [(pattern, made_once(view)) for pattern, view in ROUTES]
# the pocket app (pages/offline.py): the service worker at the root (its scope is the whole site),
# the manifest, the offline packs (files `bridge-laws build` made, offline/make.py) and the offline page
ROUTES += [
    (r"^/sw\.js$", offline.service_worker),
    (r"^/-/offline/manifest\.webmanifest$", offline.manifest),
    (r"^/-/offline/(?P<build>[0-9a-f]{1,64})/(?P<name>[a-z-]+)\.json\.gz$", offline.pack),
    (r"^/-/offline/pages\.json$", offline.pages_pack),
    (r"^/-/offline/search\.json$", offline.search_pack),
    (r"^/-/offline/page$", made_once(offline.shell)),
]
_COMPILED = [re.compile(pattern) for pattern, _view in ROUTES]

# Datasette's own pages about the server, minus machine paths (file paths, thread names): only on
# the public site (plugin setting `public_site`); they describe the running server, asked each time
PUBLIC_SITE_ROUTES = [
    (rf"^/-/databases{AS_JSON}$", site_info.databases),
    (rf"^/-/threads{AS_JSON}$", site_info.threads),
]


def is_plugin_path(path: str) -> bool:
    """True if one of the routes above answers this path (else it is one of Datasette's own)."""
    return resolve(path) is not None


def resolve(path: str):
    """(view, url_vars) of the first route matching the path, as Datasette resolves it, or None."""
    for pattern, (_pattern, view) in zip(_COMPILED, ROUTES):
        match = pattern.match(path)
        if match:
            return view, match.groupdict()
    return None
