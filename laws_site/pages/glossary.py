"""The glossary page /-/glossary: ja / en / zh terms from the `glossary` table, when it exists.

Another step of the build writes that table; until it does the page says so rather than failing.
"""
from __future__ import annotations

from .. import queries
from ..responses import html_page, json_response, read
from ..units import permalink

GLOSSARY_COLUMNS = ("ja", "en", "zh", "source", "ja_ref", "zh_ref")


def glossary_rows(conn, query: str) -> list[dict] | None:
    """Glossary rows matching ``query`` in any language, or None when there is no glossary table."""
    if not queries.table_exists(conn, "glossary"):
        return None
    present = {r[1] for r in conn.execute("pragma table_info(glossary)")}
    columns = [c for c in GLOSSARY_COLUMNS if c in present]
    select = ", ".join(f'"{c}"' for c in columns)
    where, params = "", []
    if query:
        where = " where " + " or ".join(f'"{c}" like ?' for c in columns if c in ("ja", "en", "zh"))
        params = [f"%{query}%"] * sum(c in ("ja", "en", "zh") for c in columns)
    rows = [dict(r) for r in conn.execute(f"select {select} from glossary{where} order by rowid", params)]
    registry = queries.registry(conn)
    ref_docs = {f"{lang}_ref": registry.laws_in(lang).id for lang in ("ja", "zh") if registry.laws_in(lang)}
    for row in rows:
        for column, doc in ref_docs.items():
            row[f"{column}_url"] = permalink(doc, row[column]) if row.get(column) else None
    return rows


async def view(datasette, request):
    query = (request.args.get("q") or "").strip()
    rows = await read(datasette, lambda conn: glossary_rows(conn, query))
    if request.url_vars.get("as_json"):
        if rows is None:
            return json_response({"error": "no glossary table in this build", "rows": []}, status=404)
        return json_response({"rows": rows})
    return await html_page(datasette, request, "glossary.html",
                           {"rows": rows, "query": query, "missing": rows is None})
