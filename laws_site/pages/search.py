"""The search page: /-/search (HTML) and /-/search.json.

- /-/search?q=リボーク&doc=laws-2017-ja&lang=ja&limit=20&offset=0 : results of
  laws_site.search.engine.search_page (the same function as `bridge-laws search`), grouped by law, linked
  to the unit pages /<doc>/<ref>, "1–20 of 125" with previous/next links. A query that is exactly
  one citation of an existing unit (`64A1`, `第16条B項1`, `Law 73`) opens that unit
  (/<doc>/<ref>?from_search=<query>, which says so); `&list=1` shows the list instead.
- /-/search.json?q=... : {"ok", "query", "doc", "lang", "total", "count", "offset", "limit",
  "next", "next_url", "previous_url", "also_searched", "did_you_mean", "word_langs", "citation", "results": [...]}, Datasette's
  paging convention (`next_url` is the next, disjoint page; null on the last).

Bad input is a 400 with a message (an empty query, nothing searchable, a query too long, an unknown
document or language, a limit or offset that is not a plain number in range), never a 500.
"""

from __future__ import annotations

from urllib.parse import urlencode

from datasette.utils.asgi import Response

from ingest.text.tokenize import clean_query
from laws_site.http import request_bounds
from laws_site.http.locations import redirect
from laws_site.http.responses import html_page, json_response, laws_database, page_url, read_here
from laws_site.i18n import catalog as i18n
from laws_site.i18n.message import of as message_of
from laws_site.read import guides
from laws_site.read.units import permalink
from laws_site.search import engine as searching
from laws_site.search.presentation import quoted_inside
from laws_site.search.query import MAX_OFFSET, parse_count

PAGE_LIMIT = 20
MAX_LIMIT = 200
LANGUAGES = {"ja": "日本語", "zh": "中文"}
EMPTY_JSON_QUERY = "Give a query: /-/search.json?q=リボーク, or a citation: /-/search.json?q=64A1"


async def view(datasette, request):
    as_json = bool(request.url_vars.get("as_json"))
    database = laws_database(datasette)
    documents = {} if as_json else await document_choices(database)  # the form's choices (search_page checks doc)
    args = request.args  # parsed from the query string on each reading: read once
    form = {
        # as searched: control characters out, spaces collapsed (a NUL once stood raw in the title and
        # the box, and "  " answered 「  」に一致する結果はありません instead of the empty form)
        "query": clean_query(args.get("q", "")),
        "doc": args.get("doc") or None,
        "lang": args.get("lang") or None,
        "exact": bool(args.get("exact")),
    }
    context = {**form, "documents": documents}
    if not form["query"]:
        if as_json:
            return await respond(datasette, request, True, {**context, "error": EMPTY_JSON_QUERY}, 400)
        if not form["doc"] and not form["lang"]:
            return await respond(datasette, request, False, context, 200)  # the bare form
    try:
        limit = parse_count(args.get("limit"), "limit", PAGE_LIMIT, 1, MAX_LIMIT)
        offset = parse_count(args.get("offset"), "offset", 0, 0, MAX_OFFSET)
        # the page's order follows its interface (the current law first in zh, en); JSON is the same under
        # every prefix (docs/api.md). Read here: the query runs in a read thread
        interface = "ja" if as_json else i18n.lang()
        page = read_here(
            datasette,
            lambda conn: searching.search_page(
                conn,
                form["query"],
                doc=form["doc"],
                lang=form["lang"],
                limit=limit,
                offset=offset,
                expand=not form["exact"],
                interface=interface,
            ),
            prepare=searching.prepare,
        )
    except searching.QueryError as error:
        shown = {**context, "query": request_bounds.echoed(form["query"]), "error": message_of(error)}
        return await respond(datasette, request, as_json, shown, 400)
    target = opened_unit(page, request)
    if target and not as_json:
        return redirect(target)
    context.update(page_context(datasette, request, page, as_json))
    return await respond(datasette, request, as_json, context, 200)


def opened_unit(page: dict, request) -> str | None:
    """Where the HTML search goes straight to: the first cited unit, when the query is exactly one
    citation of a unit that exists (and no list was asked for)."""
    citation = page["citation"]
    if not citation or not citation["opens"] or request.args.get("list") or page["offset"]:
        return None
    if citation["citations"] != 1:
        return None
    doc, ref = citation["units"][0].split(":", 1)
    return permalink(doc, ref) + "?" + urlencode({"from_search": page["query"]})


def page_context(datasette, request, page: dict, as_json: bool) -> dict:
    results, total, offset, limit = page["results"], page["total"], page["offset"], page["limit"]
    following = offset + limit if offset + limit < total else None
    preceding = max(0, offset - limit) if offset > 0 else None
    context = {
        "query": page["query"],
        "total": total,
        "count": len(results),
        "offset": offset,
        "limit": limit,
        "next": str(following) if following is not None else None,
        "next_url": page_url(datasette, request, following, absolute=as_json),
        "previous_url": page_url(datasette, request, preceding, absolute=as_json),
        # a page past the last result links back to the first (search.html past_end)
        "first_url": page_url(datasette, request, 0, absolute=as_json) if total and not results else None,
        "also_searched": page["also_searched"],
        "citation": page["citation"],
        "results": results,
        "first": offset + 1 if results else 0,
        "last": offset + len(results),
        "did_you_mean": page["did_you_mean"],
        "word_langs": page["word_langs"],
        "expansions": page["expansions"],
        "exact": page["exact"],
    }
    if as_json:
        return context  # the links below are the HTML page's; the JSON answer has no place for them
    form = {key: request.args.get(key) for key in ("doc", "lang") if request.args.get(key)}
    # one tap searches a suggestion, or exactly what was typed
    context["links"] = {
        word: "/-/search?" + urlencode({"q": word, **form}) for word in page["also_searched"] + page["did_you_mean"]
    }
    context["exact_url"] = "/-/search?" + urlencode({"q": page["query"], **form, "exact": "1"})
    context["quoted_query"] = quoted_inside(page["query"])  # the sentences' own quotation marks hold it
    context["guides"] = offered_guides(datasette, results if offset == 0 else [])
    return context


def offered_guides(datasette, results: list[dict]) -> list[dict]:
    """The ruling guides whose laws the first results fall in (laws_site/read/guides.py offered_guides)."""
    ranked = [result["id"] for result in results]
    return read_here(datasette, lambda conn: guides.offered_guides(conn, ranked, i18n.lang())) if ranked else []


async def document_choices(database) -> dict[str, str]:
    """Each document by its short title in the interface language (规则 2017 / Laws 2017), as the menu names it."""
    rows = await database.execute("select * from documents order by rowid")
    column = "short_title" if i18n.lang() == "ja" else f"short_title_{i18n.lang()}"
    out = {}
    for row in rows:
        keys = row.keys()
        pick = [row[c] for c in (column, "short_title", "title") if c in keys and row[c]]
        out[row["id"]] = pick[0] if pick else row["id"]
    return out


def group_results(results: list[dict], documents: dict[str, str]) -> list[dict]:
    """Results in groups, best group first: one document's law, its definitions, or the rest of
    it; for a citation, the cited units and then what cites them."""
    groups: dict[tuple, dict] = {}
    for result in results:
        if result["match"] == "citation":
            key = ("cited",)
        elif result["match"] == "cites":
            key = ("citing",)
        elif result["law"]:
            key = (result["doc"], "law", result["law"])
        elif result["kind"] == "definition":
            key = (result["doc"], "definitions", "")
        else:
            key = (result["doc"], "other", "")
        single_doc = len(key) > 1
        group = groups.setdefault(
            key,
            {
                "doc": result["doc"] if single_doc else None,
                "document": documents.get(result["doc"], "") if single_doc else "",
                "kind": key[1] if single_doc else key[0],
                "law": result["law"],
                "results": [],
            },
        )
        group["results"].append({**result, "document": documents.get(result["doc"], "")})
    return list(groups.values())


async def respond(datasette, request, as_json: bool, context: dict, status: int) -> Response:
    if as_json:
        if status != 200:
            return json_response(
                {"ok": False, "error": str(context["error"]), "status": status, "title": "Invalid search"},
                status=status,
            )
        keys = (
            "query",
            "doc",
            "lang",
            "total",
            "count",
            "offset",
            "limit",
            "next",
            "next_url",
            "previous_url",
            "also_searched",
            "did_you_mean",
            "word_langs",
            "expansions",
            "exact",
            "citation",
            "results",
        )
        return json_response({"ok": True, **{key: context.get(key) for key in keys}})
    documents = context.get("documents", {})
    groups = group_results(context.get("results", []), documents)
    context = {"languages": LANGUAGES, "groups": groups, "word_langs": {}, **context}
    return await html_page(datasette, request, "search.html", context, status=status)
