"""Datasette's /-/databases and /-/threads without machine paths (routes.py puts them first).

Datasette's own versions show the database's absolute path and the source files of running tasks;
a public site names the file only.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

from datasette.utils.asgi import Response

from laws_site import compat
from laws_site.http.responses import json_response


def databases_data(datasette) -> list[dict]:
    return [
        {
            "name": db.name,
            "route": db.route,
            "file": Path(db.path).name if db.path else None,
            "size": db.size,
            "is_mutable": db.is_mutable,
            "is_memory": db.is_memory,
            "hash": db.hash,
        }
        for name, db in datasette.databases.items()
        if name != "_internal"
    ]


def threads_data(datasette) -> dict:
    if not datasette.setting("num_sql_threads"):
        return {"num_threads": 0, "threads": []}
    threads = list(threading.enumerate())
    tasks = asyncio.all_tasks()
    return {
        "num_threads": len(threads),
        "threads": [{"name": t.name, "ident": t.ident, "daemon": t.daemon} for t in threads],
        "num_tasks": len(tasks),
        "tasks": sorted(f"{t.get_name()}: {getattr(t.get_coro(), '__qualname__', '?')}" for t in tasks),
    }


async def show(datasette, request, filename: str, data) -> Response:
    await compat.ensure_view_instance(datasette, request.actor)
    if request.url_vars.get("as_json"):
        return json_response(data)
    body = await datasette.render_template(
        "show_json.html",
        {"filename": filename, "data_json": json.dumps(data, indent=4, ensure_ascii=False)},
        request=request,
    )
    return Response.html(body)


async def databases(datasette, request):
    return await show(datasette, request, "databases.json", databases_data(datasette))


async def threads(datasette, request):
    return await show(datasette, request, "threads.json", threads_data(datasette))
