"""Links inside Datasette's own table pages: a unit's ref goes to its permalink, and the text of a
unit in /laws/sections shows its references as links, exactly as on the unit page."""

from __future__ import annotations

from markupsafe import Markup

from laws_site import compat
from laws_site.http.responses import read
from laws_site.read import queries
from laws_site.read.linkify import segments
from laws_site.read.units import permalink


def is_row(row) -> bool:
    return hasattr(row, "keys")


def plain(value):
    """Datasette expands foreign-key cells (doc -> documents) into {"value", "label"}."""
    return value["value"] if isinstance(value, dict) else value


def render_cell(row, value, column, table, datasette):
    if not is_row(row) or value is None:
        return None
    keys = row.keys()
    if table == "sections" and column == "ref" and "doc" in keys:
        return link(datasette, permalink(plain(row["doc"]), value), value)
    if table == "xrefs" and column == "target_ref" and "target_doc" in keys and plain(row["target_doc"]):
        if "resolved" in keys and not row["resolved"]:
            return None
        return link(datasette, permalink(plain(row["target_doc"]), value), value)
    if table == "sections" and column in ("text", "title") and "id" in keys:
        return linked_text(datasette, row["id"], value, column)
    return None


def link(datasette, url: str, text: str):
    """An awaitable: the cell as one link, drawn by the same macro as every reference link."""
    return render(datasette, [{"text": text, "href": url, "title": text}])


def render(datasette, segments: list[dict]):
    async def inner():
        macros = await compat.jinja_environment(datasette).get_template("_text.html").make_module_async()
        return Markup(await macros.linked(segments))

    return inner


def linked_text(datasette, unit_id: str, text: str, field: str):
    """An awaitable (render_cell may return one): the unit's own xrefs turned into links."""

    async def inner():
        xrefs = await read(datasette, lambda conn: queries.xrefs_from(conn, [unit_id]))
        if not any((x.get("field") or "text") == field for x in xrefs):
            return None  # nothing to link: let Datasette render the cell as usual
        return await render(datasette, segments(text, xrefs, field))()

    return inner
