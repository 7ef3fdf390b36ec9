"""The Datasette hooks this plugin implements; each hands over to the module that does the work.

Importing this module imports no Datasette (the marker is pluggy's, the same one Datasette
declares), and the modules behind each hook load when Datasette calls it: `bridge-laws build`
imports this package without paying Datasette's start-up time.
"""

from __future__ import annotations

import pluggy

from laws_site.i18n.catalog import N_

hookimpl = pluggy.HookimplMarker("datasette")

# labels are catalogue msgids (laws_site/locale): base.html shows them translated
SITE_PAGES = [
    {"path": "/-/guides", "label": N_("Ruling guides"), "translate": True},  # at the table (pages/guides.py)
    {"path": "/-/glossary", "label": N_("Glossary"), "translate": True},
    {"path": "/-/citations", "label": N_("Citations"), "translate": True},
    {"path": "/laws", "label": N_("Data"), "translate": True},
]


def site_links(registry, titles: dict[str, str] | None = None) -> list[dict]:
    """Each edition of the Laws (short title from sources.yml, in the interface language when
    ``titles`` has it), the current edition's 索引, the site's pages."""
    titles = titles or {}
    links = [{"path": f"/{d.id}", "label": titles.get(d.id) or d.short_title or d.title} for d in registry.laws]
    if registry.current_laws:
        links.append({"path": f"/{registry.current_laws.id}/-/index", "label": N_("Index"), "translate": True})
    return links + SITE_PAGES


@hookimpl
def register_routes(datasette):
    """The site's routes, where a laws database is served (else the plugin adds none: `/` stays
    Datasette's index); Datasette's server pages minus machine paths on the public site."""
    from laws_site import routes
    from laws_site.http import ownership

    if ownership.laws_database_name(datasette) is None:
        return []
    return routes.ROUTES + (routes.PUBLIC_SITE_ROUTES if ownership.public_site_on(datasette) else [])


@hookimpl
def extra_template_vars(datasette, request):
    """What every page's chrome needs, on the plugin's own pages and its database's (`laws_chrome`
    chooses the site's layout in base.html): the site title, the top links, the query searched."""
    from datasette.version import __version__ as datasette_version

    from ingest.text.tokenize import clean_query
    from laws_site import compat
    from laws_site.http import plugin_paths, request_bounds
    from laws_site.http.responses import read_fixed
    from laws_site.i18n import chrome
    from laws_site.read import queries

    if request is None or not plugin_paths.owns_path(datasette, request.path):
        return {}

    async def inner():
        registry = await read_fixed(datasette, "registry", queries.registry)
        lang = chrome.i18n.lang()
        titles = await read_fixed(datasette, ("short_titles", lang), lambda conn: chrome.short_titles(conn, lang))
        return {
            "laws_chrome": True,
            "site_title": (await compat.instance_metadata(datasette, "title") or "Laws of Duplicate Bridge"),
            "site_links": site_links(registry, titles),
            "document_names": titles,  # doc id -> short title in the interface language (messages.py)
            "current_laws": registry.current_laws,
            # keep the typed query in the box on the search page (and harmlessly elsewhere)
            "site_query": request_bounds.echoed(clean_query(request.args.get("q", ""))),
            # the footer's "Datasette v..." (laws_footer.html): Datasette gives it only to its own views
            "datasette_version": datasette_version,
            **chrome.language_vars(request),
        }

    return inner


@hookimpl
def prepare_jinja2_environment(env, datasette):
    """Jinja's i18n extension with the site's catalogues: `{{ _("Search") }}` (i18n/templates.py); the static
    files' versions for their URLs."""
    from laws_site.http import static_files
    from laws_site.i18n import templates
    from laws_site.offline.search_scripts import OFFLINE_SEARCH_SCRIPTS

    templates.install(env)
    env.globals["asset_version"] = static_files.asset_version  # versioned static URLs (http/static_files.py)
    env.globals["offline_search_scripts"] = OFFLINE_SEARCH_SCRIPTS


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    from laws_site.http import ownership
    from laws_site.sql import table_cells

    if not ownership.owns_database(datasette, database):
        return None
    return table_cells.render_cell(row, value, column, table, datasette)


@hookimpl(trylast=True)
def filters_from_request(request, database, table, datasette):
    # trylast: runs after Datasette's own search filter, whose `search` parameter it replaces
    from laws_site.http import ownership
    from laws_site.sql import table_search

    if not ownership.owns_database(datasette, database):
        return None
    return table_search.filters_from_request(request, database, table, datasette)


@hookimpl
def prepare_connection(conn, database, datasette):
    """Every connection to the laws database: bounded memory, result size and time per call (limits.py)."""
    from laws_site.http import ownership
    from laws_site.sql import limits

    if ownership.owns_database(datasette, database):
        limits.prepare(conn, database)


@hookimpl
def asgi_wrapper(datasette):
    """base_url's prefix (base_path.py), the language prefix and the plugin's own paths
    (plugin_layer.py); with the plugin setting `public_site: true`, the public site's rules around
    the whole server (asgi.py). base_url's prefix comes off first, outermost."""
    from laws_site.http import base_path, ownership
    from laws_site.http.asgi import public_site
    from laws_site.http.plugin_layer import plugin_layer
    from laws_site.i18n import prefix as ui_lang

    language, base = ui_lang.wrapper(datasette), base_path.wrapper(datasette)

    def wrap(app):
        app = language(plugin_layer(app, datasette))  # the language prefix comes off first (prefix.py)
        return base(public_site(app, datasette) if ownership.public_site_on(datasette) else app)

    return wrap


@hookimpl
def handle_exception(datasette, request, exception):
    """Every exception on the plugin's paths becomes Datasette's error shape; bad input is a 4xx,
    never a 500 (errors.py). Another database's errors are Datasette's to answer."""
    from laws_site import routes
    from laws_site.http import errors, plugin_paths
    from laws_site.http.responses import error_response

    if request is None or not plugin_paths.owns_path(datasette, request.path):
        return None

    async def inner():
        problem = errors.classify(exception, plugin_route=routes.is_plugin_path(request.path))
        if problem.logged:
            errors.log(exception, request)
        return await error_response(
            datasette,
            request,
            problem.status,
            problem.message,
            title=problem.title,
            message_is_html=problem.message_is_html,
            extra=problem.info,
        )

    return inner


@hookimpl
def startup(datasette):
    """Datasette has started: on the 1.0 line the canned queries become stored queries
    (sql/canned.py); every SQL thread opens the laws database as it is now (sql/pinned_file.py); the
    plugin's JSON may skip Datasette's router from now on (direct.py)."""
    from laws_site import compat
    from laws_site.http import direct, ownership
    from laws_site.sql import canned, pinned_file

    async def inner():
        name = ownership.laws_database_name(datasette)
        if name is not None and compat.takes_stored_queries(datasette):
            await compat.add_queries(datasette, name, canned.queries())
        if name is not None and datasette.get_database(name).is_mutable is False:
            await pinned_file.open_on_every_thread(datasette.get_database(name), datasette.setting("num_sql_threads"))
        direct.started(datasette)

    return inner


@hookimpl
def canned_queries(datasette, database):
    """Datasette 0.65's canned queries of the laws database (sql/canned.py); the 1.0 line has no such
    hook (pluggy never calls it there) and gets them at start-up."""
    from laws_site.http import ownership
    from laws_site.sql import canned

    return canned.queries() if ownership.owns_database(datasette, database) else None
