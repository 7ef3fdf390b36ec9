"""A document's table of contents: the printed 目次 where the book has one, else its structure."""

from __future__ import annotations

from laws_site.http.responses import error_response, html_page, json_response, read
from laws_site.i18n import catalog as i18n
from laws_site.pages.unit import short_titles
from laws_site.read import queries
from laws_site.read.units import labels, permalink

# Units that head a stretch of text; their nesting is the document's outline.
OUTLINE_KINDS = (
    "front_matter",
    "preface",
    "introduction",
    "part",
    "chapter",
    "division",
    "law",
    "article",
    "appendix",
    "table",
    "essay",
    "quote",
    "note",
    "ruling",
    "definition",
    "index",
)
# In the 2017 Laws the printed 目次 lists laws and sections; the rest of the book is outside it.
OUTSIDE_PRINTED_TOC = ("front_matter", "preface", "introduction", "chapter", "index")
CONTENTS_ROWS = "contents_rows"  # ingest/references/contents_rows.py


def outline(units: list[dict]) -> list[dict]:
    """Each unit with its depth among the listed units (a parent not listed adds no depth)."""
    depth: dict[str, int] = {}
    rows = []
    for unit in units:
        level = depth[unit["parent_id"]] + 1 if unit["parent_id"] in depth else 0
        depth[unit["id"]] = level
        rows.append({**unit, "depth": level})
    return rows


def printed_toc(conn, doc: str) -> list[dict]:
    """The 目次 rows: a law at depth 0, its sections below; grouped by the part they are printed in.
    Read from table contents_rows (made at build: ingest/references/contents_rows.py), plain tuples."""
    cursor = conn.cursor()
    cursor.row_factory = None  # short text columns: the connection's result budget is not needed per row
    return [
        {"ref": ref, "title": title, "depth": depth, "url": permalink(doc, ref), "part": part}
        for ref, title, depth, part in cursor.execute(
            f"select ref, title, depth, part from {CONTENTS_ROWS} where doc = ? order by position", (doc,)
        )
    ]


def toc_parts(conn, doc: str, toc: list[dict]) -> list[dict]:
    """The printed 目次 as parts (collapsible, each with an anchor) of laws with their sections."""
    parts_by_title = {p["title"]: p for p in queries.units_of_kinds(conn, doc, ("part",))}
    groups: list[dict] = []
    for row in toc:
        if not groups or row["part"] != groups[-1]["title"]:
            part = parts_by_title.get(row["part"]) or {}
            number = (part.get("attrs") or {}).get("number") or part.get("ref", "").removeprefix("part:")
            groups.append(
                {
                    "title": row["part"],
                    "ref": part.get("ref"),
                    "url": part.get("url"),
                    "anchor": f"part-{number or len(groups) + 1}",
                    "number": number,
                    "laws": [],
                }
            )
        if row["depth"] == 0:
            groups[-1]["laws"].append({**row, "sections": []})
        elif groups[-1]["laws"]:
            law = groups[-1]["laws"][-1]
            law["sections"].append({**row, "mark": row["ref"].removeprefix(law["ref"])})
    for group in groups:
        refs = [law["ref"] for law in group["laws"]]
        group["range"] = f"{refs[0]}–{refs[-1]}" if len(refs) > 1 else (refs[0] if refs else "")
    return groups


def outline_groups(rows: list[dict]) -> list[dict]:
    """A document's own structure as groups: each top-level unit with what is listed under it."""
    groups: list[dict] = []
    for row in rows:
        if row["depth"] == 0 or not groups:
            groups.append({**row, "anchor": anchor_of(row["ref"]), "items": []})
        else:
            groups[-1]["items"].append(row)
    for group in groups:
        numbered = [r["ref"] for r in group["items"] if r["kind"] in ("law", "article") and r["ref"].isdigit()]
        group["range"] = (f"{numbered[0]}–{numbered[-1]}" if len(numbered) > 1 else numbered[0]) if numbered else None
    return groups


def anchor_of(ref: str) -> str:
    return "c-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in ref)


def contents_context(conn, doc: str, lang: str = "ja") -> dict | None:
    document = queries.document(conn, doc)
    if document is None:
        return None
    # the Laws' printed 目次 lists laws and sections (a commentary's 目次 lists only what it reprints)
    toc = printed_toc(conn, doc) if document["kind"] == "laws" else []
    kinds = OUTSIDE_PRINTED_TOC if toc else OUTLINE_KINDS
    rows = outline(queries.units_of_kinds(conn, doc, kinds))
    names = labels(conn, [r["id"] for r in rows], lang)  # 「第63条の引用」, not quote:63
    for row in rows:
        row["label"] = names.get(row["id"]) or row["ref"]
    return {
        "document": document,
        "document_title": short_titles(conn, lang).get(doc),
        "toc": toc,
        "outline": rows,
        "parts": toc_parts(conn, doc, toc) if toc else [],
        "groups": outline_groups(rows),
        "has_index": has_index(conn, doc),
    }


def has_index(conn, doc: str) -> bool:
    """Whether the document has a 索引 (one row looked at, not every index row read)."""
    return (
        conn.execute("select 1 from sections where doc = ? and kind = 'index_row' limit 1", (doc,)).fetchone()
        is not None
    )


def contents_json(context: dict) -> dict:
    keep = ("ref", "title", "kind", "depth", "url")
    return {
        "document": context["document"],
        "toc": [{k: row.get(k) for k in ("ref", "title", "depth", "url", "part")} for row in context["toc"]],
        "outline": [{k: row.get(k) for k in keep} for row in context["outline"]],
    }


async def view(datasette, request):
    """/<doc> (and /<doc>.json): the table of contents of one document."""
    doc = request.url_vars["doc"]
    lang = i18n.lang()
    context = await read(datasette, lambda conn: contents_context(conn, doc, lang))
    if context is None:
        return await error_response(
            datasette,
            request,
            404,
            f"No document {doc!r}",
            as_json=bool(request.url_vars.get("as_json")),
            extra={"suggestions": []},
            template="unit_not_found.html",
            context={"doc": doc, "ref": "", "document": None},
        )
    if request.url_vars.get("as_json"):
        return json_response(contents_json(context))
    return await html_page(datasette, request, "document.html", context)
