"""How pages answer: the laws database, HTML from a template, JSON, and errors in one shape."""
from __future__ import annotations

import json

from datasette.utils.asgi import Response

DATABASE_NAME = "laws"


def laws_database(datasette):
    """The laws database; a test build under another file name still works."""
    if DATABASE_NAME in datasette.databases:
        return datasette.get_database(DATABASE_NAME)
    named = [db for name, db in datasette.databases.items() if name != "_internal"]
    return named[0]


async def read(datasette, fn):
    """Run ``fn(sqlite3_connection)`` in Datasette's read thread."""
    return await laws_database(datasette).execute_fn(fn)


async def html_page(datasette, request, template: str, context: dict, status: int = 200) -> Response:
    body = await datasette.render_template(template, context, request=request)
    return Response.html(body, status=status)


def json_response(data, status: int = 200) -> Response:
    """JSON with Japanese and Chinese left readable (not \\u-escaped)."""
    return Response(json.dumps(data, ensure_ascii=False, indent=2), status=status,
                    content_type="application/json; charset=utf-8",
                    headers={"Access-Control-Allow-Origin": "*"})
