"""Everything the unit page shows, gathered from the database in one read.

A unit is shown as the book sets it: the unit with all its descendants nested (A. / 1. / (a)),
references as links, footnotes with their markers, and around it what points at it.
"""

from __future__ import annotations

import json
from typing import NamedTuple
from urllib.parse import unquote, urlencode

from ingest.references.labels import law_citation, printed_marker
from ingest.sources.registry import Registry
from ingest.text.refs import law_number, parse_law_ref
from ingest.text.spelling import canonical_ref
from laws_site.http.locations import redirect
from laws_site.http.responses import error_response, html_page, json_response, read, read_fixed
from laws_site.i18n import catalog as i18n
from laws_site.i18n import chrome
from laws_site.i18n.catalog import N_
from laws_site.read import editions, missing, queries
from laws_site.read.footnotes import page_footnotes
from laws_site.read.guides import guide_links
from laws_site.read.linkify import blocks, mark_terms, segments
from laws_site.read.source_notes import source_notes
from laws_site.read.units import composed_text, labels_by_language, load_unit, permalink
from laws_site.read.units import labels as unit_labels
from laws_site.search import alternatives as citation_alternatives

# Backlinks are grouped by what kind of text cites the unit (commentary has its own panel).
BACKLINK_GROUPS = [("laws", N_("Laws")), ("index", N_("Index terms")), ("regulations", N_("Regulations"))]
NAVIGATION_KINDS = {"toc", "toc_entry", "index", "index_row"}


def backlink_group(xref: dict) -> str | None:
    if xref["source_kind"] == "index_entry":
        return "index"
    if xref["source_kind"] in NAVIGATION_KINDS:
        return None
    return {"laws": "laws", "commentary": "commentary", "regulations": "regulations"}.get(xref["source_doc_kind"])


def nest(units: list[dict], root_id: str) -> dict:
    """Parent/child tree of the subtree rows (already in reading order)."""
    by_id = {u["id"]: {**u, "children": []} for u in units}
    for node in by_id.values():
        parent = by_id.get(node["parent_id"])
        if parent is not None and node["id"] != root_id:
            parent["children"].append(node)
    return by_id[root_id]


def render_nodes(
    node: dict,
    xrefs_by_source: dict[str, list[dict]],
    anchors: dict[str, str],
    tables_by_unit: dict[str, list[dict]],
    names: dict[str, str] | None = None,
    terms: dict[str, dict] | None = None,
    seen: set[str] | None = None,
) -> None:
    """Add label, title and text (as segments, printed tables in place) to each node; footnotes
    leave the tree for the page foot; items a table shows as its rows leave it for the table.
    ``names``: each unit's label for people (定義: ダミー), shown where the book prints no number."""
    node["label"] = printed_marker(node["kind"], node["attrs"])
    node["name"] = (names or {}).get(node["id"])
    own = xrefs_by_source.get(node["id"], [])
    tables = tables_by_unit.get(node["id"], [])
    in_tables = {row["ref"] for t in tables for g in t["groups"] for row in g["rows"] if row.get("ref")}
    node["title_segments"] = segments(node["title"], own, "title", anchors)
    # a paragraph printed as a table's header row (25-3) is that header, not text of its own
    text = None if node["attrs"].get("cells") and any(t["source"] == "items" for t in tables) else node["text"]
    node["blocks"] = blocks(text, own, tables, anchors)
    # a defined term's first occurrence on the page: a tap shows its definition in place
    mark_terms(node["blocks"], terms or {}, seen if seen is not None else set())
    node["children"] = [
        child for child in node["children"] if child["kind"] != "footnote" and child["ref"] not in in_tables
    ]
    for child in node["children"]:
        render_nodes(child, xrefs_by_source, anchors, tables_by_unit, names, terms, seen)


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
    return {
        "unit": table["ref"],
        "caption": table["caption"],
        "source": table["source"],
        "head": table["head"],
        "groups": table["groups"],
        "width": table["width"],
    }


def group_backlinks(
    incoming: list[dict],
    inside: set[str],
    doc: str = "",
    full_names: dict[str, str] | None = None,
    names: dict[str, str] | None = None,
) -> list[dict]:
    """Citing units (outside this subtree) grouped as laws / index / regulations, each named by its
    label (the document's short title first when it is another document)."""
    groups: dict[str, dict[str, dict]] = {key: {} for key, _ in BACKLINK_GROUPS}
    for xref in incoming:
        group = backlink_group(xref)
        if group not in groups or xref["source_id"] in inside or xref["kind"] == "footnote":
            continue
        label = (
            (names or {}).get(xref["source_id"])
            if xref["source_doc"] == doc
            else (full_names or {}).get(xref["source_id"])
        ) or xref["source_ref"]
        entry = groups[group].setdefault(
            xref["source_id"],
            {
                "doc": xref["source_doc"],
                "ref": xref["source_ref"],
                "kind": xref["source_kind"],
                "label": label,
                "title": None if xref["source_kind"] == "index_entry" else xref["source_title"],
                "url": permalink(xref["source_doc"], xref["source_ref"]),
                "targets": [],
            },
        )
        if xref["target_ref"] not in entry["targets"]:
            entry["targets"].append(xref["target_ref"])
    return [
        {"key": key, "label": label, "entries": list(groups[key].values())}
        for key, label in BACKLINK_GROUPS
        if groups[key]
    ]


def commentary(conn, unit: dict, lang: str, documents: Documents | None = None) -> dict:
    """Notes and worked rulings that apply this unit or one of its parts (label, first line, the
    rest on request), and the commentaries that reprint it (one line each, with the comparison).
    Which ones is decided at build (table unit_commentary, ingest/references/reading.py)."""
    documents = documents or read_documents(conn, lang)
    source_ids = [
        r[0]
        for r in conn.execute(
            "select source_id from unit_commentary where unit_id = ? order by position", (unit["id"],)
        )
    ]
    units = [u for u in (queries.unit_by_id(conn, i) for i in source_ids) if u]
    registry, titles = documents
    xrefs = queries.xrefs_from(conn, [u["id"] for u in units if u["kind"] != "quote"]) if units else []
    names = unit_labels(conn, [u["id"] for u in units], lang)
    notes, reprints = [], {}
    for note in units:
        short = titles.get(note["doc"], note["doc"])
        if note["kind"] == "quote":
            reprint = reprints.setdefault(note["doc"], {"doc": note["doc"], "doc_title": short, "quotes": []})
            reprint["quotes"].append(
                {
                    "ref": note["ref"].removeprefix("quote:"),
                    "url": note["url"],
                    "label": names.get(note["id"]) or note["ref"],
                }
            )
            continue
        own = [x for x in xrefs if x["source_id"] == note["id"]]
        text = note["text"] or ""
        cut = text.find("\n")
        first_end = len(text) if cut < 0 else cut
        notes.append(
            {
                "ref": note["ref"],
                "kind": note["kind"],
                "label": names.get(note["id"]) or note["ref"],
                "title": note["title"]
                if note["title"] not in (None, note["ref"], note["attrs"].get("label"))
                else None,
                "url": note["url"],
                "doc": note["doc"],
                "doc_title": short,
                "first_line": segments(text, own, "text", None, 0, first_end),
                "rest": segments(text, own, "text", None, first_end + 1) if cut >= 0 else [],
            }
        )
    law = law_number(unit["ref"])
    for reprint in reprints.values():
        if law is not None and (reprint["doc"], unit["doc"]) in registry.diff_pairs():
            reprint["compare_url"] = "/-/diff?" + urlencode(
                {"ref": unit["ref"], "from": reprint["doc"], "to": unit["doc"]}
            )
    return {
        "notes": [n for n in notes if n["kind"] != "ruling"],
        "rulings": [n for n in notes if n["kind"] == "ruling"],
        "reprints": list(reprints.values()),
    }


def short_titles(conn, lang: str) -> dict[str, str]:
    """Each document's short title in the interface language (chrome.short_titles)."""
    return chrome.short_titles(conn, lang)


class Documents(NamedTuple):
    """What the page reads of table documents: the registry and the short titles in the page's
    language. Constant while an immutable database is served: `view` reads it once per database
    (http/responses.read_fixed, shared with the chrome's hooks), not once per page."""

    registry: Registry
    titles: dict[str, str]


def read_documents(conn, lang: str) -> Documents:
    return Documents(queries.registry(conn), short_titles(conn, lang))


async def fixed_documents(datasette, lang: str) -> Documents:
    registry = await read_fixed(datasette, "registry", queries.registry)
    titles = await read_fixed(datasette, ("short_titles", lang), lambda conn: short_titles(conn, lang))
    return Documents(registry, titles)


def definitions_used(conn, doc: str, units: list[dict]) -> list[dict]:
    """Defined terms of this document whose printed term occurs in the shown text."""
    shown = "\n".join((u["title"] or "") + "\n" + (u["text"] or "") for u in units)
    inside = {u["id"] for u in units}
    return [d for d in queries.definitions_in(conn, doc, shown) if d["id"] not in inside]


LAW_KINDS = editions.LAW_KINDS


def add_title_marks(node: dict, marks: dict[str, list[dict]]) -> None:
    """Each shown heading's footnote markers after its title (Law 13: カードの過不足 *2)."""
    node["title_segments"] = node["title_segments"] + marks.get(node["id"], [])
    for child in node["children"]:
        add_title_marks(child, marks)


def reading_neighbours(conn, row: dict) -> tuple[dict | None, dict | None]:
    """Previous and next in reading order within the document (table unit_reading: a row per unit)."""
    found = conn.execute("select previous_id, next_id from unit_reading where unit_id = ?", (row["id"],)).fetchone()
    return tuple(queries.unit_by_id(conn, i) if i else None for i in found)


SIBLING_COLUMNS = "id, doc, ref, kind, attrs"


def siblings(conn, row: dict) -> list[dict]:
    """The units beside this one under the same parent (A. B. C. / 1. 2. / (a) (b)), in order: what
    the list of them shows (id, doc, ref, kind, attrs, url), not their texts (up to 61 rows a page)."""
    if not row.get("parent_id"):
        return []
    # 1997 Law 23's neighbours are laws, not the divisions beside it
    headings = "" if row["kind"] in HEADING_KINDS else " and kind not in ('part', 'chapter', 'division')"
    rows = conn.execute(  # one more than shown: a 索引 entry has ~2,000 siblings, none read
        f"select {SIBLING_COLUMNS} from sections where parent_id = ? and kind != 'footnote'{headings} "
        f"order by position limit {MAX_SIBLINGS + 1}",
        (row["parent_id"],),
    )
    out = [sibling(*r) for r in rows]
    return out if 1 < len(out) <= MAX_SIBLINGS else []


def sibling(unit_id: str, doc: str, ref: str, kind: str, attrs: str | None) -> dict:
    return {
        "id": unit_id,
        "ref": ref,
        "kind": kind,
        "attrs": json.loads(attrs) if attrs else {},
        "url": permalink(doc, ref),
    }


MAX_SIBLINGS = 60


HEADING_KINDS = frozenset({"part", "chapter", "division"})


def unit_context(conn, doc: str, ref: str, lang: str = "ja", documents: Documents | None = None) -> dict | None:
    """The template context of /<doc>/<ref>, or None when there is no such unit. ``lang`` is the
    interface language: the labels people read (第61条B項2 / Law 61B2) are in it. ``documents``:
    read here unless given (`fixed_documents`)."""
    unit = load_unit(conn, doc, ref)
    if unit is None:
        return None
    documents = documents or read_documents(conn, lang)
    row = queries.unit_by_id(conn, unit["id"])
    units = queries.subtree(conn, unit["id"])
    ids = [u["id"] for u in units]
    unit["source_notes"] = source_notes(conn, ids, lang)  # kept source typos: as printed, probably means
    chain = queries.ancestors(conn, row)
    previous, following = reading_neighbours(conn, row)
    beside = siblings(conn, row)
    xrefs = queries.xrefs_from(conn, ids + [a["id"] for a in chain])
    footnotes, title_marks = page_footnotes(conn, unit, units, chain)
    anchors = {f["id"]: f"#fn-{f['ref']}" for f in footnotes}
    xrefs += queries.xrefs_from(conn, [f["id"] for f in footnotes if f["id"] not in ids])
    # a reference printed against an older edition (付表7-4's 23条) already points where it means
    # now (72C): the build re-pointed its row (ingest/references/moved.py)
    incoming = queries.xrefs_into(conn, ids)
    names = unit_labels(
        conn,
        [
            *ids,
            *(a["id"] for a in chain),
            *(x["target_id"] for x in xrefs),
            *(u["id"] for u in (previous, following) if u),
            *(u["id"] for u in beside),
            *(x["source_id"] for x in incoming if x["source_doc"] == doc),
        ],
        lang,
    )
    full_names = unit_labels(
        conn,
        [x["target_id"] for x in xrefs if x["target_doc"] != doc] + [x["source_id"] for x in incoming],
        lang,
        full=True,
    )
    for xref in xrefs:
        xref["target_label"] = (full_names if xref["target_doc"] != doc else names).get(xref["target_id"])
    by_source: dict[str, list[dict]] = {}
    for xref in xrefs:
        by_source.setdefault(xref["source_id"], []).append(xref)
    body = nest(units, unit["id"])
    tables = tables_by_unit(conn, doc, ids)
    used = definitions_used(conn, doc, units)
    terms = {
        d["title"]: {
            "url": d["url"],
            "label": d["attrs"].get("term_en") and f"{d['title']} ({d['attrs']['term_en']})" or d["title"],
        }
        for d in used
    }
    render_nodes(body, by_source, anchors, tables, names, terms, set())
    add_title_marks(body, title_marks)
    for footnote in footnotes:
        footnote["segments"] = segments(footnote["text"], by_source.get(footnote["id"], []), "text")
        footnote["label"] = names.get(footnote["id"])
    document = queries.document(conn, doc)
    for ancestor in chain:
        ancestor["label"] = names.get(ancestor["id"]) or ancestor["ref"]
        ancestor["lead_in"] = segments(ancestor["text"], by_source.get(ancestor["id"], []), "text", anchors)
        ancestor["title_segments"] = segments(
            ancestor["title"], by_source.get(ancestor["id"], []), "title", anchors
        ) + title_marks.get(ancestor["id"], [])
    for near in (previous, following):
        if near:
            near["label"] = names.get(near["id"]) or near["ref"]
    law = next((a for a in reversed(chain) if a["kind"] in LAW_KINDS), None)
    label = names.get(unit["id"]) or unit["ref"]
    short_labels, full_labels = labels_by_language(conn, unit["id"])
    return {
        "unit": unit,
        "document": document,
        "body": body,
        "footnotes": footnotes,
        "label": label,
        "document_title": documents.titles.get(doc),
        "tables": [table_json(t) for u in units for t in tables.get(u["id"], [])],
        "citation": citation_forms(
            unit,
            document,
            {code: full_labels.get(code) for code in ("ja", "zh", "en")},
            {code: short_labels.get(code) for code in ("ja", "zh", "en")},
        ),
        "breadcrumb": chain,
        "law": law,
        # the parents whose words this unit completes (27B's lead-in for 27B1(b)): not parts or chapters
        "context": [a for a in chain if a["kind"] not in ("part", "chapter", "division", "document")],
        # the number printed before each (B. / 1. / (a)); whole laws by their label (第48条 / Law 48)
        "siblings": [
            {
                "label": (None if s["kind"] in LAW_KINDS else printed_marker(s["kind"], s["attrs"]))
                or names.get(s["id"])
                or s["ref"],
                "full_label": names.get(s["id"]),
                "url": s["url"],
                "current": s["id"] == unit["id"],
            }
            for s in beside
        ],
        "backlinks": group_backlinks(incoming, set(ids), doc, full_names, names),
        "commentary": commentary(conn, unit, lang, documents),
        "definitions": used,
        "other_edition": editions.edition_box(conn, unit, ids, lang),
        "previous": previous,
        "next": following,
        "full_text": composed_text(units),
        "outgoing": [xref_json(x) for x in by_source.get(unit["id"], [])],
        "incoming": [incoming_json(x) for x in incoming if x["target_id"] == unit["id"]],
        "guides": guide_links(conn, [unit["id"]], lang),  # the ruling guides that cover this unit
    }


def regulation_citation(ref: str) -> dict | None:
    """24-5-1 -> 第24条5項1号; appendix-1 -> 付表1."""
    parts = ref.split("-")
    if parts[0] == "appendix" and len(parts) > 1 and parts[1].isdigit():
        rest = parts[2:]
        if rest[:1] == ["table"] and len(rest) == 2:
            return {"ja": f"付表{parts[1]} 表{rest[1]}", "en": f"Appendix {parts[1]}, table {rest[1]}"}
        return {
            "ja": f"付表{parts[1]}" + "".join(f"({p})" for p in rest),
            "en": f"Appendix {parts[1]}" + "".join(f"({p})" for p in rest),
        }
    if not all(p.isdigit() for p in parts):
        return None
    ja = f"第{parts[0]}条" + "".join(f"{p}{w}" for p, w in zip(parts[1:], ("項", "号")))
    return {"ja": ja, "en": f"Regulation {ref}"}


def citation_forms(
    unit: dict,
    document: dict,
    full_labels: dict[str, str | None] | None = None,
    labels: dict[str, str | None] | None = None,
) -> dict:
    """How to cite the unit, per language, with its permalink: the copy button's text."""
    ref, role = unit["ref"], document["kind"]
    forms: dict[str, str] = {}
    if role == "laws" and parse_law_ref(ref):
        # each language's way of citing a law: 第61条B項2(a) / 第61条B款2(a) / Law 61B2(a) (ingest/references/labels.py)
        forms = {lang: law_citation(ref, lang) for lang in ("ja", "zh", "en")}
    elif role == "regulations" and labels and all(labels.get(lang) for lang in ("ja", "zh", "en")):
        # each language wholly in that language (ingest/references/labels.py): 競技会運営規則 付表7-4 /
        # 竞赛运营规则 附表7-4 / JCBL tournament regulations, Appendix 7-4
        names = {
            "ja": document.get("short_title") or document["title"],
            "zh": document.get("short_title_zh") or document.get("short_title") or document["title"],
            "en": document.get("title_en") or document.get("short_title_en") or document["title"],
        }
        forms = {
            "ja": f"{names['ja']} {labels['ja']}",
            "zh": f"{names['zh']} {labels['zh']}",
            "en": f"{names['en']}, {labels['en']}",
        }
    elif role == "regulations" and regulation_citation(ref):
        forms = {
            lang: f"{document.get('short_title') or document['title']} {text}"
            for lang, text in regulation_citation(ref).items()
        }
    elif ref.startswith("def:"):
        term = ref.removeprefix("def:")
        forms = {"ja": f"定義「{term}」", "zh": f"定义「{term}」", "en": f"Definition: {term}"}
    if not forms and full_labels and any(full_labels.values()):
        # a note, a preface, an index entry: its label with the document's short title, per language
        forms = {lang: label for lang, label in full_labels.items() if label}
    if not forms:
        label = unit.get("attrs", {}).get("label") or ref
        forms = {document["language"]: f"{document.get('short_title') or document['title']} {label}"}
    return {
        "forms": forms,
        "default": forms.get(document["language"]) or next(iter(forms.values())),
        "language": document["language"],
        "url": unit["url"],
    }


def xref_json(xref: dict) -> dict:
    return {
        "surface": xref["surface"],
        "kind": xref["kind"],
        "field": xref["field"],
        "start": xref["start"],
        "end": xref["end"],
        "target_doc": xref["target_doc"],
        "target_ref": xref["target_ref"],
        "resolved": bool(xref["resolved"]),
        "reason": xref["reason"],
        "url": permalink(xref["target_doc"], xref["target_ref"]) if xref["resolved"] else None,
    }


def incoming_json(xref: dict) -> dict:
    return {
        "source_doc": xref["source_doc"],
        "source_ref": xref["source_ref"],
        "source_kind": xref["source_kind"],
        "surface": xref["surface"],
        "kind": xref["kind"],
        "url": permalink(xref["source_doc"], xref["source_ref"]),
    }


DOCUMENT_JSON_FIELDS = ("id", "title", "title_en", "edition", "version_date", "publisher", "copyright")


def unit_json(context: dict) -> dict:
    """`bridge-laws show --json` fields, its permalink (the same path on every host), the document
    it is in (title, edition, date), its citation forms and printed tables, and the references out
    of and into the unit."""
    document = context["document"] or {}
    return {
        **context["unit"],
        "full_text": context["full_text"],
        "permalink": context["unit"]["url"],
        "document": {**{k: document.get(k) for k in DOCUMENT_JSON_FIELDS}, "url": f"/{document.get('id')}"},
        "citation": context["citation"],
        "tables": context["tables"],
        "outgoing": context["outgoing"],
        "incoming": context["incoming"],
        "counterparts": editions.counterparts_json(context["other_edition"]),
        "edition_status": context["other_edition"]["status"],
        "moved_references": context["other_edition"]["flags"],
        "history": context["other_edition"]["history_url"],
    }


# ---------------------------------------------------------------- the page


MAX_REF = 200  # the longest ref in the corpus is under 100 characters


async def view(datasette, request):
    doc = request.url_vars["doc"]
    ref = unquote(request.url_vars["ref"]).rstrip("/")
    as_json = bool(request.url_vars.get("as_json"))
    if len(ref) > MAX_REF or "\x00" in ref:  # no such unit; not worth spelling suggestions
        return await error_response(
            datasette,
            request,
            404,
            f"No unit of that name in {doc!r}",
            as_json=as_json,
            extra={"suggestions": []},
            template="unit_not_found.html",
            context={"doc": doc, "ref": ref[:40] + "…", "document": {"title": doc}},
        )
    lang = i18n.lang()  # read before the thread: a read thread does not see the request's context
    documents = await fixed_documents(datasette, lang)
    context = await read(datasette, lambda conn: unit_context(conn, doc, ref, lang, documents))
    if context is None:
        return await missing_unit(datasette, request, doc, ref, as_json)
    if as_json:
        return json_response(unit_json(context))
    if request.args.get("from_search"):  # 27条 opened Law 27: offer the regulations' article 27 too
        query, opened = request.args["from_search"], context["unit"]["id"]
        offered = await read(datasette, lambda conn: citation_alternatives.for_opened_unit(conn, query, opened))
        context["citation_alternatives"] = citation_alternatives.in_language(offered, lang)
    return await html_page(datasette, request, "unit.html", context)


async def missing_unit(datasette, request, doc: str, ref: str, as_json: bool):
    """Redirect a differently spelled ref to its canonical form; otherwise a 404 with suggestions."""
    lang = i18n.lang()  # read before the thread

    def look_up(conn):
        document = queries.document(conn, doc)
        refs = queries.doc_refs(conn, doc) if document else []
        canonical = (
            queries.aliased_ref(conn, doc, ref) or canonical_ref(document["kind"], ref, refs) if document else None
        )
        suggestions = [] if canonical else missing.offered(conn, doc, ref, refs, lang)
        if document:  # what people read: the document's short title in their language
            document = {**document, "name": short_titles(conn, lang).get(doc)}
        return document, canonical, suggestions

    document, canonical, suggestions = await read(datasette, look_up)
    if canonical:
        return redirect(permalink(doc, canonical) + (".json" if as_json else ""))
    message = f"No unit {ref!r} in {doc!r}" if document else f"No document {doc!r}"
    return await error_response(
        datasette,
        request,
        404,
        message,
        as_json=as_json,
        extra={"suggestions": suggestions},
        template="unit_not_found.html",
        context={"doc": doc, "ref": ref, "document": document},
    )
