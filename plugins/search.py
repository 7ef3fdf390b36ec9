"""Search on the site: /-/search (HTML), /-/search.json, and Datasette's own ?_search= box.

- /-/search?q=リボーク&doc=laws-2017-ja&lang=ja : results of ingest.search.search (the same function
  as `bridge-laws search`), grouped by law, linked to the unit pages /<doc>/<ref>.
- /-/search.json?q=... : {"query", "doc", "lang", "count", "results": [same fields as the CLI]}.
- ?_search= on the sections table: Datasette would hand the raw query to FTS, which never matches
  our pre-tokenized columns (docs/pitfalls.md); `filters_from_request` replaces the query with its
  tokens, made the same way as the index.

Bad input is a 400 with a message (an empty query, an unknown document or language), never a 500.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from datasette import hookimpl
from datasette.filters import FilterArguments
from datasette.utils.asgi import Response
from markupsafe import Markup

try:
    from ingest import search as searching
    from ingest import tokenize
except ImportError:  # served from another directory: the project root holds the ingest package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from ingest import search as searching
    from ingest import tokenize

PAGE_LIMIT = 50
MAX_LIMIT = 200
LANGUAGES = {"ja": "日本語", "zh": "中文"}
SEARCH_COLUMNS = {"search_title", "search_text"}


@hookimpl
def register_routes():
    return [(r"^/-/search(?P<as_json>\.json)?$", search_view)]


# ---------------------------------------------------------------- /-/search

async def laws_database(datasette):
    """The served database holding table `sections`."""
    for name, database in datasette.databases.items():
        if name != "_internal" and await database.table_exists("sections"):
            return database
    return None


async def search_view(datasette, request):
    as_json = bool(request.url_vars.get("as_json"))
    query = request.args.get("q", "")
    database = await laws_database(datasette)
    if database is None:
        return await respond(datasette, request, as_json, {"error": "No database with the Laws is being served."}, 503)
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


# ---------------------------------------------------------------- ?_search= on tables

@hookimpl(trylast=True)
def filters_from_request(request, database, table, datasette):
    """Re-tokenize Datasette's ?_search= (and ?_search_<column>=) like the index.

    Runs after Datasette's own search filter (trylast) so its `search` parameter, which that filter
    passes through escape_fts(), becomes our quoted tokens; the box still shows what was typed."""
    search_keys = [k for k in request.args if k.startswith("_search") and k != "_searchmode"]
    if not search_keys or table is None:
        return None

    async def inner():
        if not await has_token_columns(datasette, database, table):
            return None
        params, extra = {}, {}
        for index, key in enumerate(search_keys):
            raw = request.args.get(key, "")
            lang = await choose_language(datasette, database, request, raw)
            name = "search" if key == "_search" else f"search_{index}"
            params[name] = quoted_terms(tokenize.query_terms(raw, lang))
            extra["search"] = raw
        return FilterArguments([], params, [], extra)

    return inner


async def has_token_columns(datasette, database: str, table: str) -> bool:
    db = datasette.get_database(database)
    fts_table = await db.fts_table(table)
    return bool(fts_table) and SEARCH_COLUMNS <= set(await db.table_columns(fts_table))


def quoted_terms(terms: list[str]) -> str:
    """Tokens as FTS phrases; escape_fts keeps quoted strings as they are. No tokens at all (the query
    was only punctuation) becomes a phrase that matches nothing instead of an FTS syntax error."""
    return " ".join('"' + term.replace('"', "") + '"' for term in terms) or '"\u2205"'


async def choose_language(datasette, database: str, request, query: str) -> str:
    """The language the table is filtered to (?lang=zh), else the query's script, else (kanji only:
    Japanese or Chinese?) the language in which the query matches more rows."""
    chosen = request.args.get("lang") or request.args.get("lang__exact")
    if chosen in LANGUAGES:
        return chosen
    if tokenize.KANA_RE.search(query) or not tokenize.HAN_RE.search(query):
        return "ja"
    db = datasette.get_database(database)
    fts_table = await db.fts_table(request.url_vars.get("table") or "sections") or "sections_fts"
    counts = {}
    for lang in LANGUAGES:
        match = tokenize.fts_match(tokenize.query_terms(query, lang))
        if not match:
            counts[lang] = 0
            continue
        rows = await db.execute(f"select count(*) from [{fts_table}] where [{fts_table}] match ?", [match])
        counts[lang] = rows.first()[0]
    return max(counts, key=lambda lang: counts[lang])
