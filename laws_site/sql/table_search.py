"""Datasette's own ?_search= box on the sections table, made to work for Japanese and Chinese.

Datasette would hand the raw query to FTS, which never matches our pre-tokenized columns
(docs/pitfalls.md); `filters_from_request` replaces the query with its tokens, made the same way
as the index.
"""

from __future__ import annotations

from datasette.filters import FilterArguments

from ingest.text import tokenize
from laws_site.search.data import search_data

LANGUAGES = ("ja", "zh")
SEARCH_COLUMNS = {"search_title", "search_text"}


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
        # fold katakana with this database's variants (table `variants`), as its index was
        await datasette.get_database(database).execute_fn(search_data)
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
