"""The read side: one Datasette plugin that serves laws.db - its pages, search, diff and JSON.

Installed with the project and registered through the ``datasette`` entry point in
pyproject.toml, so plain ``datasette laws.db`` serves the whole site. Datasette finds this
package's ``templates/`` and ``static/`` because the entry point names the package. Everything
here reads laws.db only; the build (``ingest``) computes what the pages show.

Where things live: ``routes.py`` (every URL), ``pages/`` (one module per page kind: data for a
template), ``queries.py`` (SQL), ``responses.py`` (HTML, JSON and error responses), ``hooks.py``
(the Datasette hooks), ``templates/`` (all markup), ``cli.py`` (`bridge-laws`).
"""

from laws_site.hooks import (  # noqa: F401
    asgi_wrapper,
    canned_queries,
    extra_template_vars,
    filters_from_request,
    handle_exception,
    prepare_connection,
    prepare_jinja2_environment,
    register_routes,
    render_cell,
    startup,
)
