"""/-/citations: which law of the current Laws cites which, read from tables the build wrote
(ingest/references/citations.py). For each law what it cites and what cites it, with counts and titles; a
part-by-part picture (drawn by the template, citation_map.html) and the strongest links.

`?law=61` opens one law; `?from=61&to=44` lists the units of Law 61 that cite Law 44;
`?from_part=part:5&to_part=part:4` lists the law pairs between two parts. JSON at /-/citations.json.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote_from_bytes

from laws_site.http.responses import fragment, html_page, json_response, made_fixed, read, read_fixed
from laws_site.i18n import catalog as i18n
from laws_site.i18n import chrome
from laws_site.read import editions, queries
from laws_site.read.units import labels, permalink

STRONGEST = 15


def citation_base(conn, lang: str = "ja") -> dict:
    """What every citation page and the JSON show alike in one interface language: every law's totals
    and each pair, the parts, the picture, the strongest links, the laws' and parts' labels. The
    same for the whole served database: the page reads it once per language (read_fixed)."""
    doc = queries.registry(conn).current_laws.id
    totals = queries.citation_totals(conn, doc)
    pairs = citation_pairs(conn, doc)
    titles = {t["law"]: t["title"] for t in totals}
    parts = part_list(totals)
    between = [p for p in pairs if p["from_law"] != p["to_law"]]
    strongest = sorted(between, key=lambda p: (-p["units"], p["from_law"], p["to_law"]))[:STRONGEST]
    # every law and part by its label in the interface language (第61条 / Law 61, 第5部 / Part 5),
    # read once here rather than formatted per link in the template
    names = labels(conn, [f"{doc}:{t['law']}" for t in totals] + [f"{doc}:{p['ref']}" for p in parts], lang)
    return {
        "doc": doc,
        "document": queries.document(conn, doc),
        # the Laws named as the menu names them, in the interface's language (规则 2017 / Laws 2017)
        "document_title": chrome.short_titles(conn, lang).get(doc),
        "totals": totals,
        "titles": titles,
        "between": between,
        "parts": parts,
        "law_names": {t["law"]: names.get(f"{doc}:{t['law']}") or str(t["law"]) for t in totals},
        "part_names": {p["number"]: names.get(f"{doc}:{p['ref']}") or str(p["number"]) for p in parts},
        "matrix": part_matrix(parts, queries.part_citations(conn, doc)),
        "strongest": [
            {
                **p,
                "from_title": titles.get(p["from_law"]),
                "to_title": titles.get(p["to_law"]),
                "from_url": permalink(doc, str(p["from_law"])),
                "to_url": permalink(doc, str(p["to_law"])),
            }
            for p in strongest
        ],
        "pairs": pairs,
        "citation_count": sum(p["units"] for p in between),
        "pair_count": len(between),
    }


BASE_SHOWN = (
    "doc",
    "document",
    "document_title",
    "parts",
    "law_names",
    "part_names",
    "matrix",
    "strongest",
    "pairs",
    "citation_count",
    "pair_count",
)


def citation_context(
    conn,
    citing: int | None = None,
    cited: int | None = None,
    law: int | None = None,
    parts_asked: tuple[str, str] | None = None,
    lang: str = "ja",
    lists_for: set[int] | None = None,
    base: dict | None = None,
) -> dict:
    """Everything the page and the JSON show. `lists_for`: the laws whose lists (what each cites and
    what cites it, every citing unit linked) are made; None for every law (the JSON). The page
    shows the lists of the law opened (?law=61) only: making all 93 laws' was a third of its reading.
    ``base``: citation_base's answer, read here unless given (never changed here: shared by pages)."""
    base = base or citation_base(conn, lang)
    doc, titles = base["doc"], base["titles"]
    cites: dict[int, list[dict]] = {}
    cited_by: dict[int, list[dict]] = {}
    for pair in base["between"]:  # rows come ordered by citing law, then cited law
        if lists_for is not None and pair["from_law"] not in lists_for and pair["to_law"] not in lists_for:
            continue
        cites.setdefault(pair["from_law"], []).append(link(doc, pair, pair["to_law"], titles))
        cited_by.setdefault(pair["to_law"], []).append(link(doc, pair, pair["from_law"], titles))
    laws = [
        {
            **total,
            "url": permalink(doc, total["ref"]),
            "anchor": f"law-{total['law']}",
            "cites": cites.get(total["law"], []),
            "cited_by": cited_by.get(total["law"], []),
        }
        for total in base["totals"]
    ]
    selected = selected_pair(doc, base["pairs"], citing, cited, titles)
    if selected:  # each citing unit by its label: 第61条B項2 / Law 61B2
        names = labels(conn, [f"{doc}:{u['ref']}" for u in selected["units"]], lang)
        for unit in selected["units"]:
            unit["label"] = names.get(f"{doc}:{unit['ref']}") or unit["ref"]
    return {
        **{key: base[key] for key in BASE_SHOWN},
        "laws": laws,
        "focus": law if law in titles else None,
        "selected": selected,
        "selected_parts": selected_parts(doc, base["between"], base["parts"], parts_asked, titles),
        # the opened law's 1997 units, from the provision concordance (laws_site/read/editions.py)
        "focus_editions": editions.law_editions(conn, law) if law in titles else [],
    }


PAIR_FIELDS = ("from_law", "to_law", "from_part", "to_part", "units")


def citation_pairs(conn, doc: str) -> list[dict]:
    """The rows of law_citations (made at build, ingest/references/citations.py), read as plain tuples (358
    short rows need no sqlite3.Row and result-budget check each); each pair's citing units stay
    the stored JSON until a list shows them (`citing_units`): the page shows one law's."""
    cursor = conn.cursor()
    cursor.row_factory = None
    rows = cursor.execute(
        "select from_law, to_law, from_part, to_part, units, citing_units from law_citations "
        "where doc = ? order by from_law, to_law",
        (doc,),
    )
    return [{**dict(zip(PAIR_FIELDS, row)), "citing_units_json": row[5]} for row in rows]


def citing_units(pair: dict) -> list[str]:
    """The refs of the units citing in this pair (61B2, 61B3...)."""
    return json.loads(pair["citing_units_json"])


def link(doc: str, pair: dict, other: int, titles: dict[int, str]) -> dict:
    refs = citing_units(pair)
    return {
        "law": other,
        "title": titles.get(other),
        "url": permalink(doc, str(other)),
        "units": pair["units"],
        "units_text": ", ".join(refs),
        "citing_units": [{"ref": ref, "url": permalink(doc, ref)} for ref in refs],
    }


def part_list(totals: list[dict]) -> list[dict]:
    parts: dict[str, dict] = {}
    for total in totals:
        if total["part"] and total["part"] not in parts:
            parts[total["part"]] = {
                "ref": total["part"],
                "title": total["part_title"],
                "position": total["part_position"],
                "laws": [],
            }
        if total["part"]:
            parts[total["part"]]["laws"].append(total["law"])
    ordered = sorted(parts.values(), key=lambda p: p["position"])
    for number, part in enumerate(ordered, start=1):
        part["number"] = number
        part["range"] = f"{part['laws'][0]}–{part['laws'][-1]}" if len(part["laws"]) > 1 else str(part["laws"][0])
    return ordered


def part_matrix(parts: list[dict], cells: list[dict]) -> dict:
    """Rows cite columns: the count of citing units in each cell, with its share of the largest;
    each part's ref as it stands in a query string (`part%3A5`) and each cell's colour strength as
    the picture writes it ("0.51"): data the template would otherwise work out per cell."""
    by_pair = {(c["from_part"], c["to_part"]): c for c in cells}
    most = max((c["units"] for c in cells), default=1)
    rows = []
    for row in parts:
        cells_of_row = []
        for column in parts:
            cell = by_pair.get((row["ref"], column["ref"]), {})
            strength = round(cell.get("units", 0) / most, 3)
            cells_of_row.append(
                {
                    "to": column["ref"],
                    "to_query": query_part(column["ref"]),
                    "to_number": column["number"],
                    "to_title": column["title"],
                    "units": cell.get("units", 0),
                    "law_pairs": cell.get("law_pairs", 0),
                    "strength": strength,
                    "fill": "%.2f" % (0.18 + 0.82 * strength),
                }
            )
        rows.append({**row, "ref_query": query_part(row["ref"]), "cells": cells_of_row})
    return {"rows": rows, "most": most, "size": len(parts)}


def query_part(value: str) -> str:
    """A value percent-encoded as Jinja's `urlencode` filter encodes a string (UTF-8, "/" kept)."""
    return quote_from_bytes(value.encode("utf-8"), "/")


def selected_pair(doc: str, pairs: list[dict], citing: int | None, cited: int | None, titles) -> dict | None:
    if citing not in titles or cited not in titles:  # not a law of these Laws (to=999): no empty, dead link
        return None
    pair = next((p for p in pairs if (p["from_law"], p["to_law"]) == (citing, cited)), None)
    return {
        "from": citing,
        "to": cited,
        "from_title": titles.get(citing),
        "to_title": titles.get(cited),
        "from_url": permalink(doc, str(citing)),
        "to_url": permalink(doc, str(cited)),
        "units": [{"ref": ref, "url": permalink(doc, ref)} for ref in (citing_units(pair) if pair else [])],
    }


def selected_parts(
    doc: str, pairs: list[dict], parts: list[dict], asked: tuple[str, str] | None, titles
) -> dict | None:
    known = {p["ref"]: p for p in parts}
    if not asked or asked[0] not in known or asked[1] not in known:
        return None
    listed = [
        {
            **p,
            "from_title": titles.get(p["from_law"]),
            "to_title": titles.get(p["to_law"]),
            "from_url": permalink(doc, str(p["from_law"])),
            "to_url": permalink(doc, str(p["to_law"])),
        }
        for p in pairs
        if (p["from_part"], p["to_part"]) == asked
    ]
    return {"from": known[asked[0]], "to": known[asked[1]], "pairs": listed}


def citation_json(context: dict) -> dict:
    return {
        "doc": context["doc"],
        "laws": [
            {
                k: law[k]
                for k in (
                    "law",
                    "title",
                    "part",
                    "part_title",
                    "cites_units",
                    "cites_laws",
                    "cited_by_units",
                    "cited_by_laws",
                    "url",
                )
            }
            | {"cites": [strip(x) for x in law["cites"]], "cited_by": [strip(x) for x in law["cited_by"]]}
            for law in context["laws"]
        ],
        "pairs": [
            {"from": p["from_law"], "to": p["to_law"], "count": p["units"], "citing_units": citing_units(p)}
            for p in context["pairs"]
        ],
        "parts": [{k: p[k] for k in ("number", "ref", "title", "range", "laws")} for p in context["parts"]],
        "part_matrix": [
            {"from": row["ref"], "to": c["to"], "units": c["units"], "law_pairs": c["law_pairs"]}
            for row in context["matrix"]["rows"]
            for c in row["cells"]
            if c["units"]
        ],
        "selected": context["selected"],
        "focus_editions": [
            {k: e[k] for k in ("doc", "ref", "to_ref", "relation", "url")} for e in context["focus_editions"]
        ],
    }


def strip(entry: dict) -> dict:
    return {
        "law": entry["law"],
        "title": entry["title"],
        "units": entry["units"],
        "citing_units": [u["ref"] for u in entry["citing_units"]],
    }


LAW_ARG = re.compile(r"[0-9]{1,4}")


def law_arg(request, name: str) -> int | None:
    """A law number of ASCII digits, else None (no pair selected): `²`, `٦١` or 5,000 digits
    select nothing rather than fail."""
    value = (request.args.get(name) or "").strip()
    return int(value) if LAW_ARG.fullmatch(value) else None


async def view(datasette, request):
    citing, cited, law = law_arg(request, "from"), law_arg(request, "to"), law_arg(request, "law")
    parts_asked = (request.args.get("from_part") or "", request.args.get("to_part") or "")
    lang = i18n.lang()
    as_json = bool(request.url_vars.get("as_json"))
    lists_for = None if as_json else {law}  # the page lists the opened law's citations only (citation_map.html)
    base = await read_fixed(datasette, ("citation-base", lang), lambda conn: citation_base(conn, lang))
    context = await read(
        datasette, lambda conn: citation_context(conn, citing, cited, law, parts_asked, lang, lists_for, base)
    )
    if as_json:
        return json_response(citation_json(context))
    context.update(await page_parts(datasette, request, context, lang))
    context["asked_law"] = law  # ?law=999: the page says there is none, rather than open nothing silently
    return await html_page(datasette, request, "citation_map.html", context)


# the parts of the page made from templates of their own (citation_map.html shows them)
PICTURE, LAW_LISTS = "_citation_picture.html", "_citation_laws.html"


async def page_parts(datasette, request, context: dict, lang: str) -> dict:
    """The picture and the laws' list of the page, each from a template of its own: both the same on
    every page of a language (the list where no law is opened), so made once per served database and
    language - they were most of the ~360 citation pages' rendering each (the offline crawl makes
    every one in each language)."""

    def part(template: str):
        return lambda: fragment(datasette, request, template, {**context, "ui_tag": i18n.TAGS[lang]})

    picture = await made_fixed(datasette, ("citation-picture", lang), part(PICTURE))
    if context["focus"] is None:
        law_lists = await made_fixed(datasette, ("citation-laws", lang), part(LAW_LISTS))
    else:
        law_lists = await part(LAW_LISTS)()
    return {"picture": picture, "law_lists": law_lists}
