"""The Datasette hooks this plugin implements; each hands over to the module that does the work."""
from __future__ import annotations

from datasette import hookimpl

from . import routes, table_cells, table_search

SITE_LINKS = [
    {"path": "/laws-2017-ja", "label": "規則 2017"},
    {"path": "/laws-1997-zh", "label": "规则 1997"},
    {"path": "/laws-2017-ja/-/index", "label": "索引"},
    {"path": "/-/glossary", "label": "用語集 Glossary"},
    {"path": "/-/citations", "label": "Citation map"},
    {"path": "/laws", "label": "Data"},
]


@hookimpl
def register_routes():
    return routes.ROUTES


@hookimpl
def extra_template_vars(datasette, request):
    """What every page's chrome needs: the site title, the top links, the query being searched."""
    return {
        "site_title": (datasette.metadata("title") or "Laws of Duplicate Bridge"),
        "site_links": SITE_LINKS,
        # keep the typed query in the box on the search page (and harmlessly elsewhere)
        "site_query": request.args.get("q", "") if request is not None else "",
    }


@hookimpl
def render_cell(row, value, column, table, datasette):
    return table_cells.render_cell(row, value, column, table, datasette)


@hookimpl(trylast=True)
def filters_from_request(request, database, table, datasette):
    # trylast: runs after Datasette's own search filter, whose `search` parameter it replaces
    return table_search.filters_from_request(request, database, table, datasette)
