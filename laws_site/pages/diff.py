"""Datasette routes for comparing a law across editions and translations (ingest/diff.py does the work).

/-/diff?ref=61&from=revoke-notes-ja&to=laws-2017-ja   the two texts side by side, changes marked
/-/diff.json?...                                      the same as JSON (ingest.diff.diff_units)
/-/diff/overview?from=laws-1997-zh&to=laws-2017-ja    every law with counts of changed/added/removed
/-/diff/overview.json?...

A bad parameter is a 400 with a message (ingest.diff.DiffError), never a 500.
"""
from __future__ import annotations

import html

from datasette.utils.asgi import Response

from ingest import diff as diffing

from ..responses import json_error, read

TRUE_VALUES = {"1", "true", "on", "yes"}


async def diff_view(datasette, request):
    args = request.args
    ref, from_doc, to_doc = args.get("ref", ""), args.get("from", ""), args.get("to", "")
    show_whitespace = args.get("whitespace", "").lower() in TRUE_VALUES
    as_json = bool(request.url_vars.get("as_json"))
    try:
        if not ref:
            raise diffing.DiffError("missing 'ref': a law reference like 61, 61B or 40B2(a)(v)")
        result = await read(datasette,
                            lambda conn: diffing.diff_units(conn, ref, from_doc, to_doc, show_whitespace=show_whitespace))
    except diffing.DiffError as error:
        return await bad_request(datasette, request, str(error), as_json)
    if as_json:
        return Response.json(result, headers={"Access-Control-Allow-Origin": "*"})
    for row in result["rows"]:
        row["from_html"], row["to_html"] = render_sides(row, "from_text", "to_text", "ops")
        row["from_title_html"], row["to_title_html"] = render_sides(row, "from_title", "to_title", "title_ops")
    return Response.html(await datasette.render_template("diff.html", {"diff": result, "request_args": {
        "ref": ref, "from": from_doc, "to": to_doc, "whitespace": show_whitespace}}, request=request))


async def overview_view(datasette, request):
    from_doc, to_doc = request.args.get("from", ""), request.args.get("to", "")
    as_json = bool(request.url_vars.get("as_json"))
    try:
        result = await read(datasette, lambda conn: diffing.overview(conn, from_doc, to_doc))
    except diffing.DiffError as error:
        return await bad_request(datasette, request, str(error), as_json)
    if as_json:
        return Response.json(result, headers={"Access-Control-Allow-Origin": "*"})
    return Response.html(await datasette.render_template("diff_overview.html", {"overview": result}, request=request))


async def bad_request(datasette, request, message: str, as_json: bool):
    if as_json:
        return json_error(400, message)
    page = await datasette.render_template("diff.html", {"error": message, "diff": None, "request_args": dict(
        request.args)}, request=request)
    return Response.html(page, status=400)


def render_sides(row: dict, from_key: str, to_key: str, ops_key: str) -> tuple[str, str]:
    """Both sides as HTML: every text escaped first, then wrapped in <del>/<ins> where it changed."""
    ops = row.get(ops_key) or []
    if not ops:
        return escape_text(row.get(from_key)), escape_text(row.get(to_key))
    left, right = [], []
    for op in ops:
        if op["op"] == "equal":
            left.append(escape_text(op["from"]))
            right.append(escape_text(op["to"]))
            continue
        css = f' class="{op.get("class", "wording")}"'
        if op["from"]:
            left.append(f"<del{css}>{escape_text(op['from'])}</del>")
        if op["to"]:
            right.append(f"<ins{css}>{escape_text(op['to'])}</ins>")
    return "".join(left), "".join(right)


def escape_text(text: str | None) -> str:
    return html.escape(text or "").replace("\n", "<br>")
