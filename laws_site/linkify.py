"""Turn a unit's text into HTML where every extracted reference is a link.

The xrefs table stores each reference's character offsets in the source text, so links are
placed exactly where the resolver found them: nothing is re-parsed here. Every piece of text
is escaped before markup is added (texts may contain `<` or `&`).
"""
from __future__ import annotations

from markupsafe import Markup, escape

from .units import permalink


def xref_href(xref: dict, local_anchors: dict[str, str]) -> str:
    """Same-page anchor when the target is shown on this page (footnotes), else its permalink."""
    target_id = xref.get("target_id")
    if target_id in local_anchors:
        return local_anchors[target_id]
    return permalink(xref["target_doc"], xref["target_ref"])


def reference_markup(surface: str, xref: dict, local_anchors: dict[str, str]) -> Markup:
    if not xref.get("resolved") or not xref.get("target_id"):
        reason = xref.get("reason") or "unresolved reference"
        return Markup('<span class="xref unresolved" title="{}">{}</span>').format(
            f"unresolved: {reason}", surface)
    css = "xref footnote-marker" if xref.get("kind") == "footnote" else "xref"
    note = f"{xref['target_doc']} {xref['target_ref']}"
    if xref.get("resolved_to_parent"):
        note += f" (nearest existing unit for {xref['resolved_to_parent']})"
    return Markup('<a class="{}" href="{}" title="{}">{}</a>').format(
        css, xref_href(xref, local_anchors), note, surface)


def usable_spans(text: str, xrefs: list[dict]) -> list[dict]:
    """Xrefs whose offsets lie inside the text, first-come first-served when two overlap."""
    placed = [x for x in xrefs if x.get("start") is not None and x.get("end") is not None]
    spans, last_end = [], 0
    for xref in sorted(placed, key=lambda x: (x["start"], -x["end"])):
        start, end = xref["start"], xref["end"]
        if start < last_end or end > len(text) or start >= end:
            continue
        spans.append(xref)
        last_end = end
    return spans


def linkify(text: str | None, xrefs: list[dict], field: str = "text",
            local_anchors: dict[str, str] | None = None) -> Markup:
    """``text`` escaped, with the xrefs of this ``field`` ('text' or 'title') as links."""
    if not text:
        return Markup("")
    local_anchors = local_anchors or {}
    pieces, cursor = [], 0
    for xref in usable_spans(text, [x for x in xrefs if (x.get("field") or "text") == field]):
        pieces.append(escape(text[cursor:xref["start"]]))
        pieces.append(reference_markup(text[xref["start"]:xref["end"]], xref, local_anchors))
        cursor = xref["end"]
    pieces.append(escape(text[cursor:]))
    return Markup("").join(pieces)

