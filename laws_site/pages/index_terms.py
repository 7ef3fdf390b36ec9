"""The 索引 of the 2017 Laws, by kana row, every printed reference a link.

`?row=` takes any kana of a row, hiragana or katakana, voiced or small (り, リ, ガ, っ): it
selects the row the kana belongs to (ら, か, た). All ten rows are offered; a row the index has
no entries for says so.
"""

from __future__ import annotations

import unicodedata

from ingest.text import kana as kana_table
from laws_site.http.responses import error_response, html_page, json_response, read
from laws_site.i18n import catalog as i18n
from laws_site.i18n import chrome
from laws_site.i18n.catalog import N_
from laws_site.read import queries
from laws_site.read.linkify import segments
from laws_site.read.units import permalink


def kana_row(value: str | None) -> str | None:
    """The row (あ か さ た な は ま や ら わ) of the first kana typed; None for anything else."""
    text = unicodedata.normalize("NFKC", (value or "").strip())
    if not text:
        return None
    return kana_table.gojuon_row(text[0])


def see_links(terms, known: set[str], doc: str) -> list[dict]:
    """see / see-also terms as links where the index has an entry of that name."""
    if isinstance(terms, str):
        terms = [terms]
    out = []
    for term in terms or []:
        ref = f"index:{term}"
        out.append({"term": term, "url": permalink(doc, ref) if ref in known else None})
    return out


def index_context(conn, doc: str, asked: str | None) -> dict | None:
    row_units = queries.units_of_kinds(conn, doc, ("index_row",))
    if not row_units:
        return None
    row_filter = kana_row(asked) if asked else None
    sizes = queries.index_row_sizes(conn, doc)
    rows = {kana: {"row": kana, "size": sizes.get(kana, 0), "entries": []} for kana in kana_table.GOJUON_ROWS}
    for unit in row_units:  # a row the printed index names that is not a gojūon row still shows
        kana = unit["attrs"].get("row") or unit["title"]
        rows.setdefault(kana, {"row": kana, "size": sizes.get(kana, 0), "entries": []})
    entries = queries.index_entries(conn, doc, row_filter)  # one row is a tenth of the index
    for entry in entries:
        if entry["attrs"].get("row") in rows:
            rows[entry["attrs"]["row"]]["entries"].append(entry)
    shown = [r for r in rows.values() if r["entries"]] if not row_filter else [rows[row_filter]]
    show_entries(conn, doc, entries, {row["id"] for row in row_units}, queries.refs_of_kind(conn, doc, "index_entry"))
    return {
        "document": queries.document(conn, doc),
        "rows": list(rows.values()),
        "shown": shown,
        "asked": asked,
        "row_filter": row_filter,
        "not_a_row": bool(asked) and row_filter is None,
        "entry_count": sum(len(r["entries"]) for r in shown),
    }


def show_entries(conn, doc: str, entries: list[dict], row_ids: set[str], known: set[str]) -> None:
    """What the page draws of each entry shown."""
    xrefs = queries.xrefs_from(conn, [e["id"] for e in entries]) if entries else []
    by_source: dict[str, list[dict]] = {}
    for xref in xrefs:
        by_source.setdefault(xref["source_id"], []).append(xref)
    for entry in entries:
        entry["segments"] = segments(entry["text"], by_source.get(entry["id"], []), "text")
        entry["depth"] = 0 if entry["parent_id"] in row_ids else 1
        entry["see"] = see_links(entry["attrs"].get("see"), known, doc)
        entry["see_also"] = see_links(entry["attrs"].get("see_also"), known, doc)


def index_json(context: dict) -> dict:
    return {
        "row": context["row_filter"],
        "rows": [
            {
                "row": r["row"],
                "entries": [
                    {
                        "ref": e["ref"],
                        "term": e["title"],
                        "refs_printed": e["text"],
                        "url": e["url"],
                        "heading": e["attrs"].get("heading"),
                        "see": [s["term"] for s in e["see"]],
                        "see_also": [s["term"] for s in e["see_also"]],
                    }
                    for e in r["entries"]
                ],
            }
            for r in context["shown"]
        ],
    }


NO_INDEX = N_("%(document)s has no index.")


async def view(datasette, request):
    """/<doc>/-/index (the 2017 Laws' 索引), one kana row with ?row=か (or any kana of the row)."""
    doc = request.url_vars["doc"]
    asked = request.args.get("row") or None
    lang = i18n.lang()  # read before the thread
    context = await read(datasette, lambda conn: index_context(conn, doc, asked))
    titles = await read(datasette, lambda conn: chrome.short_titles(conn, lang))
    if context is None:
        laws = (await read(datasette, queries.registry)).current_laws
        suggestions = (
            [
                {
                    "label": f"{laws.id}/-/index",
                    "url": f"/{laws.id}/-/index",
                    "name": f"{titles.get(laws.id)}: {i18n.gettext('Index')}",
                }
            ]
            if laws
            else []
        )
        as_json = bool(request.url_vars.get("as_json"))
        message = (
            f"No index (索引) in {doc!r}" if as_json else i18n.gettext(NO_INDEX, document=titles.get(doc) or doc)
        )  # the page in the reader's language
        return await error_response(
            datasette, request, 404, message, as_json=as_json, extra={"suggestions": suggestions}
        )
    if request.url_vars.get("as_json"):
        if context["not_a_row"]:  # the page says so beside every row; JSON says it as every API does, a 400
            error = f"row={asked[:20]!r} is not a kana: one of あ か さ た な は ま や ら わ, or any kana of a row (り)"
            return await error_response(datasette, request, 400, error, as_json=True, title="Bad Request")
        return json_response(index_json(context))
    return await html_page(datasette, request, "index_terms.html", {**context, "document_title": titles.get(doc)})
