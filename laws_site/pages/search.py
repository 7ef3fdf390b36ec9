"""The search page: /-/search (HTML) and /-/search.json.

- /-/search?q=リボーク&doc=laws-2017-ja&lang=ja : results of laws_site.search.search (the same
  function as `bridge-laws search`), grouped by law, linked to the unit pages /<doc>/<ref>.
- /-/search.json?q=... : {"query", "doc", "lang", "count", "results": [same fields as the CLI]}.

Bad input is a 400 with a message (an empty query, an unknown document or language), never a 500.
"""
from __future__ import annotations

import json

from datasette.utils.asgi import Response
from markupsafe import Markup

from ingest import tokenize

from .. import search as searching
from ..responses import laws_database

PAGE_LIMIT = 50
MAX_LIMIT = 200
LANGUAGES = {"ja": "日本語", "zh": "中文"}


async def view(datasette, request):
    as_json = bool(request.url_vars.get("as_json"))
    query = request.args.get("q", "")
    database = laws_database(datasette)
    documents = await document_choices(database)
    form = {"query": query, "doc": request.args.get("doc") or None, "lang": request.args.get("lang") or None}
    problem = check_form(form, documents, as_json)
    if problem:
        return await respond(datasette, request, as_json, {**form, "error": problem, "documents": documents}, 400)
    if not query.strip() and not as_json:
        return await respond(datasette, request, False, {**form, "documents": documents, "groups": []}, 200)
    limit = parse_limit(request.args.get("limit"))
    try:
        results = await database.execute_fn(
            lambda conn: searching.search(conn, query, doc=form["doc"], lang=form["lang"], limit=limit))
    except searching.QueryError as error:
        return await respond(datasette, request, as_json, {**form, "error": str(error), "documents": documents}, 400)
    context = {**form, "count": len(results), "results": results}
    if not as_json:
        context.update(documents=documents, groups=group_by_law(results, documents))
    return await respond(datasette, request, as_json, context, 200)


def check_form(form: dict, documents: dict[str, str], as_json: bool) -> str | None:
    """A message for the person who typed the query, or None if the form can run."""
    if as_json and not tokenize.clean_query(form["query"]):
        return "Give a query: /-/search.json?q=リボーク"
    if form["doc"] and form["doc"] not in documents:
        return f"Unknown document {form['doc']!r}; choose one of: {', '.join(documents)}."
    if form["lang"] and form["lang"] not in LANGUAGES:
        return f"Unknown language {form['lang']!r}; choose ja or zh."
    return None


def parse_limit(value: str | None) -> int:
    return min(int(value), MAX_LIMIT) if value and value.isdigit() and int(value) > 0 else PAGE_LIMIT


async def document_choices(database) -> dict[str, str]:
    rows = await database.execute("select id, title from documents order by rowid")
    return {row["id"]: row["title"] for row in rows}


def group_by_law(results: list[dict], documents: dict[str, str]) -> list[dict]:
    """Results in groups (one document's law, its definitions, or the rest of it), best group first."""
    groups: dict[tuple, dict] = {}
    for result in results:
        if result["law"]:
            key, label = (result["doc"], "law", result["law"]), f"第{result['law']}条 Law {result['law']}"
        elif result["kind"] == "definition":
            key, label = (result["doc"], "definitions", ""), "定義 Definitions"
        else:
            key, label = (result["doc"], "other", ""), ""
        group = groups.setdefault(key, {"doc": result["doc"], "document": documents.get(result["doc"], ""),
                                        "label": label, "results": []})
        group["results"].append({**result, "snippet": Markup(result["snippet"])})
    return list(groups.values())


async def respond(datasette, request, as_json: bool, context: dict, status: int) -> Response:
    if as_json:
        data = {k: v for k, v in context.items() if k not in ("documents", "groups")}
        return Response(json.dumps(data, ensure_ascii=False, indent=2), status=status,
                        content_type="application/json; charset=utf-8")
    context = {"languages": LANGUAGES, "documents": {}, "groups": [], **context}
    body = await datasette.render_template("search.html", context, request=request)
    return Response.html(body, status=status)
