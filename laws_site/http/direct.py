"""The plugin's JSON answers to anonymous GETs, handed to their view here, not by Datasette's router.

A search answer cost 1.9 ms of CPU in process, 0.5 ms of it in Datasette's layers between the
site's rules (asgi.py) and the view: asgi_csrf signs a token for every request, the router builds
a Request, tries its routes and wraps `send` twice to mark personal answers private. For a JSON
answer to a client with no cookie and no Authorization header none of that changes a byte: there
is no actor, nothing personal, no form to protect (benchmarks/RESULTS.md, issue 24). So such a
request goes straight to the view Datasette would have chosen - the same table (routes.ROUTES,
first match wins as in Datasette), the same Request with the same url_vars, the same answer to an
exception (the handle_exception hooks) - and everything else still goes through Datasette.

The offline packs' crawl (offline/in_process.py) asks for every page of the site, HTML included, as
a client with nothing personal: its requests go the same way (crawl_view), their pages compared
byte for byte with Datasette's own answers (tests/test_offline.py).
"""

from __future__ import annotations

import weakref

from datasette.plugins import pm
from datasette.utils import await_me_maybe
from datasette.utils.asgi import Forbidden, NotFound, Request

from laws_site import routes
from laws_site.http.responses import PAGE_TEMPLATE

PERSONAL_HEADERS = (b"cookie", b"authorization")
# the Datasette objects whose startup hooks have run (hooks.startup notes each): before that, a
# request goes through Datasette, whose first request runs them
_started: "weakref.WeakSet" = weakref.WeakSet()


def started(datasette) -> None:
    _started.add(datasette)


def json_view(datasette, scope):
    """(view, url_vars) when this request may skip Datasette's layers, else None."""
    if scope["method"] != "GET" or not scope["path"].endswith(".json") or not routed_here(datasette):
        return None
    if any(key.lower() in PERSONAL_HEADERS for key, _ in scope.get("headers", ())):
        return None
    found = routes.resolve(router_path(scope))
    if found is None:
        return None
    view, url_vars = found
    return (view, url_vars) if url_vars.get("as_json") else None


def crawl_view(datasette, scope):
    """(view, url_vars) of a page the offline crawl asks for (its scope names the templates to
    render: PAGE_TEMPLATE; its only cookie keeps it out of the answer cache), else None."""
    if scope["method"] != "GET" or not scope.get(PAGE_TEMPLATE) or not routed_here(datasette):
        return None
    return routes.resolve(router_path(scope))


def routed_here(datasette) -> bool:
    # settings the router applies; before startup, its first request runs it
    return datasette.setting("base_url") == "/" and not datasette.setting("force_https_urls") and datasette in _started


def router_path(scope) -> str:
    raw_path = scope.get("raw_path")
    return (raw_path.decode("ascii") if raw_path else scope["path"]).partition("?")[0]  # as the router reads it


async def answer(datasette, app, scope, receive, send, view, url_vars) -> None:
    """The view's answer, marked as the router marks an anonymous one (Vary: Cookie, Authorization,
    so no cache hands it to a signed-in client). A view that raises Datasette's NotFound or
    Forbidden (none of ours does) has nothing sent yet: Datasette then answers the request itself."""
    request = Request(dict(scope, actor=None, url_route={"kwargs": url_vars}), receive)
    try:
        response = await view(datasette, request)
    except (NotFound, Forbidden):
        return await app(scope, receive, send)
    except Exception as exception:  # noqa: BLE001 - answered as Datasette's router answers it
        response = await exception_answer(datasette, request, exception)

    async def send_varied(message):
        if message["type"] == "http.response.start":
            message = dict(message, headers=varied(message.get("headers", [])))
        await send(message)

    await response.asgi_send(send_varied)


def varied(headers: list) -> list:
    """The headers with Cookie and Authorization added to Vary, as Datasette's router adds them."""
    vary = [
        part.strip() for key, value in headers if key.lower() == b"vary" for part in value.split(b",") if part.strip()
    ]
    if b"*" not in vary:
        present = {part.lower() for part in vary}
        vary += [name for name in (b"Cookie", b"Authorization") if name.lower() not in present]
    return [(k, v) for k, v in headers if k.lower() != b"vary"] + [(b"vary", b", ".join(vary))]


async def exception_answer(datasette, request, exception):
    for hook in pm.hook.handle_exception(datasette=datasette, request=request, exception=exception):
        response = await await_me_maybe(hook)
        if response is not None:
            return response
    raise exception
