"""/-/history/<law>: one law through every version in the corpus (1997 Chinese, the 2017 Laws as
the 2018 commentaries reprint them, the 2017 web PDF), aligned unit by unit with what happened at
each step; /-/history lists the laws. JSON at the same URLs with .json. Made at build
(ingest/history.py, table law_history); a request reads one row."""
from __future__ import annotations

from .. import editions
from ..diffs import side_pieces_of
from ..responses import error_response, html_page, json_response, read


async def view(datasette, request):
    law = request.url_vars["law"]
    as_json = bool(request.url_vars.get("as_json"))
    try:
        history = await read(datasette, lambda conn: editions.law_history(conn, law))
    except editions.HistoryError as error:
        return await error_response(datasette, request, 404, str(error), as_json=as_json, title="No such law")
    if as_json:
        return json_response(history)
    for row in history["rows"]:
        for reprint in row["reprints"]:
            reprint["pieces"], reprint["new_pieces"] = side_pieces_of(reprint.get("ops"), reprint.get("text"),
                                                                      (row["new"] or {}).get("text"))
    return await html_page(datasette, request, "history.html", {
        "history": history, "relation_names": editions.RELATION_NAMES, "basis_names": editions.BASIS_NAMES})


async def index(datasette, request):
    laws = await read(datasette, editions.history_index)
    if request.url_vars.get("as_json"):
        return json_response(laws)
    return await html_page(datasette, request, "history.html", {"history": None, "index": laws})
