"""Everything the unit page shows, gathered from the database in one read.

A unit is shown as the book sets it: the unit with all its descendants nested (A. / 1. / (a)),
references as links, footnotes with their markers, and around it what points at it.
"""
from __future__ import annotations

from urllib.parse import unquote, urlencode

from datasette.utils.asgi import Response

from ingest.refs import law_number, parse_law_ref

from .. import queries
from ..linkify import blocks, segments
from ..ref_spelling import canonical_ref, candidate_refs
from ..responses import error_response, html_page, json_response, read
from ..source_notes import source_notes
from ..units import load_unit, nearest_refs, permalink


# Backlinks are grouped by what kind of text cites the unit (commentary has its own panel).
BACKLINK_GROUPS = [("laws", "Laws"), ("index", "Index terms"), ("regulations", "Regulations")]
NAVIGATION_KINDS = {"toc", "toc_entry", "index", "index_row"}
COMMENTARY_KINDS = {"note", "quote"}


def unit_label(unit: dict) -> str | None:
    """The number the book prints before a unit: 第61条, B., 2., (a), (v), ①."""
    kind, attrs = unit["kind"], unit["attrs"]
    if kind in ("law", "article") and attrs.get("number") is not None:
        return f"第{attrs['number']}条"
    if "letter" in attrs:
        return f"{attrs['letter']}."
    label = attrs.get("label")
    if kind in ("subitem", "subsubitem") and label:
        return f"({label})"
    if label and kind in ("item",):
        return str(label)
    if attrs.get("number") is not None and kind in ("item", "paragraph"):
        return f"{attrs['number']}."
    return None


def backlink_group(xref: dict) -> str | None:
    if xref["source_kind"] == "index_entry":
        return "index"
    if xref["source_kind"] in NAVIGATION_KINDS:
        return None
    return {"laws": "laws", "commentary": "commentary", "regulations": "regulations"}.get(
        xref["source_doc_kind"])


def nest(units: list[dict], root_id: str) -> dict:
    """Parent/child tree of the subtree rows (already in reading order)."""
    by_id = {u["id"]: {**u, "children": []} for u in units}
    for node in by_id.values():
        parent = by_id.get(node["parent_id"])
        if parent is not None and node["id"] != root_id:
            parent["children"].append(node)
    return by_id[root_id]


def render_nodes(node: dict, xrefs_by_source: dict[str, list[dict]], anchors: dict[str, str],
                 tables_by_unit: dict[str, list[dict]]) -> None:
    """Add label, title and text (as segments, printed tables in place) to each node; footnotes
    leave the tree for the page foot; items a table shows as its rows leave it for the table."""
    node["label"] = unit_label(node)
    own = xrefs_by_source.get(node["id"], [])
    tables = tables_by_unit.get(node["id"], [])
    in_tables = {row["ref"] for t in tables for g in t["groups"] for row in g["rows"] if row.get("ref")}
    node["title_segments"] = segments(node["title"], own, "title", anchors)
    # a paragraph printed as a table's header row (25-3) is that header, not text of its own
    text = None if node["attrs"].get("cells") and any(t["source"] == "items" for t in tables) else node["text"]
    node["blocks"] = blocks(text, own, tables, anchors)
    node["children"] = [child for child in node["children"]
                        if child["kind"] != "footnote" and child["ref"] not in in_tables]
    for child in node["children"]:
        render_nodes(child, xrefs_by_source, anchors, tables_by_unit)


def tables_by_unit(conn, doc: str, unit_ids: list[str]) -> dict[str, list[dict]]:
    """The printed tables of the shown units; a row standing for an item links to it."""
    out: dict[str, list[dict]] = {}
    for table in queries.unit_tables(conn, unit_ids):
        table["id"] = f"table-{table['ref']}-{table['seq']}"
        for group in table["groups"]:
            for row in group["rows"]:
                if row.get("ref"):
                    row["url"] = permalink(doc, row["ref"])
        out.setdefault(table["unit_id"], []).append(table)
    return out


def table_json(table: dict) -> dict:
    return {"unit": table["ref"], "caption": table["caption"], "source": table["source"],
            "head": table["head"], "groups": table["groups"], "width": table["width"]}


def backlink_label(xref: dict, doc: str, short_titles: dict[str, str]) -> str:
    """How a citing unit is named in the list: 61A; 索引 リボーク › 質問; 競技会運営規則 24-5-1."""
    ref = xref["source_ref"]
    if xref["source_kind"] == "index_entry":
        return ref.removeprefix("index:").replace("/", " › ")
    return ref if xref["source_doc"] == doc else f"{short_titles.get(xref['source_doc'], xref['source_doc'])} {ref}"


def group_backlinks(incoming: list[dict], inside: set[str], doc: str = "",
                    short_titles: dict[str, str] | None = None) -> list[dict]:
    """Citing units (outside this subtree) grouped as laws / index / regulations."""
    groups: dict[str, dict[str, dict]] = {key: {} for key, _ in BACKLINK_GROUPS}
    for xref in incoming:
        group = backlink_group(xref)
        if group not in groups or xref["source_id"] in inside or xref["kind"] == "footnote":
            continue
        entry = groups[group].setdefault(xref["source_id"], {
            "doc": xref["source_doc"], "ref": xref["source_ref"], "kind": xref["source_kind"],
            "label": backlink_label(xref, doc, short_titles or {}),
            "title": None if xref["source_kind"] == "index_entry" else xref["source_title"],
            "url": permalink(xref["source_doc"], xref["source_ref"]), "targets": []})
        if xref["target_ref"] not in entry["targets"]:
            entry["targets"].append(xref["target_ref"])
    return [{"key": key, "label": label, "entries": list(groups[key].values())}
            for key, label in BACKLINK_GROUPS if groups[key]]


def commentary(conn, incoming: list[dict], unit: dict) -> dict:
    """Notes that cover or cite this unit (label, first line, the rest on request) and the
    commentaries that reprint it (one line each, with the comparison)."""
    sources = {}
    for xref in incoming:
        if xref["source_kind"] in COMMENTARY_KINDS:
            sources.setdefault(xref["source_id"], xref)
    units = [queries.unit_by_id(conn, source_id) for source_id in sources]
    units = sorted((u for u in units if u), key=lambda u: u["position"])
    registry = queries.registry(conn)
    xrefs = queries.xrefs_from(conn, [u["id"] for u in units if u["kind"] != "quote"]) if units else []
    notes, reprints = [], {}
    for note in units:
        short = (registry.get(note["doc"]) and registry.get(note["doc"]).short_title) or note["doc"]
        if note["kind"] == "quote":
            reprint = reprints.setdefault(note["doc"], {"doc": note["doc"], "doc_title": short, "quotes": []})
            reprint["quotes"].append({"ref": note["ref"].removeprefix("quote:"), "url": note["url"]})
            continue
        own = [x for x in xrefs if x["source_id"] == note["id"]]
        text = note["text"] or ""
        cut = text.find("\n")
        first_end = len(text) if cut < 0 else cut
        notes.append({"ref": note["ref"], "label": note["attrs"].get("label") or note["ref"], "url": note["url"],
                      "doc": note["doc"], "doc_title": short,
                      "first_line": segments(text, own, "text", None, 0, first_end),
                      "rest": segments(text, own, "text", None, first_end + 1) if cut >= 0 else []})
    law = law_number(unit["ref"])
    for reprint in reprints.values():
        if law is not None and (reprint["doc"], unit["doc"]) in registry.diff_pairs():
            reprint["compare_url"] = "/-/diff?" + urlencode({"ref": unit["ref"], "from": reprint["doc"],
                                                             "to": unit["doc"]})
    return {"notes": notes, "reprints": list(reprints.values())}


def definitions_used(conn, doc: str, units: list[dict]) -> list[dict]:
    """Defined terms of this document whose printed term occurs in the shown text."""
    shown = "\n".join((u["title"] or "") + "\n" + (u["text"] or "") for u in units)
    inside = {u["id"] for u in units}
    return [d for d in queries.definitions(conn, doc)
            if d["id"] not in inside and d["title"] and len(d["title"]) >= 2 and d["title"] in shown]


def other_edition(conn, unit: dict) -> dict | None:
    """The same ref in the other language/edition of the Laws, with a link to the diff page."""
    registry = queries.registry(conn)
    laws = [d.id for d in registry.laws]
    if unit["doc"] not in laws or law_number(unit["ref"]) is None:
        return None
    other_doc = next(d for d in laws if d != unit["doc"])
    other = load_unit(conn, other_doc, unit["ref"])
    if other is None:
        return None
    older, newer = sorted((unit["doc"], other_doc), key=lambda d: laws.index(d), reverse=True)
    compare = "/-/diff?" + urlencode({"ref": unit["ref"], "from": older, "to": newer})
    other_document = registry.get(other_doc)
    return {"doc": other_doc, "ref": other["ref"], "title": other["title"], "url": other["url"],
            "lang": other_document.language, "doc_title": other_document.short_title or other_document.title,
            "compare_url": compare}


def unit_context(conn, doc: str, ref: str) -> dict | None:
    """The template context of /<doc>/<ref>, or None when there is no such unit."""
    unit = load_unit(conn, doc, ref)
    if unit is None:
        return None
    row = queries.unit_by_id(conn, unit["id"])
    units = queries.subtree(conn, unit["id"])
    ids = [u["id"] for u in units]
    unit["source_notes"] = source_notes(conn, ids)  # kept source typos: as printed, probably means
    footnotes = [u for u in units if u["kind"] == "footnote" and u["id"] != unit["id"]]
    anchors = {f["id"]: f"#fn-{f['ref']}" for f in footnotes}
    xrefs = queries.xrefs_from(conn, ids)
    by_source: dict[str, list[dict]] = {}
    for xref in xrefs:
        by_source.setdefault(xref["source_id"], []).append(xref)
    body = nest(units, unit["id"])
    tables = tables_by_unit(conn, doc, ids)
    render_nodes(body, by_source, anchors, tables)
    for footnote in footnotes:
        footnote["segments"] = segments(footnote["text"], by_source.get(footnote["id"], []), "text")
    incoming = queries.xrefs_into(conn, ids)
    document = queries.document(conn, doc)
    return {
        "unit": unit, "document": document, "body": body, "footnotes": footnotes,
        "tables": [table_json(t) for u in units for t in tables.get(u["id"], [])],
        "citation": citation_forms(unit, document),
        "breadcrumb": queries.ancestors(conn, row),
        "backlinks": group_backlinks(incoming, set(ids), doc, {
            d.id: d.short_title or d.title for d in queries.registry(conn).documents}),
        "commentary": commentary(conn, [x for x in incoming if x["source_id"] not in ids], unit),
        "definitions": definitions_used(conn, doc, units),
        "other_edition": other_edition(conn, unit),
        "previous": queries.neighbour(conn, row, "previous"),
        "next": queries.neighbour(conn, row, "next"),
        "outgoing": [xref_json(x) for x in by_source.get(unit["id"], [])],
        "incoming": [incoming_json(x) for x in incoming if x["target_id"] == unit["id"]],
    }


# a law ref printed as each language cites it: 第61条B項2(a) / 第61条B款2(a) / Law 61B2(a)
SECTION_WORD = {"ja": "項", "zh": "款"}


def law_citation(ref: str, language: str) -> str | None:
    law = parse_law_ref(ref)
    if law is None:
        return None
    if language == "en":
        return f"Law {law}"
    out = f"第{law.law}条"
    if law.section:
        out += f"{law.section}{SECTION_WORD[language]}"
    for part, fmt in ((law.item, "{}"), (law.sub, "({})"), (law.subsub, "({})")):
        if part is None:
            break
        out += fmt.format(part)
    return out


def regulation_citation(ref: str) -> dict | None:
    """24-5-1 -> 第24条5項1号; appendix-1 -> 付表1."""
    parts = ref.split("-")
    if parts[0] == "appendix" and len(parts) > 1 and parts[1].isdigit():
        rest = parts[2:]
        if rest[:1] == ["table"] and len(rest) == 2:
            return {"ja": f"付表{parts[1]} 表{rest[1]}", "en": f"Appendix {parts[1]}, table {rest[1]}"}
        return {"ja": f"付表{parts[1]}" + "".join(f"({p})" for p in rest),
                "en": f"Appendix {parts[1]}" + "".join(f"({p})" for p in rest)}
    if not all(p.isdigit() for p in parts):
        return None
    ja = f"第{parts[0]}条" + "".join(f"{p}{w}" for p, w in zip(parts[1:], ("項", "号")))
    return {"ja": ja, "en": f"Regulation {ref}"}


def citation_forms(unit: dict, document: dict) -> dict:
    """How to cite the unit, per language, with its permalink: the copy button's text."""
    ref, role = unit["ref"], document["kind"]
    forms: dict[str, str] = {}
    if role == "laws" and parse_law_ref(ref):
        forms = {lang: law_citation(ref, lang) for lang in ("ja", "zh", "en")}
    elif role == "regulations" and regulation_citation(ref):
        forms = {lang: f"{document.get('short_title') or document['title']} {text}"
                 for lang, text in regulation_citation(ref).items()}
    elif ref.startswith("def:"):
        term = ref.removeprefix("def:")
        forms = {"ja": f"定義「{term}」", "zh": f"定义「{term}」", "en": f"Definition: {term}"}
    if not forms:
        label = unit.get("attrs", {}).get("label") or ref
        forms = {document["language"]: f"{document.get('short_title') or document['title']} {label}"}
    return {"forms": forms, "default": forms.get(document["language"]) or next(iter(forms.values())),
            "language": document["language"], "url": unit["url"]}


def xref_json(xref: dict) -> dict:
    return {"surface": xref["surface"], "kind": xref["kind"], "field": xref["field"],
            "start": xref["start"], "end": xref["end"], "target_doc": xref["target_doc"],
            "target_ref": xref["target_ref"], "resolved": bool(xref["resolved"]), "reason": xref["reason"],
            "url": permalink(xref["target_doc"], xref["target_ref"]) if xref["resolved"] else None}


def incoming_json(xref: dict) -> dict:
    return {"source_doc": xref["source_doc"], "source_ref": xref["source_ref"],
            "source_kind": xref["source_kind"], "surface": xref["surface"], "kind": xref["kind"],
            "url": permalink(xref["source_doc"], xref["source_ref"])}


DOCUMENT_JSON_FIELDS = ("id", "title", "title_en", "edition", "version_date", "publisher", "copyright")


def unit_json(context: dict) -> dict:
    """`bridge-laws show --json` fields, its permalink (the same path on every host), the document
    it is in (title, edition, date), its citation forms and printed tables, and the references out
    of and into the unit."""
    document = context["document"] or {}
    return {**context["unit"], "permalink": context["unit"]["url"],
            "document": {**{k: document.get(k) for k in DOCUMENT_JSON_FIELDS}, "url": f"/{document.get('id')}"},
            "citation": context["citation"], "tables": context["tables"],
            "outgoing": context["outgoing"], "incoming": context["incoming"]}


# ---------------------------------------------------------------- the page


MAX_REF = 200  # the longest ref in the corpus is under 100 characters


async def view(datasette, request):
    doc = request.url_vars["doc"]
    ref = unquote(request.url_vars["ref"]).rstrip("/")
    as_json = bool(request.url_vars.get("as_json"))
    if len(ref) > MAX_REF or "\x00" in ref:  # no such unit; not worth spelling suggestions
        return await error_response(datasette, request, 404, f"No unit of that name in {doc!r}", as_json=as_json,
                                    extra={"suggestions": []}, template="unit_not_found.html",
                                    context={"doc": doc, "ref": ref[:40] + "…", "document": {"title": doc}})
    context = await read(datasette, lambda conn: unit_context(conn, doc, ref))
    if context is None:
        return await missing_unit(datasette, request, doc, ref, as_json)
    if as_json:
        return json_response(unit_json(context))
    return await html_page(datasette, request, "unit.html", context)


async def missing_unit(datasette, request, doc: str, ref: str, as_json: bool):
    """Redirect a differently spelled ref to its canonical form; otherwise a 404 with suggestions."""
    def look_up(conn):
        document = queries.document(conn, doc)
        refs = queries.doc_refs(conn, doc) if document else []
        canonical = (queries.aliased_ref(conn, doc, ref) or canonical_ref(document["kind"], ref, refs)
                     if document else None)
        suggestions = [] if canonical else suggest(conn, doc, ref, refs)
        return document, canonical, suggestions

    document, canonical, suggestions = await read(datasette, look_up)
    if canonical:
        return Response.redirect(permalink(doc, canonical) + (".json" if as_json else ""))
    message = f"No unit {ref!r} in {doc!r}" if document else f"No document {doc!r}"
    return await error_response(datasette, request, 404, message, as_json=as_json, extra={"suggestions": suggestions},
                                template="unit_not_found.html", context={"doc": doc, "ref": ref, "document": document})


def suggest(conn, doc: str, ref: str, refs: list[str]) -> list[dict]:
    """Nearest existing refs: close spellings, then the enclosing law of a too-deep ref."""
    existing = set(refs)
    role = (queries.document(conn, doc) or {}).get("kind", "")
    near = [c for c in candidate_refs(role, ref) if c in existing] + nearest_refs(conn, doc, ref)
    law = law_number(ref)
    if law is not None and str(law) in existing:
        near.append(str(law))
    if not refs:  # unknown document: nearest_refs names documents instead
        return [{"label": s, "url": f"/{s.removeprefix('document ')}"} for s in near]
    return [{"label": r, "url": permalink(doc, r)} for r in dict.fromkeys(near) if r in existing][:8]
