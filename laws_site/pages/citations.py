"""Which law of the 2017 Laws cites which: the matrix behind /-/citations, drawn as SVG on the server.

No script, no CDN: the map is plain SVG in the page, so it works offline and in any browser.
"""
from __future__ import annotations

import re
from collections import defaultdict
from urllib.parse import urlencode

from markupsafe import Markup

from .. import queries
from ..queries import law_number
from ..responses import html_page, json_response, read
from ..units import permalink

LAW_TEXT_KINDS = ("law", "section", "item", "subitem", "subsubitem", "footnote")
CELL = 8          # px per law
MARGIN = 34       # room for the axis labels
LABEL_EVERY = 5


def citation_pairs(conn, doc: str) -> dict[tuple[int, int], list[str]]:
    """(citing law, cited law) -> refs of the citing units, from resolved in-text references.

    A footnote counts for the law its marker sits in (its anchor_ref), not as a law of its own.
    """
    marks = ",".join("?" * len(LAW_TEXT_KINDS))
    rows = conn.execute(f"""
        select coalesce(json_extract(s.attrs, '$.anchor_ref'), s.ref) as citing_ref, s.ref as source_ref,
               x.target_ref
        from xrefs x join sections s on s.id = x.source_id
        where s.doc = ? and x.target_doc = ? and x.resolved = 1 and x.kind = 'cites'
          and s.kind in ({marks})
        order by s.position
    """, (doc, doc, *LAW_TEXT_KINDS))
    pairs: dict[tuple[int, int], list[str]] = defaultdict(list)
    for citing_ref, source_ref, target_ref in rows:
        citing, cited = law_number(citing_ref), law_number(target_ref)
        if citing is None or cited is None:
            continue
        if source_ref not in pairs[(citing, cited)]:
            pairs[(citing, cited)].append(source_ref)
    return dict(pairs)


def law_count(conn, doc: str) -> int:
    return conn.execute("select count(*) from sections where doc = ? and kind = 'law'", (doc,)).fetchone()[0]


def cell_href(citing: int, cited: int, sources: list[str], doc: str) -> str:
    """One citing unit: its permalink; several: the list of them."""
    if len(sources) == 1:
        return permalink(doc, sources[0])
    return "/-/citations?" + urlencode({"from": citing, "to": cited})


def shade(count: int, most: int) -> str:
    """Darker blue for more citations (never so pale a single citation is invisible)."""
    strength = 0.35 + 0.65 * (count / most if most else 0)
    return f"rgba(20, 70, 160, {strength:.2f})"


def matrix_svg(pairs: dict[tuple[int, int], list[str]], laws: int, doc: str) -> Markup:
    size = MARGIN + laws * CELL
    most = max((len(v) for v in pairs.values()), default=1)
    parts = [Markup('<svg class="citation-map" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {0}" '
                    'width="{0}" height="{0}" role="img" aria-labelledby="map-title">'
                    '<title id="map-title">Citations between the Laws: row cites column</title>').format(size)]
    parts += grid_and_labels(laws)
    for (citing, cited), sources in sorted(pairs.items()):
        x, y = MARGIN + (cited - 1) * CELL, MARGIN + (citing - 1) * CELL
        parts.append(Markup('<a href="{}" class="cell" data-from="{}" data-to="{}"><rect x="{}" y="{}" '
                            'width="{}" height="{}" fill="{}"><title>第{}条 → 第{}条: {} ({})</title></rect></a>')
                     .format(cell_href(citing, cited, sources, doc), citing, cited, x, y, CELL - 1, CELL - 1,
                             shade(len(sources), most), citing, cited, len(sources), ", ".join(sources)))
    parts.append(Markup("</svg>"))
    return Markup("").join(parts)


def grid_and_labels(laws: int) -> list[Markup]:
    end = MARGIN + laws * CELL
    out = []
    for law in range(1, laws + 1):
        offset = MARGIN + (law - 1) * CELL
        if law % 10 == 1:
            out.append(Markup('<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" class="grid"/>'
                              '<line x1="{1}" y1="{0}" x2="{2}" y2="{0}" class="grid"/>').format(offset, MARGIN, end))
        if law == 1 or law % LABEL_EVERY == 0:
            middle = offset + CELL - 1
            out.append(Markup('<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>'
                              '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>')
                       .format(MARGIN - 3, middle, law, offset + CELL / 2, MARGIN - 4, law))
    return out


def citation_context(conn, citing: int | None = None, cited: int | None = None) -> dict:
    doc = queries.registry(conn).current_laws.id
    pairs = citation_pairs(conn, doc)
    laws = law_count(conn, doc)
    cited_by = defaultdict(int)
    for (_, target), sources in pairs.items():
        cited_by[target] += len(sources)
    most_cited = sorted(cited_by.items(), key=lambda kv: (-kv[1], kv[0]))[:15]
    selected = None
    if citing is not None and cited is not None:
        selected = {"from": citing, "to": cited, "units": [
            {"ref": ref, "url": permalink(doc, ref)} for ref in pairs.get((citing, cited), [])]}
    return {"svg": matrix_svg(pairs, laws, doc), "laws": laws, "pair_count": len(pairs),
            "citation_count": sum(len(v) for v in pairs.values()), "selected": selected,
            "most_cited": [{"law": law, "count": n, "url": permalink(doc, str(law))} for law, n in most_cited],
            "pairs": pairs}


def citation_json(context: dict) -> dict:
    return {"laws": context["laws"], "pairs": [
        {"from": a, "to": b, "count": len(refs), "citing_units": refs}
        for (a, b), refs in sorted(context["pairs"].items())], "selected": context["selected"]}


LAW_ARG = re.compile(r"[0-9]{1,4}")


def law_arg(request, name: str) -> int | None:
    """A law number of ASCII digits, else None (no pair selected): `²`, `٦١` or 5,000 digits
    select nothing rather than fail."""
    value = (request.args.get(name) or "").strip()
    return int(value) if LAW_ARG.fullmatch(value) else None


async def view(datasette, request):
    """/-/citations (and .json); `?from=61&to=44` lists the units of Law 61 that cite Law 44."""
    citing, cited = law_arg(request, "from"), law_arg(request, "to")
    context = await read(datasette, lambda conn: citation_context(conn, citing, cited))
    if request.url_vars.get("as_json"):
        return json_response(citation_json(context))
    return await html_page(datasette, request, "citation_map.html", context)
