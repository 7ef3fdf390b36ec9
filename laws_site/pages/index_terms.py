"""The 索引 of the 2017 Laws, by kana row, every printed reference a link."""
from __future__ import annotations

from .. import queries
from ..linkify import linkify
from ..responses import error_response, html_page, json_response, read


def index_context(conn, doc: str, row_filter: str | None) -> dict | None:
    rows = queries.units_of_kinds(conn, doc, ("index_row",))
    if not rows:
        return None
    entries = queries.units_of_kinds(conn, doc, ("index_entry",))
    xrefs = queries.xrefs_from(conn, [e["id"] for e in entries]) if entries else []
    by_source: dict[str, list[dict]] = {}
    for xref in xrefs:
        by_source.setdefault(xref["source_id"], []).append(xref)
    row_ids = {row["id"]: row for row in rows}
    for row in rows:
        row["entries"] = []
    for entry in entries:
        entry["text_html"] = linkify(entry["text"], by_source.get(entry["id"], []), "text")
        entry["depth"] = 0 if entry["parent_id"] in row_ids else 1
        kana = entry["attrs"].get("row")
        row = next((r for r in rows if r["attrs"].get("row") == kana), None)
        if row is not None:
            row["entries"].append(entry)
    shown = [r for r in rows if not row_filter or r["attrs"].get("row") == row_filter]
    return {"document": queries.document(conn, doc), "rows": rows, "shown": shown,
            "row_filter": row_filter, "entry_count": sum(len(r["entries"]) for r in shown)}


def index_json(context: dict) -> dict:
    return {"rows": [{"row": r["attrs"].get("row"), "entries": [
        {"ref": e["ref"], "term": e["title"], "refs_printed": e["text"], "url": e["url"],
         "heading": e["attrs"].get("heading"), "see_also": e["attrs"].get("see_also") or []}
        for e in r["entries"]]} for r in context["shown"]]}


async def view(datasette, request):
    """/<doc>/-/index (the 2017 Laws' 索引), one kana row with ?row=か."""
    doc = request.url_vars["doc"]
    row_filter = request.args.get("row") or None
    context = await read(datasette, lambda conn: index_context(conn, doc, row_filter))
    if context is None:
        laws = (await read(datasette, queries.registry)).current_laws
        suggestions = [{"label": f"{laws.id}/-/index", "url": f"/{laws.id}/-/index"}] if laws else []
        return await error_response(datasette, request, 404, f"No index (索引) in {doc!r}",
                                    as_json=bool(request.url_vars.get("as_json")), extra={"suggestions": suggestions})
    if request.url_vars.get("as_json"):
        return json_response(index_json(context))
    return await html_page(datasette, request, "index_terms.html", context)
