"""The glossary: /-/glossary (the JA / EN / ZH table) and /-/glossary/<term> (the term in context).

- /-/glossary?q=dummy&limit=100&offset=0 (+ .json): rows of table `glossary` whose term in any
  language contains the filter (width, case, katakana spelling and traditional characters folded),
  each with the units its terms come from (`sources`, linked) and its usage page; JSON pages like
  /-/search.json (`total`, `count`, `next_url`).
- /-/glossary/<term> (+ .json): every unit where the term, one of its spellings or its translation
  occurs, with the sentence around it, grouped by document and language: {"term", "entry",
  "forms", "total", "groups", "usages": [{id, url, context, ...}]}. <term> is any of the row's
  words (ダミー, dummy, 明手), a defined term, or a word of the director vocabulary.
"""

from __future__ import annotations

import difflib
from urllib.parse import quote, unquote

from ingest.search import glossary as glossary_terms
from ingest.search.vocabulary import search_key
from ingest.text import tokenize
from laws_site.http.responses import html_page, json_response, page_url, read
from laws_site.i18n import catalog as i18n
from laws_site.i18n.message import message
from laws_site.i18n.message import of as message_of
from laws_site.read.units import labels, permalink
from laws_site.search.data import search_data
from laws_site.search.query import QueryError, parse_count
from laws_site.search.term_usage import MAX_TERM_CHARS, term_usage

GLOSSARY_COLUMNS = ("id", "ja", "en", "zh", "source", "ja_ref", "zh_ref")
PAGE_LIMIT = 100
MAX_LIMIT = 500
MAX_FILTER_CHARS = 100


def glossary_rows(conn, query: str = "", ui_lang: str | None = None) -> list[dict]:
    """The glossary rows whose term in some language contains `query` (all for ""), each with its
    sources and usage page."""
    registry = search_data(conn).registry  # also installs the variants search_key folds with
    columns = ", ".join(GLOSSARY_COLUMNS)
    rows = [dict(zip(GLOSSARY_COLUMNS, r)) for r in conn.execute(f"select {columns} from glossary order by rowid")]
    for row in rows:
        row["sources"] = []
        for lang in ("ja", "zh"):
            document, ref = registry.laws_in(lang), row.get(f"{lang}_ref")
            url = permalink(document.id, ref) if document and ref else None
            row[f"{lang}_ref_url"] = url
            if url:
                row["sources"].append(
                    {
                        "lang": lang,
                        "doc": document.id,
                        "ref": ref,
                        "url": url,
                        "document": document.short_title or document.title,
                    }
                )
        word = row.get("ja") or row.get("zh") or row.get("en")
        row["usage_url"] = "/-/glossary/" + quote(glossary_terms.term_forms(word)[0], safe="") if word else None
    if query:
        wanted = search_key(tokenize.to_simplified(query))
        rows = [row for row in rows if matches(row, wanted)]
    if ui_lang:  # what a person reads for each source: 「規則 2017: 定義: ダミー」, not def:ダミー
        names = labels(conn, [f"{s['doc']}:{s['ref']}" for row in rows for s in row["sources"]], ui_lang, full=True)
        for row in rows:
            for source in row["sources"]:
                source["label"] = names.get(f"{source['doc']}:{source['ref']}")
    return rows


def matches(row: dict, wanted: str) -> bool:
    """The filter occurs in the row's term in some language (folded as search folds it)."""
    for column in ("ja", "en", "zh"):
        value = row.get(column) or ""
        if wanted in search_key(value) or wanted in search_key(tokenize.to_simplified(value)):
            return True
    return False


async def view(datasette, request):
    as_json = bool(request.url_vars.get("as_json"))
    query = (request.args.get("q") or "").strip()
    try:
        if len(query) > MAX_FILTER_CHARS:
            raise QueryError(
                message(
                    "The filter is %(size)s characters long; a term has at most %(limit)s.",
                    size=f"{len(query):,}",
                    limit=MAX_FILTER_CHARS,
                )
            )
        limit = parse_count(request.args.get("limit"), "limit", PAGE_LIMIT, 1, MAX_LIMIT)
        offset = parse_count(request.args.get("offset"), "offset", 0, 0, 100_000)
    except QueryError as error:
        return await answer_error(datasette, request, as_json, message_of(error), 400, query=query)
    lang = None if as_json else i18n.lang()  # labels are for the page; JSON is the same in every language
    rows = await read(datasette, lambda conn: glossary_rows(conn, query, lang))
    total = len(rows)
    page = rows[offset : offset + limit]
    context = {
        "rows": page,
        "query": query,
        "missing": False,
        "total": total,
        "count": len(page),
        "offset": offset,
        "limit": limit,
        "first": offset + 1 if page else 0,
        "last": offset + len(page),
        "next_url": page_url(datasette, request, offset + limit if offset + limit < total else None, as_json),
        "previous_url": page_url(datasette, request, max(0, offset - limit) if offset else None, as_json),
    }
    if as_json:
        keys = ("query", "total", "count", "offset", "limit", "next_url", "previous_url", "rows")
        return json_response(
            {
                "ok": True,
                **{key: context[key] for key in keys},
                "next": str(offset + limit) if context["next_url"] else None,
            }
        )
    return await html_page(datasette, request, "glossary.html", context)


async def term_view(datasette, request):
    as_json = bool(request.url_vars.get("as_json"))
    term = unquote(request.url_vars["term"]).strip()
    if not term or len(term) > MAX_TERM_CHARS or "\x00" in term:
        refusal = message(
            "A term has 1 to %(limit)s characters (no control characters); pick one from /-/glossary.",
            limit=MAX_TERM_CHARS,
        )
        return await answer_error(datasette, request, as_json, refusal, 400, term=term[:MAX_TERM_CHARS])
    limit, offset = None, 0  # the JSON pages like the glossary's (docs/api.md); no `limit`: every usage
    if as_json:
        try:
            limit = parse_count(request.args.get("limit"), "limit", 0, 1, MAX_LIMIT) or None
            offset = parse_count(request.args.get("offset"), "offset", 0, 0, 100_000)
        except QueryError as error:
            return await answer_error(datasette, request, as_json, message_of(error), 400, term=term)
    lang = i18n.lang()
    usage = await read(datasette, lambda conn: labelled(conn, term_usage(conn, term), lang))
    if usage is None:
        suggestions = await read(datasette, lambda conn: nearest_terms(conn, term))
        unknown = message("“%(term)s” is not in the glossary, the definitions or the director vocabulary.", term=term)
        if as_json:
            return json_response(
                {
                    "ok": False,
                    "error": str(unknown),
                    "status": 404,
                    "title": "Unknown term",
                    "suggestions": suggestions,
                },
                status=404,
            )
        return await html_page(
            datasette,
            request,
            "glossary_term.html",
            {"term": term, "error": unknown, "suggestions": suggestions},
            status=404,
        )
    if as_json:
        flat = [usage_json(u) for group in usage["groups"] for u in group["usages"]]
        groups = [{k: group[k] for k in ("doc", "lang", "document", "count")} for group in usage["groups"]]
        page = flat[offset : offset + limit] if limit else flat[offset:]
        following = offset + limit if limit and offset + limit < len(flat) else None
        return json_response(
            {
                "ok": True,
                "term": usage["term"],
                "entry": usage["entry"],
                "forms": usage["forms"],
                "total": usage["total"],
                "count": len(page),
                "offset": offset,
                "limit": limit,
                "next_url": page_url(datasette, request, following, True),
                "previous_url": page_url(
                    datasette, request, max(0, offset - (limit or offset)) if offset else None, True
                ),
                "groups": groups,
                "usages": page,
            }
        )
    return await html_page(datasette, request, "glossary_term.html", usage)


def labelled(conn, usage: dict | None, lang: str) -> dict | None:
    """Each passage named by its label in the interface language (第61条B項2, 定義: ダミー)."""
    if usage:
        names = labels(conn, [u["id"] for group in usage["groups"] for u in group["usages"]], lang)
        for group in usage["groups"]:
            for u in group["usages"]:
                u["label"] = names.get(u["id"]) or u["ref"]
    return usage


def usage_json(usage: dict) -> dict:
    return {
        key: usage[key]
        for key in ("id", "doc", "ref", "lang", "title", "url", "word", "occurrences", "context", "spans")
    }


def nearest_terms(conn, term: str) -> list[dict]:
    rows = glossary_rows(conn)
    words = {}
    for row in rows:
        for column in ("ja", "en", "zh"):
            for word in glossary_terms.term_forms(row.get(column)):
                words.setdefault(word, "/-/glossary/" + quote(word, safe=""))
    close = difflib.get_close_matches(term, list(words), n=5, cutoff=0.4)
    return [{"term": word, "url": words[word]} for word in close]


async def answer_error(datasette, request, as_json: bool, error, status: int, **context):
    """The error (a Message) as English text in JSON, in the interface language on the page."""
    if as_json:
        return json_response(
            {"ok": False, "error": str(error), "status": status, "title": "Invalid glossary request"}, status=status
        )
    template = "glossary_term.html" if "term" in context else "glossary.html"
    return await html_page(datasette, request, template, {"error": error, "rows": [], **context}, status=status)
