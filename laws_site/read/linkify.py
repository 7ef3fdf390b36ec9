"""A unit's text as segments, each plain text or a reference: data for the `linked` macro of
templates/_text.html, which owns the markup.

The xrefs table stores each reference's character offsets in the source text, so links are
placed exactly where the resolver found them: nothing is re-parsed here. Segments carry raw
text; the template escapes it (texts may contain `<` or `&`).
"""

from __future__ import annotations

import re

from ingest.text.words import whole_words
from laws_site.i18n.catalog import N_
from laws_site.read.units import permalink


def xref_href(xref: dict, local_anchors: dict[str, str]) -> str:
    """Same-page anchor when the target is shown on this page (footnotes), else its permalink."""
    target_id = xref.get("target_id")
    if target_id in local_anchors:
        return local_anchors[target_id]
    return permalink(xref["target_doc"], xref["target_ref"])


# why a reference leads nowhere, as a catalogue msgid and its values (the template translates it)
UNRESOLVED_REASONS = [
    (
        re.compile(r"^beyond the end of the source \(the page stops in Law (?P<law>\d+)\)$"),
        N_("The source text of this edition stops in Law %(law)s: the provision cited is not in it."),
    ),
    (
        re.compile(r"^no unit (?P<doc>[a-z0-9-]+):(?P<ref>.+)$"),
        N_("This text has no provision %(ref)s: the reference is printed as it stands in the book."),
    ),
]


def unresolved_reason(reason: str | None) -> dict:
    """{"message": msgid, "values": {...}} for a stored reason (English, may name ids)."""
    for pattern, message in UNRESOLVED_REASONS:
        match = pattern.match(reason or "")
        if match:
            return {"message": message, "values": {k: v for k, v in match.groupdict().items() if k != "doc"}}
    return {"message": N_("This reference could not be followed: %(reason)s"), "values": {"reason": reason or "?"}}


def reference_segment(surface: str, xref: dict, local_anchors: dict[str, str]) -> dict:
    if not xref.get("resolved") or not xref.get("target_id"):
        return {"text": surface, "unresolved": unresolved_reason(xref.get("reason"))}
    # what a tooltip names: the target's label where the page looked it up (18 in 第18条), else its ref
    note = xref.get("target_label") or xref["target_ref"]
    return {
        "text": surface,
        "href": xref_href(xref, local_anchors),
        "title": note,
        "footnote": xref.get("kind") == "footnote",
    }


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


def segments(
    text: str | None,
    xrefs: list[dict],
    field: str = "text",
    local_anchors: dict[str, str] | None = None,
    start: int = 0,
    end: int | None = None,
) -> list[dict]:
    """``text[start:end]`` as plain and reference segments (the xrefs of this ``field``, 'text' or
    'title', that lie wholly inside the range)."""
    if not text:
        return []
    local_anchors = local_anchors or {}
    end = len(text) if end is None else end
    out, cursor = [], start
    for xref in usable_spans(text, [x for x in xrefs if (x.get("field") or "text") == field]):
        if xref["start"] < start or xref["end"] > end:
            continue
        if xref["start"] > cursor:
            out.append({"text": text[cursor : xref["start"]]})
        out.append(reference_segment(text[xref["start"] : xref["end"]], xref, local_anchors))
        cursor = xref["end"]
    if cursor < end:
        out.append({"text": text[cursor:end]})
    return out


def blocks(
    text: str | None, xrefs: list[dict], tables: list[dict], local_anchors: dict[str, str] | None = None
) -> list[dict]:
    """The text cut where printed tables stand (a table's text_start..text_end): text blocks as
    segments, table blocks as the table. Tables without a place in the text follow it. A hand
    diagram set with spaces (L64C's ♠AKQ5 over ♠1074 ♠J9) is a block of its own, `pre`: its
    layout is the spaces."""
    placed = sorted((t for t in tables if t.get("text_start") is not None), key=lambda t: t["text_start"])
    out, cursor = [], 0
    for table in placed:
        if text and text[cursor : table["text_start"]].strip():
            out += text_pieces(text, xrefs, local_anchors, cursor, table["text_start"])
        out.append({"table": table})
        cursor = table["text_end"]
    if text and text[cursor:].strip():
        out += text_pieces(text, xrefs, local_anchors, cursor, len(text))
    out += [{"table": t} for t in tables if t.get("text_start") is None]
    return out


# a line laid out with spaces: a run of 3+ spaces inside it, or 4+ leading ones
SPACED_LINE = re.compile(r"\S {3,}\S|^ {4,}\S")
SUITS = re.compile(r"[♠♥♦♣♤♡♢♧◇]")


def diagram_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each run of consecutive spaced lines that shows cards: a hand diagram."""
    spans, run, offset = [], None, start
    for line in text[start:end].split("\n"):
        line_end = offset + len(line)
        if SPACED_LINE.search(line):
            run = (run[0], line_end) if run else (offset, line_end)
        else:
            if run and SUITS.search(text[run[0] : run[1]]):
                spans.append(run)
            run = None
        offset = line_end + 1
    if run and SUITS.search(text[run[0] : run[1]]):
        spans.append(run)
    return spans


def text_pieces(text: str, xrefs: list[dict], local_anchors, start: int, end: int) -> list[dict]:
    out, cursor = [], start
    for first, last in diagram_spans(text, start, end):
        if text[cursor:first].strip():
            out.append({"segments": trim(segments(text, xrefs, "text", local_anchors, cursor, first))})
        out.append({"segments": segments(text, xrefs, "text", local_anchors, first, last), "pre": True})
        cursor = last
    if text[cursor:end].strip():
        out.append({"segments": trim(segments(text, xrefs, "text", local_anchors, cursor, end))})
    return out


def trim(pieces: list[dict]) -> list[dict]:
    """No blank line where a table was cut out (text is shown with white-space: pre-line)."""
    if pieces and "href" not in pieces[0] and "unresolved" not in pieces[0]:
        pieces[0] = {**pieces[0], "text": pieces[0]["text"].lstrip("\n")}
    if pieces and "href" not in pieces[-1] and "unresolved" not in pieces[-1]:
        pieces[-1] = {**pieces[-1], "text": pieces[-1]["text"].rstrip("\n")}
    return [p for p in pieces if p["text"]]


def mark_terms(blocks_: list[dict], terms: dict[str, dict], seen: set[str]) -> None:
    """The first occurrence on the page of each defined term, in plain text (not inside a
    reference), becomes a term segment: {"text", "href", "title", "term": True}. ``terms`` maps the
    printed term to its definition's url and label. Whole words only, the longest where several
    begin at one place (ingest/text/words.py): プレイ is not linked inside プレイヤー, nor コール inside a
    later アーティフィシャルコール."""
    if not terms:
        return
    for block in blocks_:
        if "segments" not in block:
            continue
        out = []
        for piece in block["segments"]:
            out += split_terms(piece, terms, seen) if set(piece) == {"text"} else [piece]
        block["segments"] = out


def split_terms(piece: dict, terms: dict[str, dict], seen: set[str]) -> list[dict]:
    text, out, cursor = piece["text"], [], 0
    for found in whole_words(text, terms):
        term = found.group()
        if term in seen:  # marked once already: this place stays text (and no shorter term inside it)
            continue
        seen.add(term)
        if found.start() > cursor:
            out.append({"text": text[cursor : found.start()]})
        out.append({"text": term, "href": terms[term]["url"], "title": terms[term]["label"], "term": True})
        cursor = found.end()
    if not out:
        return [piece]
    return out + ([{"text": text[cursor:]}] if cursor < len(text) else [])
