"""The plugin's own ASGI layer (hook `asgi_wrapper`): what it does to requests on its own paths.

Only paths the plugin owns (plugin_paths.owns_path: its routes and its database) are touched; every
other request goes to Datasette as it came. On those paths:
- the query string is checked once (request_bounds.py: sizes, and the values its pages take); on
  the plugin's routes, Datasette's table parameters (`_size`, `_shape`...) are refused, not ignored;
- SQL a client wrote on the laws database passes a gate (sql/gate.py), so pages always have a thread;
- the plugin's JSON answers to anonymous GETs go straight to their view (direct.py).
"""

from __future__ import annotations

from datasette.utils.asgi import Request

from laws_site import routes
from laws_site.http import direct, plugin_paths, request_bounds
from laws_site.http.responses import error_response
from laws_site.sql import gate as sql_gate


def plugin_layer(app, datasette):
    async def own_paths(scope, receive, send):
        if scope["type"] != "http" or not plugin_paths.owns_path(datasette, scope["path"]):
            return await app(scope, receive, send)
        quiet = dict(scope, query_string=b"", csrftoken=lambda: "")
        as_json = scope["path"].endswith(".json")
        bounded, query_string = request_bounds.check_query(scope["path"], scope.get("query_string") or b"")
        if bounded is None and routes.is_plugin_path(scope["path"]):
            bounded = request_bounds.foreign_convention(request_bounds.parameter_names(query_string))
        if bounded is not None:
            response = await error_response(
                datasette, Request(quiet, receive), bounded.status, bounded.message, as_json=as_json
            )
            return await response.asgi_send(send)
        if query_string is not scope.get("query_string"):
            scope = dict(scope, query_string=query_string)
        names = set(request_bounds.parameter_names(scope.get("query_string") or b""))
        if not await sql_gate.runs_client_sql(datasette, scope["path"], names):
            found = direct.json_view(datasette, scope) or direct.crawl_view(datasette, scope)
            if found is not None:
                return await direct.answer(datasette, app, scope, receive, send, *found)
            return await app(scope, receive, send)
        gate = sql_gate.gate_for(datasette)
        busy = await gate.enter()
        if busy is not None:
            response = await error_response(
                datasette, Request(quiet, receive), busy.status, busy.message, as_json=as_json
            )
            response.headers["Retry-After"] = str(sql_gate.RETRY_AFTER)
            return await response.asgi_send(send)
        try:
            await app(scope, receive, send)
        finally:
            gate.leave()

    return own_paths
